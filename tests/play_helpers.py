"""Commands applied straight to the engine in tests: one RNG per command as the session does,
or dice that come out as the faces given (for reaching a table's rows)."""
from __future__ import annotations

import random
from typing import Any

from companion.engine import Command, Event, State, apply, initial_state
from companion.tables.files import Tables
from tests.rules_helpers import new_character


class Play:
    """Apply commands to a state in a test, one RNG per command like the session does."""

    def __init__(self, tables: Tables, state: State | None = None, seed: int = 7) -> None:
        self.tables = tables
        self.state = state or initial_state(tables)
        self.seed = seed
        self.number = 0
        self.events: list[Event] = []

    def __call__(self, name: str, actor: str = "gm", rng: random.Random | None = None,
                 **args: Any) -> list[Event]:
        self.number += 1
        generator = rng or random.Random(f"{self.seed}:{self.number}")
        self.state, events = apply(self.state, Command(name, args, actor), generator,
                                   self.tables)
        self.events.extend(events)
        return events


class FixedDice(random.Random):
    """An RNG whose dice come out as the given faces, in order (for reaching table rows)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:  # the dice library rolls with randint
        if not self.faces:
            raise AssertionError("FixedDice ran out of faces")
        value = self.faces.pop(0)
        assert a <= value <= b, f"face {value} outside {a}..{b}"
        return value


def ana_and_tired_bia(tables: Tables, **state: Any) -> Play:
    """A Play with Ana and Bia (Bia at exhaustion 1), plus any other state fields."""
    party = (new_character(id="ana", name="Ana"), new_character(id="bia", name="Bia", exhaustion=1))
    return Play(tables, State(party=party, **state))
