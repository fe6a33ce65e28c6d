"""Helpers shared by the test_fidelity test modules."""
from __future__ import annotations

from typing import Any

import pytest

from companion.session import Session
from companion.tables.files import Tables


class Table:
    """A session in memory with a seed; `run` says the lines as the GM, one at a time."""

    def __init__(self, tables: Tables, seed: int) -> None:
        self.session = Session.open(None, seed, tables)
        self.events: list[dict[str, Any]] = []

    def run(self, *lines: str) -> list[dict[str, Any]]:
        """Run the lines; every one must be accepted. Returns their events."""
        out: list[dict[str, Any]] = []
        for line in lines:
            result = self.session.run(line)
            assert result.ok, (line, result.error)
            out += result.events
        self.events += out
        return out

    def refuse(self, line: str) -> str:
        """Run a line that must be refused, changing nothing; returns the message."""
        before = self.session.state
        result = self.session.run(line)
        assert not result.ok, line
        assert self.session.state == before
        return str(result.error)

    @property
    def state(self) -> Any:
        return self.session.state

    def char(self, name: str) -> Any:
        return next(c for c in self.state.party if c.name == name)


@pytest.fixture
def table(tables: Tables):
    opened: list[Table] = []

    def make(seed: int) -> Table:
        opened.append(Table(tables, seed))
        return opened[-1]
    yield make
    for each in opened:
        each.session.close()


def rolls(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == "rolagem" and e["data"]["tabela"] == name]


# ---------------------------------------------------------------- 7. secrets through side doors

SLEEP_HURT = ("personagem Ana pv 8", "masmorra inseguro", "acender lanterna",
              "Ana toma 5 de dano", "dormir")
