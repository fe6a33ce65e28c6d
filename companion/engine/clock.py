"""The session clock: what passing time does, whichever procedure spends it.

`pass_time` is the one way the engine moves `State.minutes`. Travel rounds, dungeon turns, the
dungeon sleep and chase turns all call it, so time has the same effects everywhere, always in
this order:

1. time that is not an advance round breaks the run of consecutive advances (Tabela B), and a
   travel round in progress is over when the clock reaches its end (the next multiple of the
   round's length: a chase or a dungeon turn inside it leaves it open);
2. inside a dungeon, the `dungeon_turns` hooks: one call with the whole turns that passed
   (`minutes // masmorra.yaml turno_minutos`, when at least one) — light.tick_timers burns the
   lights and spells, saying what went out;
3. every midnight crossed, with the clock at that midnight, the `day_ended` hooks with the day
   that ended — travel.end_of_day (the day without rest, Tabela I, the new day's region);
4. the `rounds_ended` hooks with how many travel rounds ended (each 4 h of the clock, possibly
   0) — conditions.round_harm (Tabela F row 7's ticks), travel.warn_last_round (the day's last
   round began without a rest that day); then, with the clock at that round's start, the
   `round_began` hooks — rounds.round_begun_away (a round that begins while the party is in a
   dungeon or a chase has its weather and encounter check there, once). Steps 3 and 4 go
   boundary by boundary, in the clock's order (a midnight is also a round's start: the day
   ends first);
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
    round_began: list[Hook] = field(default_factory=list)
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


def on_round_began(hook: Hook) -> Hook:
    """Call hook(state, scratch, round of the day) at each travel round's start the clock
    crosses (after the `rounds_ended` hooks), with the clock at that start."""
    HOOKS.round_began.append(hook)
    return hook


def day_of(state: State) -> int:
    """The day of the session, from 1."""
    return state.minutes // MINUTES_PER_DAY + 1


def pass_time(state: State, scratch: Scratch, minutes: int, *, advancing: bool = False) -> State:
    """Move the clock `minutes` forward. `advancing`: this time is an Avançar round."""
    if not advancing:
        state = replace(state, travel=replace(state.travel, consecutive_advances=0))
    if minutes > 0 and state.flight_speeds is not None:  # that combat is over
        state = replace(state, flight_speeds=None)
    length = HOOKS.round_minutes(scratch)
    ends = (state.minutes // length + 1) * length
    if minutes > 0 and state.minutes + minutes >= ends \
            and (state.travel.acted or state.travel.round_open):  # the round is over
        state = replace(state, travel=replace(state.travel, acted=(), round_open=False,
                                              round_encounter=False, pending_advance=False,
                                              advance_waited=False))
    if state.dungeon.active:
        state = _dungeon_turns(state, scratch, minutes)
    state = _walk(state, scratch, state.minutes + minutes, length)
    return expire_lasting(state, scratch)


def expire_lasting(state: State, scratch: Scratch) -> State:
    """Drop the lasting conditions whose time is over, one line per condition, seen by whom
    the condition was seen."""
    ended: dict[tuple[str, str], list[str]] = {}
    party = []
    for character in state.party:
        over = [c for c in character.lasting if c.until <= state.minutes]
        for condition in over:
            ended.setdefault((condition.text, condition.visibility), []).append(character.name)
        party.append(replace(character, lasting=tuple(
            c for c in character.lasting if c.until > state.minutes)) if over else character)
    for (text, visibility), names in ended.items():
        scratch.tell("relogio.acabou", visibility, condicao=text, fim=True,
                     words={"quem": names})
    return replace(state, party=tuple(party)) if ended else state


def _dungeon_turns(state: State, scratch: Scratch, minutes: int) -> State:
    turns = minutes // HOOKS.turn_minutes(scratch)
    if turns > 0:
        for hook in HOOKS.dungeon_turns:
            state = hook(state, scratch, turns)
    return state


def _walk(state: State, scratch: Scratch, end: int, length: int) -> State:
    """Step to each midnight and each travel round's start up to `end`, in the clock's order:
    at a midnight the day ends; at a round's start the round that ended is told to the
    `rounds_ended` hooks, then the `round_began` hooks see the new one. Then stop at `end`
    (no round ended: the `rounds_ended` hooks still hear it, with 0)."""
    crossed = False
    while True:
        midnight = day_of(state) * MINUTES_PER_DAY
        boundary = (state.minutes // length + 1) * length
        step = min(midnight, boundary)
        if step > end:
            break
        state = replace(state, minutes=step)
        if step == midnight:
            for hook in HOOKS.day_ended:
                state = hook(state, scratch, day_of(state) - 1)
        if step == boundary:
            crossed = True
            state = _round_boundary(state, scratch, length)
    if not crossed:
        for hook in HOOKS.rounds_ended:
            state = hook(state, scratch, 0)
    return replace(state, minutes=end)


def _round_boundary(state: State, scratch: Scratch, length: int) -> State:
    for ended in HOOKS.rounds_ended:
        state = ended(state, scratch, 1)
    number = (state.minutes % MINUTES_PER_DAY) // length + 1
    for began in HOOKS.round_began:
        state = began(state, scratch, number)
    return state


__all__ = ["HOOKS", "MINUTES_PER_DAY", "MINUTES_PER_HOUR", "day_of", "measure", "on_day_ended", "on_dungeon_turns",
           "on_round_began", "on_rounds_ended", "pass_time"]
