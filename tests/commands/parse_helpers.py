"""Helpers shared by the test_parse test modules."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import pytest
import yaml

from companion.session import Session
from companion.tables.files import Tables

GOLDEN = yaml.safe_load((Path(__file__).resolve().parents[1] / "golden" / "sentences.yaml")
                        .read_text("utf-8"))


# ---------------------------------------------------------------- values outside the lists


SessionFactory = Callable[..., Session]


@pytest.fixture
def session_after(tables: Tables) -> Iterator[SessionFactory]:
    """An in-memory session that has run the given lines (closed after the test)."""
    opened: list[Session] = []

    def make(*setup: str) -> Session:
        session = Session.open(None, 1, tables)
        opened.append(session)
        for line in setup:
            result = session.run(line)
            assert result.ok, (line, result.error)
        return session

    yield make
    for session in opened:
        session.close()


def _panic_prompt(session: Session) -> int:
    assert session.run("teste de pânico pra Ana").ok
    return session.state.prompts[-1].id
