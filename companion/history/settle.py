"""A command run again that asks a prompt the stored log never had (DESIGN.md: campaign files
across releases). The log is the truth of what happened: the table went on without that prompt,
so the replay settles it there, as the log shows — the answer among the prompt's options (or
its cancelling) whose events say most of what the stored events of the command said — and the
prompts the command leaves waiting take the ids the log gave them, so the answers stored after
it name the same prompts. Nothing here is stored; the replay says which prompts it settled."""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from companion.engine import Command, Event, State, apply
from companion.engine.model import GM, Prompt
from companion.engine.prompting import prompt_name
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables

ANSWER = "responder"
CANCEL = "cancelar"
MOST_SETTLED = 8  # prompts one command may need settled (each answer may ask another)


@dataclass(frozen=True)
class Settled:
    """A command's state after its unlogged prompts were settled, the settling's own events,
    and what was settled: (prompt kind, the answer chosen; None when it was cancelled)."""

    state: State
    events: tuple[Event, ...]
    settled: tuple[tuple[str, str | None], ...]


def logged_prompts(kept: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The prompts a command's stored events asked (each `pedido` event's prompt)."""
    found = []
    for event in kept:
        data = event.get("data")
        if event.get("kind") == "pedido" and isinstance(data, dict) \
                and isinstance(data.get("pedido"), dict):
            found.append(data["pedido"])
    return found


def _key(kind: Any, character: Any) -> tuple[str, str | None]:
    return str(kind), None if character is None else str(character)


def _new_prompts(before: State, after: State) -> list[Prompt]:
    known = {p.id for p in before.prompts}
    return [p for p in after.prompts if p.id not in known]


def unlogged(before: State, after: State, kept: Sequence[Mapping[str, Any]]) -> list[Prompt]:
    """The prompts the command asked today that its stored events never asked (by kind and
    whose, in order)."""
    wanted = Counter(_key(p.get("tipo"), p.get("personagem")) for p in logged_prompts(kept))
    extra = []
    for prompt in _new_prompts(before, after):
        key = _key(prompt.kind, prompt.character)
        if wanted[key] > 0:
            wanted[key] -= 1
        else:
            extra.append(prompt)
    return extra


def _without_ids(value: Any) -> Any:
    """An event's data with prompt ids left out (they are numbered again in a replay)."""
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items()
                if k not in ("id", "pedido") or isinstance(v, dict)}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def _fact(kind: Any, data: Any) -> str:
    return json.dumps([kind, _without_ids(data)], ensure_ascii=False, sort_keys=True,
                      default=str)


def agreement(events: Sequence[Event], kept: Sequence[Mapping[str, Any]]) -> int:
    """How many of the stored events these events say again (kind and data, ids aside)."""
    stored = Counter(_fact(e.get("kind"), e.get("data")) for e in kept)
    said = 0
    for event in events:
        fact = _fact(event.kind, event.data)
        if stored[fact] > 0:
            stored[fact] -= 1
            said += 1
    return said


def settle(before: State, after: State, events: Sequence[Event],
           kept: Sequence[Mapping[str, Any]], dice: str, tables: Tables) -> Settled:
    """The state after a command run again with every prompt it asked that its stored events
    did not settled as the log shows (see the module docstring), and its prompts renumbered
    as the log numbered them."""
    state, said = after, list(events)
    settled: list[tuple[str, str | None]] = []
    for _ in range(MOST_SETTLED):
        extra = unlogged(before, state, kept)
        if not extra:
            break
        prompt = extra[0]
        tries = [Command(ANSWER, {"pedido": prompt.id, "opcao": option}, GM)
                 for option in prompt.options] + [Command(CANCEL, {"pedido": prompt.id}, GM)]
        best: tuple[int, State, list[Event], str | None] | None = None
        for attempt in tries:
            try:
                tried, more = apply(state, attempt, random.Random(f"{dice}:registro"), tables)
            except CommandRejected:
                continue
            score = agreement(said + list(more), kept)
            if best is None or score > best[0]:
                best = (score, tried, list(more), attempt.args.get("opcao"))
        if best is None:  # neither answered nor cancelled: it goes, as the log never had it
            state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
            settled.append((prompt.kind, None))
            continue
        _score, state, more, option = best
        said += more
        settled.append((prompt.kind, option))
    state = numbered_as_logged(before, state, kept)
    return Settled(state, tuple(said[len(events):]), tuple(settled))


def numbered_as_logged(before: State, after: State,
                       kept: Sequence[Mapping[str, Any]]) -> State:
    """The prompts the command left waiting with the ids its stored events gave them (matched
    by kind and whose, in order), the next id past them."""
    logged: dict[tuple[str, str | None], list[int]] = {}
    for shown in logged_prompts(kept):
        if isinstance(shown.get("id"), int):
            logged.setdefault(_key(shown.get("tipo"), shown.get("personagem")), []).append(
                shown["id"])
    renumbered = {}
    for prompt in _new_prompts(before, after):
        ids = logged.get(_key(prompt.kind, prompt.character))
        if ids:
            renumbered[prompt.id] = ids.pop(0)
    if not renumbered or all(k == v for k, v in renumbered.items()):
        return after
    prompts = tuple(replace(p, id=renumbered.get(p.id, p.id)) for p in after.prompts)
    # the next id as the log had it: past every id it gave so far, not past the settled ones
    highest = max([p.id for p in prompts] + [p.get("id", 0) for p in logged_prompts(kept)
                                             if isinstance(p.get("id"), int)], default=0)
    return replace(after, prompts=prompts, next_prompt_id=max(before.next_prompt_id,
                                                              highest + 1))


def prompt_kind_name(tables: Tables, kind: str) -> str:
    """How people call a prompt kind (tables/pedidos.yaml)."""
    return prompt_name(tables, kind)


def logged_weather(kept: Sequence[Mapping[str, Any]]) -> int | None:
    """The weather row the command's stored events said last (a `clima` line with its row;
    None: they said none)."""
    row = None
    for event in kept:
        data = event.get("data")
        if isinstance(data, dict) and "clima" in data and isinstance(data.get("linha"), int):
            row = data["linha"]
    return row


def as_logged(state: State, kept: Sequence[Mapping[str, Any]]) -> State:
    """The state after a command run again, with the facts its stored events state taken as
    the truth where today's run says otherwise: the weather the table was told (a rule fixed
    since may have rolled the weather once more before it; the table's weather goes on)."""
    row = logged_weather(kept)
    if row is None or state.travel.weather_row == row:
        return state
    return replace(state, travel=replace(state.travel, weather_row=row))
