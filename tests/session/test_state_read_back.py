"""The live state after each command is the state as the log reads it back (issue 33 item 4:
the commit decodes again only the fields a command changed, codec.read_back, instead of the
whole state): over every golden evening, after every line, it equals its own decoding, and a
session reopened from the file has the same state."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli.shell import run_shell
from companion.engine import State
from companion.history import codec
from companion.session import Session
from companion.tables.files import Tables
from tests.cli.test_golden_events import SCRIPTS, read_script


def test_read_back_decodes_only_what_changed_and_equals_the_whole_decoding() -> None:
    before = codec.decode(codec.encode(State()))
    assert codec.read_back(before, before, codec.encode(before)) is before
    after = State(minutes=5, travel=before.travel, dungeon=before.dungeon,
                  tally=before.tally.__class__(dice={"d6": 2}), secrets=("x",))
    found = codec.read_back(before, after, codec.encode(after))
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
