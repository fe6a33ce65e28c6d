"""kill -9 the shell after its output was acknowledged: reopening gives back exactly that."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.session import Session
from companion.tables.files import Tables
from tests.history_helpers import differences
from tests.process_helpers import ACKED, ROOT, SEED, Shell

IN_FLIGHT = ["rolar 1d20", "explorar", "rolar 2d8", "pescar", "rolar 1d100"] * 20


def _reference(texts: list[str], tables: Tables) -> Session:
    """The same commands in a fresh in-memory session with the same seed."""
    reference = Session.open(None, SEED, tables)
    for text in texts:
        assert reference.run(text).ok, text
    return reference


def test_acknowledged_commands_survive_kill_9(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "mesa.db"
    shell = Shell(db)
    acknowledged: list[dict] = []
    for text in ACKED:
        events = shell.run(text)
        errors = [e["error"] for e in events if "error" in e]
        assert not errors, f"{text!r} was rejected: {errors}"
        acknowledged.extend(events)
    shell.kill9()

    reopened = Session.open(db, None, tables)
    assert differences(db, tables) == []
    assert reopened.events_since(0) == acknowledged
    reference = _reference(ACKED, tables)
    assert reopened.state == reference.state
    assert reopened.events_since(0) == reference.events_since(0)
    reopened.close()

    # `estado` from a new shell on the same file says what the reference session says.
    answer = subprocess.run(
        [sys.executable, "-m", "companion", "shell", "--json", "--db", str(db)],
        input="estado\n", capture_output=True, text=True, encoding="utf-8", cwd=ROOT,
        timeout=120,
    )
    assert answer.returncode == 0, answer.stderr
    shown = [json.loads(line) for line in answer.stdout.splitlines()]
    expected = reference.run("estado")
    assert expected.ok, expected.error
    assert shown == expected.events


def test_kill_9_in_the_middle_leaves_whole_commands_only(tmp_path: Path,
                                                         tables: Tables) -> None:
    db = tmp_path / "mesa.db"
    shell = Shell(db)
    acknowledged: list[dict] = []
    for text in ACKED[:4]:
        acknowledged.extend(shell.run(text))
    for text in IN_FLIGHT:  # not waited for: the kill lands somewhere in the middle
        shell.send(text)
    shell.kill9()

    reopened = Session.open(db, None, tables)
    assert differences(db, tables) == []  # every stored command has all of its events
    stored = reopened.events_since(0)
    assert stored[:len(acknowledged)] == acknowledged
    texts = [c.text for c in reopened.commands()]
    assert texts[:4] == ACKED[:4]
    assert reopened.state == _reference(texts, tables).state
    reopened.close()
