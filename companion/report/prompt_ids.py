"""A player's prompt ids (DESIGN.md: numbering is per viewer): the prompts addressed to a player
are 1, 2, 3, … in the order the log asked them, undone ones included (a number is never given
twice). Pure functions over event dicts, used by the report (a player's report and exports) and
by the live server (companion.server.numbering)."""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from companion import protocol

EventDict = dict[str, Any]

# "pedido 7" in prose the log keeps (the text of a command; an event's text, rendered when the
# command ran): the one place an id is read from words, because nothing else carries it there.
PROMPT_IN_TEXT = re.compile(r"\b([Pp]edidos?) (\d+)\b")


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


def localize_event(event: EventDict, local: Mapping[int, int]) -> EventDict:
    """An event as a player reads it in the report: data and text in their prompt numbers
    (an undo's `texto`, the undone command's words, too)."""
    data = rewrite_data(event.get("data"), local)
    if isinstance(data, dict) and "desfeito" in data and isinstance(data.get("texto"), str):
        data = {**data, "texto": rewrite_text(data["texto"], local)}
    return {**event, "data": data, "text": rewrite_text(event.get("text"), local)}
