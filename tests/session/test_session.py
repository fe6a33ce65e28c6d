"""The session: run → apply → persist → notify, undo by replay, resume, players, threads."""
from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Command
from companion.tables.errors import CommandRejected
from companion.session import RunResult, Session, SessionError
from tests.history_helpers import differences
from tests.session.session_helpers import ok, rejected
from companion.tables.files import Tables

EVENT_KEYS = {"seq", "command", "kind", "visibility", "text", "data"}
SEED = 11


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "mesa.db"


@pytest.fixture
def session(db: Path, tables: Tables) -> Session:
    opened = Session.open(db, SEED, tables)
    yield opened
    opened.close()


# ---------------------------------------------------------------------- running

def test_a_roll_is_stored_and_returned_with_the_contract_shape(session: Session) -> None:
    events = ok(session.run("rolar 2d6+1"))
    assert events, "rolar produced no event"
    for event in events:
        assert set(event) == EVENT_KEYS
        assert event["command"] == "rolar"
    first = len(session.started) + 1  # after the session's own start (the initial weather)
    assert [e["seq"] for e in events] == list(range(first, first + len(events)))
    assert session.events_since(first - 1) == events
    roll = next(e for e in events if e["kind"] == "rolagem")
    assert roll["data"]["dados"] == "2d6+1"
    assert 3 <= roll["data"]["total"] <= 13
    assert session.commands()[0].text == "rolar 2d6+1"


def test_seq_keeps_growing_and_events_since_filters(session: Session) -> None:
    first = ok(session.run("rolar 1d20"))
    second = ok(session.run("rolar 1d8"))
    assert second[0]["seq"] == first[-1]["seq"] + 1
    assert session.events_since(first[-1]["seq"]) == second
    assert session.events_since(second[-1]["seq"]) == []


@pytest.mark.parametrize("text", ["", "   ", "xyzzy plugh", "rolar 1d1"])
def test_rejected_input_changes_and_stores_nothing(session: Session, text: str) -> None:
    ok(session.run("personagem Ana"))
    before, stored = session.state, session.events_since(0)
    rejected(session.run(text))
    assert session.state == before
    assert session.events_since(0) == stored
    assert len(session.commands()) == 1


def test_an_engine_rejection_is_a_portuguese_message(session: Session) -> None:
    error = rejected(session.run("turno"))  # a dungeon command while travelling
    assert "turno" in error and "masmorra" in error
    assert session.commands() == []


def test_same_seed_same_dice(tables: Tables, tmp_path: Path) -> None:
    a = Session.open(tmp_path / "a.db", 99, tables)
    b = Session.open(tmp_path / "b.db", 99, tables)
    c = Session.open(tmp_path / "c.db", 100, tables)
    rolls = {name: [ok(s.run("rolar 10d20"))[0]["data"]["total"] for _ in range(3)]
             for name, s in (("a", a), ("b", b), ("c", c))}
    assert rolls["a"] == rolls["b"]
    assert rolls["a"] != rolls["c"]


def test_run_command_for_an_already_parsed_command(session: Session) -> None:
    events = ok(session.run_command(Command("rolar", {"expressao": "1d4"})))
    assert events[0]["command"] == "rolar"
    assert session.commands()[0].text.startswith("rolar")


def test_a_player_may_roll_but_not_run_gm_commands(session: Session) -> None:
    player = session.join_player("Ana")
    actor = f"player:{player.character_id}"
    ok(session.run("rolar 1d6", actor=actor))
    assert session.commands()[-1].actor == actor
    before = session.state
    error = rejected(session.run("avançar", actor=actor))
    assert "Mestre" in error
    rejected(session.run("desfazer", actor=actor))
    assert session.state == before


# ---------------------------------------------------------------------- undo

def test_undo_returns_the_exact_previous_state(session: Session) -> None:
    ok(session.run("personagem Ana"))
    before = session.state
    ok(session.run("avançar"))
    assert session.state != before
    (event,) = ok(session.run("desfazer"))
    assert event["kind"] == "relato" and event["visibility"] == "public"
    assert event["text"] == "Desfeito: 'avançar'"
    assert event["command"] == "desfazer"
    assert session.state == before


def test_undo_is_repeatable_and_skips_read_only_commands(session: Session,
                                                         tables: Tables) -> None:
    from companion.engine import initial_state

    fresh = session.state  # the new session, its initial weather rolled
    ok(session.run("personagem Ana"))
    after_ana = session.state
    ok(session.run("terreno floresta"))
    ok(session.run("estado"))
    ok(session.run("ajuda"))
    assert ok(session.run("desfazer"))[0]["text"] == "Desfeito: 'terreno floresta'"
    assert session.state == after_ana
    assert ok(session.run("desfazer"))[0]["text"] == "Desfeito: 'personagem Ana'"
    assert session.state == fresh and fresh.travel.weather_row is not None
    assert initial_state(tables).travel.weather_row is None  # the start is never undone
    error = rejected(session.run("desfazer"))
    assert "nada para desfazer" in error
    assert [c.undone for c in session.commands()] == [True, True, False, False, False, False]


