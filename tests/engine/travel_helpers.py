"""What the travel and rest tests share: Ana and Bia, a play put on a travel day or a camp,
and a command applied with exactly the die faces given."""
from __future__ import annotations

from dataclasses import replace

from companion.engine.model import Character, State, Travel
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character

QUIET = (3, 6)  # weather: no change; encounter check: never (the highest chance is 3:6)


def ana(**changes: object) -> Character:
    """Ana with the sheet's defaults but no rations (tests give food where it matters)."""
    return replace(new_character(id="ana", name="Ana", mods={"con": 1, "des": 2}, food=0,
                                 water=0), **changes)


def bia(**changes: object) -> Character:
    return replace(new_character(id="bia", name="Bia", mods={"con": -1, "des": 0}, food=0,
                                 water=0), **changes)


def start(play: Play, party: tuple[Character, ...] = (), **travel: object) -> Play:
    """Put the play on a travel state with weather already rolled (row 3)."""
    values = {"weather_row": 3, **travel}
    play.state = State(travel=Travel(**values), party=party)  # type: ignore[arg-type]
    return play


NAMED = {"forragear", "cacar", "pescar", "criar_municao"}


def run(play: Play, name: str, *faces: int, **args: object) -> list:
    """Apply a command with exactly these die faces (all must be used). A named activity that
    opens a travel round first rolls that round's weather and encounter check: QUIET faces."""
    if name in NAMED and args.get("personagem") and not play.state.travel.round_open:
        faces = (*QUIET, *faces)
    dice = FixedDice(*faces)
    events = play(name, rng=dice, **args)
    assert dice.faces == [], f"faces left unused: {dice.faces}"
    return events


def rolls(events: list, tabela: str) -> list:
    return [e for e in events if e.kind == "rolagem" and e.data["tabela"] == tabela]


def one_roll(events: list, tabela: str):
    found = rolls(events, tabela)
    assert len(found) == 1, [e.text for e in events]
    return found[0]


def camp(play: Play, *party: Character, safe: bool = True) -> Play:
    return start(play, party=party, terrain="floresta", day_start_terrain="estepe",
                 camp_safe=safe)


def fed(character: Character) -> Character:
    return replace(character, food=3, water=3)
