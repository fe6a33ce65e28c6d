"""`personagem`, `responder` and `cancelar` through the engine."""
from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.handlers import PromptAnswer
from companion.engine.model import State
from companion.tables.errors import CommandRejected
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character
from tests.engine.party_helpers import (  # noqa: F401
    ANSWERS,
    _clear_answers,
    prompt,
    with_prompts,
    SUPPLY,
    _ana,
)


# ---------------------------------------------------------------- personagem

def test_new_character_gets_the_house_defaults(play, tables):
    defaults = tables.get("personagem", "personagem_padrao")
    events = play("personagem", nome="Ana")
    (ana,) = play.state.party
    assert (ana.id, ana.name, ana.level, ana.hp, ana.hp_max, ana.sanity, ana.food, ana.water,
            ana.ammo, ana.exhaustion) == (
        "ana", "Ana", defaults["nivel"], defaults["pv"], defaults["pv"], defaults["sanidade"],
        defaults["comida"], defaults["agua"], defaults["municao"], defaults["exaustao"])
    assert events[0].visibility == "public" and "Personagem criado" in events[0].text


def test_character_id_is_the_slug_of_the_name(play):
    play("personagem", nome="Érica  Souza")
    assert play.state.party[0].id == "erica-souza"
    assert play.state.party[0].name == "Érica Souza"


def test_creation_with_fields_and_hp_sets_max(play):
    play("personagem", nome="Ana", nivel=2, pv=12, con=1, des=-1, sanidade=14, comida=5)
    ana = play.state.party[0]
    assert (ana.level, ana.hp, ana.hp_max, ana.sanity, ana.food) == (2, 12, 12, 14, 5)
    assert ana.mods == {"con": 1, "des": -1}


def test_the_first_sheet_of_a_character_made_by_name_alone_is_its_creation(play):
    """A player's join makes the character by name alone (the house defaults, PV 8/8): the
    GM's `personagem Carla nível 1 pv 7` is her creation, so 7 is her maximum too; a later
    `personagem Carla pv 5` is a change of her current PV."""
    play("personagem", nome="Carla")  # what a player's join runs
    events = play("personagem", nome="Carla", nivel=1, pv=7, sanidade=12)
    carla = play.state.party[0]
    assert (carla.hp, carla.hp_max, carla.sanity, carla.sanity_max) == (7, 7, 12, 12)
    assert events[0].data["campos"] == {"nivel": 1, "pv": 7, "sanidade": 12, "pv_max": 7,
                                        "sanidade_max": 12}
    play("personagem", nome="Carla", pv=5, sanidade=9)
    carla = play.state.party[0]
    assert (carla.hp, carla.hp_max, carla.sanity, carla.sanity_max) == (5, 7, 9, 12)


def test_a_join_then_the_gms_sheet_through_the_session(tables):
    from companion.session import Session

    session = Session.open(None, 3, tables)
    session.join_player("Carla")
    assert session.run("personagem Carla nível 1 pv 7").ok
    (carla,) = session.state.party
    assert (carla.hp, carla.hp_max) == (7, 7)
    assert session.run("personagem Carla pv 6").ok
    assert (session.state.party[0].hp, session.state.party[0].hp_max) == (6, 7)
    session.close()


def test_a_relative_change_also_ends_the_sheet_made_by_name_alone(play):
    play("personagem", nome="Carla")
    play("personagem", nome="Carla", relativo=True, pv=-2)  # "Carla toma 2 de dano"
    play("personagem", nome="Carla", pv=7)
    assert (play.state.party[0].hp, play.state.party[0].hp_max) == (7, 8)


def test_existing_character_changes_only_given_fields(play):
    play("personagem", nome="Ana", pv=12, con=1)
    play("personagem", nome="ana", pv=5, agua=0, sab=2)
    ana = play.state.party[0]
    assert len(play.state.party) == 1
    assert (ana.hp, ana.hp_max, ana.water, ana.mods) == (5, 12, 0, {"con": 1, "sab": 2})


