"""`personagem`, `responder` and `cancelar` through the engine."""
from __future__ import annotations

from dataclasses import MISSING, fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.handlers import PromptAnswer, prompt_handler
from companion.engine.model import Character, Prompt, State, Travel
from companion.engine.procedures.panic import AfflictionTable, PanicTable, PanicTest
from companion.engine.procedures.party import CharacterDefaults
from companion.engine.scratch import Scratch
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

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


SUPPLY = st.sampled_from(["comida", "agua", "municao", "pv", "pv_max", "exaustao", "sanidade",
                         "sanidade_max"])


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


# ---------------------------------------------------------------- personagem relativo

def _ana(play, **fields):
    play("personagem", nome="Ana", pv=12, pv_max=12, comida=3, **fields)
    return play


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


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["pv", "comida", "agua", "sanidade", "exaustao"]),
                          st.integers(-10, 10)), min_size=1, max_size=8))
def test_relative_changes_stay_within_bounds(tables, changes):
    play = Play(tables)
    _ana(play)
    for field, delta in changes:
        play("personagem", nome="Ana", relativo=True, **{field: delta})
    ana = play.state.party[0]
    assert min(ana.hp, ana.food, ana.water, ana.sanity, ana.exhaustion) >= 0
    assert ana.hp <= ana.hp_max and ana.sanity <= ana.sanity_max


def test_the_summary_shows_attribute_damage(tables):
    state = State(party=(new_character(id="ana", name="Ana", attribute_damage={"sab": 2}),))
    play = Play(tables, state)
    (event,) = play("personagem", nome="Ana")
    assert event.text.endswith("dano de atributo: SAB 2).")


# ---------------------------------------------------------------- responder: one owner

def test_gm_answers_the_oldest_when_every_prompt_is_the_same_characters(tables):
    play = with_prompts(tables, prompt(1, "ana"), prompt(2, "ana"))
    play("responder", valor=20)
    assert [p.id for p in play.state.prompts] == [2]
    play("cancelar")
    assert play.state.prompts == ()


def test_the_answer_shows_the_die_and_the_modifier(tables):
    play = with_prompts(tables, prompt(1, "ana", modifier=1), prompt(2, "bia", modifier=-2),
                        prompt(3, "ana"))
    events = play("responder", pedido=1, valor=15)
    assert events[0].text == "O Mestre, por Ana, respondeu: 15 + 1 = 16 (pedido 1)."
    events = play("responder", actor="player:bia", valor=15)
    assert events[0].text == "Bia respondeu: 15 − 2 = 13 (pedido 2)."
    events = play("responder", actor="player:ana", valor=15)
    assert events[0].text == "Ana respondeu: 15 (pedido 3)."


def test_a_companion_roll_names_whose_test_it_is(tables):
    play = Play(tables, State(travel=Travel(weather_row=3, terrain="estepe",
                                            day_start_terrain="estepe")))
    play("personagem", nome="Ana", con=1)
    for faces in ((3, 6, 6, 5), (3, 6, 6, 5), (3, 6)):
        play("avancar", rng=FixedDice(*faces))
    events = play("responder", rng=FixedDice(14, 6, 5))  # passed: then the advance rolls
    rolled = [e for e in events if e.kind == "rolagem"][0]
    assert rolled.data["tabela"] == "Tabela B: Forçando o Avanço"
    assert rolled.text.startswith("Ana: teste de CON DC 12 (marcha forçada) — 1d20 = 14")
    assert "14 + 1 = 15" in events[1].text


def test_options_are_shown_with_their_labels(tables):
    play = with_prompts(tables, prompt(1, None, options=("sim", "nao"),
                                       labels=("sim", "não")))
    with pytest.raises(CommandRejected, match="use sim ou não"):
        play("responder", opcao="talvez")
    events = play("responder", opcao="não")
    assert events[0].text.endswith("respondeu: não (pedido 1).")
    assert ANSWERS == [(1, PromptAnswer(option="nao"))]


# ---------------------------------------------------------------- curar

ANKLE = "Tornozelo torcido: 1/2 do movimento até ser curado"


TICKS = "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar"


SICK = "Doença (roedores/pestes)"


INSANE = "Insanidade"  # Tabela J row 1: no cure in the rules, `curar Ana` leaves it


def hurt_party(tables, *ana_conditions: str) -> Play:
    party = (new_character(id="ana", name="Ana", conditions=ana_conditions),
             new_character(id="bia", name="Bia"))
    return Play(tables, State(party=party))


