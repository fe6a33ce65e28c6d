"""Helpers shared by the test_party test modules."""
from __future__ import annotations


import pytest
from hypothesis import strategies as st

from companion.engine.handlers import PromptAnswer, prompt_handler
from companion.engine.model import Character, Prompt, State
from companion.engine.scratch import Scratch
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character

ANSWERS: list[tuple[int, PromptAnswer]] = []


@prompt_handler("teste_registro")
def _record(state: State, prompt: Prompt, answer: PromptAnswer, scratch: Scratch) -> State:
    """A test-only prompt kind that records what it was answered with."""
    ANSWERS.append((prompt.id, answer))
    scratch.say(f"registrado {prompt.id}")
    return state


@pytest.fixture(autouse=True)
def _clear_answers():
    ANSWERS.clear()


def prompt(id_: int, character: str | None, **fields) -> Prompt:
    return Prompt(id=id_, kind=fields.pop("kind", "teste_registro"), character=character,
                  text=f"pedido {id_}", **fields)


def with_prompts(tables, *prompts: Prompt) -> Play:
    party = (new_character(id="ana", name="Ana"), new_character(id="bia", name="Bia", exhaustion=1))
    return Play(tables, State(party=party, prompts=prompts, next_prompt_id=len(prompts) + 1))


SUPPLY = st.sampled_from(["comida", "agua", "municao", "pv", "pv_max", "exaustao", "sanidade",
                         "sanidade_max"])


# ---------------------------------------------------------------- personagem relativo

def _ana(play, **fields):
    play("personagem", nome="Ana", pv=12, pv_max=12, comida=3, **fields)
    return play


# ---------------------------------------------------------------- curar

ANKLE = "Tornozelo torcido: 1/2 do movimento até ser curado"


TICKS = "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar"


SICK = "Doença (roedores/pestes)"


INSANE = "Insanidade"  # Tabela J row 1: no cure in the rules, `curar Ana` leaves it


def hurt_party(tables, *ana_conditions: str) -> Play:
    party = (new_character(id="ana", name="Ana", conditions=ana_conditions),
             new_character(id="bia", name="Bia"))
    return Play(tables, State(party=party))


def _party(tables: Tables, **ana: int) -> Play:
    return Play(tables, State(party=(new_character(id="ana", name="Ana", **ana),
                                     new_character(id="bia", name="Bia"))))


def _panic(play: Play, *faces: int) -> list:
    play("panico", personagem="Ana")
    return play("responder", actor="player:ana", rng=FixedDice(*faces))


# ---------------------------------------------------------------- conditions

def _hurt(tables: Tables) -> Play:
    return Play(tables, State(party=(new_character(id="ana", name="Ana", conditions=(ANKLE,)),)))


# ---------------------------------------------------------------- rest

def _camp(tables: Tables, *party: Character, safe: bool = True) -> Play:
    from tests.engine.travel_helpers import start

    return start(Play(tables), party=party, terrain="floresta", day_start_terrain="estepe",
                 camp_safe=safe)


def _fed(**values: int) -> Character:
    return new_character(id="ana", name="Ana", food=3, water=3, **values)


# ---------------------------------------------------------------- the sheet's defaults (party.py)

SHEET = ("level", "hp", "hp_max", "sanity", "sanity_max", "exhaustion", "food", "water", "ammo")
