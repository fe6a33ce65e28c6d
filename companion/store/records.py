"""What the log stores and gives back: the rows' shapes (the meta row, a command, an event
about to be stored, how an event's text was rendered, the newest state) and the JSON they are
kept as (companion.store.log)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import msgspec

from companion.tables.files import program_narration

DERIVED = ""  # an event's stored text when its code renders it again (NewEvent.derived)
@dataclass(frozen=True)
class Meta:
    """The session's identity: what every command's RNG derives from (the campaign's secret,
    or a seed: companion.history.dice_keys), and the GM token."""

    seed: str
    gm_token: str
    created: str
    secret: str | None = None  # None: a campaign from before secrets (its small seed)


@dataclass(frozen=True)
class Last:
    """The newest stored state, as the next one is packed against it: its command, format,
    keyframe, value (a JSON object), and the bytes of its keyframe and of the deltas since."""

    n: int
    format: int
    keyframe: int
    value: dict[str, Any]
    keyframe_bytes: int
    deltas: int


@dataclass(frozen=True)
class StoredCommand:
    """One accepted command as logged."""

    n: int
    text: str
    name: str
    args: Mapping[str, Any]
    actor: str
    undone: bool
    at: str
    dice: str | None = None  # what the command's RNG was derived from (None: not yet migrated)
    rules: int | None = None  # the rules version it ran under (Log.rules_text)


@dataclass(frozen=True)
class NewEvent:
    """An event about to be stored (the log gives it its seq)."""

    kind: str
    visibility: str
    text: str
    data: Mapping[str, Any]
    code: str | None = None  # the narration code `text` was rendered from (tables/narracao)
    words: Mapping[str, Any] = field(default_factory=dict)  # the values only the text used
    derived: bool = False  # its code renders `text` again: stored without it (DERIVED)


@dataclass(frozen=True)
class Narration:
    """How a stored event's text was rendered: its code and the words beside its data, so the
    text can be rendered again for one viewer (a player's own prompt numbers)."""

    code: str
    words: Mapping[str, Any]


def dumps(value: Any) -> str:
    """JSON as stored: UTF-8 text, keys in the order given."""
    return json.dumps(value, ensure_ascii=False)


def loads_stored(text: str) -> Any:
    """Stored JSON read back (msgspec: a whole campaign's events read for the report several
    times faster than json.loads; the same values)."""
    return msgspec.json.decode(text)


def compact(value: Any) -> str:
    """An event's data as stored: JSON, UTF-8, keys in the order given, no spaces."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def words_json(words: Mapping[str, Any]) -> str:
    """The words as stored: JSON, with anything JSON cannot say as its text (the words are
    only read back to render the text again, never as data)."""
    return json.dumps(words, ensure_ascii=False, default=str, separators=(",", ":"))


def as_read_back(data: Any, words: Mapping[str, Any]) -> tuple[Any, Any]:
    """An event's data and words as the log gives them back once stored (JSON both ways)."""
    return json.loads(compact(data)), json.loads(words_json(words))


def program_texts(code: str, params: Mapping[str, Any]) -> str:
    """A text rendered by the program's own tables/narracao/ (or $COMPANION_TABLES')."""
    return program_narration().render(code, params)



def command_of(row: Sequence[Any]) -> StoredCommand:
    n, text, name, args, actor, undone, at, dice, rules = row
    return StoredCommand(n, text, name, json.loads(args), actor, bool(undone), at, dice, rules)


COMMAND_COLUMNS = "n, text, name, args, actor, undone, at, dice, rules"



def event_dict(seq: int, command: str, kind: str, visibility: str, text: str,
               data: Any) -> dict[str, Any]:
    """The one shape of an event outside the engine (docs/design.md contract)."""
    return {"seq": seq, "command": command, "kind": kind, "visibility": visibility,
            "text": text, "data": data}
