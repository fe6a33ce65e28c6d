"""Helpers shared by the test_common_rules test modules."""
from __future__ import annotations

import random
from dataclasses import replace


from companion.engine import Command, apply, initial_state
from companion.engine.model import Event, Lasting, Prompt, State
from companion.tables.files import Tables


def run(tables: Tables, *commands: Command, state: State | None = None,
        seed: int = 1) -> tuple[State, list[Event]]:
    """Apply the commands in order; the events of the last one."""
    state = state or initial_state(tables)
    events: list[Event] = []
    for index, command in enumerate(commands):
        state, events = apply(state, command, random.Random(f"{seed}:{index}"), tables)
    return state, events


def with_ana(tables: Tables) -> State:
    state, _ = run(tables, Command("personagem", {"nome": "Ana"}))
    return state


def held(tables: Tables) -> State:
    """Ana owes a forced-march CON test (a prompt that holds the group)."""
    state = with_ana(tables)
    prompt = Prompt(id=1, kind="marcha_forcada", character="ana", text="Teste de CON")
    return replace(state, prompts=(prompt,), next_prompt_id=2)


# ---------------------------------------------------------------- clock

def _bitten(tables: Tables) -> State:
    state = with_ana(tables)
    ana = replace(state.party[0], lasting=(Lasting(text="Mosquitos", until=60),))
    return replace(state, party=(ana,))


# ---------------------------------------------------------------- tally (registro)

def _defeated(tables: Tables, creature: str = "goblins") -> list[Event]:
    _, events = run(tables, Command("derrotados", {"quantidade": 3, "criatura": creature}))
    return events
