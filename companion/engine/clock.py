"""The session clock: what passing time does, whichever procedure spends it.

`pass_time` is the one way the engine moves `State.minutes`. Travel rounds, dungeon turns, the
dungeon sleep and chase turns all call it, so time has the same effects everywhere:

- time that is not an advance round breaks the run of consecutive advances (Tabela B);
- inside a dungeon, the lights and spells burn one turn per `masmorra.yaml turno_minutos`
  minutes (whole turns: `minutes // turno_minutos`), saying what went out;
- every midnight crossed ends a day (hexcrawl's `end_of_day`: the day without rest, Tabela I,
  the new day's region), with the clock at that midnight;
- every travel round ended (each 4 h of the clock), the conditions that hurt per round deal
  their damage (conditions.round_harm: Tabela F row 7's ticks);
- a character's lasting conditions (`Character.lasting`, e.g. Tabela H 7's DESV for two rounds)
  end when the clock reaches their `until` minute, saying so.

The procedure modules are imported when time passes, not at import time: they import this one.
"""
from __future__ import annotations

from dataclasses import replace

from companion.engine import conditions
from companion.engine.core import Scratch
from companion.engine.model import State

MINUTES_PER_DAY = 24 * 60


def day_of(state: State) -> int:
    """The day of the session, from 1."""
    return state.minutes // MINUTES_PER_DAY + 1


def pass_time(state: State, scratch: Scratch, minutes: int, *, advancing: bool = False) -> State:
    """Move the clock `minutes` forward. `advancing`: this time is an Avançar round."""
    if not advancing:
        state = replace(state, travel=replace(state.travel, consecutive_advances=0))
    if minutes > 0 and (state.travel.acted or state.travel.round_open):  # the round is over
        state = replace(state, travel=replace(state.travel, acted=(), round_open=False,
                                              round_encounter=False, pending_advance=False))
    if state.dungeon.active:
        state = _burn_dungeon_timers(state, scratch, minutes)
    start = state.minutes
    state = _cross_midnights(state, scratch, state.minutes + minutes)
    length = int(scratch.table("viagem", "rodada", "minutos"))
    state = conditions.round_harm(state, scratch, state.minutes // length - start // length)
    return expire_lasting(state, scratch)


def expire_lasting(state: State, scratch: Scratch) -> State:
    """Drop the lasting conditions whose time is over, one line per condition."""
    ended: dict[str, list[str]] = {}
    party = []
    for character in state.party:
        over = [c for c in character.lasting if c.until <= state.minutes]
        for condition in over:
            ended.setdefault(condition.text, []).append(character.name)
        party.append(replace(character, lasting=tuple(
            c for c in character.lasting if c.until > state.minutes)) if over else character)
    for text, names in ended.items():
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]
        scratch.say(f"Acabou: {text} ({who}).", condicao=text, fim=True)
    return replace(state, party=tuple(party)) if ended else state


def _burn_dungeon_timers(state: State, scratch: Scratch, minutes: int) -> State:
    from companion.engine import dungeon

    turns = minutes // int(scratch.table("masmorra", "turno_minutos"))
    return dungeon.tick_timers(state, scratch, turns) if turns > 0 else state


def _cross_midnights(state: State, scratch: Scratch, end: int) -> State:
    """Step to each midnight before `end`, ending that day there; then stop at `end`."""
    from companion.engine import hexcrawl

    while day_of(state) * MINUTES_PER_DAY <= end:
        ending = day_of(state)
        state = replace(state, minutes=ending * MINUTES_PER_DAY)
        state = hexcrawl.end_of_day(state, scratch, ending)
    return replace(state, minutes=end)


__all__ = ["MINUTES_PER_DAY", "day_of", "pass_time"]