def test_attribute_modifiers_have_one_sign_format_everywhere(tables):
    """Issue 31 item 6: a sheet says its modifiers one way, 'CON +2, DES +1' (signed, comma
    between), when made, shown, changed and changed relatively; never 'CON 0, DES 2'."""
    from companion.session import Session

    session = Session.open(None, 3, tables)
    said = [e["text"] for e in session.run("personagem Ana pv 8 con 2 des 1").events]
    assert said == ["Personagem criado: Ana (nível 1, PV 8/8, Sanidade 10/10, exaustão 0, "
                    "comida 3, água 3, munição 0, CON +2, DES +1)."], said
    said = [e["text"] for e in session.run("personagem Ana con 0 des 2").events]
    assert said == ["Ana: CON +0, DES +2."], said
    said = [e["text"] for e in session.run("ficha Ana").events]
    assert said == ["Ana (nível 1, PV 8/8, Sanidade 10/10, exaustão 0, comida 3, água 3, "
                    "munição 0, DES +2)."], said
    session.close()


def test_naming_an_existing_character_only_shows_it(play):
    play("personagem", nome="Ana")
    before = play.state
    events = play("personagem", nome="ANA")
    assert play.state == before and "Ana (nível 1" in events[0].text


@pytest.mark.parametrize("args,message", [
    ({"nivel": -1}, "fora do razoável"),
    ({"nivel": 0}, "fora do razoável"),
    ({"pv": 100000}, "fora do razoável"),
    ({"comida": -3}, "fora do razoável"),
    ({"con": 40}, "fora do razoável"),
    ({"sanidade": 999}, "fora do razoável"),
    ({"forca": 3}, "campo desconhecido"),
    ({"nivel": "dois"}, "número inteiro"),
    ({"nivel": 2.5}, "número inteiro"),
    ({"nivel": True}, "número inteiro"),
])
def test_nonsense_is_rejected_and_changes_nothing(play, args, message):
    play("personagem", nome="Ana")
    before = play.state
    with pytest.raises(CommandRejected, match=message):
        play("personagem", nome="Ana", **args)
    assert play.state == before


@pytest.mark.parametrize("name", ["", "   ", "!!!", "x" * 41])
def test_bad_names_are_rejected(play, name):
    with pytest.raises(CommandRejected, match="nome"):
        play("personagem", nome=name)
    assert play.state.party == ()


def test_hp_above_max_raises_the_max_unless_the_max_is_given(play):
    play("personagem", nome="Ana", pv=8)
    play("personagem", nome="Ana", pv=10)
    assert (play.state.party[0].hp, play.state.party[0].hp_max) == (10, 10)
    with pytest.raises(CommandRejected, match="maior que PV máx"):
        play("personagem", nome="Ana", pv=12, pv_max=11)
    assert (play.state.party[0].hp, play.state.party[0].hp_max) == (10, 10)


def test_sanity_on_creation_is_also_the_characters_own_sanity(play, tables):
    play("personagem", nome="Ana")
    play("personagem", nome="Bia", sanidade=14)
    ana, bia = play.state.party
    default = tables.get("personagem", "personagem_padrao", "sanidade")
    assert (ana.sanity, ana.sanity_max) == (default, default)
    assert (bia.sanity, bia.sanity_max) == (14, 14)


def test_sanity_max_is_a_field_like_pv_max(play):
    play("personagem", nome="Ana", sanidade_max=15)
    assert (play.state.party[0].sanity, play.state.party[0].sanity_max) == (15, 15)
    play("personagem", nome="Ana", sanidade=9)
    assert (play.state.party[0].sanity, play.state.party[0].sanity_max) == (9, 15)
    play("personagem", nome="Ana", sanidade_max=12)
    assert (play.state.party[0].sanity, play.state.party[0].sanity_max) == (9, 12)
    play("personagem", nome="Ana", sanidade=13)  # above its max: the max follows
    assert (play.state.party[0].sanity, play.state.party[0].sanity_max) == (13, 13)
    play("personagem", nome="Ana", sanidade=5, sanidade_max=8)
    assert (play.state.party[0].sanity, play.state.party[0].sanity_max) == (5, 8)
    before = play.state
    with pytest.raises(CommandRejected, match="maior que Sanidade máx"):
        play("personagem", nome="Ana", sanidade=9, sanidade_max=8)
    with pytest.raises(CommandRejected, match="fora do razoável"):
        play("personagem", nome="Ana", sanidade_max=999)
    assert play.state == before
    events = play("personagem", nome="Ana")
    assert "Sanidade 5/8" in events[0].text