def test_curar_removes_only_what_lasts_until_cured(tables):
    play = hurt_party(tables, TICKS, INSANE, ANKLE, SICK)
    events = play("curar", personagem="ana")
    assert play.state.party[0].conditions == (INSANE,)  # ticks, ankle, disease: until cured
    assert [e.text for e in events] == [f"Cura — Ana não tem mais “{TICKS}”; “{ANKLE}”; "
                                        f"“{SICK}”.",
                                        "O grupo volta a avançar no passo normal."]
    assert events[0].visibility == "public" and events[0].data["curadas"] == [TICKS, ANKLE,
                                                                             SICK]


def test_curing_without_such_a_condition_is_refused_and_changes_nothing(tables):
    play = hurt_party(tables, INSANE)
    before = play.state
    with pytest.raises(CommandRejected) as refused:
        play("curar", personagem="Ana")
    assert str(refused.value) == (
        f"Ana não tem condição que dure até ser curada (condições: {INSANE}); para tirar "
        "outra, diga qual: 'curar Ana insanidade'")
    play("curar", personagem="Ana insanidade")  # the form suggested works as said
    assert play.state.party[0].conditions == ()
    play.state = before
    assert play.state == before
    with pytest.raises(CommandRejected, match=r"^Bia não tem condição que dure até ser curada "
                                              r"\(condições: nenhuma\)$"):
        play("curar", personagem="Bia")
    assert play.state == before


def test_curar_a_named_condition_removes_any_condition_by_a_piece_of_its_text(tables):
    play = hurt_party(tables, TICKS, ANKLE, SICK)
    play("curar", personagem="Ana", condicao="DOENCA")
    assert play.state.party[0].conditions == (TICKS, ANKLE)
    play("curar", personagem="Ana", condicao="tornozelo")
    assert play.state.party[0].conditions == (TICKS,)


def test_curar_an_unknown_condition_is_refused_listing_what_there_is(tables):
    play = hurt_party(tables, ANKLE)
    before = play.state
    with pytest.raises(CommandRejected) as refused:
        play("curar", personagem="Ana", condicao="perna quebrada")
    assert str(refused.value) == (
        f"Ana não tem nenhuma condição 'perna quebrada' (condições: {ANKLE}); diga "
        "'curar Ana' para tirar as que duram até a cura")
    assert play.state == before


def test_curar_needs_a_known_character_and_the_gm(tables):
    play = hurt_party(tables, ANKLE)
    before = play.state
    with pytest.raises(CommandRejected, match="personagem desconhecido: 'Caio'"):
        play("curar", personagem="Caio")
    with pytest.raises(CommandRejected, match="diga quem é curado: 'curar Ana'"):
        play("curar")
    with pytest.raises(CommandRejected, match="só o Mestre pode usar 'curar'"):
        play("curar", actor="player:ana", personagem="Ana")
    assert play.state == before


@settings(max_examples=40)
@given(st.lists(st.sampled_from([ANKLE, TICKS, SICK, INSANE]), unique=True))
def test_curar_never_touches_anything_but_the_conditions(tables, conditions):
    play = hurt_party(tables, *conditions)
    before = play.state
    try:
        play("curar", personagem="Ana")
    except CommandRejected:
        assert set(conditions) <= {INSANE} and play.state == before
        return
    ana = play.state.party[0]
    assert set(conditions) - {INSANE}
    assert ana.conditions == tuple(c for c in conditions if c == INSANE)
    assert ana == new_character(id="ana", name="Ana", conditions=ana.conditions)
    assert play.state.party[1] == before.party[1]


def _party(tables: Tables, **ana: int) -> Play:
    return Play(tables, State(party=(new_character(id="ana", name="Ana", **ana),
                                     new_character(id="bia", name="Bia"))))


def _panic(play: Play, *faces: int) -> list:
    play("panico", personagem="Ana")
    return play("responder", actor="player:ana", rng=FixedDice(*faces))


# ---------------------------------------------------------------- panic

def test_the_panic_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(PanicTest).dados == "1d20"
    assert tables.piece(PanicTable).linhas["8-10"].dano == 2
    assert tables.piece(AfflictionTable).linhas["1"].nome == "Fobia"


def test_a_panic_damage_changed_in_the_data_changes_the_damage(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "panico.yaml", "      atributo: sab\n      dano: 2",
                          "      atributo: sab\n      dano: 5")
    play = _party(rules, sanity=9)
    events = _panic(play, 20)  # fails; Sanidade 9 reads the 8-10 row (Impactado)
    hurt = [e for e in events if e.code == "panico.dano_atributo"]
    assert hurt and hurt[0].data == {"personagem": "ana", "atributo": "sab", "dano": 5}
    assert play.state.party[0].attribute_damage == {"sab": 5}


