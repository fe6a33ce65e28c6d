"""History is kept, not recomputed (issue 16): the report tells the live story after undos, a
change of tables/ between evenings changes only the future (and the GM is told), undo is not a
re-roll, the previous release's campaigns open unchanged, and damaged states are rebuilt."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import event_json, file_format
from companion.history import replay
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.report import build
from companion.report.source import entries, find_session, open_campaign
from companion.session import Session
from companion.tables.files import Tables
from tests.cli_helpers import run_main
from tests.history_helpers import differences
from tests.report_helpers import play
from tests.rules_helpers import changed_rules
from tests.history.history_history_helpers import (  # noqa: F401
    ROOT,
    FIXTURES,
    GOLDEN_SCRIPTS,
    VIEWERS,
    ok,
    facts,
    report_end,
    TEXTS,
    rolls,
    READ_DIFFERENTLY_TODAY,
    WORDED_DIFFERENTLY_TODAY,
    shown_today,
    told_differences,
    restore,
    digest,
)


# ---------------------------------------------------------------------- the report tells the truth

def test_the_report_after_an_undone_answer_tells_the_live_story(tmp_path: Path,
                                                                tables: Tables) -> None:
    """The play-test: a forced march, the failing character's CON answer undone (it had asked
    the follow-up choice) and answered again, the choice answered, three more days, a dungeon
    with a monster. Every report (GM's and each player's) ends where the table is."""
    db = tmp_path / "campanha.db"
    session = Session.open(db, 808, tables)
    session.join_player("Ana")
    session.join_player("Bia")
    play(session, ["personagem Ana con 1", "personagem Bia con 0", "terreno colinas",
                   "modo montado", "avançar", "avançar", "avançar"])
    ok(session.run("Ana tirou 15", actor="player:ana"))
    ok(session.run("Bia tirou 3", actor="player:bia"))  # fails: asks her the choice
    assert any(p.options for p in session.state.prompts)
    ok(session.run("desfazer"))
    ok(session.run("Bia tirou 3", actor="player:bia"))  # the choice is asked again, new id
    choice = next(p for p in session.state.prompts if p.options)
    ok(session.run(f"responder pedido {choice.id} exaustão", actor="player:bia"))
    play(session, ["explorar"] * 18 + ["masmorra arriscado", "acender tocha",
                                       "monstro Goblins na sala 3", "turno", "turno"])
    assert session.state.minutes >= 3 * 24 * 60  # three more days went by
    live = {viewer: facts(view_state(session.state, viewer, tables)) for viewer in VIEWERS}
    session.close()
    for viewer in VIEWERS:
        assert facts(report_end(db, tables, viewer)) == live[viewer], viewer
    assert live["gm"]["mestre"]["monstros"], "the GM's view lists the monster"
    ana, bia = (c[1] for c in live["gm"]["grupo"])
    assert bia == ana + 1  # Bia chose the exhaustion, once (the undone answer left none)
    text = build.report(open_campaign(db, tables), tables, None)
    assert text.span.number == 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.sampled_from(TEXTS), min_size=1, max_size=30),
       seed=st.integers(min_value=0, max_value=10_000))
def test_the_report_and_the_reopened_state_equal_the_live_state(tables: Tables,
                                                                script: list[str],
                                                                seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "mesa.db"
        live = Session.open(db, seed, tables)
        seen: dict[int, dict] = {}  # command number → the GM's view right after it
        for text in script:
            if live.run(text).ok:
                seen[live.commands()[-1].n] = view_state(live.state, "gm", tables)
        state = live.state
        live.close()
        reopened = Session.open(db, None, tables)
        assert reopened.state == state
        reopened.close()
        campaign = open_campaign(db, tables)
        standing = {c.n for c in campaign.commands
                    if not c.undone and c.name not in replay.PLACELESS}
        for span in build.all_sessions(campaign):
            _start, found = entries(campaign, span, tables, "gm")
            for entry in found:
                if entry.command.n in standing and entry.command.n in seen:
                    assert entry.after == seen[entry.command.n], entry.command.text
        exported = json.loads(build.export(campaign, tables, "json", None, "gm"))
        assert exported, "the export says something"


# ---------------------------------------------------------------------- rules of their time

def test_a_changed_table_changes_only_the_future_and_the_gm_is_told(tmp_path: Path,
                                                                     tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    session.join_player("Ana")
    play(session, ["personagem Ana", "masmorra", "acender tocha", "turno", "turno", "turno"])
    state = session.state
    torch = state.dungeon.lights[0]
    assert torch.turns_left == 3
    session.close()
    before = {v: build.html(open_campaign(db, tables), tables, None, v, n)
              for v, n in (("gm", None), ("player:ana", "Ana"))}

    shorter = changed_rules(tmp_path, "casa.yaml", "turnos: 6", "turnos: 2")
    reopened = Session.open(db, None, shorter)
    assert reopened.state == state  # the torch still burns: three turns lived in its light
    told = reopened.opening
    assert told and all(e["visibility"] == "gm" for e in told)
    assert told[0]["command"] == replay.RULES_CHANGED
    change = next(e for e in told if e["data"].get("chave") == "luz.tocha.turnos")
    assert change["data"] == {"arquivo": "casa.yaml", "chave": "luz.tocha.turnos",
                              "antes": 6, "depois": 2, "origem": "tables"}
    assert "casa.yaml: luz.tocha.turnos 6 → 2" in change["text"]
    assert reopened.notices and "mudaram" in reopened.notices[0]
    ok(reopened.run("acender tocha"))  # the new rule, from now on
    assert reopened.state.dungeon.lights[-1].turns_left == 2
    reopened.close()

    for viewer, name in (("gm", None), ("player:ana", "Ana")):
        campaign = open_campaign(db, shorter)
        span = find_session(campaign, None)
        _start, found = entries(campaign, span, shorter, viewer)
        old = [e for e in found if e.command.n <= 6]
        kept_before = open_campaign(db, tables)
        _s, original = entries(kept_before, find_session(kept_before, None), tables, viewer)
        assert [e.after for e in old] == [e.after for e in original if e.command.n <= 6]
    page = build.html(open_campaign(db, shorter), shorter, None, "player:ana", "Ana")
    assert "luz.tocha.turnos" not in page  # the players never read the GM's notice
    assert "luz.tocha.turnos" not in before["player:ana"]
    assert differences(db, shorter), "a replay with today's torch would differ: a check only"
    again = Session.open(db, None, shorter)
    assert again.opening == []  # told once
    again.close()


def test_rewording_the_narration_is_no_change_of_the_rules(tmp_path: Path,
                                                           tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    Session.open(db, 5, tables).close()
    reworded = changed_rules(tmp_path, "narracao/desfazer.yaml", "desfeito: \"Desfeito: ",
                             "desfeito: \"Voltou atrás: ")
    reopened = Session.open(db, None, reworded)
    assert reopened.opening == []
    reopened.close()


@pytest.mark.parametrize("script", GOLDEN_SCRIPTS, ids=[p.stem for p in GOLDEN_SCRIPTS])
def test_undo_then_the_same_command_rolls_the_same_dice(tables: Tables, script: Path) -> None:
    lines = [line for line in script.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    session = Session.open(None, 31, tables)
    checked = 0
    for line in lines:
        first = session.run(line)
        if not first.ok or first.events[0]["command"] in replay.PLACELESS:
            continue
        assert session.run("desfazer").ok, line
        again = ok(session.run(line))
        assert rolls(again) == rolls(first.events), line
        checked += bool(rolls(first.events))
    assert checked, f"{script.name}: no command rolled a die"


def test_a_command_after_another_one_rolls_new_dice(tables: Tables) -> None:
    session = Session.open(None, 4, tables)
    first = ok(session.run("rolar 10d20"))
    ok(session.run("desfazer"))
    ok(session.run("estado"))  # a view takes no place
    assert rolls(ok(session.run("rolar 10d20"))) == rolls(first)
    assert rolls(ok(session.run("rolar 10d20"))) != rolls(first)  # a new place: new dice
    keys = [c.dice for c in session.commands()]  # the table's: rolar, desfazer, estado, 2 rolar
    assert keys[0] == keys[3] != keys[4]


def test_the_previous_release_campaign_opens_with_the_state_it_showed(tmp_path: Path,
                                                                      tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    shown = json.loads((FIXTURES / "campanha_versao_anterior_estado.json").read_text("utf-8"))
    session = Session.open(db, None, tables)
    for viewer, view in shown.items():
        assert view_state(session.state, viewer, tables) == shown_today(view), viewer
    told_differences(session.opening)
    session.close()
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == file_format.FORMAT
    same = f"command_n NOT IN ({','.join(map(str, READ_DIFFERENTLY_TODAY))})"
    assert {k for (k,) in raw.execute(f"SELECT kind FROM events WHERE code IS NULL AND {same}")
            } == {"pedido"}  # the engine says prompts in the prompt's own words, with no code
    notice = f"name != '{replay.HISTORY_NOTICE}'"  # the GM told of the first difference
    assert raw.execute(f"SELECT COUNT(*) FROM commands WHERE dice IS NULL AND {notice}"
                       ).fetchone()[0] == 0
    commands = raw.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
    assert raw.execute("SELECT COUNT(*) FROM states").fetchone()[0] == commands
    raw.close()
    assert [step.command.n for step in differences(db, tables)] == sorted(READ_DIFFERENTLY_TODAY)
    again = Session.open(db, None, tables)
    assert view_state(again.state, "gm", tables) == shown_today(shown["gm"])
    again.close()


def test_the_previous_release_campaign_keeps_its_seats_and_frees_them(tmp_path: Path,
                                                                      tables: Tables) -> None:
    """A file from before seats (its tokens have no time): the phones keep their characters,
    the seated names are refused, and the GM frees one, recorded like any system command."""
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    session = Session.open(db, None, tables)
    try:
        assert session.player_by_token("BalvVYIGELSBiBnf").character_id == "ana"
        seats = {s.character_id: (s.tokens, s.since) for s in session.seats()}
        assert seats["ana"] == (1, None) and seats["bruno"] == (1, None)
        with pytest.raises(CommandRejected) as refused:
            session.join_player("Ana")
        assert refused.value.code == "entrada.lugar_ocupado"
        state = session.state
        (told,) = session.free_seat("ana", "gm")
        assert told["command"] == replay.SEAT_FREED and told["visibility"] == "gm"
        assert session.state == state
        assert session.player_by_token("BalvVYIGELSBiBnf") is None
        assert session.join_player("Ana").character_id == "ana"
    finally:
        session.close()
    # the freeing is a system command: the check replays nothing new for it
    assert [step.command.n for step in differences(db, tables)] == sorted(READ_DIFFERENTLY_TODAY)


def test_the_previous_release_campaign_over_http(tmp_path: Path) -> None:
    """The GM's /api/state of the migrated fixture, from a real `companion serve`."""
    import requests

    from tests.process_helpers import free_port, read_until

    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    shown = json.loads((FIXTURES / "campanha_versao_anterior_estado.json").read_text("utf-8"))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--db", str(db), "--port", str(port),
         "--host", "127.0.0.1", "--gm-token", "token-do-mestre-fixo"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    try:
        read_until(server, "/mestre", 60)  # the migration first, on a shared machine
        answer = requests.get(f"http://127.0.0.1:{port}/api/state", timeout=10,
                              headers={"Authorization": "Bearer token-do-mestre-fixo"})
        assert answer.status_code == 200
        assert answer.json() == shown_today(shown["gm"])
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_a_migration_that_differs_tells_each_command(tmp_path: Path, tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    harsher = changed_rules(tmp_path, "viagem.yaml", "dc: 12               # 1 rodada extra",
                            "dc: 19               # 1 rodada extra")
    assert 10 not in READ_DIFFERENTLY_TODAY  # the harsher DC is what changes the 3rd advance
    assert 10 in [step.command.n for step in differences(db, harsher)]
    session = Session.open(db, None, harsher)
    told_differences(session.opening, {step.command.n for step in differences(db, harsher)})
    session.close()


def test_a_migration_fills_the_narration_an_older_file_lacks(tmp_path: Path,
                                                             tables: Tables) -> None:
    """A file from before events kept their narration: the migration writes each event's code
    and words, so a player's copy is rendered again, never rewritten by regex."""
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    raw = sqlite3.connect(db)
    kept = raw.execute("SELECT seq, code, words FROM events WHERE code IS NOT NULL AND "
                       f"command_n NOT IN ({','.join(map(str, READ_DIFFERENTLY_TODAY))})"
                       ).fetchall()  # a command read differently today keeps no narration
    raw.execute("UPDATE events SET code = NULL, words = NULL")
    raw.commit()
    raw.close()
    Session.open(db, None, tables).close()
    raw = sqlite3.connect(db)
    filled = raw.execute("SELECT seq, code, words FROM events WHERE code IS NOT NULL AND "
                         f"command != '{replay.HISTORY_NOTICE}'").fetchall()
    raw.close()
    assert len(kept) > 100
    before = {s for s, _c, _w in kept}  # the GM's notice of the migration is a new event
    assert [(s, c, json.loads(event_json.text(w))) for s, c, w in filled
            if s in before and s not in WORDED_DIFFERENTLY_TODAY] \
        == [(s, c, json.loads(event_json.text(w))) for s, c, w in kept
            if s not in WORDED_DIFFERENTLY_TODAY]


# ---------------------------------------------------------------------- damaged states

def test_a_damaged_state_is_rebuilt_and_the_gm_is_told(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana", "terreno pântano", "avançar", "explorar", "rolar 1d6"])
    state, last = session.state, session.commands()[-1].n
    session.close()
    raw = sqlite3.connect(db)
    raw.execute("UPDATE states SET state = x'00ff' WHERE n = ?", (last,))
    raw.commit()
    raw.close()
    reopened = Session.open(db, None, tables)
    assert reopened.state == state
    told = reopened.opening
    assert told and told[0]["visibility"] == "gm"
    assert f"comando(s) {last}" in told[0]["text"], told[0]["text"]
    reopened.close()
    again = Session.open(db, None, tables)  # stored again: nothing to tell the second time
    assert again.opening == [] and again.state == state
    again.close()


@pytest.mark.parametrize("action", [
    ["relatorio"], ["exportar", "--formato", "json", "--saida", "{out}"], ["verificar"],
    ["voz", "frases"]])
def test_readers_never_write_the_campaign_file(tmp_path: Path, action: list[str]) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    before = digest(db)
    command = [a.replace("{out}", str(tmp_path / "eventos.json")) for a in action]
    done = run_main(*command, "--db", str(db))
    listed = action == ["verificar"] and bool(READ_DIFFERENTLY_TODAY)  # exit 1: it lists them
    assert done.returncode == (1 if listed else 0), done.stderr
    assert digest(db) == before
    assert not Path(f"{db}-wal").exists()


def test_verificar_lists_what_would_differ_today(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    play(session, ["personagem Ana", "masmorra", "acender tocha", "turno", "turno"])
    session.close()
    clean = run_main("verificar", "--db", str(db))
    assert clean.returncode == 0 and "nenhuma diferença" in clean.stdout
    changed_rules(tmp_path, "casa.yaml", "turnos: 6", "turnos: 2")
    differ = run_main("verificar", "--db", str(db), "--tables", str(tmp_path / "tables"))
    assert differ.returncode == 1, differ.stdout + differ.stderr
    assert "acender tocha" in differ.stdout and "eventos diferentes" in differ.stdout
