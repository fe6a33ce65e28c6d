"""Shared fixtures: the real tables and a helper that applies commands with a fixed seed."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import settings

# Shared, noisy machines: Hypothesis judges correctness here, never speed.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

from companion.engine import Command, Event, State, apply, initial_state
from companion.tables.files import Tables
from companion.rules.loader import load_rules


@pytest.fixture(scope="session")
def tables() -> Tables:
    return load_rules()


class Play:
    """Apply commands to a state in a test, one RNG per command like the session does."""

    def __init__(self, tables: Tables, state: State | None = None, seed: int = 7) -> None:
        self.tables = tables
        self.state = state or initial_state(tables)
        self.seed = seed
        self.number = 0
        self.events: list[Event] = []

    def __call__(self, name: str, actor: str = "gm", rng: random.Random | None = None,
                 **args: Any) -> list[Event]:
        self.number += 1
        generator = rng or random.Random(f"{self.seed}:{self.number}")
        self.state, events = apply(self.state, Command(name, args, actor), generator,
                                   self.tables)
        self.events.extend(events)
        return events


@pytest.fixture
def play(tables: Tables) -> Play:
    return Play(tables)


class FixedDice(random.Random):
    """An RNG whose dice come out as the given faces, in order (for reaching table rows)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:  # the dice library rolls with randint
        if not self.faces:
            raise AssertionError("FixedDice ran out of faces")
        value = self.faces.pop(0)
        assert a <= value <= b, f"face {value} outside {a}..{b}"
        return value


SERVER_GM_TOKEN = "token-secreto-do-mestre"


@pytest.fixture
def server_seed() -> int:
    """The seed of the server tests' session (a module may override it)."""
    return 7


@pytest.fixture
def session(tmp_path: Path, tables: Tables, server_seed: int) -> Iterator[Any]:
    """A session on a real SQLite file with a known GM token."""
    from companion.session import Session

    opened = Session.open(tmp_path / "mesa.db", server_seed, tables, gm_token=SERVER_GM_TOKEN)
    yield opened
    opened.close()


@pytest.fixture
def server(session: Any) -> Iterator[Any]:
    """The real server for that session, on a free loopback port."""
    from companion.server.app import start_in_thread

    running = start_in_thread(session)
    yield running
    running.stop()


@pytest.fixture
def peers(server: Any) -> Iterator[Callable[..., Any]]:
    """Real Socket.IO clients (tests/socket_helpers.Peer) on that server, closed afterwards."""
    from tests.socket_helpers import Peer

    made: list[Peer] = []

    def make(auth: dict[str, Any] | None, **options: Any) -> Peer:
        peer = Peer(server.url, auth, **options)
        made.append(peer)
        return peer

    yield make
    for peer in made:
        peer.close()