def test_a_command_after_an_undo_uses_its_own_number(session: Session, db: Path,
                                                     tables: Tables) -> None:
    ok(session.run("rolar 1d20"))
    ok(session.run("desfazer"))
    events = ok(session.run("rolar 1d20"))
    assert session.commands()[-1].n == 3
    reopened = Session.open(db, None, tables)
    assert differences(db, tables) == []
    assert reopened.state == session.state
    assert reopened.events_since(0)[-len(events):] == events


# ---------------------------------------------------------------------- resume

def test_reopening_resumes_state_seed_and_token(db: Path, tables: Tables) -> None:
    first = Session.open(db, 5, tables, gm_token="mestre-123")
    for text in ("personagem Ana con 1", "terreno colinas", "avançar", "explorar"):
        ok(first.run(text))
    stored = first.events_since(0)
    first.close()
    again = Session.open(db, None, tables)
    assert (again.seed, again.gm_token) == ("5", "mestre-123")
    assert again.state == first.state
    assert differences(db, tables) == []
    assert again.events_since(0) == stored
    assert ok(again.run("rolar 1d6"))[0]["seq"] == stored[-1]["seq"] + 1


def test_reopening_with_another_seed_is_a_clear_error(db: Path, tables: Tables) -> None:
    Session.open(db, 5, tables).close()
    with pytest.raises(SessionError, match="semente 5"):
        Session.open(db, 6, tables)
    Session.open(db, 5, tables).close()  # the same seed is fine


def test_new_session_without_seed_draws_and_keeps_a_secret(db: Path, tables: Tables) -> None:
    first = Session.open(db, None, tables)
    assert not first.seeded and first.seed == ""
    assert len(first.gm_token) >= 16
    key = first.dice_key("rolar")
    first.close()
    again = Session.open(db, None, tables)
    assert again.gm_token == first.gm_token and not again.seeded
    assert again.dice_key("rolar") == key and again.opening == []


def test_gm_token_given_for_an_existing_db_replaces_the_stored_one(db: Path,
                                                                   tables: Tables) -> None:
    Session.open(db, 1, tables, gm_token="velho").close()
    assert Session.open(db, None, tables, gm_token="novo").gm_token == "novo"
    assert Session.open(db, None, tables).gm_token == "novo"


