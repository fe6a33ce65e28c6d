"""The live state after each command is the state as the log reads it back (issue 33 item 4:
the commit decodes again only the fields a command changed, codec.read_back, instead of the
whole state): over every golden evening, after every line, it equals its own decoding, and a
session reopened from the file has the same state."""
from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from companion.cli.shell import run_shell
from companion.engine import State
from companion.history import codec
from companion.session import Session
from companion.store.packing import delta
from companion.store.state_rows import StateRows, unpack_json
from companion.tables.files import Tables
from tests.golden_scripts import SCRIPTS, read_script


def test_read_back_decodes_only_what_changed_and_equals_the_whole_decoding() -> None:
    before = codec.decode(codec.encode(State()))
    assert codec.changes(before, before) == {}
    assert codec.read_back(before, {}, lambda: codec.encode(before)) is before
    after = State(minutes=5, travel=before.travel, dungeon=before.dungeon,
                  tally=before.tally.__class__(dice={"d6": 2}), secrets=("x",))
    changed = codec.changes(before, after)
    assert "travel" not in changed and set(changed) >= {"minutes", "tally", "secrets"}
    found = codec.read_back(before, changed, lambda: codec.encode(after))
    assert found == codec.decode(codec.encode(after)) == after
    assert found.travel is before.travel and found.tally is not after.tally


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_every_command_leaves_the_state_as_the_log_reads_it(tables: Tables, script: Path,
                                                            tmp_path: Path) -> None:
    seed, lines = read_script(script)
    db = tmp_path / "mesa.db"
    session = Session.open(db, seed, tables)
    try:
        for line in lines:
            run_shell(session, [line], io.StringIO(), as_json=True)
            state = session.state
            assert codec.decode(codec.encode(state)) == state, line
        live = session.state
    finally:
        session.close()
    reopened = Session.open(db, None, tables)
    try:
        assert reopened.state == live
    finally:
        reopened.close()


def _evening(tables: Tables, script: Path, db: Path) -> list[tuple]:
    """The golden evening played into `db`: its stored states, as the file has them."""
    seed, lines = read_script(script)
    session = Session.open(db, seed, tables)
    try:
        for line in lines:
            run_shell(session, [line], io.StringIO(), as_json=True)
    finally:
        session.close()
    with sqlite3.connect(db) as file:
        return file.execute("SELECT n, format, base, state FROM states ORDER BY n").fetchall()


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_states_packed_from_the_changed_fields_are_the_bytes_of_the_whole(
        tables: Tables, script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command's state is packed from the fields it changed (ChangedState), not by reading
    and comparing the whole state: the file gets the same bytes as when every state is
    packed from its whole JSON, and the whole JSON is made only for keyframes."""
    made: list[int] = []
    encode = codec.encode
    monkeypatch.setattr(codec, "encode", lambda state: made.append(1) or encode(state))
    from_fields = _evening(tables, script, tmp_path / "campos.db")
    wholes = len(made)
    monkeypatch.setattr(StateRows, "_changed", lambda self, last, state: (
        (value := unpack_json(state.whole())), delta(last.value, value)))
    assert _evening(tables, script, tmp_path / "inteiro.db") == from_fields
    keyframes = sum(1 for row in from_fields if row[2] is None)
    assert wholes <= keyframes + 2, (wholes, keyframes, len(from_fields))
