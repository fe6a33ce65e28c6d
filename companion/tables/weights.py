"""How much an event weighs as news: what a person sees and hears first after a command.

The procedure that emits an event declares its weight where it decides the rule (the engine's
Scratch.tell/say/roll/chance, `weight=`); an event it does not weigh gets its kind's default
(`default_weight`). The weight travels in the event's data as `peso` (docs/socketio.md), so the
server, `shell --json` and the stored log all carry it. An event stored before weights existed
is weighed when read by its narration code (tables/pesos.yaml `por_codigo`) or, failing that,
by the same kind default (`weight_of`).

Heaviest first: an arrival (an encounter, monsters) · harm to a character (PV, exhaustion,
sanity, a condition or affliction, a rest whose benefits were lost, supplies gone) · darkness or
a light out · a result table's row · a prompt raised · routine (clock, movement, bookkeeping) ·
framing narration (hints, help, state dumps).
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any, Mapping

from companion.tables.files import Tables
from companion.tables.narration import Narrator

KEY = "peso"  # the data key an event's weight travels in
FILE = "pesos"


class Weight(IntEnum):
    """An event's weight as news; a greater value is shown (and said) first."""

    FRAMING = 0  # framing narration: a hint, a help text, a state dump, a sheet
    ROUTINE = 1  # the clock, movement, bookkeeping, a check that missed
    PROMPT = 2  # a prompt raised (a test asked of someone, a question to the GM)
    ROW = 3  # a result table's row
    DARKNESS = 4  # darkness, a light gone out
    HARM = 5  # harm to a character
    ARRIVAL = 6  # an arrival: an encounter, monsters


def template_params(narration: Narrator, code: str, data: Mapping[str, Any],
                    words: Mapping[str, Any]) -> dict[str, Any]:
    """What an event's template is rendered with: its data and its words — without the weight
    the session put beside the engine's data, unless the template names it (no template does:
    the text is the same either way). Without it, the values the engine said the text with
    usually come back alike from the log, and their text is the one Narrator.render
    remembers."""
    if KEY in data and not narration.may_read(code, KEY):
        return {**{key: value for key, value in data.items() if key != KEY}, **words}
    return {**data, **words}


BY_NAME = {weight.name.lower(): weight for weight in Weight}
NOT_NEWS = frozenset({"ajuda", "estado"})  # kinds that are answers to a question, never news


def default_weight(kind: str, data: Mapping[str, Any]) -> Weight:
    """An event's weight when its procedure does not declare one: a prompt raised weighs as a
    prompt, a help text or a state dump as framing, a roll that gives a table's row (not an
    X-in-6 check, whose news is what it makes happen) as a row, anything else as routine."""
    if kind == "pedido":
        return Weight.PROMPT
    if kind in NOT_NEWS:
        return Weight.FRAMING
    if kind == "rolagem" and isinstance(data.get("resultado"), str) and "chance" not in data:
        return Weight.ROW
    return Weight.ROUTINE


def stored_weights(tables: Tables) -> Mapping[str, Weight]:
    """tables/pesos.yaml `por_codigo`: the weight of an event stored before weights, by its
    narration code (cached with the tables' pieces)."""
    return tables.derived(_read_stored)


def _read_stored(tables: Tables) -> Mapping[str, Weight]:
    raw = tables.get(FILE, "por_codigo") or {}
    return {str(code): BY_NAME[str(name)] for code, name in raw.items()}


def weight_of(event: Mapping[str, Any], code: str | None = None,
              tables: Tables | None = None) -> Weight:
    """The weight of a wire or stored event: the `peso` its procedure gave it, or, for an event
    stored before weights, its code's in tables/pesos.yaml, or its kind's default."""
    data = event.get("data")
    data = data if isinstance(data, Mapping) else {}
    given = data.get(KEY)
    if isinstance(given, int) and not isinstance(given, bool) and \
            min(Weight) <= given <= max(Weight):
        return Weight(given)
    code = code if code is not None else event.get("code")
    if tables is not None and code and code in stored_weights(tables):
        return stored_weights(tables)[code]
    return default_weight(str(event.get("kind") or ""), data)