def test_only_the_gm_creates_characters(play):
    with pytest.raises(CommandRejected, match="só o Mestre"):
        play("personagem", actor="player:ana", nome="Ana")


@settings(max_examples=60, deadline=None)
@given(changes=st.lists(st.tuples(SUPPLY, st.integers(-1000, 100000)), min_size=1, max_size=12))
def test_supplies_never_go_negative(tables, changes):
    play = Play(tables)
    play("personagem", nome="Ana")
    for field, value in changes:
        before = play.state
        try:
            play("personagem", nome="Ana", **{field: value})
        except CommandRejected:
            assert play.state == before
        ana = play.state.party[0]
        assert min(ana.food, ana.water, ana.ammo, ana.hp, ana.exhaustion, ana.sanity) >= 0
        assert 0 <= ana.hp <= ana.hp_max
        assert 0 <= ana.sanity <= ana.sanity_max


# ---------------------------------------------------------------- responder: the three ways

def test_tap_to_roll_rolls_the_prompt_dice_with_modifier(tables):
    play = with_prompts(tables, prompt(1, "ana", dice="1d20", modifier=2))
    events = play("responder", actor="player:ana", rng=FixedDice(13))
    roll = next(e for e in events if e.kind == "rolagem")
    assert (roll.data["dados"], roll.data["total"], roll.visibility) == ("1d20", 13, "player:ana")
    answer = next(e for e in events if e.kind == "resposta")
    assert answer.visibility == "player:ana" and answer.data["total"] == 15
    assert ANSWERS == [(1, PromptAnswer(total=15, natural=13))]
    assert play.state.prompts == ()


def test_tap_to_roll_uses_disadvantage_when_exhausted(tables):
    play = with_prompts(tables, prompt(1, "bia"))
    play("responder", actor="player:bia", rng=FixedDice(17, 4))
    assert ANSWERS == [(1, PromptAnswer(total=4, natural=4))]


def test_physical_die_value_adds_the_modifier(tables):
    play = with_prompts(tables, prompt(1, "ana", modifier=-1))
    events = play("responder", actor="player:ana", valor=12)
    assert not [e for e in events if e.kind == "rolagem"]
    assert ANSWERS == [(1, PromptAnswer(total=11, natural=12, faces=(12,)))]


@pytest.mark.parametrize("dice,low,high", [("1d20", 1, 20), ("2d6", 2, 12), ("d8", 1, 8),
                                           ("1d6+2", 3, 8)])
def test_physical_value_must_fit_the_die(tables, dice, low, high):
    play = with_prompts(tables, prompt(1, "ana", dice=dice))
    before = play.state
    for bad in (low - 1, high + 1, "muito", 2.5):
        with pytest.raises(CommandRejected, match=f"de {low} a {high}"):
            play("responder", actor="player:ana", valor=bad)
        assert play.state == before
    play("responder", actor="player:ana", valor=high)
    assert ANSWERS == [(1, PromptAnswer(total=high, natural=high, faces=(high,)))]


def test_option_prompt_takes_an_option_accents_ignored(tables):
    play = with_prompts(tables, prompt(1, "ana", options=("descansar", "exaustão")))
    play("responder", actor="player:ana", opcao="Exaustao")
    assert ANSWERS == [(1, PromptAnswer(option="exaustão"))]


