"""History is kept, not recomputed (issue 16): the report tells the live story after undos, a
change of tables/ between evenings changes only the future (and the GM is told), undo is not a
re-roll, the previous release's campaigns open unchanged, and damaged states are rebuilt."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import replay
from companion.engine.view import view_state
from companion.report import build
from companion.report.source import entries, find_session, open_campaign
from companion.session import RunResult, Session
from companion.store.log import Log
from companion.tables import Tables
from tests.history_helpers import differences
from tests.report_helpers import play
from tests.rules_helpers import changed_rules

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOLDEN_SCRIPTS = sorted((Path(__file__).resolve().parent / "golden" / "scripts").glob("*.txt"))
VIEWERS = ("gm", "player:ana", "player:bia")


def ok(result: RunResult) -> list[dict]:
    assert result.ok, result.error
    return result.events


def facts(view: dict[str, Any]) -> dict[str, Any]:
    """What a GM checks of a view: day, round, clock, each character's exhaustion and
    supplies, the dungeon (its monsters, for the GM) and the chase."""
    return {"dia": view["dia"], "rodada": view["rodada"], "relogio": view["relogio"],
            "grupo": [(c["nome"], c["exaustao"], c["comida"], c["agua"], c["pv"])
                      for c in view["grupo"]],
            "masmorra": view["masmorra"], "perseguicao": view["perseguicao"],
            "mestre": view.get("mestre")}


def report_end(db: Path, tables: Tables, viewer: str) -> dict[str, Any]:
    """The view the report shows after the last command of the last session."""
    campaign = open_campaign(db, tables)
    start, found = entries(campaign, find_session(campaign, None), tables, viewer)
    return found[-1].after if found else start


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


TEXTS = ["personagem Ana con 1", "personagem Bia des 2", "terreno floresta", "avançar",
         "explorar", "forragear", "caçar Ana", "acampar", "descansar", "rolar 2d6",
         "masmorra", "acender tocha", "turno", "monstro Ogro na sala 2", "viagem",
         "segredo ouvir", "derrotados 2 goblins", "desfazer", "desfazer", "estado",
         "encerrar sessão", "pânico Ana", "fugir", "fuga sucesso", "clima"]


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
    reworded = changed_rules(tmp_path, "narracao/desfazer.yaml", "Desfeito: '{{ texto }}'",
                             "Voltou atrás: '{{ texto }}'")
    reopened = Session.open(db, None, reworded)
    assert reopened.opening == []
    reopened.close()


# ---------------------------------------------------------------------- undo is not a re-roll

def rolls(events: list[dict]) -> list[dict]:
    """The dice of a command's events (what a re-roll would change)."""
    return [{k: v for k, v in e["data"].items() if k in ("tabela", "dados", "total",
                                                          "resultado", "faces")}
            for e in events if e["kind"] == "rolagem"]


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


# ---------------------------------------------------------------------- the release before

# The fixture's commands that today's rules read differently from the release that wrote it
# (RULES.md changed since): replayed, their events differ, and the migration tells the GM the
# first one in one line. Each entry says which rule change explains it; nothing else may differ.
READ_DIFFERENTLY_TODAY = {
    4: "issue 17, 8: Bruno joined by name first; the GM's 'personagem Bruno … sanidade 5' is his "
       "sheet's creation, so 5 is his own Sanity too (sanidade_max 5, not 10)",
    17: "issue 17, 3: a character's own Tabela E roll names them (personagem)",
    26: "issue 17, 3: the group hunt is one Tabela E roll per character (Ana fails, Tabela F "
        "for her; Bruno succeeds and gains his yield)",
    41: "issue 17, 8: so his rest did not bring his Sanity to 6: the panic test passes with 5",
    42: "issue 17, 8: and Tabela J is read at Sanity 5 (the same row, Fúria)",
    32: "issue 17, 1: the clock reaches the day's last round with no rest that day: the GM is "
        "told (a new GM-only warning)",
    49: "issue 17, 3: the closed session's tally counts Bruno's hunting die",
    50: "issue 17, 7: back from the chase at 20h50, the rest of round 6 passes (the day ends "
        "first) and the advance is day 3's round 1, on the grid",
    51: "issue 17, 7: the next advance is round 2 (4h–8h), not 0h50–4h50",
}
# Events of the fixture whose facts today's rules keep but whose words they change: the
# migration fills their narration from today's replay (the stored text, which people see,
# stays the table's).
WORDED_DIFFERENTLY_TODAY = {
    73: "issue 17, 8: Bruno's rest (command 23) recovers no Sanity today (his own is 5): its "
        "words say sanidade 5, the table saw 6",
}
# What those commands change in the views the fixture showed: (character id, field) → today's
# value, in every view that shows the character; nothing else may differ.
PARTY_TODAY = {
    ("bruno", "comida"): 7,  # 26: Bruno's own hunt succeeded (+2 food)
    ("bruno", "sanidade"): 5,  # 4: his own Sanity is 5: resting does not raise it to 6
}
# ... and the clock (50, 51): two rounds on the grid end at 8h00 of day 3, not at 4h50.
CLOCK_TODAY = {"minutos": 2 * 24 * 60 + 8 * 60, "hora": "8h00", "rodada": 3,
               "relogio": "Dia 3 · rodada 3 de 6 (8h–12h)"}


