"""The dispatcher's two queues (issue 33, item 2): the GM's jobs (views, the GM's welcome,
seats, the door) go before every other viewer's welcome, each queue in its own order."""
from __future__ import annotations

import threading

from companion.server.fanout import Dispatcher


def test_the_gms_jobs_jump_the_queue_of_other_viewers_welcomes(tables) -> None:
    dispatcher = Dispatcher(tables.narration)
    done: list[str] = []
    held, sending = threading.Event(), threading.Event()
    dispatcher.put("welcome", lambda: (sending.set(), held.wait(5), done.append("tela 0")),
                   behind=True)
    dispatcher.start()
    try:
        assert sending.wait(5)  # a table screen's welcome is being sent
        for n in range(1, 4):
            dispatcher.put("welcome", lambda n=n: done.append(f"tela {n}"), behind=True)
        dispatcher.put("views", lambda: done.append("estado"))
        dispatcher.put("welcome", lambda: done.append("mestre"))
        finished = threading.Event()
        dispatcher.put("fim", finished.set, behind=True)
        held.set()
        assert finished.wait(5)
    finally:
        dispatcher.stop()
    # only the welcome already being sent goes before the GM's
    assert done == ["tela 0", "estado", "mestre", "tela 1", "tela 2", "tela 3"]


def test_a_failing_job_is_logged_and_the_next_runs(tables) -> None:
    dispatcher = Dispatcher(tables.narration)
    dispatcher.start()
    ran = threading.Event()
    try:
        dispatcher.put("views", lambda: 1 / 0)
        dispatcher.put("welcome", ran.set, behind=True)
        assert ran.wait(5)
    finally:
        dispatcher.stop()