def test_option_prompt_rejects_unknown_option_and_rolls(tables):
    play = with_prompts(tables, prompt(1, "ana", options=("descansar", "exaustao")))
    before = play.state
    with pytest.raises(CommandRejected, match="descansar ou exaustao"):
        play("responder", actor="player:ana", opcao="fugir")
    with pytest.raises(CommandRejected, match="escolha"):
        play("responder", actor="player:ana")
    with pytest.raises(CommandRejected, match="escolha"):
        play("responder", actor="player:ana", valor=3)
    assert play.state == before and ANSWERS == []


def test_odd_dice_can_only_be_rolled_by_the_companion(tables):
    play = with_prompts(tables, prompt(1, "ana", dice="1d6*2"))
    with pytest.raises(CommandRejected, match="responder rolar"):
        play("responder", actor="player:ana", valor=4)


def test_roll_prompt_rejects_an_option(tables):
    play = with_prompts(tables, prompt(1, "ana"))
    with pytest.raises(CommandRejected, match="rolagem"):
        play("responder", actor="player:ana", opcao="sim")


# ---------------------------------------------------------------- responder: which prompt

def test_player_answers_their_own_oldest_prompt(tables):
    play = with_prompts(tables, prompt(1, "ana"), prompt(2, "bia"), prompt(3, "bia"))
    play("responder", actor="player:bia", valor=5)
    assert [p.id for p in play.state.prompts] == [1, 3]


def test_gm_with_nothing_answers_the_only_prompt(tables):
    play = with_prompts(tables, prompt(2, "bia"))
    play("responder", valor=5)
    assert play.state.prompts == ()


def test_gm_with_nothing_and_several_prompts_must_say_which(tables):
    play = with_prompts(tables, prompt(1, None), prompt(2, "bia"))
    before = play.state
    with pytest.raises(CommandRejected, match="há 2 pedidos pendentes: 1 .*2 .*Bia"):
        play("responder", valor=5)
    with pytest.raises(CommandRejected, match="diga qual"):
        play("cancelar")
    assert play.state == before


def test_a_name_said_where_an_option_goes_picks_whose_prompt(tables):
    play = with_prompts(tables, prompt(1, "ana"), prompt(2, "bia"))
    play("personagem", nome="Bia")
    play("responder", opcao="bia")
    assert [p.id for p in play.state.prompts] == [1]


def test_gm_answers_by_character_or_by_id(tables):
    play = with_prompts(tables, prompt(1, "ana"), prompt(2, "bia"), prompt(3, "ana"))
    play("responder", personagem="Bia", valor=5)
    play("responder", pedido=3, valor=5)
    assert [p.id for p in play.state.prompts] == [1]
    assert [i for i, _ in ANSWERS] == [2, 3]


def test_player_cannot_answer_someone_elses_prompt(tables):
    play = with_prompts(tables, prompt(1, "ana"), prompt(2, None))
    before = play.state
    for args in ({"pedido": 1}, {"personagem": "Ana"}, {"pedido": 2}):
        with pytest.raises(CommandRejected, match="não é seu"):
            play("responder", actor="player:bia", valor=5, **args)
    with pytest.raises(CommandRejected, match="não há pedido pendente para"):
        play("responder", actor="player:bia", valor=5)
    assert play.state == before and ANSWERS == []


def test_unknown_prompt_id_and_no_prompts_are_rejected(tables):
    play = with_prompts(tables, prompt(1, "ana"))
    with pytest.raises(CommandRejected, match="pedido desconhecido: '9'"):
        play("responder", pedido=9)
    empty = with_prompts(tables)
    with pytest.raises(CommandRejected, match="nenhum pedido pendente"):
        empty("responder")


def test_prompt_kind_without_handler_is_rejected(tables):
    play = with_prompts(tables, prompt(1, "ana", kind="tipo_que_nao_existe"))
    with pytest.raises(CommandRejected, match="tipo_que_nao_existe"):
        play("responder", valor=3)
    assert len(play.state.prompts) == 1


# ---------------------------------------------------------------- cancelar

def test_cancel_names_the_prompt_in_portuguese(tables):
    play = with_prompts(tables, prompt(15, None, kind="confirmar_perseguicao"))
    events = play("cancelar", pedido=15)
    assert events[0].text == ("Pedido 15 (Mestre: Confirmar a exaustão da perseguição) "
                              "cancelado.")
    assert events[0].data["tipo"] == "confirmar_perseguicao"