def shown_today(view: dict[str, Any]) -> dict[str, Any]:
    """A view the fixture showed, with the changes today's rules explain (PARTY_TODAY,
    CLOCK_TODAY)."""
    today = {**json.loads(json.dumps(view)), **CLOCK_TODAY}
    for character in today.get("grupo", []):
        for (who, field), value in PARTY_TODAY.items():
            if character.get("id") == who and field in character:
                character[field] = value
    return today


def told_first_difference(opening: list[dict[str, Any]]) -> None:
    """The opening tells, in one GM-only line, the first command read differently today."""
    if not READ_DIFFERENTLY_TODAY:
        assert opening == []  # nothing differed: nothing to tell
        return
    (told,) = opening
    assert told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
    assert f"comando {min(READ_DIFFERENTLY_TODAY)}" in told["text"], told["text"]


def restore(sql: Path, db: Path) -> Path:
    connection = sqlite3.connect(db)
    connection.executescript(sql.read_text(encoding="utf-8"))
    connection.close()
    return db


def test_the_previous_release_campaign_opens_with_the_state_it_showed(tmp_path: Path,
                                                                      tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    shown = json.loads((FIXTURES / "campanha_versao_anterior_estado.json").read_text("utf-8"))
    session = Session.open(db, None, tables)
    for viewer, view in shown.items():
        assert view_state(session.state, viewer, tables) == shown_today(view), viewer
    told_first_difference(session.opening)
    session.close()
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
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


def test_the_previous_release_campaign_over_http(tmp_path: Path) -> None:
    """The GM's /api/state of the migrated fixture, from a real `companion serve`."""
    import requests

    from tests.test_server_serve import free_port, read_until

    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    shown = json.loads((FIXTURES / "campanha_versao_anterior_estado.json").read_text("utf-8"))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--db", str(db), "--port", str(port),
         "--host", "127.0.0.1", "--gm-token", "token-do-mestre-fixo"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    try:
        read_until(server, "/mestre")
        answer = requests.get(f"http://127.0.0.1:{port}/api/state", timeout=10,
                              headers={"Authorization": "Bearer token-do-mestre-fixo"})
        assert answer.status_code == 200
        assert answer.json() == shown_today(shown["gm"])
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_a_migration_that_differs_is_told_in_one_line(tmp_path: Path, tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    harsher = changed_rules(tmp_path, "viagem.yaml", "dc: 12               # 1 rodada extra",
                            "dc: 19               # 1 rodada extra")
    assert 10 not in READ_DIFFERENTLY_TODAY  # the harsher DC is what changes the 3rd advance
    assert 10 in [step.command.n for step in differences(db, harsher)]
    session = Session.open(db, None, harsher)
    assert len(session.opening) == 1
    told = session.opening[0]
    assert told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
    first = min({10} | set(READ_DIFFERENTLY_TODAY))
    assert f"comando {first} " in told["text"], told["text"]
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
    assert [(s, c, json.loads(w)) for s, c, w in filled if s not in WORDED_DIFFERENTLY_TODAY] \
        == [(s, c, json.loads(w)) for s, c, w in kept if s not in WORDED_DIFFERENTLY_TODAY]


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


# ---------------------------------------------------------------------- read only, verificar

def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("action", [
    ["relatorio"], ["exportar", "--formato", "json", "--saida", "{out}"], ["verificar"],
    ["voz", "frases"]])
def test_readers_never_write_the_campaign_file(tmp_path: Path, action: list[str]) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    before = digest(db)
    command = [a.replace("{out}", str(tmp_path / "eventos.json")) for a in action]
    done = subprocess.run([sys.executable, "-m", "companion.cli", *command, "--db", str(db)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    listed = action == ["verificar"] and bool(READ_DIFFERENTLY_TODAY)  # exit 1: it lists them
    assert done.returncode == (1 if listed else 0), done.stderr
    assert digest(db) == before
    assert not Path(f"{db}-wal").exists()


def test_verificar_lists_what_would_differ_today(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    play(session, ["personagem Ana", "masmorra", "acender tocha", "turno", "turno"])
    session.close()
    clean = subprocess.run([sys.executable, "-m", "companion.cli", "verificar", "--db", str(db)],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert clean.returncode == 0 and "nenhuma diferença" in clean.stdout
    changed_rules(tmp_path, "casa.yaml", "turnos: 6", "turnos: 2")
    differ = subprocess.run([sys.executable, "-m", "companion.cli", "verificar", "--db", str(db),
                             "--tables", str(tmp_path / "tables")],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert differ.returncode == 1, differ.stdout + differ.stderr
    assert "acender tocha" in differ.stdout and "eventos diferentes" in differ.stdout


def test_stored_states_are_keyframes_and_small_deltas(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    for index in range(150):
        ok(session.run(f"segredo ouvir a porta {index}"))
    state = session.state
    session.close()
    log = Log.read(db)
    packed = log.states()
    keyframes = [n for n, row in packed.rows.items() if row[1] is None]
    assert 2 <= len(keyframes) <= 4
    deltas = [len(row[2]) for row in packed.rows.values() if row[1] is not None]
    assert max(deltas) < 400, max(deltas)
    assert replay.read_state(log, max(packed.rows)) == state
    log.close()