def test_an_affliction_name_changed_in_the_data_is_the_one_received(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "panico.yaml", 'nome: "Fobia"', 'nome: "Pavor"')
    play = _party(rules, sanity=3)
    events = _panic(play, 20, 1, 1, 1)  # fail, Tabela K 1, random effect 1 (Fúria), 1 round
    assert [a.name for a in play.state.party[0].afflictions] == ["Pavor"]
    assert any(e.code == "panico.aflicao" and e.data["aflicao"] == "Pavor" for e in events)


def test_the_panic_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/panico.yaml",
                          'passou: "{{ nome }} passou no',
                          'passou: "{{ nome }} resistiu ao')
    events = _panic(_party(rules, sanity=12), 4)
    said = [e for e in events if e.code == "panico.passou"]
    assert said and said[0].text.startswith("Ana resistiu ao teste de pânico")
    assert said[0].data == {"personagem": "ana", "sucesso": True}


def test_a_panic_refusal_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/panico.yaml",
                          "sem_personagem: \"diga de quem", "sem_personagem: \"diga já de quem")
    with pytest.raises(CommandRejected, match="diga já de quem") as refused:
        _party(rules)("panico")
    assert refused.value.code == "panico.sem_personagem"


def test_a_bad_panic_row_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/panico\.yaml: 'tabela_j\.linhas\.5-7"):
        changed_rules(tmp_path, "panico.yaml", '      nome: "Fúria"\n      duracao: "1d4"',
                      '      nome: "Fúria"\n      duracao: "várias"')


def test_a_panic_row_without_what_its_effect_needs_names_the_key(tmp_path: Path) -> None:
    from companion.engine.procedures.panic import PanicRow
    from companion.tables.rulebook import InvalidValue

    with pytest.raises(InvalidValue, match="condicao"):  # the piece's own check
        PanicRow(texto="Insanidade.", efeito="insanidade").validate()
    with pytest.raises(TableError, match=r"tables/panico\.yaml: 'tabela_j\.linhas\.1"):
        changed_rules(tmp_path, "panico.yaml", '      condicao: "Insanidade"', "")


# ---------------------------------------------------------------- the party sheet

def test_a_default_changed_in_the_data_is_the_new_character_sheet(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "personagem.yaml", "  sanidade: 10\n  exaustao: 0\n  comida: 3",
                          "  sanidade: 10\n  exaustao: 0\n  comida: 5")
    play = Play(rules)
    events = play("personagem", nome="Ana")
    assert play.state.party[0].food == 5 and play.state.party[0].sanity_max == 10
    assert events[0].code == "personagem.criado" and events[0].data == {"personagem": "ana"}
    assert "comida 5" in events[0].text


def test_a_limit_changed_in_the_data_changes_what_is_accepted(tables: Tables,
                                                              tmp_path: Path) -> None:
    Play(tables)("personagem", nome="Ana", nivel=15)
    rules = changed_rules(tmp_path, "personagem.yaml", "nivel: [1, 20]", "nivel: [1, 10]")
    with pytest.raises(CommandRejected, match="use de 1 a 10") as refused:
        Play(rules)("personagem", nome="Ana", nivel=15)
    assert refused.value.code == "personagem.fora_do_razoavel"


def test_the_party_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/personagem.yaml",
                          'criado: "Personagem criado: {{ ficha }}."',
                          'criado: "Entra no grupo: {{ ficha }}!"')
    events = Play(rules)("personagem", nome="Ana")
    assert events[0].text.startswith("Entra no grupo: Ana (nível 1") and \
        events[0].text.endswith("!")


def test_a_relative_change_says_before_and_after(play: Play) -> None:
    play("personagem", nome="Ana", pv=8)
    events = play("personagem", nome="Ana", pv=-20, relativo=True)
    assert events[0].code == "personagem.mudou_relativo"
    assert events[0].data == {"personagem": "ana", "campos": {"pv": 0}, "antes": {"pv": 8},
                              "relativo": True}
    assert events[0].text == "Ana: PV 8 → 0 (não fica abaixo de 0)."


def test_a_bad_limit_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/personagem\.yaml: 'limites_personagem\.nivel' "
                                         r"deveria ser \[mínimo, máximo\]"):
        changed_rules(tmp_path, "personagem.yaml", "nivel: [1, 20]", "nivel: [20, 1]")


# ---------------------------------------------------------------- conditions

def _hurt(tables: Tables) -> Play:
    return Play(tables, State(party=(new_character(id="ana", name="Ana", conditions=(ANKLE,)),)))


