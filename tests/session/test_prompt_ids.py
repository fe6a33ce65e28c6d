"""Prompt ids are never reused after `desfazer`: an old button must not answer a new prompt."""
from __future__ import annotations

from pathlib import Path

from companion.session import Session
from companion.tables.files import Tables
from tests.history_helpers import differences

from tests.session.session_helpers import ok


def prompt_ids(events: list[dict]) -> list[int]:
    return [e["data"]["pedido"]["id"] for e in events if e["kind"] == "pedido"]


def test_a_prompt_after_an_undo_gets_a_new_id_and_replay_agrees(tmp_path: Path,
                                                                tables: Tables) -> None:
    db = tmp_path / "m.db"
    session = Session.open(db, 3, tables)
    ok(session.run("personagem Ana"))
    first = prompt_ids(ok(session.run("pânico Ana")))
    before = session.state
    ok(session.run("desfazer"))
    assert session.state.prompts == ()
    second = prompt_ids(ok(session.run("pânico Ana")))
    assert first and second and set(first).isdisjoint(second)
    old_button = ok(session.run("desfazer")) and session.run(f"responder pedido {first[0]} 12")
    assert not old_button.ok  # the undone prompt is gone, and its id names nothing
    third = prompt_ids(ok(session.run("pânico Ana")))
    assert set(third).isdisjoint(first + second)
    state = session.state
    session.close()
    reopened = Session.open(db, None, tables)
    assert differences(db, tables) == []
    assert reopened.state == state
    assert [p.id for p in reopened.state.prompts] == third
    ok(reopened.run("desfazer"))
    assert reopened.state.prompts == () and before.prompts != ()
    fourth = prompt_ids(ok(reopened.run("pânico Ana")))
    assert set(fourth).isdisjoint(first + second + third)
    reopened.close()
