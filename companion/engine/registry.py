"""The one place that assembles the engine.

Every procedure module registers, on import, the commands it handles (`@command`), the prompt
kinds it resolves (`@prompt_handler`, `@cancel_handler`) and the typed parts of the tables it
reads (`@piece`). This module imports them all, registers the commands that mean a different
procedure in a dungeon and while travelling, and hooks the procedures that react to time into
the clock. companion/engine/__init__.py imports it, so whoever imports the engine gets it whole;
no other module imports every procedure.

The clock's hooks, in the order clock.pass_time calls them (see clock.py):
1. dungeon turns passed → light.tick_timers (lights and spells burn);
2. a day ended (each midnight) → travel.end_of_day (day without rest, Tabela I, new region);
3. travel rounds ended → conditions.round_harm (Tabela F row 7's damage per round), then
   travel.warn_last_round (the day's last round began and the party has not rested).
The clock's units come from the procedures' pieces too: a travel round (travel.TravelRound) and
a dungeon turn (dungeon.DungeonRules.turno_minutos).
"""
from __future__ import annotations

from companion.engine import clock
from companion.engine.procedures import (  # noqa: F401  (each registers its commands on import)
    advance,
    campaign,
    chase,
    checks,
    conditions,
    dice_tables,
    dungeon,
    dungeon_rules,
    encounters,
    foraging,
    forced_march,
    help,
    light,
    panic,
    party,
    prompts,
    questions,
    rest,
    rest_mishaps,
    roster,
    rounds,
    tally,
    travel,
    weather,
)
from companion.engine.model import State
from companion.engine.handlers import command
from companion.engine.scratch import Scratch


# ---------------------------------------------------------------- one word, two procedures

@command("descansar")
def rest_here(state: State, scratch: Scratch) -> State:
    """In a dungeon an exploration turn spent resting; travelling, a round of rest."""
    if state.dungeon.active:
        return dungeon.rest_turn(state, scratch)
    return travel.travel_rest(state, scratch)


@command("estado")
def state_or_sheet(state: State, scratch: Scratch) -> State:
    """With a `personagem`, that character's sheet (a question); without, the table's state."""
    if "personagem" in scratch.command.args:
        return questions.character_question(state, scratch)
    return help.state_command(state, scratch)


@command("dormir")
def sleep_here(state: State, scratch: Scratch) -> State:
    """In a dungeon the 8-hour sleep; travelling, the same round of rest as `descansar`."""
    if state.dungeon.active:
        return dungeon.sleep(state, scratch)
    return travel.travel_rest(state, scratch)


# ---------------------------------------------------------------- the clock's hooks, in order

clock.on_dungeon_turns(light.tick_timers)
clock.on_day_ended(travel.end_of_day)
clock.on_rounds_ended(conditions.round_harm)
clock.on_rounds_ended(travel.warn_last_round)
clock.on_round_began(rounds.round_begun_away)


def _round_minutes(scratch: Scratch) -> int:
    return scratch.piece(travel.TravelRound).minutos


def _turn_minutes(scratch: Scratch) -> int:
    return scratch.piece(dungeon.DungeonRules).turno_minutos


clock.measure(round_minutes=_round_minutes, turn_minutes=_turn_minutes)
