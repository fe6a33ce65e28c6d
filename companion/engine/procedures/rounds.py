"""The travel round's start, shared by travel (an activity opens it) and by what fills a round
(a chase, a dungeon: `round_before_leaving`, and a round that begins while the party is there:
`round_begun_away`): rounds sit on the day's grid (0h–4h, 4h–8h…); a round starts with its
clock line, the weather drift (weather.py) and the encounter check (encounters.py), once. Texts: tables/narracao/viagem.yaml and relogio.yaml.
"""
from __future__ import annotations

from companion.engine.clock import MINUTES_PER_DAY, day_of, pass_time
from companion.engine.model import State
from companion.engine.procedures.conditions import TravelRound
from companion.engine.procedures.encounters import check_encounter
from companion.engine.procedures.weather import drift_weather
from companion.engine.model import set_travel
from companion.engine.scratch import Scratch
from companion.tables.narration import Narrator


def round_of(state: State, round_minutes: int) -> int:
    """The travel round of the day, from 1 (round_minutes: viagem.yaml rodada.minutos)."""
    return (state.minutes % MINUTES_PER_DAY) // round_minutes + 1


def round_minutes(scratch: Scratch) -> int:
    return scratch.piece(TravelRound).minutos


def round_before_leaving(state: State, scratch: Scratch) -> State:
    """A chase or a dungeon starting while travelling at the start of a round (no round open,
    the clock on the day's grid): the round opens first, with its weather and encounter check,
    so the round it fills had them, once (the characters keep their activity for what is left
    of it: the round stays open until its end)."""
    if state.dungeon.active or state.travel.round_open or \
            state.minutes % round_minutes(scratch):
        return state
    state, _ = open_round(state, scratch)
    return state


def open_round(state: State, scratch: Scratch) -> tuple[State, bool]:
    """The round's start, in the order of the rules: the header, the weather, the encounter
    check. A round starts on the day's grid of rounds (`on_the_grid`)."""
    state = on_the_grid(state, scratch)
    return _start_round(state, scratch)


def round_begun_away(state: State, scratch: Scratch, _round: int) -> State:
    """The clock reached a travel round's start while the party is away (in a dungeon, in a
    chase: dungeon turns, chase turns, the dungeon sleep): that round has its weather and
    encounter check now, once, and stays open, so who has not acted keeps their activity for
    what is left of it when the travel goes on (the clock's `round_began` hook)."""
    where = away(state)
    if where is None:
        return state
    state, _ = _start_round(state, scratch, where)
    return set_travel(state, acted=(), pending_advance=False, advance_waited=False)


def away(state: State) -> str | None:
    """Where the party is instead of travelling: 'perseguicao' (a chase under way),
    'masmorra' (inside a dungeon), or None."""
    if state.chase is not None and state.chase.phase == "ativa":
        return "perseguicao"
    return "masmorra" if state.dungeon.active else None


def _start_round(state: State, scratch: Scratch,
                 where: str | None = None) -> tuple[State, bool]:
    rules = scratch.piece(TravelRound)
    extra = {"durante": where} if where else {}
    scratch.tell("viagem.rodada", dia=day_of(state), rodada=round_of(state, rules.minutos),
                 words={"rodadas": rules.rodadas_por_dia}, **extra)
    state = drift_weather(state, scratch)
    encounter = check_encounter(state, scratch)
    return set_travel(state, round_open=True, round_encounter=encounter), encounter


def on_the_grid(state: State, scratch: Scratch) -> State:
    """Time spent off the travel rounds (a dungeon's 10-minute turns, a chase) leaves the clock
    inside a round: that round was what the party did there (one activity per round), so
    the rest of it passes, with all that passing time does (the day may end), and the next
    travel round starts where the day's rounds start (every `rodada.minutos`, from midnight).
    Leaving a dungeon at 22h10: the next round starts at 0h00, and every later one on the
    grid."""
    length = round_minutes(scratch)
    into = state.minutes % length
    if into == 0:
        return state
    narration = scratch.tables.narration
    words = {"hora": time_text(narration, state.minutes),
             "rodada": round_of(state, length),
             "inicio": time_text(narration, state.minutes - into + length)}
    scratch.tell("viagem.resto_da_rodada", minutos=length - into, words=words)
    return pass_time(state, scratch, length - into)


def time_text(narration: Narrator, minutes: int) -> str:
    """The time of day as people write it (tables/narracao/relogio.yaml `hora`)."""
    hours, rest_minutes = divmod(minutes % MINUTES_PER_DAY, 60)
    return narration.render("relogio.hora", {"horas": hours, "minutos": rest_minutes})
