"""The SQLite log: durability settings, one transaction per command, reading back."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.tables.errors import DiskFull
from companion.store import Log, Meta, NewEvent, StoredState

STATE = StoredState(1, b'{"minutes": 0}')


def put(log: Log, *command: object, undo: int | None = None,
        release: str | None = None) -> list[dict]:
    """Append a command with a stand-in state (the session stores real ones)."""
    return log.append(*command, STATE, "7:1", None, undo=undo,  # type: ignore[arg-type]
                      release=release)


def _event(text: str, **data: object) -> NewEvent:
    return NewEvent(kind="relato", visibility="public", text=text, data=data)


@pytest.fixture
def log(tmp_path: Path) -> Log:
    opened = Log.open(tmp_path / "mesa.db")
    yield opened
    opened.close()


def test_file_log_uses_wal_and_synchronous_full(log: Log) -> None:
    assert log.pragma("journal_mode") == "wal"
    assert log.pragma("synchronous") == 2  # FULL


def test_wal_mode_is_persistent_in_the_file(tmp_path: Path) -> None:
    Log.open(tmp_path / "mesa.db").close()
    raw = sqlite3.connect(tmp_path / "mesa.db")
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()


def test_memory_log_without_a_path() -> None:
    log = Log.open(None)
    assert log.path == ":memory:"
    put(log, 1, "rolar d6", "rolar", {"expressao": "1d6"}, "gm", "agora", [_event("4")])
    assert [e["text"] for e in log.events_since(0)] == ["4"]


def test_meta_round_trip(log: Log) -> None:
    assert log.meta() is None
    log.write_meta(Meta(seed="42", gm_token="segredo", created="2024-01-01T00:00:00+00:00"))
    assert log.meta() == Meta("42", "segredo", "2024-01-01T00:00:00+00:00")
    log.write_meta(Meta(seed="42", gm_token="outro", created="2024-01-01T00:00:00+00:00"))
    assert log.meta().gm_token == "outro"


def test_append_stores_command_and_events_with_the_contract_shape(log: Log) -> None:
    stored = put(log, 1, "avançar", "avancar", {}, "gm", "t1",
                        [_event("primeiro", total=3), _event("segundo", lista=[1, 2])])
    assert stored == [
        {"seq": 1, "command": "avancar", "kind": "relato", "visibility": "public",
         "text": "primeiro", "data": {"total": 3}},
        {"seq": 2, "command": "avancar", "kind": "relato", "visibility": "public",
         "text": "segundo", "data": {"lista": [1, 2]}},
    ]
    assert log.events_since(0) == stored
    assert log.events_since(1) == stored[1:]
    assert log.events_of(1) == stored
    assert log.next_number() == 2
    assert log.last_seq() == 2
    (command,) = log.commands()
    assert (command.n, command.text, command.name, command.args, command.actor,
            command.undone) == (1, "avançar", "avancar", {}, "gm", False)


def test_committed_data_is_visible_to_another_connection(tmp_path: Path) -> None:
    log = Log.open(tmp_path / "mesa.db")
    put(log, 1, "rolar 1d20", "rolar", {"expressao": "1d20"}, "gm", "t", [_event("17")])
    other = sqlite3.connect(tmp_path / "mesa.db")
    assert other.execute("SELECT text FROM events").fetchall() == [("17",)]
    assert other.execute("SELECT name, args FROM commands").fetchall() == [
        ("rolar", '{"expressao": "1d20"}')]
    other.close()
    log.close()


def test_a_failing_append_writes_nothing(log: Log) -> None:
    put(log, 1, "a", "ajuda", {}, "gm", "t", [_event("ok")])
    with pytest.raises(TypeError):
        put(log, 2, "b", "rolar", {}, "gm", "t", [_event("ok"), _event("ruim", x=object())])
    assert log.next_number() == 2
    assert [e["seq"] for e in log.events_since(0)] == [1]


def test_an_error_after_the_first_insert_rolls_back_the_whole_command(log: Log) -> None:
    put(log, 1, "a", "ajuda", {}, "gm", "t", [_event("ok")])
    with pytest.raises(sqlite3.IntegrityError):  # same command number: the insert fails late
        put(log, 1, "b", "rolar", {}, "gm", "t", [_event("nunca")], undo=1)
    assert [c.undone for c in log.commands()] == [False]
    assert [e["text"] for e in log.events_since(0)] == ["ok"]


def test_undo_mark_goes_with_the_undo_command(log: Log) -> None:
    put(log, 1, "avançar", "avancar", {}, "gm", "t", [_event("x")])
    put(log, 2, "desfazer", "desfazer", {}, "gm", "t", [_event("Desfeito: 'avançar'")], undo=1)
    assert [(c.n, c.undone) for c in log.commands()] == [(1, True), (2, False)]


def test_unicode_survives(log: Log) -> None:
    put(log, 1, "estação verão", "estacao", {"estacao": "verao"}, "gm", "t",
               [_event("Quente e ensolarado — é verão", clima="Sufocante e ensolarado")])
    (event,) = log.events_since(0)
    assert event["text"] == "Quente e ensolarado — é verão"
    assert event["data"] == {"clima": "Sufocante e ensolarado"}
    assert log.commands()[0].text == "estação verão"


def test_players(log: Log) -> None:
    log.add_player("tok-1", "ana", "Ana")
    log.add_player("tok-2", "ana", "Ana")
    assert log.player("tok-1") == ("tok-1", "ana", "Ana")
    assert log.player("nada") is None
    assert log.players() == [("tok-1", "ana", "Ana"), ("tok-2", "ana", "Ana")]
    with pytest.raises(sqlite3.IntegrityError):
        log.add_player("tok-1", "bia", "Bia")


def test_seats_are_the_tokens_grouped_by_character_with_the_first_ones_time(log: Log) -> None:
    log.add_player("tok-1", "ana", "Ana", "2024-05-01T21:00:00+00:00")
    log.add_player("tok-2", "bia", "Bia", "2024-05-01T21:05:00+00:00")
    log.add_player("tok-3", "ana", "Ana", "2024-05-01T22:00:00+00:00")
    assert log.seats() == [("ana", "Ana", "2024-05-01T21:00:00+00:00", 2),
                           ("bia", "Bia", "2024-05-01T21:05:00+00:00", 1)]


def test_a_released_seat_loses_its_tokens_with_its_command_in_one_transaction(
        log: Log) -> None:
    log.add_player("tok-1", "ana", "Ana", "t")
    log.add_player("tok-2", "ana", "Ana", "t")
    log.add_player("tok-3", "bia", "Bia", "t")
    room = log.pragma("max_page_count")
    log._db.execute(f"PRAGMA max_page_count = {log.pragma('page_count')}")
    with pytest.raises(DiskFull):  # the command could not be written: the tokens stay
        put(log, 1, "liberar", "lugar_liberado", {}, "sistema", "t", [_event("x" * 20_000)],
            release="ana")
    assert [p[0] for p in log.players()] == ["tok-1", "tok-2", "tok-3"]
    log._db.execute(f"PRAGMA max_page_count = {room}")
    put(log, 1, "liberar", "lugar_liberado", {}, "sistema", "t", [_event("livre")],
        release="ana")
    assert log.players() == [("tok-3", "bia", "Bia")]
    assert log.player("tok-1") is None and [c.name for c in log.commands()] == ["lugar_liberado"]


def test_a_log_from_before_seats_gets_their_time_column_empty(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "velho.db")
    raw.execute("CREATE TABLE players (token TEXT PRIMARY KEY, character_id TEXT NOT NULL, "
                "name TEXT NOT NULL)")
    raw.execute("INSERT INTO players VALUES ('tok', 'ana', 'Ana')")
    raw.commit()
    raw.close()
    old = Log.open(tmp_path / "velho.db")
    try:
        assert old.player("tok") == ("tok", "ana", "Ana")
        assert old.seats() == [("ana", "Ana", None, 1)]
        old.add_player("tok-2", "bia", "Bia", "t")
        assert old.seats()[1] == ("bia", "Bia", "t", 1)
    finally:
        old.close()


def test_reopening_keeps_everything(tmp_path: Path) -> None:
    first = Log.open(tmp_path / "mesa.db")
    first.write_meta(Meta("7", "tok", "t"))
    put(first, 1, "ajuda", "ajuda", {}, "gm", "t", [_event("lista")])
    first.add_player("p", "ana", "Ana")
    first.close()
    second = Log.open(tmp_path / "mesa.db")
    assert second.meta() == Meta("7", "tok", "t")
    assert [e["text"] for e in second.events_since(0)] == ["lista"]
    assert second.players() == [("p", "ana", "Ana")]
    second.close()


def test_a_full_disk_is_disk_full_and_the_log_writes_again_once_there_is_room(
        log: Log) -> None:
    # A file that may not grow (max_page_count, per connection) is full like a full disk.
    room = log.pragma("max_page_count")
    log._db.execute(f"PRAGMA max_page_count = {log.pragma('page_count')}")
    big = [_event("x" * 20_000)]  # needs pages of its own
    with pytest.raises(DiskFull):
        put(log, 1, "rolar d6", "rolar", {}, "gm", "agora", big)
    assert not log._db.in_transaction  # rolled back, by SQLite or by the log
    assert log.commands() == [] and log.events_since(0) == []
    with pytest.raises(DiskFull):
        log.add_player("t", "ana", "Ana" * 5000)
    assert log.players() == []
    log._db.execute(f"PRAGMA max_page_count = {room}")
    put(log, 1, "rolar d6", "rolar", {}, "gm", "agora", big)
    assert [e["text"] for e in log.events_since(0)] == ["x" * 20_000]
