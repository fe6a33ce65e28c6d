"""The benchmark's phones: real Socket.IO clients, in this process or in worker processes.

A hundred python-socketio clients in one process read their messages one GIL at a time: with
the companion's views (an `estado` per viewer per command) they fall behind a 20-commands/s
stream, and a GM client sharing that process reads the server's ping ~20 s late and is dropped
for it (Engine.IO's ping timeout) while the server itself idles at a third of a core. The
sustained run puts its phones in a `Fleet` of worker processes, so the GM's client is alone in
the bench's own process and what is measured is the server.
"""
from __future__ import annotations

import logging
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.socket_client import ordered_client  # noqa: E402

logging.getLogger("engineio.client").setLevel(logging.CRITICAL)  # "packet queue is empty"

GM = "Mestre"  # the GM's stream, among the players' names


@dataclass
class Phone:
    """One real Socket.IO client: every `evento` it gets, with the time it arrived."""

    url: str
    auth: dict[str, Any]
    events: list[tuple[float, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sio = ordered_client(reconnection=False)
        self.sio.on("evento", self._got)
        self.sio.on("eventos", lambda events: [self._got(e) for e in events])  # a welcome's
        self.sio.connect(self.url, auth=self.auth, transports=["websocket"], wait_timeout=10)

    def _got(self, event: dict[str, Any]) -> None:
        self.events.append((time.perf_counter(), int(event["seq"])))

    def close(self) -> None:
        self.sio.disconnect()


def player_names(count: int) -> list[str]:
    return [f"Jogador {i + 1}" for i in range(count)]


def wait_quiet(phones: list[Phone], still: float) -> None:
    """Until none of `phones` has received anything for `still` seconds."""
    last = -1
    while True:
        total = sum(len(p.events) for p in phones)
        if total == last:
            return
        last = total
        time.sleep(still)


class Table:
    """A GM and `players` phones against one server, all in this process."""

    def __init__(self, url: str, players: int, gm_token: str) -> None:
        self.phones = [Phone(url, {"nome": name}) for name in player_names(players)]
        self.gm = Phone(url, {"token": gm_token})
        self.quiet()

    def quiet(self, still: float = 0.3) -> None:
        wait_quiet(self.phones + [self.gm], still)

    def close(self) -> None:
        for phone in self.phones + [self.gm]:
            phone.close()


def _serve_phones(url: str, names: list[str], orders: Connection) -> None:
    """A worker process: join `names`, say "prontos", and on "parar" send back each name's
    event numbers once nothing arrives for half a second."""
    phones = [Phone(url, {"nome": name}) for name in names]
    orders.send("prontos")
    orders.recv()
    wait_quiet(phones, 0.5)
    orders.send({name: [seq for _, seq in phone.events] for name, phone in zip(names, phones)})
    for phone in phones:
        phone.close()


class Fleet:
    """`players` phones spread over `processes` worker processes (spawned: nothing of this
    process's threads or sockets is inherited); `streams()` collects what each received."""

    def __init__(self, url: str, players: int, processes: int = 2) -> None:
        context = multiprocessing.get_context("spawn")
        names = player_names(players)
        self._orders: list[Connection] = []
        self._workers = []
        for index in range(processes):
            ours, theirs = context.Pipe()
            worker = context.Process(target=_serve_phones, daemon=True,
                                     args=(url, names[index::processes], theirs))
            worker.start()
            self._orders.append(ours)
            self._workers.append(worker)
        for orders in self._orders:
            if not self._ready(orders):
                self.close()
                raise RuntimeError("os celulares de um processo não se conectaram (em 120 s, "
                                   "ou o processo falhou: o erro dele sai acima)")

    @staticmethod
    def _ready(orders: Connection) -> bool:
        try:
            return orders.poll(120) and orders.recv() == "prontos"
        except EOFError:  # the worker failed (its traceback is on stderr)
            return False

    def streams(self) -> dict[str, list[int]]:
        """Each player's event numbers, in the order they arrived (once, at the end)."""
        self._stop()
        received: dict[str, list[int]] = {}
        for orders in self._orders:
            received.update(orders.recv())
        return received

    def _stop(self) -> None:
        """Tell every worker to report and leave (a worker reads one order: a second one,
        from `close` after `streams`, is never read)."""
        for orders in self._orders:
            try:
                orders.send("parar")
            except OSError:  # that worker is gone already
                pass

    def close(self) -> None:
        """The workers gone, whether or not their streams were read."""
        self._stop()
        for worker in self._workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
        for orders in self._orders:
            orders.close()
