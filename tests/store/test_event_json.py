"""An event's data and words packed with the shipped dictionary (issue 25: ≤ 1 MB per 1,000
commands): what is stored reads back exactly, is far smaller than the JSON for a real evening,
and a file written before (JSON text) reads as it did."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.session import Session
from companion.store import event_json
from companion.tables.files import Tables

ROOT = Path(__file__).resolve().parents[2]
EVENING = ["personagem Ana nível 2 pv 12 con 1 des 2", "personagem Bia pv 10 des 1",
           "estação outono", "terreno floresta", "avançar", "explorar", "rolar 2d6+1",
           "segredo 1d20 pra ouvir a porta", "acampar", "masmorra", "acender uma tocha",
           "turno", "turno", "derrotados 2 goblins", "tesouro 10 moedas de ouro", "viagem"]

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=5),
    max_leaves=20)


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_any_json_reads_back_exactly_and_is_packed_only_when_shorter(value: object) -> None:
    text = compact(value)
    stored = event_json.pack(text)
    assert event_json.text(stored) == text
    if isinstance(stored, bytes):
        assert stored[0] == event_json.CURRENT and len(stored) < len(text.encode())
    else:
        assert stored == text


def test_the_shipped_dictionaries_are_the_bytes_they_shipped_with() -> None:
    for number, (name, sha256) in event_json.DICTIONARIES.items():
        data = (ROOT / "companion" / "store" / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == sha256, name
        assert 0 < len(data) <= 32 * 1024  # what zlib's window can reach
        assert event_json.dictionary(number) == data
    assert event_json.CURRENT in event_json.DICTIONARIES
    # git must never turn its line endings into a Windows checkout's (the SHA would differ)
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "*.zdict binary" in attributes


def test_a_value_of_a_dictionary_this_release_lacks_is_refused_by_name() -> None:
    unknown = max(event_json.DICTIONARIES) + 1
    with pytest.raises(event_json.UnknownPacking) as refused:
        event_json.text(bytes([unknown]) + b"\x03\x00")
    assert refused.value.number == unknown
    packed = event_json.pack(compact({"tabela": "Tabela D: Eventos" * 3}))
    assert isinstance(packed, bytes)
    with pytest.raises(ValueError):  # cut short: never half a value
        event_json.text(packed[:-3])
    with pytest.raises(ValueError):  # damaged: a ValueError like damaged JSON, not zlib's own
        event_json.text(packed[:1] + b"\xff" * 12)


def _columns(db: Path) -> list[tuple[object, object]]:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT data, words FROM events ORDER BY seq").fetchall()


def _played(db: Path, tables: Tables) -> list[dict[str, object]]:
    """The evening played into a new file at db: its events as the session read them."""
    session = Session.open(db, 5, tables)
    for text in EVENING:
        assert session.run(text).ok, text
    every = session.events_since(0)
    session.close()
    return every


def test_an_evenings_events_are_stored_packed_at_well_under_half_their_json(
        tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "noite.db"
    every = _played(db, tables)
    stored = [value for row in _columns(db) for value in row if value is not None]
    as_json = sum(len(event_json.text(value).encode()) for value in stored)
    on_disk = sum(len(value) if isinstance(value, bytes) else len(value.encode())
                  for value in stored)
    assert any(isinstance(value, bytes) for value in stored)
    assert on_disk < as_json / 2, (on_disk, as_json)
    reopened = Session.open(db, None, tables)
    assert reopened.events_since(0) == every  # the data, and the texts rendered from the words
    reopened.close()


def test_a_file_whose_events_hold_json_text_reads_as_it_did(tmp_path: Path,
                                                            tables: Tables) -> None:
    """Rows written before this release (data and words as TEXT) read exactly as packed ones,
    and a command run after them is packed beside them."""
    db = tmp_path / "antes.db"
    every = _played(db, tables)
    with sqlite3.connect(db) as raw:
        for seq, data, words in raw.execute("SELECT seq, data, words FROM events").fetchall():
            raw.execute("UPDATE events SET data = ?, words = ? WHERE seq = ?",
                        (event_json.text(data), None if words is None else event_json.text(words),
                         seq))
    assert all(isinstance(value, str) for row in _columns(db) for value in row if value)
    reopened = Session.open(db, None, tables)
    assert reopened.events_since(0) == every
    assert reopened.run("rolar 1d20").ok
    reopened.close()
    assert any(isinstance(value, bytes) for row in _columns(db)[len(every):] for value in row)
