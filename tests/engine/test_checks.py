"""The attribute test the GM asks (`teste`, issue 17) and the character tests asked with no name
(panic, `teste`): refused, listing the names to choose from."""
from __future__ import annotations

import pytest

from companion.engine.model import State
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character


def carla_and_bruno(**bruno: object) -> State:
    return State(party=(new_character(id="carla", name="Carla", mods={"con": 2}),
                        new_character(id="bruno", name="Bruno", mods={"des": 1},
                                      **bruno)))  # type: ignore[arg-type]


def test_a_test_asks_that_character_with_the_attribute_modifier(tables: Tables) -> None:
    play = Play(tables, carla_and_bruno())
    told, asked = play("teste", atributo="con", personagem="Carla", dc=12)
    (prompt,) = play.state.prompts
    assert (prompt.kind, prompt.character, prompt.modifier, prompt.dc) == ("teste", "carla", 2, 12)
    assert asked.kind == "pedido" and asked.visibility == "player:carla"
    assert asked.text == "Carla: teste de CON — role 1d20+2 (CON), dificuldade 12."
    assert told.visibility == "public" and told.text == "Teste de CON para Carla (dificuldade 12)."


@pytest.mark.parametrize("face, passed", [(10, True), (9, False)])
def test_with_a_difficulty_the_answer_passes_or_fails_in_public(tables: Tables, face: int,
                                                                 passed: bool) -> None:
    play = Play(tables, carla_and_bruno())
    play("teste", atributo="con", personagem="Carla", dc=12)
    events = play("responder", actor="player:carla", valor=face)
    verdict = events[-1]
    assert verdict.visibility == "public" and verdict.data["sucesso"] is passed
    assert verdict.data["total"] == face + 2
    assert verdict.text.startswith("Carla passou" if passed else "Carla falhou")
    assert play.state.prompts == ()


def test_without_a_difficulty_the_total_goes_to_the_player_and_the_gm(tables: Tables) -> None:
    play = Play(tables, carla_and_bruno())
    play("teste", atributo="des", personagem="Bruno")
    events = play("responder", actor="player:bruno", valor=13)
    total = events[-1]
    assert total.visibility == "player:bruno" and total.data["total"] == 14
    assert "sucesso" not in total.data and "o Mestre decide" in total.text


def test_desv_applies_to_the_test(tables: Tables) -> None:
    play = Play(tables, carla_and_bruno(exhaustion=1))  # Tabela I level 1: DESV
    play("teste", atributo="des", personagem="Bruno", dc=10)
    (prompt,) = play.state.prompts
    assert prompt.context["vantagem"] == "desvantagem" and "duas vezes" in prompt.text
    events = play("responder", actor="player:bruno", valor=18, valor2=4)
    answer = next(e for e in events if e.kind == "resposta")
    assert answer.data["natural"] == 4  # a roll-over test under DESV keeps the lower die
    play("teste", atributo="des", personagem="Bruno", dc=10)
    rolled = play("responder", rng=FixedDice(17, 3))
    roll = next(e for e in rolled if e.kind == "rolagem")
    assert roll.data["total"] == 3
    assert roll.data["tabela"] == "Teste de DES"  # the check's name (DESIGN), not the prompt


def test_the_roll_of_a_test_is_named_like_a_check_not_by_the_prompt_text(tables: Tables) -> None:
    """The die the companion rolls for a test carries the check's name (the attribute's:
    tables/narracao/testes.yaml rotulo_rolagem), as the contract's `tabela` asks — not the
    whole prompt sentence; the card's title is the kind's (pedidos.yaml nomes_pedidos)."""
    play = Play(tables, carla_and_bruno())
    play("teste", atributo="con", personagem="Carla", dc=12)
    rolled = next(e for e in play("responder", rng=FixedDice(12)) if e.kind == "rolagem")
    assert rolled.data["tabela"] == "Teste de CON"
    assert tables.get("pedidos", "nomes_pedidos", "teste") == "Teste de atributo"


@pytest.mark.parametrize("command, args, says", [
    ("teste", {"atributo": "con"}, "diga de quem é o teste de CON: Carla ou Bruno"),
    ("panico", {}, "diga de quem é o teste de pânico: Carla ou Bruno"),
])
def test_a_characters_test_without_a_name_lists_the_names(tables: Tables, command: str,
                                                          args: dict[str, object],
                                                          says: str) -> None:
    play = Play(tables, carla_and_bruno())
    with pytest.raises(CommandRejected) as refused:
        play(command, **args)
    assert refused.value.message.startswith(says)
    assert play.state == carla_and_bruno()


@pytest.mark.parametrize("args, says", [
    ({"atributo": "sorte", "personagem": "Carla"},
     "atributo desconhecido: 'sorte'; use FOR, DES, CON, INT, SAB ou CAR"),
    ({"atributo": "con", "personagem": "Carla", "dc": 99},
     "dificuldade 99 não vale: diga uma de 1 a 40"),
    ({"atributo": "con", "personagem": "Zé"}, "personagem desconhecido: 'Zé'"),
])
def test_bad_tests_are_refused_and_change_nothing(tables: Tables, args: dict[str, object],
                                                  says: str) -> None:
    play = Play(tables, carla_and_bruno())
    with pytest.raises(CommandRejected) as refused:
        play("teste", **args)
    assert refused.value.message.startswith(says)
    assert play.state.prompts == ()
