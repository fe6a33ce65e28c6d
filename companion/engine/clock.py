"""The session clock: what passing time does, whichever procedure spends it.

`pass_time` is the one way the engine moves `State.minutes`. Travel rounds, dungeon turns, the
dungeon sleep and chase turns all call it, so time has the same effects everywhere, always in
this order:

1. time that is not an advance round breaks the run of consecutive advances (Tabela B), and a
   travel round in progress is over;
2. inside a dungeon, the `dungeon_turns` hooks: one call with the whole turns that passed
   (`minutes // masmorra.yaml turno_minutos`, when at least one) — light.tick_timers burns the
   lights and spells, saying what went out;
3. every midnight crossed, with the clock at that midnight, the `day_ended` hooks with the day
   that ended — travel.end_of_day (the day without rest, Tabela I, the new day's region);
4. the `rounds_ended` hooks with how many travel rounds ended (each 4 h of the clock, possibly
   0) — conditions.round_harm (Tabela F row 7's ticks), travel.warn_last_round (the day's last
   round began without a rest that day);
5. a character's lasting conditions (`Character.lasting`, e.g. Tabela H 7's DESV for two rounds)
   end when the clock reaches their `until` minute, saying so (this module's own).

The clock imports no procedure: companion.engine.registry registers the hooks, once, in the
order above (several hooks of one kind run in the order they were registered).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from companion.engine.model import State
from companion.engine.scratch import Scratch

MINUTES_PER_HOUR = 60
MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR

# (state, scratch, how many: dungeon turns, the day that ended, travel rounds) -> state
Hook = Callable[[State, Scratch, int], State]

# How many minutes one unit of the clock lasts, read from the rules' typed piece that holds it
Length = Callable[[Scratch], int]


def _unmeasured(scratch: Scratch) -> int:
    raise RuntimeError("clock units not set: companion.engine.registry calls clock.measure")


@dataclass
class ClockHooks:
    """What reacts to time passing, and how long a travel round and a dungeon turn last;
    filled by companion.engine.registry."""

    dungeon_turns: list[Hook] = field(default_factory=list)
    day_ended: list[Hook] = field(default_factory=list)
    rounds_ended: list[Hook] = field(default_factory=list)
    round_minutes: Length = _unmeasured
    turn_minutes: Length = _unmeasured


HOOKS = ClockHooks()


def measure(round_minutes: Length, turn_minutes: Length) -> None:
    """Say how long a travel round (viagem.yaml `rodada.minutos`) and a dungeon turn
    (masmorra.yaml `turno_minutos`) last: each reads its procedure's typed piece."""
    HOOKS.round_minutes = round_minutes
    HOOKS.turn_minutes = turn_minutes


def on_dungeon_turns(hook: Hook) -> Hook:
    """Call hook(state, scratch, turns) when whole dungeon turns pass inside a dungeon."""
    HOOKS.dungeon_turns.append(hook)
    return hook


def on_day_ended(hook: Hook) -> Hook:
    """Call hook(state, scratch, day) at each midnight crossed, with the day that ended."""
    HOOKS.day_ended.append(hook)
    return hook


def on_rounds_ended(hook: Hook) -> Hook:
    """Call hook(state, scratch, rounds) each time the clock moves, with the travel rounds
    (viagem.yaml rodada.minutos) that ended meanwhile, 0 included."""
    HOOKS.rounds_ended.append(hook)
    return hook


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
        state = _dungeon_turns(state, scratch, minutes)
    start = state.minutes
    state = _cross_midnights(state, scratch, state.minutes + minutes)
    length = HOOKS.round_minutes(scratch)
    rounds = state.minutes // length - start // length
    for hook in HOOKS.rounds_ended:
        state = hook(state, scratch, rounds)
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
        scratch.tell("relogio.acabou", condicao=text, fim=True, words={"quem": names})
    return replace(state, party=tuple(party)) if ended else state


def _dungeon_turns(state: State, scratch: Scratch, minutes: int) -> State:
    turns = minutes // HOOKS.turn_minutes(scratch)
    if turns > 0:
        for hook in HOOKS.dungeon_turns:
            state = hook(state, scratch, turns)
    return state


def _cross_midnights(state: State, scratch: Scratch, end: int) -> State:
    """Step to each midnight before `end`, ending that day there; then stop at `end`."""
    while day_of(state) * MINUTES_PER_DAY <= end:
        ending = day_of(state)
        state = replace(state, minutes=ending * MINUTES_PER_DAY)
        for hook in HOOKS.day_ended:
            state = hook(state, scratch, ending)
    return replace(state, minutes=end)


__all__ = ["HOOKS", "MINUTES_PER_DAY", "MINUTES_PER_HOUR", "day_of", "measure", "on_day_ended", "on_dungeon_turns",
           "on_rounds_ended", "pass_time"]