def test_the_condition_piece_is_typed(tables: Tables) -> None:
    from companion.engine.procedures.conditions import ConditionRules, TravelRound

    rules = tables.piece(ConditionRules)
    assert rules.efeitos_de_condicao["meio_movimento"].fator_avanco == 0.5
    assert tables.piece(TravelRound).minutos == 240  # the one piece of `rodada` (travel's too)


def test_a_slowing_factor_changed_in_the_data_changes_the_pace(tables: Tables,
                                                               tmp_path: Path) -> None:
    from companion.engine.procedures.conditions import advance_factor

    rules = changed_rules(tmp_path, "viagem.yaml", "fator_avanco: 0.5", "fator_avanco: 0.25")
    assert advance_factor(_hurt(tables).state, tables).factor == 0.5
    assert advance_factor(_hurt(rules).state, rules).factor == 0.25


def test_a_round_harm_changed_in_the_data_changes_the_damage(tmp_path: Path) -> None:
    import random

    from companion.engine.model import Command
    from companion.engine.procedures.conditions import round_harm
    from companion.engine.scratch import Scratch

    rules = changed_rules(tmp_path, "viagem.yaml", "dano_por_rodada: 1 ", "dano_por_rodada: 3 ")
    tick = "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar"
    state = State(party=(new_character(id="ana", name="Ana", conditions=(tick,)),))
    scratch = Scratch(rng=random.Random(1), tables=rules, command=Command("avancar"))
    state = round_harm(state, scratch, 1)
    assert state.party[0].hp == 5
    assert scratch.events[0].code == "condicoes.dano_por_rodada"
    assert scratch.events[0].kind == "aviso"
    assert scratch.events[0].data == {"personagem": "ana", "dano": 3, "condicao": tick}


def test_the_cure_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/condicoes.yaml",
                          'passo_normal: "O grupo volta a avançar no passo normal."',
                          'passo_normal: "Passo normal outra vez."')
    events = _hurt(rules)("curar", personagem="Ana")
    assert [e.code for e in events] == ["condicoes.curado", "condicoes.passo_normal"]
    assert events[0].data == {"personagem": "ana", "curadas": [ANKLE]}
    assert events[1].text == "Passo normal outra vez."


def test_a_cure_refusal_has_its_code(play: Play) -> None:
    play("personagem", nome="Ana")
    with pytest.raises(CommandRejected, match=r"^Ana não tem condição que dure até ser curada "
                                              r"\(condições: nenhuma\)$") as refused:
        play("curar", personagem="Ana")
    assert refused.value.code == "condicoes.nada_ate_a_cura"


def test_a_bad_condition_effect_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: "
                                         r"'efeitos_de_condicao\.meio_movimento\.fator_avanco' "
                                         r"deveria ser um número a partir de 0"):
        changed_rules(tmp_path, "viagem.yaml", "fator_avanco: 0.5", "fator_avanco: -1")


# ---------------------------------------------------------------- rest

def _camp(tables: Tables, *party: Character, safe: bool = True) -> Play:
    from tests.engine.travel_helpers import start

    return start(Play(tables), party=party, terrain="floresta", day_start_terrain="estepe",
                 camp_safe=safe)


def _fed(**values: int) -> Character:
    return new_character(id="ana", name="Ana", food=3, water=3, **values)


def test_the_rest_pieces_are_typed(tables: Tables) -> None:
    from companion.engine.procedures.rest import HouseRest, RestRules

    assert tables.piece(RestRules).recupera.sanidade == 1
    assert tables.piece(HouseRest).racoes_perdidas == "Rações perdidas"


def test_a_rest_recovery_changed_in_the_data_changes_the_benefits(tmp_path: Path) -> None:
    from tests.engine.travel_helpers import QUIET, run

    rules = changed_rules(tmp_path, "viagem.yaml", "recupera: {atributo: 1, sanidade: 1,",
                          "recupera: {atributo: 1, sanidade: 3,")
    play = _camp(rules, _fed(sanity=2, sanity_max=10))
    events = run(play, "descansar", *QUIET, 1)
    assert play.state.party[0].sanity == 5
    said = [e for e in events if e.code == "descanso.descansa"]
    assert said and said[0].data["personagem"] == "ana" and "sanidade 5" in said[0].text


def test_the_interruption_dc_changed_in_the_data_is_the_prompt_dc(tmp_path: Path) -> None:
    import random

    from companion.engine.model import Command
    from companion.engine.procedures.rest import interruption
    from companion.engine.scratch import Scratch

    rules = changed_rules(tmp_path, "viagem.yaml", "interrupcao_dc: 12", "interrupcao_dc: 15")
    scratch = Scratch(rng=random.Random(1), tables=rules, command=Command("descansar"))
    assert interruption(scratch) == (15, "O descanso foi interrompido.", False)


