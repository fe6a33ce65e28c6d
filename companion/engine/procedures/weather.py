"""Weather (tables/clima.yaml): the initial roll on the season's column (when the session is
created: its command 0, `inicio_sessao`), the drift at the start of every travel round, and
`clima` (roll it again). Texts: tables/narracao/clima.yaml.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.engine.model import State, set_travel
from companion.engine.handlers import command
from companion.engine.rows import pick_row
from companion.engine.scratch import Scratch
from companion.engine.validators import require_dice
from companion.tables.rulebook import piece

SESSION_START = "inicio_sessao"  # the command the session runs once, when it is created


@dataclass(frozen=True)
class WeatherRoll:
    """A roll of the weather: its table name and dice."""

    nome: str
    dados: str

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class DriftRow:
    texto: str
    passo: int  # rows to move on the season's column (-1, +1, 0)


@dataclass(frozen=True)
class WeatherDrift(WeatherRoll):
    linhas: Mapping[int | str, DriftRow]


@dataclass(frozen=True)
class SeasonColumn:
    nome: str
    linhas: Mapping[int | str, str]


@piece("clima")
@dataclass(frozen=True)
class WeatherRules:
    """tables/clima.yaml."""

    inicial: WeatherRoll
    variacao: WeatherDrift
    estacoes: Mapping[str, SeasonColumn]


def weather_text(scratch: Scratch, state: State) -> str:
    """The weather people read now (the row of the season's column)."""
    if state.travel.weather_row is None:
        return scratch.tables.narration.render("clima.nao_rolado", {})
    column = scratch.piece(WeatherRules).estacoes[state.travel.season]
    return str(pick_row(column.linhas, state.travel.weather_row))


def roll_initial_weather(state: State, scratch: Scratch) -> State:
    """1d6 on the season's column."""
    rules = scratch.piece(WeatherRules)
    season = state.travel.season
    rows = rules.estacoes[season].linhas
    rolled = scratch.roll(rules.inicial.dados, rules.inicial.nome, estacao=season,
                          describe=lambda total: str(pick_row(rows, total)))
    return set_travel(state, weather_row=rolled.total)


def drift_weather(state: State, scratch: Scratch) -> State:
    """Each round: 1 → one row down, 2 → one row up, else no change; clamped to the column."""
    if state.travel.weather_row is None:
        state = roll_initial_weather(state, scratch)
    rules = scratch.piece(WeatherRules)
    drift = rules.variacao
    rolled = scratch.roll(drift.dados, drift.nome,
                          describe=lambda total: pick_row(drift.linhas, total).texto)
    rows = [int(key) for key in rules.estacoes[state.travel.season].linhas]
    row = state.travel.weather_row or min(rows)
    new_row = max(min(rows), min(max(rows), row + pick_row(drift.linhas, rolled.total).passo))
    state = set_travel(state, weather_row=new_row)
    scratch.tell("clima.clima", clima=weather_text(scratch, state), linha=new_row)
    return state


@command(SESSION_START)
def start_session(state: State, scratch: Scratch) -> State:
    """The session was just created: the initial weather of the starting season. Run once by
    the session, never by a person (it is not in comandos.yaml)."""
    season = state.travel.season
    scratch.tell("clima.sessao_criada", estacao=season,
                 words={"nome": scratch.piece(WeatherRules).estacoes[season].nome})
    return roll_initial_weather(state, scratch)


@command("clima")
def reroll_weather(state: State, scratch: Scratch) -> State:
    return roll_initial_weather(state, scratch)
