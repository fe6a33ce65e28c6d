"""Unpredictable dice, undo still exact (issue 25, item 1).

A campaign without --seed keeps a 128-bit secret; each command's dice come from
HMAC-SHA256(secret, place). The attack of the issue — a phone brute-forcing the small seed from
the public rolls — runs here for real against a server on loopback. `--seed N` stays predictable
on purpose (tests, golden files); an old campaign's small seed gives way to a secret for the
commands from then on, told to the GM, the past kept as it was.
"""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.history import dice_keys, replay
from companion.server.app import start_in_thread
from companion.session import Session, SessionError
from companion.tables.files import Tables
from tests.socket_helpers import Peer

CANDIDATES = 1_000_000  # the old seeds: secrets.randbelow(1_000_000)
FACES = 8  # one roll of 8d20: a chance match is 20**-8


def faces_of(events: list[dict[str, Any]]) -> list[int]:
    """The d20 faces of the roll among these events."""
    roll = next(e for e in events if e["kind"] == "rolagem")
    return [face for kind, values in roll["data"]["faces"] for face in values if kind == "d20"]


def small_seeds_matching(rolls: dict[str, list[int]], place: int) -> dict[str, list[int]]:
    """For each roll, every seed below CANDIDATES whose key `seed:place` rolls its d20 faces
    (as the dice library rolls them: one randint(1, 20) per die). One pass for all."""
    rng = random.Random()
    seed, randint = rng.seed, rng.randint
    found: dict[str, list[int]] = {name: [] for name in rolls}
    firsts = {faces[0] for faces in rolls.values()}
    for candidate in range(CANDIDATES):
        seed(f"{candidate}:{place}")
        first = randint(1, 20)
        if first not in firsts:
            continue
        rest = [randint(1, 20) for _ in range(FACES - 1)]
        for name, faces in rolls.items():
            if faces == [first, *rest]:
                found[name].append(candidate)
    return found


def test_a_phone_cannot_find_the_seed_from_its_own_roll(tmp_path: Path, tables: Tables) -> None:
    """The issue's attack: a player rolls, then tries every small seed at the roll's very
    place (the attacker is even told the place). Nothing in 10⁶ candidates rolls the same."""
    session = Session.open(tmp_path / "mesa.db", None, tables)
    server = start_in_thread(session)
    try:
        eva = Peer(server.url, {"nome": "Eva"})
        eva.welcome()
        ack = eva.cmd(f"rolar {FACES}d20")
        assert ack["ok"], ack
        faces = faces_of(ack["events"])
        assert len(faces) == FACES
        key = session.commands()[-1].dice
        place = int(key.rsplit(":", 1)[-1])
        eva.close()
    finally:
        server.stop()
        session.close()
    # the search is real: the same pass finds a small seed that rolled its faces
    found = small_seeds_matching({"eva": faces, "semente": _faces_for(123_456, place)}, place)
    assert found == {"eva": [], "semente": [123_456]}


def _faces_for(seed: int, place: int) -> list[int]:
    rng = random.Random(f"{seed}:{place}")
    return [rng.randint(1, 20) for _ in range(FACES)]


# ---------------------------------------------------------------------------- the derivation

def test_a_seed_key_is_as_before_and_a_secret_key_is_keyed() -> None:
    assert dice_keys.dice_key("7", dice_keys.ON_PURPOSE, 3) == "7:3"
    assert dice_keys.dice_key("4242", None, 51) == "4242:51"
    secret = dice_keys.new_secret()
    key = dice_keys.dice_key("", secret, 3)
    digest, place = key.split(":")
    assert place == "3" and len(digest) == 64 and "7" != key
    assert dice_keys.dice_key("", secret, 3) == key  # the same place, the same dice
    assert dice_keys.dice_key("", secret, 4) != key
    assert dice_keys.dice_key("", dice_keys.new_secret(), 3) != key


def test_without_a_seed_undo_and_again_roll_the_same_dice(tmp_path: Path,
                                                          tables: Tables) -> None:
    session = Session.open(tmp_path / "c.db", None, tables)
    first = session.run("rolar 6d20")
    assert first.ok and not session.seeded
    assert session.run("desfazer").ok
    again = session.run("rolar 6d20")
    assert faces_of(again.events) == faces_of(first.events)
    stored = [c.dice for c in session.commands() if c.name == "rolar"]
    assert stored[0] == stored[1] and len(stored[0].split(":")[0]) == 64
    session.run("desfazer")
    assert session.dice_key("rolar") == stored[0]
    session.close()
    other = Session.open(tmp_path / "d.db", None, tables)  # another campaign, other dice
    assert other.dice_key("rolar") != stored[0]
    other.close()


def test_a_seed_given_on_purpose_stays_a_seed(tmp_path: Path, tables: Tables) -> None:
    Session.open(tmp_path / "c.db", 5, tables).close()
    reopened = Session.open(tmp_path / "c.db", None, tables)
    assert reopened.seeded and reopened.opening == []
    assert reopened.dice_key("rolar").startswith("5:")
    reopened.close()


def test_a_secret_campaign_refuses_a_seed_without_showing_its_secret(tmp_path: Path,
                                                                     tables: Tables) -> None:
    Session.open(tmp_path / "c.db", None, tables).close()
    (secret,) = sqlite3.connect(tmp_path / "c.db").execute("SELECT secret FROM meta").fetchone()
    with pytest.raises(SessionError, match="dados secretos") as refused:
        Session.open(tmp_path / "c.db", 7, tables)
    assert secret not in str(refused.value)


def test_an_old_small_seed_gives_way_to_a_secret_and_keeps_the_past(tmp_path: Path,
                                                                    tables: Tables) -> None:
    db = tmp_path / "antiga.db"
    old = Session.open(db, 123_456, tables)
    for text in ("rolar 4d20", "rolar 4d20"):
        assert old.run(text).ok
    before = {c.n: c.dice for c in old.commands()}
    second = faces_of(old.events_of(max(before)))
    old.close()
    with sqlite3.connect(db) as raw:  # as written before campaigns kept a secret
        raw.execute("UPDATE meta SET secret = NULL")
    raw.close()

    opened = Session.open(db, None, tables)
    (told,) = opened.opening
    assert told["visibility"] == "gm" and told["command"] == replay.HISTORY_NOTICE
    assert "chave secreta nova" in told["text"]
    assert not opened.seeded
    assert {c.n: c.dice for c in opened.commands() if c.n in before} == before
    new = opened.run("rolar 4d20")
    assert new.ok and len(opened.commands()[-1].dice.split(":")[0]) == 64
    assert opened.run("desfazer").ok and opened.run("desfazer").ok  # back past the secret
    again = opened.run("rolar 4d20")  # a place played on the seed keeps its dice
    assert faces_of(again.events) == second
    assert opened.commands()[-1].dice == before[max(before)]
    opened.close()

    reopened = Session.open(db, None, tables)  # told once, the same secret kept
    assert reopened.opening == [] and not reopened.seeded
    reopened.close()