def test_memory_session_without_db(tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    assert session.db_path == ":memory:"
    ok(session.run("rolar 1d6"))
    assert len(session.events_since(0)) == len(session.started) + 1


# ---------------------------------------------------------------------- players

def test_join_creates_the_character_through_a_logged_command(session: Session) -> None:
    player = session.join_player("Ana")
    assert (player.character_id, player.name) == ("ana", "Ana")
    assert [c.id for c in session.state.party] == ["ana"]
    (command,) = session.commands()
    assert (command.name, command.actor, command.args) == ("personagem", "gm", {"nome": "Ana"})
    assert session.player_by_token(player.token) == player


def test_a_seated_name_is_refused_and_nothing_is_created_or_handed_out(
        session: Session, tables: Tables) -> None:
    first = session.join_player("Ana")
    state, commands = session.state, session.commands()
    for typed in ("Ana", "ana", " ANA "):
        with pytest.raises(CommandRejected) as refused:
            session.join_player(typed)
        assert refused.value.code == "entrada.lugar_ocupado"
        assert refused.value.message == tables.narration.render("entrada.lugar_ocupado",
                                                                {"nome": "Ana"})
        assert "peça ao Mestre" in refused.value.message
    assert session.players() == [first]  # no second token
    assert session.state is state and session.commands() == commands


def test_a_character_the_gm_made_is_free_until_a_phone_takes_it(session: Session) -> None:
    ok(session.run("personagem Bia nível 2"))
    assert [(s.character_id, s.name, s.tokens, s.since) for s in session.seats()] == [
        ("bia", "Bia", 0, None)]
    player = session.join_player("bia")
    assert (player.character_id, player.name) == ("bia", "Bia")
    (seat,) = session.seats()
    assert (seat.character_id, seat.tokens, seat.occupied) == ("bia", 1, True)
    assert seat.since is not None and seat.since[:4].isdigit()


def test_freeing_a_seat_ends_its_tokens_and_the_next_join_takes_the_character(
        session: Session, tables: Tables) -> None:
    ana = session.join_player("Ana")
    session.join_player("Bia")
    ok(session.run("avançar"))
    state, key = session.state, session.dice_key("rolar")
    delivered: list[list[dict]] = []
    session.subscribe(delivered.append)
    events = session.free_seat("ana", "gm")
    (told,) = events
    assert told["visibility"] == "gm" and told["command"] == "lugar_liberado"
    assert told["data"] == {"personagem": "ana", "nome": "Ana", "por": "gm"}
    assert told["text"] == tables.narration.render("entrada.lugar_liberado", told["data"])
    assert delivered == [events]  # the GM's log shows it, live
    assert session.player_by_token(ana.token) is None
    assert session.state == state and session.dice_key("rolar") == key  # no dice, no place
    assert [s.character_id for s in session.seats() if s.occupied] == ["bia"]
    stored = session.commands()[-1]
    assert (stored.name, stored.actor, stored.args) == ("lugar_liberado", "sistema",
                                                        {"personagem": "ana", "por": "gm"})
    # not a game command: undo skips it and takes back the command before
    (undone,) = ok(session.run("desfazer"))
    assert undone["data"]["comando"] == "avancar"
    again = session.join_player("ana")
    assert (again.character_id, again.name) == ("ana", "Ana") and again.token != ana.token
    assert [c.id for c in session.state.party].count("ana") == 1
    assert differences(session.db_path, tables) == []


def test_a_player_frees_only_their_own_seat_and_a_free_seat_is_not_freed_again(
        session: Session, tables: Tables) -> None:
    session.join_player("Ana")
    bia = session.join_player("Bia")
    ok(session.run("personagem Caio"))
    commands = session.commands()
    with pytest.raises(CommandRejected) as refused:
        session.free_seat("ana", "player:bia")
    assert refused.value.code == "entrada.lugar_alheio"
    for who, code in (("caio", "entrada.lugar_livre"), ("zeca", "entrada.sem_personagem")):
        with pytest.raises(CommandRejected) as refused:
            session.free_seat(who, "gm")
        assert refused.value.code == code and refused.value.message
    assert session.commands() == commands
    (told,) = session.free_seat("bia", "player:bia")
    assert told["data"]["por"] == "player:bia"
    assert told["text"] == tables.narration.render("entrada.lugar_liberado", told["data"])
    assert session.player_by_token(bia.token) is None


def test_joining_an_existing_character_keeps_its_sheet(session: Session) -> None:
    ok(session.run("personagem Bia nível 3 pv 20"))
    before = session.state
    player = session.join_player("Bia")
    assert player.character_id == "bia"
    assert session.state == before


def test_unknown_token_and_bad_name(session: Session) -> None:
    assert session.player_by_token("nao-existe") is None
    with pytest.raises(CommandRejected):
        session.join_player("   ")


def test_players_survive_a_restart(db: Path, tables: Tables) -> None:
    first = Session.open(db, 2, tables)
    player = first.join_player("Caio")
    first.close()
    again = Session.open(db, None, tables)
    assert again.player_by_token(player.token) == player
    assert [c.id for c in again.state.party] == ["caio"]
    with pytest.raises(CommandRejected):  # still seated after the restart
        again.join_player("Caio")
    again.close()


# ---------------------------------------------------------------------- subscribers

def test_subscribers_get_each_batch_after_it_is_stored(session: Session) -> None:
    batches: list[list[dict]] = []

    def listener(batch: list[dict]) -> None:
        assert session.events_since(batch[0]["seq"] - 1)[:len(batch)] == batch  # stored first
        batches.append(batch)

    session.subscribe(listener)
    events = ok(session.run("rolar 1d6"))
    rejected(session.run("xyzzy"))
    assert batches == [events]
    session.unsubscribe(listener)
    ok(session.run("rolar 1d6"))
    assert len(batches) == 1


def test_a_broken_subscriber_does_not_stop_the_others(session: Session) -> None:
    seen: list[int] = []
    session.subscribe(lambda batch: 1 / 0)
    session.subscribe(lambda batch: seen.extend(e["seq"] for e in batch))
    assert ok(session.run("rolar 1d6"))
    assert seen == [len(session.started) + 1]


def test_threads_get_every_event_once_in_seq_order(session: Session) -> None:
    seen: list[int] = []
    session.subscribe(lambda batch: seen.extend(e["seq"] for e in batch))
    results: list[RunResult] = []

    def worker() -> None:
        for _ in range(10):
            results.append(session.run("rolar 1d20"))

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r.ok for r in results)
    stored = [e["seq"] for e in session.events_since(len(session.started))]
    assert len(stored) == 60
    assert seen == stored == sorted(stored)
    assert [c.n for c in session.commands()] == list(range(1, 61))


