"""A player's prompt ids (DESIGN.md: numbering is per viewer): the prompts addressed to a player
are 1, 2, 3, … in the order the log asked them, undone ones included (a number is never given
twice). Pure functions over event dicts, used by the report (a player's report and exports) and
by the live server (companion.server.numbering).

An event's text names prompts by their ids ("respondeu ao pedido 7"): for a player it is
rendered again from its narration (code and words, kept in the log) with the ids in the
player's numbers. Words are read for ids only in what a person typed (the command an undo
quotes) and in texts of a log written before events kept their narration."""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

from companion import protocol
from companion.store.log import Narration

EventDict = dict[str, Any]
Render = Callable[[str, Mapping[str, Any]], str]

# "pedido 7" in words: a command as a person typed it, or an old log's text.
PROMPT_IN_TEXT = re.compile(r"\b([Pp]edidos?) (\d+)\b")

# The narration params (tables/narracao/) that name a prompt by its id, those that list prompts
# (each with an `id`) and those that list bare ids.
PROMPT_ID_PARAMS = ("pedido", "primeiro", "ultimo")
PROMPT_LIST_PARAMS = ("pendentes", "esperando")
PROMPT_IDS_PARAMS = ("substituidos",)


def as_id(value: Any) -> int | None:
    """A prompt id as the engine said it (an int, or the digits the GM typed)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    return None


def param_ids(params: Mapping[str, Any]) -> set[int]:
    """Every prompt id narration params name."""
    said = [as_id(params.get(key)) for key in PROMPT_ID_PARAMS]
    said += [as_id(p.get("id")) for key in PROMPT_LIST_PARAMS
             for p in params.get(key) or [] if isinstance(p, Mapping)]
    said += [as_id(i) for key in PROMPT_IDS_PARAMS
             for i in (params.get(key) if isinstance(params.get(key), list) else [])]
    return {i for i in said if i is not None}


def carries_prompt_ids(params: Mapping[str, Any]) -> bool:
    """Whether narration params name or list prompts by id."""
    return any(key in params for key in PROMPT_ID_PARAMS + PROMPT_LIST_PARAMS
               + PROMPT_IDS_PARAMS)


def localize_params(params: Mapping[str, Any], local: Mapping[int, int]) -> dict[str, Any]:
    """Narration params as the viewer of `local` may read them: every prompt id in the viewer's
    numbers (another's prompt: None), the lists of prompts cut to the viewer's own."""
    def mine(value: Any) -> int | None:
        found = as_id(value)
        return local.get(found) if found is not None else None
    out = dict(params)
    for key in PROMPT_ID_PARAMS:
        if key in params:
            out[key] = mine(params[key])
    for key in PROMPT_LIST_PARAMS:
        if isinstance(params.get(key), list):
            out[key] = [{**p, "id": mine(p.get("id"))} for p in params[key]
                        if isinstance(p, Mapping) and mine(p.get("id")) is not None]
    for key in PROMPT_IDS_PARAMS:
        if isinstance(params.get(key), list):
            out[key] = [mine(i) for i in params[key] if mine(i) is not None]
    return out


def narrated_again(event: Mapping[str, Any], narration: Narration | None,
                   local: Mapping[int, int], render: Render) -> str | None:
    """The event's text rendered again for the viewer of `local`, when it names prompts and
    the log kept how it was rendered; None otherwise (the text stands as it is)."""
    data = event.get("data")
    if narration is None or not isinstance(data, dict):
        return None
    params = {**data, **narration.words}
    undo = "desfeito" in params and isinstance(params.get("texto"), str)
    if not carries_prompt_ids(params) and not undo:
        return None
    localized = localize_params(params, local)
    if undo:
        localized["texto"] = rewrite_text(params["texto"], local)
    return render(narration.code, localized)


def asked_prompt(event: Mapping[str, Any]) -> tuple[str, int] | None:
    """(the player viewer, the engine's id) of a `pedido` event addressed to a player."""
    if event.get("kind") != "pedido" or not protocol.is_player(event.get("visibility", "")):
        return None
    pedido = (event.get("data") or {}).get("pedido")
    if isinstance(pedido, dict) and isinstance(pedido.get("id"), int):
        return event["visibility"], pedido["id"]
    return None


def numbers_for(events: Iterable[Mapping[str, Any]], viewer: str) -> dict[int, int]:
    """The engine's id → the viewer's number, for every prompt of these events addressed to it."""
    local: dict[int, int] = {}
    for event in events:
        asked = asked_prompt(event)
        if asked is not None and asked[0] == viewer and asked[1] not in local:
            local[asked[1]] = len(local) + 1
    return local


def prompt_ids(data: Any) -> list[int]:
    """The prompt ids a data dict carries: `pedido` (an id or a prompt), `pedidos` (prompts),
    `estado` (a view with `pedidos`)."""
    found: list[int] = []
    pedido = data.get("pedido")
    if isinstance(pedido, bool):
        pass
    elif isinstance(pedido, int):
        found.append(pedido)
    elif isinstance(pedido, dict) and isinstance(pedido.get("id"), int):
        found.append(pedido["id"])
    for prompt in data.get("pedidos") or []:
        if isinstance(prompt, dict) and isinstance(prompt.get("id"), int):
            found.append(prompt["id"])
    if isinstance(data.get("estado"), dict):
        found += prompt_ids(data["estado"])
    return found


def rewrite_data(data: Any, local: Mapping[int, int]) -> Any:
    """An event's data (or a view) with its prompt ids in the viewer's numbers."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    pedido = data.get("pedido")
    if isinstance(pedido, int) and not isinstance(pedido, bool):
        out["pedido"] = local.get(pedido)
    elif isinstance(pedido, dict) and isinstance(pedido.get("id"), int):
        out["pedido"] = {**pedido, "id": local.get(pedido["id"])}
    if isinstance(data.get("pedidos"), list):
        out["pedidos"] = [{**p, "id": local.get(p["id"])} if isinstance(p, dict)
                          and isinstance(p.get("id"), int) else p for p in data["pedidos"]]
    if isinstance(data.get("estado"), dict):
        out["estado"] = rewrite_data(data["estado"], local)
    return out


def ids_in_text(text: str) -> set[int]:
    return {int(m.group(2)) for m in PROMPT_IN_TEXT.finditer(text)}


def rewrite_text(text: Any, local: Mapping[int, int]) -> Any:
    """'… respondeu ao pedido 7' → '… respondeu ao pedido 2' for the viewer's own prompts;
    another's prompt (quoted in a public undo: "Desfeito: 'responder pedido 7 rolar'") becomes
    'um pedido', so no number of the log's count reaches the player."""
    if not isinstance(text, str) or "edido" not in text:
        return text

    def swap(match: re.Match[str]) -> str:
        number = local.get(int(match.group(2)))
        if number is not None:
            return f"{match.group(1)} {number}"
        return "Um pedido" if match.group(1)[0] == "P" else "um pedido"
    return PROMPT_IN_TEXT.sub(swap, text)


def localize_text(event: Mapping[str, Any], local: Mapping[int, int],
                  narration: Narration | None = None, render: Render | None = None) -> Any:
    """An event's text in the prompt numbers of `local`'s viewer: rendered again from its
    narration when the log kept it, else (an old log) its "pedido N" rewritten."""
    again = narrated_again(event, narration, local, render) if render is not None else None
    return again if again is not None else rewrite_text(event.get("text"), local)


def localize_event(event: EventDict, local: Mapping[int, int],
                   narration: Narration | None = None, render: Render | None = None
                   ) -> EventDict:
    """An event as a player reads it in the report: data and text in their prompt numbers
    (an undo's `texto`, the undone command's words, too)."""
    data = rewrite_data(event.get("data"), local)
    if isinstance(data, dict) and "desfeito" in data and isinstance(data.get("texto"), str):
        data = {**data, "texto": rewrite_text(data["texto"], local)}
    return {**event, "data": data, "text": localize_text(event, local, narration, render)}
