"""The compatibility corpus (issue 32): campaign files written by real past releases of this
repository, each by its own server through a scripted evening (tests/fixtures/make_corpus.py),
opened with today's code on every run and compared with what that release showed, fact by fact:
mode, day, hour, round, the dungeon's turn, danger and lights, every character's sheet, the
pending prompts and the session form, in the GM's view and each player's. A fact may differ
only where a rule was fixed since, and each such command is listed below with the fix; `companion
verificar` lists exactly those commands."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.engine.view import view_state
from companion.rules import version
from companion.session import Session
from companion.store import file_format
from companion.store.log import Log
from companion.tables.files import Tables
from tests.history_helpers import differences

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
SHOWN = sorted(CORPUS.glob("*.json"))
SHEET = ("nome", "nivel", "pv", "pv_max", "sanidade", "exaustao", "comida", "agua", "municao",
         "condicoes", "condicoes_temporarias", "aflicoes", "dano_atributos", "descanso_devido")

# the commits the corpus comes from (tests/fixtures/corpus/<commit>.sql and .json)
RELEASES = {
    "cc1ef7b": "the last release before stored history (commands and events only)",
    "9f476c4": "stored history, before packed events (c6ce075)",
    "18448ed": "the last release before this one (packed events, user_version 2)",
}

# the files whose migration runs the log again (no stored states); the others' history is read
REPLAYED = {"cc1ef7b"}

# The commands `companion verificar` lists for each file, and the rule fixed since that
# explains each (nothing else may differ).
READ_DIFFERENTLY = {
    "cc1ef7b": {
        16: "issue 17, 3: a character's own Tabela E/F roll names them (personagem, quem)",
        18: "issue 17, 12: a character's own roll (hit dice) says who rolled (quem)",
        21: "issue 26, 3: a dungeon entered opens its round first: weather and encounter, once "
            "(the next weather the table was told, at 33, is the table's again)",
        29: "issue 17, 6: a panic's effect is its player's and the GM's (Tabela J visibility)",
        31: "issue 26, 3: the session's tally counts the dice of that round",
        32: "issue 26, 3: the round the dungeon began was rolled then: the advance goes on in it",
        35: "issue 28: a secret rest encounter waits for the GM's reveal ('Interromper o "
            "descanso?'): settled as the log shows (sim: the players' interruption tests)",
        36: "issue 17, 12: the hit dice roll says who rolled (quem)",
        39: "issue 26, 3: the dungeon entered at the start of day 3's round 1 opens it first "
            "(its weather roll is the last the party had)",
    },
    "9f476c4": {
        19: "issue 31, 4: the rest the GM let go on says what it consumed (consumiu)",
        38: "issue 31, 4: the rest the GM let go on says what it consumed (consumiu)",
    },
    "18448ed": {
        19: "issue 31, 4: the rest the GM let go on says what it consumed (consumiu)",
        38: "issue 31, 4: the rest the GM let go on says what it consumed (consumiu)",
    },
}
# The facts those commands change at the end of the evening: (viewer or "*", fact) → today's.
FACTS_TODAY: dict[str, dict[tuple[str, str], Any]] = {
    "cc1ef7b": {
        ("*", "clima"): "Ameno e tempestuoso",  # 39: the weather rolled entering the dungeon
        ("*", "hora"): "0h20",  # 32, 38, 39 (issue 26, 3): round 6 ends at 0h00, 2 turns later
        ("gm", "perdido"): True,  # f8aad45: a party lost outside stays lost in a dungeon
        # 29 (8401f9d, issue 17, 6): a panic's Wisdom damage is its player's and the GM's
        ("player:ana", "grupo.bruno.dano_atributos"): {},
    },
}


def facts(view: dict[str, Any]) -> dict[str, Any]:
    """What a view says of the table, fact by fact (prompt ids aside: each viewer numbers
    them; a light by its kind, not its label)."""
    dungeon = view.get("masmorra") or {}
    prompts = sorted((p["tipo"], p.get("personagem"), p.get("dados"), p.get("dc"),
                      tuple(p.get("opcoes") or ())) for p in view.get("pedidos", []))
    return {
        "modo": view["modo"], "dia": view["dia"], "hora": view["hora"],
        "rodada": view["rodada"], "clima": view.get("clima"),
        "turno": dungeon.get("turno"), "perigo": dungeon.get("perigo"),
        "escuro": dungeon.get("escuro"),
        "luzes": [(str(light["nome"]).lower(), light["turnos"])
                  for light in dungeon.get("luzes", [])],
        "grupo": {c["id"]: {k: c.get(k) for k in SHEET} for c in view["grupo"]},
        "pedidos": prompts, "ficha": view.get("registro"),
        "perdido": (view.get("mestre") or {}).get("perdido"),
    }


def shown_today(commit: str, viewer: str, shown: dict[str, Any]) -> dict[str, Any]:
    """The facts that release showed, with the changes today's rules explain."""
    expected = facts(shown)
    for (who, fact), value in FACTS_TODAY.get(commit, {}).items():
        if who in ("*", viewer):
            *path, last = fact.split(".")
            held = expected
            for key in path:
                held = held[key]
            held[last] = value
    return expected


