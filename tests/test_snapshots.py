"""Snapshots: reopening replays only what follows the newest snapshot, and undo stays exact."""
from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import snapshot
from companion.session import Session
from companion.tables import Tables

from tests.test_session import TEXTS, ok

SCRIPT = ["personagem Ana con 1", "personagem Bruno des 2", "estação outono", "explorar",
          "rolar 2d6", "avançar", "acampar", "descansar", "forragear", "masmorra", "turno",
          "acender tocha", "turno", "viagem", "derrotados 2 goblins", "rolar 1d20", "clima"]


@pytest.fixture(autouse=True)
def small_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "EVERY", 5)


def play(db: Path, tables: Tables, texts: list[str], seed: int = 3) -> Session:
    session = Session.open(db, seed, tables)
    for text in texts:
        session.run(text)
    return session


def full_replay(db: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch) -> Session:
    """The session rebuilt from the whole log, no snapshot used (another version)."""
    with monkeypatch.context() as patched:
        patched.setattr(snapshot, "version", lambda _tables: "outra versão")
        return Session.open(db, None, tables)


def test_a_snapshot_is_kept_with_every_fifth_command(tmp_path: Path, tables: Tables) -> None:
    session = play(tmp_path / "m.db", tables, SCRIPT)
    assert session._log.snapshot_numbers() == [5, 10, 15]
    session.close()


def test_reopening_starts_from_the_newest_snapshot_and_equals_a_full_replay(
        tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "m.db"
    live = play(db, tables, SCRIPT)
    state = live.state
    live.close()
    reopened = Session.open(db, None, tables)
    assert reopened.resumed_from == 15
    assert reopened.replay_mismatches == []
    assert reopened.state == state
    replayed = full_replay(db, tables, monkeypatch)
    assert replayed.resumed_from == 0 and replayed.state == state
    reopened.close()
    replayed.close()


def test_undo_past_snapshots_after_reopening_restores_each_earlier_state(
        tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "m.db"
    session = Session.open(db, 9, tables)
    states = []
    for text in SCRIPT:
        states.append(session.state)
        ok(session.run(text))
    session.close()
    again = Session.open(db, None, tables)
    for before in reversed(states):
        ok(again.run("desfazer"))
        assert again.state == before
    # the undos removed the snapshots they made stale; a reopen still agrees
    state = again.state
    again.close()
    last = Session.open(db, None, tables)
    assert last.state == state
    assert all(n > len(SCRIPT) for n in last._log.snapshot_numbers())
    last.close()


def test_a_snapshot_of_other_rules_or_unreadable_is_ignored(
        tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "m.db"
    live = play(db, tables, SCRIPT)
    state = live.state
    live.close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE snapshots SET state = x'00ff' WHERE n = 15")
    reopened = Session.open(db, None, tables)
    assert reopened.resumed_from == 10 and reopened.state == state
    reopened.close()
    assert full_replay(db, tables, monkeypatch).state == state


def test_the_version_changes_with_the_tables(tables: Tables) -> None:
    changed = Tables(files={**tables.files, "casa": {"mudou": 1}}, directory=tables.directory)
    assert snapshot.version(tables) == snapshot.version(tables)
    assert snapshot.version(changed) != snapshot.version(tables)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.sampled_from(TEXTS), min_size=1, max_size=30),
       undos=st.integers(min_value=0, max_value=30), every=st.integers(1, 7),
       seed=st.integers(min_value=0, max_value=10_000))
def test_reopen_and_undo_match_the_live_session(tables: Tables, script: list[str], undos: int,
                                                every: int, seed: int) -> None:
    snapshot.EVERY = every  # the autouse fixture puts it back
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        live = Session.open(db, seed, tables)
        history = [live.state]
        for text in script:
            result = live.run(text)
            if result.ok and text.split()[0] not in ("estado", "ajuda", "desfazer"):
                history.append(live.state)
            elif result.ok and text == "desfazer":
                history.pop()
        assert history[-1] == live.state
        live.close()
        reopened = Session.open(db, None, tables)
        assert reopened.state == history[-1]
        for _ in range(undos):
            if len(history) == 1:
                break
            ok(reopened.run("desfazer"))
            history.pop()
            assert reopened.state == history[-1]
        reopened.close()


def test_a_long_replay_leaves_a_snapshot_for_next_time(
        tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "m.db"
    live = play(db, tables, SCRIPT)
    state = live.state
    last = live.commands()[-1].n
    live.close()
    with monkeypatch.context() as patched:  # other rules: every old snapshot is useless
        patched.setattr(snapshot, "version", lambda _tables: "regras novas")
        first = Session.open(db, None, tables)
        assert first.resumed_from == 0 and first.state == state
        first.close()
        second = Session.open(db, None, tables)
        assert second.resumed_from == last and second.state == state
        ok(second.run("desfazer"))  # and undo still goes back exactly, from an older one
        second.close()
