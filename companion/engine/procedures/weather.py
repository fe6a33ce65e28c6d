"""Weather (tables/clima.yaml): the initial roll on the season's column (when the session is
created: its command 0, `inicio_sessao`), the drift at the start of every travel round, and
`clima` (roll it again).
"""
from __future__ import annotations

from typing import Any, Mapping

from companion.engine.model import State
from companion.engine.toolkit import Scratch, command, pick_row, set_travel
from companion.tables import register_schema

register_schema("clima", {
    "inicial": {"nome": str, "dados": str, "abertura": str},
    "variacao": {"nome": str, "dados": str, "linhas": {"*": {"texto": str, "passo": int}}},
    "estacoes": {"*": {"nome": str, "linhas": {"*": str}}},
})

SESSION_START = "inicio_sessao"  # the command the session runs once, when it is created


def _weather_rows(scratch: Scratch, season: str) -> Mapping[Any, str]:
    return scratch.table("clima", "estacoes", season, "linhas")


def weather_text(scratch: Scratch, state: State) -> str:
    if state.travel.weather_row is None:
        return "ainda não rolado"
    return str(pick_row(_weather_rows(scratch, state.travel.season), state.travel.weather_row))


def roll_initial_weather(state: State, scratch: Scratch) -> State:
    """1d6 on the season's column."""
    spec = scratch.table("clima", "inicial")
    season = state.travel.season
    rows = _weather_rows(scratch, season)
    rolled = scratch.roll(spec["dados"], spec["nome"], estacao=season,
                          describe=lambda total: str(pick_row(rows, total)))
    return set_travel(state, weather_row=rolled.total)


def drift_weather(state: State, scratch: Scratch) -> State:
    """Each round: 1 → one row down, 2 → one row up, else no change; clamped to the column."""
    if state.travel.weather_row is None:
        state = roll_initial_weather(state, scratch)
    spec = scratch.table("clima", "variacao")
    rolled = scratch.roll(spec["dados"], spec["nome"],
                          describe=lambda total: pick_row(spec["linhas"], total)["texto"])
    rows = [int(key) for key in _weather_rows(scratch, state.travel.season)]
    row = state.travel.weather_row or min(rows)
    new_row = max(min(rows), min(max(rows), row + pick_row(spec["linhas"], rolled.total)["passo"]))
    state = set_travel(state, weather_row=new_row)
    scratch.say(f"Clima: {weather_text(scratch, state)}.", clima=weather_text(scratch, state),
                linha=new_row)
    return state


@command(SESSION_START)
def start_session(state: State, scratch: Scratch) -> State:
    """The session was just created: the initial weather of the starting season (clima.yaml
    `inicial`). Run once by the session, never by a person (it is not in comandos.yaml)."""
    season = state.travel.season
    scratch.say(str(scratch.table("clima", "inicial", "abertura")).format(
        estacao=scratch.table("clima", "estacoes", season, "nome")), estacao=season)
    return roll_initial_weather(state, scratch)


@command("clima")
def reroll_weather(state: State, scratch: Scratch) -> State:
    return roll_initial_weather(state, scratch)
