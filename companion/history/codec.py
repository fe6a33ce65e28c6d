"""The engine's state as stored in the log: versioned JSON, read back as the same `State`.

`encode` writes a `State` as JSON (msgspec: frozen dataclasses, tuples, literals and maps
become plain JSON; key order is the dataclasses' field order). `decode` reads it back, checked
against the dataclasses; a state written in an older `FORMAT` is brought up to this one first
(`MIGRATIONS`), one newer than this release knows is refused. The session keeps its live state
as `normalized(state)`, the state exactly as it comes back from the log, so a state read after
reopening equals the one the table had (a tuple inside a free map comes back as a list, for
example, on both sides).
"""
from __future__ import annotations

import dataclasses
import typing
from typing import Any, Callable, Mapping

import msgspec

from companion.tables import protocol
from companion.engine import State
from companion.tables.errors import CompanionError

FORMAT = 5  # the format `encode` writes; raise it (and add a migration) when State changes shape


def _afflictions_seen_by_their_player(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 1 → 2: an affliction was a bare name; it now keeps who sees it. An old one gets
    the house default (tables/panico.yaml `visibilidade.aflicao: jogador`): its player and the
    GM only, so an upgrade never exposes one."""
    for character in raw.get("party", []):
        owner = protocol.player_key(str(character.get("id", "")))
        character["afflictions"] = [{"name": name, "visibility": owner}
                                    for name in character.get("afflictions", [])]
    return raw


def _new_fields_take_their_defaults(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 2 → 3: a prompt may be the whole party's (`party`) and the travel keeps the
    region the GM named (`region`, `day_start_region`). A format 2 state had neither: its
    prompts are one character's and its party is in its terrain's default region, which is
    what the missing fields read as. A release that knows only format 2 refuses a format 3
    state instead of dropping those fields."""
    return raw


def _no_round_waited(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 3 → 4: the travel round says whether its advance waited for who rests off a
    forced march (`advance_waited`). A format 3 state's open round with nobody acted was such
    a round (a chase or a dungeon never left a round open then), so it reads as waited. A
    lasting condition may now count combat rounds and keep who sees it (`rounds`,
    `visibility`): a format 3 one had neither (travel rounds, public), the defaults; nor had
    it the speeds of a failed flight (`flight_speeds`, None)."""
    travel = raw.get("travel", {})
    travel["advance_waited"] = bool(travel.get("round_open")) and not travel.get("acted") \
        and not travel.get("pending_advance")
    return raw


PANIC_ATTRIBUTE = "sab"  # the only attribute a shipped rule damages by panic (Tabela J 8-10)


def _panic_facts_keep_who_sees_them(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 4 → 5: a character's conditions and attribute damage keep who sees them
    (`condition_visibility`, `private_damage`; docs/regras.md "Pânico": one visibility per fact).
    A format 4 state had neither. Its Wisdom damage came from a panic effect (no other rule
    deals it), private by the house default: it becomes its player's and the GM's, so an
    upgrade never exposes it; its conditions stay public (which of them a panic left cannot
    be told without the rules of that time)."""
    for character in raw.get("party", []):
        damage = character.get("attribute_damage") or {}
        wisdom = int(damage.get(PANIC_ATTRIBUTE, 0) or 0)
        character["private_damage"] = {PANIC_ATTRIBUTE: wisdom} if wisdom > 0 else {}
        character["condition_visibility"] = {}
    return raw


# format → the function that turns a decoded JSON object of that format into the next format's
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _afflictions_seen_by_their_player,
    2: _new_fields_take_their_defaults,
    3: _no_round_waited,
    4: _panic_facts_keep_who_sees_them,
}

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(State)


class StateUnreadable(CompanionError):
    """A stored state that cannot be read back as a State (damaged, or from a newer release).
    Its message is for the developer: the table is told by whoever catches it (the replay
    rebuilds the state, the report says the campaign must be reopened)."""


def encode(state: State) -> bytes:
    """The state as stored (JSON, UTF-8)."""
    return _encoder.encode(state)


def decode(blob: bytes, format: int = FORMAT) -> State:
    """The state stored as `blob` in `format`; StateUnreadable when it cannot be read."""
    if format > FORMAT:
        raise StateUnreadable(f"state stored in format {format}, newer than this "
                              f"release's ({FORMAT})")
    try:
        if format == FORMAT:
            return _decoder.decode(blob)
        raw = msgspec.json.decode(blob)
        for step in range(format, FORMAT):
            raw = MIGRATIONS[step](raw)
        return msgspec.convert(raw, State)
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError,
            ValueError) as error:
        raise StateUnreadable(f"unreadable state ({error})") from None


def decode_value(raw: dict[str, Any], format: int = FORMAT) -> State:
    """The state stored in `format`, already read as a JSON object (PackedStates.value: the
    report reads thousands), converted without writing it out as JSON and reading it again;
    StateUnreadable when it cannot be read. `raw` is not changed."""
    if format != FORMAT:
        return decode(_encoder.encode(raw), format)  # a migration may change what it reads
    try:
        return msgspec.convert(raw, State, str_keys=True)
    except (msgspec.ValidationError, TypeError, ValueError) as error:
        raise StateUnreadable(f"unreadable state ({error})") from None


_FIELDS = tuple(f.name for f in dataclasses.fields(State))
_FIELD_DECODERS = {name: msgspec.json.Decoder(kind)
                   for name, kind in typing.get_type_hints(State).items() if name in _FIELDS}


def changes(before: State, after: State) -> dict[str, bytes]:
    """The JSON of each field of `after` that is not `before`'s own object, in field order (a
    command changes a few fields and keeps the others' objects: those encode as before's)."""
    return {name: _encoder.encode(getattr(after, name)) for name in _FIELDS
            if getattr(after, name) is not getattr(before, name)}


def read_back(before: State, changed: Mapping[str, bytes], whole: Callable[[], bytes]
              ) -> State:
    """A state as it reads back from the log, given `before`, a state already as read back,
    and `changed` (`changes(before, after)`): `before` with the changed fields read back from
    their own JSON, with the type the whole state's decoder gives them; equal to
    `decode(whole())`, at the cost of what changed (`whole` is read when most of it did)."""
    if not changed:
        return before
    if len(changed) * 2 > len(_FIELDS):
        return decode(whole())
    return dataclasses.replace(before, **{name: _FIELD_DECODERS[name].decode(raw)
                                          for name, raw in changed.items()})


def normalized(state: State) -> State:
    """The state as it will read back from the log."""
    return _decoder.decode(_encoder.encode(state))
