"""Panic (Tabelas J and K) and exhaustion (Tabela I), through the engine."""
from __future__ import annotations

import random

import pytest

from companion.engine.characters import edge_for, modifier
from companion.engine.scratch import Scratch
from companion.engine.model import Command, State
from companion.engine.procedures.panic import exhaustion_day, request_panic
from companion.tables.errors import CommandRejected
from tests.play_helpers import FixedDice
from tests.rules_helpers import new_character
from tests.engine.panic_helpers import (  # noqa: F401
    J,
    K,
    K_NAMES,
    I,
    party_play,
    ana,
    panic,
    row_event,
    exhausted,
)


# ---------------------------------------------------------------- the test itself

def test_panic_prompt_goes_only_to_that_player(tables):
    play = party_play(tables, sanity=12)
    events = play("panico", personagem="ana")
    pedido = [e for e in events if e.kind == "pedido"]
    assert len(pedido) == 1 and pedido[0].visibility == "player:ana"
    assert pedido[0].data["pedido"]["tipo"] == "panico"
    assert pedido[0].data["pedido"]["dados"] == "1d20"
    assert play.state.prompts[0].character == "ana"


@pytest.mark.parametrize("sanity", [1, 10, 19])
def test_roll_equal_to_sanity_passes(tables, sanity):
    play = party_play(tables, sanity=sanity)
    events = panic(play, sanity)
    assert any("passou" in e.text for e in events)
    assert not [e for e in events if e.data.get("tabela") == "Tabela J: Pânico"]
    assert play.state.prompts == ()
    assert ana(play) == new_character(id="ana", name="Ana", sanity=sanity)


def test_roll_above_sanity_fails(tables):
    play = party_play(tables, sanity=15)
    events = panic(play, 16, 2)  # fail, then 1d4 rounds of Terror
    assert any("falhou" in e.text for e in events)
    assert row_event(events).data["resultado"] == J["14+"]


def test_panic_reads_current_sanity_when_answered(tables):
    play = party_play(tables, sanity=15)
    play("panico", personagem="ana")
    play("personagem", nome="Ana", sanidade=3)  # sanity dropped before the answer
    events = play("responder", actor="player:ana", rng=FixedDice(4, 1, 2))
    assert row_event(events).data["sanidade"] == 3
    assert row_event(events).data["resultado"] == J["2-4"]


def test_request_panic_is_callable_by_other_modules(tables):
    state = State(party=(new_character(id="ana", name="Ana"),))
    scratch = Scratch(rng=random.Random(1), tables=tables, command=Command("descansar"))
    state = request_panic(state, scratch, "ana")
    assert [p.kind for p in state.prompts] == ["panico"]
    assert any(e.kind == "pedido" and e.visibility == "player:ana" for e in scratch.events)


def test_panic_needs_a_known_character(play):
    with pytest.raises(CommandRejected, match="personagem desconhecido"):
        play("panico", personagem="Zé")
    with pytest.raises(CommandRejected, match="pânico"):
        play("panico")
    assert play.state.prompts == ()


def test_exhausted_character_rolls_panic_with_disadvantage(tables):
    play = party_play(tables, sanity=10, exhaustion=1)
    events = panic(play, 18, 5)  # a roll-under test: DESV keeps the worse die, 18 → fails
    roll = next(e for e in events if e.kind == "rolagem")
    assert roll.data["vantagem"] == "desvantagem" and roll.data["total"] == 18
    assert roll.data["descartado"] == 5
    assert not any("passou" in e.text for e in events)


# ---------------------------------------------------------------- Tabela J, every row

@pytest.mark.parametrize("sanity,row", [(0, "1"), (1, "1"), (2, "2-4"), (4, "2-4"),
                                        (5, "5-7"), (7, "5-7"), (8, "8-10"), (10, "8-10"),
                                        (11, "11-13"), (13, "11-13"), (14, "14+"), (19, "14+")])
def test_every_row_of_tabela_j(tables, sanity, row):
    play = party_play(tables, sanity=sanity)
    faces = {"1": (20,), "2-4": (20, 1, 2), "8-10": (20,)}.get(row, (20, 3))
    events = panic(play, *faces)
    event = row_event(events)
    assert event.data["resultado"] == J[row]  # the seed's row, exactly, in the data
    if row in ("1", "8-10"):
        assert J[row] in event.text
    elif row != "2-4":  # a brief effect: its line says the rounds rolled (issue 31)
        assert "por 3 rodadas" in event.text and "1d4" not in event.text
    assert event.visibility == "player:ana"  # the effect's name: hers and the GM's (default)


