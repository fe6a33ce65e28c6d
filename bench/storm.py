"""bench/live.py's reconnection storms: many phones reconnecting at once, and what each costs."""
from __future__ import annotations

import statistics
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import socketio

from servers import COMMAND, TOKEN, companion, floor, running  # also puts the checkout on sys.path

from companion.rules.loader import load_rules  # noqa: E402
from companion.session import Session  # noqa: E402


# ---------------------------------------------------------------------------- reconnecting

RECONNECT_EVENTS = (1_000, 10_000, 50_000)  # public events in the campaign


def public_campaign(db: Path, events: int) -> None:
    """A campaign of `events` public events (one roll each; no fsync while building)."""
    session = Session.open(db, 1, load_rules(), gm_token=TOKEN)
    session._log._db.execute("PRAGMA synchronous=OFF")  # the bench's own shortcut
    while session.last_seq() < events:
        session.run(COMMAND)
    session.close()


def reconnections(url: str, samples: int, ask: bool) -> list[float]:
    """Seconds from a table screen's connect to its `estado` (`ask`: the floor, which sends
    its welcome when asked), `samples` times after one untimed (its projection is made once
    per server)."""
    times = []
    for index in range(samples + 1):
        done = threading.Event()
        client = socketio.Client(reconnection=False)
        client.on("estado", lambda *_: done.set())
        began = time.perf_counter()
        client.connect(url, auth={"papel": "mesa", "lote": True}, transports=["websocket"], wait_timeout=10)
        if ask:
            client.emit("boas")
        if not done.wait(60):
            raise RuntimeError("a tela da mesa não recebeu o estado em 60 s")
        if index:
            times.append(time.perf_counter() - began)
        client.disconnect()
    return times


STORM = 100  # table screens connecting at once
STORM_EVENTS = 5_000  # public events in the storm's campaign
LOOPERS = 4  # table screens reconnecting in a loop during the storm


@dataclass
class Storm:
    """What the GM saw while STORM table screens connected at once and LOOPERS reconnected in
    a loop: seconds."""

    command: float  # the GM's command round trip
    reconnect: float  # the GM's reconnection: connect → its `estado`
    storm: float  # the STORM screens, from the first connect to the last `estado`
    looped: int  # welcomes the loop got meanwhile


def _welcomed_client(url: str, auth: dict[str, Any], ask: bool,
                     welcomed: Callable[[], Any]) -> socketio.Client:
    client = socketio.Client(reconnection=False)
    client.on("estado", lambda *_: welcomed())
    client.connect(url, auth=auth, transports=["websocket"], wait_timeout=60)
    if ask:
        client.emit("boas")
    return client


def storm_round_trip(url: str, ask: bool) -> Storm:
    """The storm (see Storm) against one server (`ask`: the floor, which sends its welcome
    when asked); the GM sends a command, then reconnects, as the screens begin."""
    gm = socketio.Client(reconnection=False)
    gm.connect(url, auth={"token": TOKEN}, transports=["websocket"], wait_timeout=10)
    welcomed = threading.Semaphore(0)
    screens: list[socketio.Client] = []
    stop = threading.Event()
    looped = [0]

    def screen() -> None:
        try:
            screens.append(_welcomed_client(url, {"papel": "mesa", "lote": True}, ask,
                                            welcomed.release))
        except Exception:
            welcomed.release()  # refused or failed: counted, so the storm ends

    def loop() -> None:
        while not stop.is_set():
            done = threading.Event()
            try:
                client = _welcomed_client(url, {"papel": "mesa", "lote": True}, ask, done.set)
            except Exception:
                continue
            if done.wait(10):
                looped[0] += 1
            client.disconnect()

    loopers = [threading.Thread(target=loop, daemon=True) for _ in range(LOOPERS)]
    for thread in loopers:
        thread.start()
    time.sleep(0.5)  # the loop is going
    began = time.perf_counter()
    threads = [threading.Thread(target=screen, daemon=True) for _ in range(STORM)]
    for thread in threads:
        thread.start()
    sent = time.perf_counter()
    gm.call("comando", {"text": COMMAND}, timeout=120)
    round_trip = time.perf_counter() - sent
    gm.disconnect()
    back = threading.Event()
    again = time.perf_counter()
    gm = _welcomed_client(url, {"token": TOKEN, "lote": True}, ask, back.set)
    back.wait(120)
    reconnect = time.perf_counter() - again
    for _ in range(STORM):
        welcomed.acquire(timeout=120)
    storm = time.perf_counter() - began
    stop.set()
    for thread in loopers:
        thread.join(timeout=30)
    for client in [gm, *screens]:
        if client.connected:
            client.disconnect()
    return Storm(round_trip, reconnect, storm, looped[0])


def storms(folder: Path, size: int) -> tuple[Storm, Storm]:
    """(floor, Mesa) storm_round_trip on a campaign of STORM_EVENTS public events."""
    db = folder / f"tempestade-{STORM_EVENTS}.db"
    public_campaign(db, STORM_EVENTS)
    with running([floor(size), companion(folder, db=db)]) as servers:
        found = [storm_round_trip(server.url, ask=index == 0)
                 for index, server in enumerate(servers)]
    return found[0], found[1]


def reconnect_costs(folder: Path, size: int, samples: int) -> list[tuple[int, float, float]]:
    """(public events, floor median s, Mesa median s) for each RECONNECT_EVENTS campaign."""
    found = []
    for events in RECONNECT_EVENTS:
        db = folder / f"publica-{events}.db"
        public_campaign(db, events)
        with running([floor(size), companion(folder, db=db)]) as servers:
            medians = [statistics.median(reconnections(server.url, samples, ask=index == 0))
                       for index, server in enumerate(servers)]
        found.append((events, medians[0], medians[1]))
        print(f"  … reconexão com {events} eventos medida", file=sys.stderr, flush=True)
    return found
