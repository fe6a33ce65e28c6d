"""How states are packed (companion/store/packing.py): packing 2 goes inside what changed, and
a file packed by the release before (packing 1: whole top-level fields, zlib) reads the same."""
from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

from companion.history import replay
from companion.session import Session
from companion.store import log as log_module
from companion.store.log import Log
from companion.store.packing import COMPRESS_FROM, MARK, PackedStates, delta, dumps, pack_delta
from companion.store.packing import patch, unpack
from companion.tables.files import Tables


def packing_1(value: Any) -> bytes:
    """A blob as the release before wrote every keyframe and delta."""
    return zlib.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(), 6)


BEFORE = {"minutes": 10, "tally": {"dice": {"d6": 3, "d20": 1}, "items": {}},
          "party": [{"id": "ana", "hp": 3, "conditions": []}, {"id": "bia", "hp": 2}],
          "secrets": ["a"], "flight_speeds": [1, 2], "chase": None}
AFTER = {"minutes": 10, "tally": {"dice": {"d6": 4, "d20": 1, "d8": 1}, "items": {}},
         "party": [{"id": "ana", "hp": 2, "conditions": ["x"]}, {"id": "bia", "hp": 2}],
         "secrets": ["a", "b"], "flight_speeds": [2, 2], "chase": {"pontos": 1}}


def test_a_delta_goes_inside_what_changed_and_patches_back() -> None:
    change = delta(BEFORE, AFTER)
    assert patch(BEFORE, change) == AFTER
    assert change["~"] == {"tally": {"~": {"dice": {"=": {"d6": 4, "d8": 1}}}}}
    assert change["*"]["party"] == {"0": {"=": {"hp": 2}, "+": {"conditions": ["x"]}}}
    assert change["*"]["flight_speeds"] == {"0": {"!": 2}}
    assert change["+"] == {"secrets": ["b"]} and change["="] == {"chase": {"pontos": 1}}
    assert delta(AFTER, AFTER) == {} and patch(AFTER, {}) == AFTER
    assert patch(AFTER, delta(AFTER, BEFORE)) == BEFORE


def test_states_packed_by_the_release_before_read_the_same() -> None:
    old_delta = {"=": {"tally": AFTER["tally"], "party": AFTER["party"],
                       "flight_speeds": AFTER["flight_speeds"], "chase": AFTER["chase"]},
                 "+": {"secrets": ["b"]}}
    rows = {1: (4, None, packing_1(BEFORE)), 2: (4, 1, packing_1(old_delta))}
    assert PackedStates(rows).value(2) == AFTER
    assert unpack(packing_1(BEFORE)) == BEFORE


def words(index: int) -> str:
    """A few words of its own for each note (zlib finds no long repeats in them)."""
    digest = "".join(chr(ord("a") + int(c, 16))
                     for c in hashlib.sha256(str(index).encode()).hexdigest())
    return " ".join(digest[at:at + 6] for at in range(0, 36, 6))


def test_a_campaign_stores_small_deltas_and_large_states_whole_less_often(
        tmp_path: Path, tables: Tables) -> None:
    """One character's hit points changing costs a few dozen bytes, not the whole party; with
    hundreds of secret notes the state is kept whole less often than every 64 commands; every
    state reads back as the table had it."""
    db = tmp_path / "c.db"
    session = Session.open(db, 9, tables)
    assert session.run("personagem Ana pv 12").ok and session.run("personagem Bia pv 9").ok
    states = []
    for index in range(400):
        text = "2 de dano na Ana" if index == 0 else f"segredo ouvir a porta {words(index)}"
        assert session.run(text).ok, text
        states.append((session.commands()[-1].n, session.state))
    session.close()
    log = Log.read(db)
    rows = log.states().rows
    hp = states[0][0]
    assert rows[hp][1] is not None and len(rows[hp][2]) < 80, rows[hp]
    keyframes = [n for n, row in rows.items() if row[1] is None]
    assert len(keyframes) < 400 // log_module.KEYFRAME_EVERY, keyframes
    assert max(b - a for a, b in zip(keyframes, keyframes[1:] + [max(rows)])) \
        <= log_module.KEYFRAME_MOST
    for n, state in states[::37] + states[-1:]:
        assert replay.read_state(log, n) == state
    log.close()


def test_a_short_delta_is_its_json_and_a_long_one_is_compressed_when_that_is_smaller() -> None:
    short = {"~": {"tally": {"~": {"dice": {"=": {"d6": 4}}}}}}
    assert len(dumps(short)) < COMPRESS_FROM
    assert pack_delta(short) == dumps(short)
    assert unpack(pack_delta(short)) == short
    long = {"+": {"secrets": ["a mesma nota secreta do mestre"] * 8}}
    packed = pack_delta(long)
    assert packed[:len(MARK)] == MARK and len(packed) < len(dumps(long))
    assert unpack(packed) == long
