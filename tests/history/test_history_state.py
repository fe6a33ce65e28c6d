"""test_history.py, continued: the state tests."""
from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from companion.history import replay
from companion.engine.view import view_state
from companion.report import build
from companion.report.source import entries, find_session, open_campaign
from companion.session import Session
from companion.store.log import Log, PackedStates
from companion.tables.files import Tables
from tests.cli_helpers import run_main
from tests.report_helpers import play
from tests.rules_helpers import changed_rules
from tests.history.history_history_helpers import (  # noqa: F401
    FIXTURES,
    ok,
    rolls,
    restore,
    digest,
    damage,
)


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
