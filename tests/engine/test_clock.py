"""The session clock (companion/engine/clock.py): what passing time does, wherever it passes."""
from __future__ import annotations

import random

import pytest

from companion.engine.clock import day_of, pass_time
from companion.engine.scratch import Scratch
from companion.engine.model import Command, Dungeon, State, Timer, Travel
from companion.tables.files import Tables
from tests.rules_helpers import new_character

TORCH = Timer(name="tocha", turns_left=6, kind="luz")
SPELL = Timer(name="Escudo", turns_left=2, kind="magia")


def scratch_for(tables: Tables) -> Scratch:
    return Scratch(rng=random.Random(1), tables=tables, command=Command("teste"))


def test_time_moves_the_clock_and_resets_the_forced_march(tables: Tables) -> None:
    scratch = scratch_for(tables)
    state = pass_time(State(travel=Travel(consecutive_advances=2)), scratch, 30)
    assert state.minutes == 30
    assert state.travel.consecutive_advances == 0
    kept = pass_time(State(travel=Travel(consecutive_advances=2)), scratch, 30, advancing=True)
    assert kept.travel.consecutive_advances == 2


@pytest.mark.parametrize("minutes,torch_left,spell_over", [(10, 5, False), (25, 4, True),
                                                            (60, None, True)])
def test_time_in_a_dungeon_burns_its_timers(tables: Tables, minutes: int,
                                            torch_left: int | None, spell_over: bool) -> None:
    scratch = scratch_for(tables)
    state = State(dungeon=Dungeon(active=True, lights=(TORCH,), spells=(SPELL,)))
    state = pass_time(state, scratch, minutes)
    assert [t.turns_left for t in state.dungeon.lights] == ([torch_left] if torch_left else [])
    assert (state.dungeon.spells == ()) is spell_over
    assert any(e.text == "A magia Escudo terminou." for e in scratch.events) is spell_over
    assert any(e.text == "A tocha se apagou." for e in scratch.events) is (torch_left is None)


def test_time_outside_a_dungeon_burns_nothing(tables: Tables) -> None:
    state = State(dungeon=Dungeon(active=False, lights=(TORCH,)))
    assert pass_time(state, scratch_for(tables), 600).dungeon.lights == (TORCH,)


def test_every_midnight_crossed_ends_a_day(tables: Tables) -> None:
    scratch = scratch_for(tables)
    day = 24 * 60
    state = State(minutes=day - 10, party=(new_character(id="ana", name="Ana"),),
                  travel=Travel(camp_safe=True))
    state = pass_time(state, scratch, 2 * day)
    assert day_of(state) == 3
    assert [e.data["dia"] for e in scratch.events if e.text.startswith("Fim do dia")] == [2, 3]
    assert state.party[0].exhaustion == 2  # two days without rest
    assert state.travel.camp_safe is True  # a safe camp lasts until the party rests or moves on
