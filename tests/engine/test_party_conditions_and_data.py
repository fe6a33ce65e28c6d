"""The party's changes, answers and conditions (`curar`), and the party's, panic's, conditions' and
rest's rules, texts and character sheet as data (the party commands: test_party.py)."""
from __future__ import annotations

from dataclasses import MISSING, fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.handlers import PromptAnswer
from companion.engine.model import Character, State, Travel
from companion.engine.procedures.panic import AfflictionTable, PanicTable, PanicTest
from companion.engine.procedures.party import CharacterDefaults
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character
from tests.engine.party_helpers import (  # noqa: F401
    ANSWERS,
    _clear_answers,
    prompt,
    with_prompts,
    _ana,
    ANKLE,
    TICKS,
    SICK,
    INSANE,
    hurt_party,
    _party,
    _panic,
    _hurt,
    _camp,
    _fed,
    SHEET,
)


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
