"""Helpers shared by the test_report test modules."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import strategies as st

from companion.store import event_json
from companion.report import build
from companion.report.source import open_campaign
from companion.session import Session
from companion.tables.files import Tables
from tests.report_helpers import EVENING, play


@pytest.fixture
def evening(tmp_path: Path, tables: Tables) -> Iterator[Session]:
    session = Session.open(tmp_path / "campanha.db", 11, tables, gm_token="mestre")
    play(session, EVENING)
    yield session
    session.close()


def _live_events(db: Path) -> list[dict[str, Any]]:
    """The events of commands not undone, straight from SQLite (not through the report)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT e.command, e.kind, e.visibility, e.text, e.data FROM events e "
            "JOIN commands c ON c.n = e.command_n WHERE c.undone = 0 ORDER BY e.seq").fetchall()
    return [{"command": c, "kind": k, "visibility": v, "text": t,
             "data": json.loads(event_json.text(d))}
            for c, k, v, t, d in rows]


def _report(session: Session, tables: Tables, number: int | None = None,
            viewer: str = "gm", name: str | None = None) -> Any:
    return build.report(open_campaign(session.db_path), tables, number, viewer, name)


# ---------------------------------------------------------------- voice

UTTERANCES = """CREATE TABLE utterances (id INTEGER PRIMARY KEY, at TEXT NOT NULL,
 text TEXT NOT NULL, confidence REAL, accepted INTEGER NOT NULL, {command} TEXT, n INTEGER,
 reason TEXT)"""


# ---------------------------------------------------------------- property

STEPS = st.sampled_from([
    "rolar 1d6", "rolar 2d8", "segredo", "avançar", "explorar", "acampar", "descansar",
    "derrotados 2 goblins", "tesouro 3 moedas", "item 1 corda", "masmorra", "acender tocha",
    "turno", "viagem", "nova sessão", "desfazer", "cancelar Ana",
])


# ---------------------------------------------------------------- one fact, one visibility (issue 26)

DUNGEON_NIGHT = ["personagem Ana pv 12 sanidade 6", "personagem Bia pv 10", "masmorra mortal",
                 "turno", "turno", "turno", "turno", "dormir"]