def test_a_subscriber_may_run_a_command(session: Session) -> None:
    seen: list[int] = []

    def echo(batch: list[dict]) -> None:
        seen.extend(e["seq"] for e in batch)
        if batch[0]["command"] == "personagem":
            session.run("rolar 1d4")

    session.subscribe(echo)
    ok(session.run("personagem Ana"))
    assert seen == [e["seq"] for e in session.events_since(len(session.started))]
    assert len(session.commands()) == 2


# ---------------------------------------------------------------------- replay = live

TEXTS = [
    "personagem Ana con 1", "personagem Bruno des 2", "rolar 2d6+1", "rolar 1d20 com vantagem",
    "avançar", "explorar", "acampar", "descansar", "forragear", "caçar Ana", "pescar",
    "criar munição", "terreno floresta", "terreno pântano", "estação inverno", "modo montado",
    "clima", "masmorra arriscado", "turno", "acender tocha", "descansar", "dormir", "viagem",
    "surpresa", "segredo", "fugir", "fuga sucesso", "fuga falha", "distância", "pânico Ana",
    "responder", "tabela K", "derrotados 3 goblins", "tesouro 50 moedas de ouro",
    "item 2 poções", "desfazer", "desfazer", "estado", "ajuda", "xyzzy", "",
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.sampled_from(TEXTS), min_size=1, max_size=25),
       seed=st.integers(min_value=0, max_value=10_000))
def test_replaying_the_log_gives_the_live_state(tables: Tables, script: list[str],
                                                seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "mesa.db"
        live = Session.open(db, seed, tables)
        for text in script:
            before = live.state
            result = live.run(text)
            if not result.ok:
                assert live.state == before
        stored = live.events_since(0)
        live.close()
        reopened = Session.open(db, None, tables)
        assert differences(db, tables) == []
        assert reopened.state == live.state
        assert reopened.events_since(0) == stored

        before_last = reopened.state
        ok(reopened.run("rolar 1d6"))
        assert reopened.state != before_last  # the tally counts the die
        ok(reopened.run("desfazer"))
        assert reopened.state == before_last
        reopened.close()


UNDOABLE = [text for text in TEXTS if text not in ("desfazer", "estado", "ajuda", "xyzzy", "")]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.sampled_from(TEXTS), max_size=20), last=st.sampled_from(UNDOABLE),
       seed=st.integers(min_value=0, max_value=10_000))
def test_undo_returns_the_exact_state_before_any_command(tables: Tables, script: list[str],
                                                         last: str, seed: int) -> None:
    live = Session.open(None, seed, tables)
    for text in script:
        live.run(text)
    before = live.state
    if live.run(last).ok:
        ok(live.run("desfazer"))
        assert live.state == before
    else:
        assert live.state == before
    live.close()


def test_an_engine_bug_is_reported_and_stores_nothing(session: Session,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.engine import handlers

    def broken(state: object, turn: object) -> object:
        raise KeyError("oops")

    monkeypatch.setitem(handlers.COMMANDS, "rolar", broken)
    error = rejected(session.run("rolar 1d6"))
    assert error.startswith("erro interno ao executar 'rolar 1d6'")
    assert session.commands() == [] and session.events_since(0) == session.started


def test_undoing_a_hidden_command_does_not_tell_the_players_what_it_was(session: Session) -> None:
    ok(session.run("masmorra"))
    ok(session.run("monstro dragão vermelho na sala 7"))
    events = ok(session.run("desfazer"))
    public = [e for e in events if e["visibility"] == "public"]
    assert public and all("dragão" not in e["text"] for e in public)
    assert any("dragão" in e["text"] for e in events if e["visibility"] == "gm")


def test_undoing_a_public_command_names_it_to_everyone(session: Session) -> None:
    ok(session.run("rolar 2d6"))
    events = ok(session.run("desfazer"))
    assert [e["visibility"] for e in events] == ["public"]
    assert "rolar 2d6" in events[0]["text"]


def test_undo_after_reopening_goes_back_exactly(db: Path, tables: Tables) -> None:
    first = Session.open(db, 5, tables)
    ok(first.run("personagem Ana"))
    ok(first.run("explorar"))
    middle = first.state
    ok(first.run("avançar"))
    first.close()
    again = Session.open(db, None, tables)
    ok(again.run("desfazer"))
    assert again.state == middle
    ok(again.run("desfazer"))
    ok(again.run("desfazer"))
    fresh = Session.open(None, 5, tables)
    assert again.state == fresh.state
    again.close()


def test_a_blank_name_is_refused_with_the_tables_words(session: Session) -> None:
    before = len(session.events_since(0))
    with pytest.raises(CommandRejected) as refused:
        session.join_player("  ")
    assert str(refused.value) == "nome de jogador inválido: '  '; use um nome como 'Ana'"
    assert refused.value.code == "entrada.nome_invalido"
    assert len(session.events_since(0)) == before  # nothing changed