def test_the_afflicted_row_does_not_ask_to_roll_what_the_companion_rolls(tables):
    """The seed's row says 'Role 1d8 na Tabela K': the companion rolls it right after, so the
    text people read says so instead (the data keeps the seed's words)."""
    play = party_play(tables, sanity=3)
    event = row_event(panic(play, 20, 1, 2))
    assert "Role 1d8" not in event.text
    assert event.text == ("Tabela J: Pânico (Sanidade 3): Afetado. Recebe uma aflição (o "
                          "companheiro rola 1d8 na Tabela K: Aflição) e sofre um efeito de "
                          "pânico aleatório.")


def test_insanity_becomes_a_condition_once(tables):
    play = party_play(tables, sanity=1)
    panic(play, 20)
    assert ana(play).conditions == ("Insanidade",)
    panic(play, 20)
    assert ana(play).conditions == ("Insanidade",)


def test_impacted_deals_two_wisdom_damage_each_time(tables):
    play = party_play(tables, sanity=9)
    panic(play, 20)
    assert ana(play).attribute_damage == {"sab": 2}
    panic(play, 20)
    assert ana(play).attribute_damage == {"sab": 4}
    assert ana(play).sanity == 9


@pytest.mark.parametrize("sanity,name", [(6, "Fúria"), (12, "Catatonia"), (16, "Terror")])
@pytest.mark.parametrize("rounds", [1, 4])
def test_brief_effects_roll_1d4_rounds(tables, sanity, name, rounds):
    play = party_play(tables, sanity=sanity)
    events = panic(play, 20, rounds)
    duration = [e for e in events if e.kind == "rolagem" and e.data["dados"] == "1d4"]
    assert len(duration) == 1 and duration[0].data["total"] == rounds
    assert any(f"{name} por {rounds} rodada" in e.text for e in events)


# ---------------------------------------------------------------- Tabela K, every row

@pytest.mark.parametrize("face", range(1, 9))
def test_every_row_of_tabela_k_goes_in_full_to_that_player(tables, face):
    play = party_play(tables, sanity=3)
    events = panic(play, 20, face, 2)  # fail, Tabela K, random effect 2 (Impactado)
    k_rolls = [e for e in events if e.data.get("tabela") == "Tabela K: Aflição"]
    assert len(k_rolls) == 1
    roll = k_rolls[0]
    assert roll.kind == "rolagem" and roll.visibility == "player:ana"
    assert roll.data["dados"] == "1d8" and roll.data["total"] == face
    assert roll.data["resultado"] == K[face]
    assert [a.name for a in ana(play).afflictions] == [K_NAMES[face]]
    # the full text never goes to the table; by default not even the name
    public = " ".join(e.text for e in events if e.visibility == "public")
    assert K[face] not in public and K_NAMES[face] not in public


def test_afflictions_accumulate(tables):
    play = party_play(tables, sanity=3)
    panic(play, 20, 1, 2)
    panic(play, 20, 8, 2)
    assert [a.name for a in ana(play).afflictions] == ["Fobia", "Histérico"]


@pytest.mark.parametrize("face,row", [(1, "5-7"), (2, "8-10"), (3, "11-13"), (4, "14+")])
def test_afflicted_also_suffers_a_random_panic_effect(tables, face, row):
    play = party_play(tables, sanity=2)
    events = panic(play, 20, 5, face, 3)  # the trailing 3 is a brief effect's duration
    random_roll = [e for e in events if e.data.get("tabela") == "Efeito de pânico aleatório"]
    assert len(random_roll) == 1
    assert random_roll[0].data["resultado"] == J[row]
    if row == "8-10":
        assert ana(play).attribute_damage == {"sab": 2}
    else:
        assert ana(play).attribute_damage == {}
        assert any("por 3 rodada" in e.text for e in events)


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_tabela_i_levels_are_cumulative(tables, level):
    character = exhausted(level)
    assert (edge_for(character, tables, 0) == "desvantagem") == (level >= 1)
    assert modifier(character, "con", tables) == (0 if level >= 2 else 2)
    scratch = Scratch(rng=FixedDice(3), tables=tables, command=Command("avancar"))
    state = exhaustion_day(State(party=(character,)), scratch)
    damage = state.party[0].attribute_damage.get("con", 0)
    assert damage == (3 if level >= 3 else 0)
    rolls = [e for e in scratch.events if e.kind == "rolagem"]
    if level >= 3:
        assert [(r.data["tabela"], r.data["dados"], r.data["resultado"]) for r in rolls] == \
            [("Tabela I: Exaustão", "1d4", I[3])]
    else:
        assert rolls == []


def test_exhaustion_day_damage_adds_up_per_character(tables):
    party = (exhausted(3), new_character(id="bia", name="Bia", exhaustion=3,
                                     attribute_damage={"con": 1}))
    scratch = Scratch(rng=FixedDice(4, 2), tables=tables, command=Command("avancar"))
    state = exhaustion_day(State(party=party), scratch)
    assert [c.attribute_damage["con"] for c in state.party] == [4, 3]