def restore(commit: str, db: Path) -> Path:
    connection = sqlite3.connect(db)
    connection.executescript((CORPUS / f"{commit}.sql").read_text(encoding="utf-8"))
    connection.close()
    return db


def test_the_corpus_holds_each_release() -> None:
    assert {path.stem for path in SHOWN} == set(RELEASES)


@pytest.mark.parametrize("shown_file", SHOWN, ids=[path.stem for path in SHOWN])
def test_each_past_release_opens_where_the_table_left_it(tmp_path: Path, shown_file: Path,
                                                         tables: Tables) -> None:
    commit = shown_file.stem
    shown = json.loads(shown_file.read_text(encoding="utf-8"))["mostrado"]
    db = restore(commit, tmp_path / "campanha.db")
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    session = Session.open(db, None, tables)
    try:
        for viewer, view in shown.items():
            assert facts(view_state(session.state, viewer, tables)) \
                == shown_today(commit, viewer, view), (commit, viewer)
        told = [e["text"] for e in session.opening]
    finally:
        session.close()
    copy = file_format.copy_path(db)  # the file as that release left it, beside it
    assert hashlib.sha256(copy.read_bytes()).hexdigest() == before
    assert any(str(copy) in text for text in told)
    if commit in REPLAYED:  # a migration that ran the log again tells each command it read
        for n in READ_DIFFERENTLY[commit]:  # differently; a stored history is read, not re-run
            assert any(text.startswith(f"Comando {n} (") for text in told), (n, told)
    else:
        assert not any(text.startswith("Comando ") for text in told), told
    assert [step.command.n for step in differences(db, tables)] \
        == sorted(READ_DIFFERENTLY[commit])
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == file_format.FORMAT
    assert raw.execute("SELECT release, format FROM written_by").fetchone() == (
        file_format.RELEASE, file_format.FORMAT)
    raw.close()
    again = Session.open(db, None, tables)  # opened again: the same table, nothing to tell
    try:
        for viewer, view in shown.items():
            assert facts(view_state(again.state, viewer, tables)) \
                == shown_today(commit, viewer, view), (commit, viewer)
        assert again.opening == []
    finally:
        again.close()


@pytest.mark.parametrize("commit", sorted(set(RELEASES) - REPLAYED))
def test_a_past_release_is_told_how_its_rules_changed_beside_its_copy(
        tmp_path: Path, tables: Tables, commit: str) -> None:
    """A new release often brings both a new file format (the copy left beside the file) and
    new rules: the GM is told both when the campaign opens — the rules' news was read after
    the copy's notice was stored under today's rules, and looked unchanged."""
    db = restore(commit, tmp_path / "campanha.db")
    stored = Log.read(db)
    try:
        before = version.read(stored.rules_text(stored.last_rules()) or "")
    finally:
        stored.close()
    changes = version.changes(before, version.rule_files(tables))
    assert changes, "the corpus file's rules are today's: this test needs a file whose differ"
    session = Session.open(db, None, tables)
    try:
        told = [e["text"] for e in session.opening]
    finally:
        session.close()
    assert any(str(file_format.copy_path(db)) in text for text in told), told
    listed = [text for text in told if text.startswith("Regra mudou: ")]
    assert listed, told
    summary = tables.narration.render("historico.regras_mudaram", {"quantas": len(listed)})
    assert summary in told, told