def test_cancel_by_id_by_character_and_the_only_one(tables):
    play = with_prompts(tables, prompt(1, "ana"), prompt(2, "bia"), prompt(3, None),
                        prompt(4, "ana"))
    events = play("cancelar", pedido=3)
    assert events[0].visibility == "gm" and "cancelado" in events[0].text
    events = play("cancelar", personagem="bia")
    assert events[0].visibility == "player:bia"
    play("cancelar", personagem="ana")
    assert [p.id for p in play.state.prompts] == [4]
    play("cancelar")
    assert play.state.prompts == ()
    assert ANSWERS == []


def test_cancel_is_for_the_gm_and_needs_a_prompt(tables):
    play = with_prompts(tables, prompt(1, "ana"))
    with pytest.raises(CommandRejected, match="só o Mestre"):
        play("cancelar", actor="player:ana")
    play("cancelar")
    with pytest.raises(CommandRejected, match="nenhum pedido pendente"):
        play("cancelar")


def test_answer_then_prompt_ids_keep_growing(tables):
    play = Play(tables, State(party=(new_character(id="ana", name="Ana"),)))
    play("panico", personagem="ana")
    play("responder", valor=1)
    play("panico", personagem="ana")
    assert [p.id for p in play.state.prompts] == [2]
    assert play.state.next_prompt_id == 3


def test_relative_damage_says_before_and_after(play):
    _ana(play)
    (event,) = play("personagem", nome="Ana", pv=-3, relativo=True)
    assert event.text == "Ana: PV 12 → 9."
    assert event.data["antes"] == {"pv": 12} and event.data["campos"] == {"pv": 9}
    assert play.state.party[0].hp == 9


def test_relative_supplies_add_up(play):
    _ana(play)
    (event,) = play("personagem", nome="Ana", comida=2, agua=-1, relativo=True)
    assert event.text == "Ana: comida 3 → 5, água 3 → 2."
    assert (play.state.party[0].food, play.state.party[0].water) == (5, 2)


def test_relative_healing_stops_at_the_maximum_and_says_so(play):
    _ana(play)
    play("personagem", nome="Ana", pv=-5, relativo=True)
    (event,) = play("personagem", nome="Ana", pv=10, relativo=True)
    assert event.text == "Ana: PV 7 → 12 (só até o máximo, 12)."
    assert (play.state.party[0].hp, play.state.party[0].hp_max) == (12, 12)


def test_relative_results_never_go_negative(play):
    _ana(play)
    (event,) = play("personagem", nome="Ana", pv=-30, comida=-9, relativo=True)
    assert event.text == ("Ana: PV 12 → 0 (não fica abaixo de 0), "
                          "comida 3 → 0 (não fica abaixo de 0).")
    assert (play.state.party[0].hp, play.state.party[0].food) == (0, 0)


def test_a_lower_maximum_lowers_the_value(play):
    _ana(play)
    (event,) = play("personagem", nome="Ana", pv_max=-4, relativo=True)
    assert play.state.party[0].hp == 8 and play.state.party[0].hp_max == 8
    assert "PV 12 → 8 (só até o máximo, 8)" in event.text


def test_relative_needs_an_existing_character(play):
    with pytest.raises(CommandRejected, match="'Ana' ainda não está no grupo, e 'PV -3' muda a "
                                              "ficha de quem já existe; para criar, diga "
                                              "'personagem Ana'"):
        play("personagem", nome="Ana", pv=-3, relativo=True)
    assert play.state.party == ()


def test_a_change_of_any_size_is_clamped(play):
    _ana(play)
    play("personagem", nome="Ana", pv=-100000, relativo=True)
    assert play.state.party[0].hp == 0
    play("personagem", nome="Ana", comida=100000, relativo=True)
    assert play.state.party[0].food == play.tables.get("personagem", "limites_personagem",
                                                       "comida")[1]
