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
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import event_json, file_format
from companion.history import replay
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.report import build
from companion.report.source import entries, find_session, open_campaign
from companion.session import RunResult, Session
from companion.store.log import Log, PackedStates
from companion.tables.files import Tables
from tests.cli_helpers import run_main
from tests.history_helpers import differences
from tests.report_helpers import play
from tests.rules_helpers import changed_rules

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN_SCRIPTS = sorted((Path(__file__).resolve().parents[1] / "golden" / "scripts").glob("*.txt"))
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
    reworded = changed_rules(tmp_path, "narracao/desfazer.yaml", "desfeito: \"Desfeito: ",
                             "desfeito: \"Voltou atrás: ")
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
# (docs/regras.md changed since): replayed, their events differ, and the migration tells the GM the
# first one in one line. Each entry says which rule change explains it; nothing else may differ.
READ_DIFFERENTLY_TODAY = {
    4: "issue 17, 8: Bruno joined by name first; the GM's 'personagem Bruno … sanidade 5' is his "
       "sheet's creation, so 5 is his own Sanity too (sanidade_max 5, not 10)",
    17: "issue 17, 3: a character's own Tabela E roll names them (personagem)",
    26: "issue 17, 3: the group hunt is one Tabela E roll per character (Ana fails, Tabela F "
        "for her; Bruno succeeds and gains his yield)",
    41: "issue 17, 8: so his rest did not bring his Sanity to 6: the panic test passes with 5",
    42: "issue 17, 8: and Tabela J is read at Sanity 5 (the same row, Fúria); issue 17, 6: a "
        "panic's effect is its player's and the GM's (tables/panico.yaml visibilidade)",
    32: "issue 17, 1: the clock reaches the day's last round with no rest that day: the GM is "
        "told (a new GM-only warning)",
    49: "issue 17, 3: the closed session's tally counts Bruno's hunting die",
    33: "issue 26, 3: the dungeon entered at the start of round 6 (20h00) opens that round "
        "first: its weather roll and encounter check, once",
    46: "issue 26, 7: Bruno's Fúria (42) stays on his sheet with its rolled rounds until time "
        "passes: the first chase turn ends it, and his player and the GM are told",
    50: "issue 26, 3: back from the chase at 20h50, the advance is round 6's (the round the "
        "dungeon and the chase began, whose rolls were made at 20h00); it ends at 0h00 (the "
        "day ends); the next advance (51) is day 3's round 1 (0h–4h), as before",
    52: "issue 26, 3: so the session's tally counts the dice of those rounds as rolled today",
    23: "issue 17, 12: a character's own roll (Bruno's and Ana's hit dice) says who rolled "
        "(quem)",
    43: "issue 17, 14: declaring flight tells the players the fact; how to say the escape "
        "test's result ('fuga sucesso'…) is a new GM-only event",
    15: "issue 19: 'estado' shows the region too (regiao, regiao_nome: a terrain's default "
        "region is the terrain)",
}
# Events of the fixture whose facts today's rules keep but whose words they change: the
# migration fills their narration from today's replay (the stored text, which people see,
# stays the table's).
WORDED_DIFFERENTLY_TODAY = {
    81: "issue 26, 12: the new day starts 'nas Colinas' (the region's own preposition), the "
        "table saw 'em Colinas'",
    73: "issue 17, 8: Bruno's rest (command 23) recovers no Sanity today (his own is 5): its "
        "words say sanidade 5, the table saw 6",
    155: "issue 31, 6: the seed's 'Sucesso: A distância…' is said with no capital after the "
         "colon today; the table saw the capital (its text stays stored)",
    5: "issue 31, 6: a sheet's change says an attribute's modifier with its sign ('CON +1'): "
       "its words mark which values are modifiers",
    **{seq: "issue 31, 6: an answer says what the prompt asked ('teste de pânico'), not its "
            "number: its words carry the prompt's name" for seq in (33, 35, 39, 44, 117, 119)},
    140: "issue 31, 6: 'Derrotados: … na Floresta', the region with its own preposition "
         "(words na_regiao); the table saw 'em Floresta'",
}
# What those commands change in the views the fixture showed: (character id, field) → today's
# value, in every view that shows the character; nothing else may differ.
PARTY_TODAY = {
    ("bruno", "comida"): 7,  # 26: Bruno's own hunt succeeded (+2 food)
    ("bruno", "sanidade"): 5,  # 4: his own Sanity is 5: resting does not raise it to 6
}
# ... and the clock (50, 51): round 6 of day 2 and day 3's round 1 end at 4h00 of day 3, not
# at 4h50; the second session's tally (52) counts the d6 those two advances rolled today.
CLOCK_TODAY = {"minutos": 2 * 24 * 60 + 4 * 60, "hora": "4h00", "rodada": 2,
               "relogio": "Dia 3 · rodada 2 de 6 (4h–8h)"}
