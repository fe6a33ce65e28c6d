"""Helpers shared by the test_dungeon test modules."""
from __future__ import annotations



from companion.engine.model import Character, Dungeon, State, Timer, Travel
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character

SEED_TABELA_B = {
    1: "Nada",
    6: "Dormir na Dungeon não é nada confortável. Teste de CON DC 12 para ter os benefícios do "
       "Descanso.",
    7: "Atacados por carrapatos/sanguessugas. 2 de dano e Teste de CON DC 12 para ter os "
       "benefícios do Descanso.",
    8: "Um Encontro Aleatório acontece.",
    9: "O ambiente da Dungeon é muito opressor. Teste de Pânico e Teste de CON DC 12 para ter os "
       "benefícios do Descanso.",
    10: "As criaturas perceberam o cheiro do grupo. Estarão preparadas quando acordarem ou "
        "tentarão emboscá-los.",
}


SAME_ROOM = "Os monstros chegam na sala onde os personagens estão."


NEXT_ROOM = "Os monstros chegam em uma sala adjacente."


LANTERN = Timer(name="lanterna", turns_left=24, kind="luz")


def party(*names: str, **fields: int) -> tuple[Character, ...]:
    """Characters with the sheet's defaults but no rations unless `fields` give them."""
    fields = {"food": 0, "water": 0, **fields}
    return tuple(new_character(id=name.lower(), name=name, **fields) for name in names)


def in_dungeon(tables: Tables, danger: str = "inseguro", lit: bool = True,
               characters: tuple[Character, ...] = (), **dungeon: object) -> Play:
    """A Play already inside a dungeon (with a full lantern unless lit=False)."""
    settings: dict[str, object] = {"lights": (LANTERN,) if lit else (), **dungeon}
    state = State(dungeon=Dungeon(active=True, danger=danger, **settings),  # type: ignore[arg-type]
                  party=characters, travel=Travel(weather_row=4))  # the session's weather
    return Play(tables, state)


def rolls(events: list, tabela: str) -> list:
    return [e for e in events if e.kind == "rolagem" and e.data["tabela"] == tabela]


def check_turns(play: Play, turns: int) -> list[int]:
    """Run `turns` turns with no encounter; the turn numbers that had an encounter check."""
    checked = []
    for _ in range(turns):
        dice = FixedDice(*[6] * 10)
        events = play("turno", rng=dice)
        if rolls(events, "Encontro aleatório"):
            checked.append(play.state.dungeon.turn)
    return checked


# ---------------------------------------------------------------- sleeping

LONG_LIGHT = Timer(name="lanterna", turns_left=100, kind="luz")  # outlasts the 8 hours

# A travel round that begins during the sleep has its weather and encounter check (docs/regras.md:
# every round gets them, even when a dungeon fills it): weather unchanged, no encounter.
ROUND = (6, 6)


def night(hours: dict[int, tuple[int, ...]], until: int = 8,
          rounds: tuple[int, ...] = (4, 8)) -> list[int]:
    """The faces of a sleep from 0h after its mishap, hour by hour up to `until`: the travel
    round's rolls when a round begins at that hour (4h and 8h), then that hour's own faces
    (Tabela C, an arrival, the surprise)."""
    faces: list[int] = []
    for hour in range(1, until + 1):
        faces += ROUND if hour in rounds else ()
        faces += hours.get(hour, ())
    return faces


INSEGURO = 'inseguro: {nome: Inseguro, chance: 1, a_cada_turnos: 3,'


def ana_in_dungeon(tables: Tables, lit: bool = True, light: Timer = LANTERN,
               **dungeon: object) -> Play:
    state = State(dungeon=Dungeon(active=True, danger="inseguro",  # type: ignore[arg-type]
                                  lights=(light,) if lit else (), **dungeon),
                  party=(new_character(id="ana", name="Ana", food=3, water=3),),
                  travel=Travel(weather_row=4))  # the session's weather
    return Play(tables, state)


def said(events: list, code: str) -> list:
    return [e for e in events if e.code == code]