def test_the_lost_rations_roll_is_named_by_the_data(tmp_path: Path) -> None:
    from tests.engine.travel_helpers import QUIET, run

    rules = changed_rules(tmp_path, "casa.yaml", 'racoes_perdidas: "Rações perdidas"',
                          'racoes_perdidas: "Despensa saqueada"')
    play = _camp(rules, _fed(), safe=False)
    events = run(play, "descansar", *QUIET, 6, 1, 1)
    (lost,) = [e for e in events if e.data.get("tabela") == "Despensa saqueada"]
    assert lost.data["resultado"] == "1 ração devorada"
    assert any(e.code == "descanso.racoes_perdidas" and e.text == "O grupo perde 1 ração."
               for e in events)


def test_the_rest_texts_come_from_narracao(tmp_path: Path) -> None:
    from tests.engine.travel_helpers import QUIET, run

    rules = changed_rules(tmp_path, "narracao/descanso.yaml",
                          'seguro: "O acampamento está seguro: nenhum percalço durante o descanso."',
                          'seguro: "Noite tranquila."')
    events = run(_camp(rules, _fed()), "descansar", *QUIET, 1)
    (safe,) = [e for e in events if e.code == "descanso.seguro"]
    assert safe.text == "Noite tranquila." and safe.data == {}


def test_the_watch_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/descanso.yaml",
                          'vigia_escolhido: "Vigia: {{ nome }} (até o Mestre escolher outro)."',
                          'vigia_escolhido: "{{ nome }} fica de guarda."')
    events = _camp(rules, _fed())("vigia", personagem="Ana")
    assert events[0].text == "Ana fica de guarda." and events[0].data == {"vigia": "ana"}


def test_a_bad_hit_die_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: 'descanso\.dado_de_vida' deveria "
                                         r"ser uma expressão de dados"):
        changed_rules(tmp_path, "casa.yaml", "dado_de_vida: d8 ", "dado_de_vida: oito ")


# ---------------------------------------------------------------- the sheet's defaults (party.py)

SHEET = ("level", "hp", "hp_max", "sanity", "sanity_max", "exhaustion", "food", "water", "ammo")


def test_the_sheets_numbers_have_no_defaults_in_code() -> None:
    """personagem.yaml `personagem_padrao` is the one source of a new character's numbers."""
    defaults = {item.name for item in fields(Character)
                if item.default is not MISSING or item.default_factory is not MISSING}
    assert defaults.isdisjoint(SHEET)


def test_a_new_character_has_the_sheet_of_the_data(tables: Tables, tmp_path: Path) -> None:
    made = tables.piece(CharacterDefaults).character("ana", "Ana")
    assert [getattr(made, name) for name in SHEET] == [1, 8, 8, 10, 10, 0, 3, 3, 0]
    rules = changed_rules(tmp_path, "personagem.yaml", "  comida: 3\n", "  comida: 5\n")
    assert rules.piece(CharacterDefaults).character("ana", "Ana").food == 5
    play = Play(rules)
    play("personagem", nome="Bia")
    assert play.state.party[0].food == 5


def test_the_sheet_labels_are_data(tables: Tables, tmp_path: Path) -> None:
    play = Play(tables)
    play("personagem", nome="Ana")
    assert "PV máx. 12" in play("personagem", nome="Ana", pv_max=12)[0].text
    rules = changed_rules(tmp_path, "personagem.yaml", 'pv_max: "PV máx."',
                          'pv_max: "PV máximo"')
    play = Play(rules)
    play("personagem", nome="Ana")
    assert "PV máximo 12" in play("personagem", nome="Ana", pv_max=12)[0].text
    with pytest.raises(CommandRejected, match="PV máximo"):
        play("personagem", nome="Ana", pv=14, pv_max=10)


def test_how_a_maximum_is_said_is_data(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "personagem.yaml", 'sanidade: "sanidade máxima"',
                          'sanidade: "sanidade de teto"')
    play = Play(rules)
    play("personagem", nome="Ana", sanidade=10)
    with pytest.raises(CommandRejected, match="sanidade de teto"):
        play("personagem", nome="Ana", sanidade=12, sanidade_max=11)


def test_a_field_without_a_label_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/personagem\.yaml: 'rotulos\.campos' deveria "
                                         r"ser um texto para cada campo \(falta municao\)"):
        changed_rules(tmp_path, "personagem.yaml", '    municao: "munição"\n', "")
