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
    # its data and words already encoded (records.encoded: the session's commit, which read
    # them back to decide `derived`); None: the log encodes them
    encoded: Encoded | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Narration:
    """How a stored event's text was rendered: its code and the words beside its data, so the
    text can be rendered again for one viewer (a player's own prompt numbers)."""

    code: str
    words: Mapping[str, Any]


def dumps(value: Any) -> str:
    """JSON as stored: UTF-8 text, keys in the order given."""
    return _TEXT.encode(value)


def loads_stored(text: str) -> Any:
    """Stored JSON read back (msgspec: a whole campaign's events read for the report several
    times faster than json.loads; the same values)."""
    return msgspec.json.decode(text)


# one encoder each, made once: json.dumps with options builds a new encoder on every call
# (the same bytes as json.dumps with these options)
_TEXT = json.JSONEncoder(ensure_ascii=False)
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_WORDS = json.JSONEncoder(ensure_ascii=False, default=str, separators=(",", ":"))


def compact(value: Any) -> str:
    """An event's data as stored: JSON, UTF-8, keys in the order given, no spaces."""
    return _COMPACT.encode(value)


def words_json(words: Mapping[str, Any]) -> str:
    """The words as stored: JSON, with anything JSON cannot say as its text (the words are
    only read back to render the text again, never as data)."""
    return "{}" if type(words) is dict and not words else _WORDS.encode(words)


def read_back(text: str) -> Any:
    """JSON just written, as the log gives it back (msgspec; json.loads for what msgspec
    does not read, such as NaN or an integer wider than 64 bits: the same values)."""
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return json.loads(text)


@dataclass(frozen=True)
class Encoded:
    """An event's data and words as the log stores them (compact JSON), and its data and
    words as the log gives them back: encoded and read back once per event."""

    data_json: str
    words_json: str
    data: Any
    words: Any


def encoded(event: NewEvent) -> Encoded:
    """An event's data and words as stored and as read back."""
    data_text, words_text = compact(event.data), words_json(event.words)
    return Encoded(data_text, words_text, read_back(data_text), read_back(words_text))


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