TALLY_TODAY = {"d6": 4}


def shown_today(view: dict[str, Any]) -> dict[str, Any]:
    """A view the fixture showed, with the changes today's rules explain (PARTY_TODAY,
    CLOCK_TODAY, the region a terrain's default one)."""
    today = {**json.loads(json.dumps(view)), **CLOCK_TODAY}
    if "dados" in today.get("registro", {}):
        today["registro"] = {**today["registro"], "dados": TALLY_TODAY}
    if "terreno" in today and "regiao" not in today:  # the view names the region (issue 19):
        today["regiao"], today["regiao_nome"] = today["terreno"], today["terreno_nome"]
    if "viagem" in today:  # who already acted this round (issue 26): nobody, in the fixture's
        today["viagem"] = {**today["viagem"], "agiram": []}
    if "mestre" in today:  # the GM's standing "no rest today" warning (issue 26): none then
        today["mestre"] = {**today["mestre"], "sem_descanso_hoje": None}
    for character in today.get("grupo", []):
        for (who, field), value in PARTY_TODAY.items():
            if character.get("id") == who and field in character:
                character[field] = value
    return today


def rekeyed(opening: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An old campaign (a small seed, from before secrets) opened without --seed tells the GM,
    last, that its dice now come from a secret; what it told before that."""
    *before, told = opening
    assert told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
    assert "chave secreta nova" in told["text"], told["text"]
    return before


def told_differences(opening: list[dict[str, Any]],
                     differing: set[int] | None = None) -> None:
    """The opening tells the GM, GM-only: where the copy of the file before the update is, the
    first command read differently today, then each such command (number, then and now)."""
    differing = set(READ_DIFFERENTLY_TODAY) if differing is None else differing
    copy, *opening = rekeyed(opening)
    assert copy["visibility"] == "gm" and ".antes-de-" in copy["text"], copy["text"]
    if not differing:
        assert opening == []  # nothing differed: nothing to tell
        return
    summary, *each = opening
    assert all(told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
               for told in opening)
    assert f"comando {min(differing)} " in summary["text"], summary["text"]
    assert [told["text"].split(" ", 2)[1] for told in each] == [
        str(n) for n in sorted(differing)], [told["text"] for told in each]
    assert all("Disse então:" in told["text"] and "Diria hoje:" in told["text"]
               for told in each)


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


def test_a_state_read_as_an_object_is_the_state_read_as_json(tmp_path: Path,
                                                             tables: Tables) -> None:
    """The report converts each stored state from the object PackedStates already holds
    (codec.decode_value) instead of writing it as JSON and reading it again: the same State,
    every command of an evening, and the object it read is left as it was."""
    from companion.history import codec

    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables, gm_token="mestre")
    play(session, ["personagem Ana sanidade 3 comida 2", "personagem Bia", "avançar",
                   "pânico Ana", "responder 20", "masmorra", "acender uma tocha", "turno",
                   "segredo 1d20 pra ouvir", "descansar"])
    session.close()
    log = Log.read(db)
    packed = log.states()
    for n in packed.numbers():
        value = packed.value(n)
        before = json.dumps(value, sort_keys=True)
        assert codec.decode_value(value, packed.format_of(n)) \
            == codec.decode(packed.get(n).raw, packed.get(n).format), n
        assert json.dumps(value, sort_keys=True) == before
    with pytest.raises(codec.StateUnreadable):
        codec.decode_value({**packed.value(max(packed.numbers())), "party": "ninguém"})
    log.close()


# ---------------------------------------------------------------------- found in review

def damage(db: Path, n: int) -> None:
    raw = sqlite3.connect(db)
    raw.execute("UPDATE states SET state = x'00ff' WHERE n = ?", (n,))
    raw.commit()
    raw.close()


def test_a_damaged_state_after_an_undo_is_rebuilt_without_the_undone_command(
        tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana", "terreno pântano", "avançar", "avançar", "desfazer"])
    live, last = session.state, session.commands()[-1].n
    session.close()
    damage(db, last)  # the state stored after 'desfazer': rebuilt by replay from the one before
    reopened = Session.open(db, None, tables)
    assert reopened.state == live
    reopened.close()


def test_undo_across_a_damaged_undo_state_restores_the_right_state(tmp_path: Path,
                                                                    tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana", "avançar", "avançar", "desfazer"])
    expected, undo_n = session.state, session.commands()[-1].n
    play(session, ["personagem Bia"])
    session.close()
    damage(db, undo_n)  # the newest state is fine: nothing is rebuilt at open
    reopened = Session.open(db, None, tables)
    play(reopened, ["desfazer"])  # undoes 'personagem Bia': back to the state after the undo
    assert reopened.state == expected
    reopened.close()


def test_undo_then_redo_of_a_migrated_command_rolls_the_same_dice(tmp_path: Path,
                                                                   tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    session = Session.open(db, None, tables)
    original = rolls(session.events_of(51))  # 'avançar', rolled with the key of its number
    assert original
    play(session, ["desfazer", "avançar"])
    assert rolls(session.events_of(session.commands()[-1].n)) == original
    dice = {c.n: c.dice for c in session.commands()}
    assert dice[session.commands()[-1].n] == dice[51] == "4242:51"
    session.close()


def test_the_first_session_report_starts_where_the_campaign_started(tmp_path: Path,
                                                                     tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana", "avançar"])
    session.close()
    before = build.report(open_campaign(db, tables), tables, 1).start
    later = changed_rules(tmp_path, "inicio.yaml", "valor: planicie", "valor: pantano")
    Session.open(db, None, later).close()
    assert build.report(open_campaign(db, later), later, 1).start == before


def test_a_damaged_older_keyframe_is_rebuilt_when_the_campaign_opens(tmp_path: Path,
                                                                     tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana"] + ["rolar 1d6"] * 150)
    state = session.state
    session.close()
    damage(db, 64)  # a keyframe; the newest state (of the keyframe 128) reads fine
    reopened = Session.open(db, None, tables)
    assert reopened.state == state
    assert reopened.opening and "64" in reopened.opening[0]["text"]
    reopened.close()
    build.report(open_campaign(db, tables), tables)  # every state reads again


def test_a_campaign_file_with_a_hash_in_its_name_is_read(tmp_path: Path,
                                                         tables: Tables) -> None:
    from companion.session import campaign_state

    db = tmp_path / "campanha #2 %.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana"])
    session.close()
    assert [c.name for c in campaign_state(db, tables).party] == ["Ana"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campanha #2 %.db"]


def test_a_welcome_reads_each_old_event_once_not_the_log_after_it(
        tmp_path: Path, tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.server import projections as projections_module
    from companion.server.projections import Projections

    monkeypatch.setattr(projections_module, "RECENT", 10)
    session = Session.open(tmp_path / "c.db", 9, tables)
    play(session, ["personagem Ana"] + ["rolar 1d6"] * 200)
    hub = Projections(session, tables)
    hub.count("gm")
    read: list[int] = []
    real = session.history_since
    monkeypatch.setattr(session, "history_since",
                        lambda seq=0, limit=-1: read.append(len(r := real(seq, limit))) or r)
    for event in session.events_since(0):  # a phone (re)loading its page: desde = 0
        hub.show(event, "gm")
    assert sum(read) < 2 * session.last_seq()
    session.close()


def test_deltas_stay_small_when_the_state_grows_past_32_kb(tmp_path: Path,
                                                           tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    play(session, [f"segredo ouvir a porta do corredor norte número {i}" for i in range(700)])
    state = session.state
    session.close()
    log = Log.read(db)
    rows = log.states().rows
    newest = rows[max(rows)]
    assert newest[1] is not None and len(newest[2]) < 1000, len(newest[2])
    assert replay.read_state(log, max(rows)) == state
    log.close()


def test_a_reworded_sentence_reads_reworded_in_the_past_for_everyone(tmp_path: Path,
                                                                     tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    session.join_player("Ana")
    play(session, ["rolar 1d20", "desfazer"])
    session.close()
    reworded = changed_rules(tmp_path, "narracao/desfazer.yaml", "desfeito: \"Desfeito: ",
                             "desfeito: \"Voltou atrás: ")
    campaign = open_campaign(db, reworded)
    for viewer, undone in (("gm", "'rolar 1d20'"), ("player:ana", "a rolagem de 1d20")):
        _start, found = entries(campaign, find_session(campaign, None), reworded, viewer)
        said = [e["text"] for entry in found for e in entry.events
                if e["command"] == "desfazer"]
        assert said == [f"Voltou atrás: {undone}"], (viewer, said)


def test_readers_never_write_a_campaign_this_release_wrote(tmp_path: Path,
                                                           tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    play(session, ["personagem Ana", "rolar 1d6"])
    session.close()
    before = digest(db)
    for action in (["relatorio"], ["verificar"], ["voz", "frases"]):
        done = run_main(*action, "--db", str(db))
        assert done.returncode == 0, done.stderr
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.db"]


# ---------------------------------------------------------------------- stored state formats

def test_a_format_1_state_reads_back_with_afflictions_seen_by_their_player() -> None:
    """Format 1 kept afflictions as bare names; format 2 keeps who sees each one. An old
    affliction gets the house default: its player and the GM only (never more exposed)."""
    from companion.history import codec
    from companion.engine.model import Affliction, State
    from tests.rules_helpers import new_character

    state = State(party=(new_character(id="diego", name="Diego"),
                         new_character(id="ana", name="Ana")))
    raw = json.loads(codec.encode(state))
    raw["party"][0]["afflictions"] = ["Medroso", "Fobia"]
    old = json.dumps(raw).encode()
    assert codec.FORMAT >= 2
    read = codec.decode(old, 1)
    assert read.party[0].afflictions == (Affliction("Medroso", "player:diego"),
                                         Affliction("Fobia", "player:diego"))
    assert read.party[1].afflictions == ()
    assert codec.decode(codec.encode(read)) == read


def test_a_campaign_with_format_1_states_opens_and_reports(tmp_path: Path,
                                                          tables: Tables) -> None:
    """A campaign this release's predecessor stored (format 1, an affliction as a name) opens,
    and its report and views keep the affliction off the other players' pages."""
    from companion.history import codec

    db = tmp_path / "formato1.db"
    session = Session.open(db, 5, tables, gm_token="mestre")
    play(session, ["personagem Ana sanidade 3", "personagem Bia", "pânico Ana", "responder 20"])
    name = session.state.party[0].afflictions[0].name
    session.close()
    connection = sqlite3.connect(db)
    packed = PackedStates({n: (fmt, base, blob) for n, fmt, base, blob in connection.execute(
        "SELECT n, format, base, state FROM states")})
    assert {packed.get(n).format for n in packed.numbers()} == {codec.FORMAT}
    stored = {n: packed.get(n) for n in packed.numbers()}  # rewritten below as format 1
    connection.execute("DELETE FROM states")
    for n, state in stored.items():
        raw = json.loads(state.raw)
        for character in raw["party"]:
            character["afflictions"] = [a["name"] for a in character["afflictions"]]
        connection.execute("INSERT INTO states (n, format, base, state) VALUES (?, 1, NULL, ?)",
                           (n, zlib.compress(json.dumps(raw).encode())))
    connection.commit()
    connection.close()
    again = Session.open(db, None, tables)
    (kept,) = again.state.party[0].afflictions
    assert (kept.name, kept.visibility) == (name, "player:ana")
    assert view_state(again.state, "player:bia", tables)["grupo"][0]["aflicoes"] == []
    again.close()
    campaign = open_campaign(db, tables)
    marks = {c.name: c.afflictions for c in
             build.report(campaign, tables, None, "player:bia", "Bia").characters}
    assert marks["Ana"] == ()
    marks = {c.name: c.afflictions for c in build.report(campaign, tables).characters}
    assert marks["Ana"] == (name,)


def test_a_format_2_state_reads_back_with_no_party_prompt_and_no_named_region() -> None:
    """Format 3 added the party's prompt and the region the GM named; a format 2 state (which
    had neither) reads as one character's prompts in the terrain's default region."""
    from companion.history import codec
    from companion.engine.model import Prompt, State

    state = State(prompts=(Prompt(id=1, kind="fuga", character="ana", text="Ana: fuja!"),))
    raw = json.loads(codec.encode(state))
    del raw["prompts"][0]["party"]
    del raw["travel"]["region"], raw["travel"]["day_start_region"]
    read = codec.decode(json.dumps(raw).encode(), 2)
    assert read == state and read.prompts[0].party is False and read.travel.region is None
    assert codec.FORMAT >= 3


def test_a_format_3_open_round_with_nobody_acted_reads_as_the_waited_round() -> None:
    """Format 4 added `advance_waited` (issue 26: a chase or a dungeon leaves its round open);
    in a format 3 state an open round nobody acted in was the round that waited."""
    from companion.history import codec
    from companion.engine.model import State, Travel

    for travel, waited in ((Travel(round_open=True), True),
                           (Travel(round_open=True, acted=(("ana", "cacar"),)), False),
                           (Travel(round_open=True, pending_advance=True), False),
                           (Travel(), False)):
        raw = json.loads(codec.encode(State(travel=travel)))
        del raw["travel"]["advance_waited"]
        read = codec.decode(json.dumps(raw).encode(), 3)
        assert read.travel.advance_waited is waited, travel


def test_a_format_4_state_keeps_its_wisdom_damage_private_and_its_conditions_public(
        tables: Tables) -> None:
    """Format 5 keeps who sees a condition and the private part of attribute damage (issue
    26: a panic's Insanidade and Wisdom damage are its player's and the GM's). A format 4
    state's Wisdom damage came from a panic: it reads as private; its conditions as public."""
    from companion.history import codec
    from companion.engine.model import State
    from tests.rules_helpers import new_character

    ana = new_character(id="ana", name="Ana", conditions=("Insanidade",),
                        attribute_damage={"sab": 2, "con": 1})
    raw = json.loads(codec.encode(State(party=(ana, new_character(id="bia", name="Bia")))))
    for character in raw["party"]:
        del character["private_damage"], character["condition_visibility"]
    read = codec.decode(json.dumps(raw).encode(), 4)
    assert codec.FORMAT >= 5
    assert read.party[0].private_damage == {"sab": 2} and read.party[1].private_damage == {}
    shown = view_state(read, "player:bia", tables)["grupo"][0]
    assert shown["dano_atributos"] == {"con": 1} and shown["condicoes"] == ["Insanidade"]
    assert view_state(read, "player:ana", tables)["grupo"][0]["dano_atributos"] == {
        "sab": 2, "con": 1}
    assert codec.decode(codec.encode(read)) == read
