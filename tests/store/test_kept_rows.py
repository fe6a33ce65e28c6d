"""What the log keeps in memory of its newest rows between commands (the newest standing
command, the next command number, the newest seq, the newest events as the live fan-out reads
them back: issue 33 item 4, each a query per command before) always says what the file says: after a command, after an undo, and after a write that
failed (an error inside the transaction, a full disk) and left nothing of itself behind."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterator

import pytest

from companion.store import Log, NewEvent, StoredState
from companion.tables.errors import DiskFull
from tests.disk_helpers import cap

STATE = StoredState(1, b'{"minutes": 0}')
SKIP = ("desfazer", "ajuda")


def put(log: Log, n: int, name: str, events: int = 1, undo: int | None = None) -> list[dict]:
    return log.append(n, name, name, {"n": n}, "gm", "t",
                      [NewEvent("relato", "public", f"{name} {i}", {"i": i})
                       for i in range(events)],
                      STATE, f"7:{n}", None, undo=undo)


def agrees(log: Log, path: Path) -> None:
    """The log's answers equal a fresh reading of the file (another connection)."""
    fresh = Log.read(path)
    try:
        for skip in (SKIP, ()):
            assert log.last_active(skip) == fresh.last_active(skip)
        assert log.next_number() == fresh.next_number()
        assert log.last_seq() == fresh.last_seq()
        last = fresh.last_seq()
        for seq in range(-1, last + 2):
            for limit in (-1, 1, 300):
                assert log.stored_since(seq, limit) == fresh.stored_since(seq, limit), \
                    (seq, limit)
    finally:
        fresh.close()


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[tuple[Log, Path]]:
    path = tmp_path / "mesa.db"
    log = Log.open(path)
    yield log, path
    log.close()


def test_a_command_moves_what_is_kept_on_and_its_events_take_the_next_seqs(
        kept: tuple[Log, Path]) -> None:
    log, path = kept
    agrees(log, path)  # nothing stored: asked of the file, then kept
    assert [e["seq"] for e in put(log, 1, "rolar", events=3)] == [1, 2, 3]
    agrees(log, path)
    assert [e["seq"] for e in put(log, 2, "ajuda", events=2)] == [4, 5]
    assert log.last_active(SKIP).n == 1 and log.last_active(()).n == 2  # type: ignore[union-attr]
    agrees(log, path)
    assert put(log, 3, "clima", events=0) == []
    assert put(log, 4, "rolar")[0]["seq"] == 6
    agrees(log, path)


def test_the_newest_events_read_back_as_the_file_has_them(kept: tuple[Log, Path]) -> None:
    """Coded events (their text left out, their words packed) and plain ones, over more
    commands than the log keeps events of: every read after every command is the file's."""
    log, path = kept
    words = {"rotulo": "Rolagem: ouvir", "lado": None}
    for n in range(1, 40):
        log.append(n, "rolar", "rolar", {}, "gm", "t", [
            NewEvent("rolagem", "gm", "", {"total": n, "faces": [[6, [n]]]}, "dados.rolagem",
                     words, derived=True),
            NewEvent("relato", "public", f"texto {n}", {"i": n}, None)] * (n % 9),
            STATE, f"7:{n}", None)
        if n % 4 == 0:
            agrees(log, path)
    assert log.stored_since(0)[0][8] == words  # the words as the file gives them


def test_an_undo_gives_the_standing_command_back(kept: tuple[Log, Path]) -> None:
    log, path = kept
    put(log, 1, "rolar")
    put(log, 2, "avancar")
    assert log.last_active(SKIP).n == 2  # type: ignore[union-attr]
    put(log, 3, "desfazer", undo=2)
    assert log.last_active(SKIP).n == 1  # type: ignore[union-attr]
    agrees(log, path)
    put(log, 4, "desfazer", undo=1)
    assert log.last_active(SKIP) is None
    agrees(log, path)


def test_a_failed_transaction_leaves_nothing_kept_of_itself(kept: tuple[Log, Path]) -> None:
    log, path = kept
    put(log, 1, "rolar")
    put(log, 2, "avancar")
    log.last_active(SKIP)
    with pytest.raises(sqlite3.IntegrityError):  # the undo mark went in, then the insert failed
        put(log, 2, "desfazer", undo=2)
    assert log.last_active(SKIP).n == 2  # type: ignore[union-attr]
    agrees(log, path)
    assert put(log, 3, "rolar")[0]["seq"] == 3
    agrees(log, path)


def test_a_full_disk_leaves_nothing_kept_of_the_refused_command(kept: tuple[Log, Path]) -> None:
    log, path = kept
    put(log, 1, "rolar")
    agrees(log, path)
    room = cap(log._db, None)  # the file may not grow: the next writes find the disk full
    n = 2
    with pytest.raises(DiskFull):
        for n in range(2, 500):  # a page holds a few commands: fill it, then one is refused
            put(log, n, "rolar", events=4)
    refused = n
    agrees(log, path)
    assert log.next_number() == refused
    cap(log._db, room)
    assert put(log, refused, "rolar")[0]["seq"] == log.last_seq()
    assert log.last_active(()).n == refused  # type: ignore[union-attr]
    agrees(log, path)
