"""Conditions as typed rules (issue 8): what a row says a condition does (ConditionNote) and a
condition that ends by itself (TimedCondition) come from the typed pieces, so changing them in
a copy of tables/ changes behaviour, and a mistake is refused at load with file and key."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine.model import Command, State
from companion.engine.procedures.conditions import (
    advance_factor,
    condition_note,
    round_harm,
)
from companion.engine.scratch import Scratch
from companion.tables.errors import TableError
from companion.tables.files import Tables
from tests.engine.travel_helpers import QUIET, camp, fed, run
from tests.play_helpers import Play
from tests.rules_helpers import changed_rules, new_character

ANKLE = "Tornozelo torcido: 1/2 do movimento até ser curado"
DISEASE = "Doença (roedores/pestes)"


def _with(tables: Tables, condition: str) -> State:
    return State(party=(new_character(id="ana", name="Ana", conditions=(condition,)),))


def test_the_notes_come_from_the_typed_rows(tables: Tables) -> None:
    ankle = condition_note(tables, ANKLE)
    assert ankle is not None and ankle.efeito == "meio_movimento" and ankle.ate_ser_curado
    assert ankle.how_said(tables.narration) == "com o tornozelo torcido"
    disease = condition_note(tables, DISEASE)  # Tabela H row 10: a rest mishap
    assert disease is not None and disease.como_fica == "doente"
    assert condition_note(tables, "Insanidade") is None  # Tabela J says nothing of what it does


def test_a_round_harm_added_to_a_rest_mishap_row_deals_it(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", '      como_fica: "doente"\n',
                          '      como_fica: "doente"\n      dano_por_rodada: 2\n')
    scratch = Scratch(rng=random.Random(1), tables=rules, command=Command("avancar"))
    state = round_harm(_with(rules, DISEASE), scratch, 1)
    assert state.party[0].hp == 6
    assert scratch.events[0].data == {"personagem": "ana", "dano": 2, "condicao": DISEASE}


def test_an_effect_changed_in_the_data_changes_the_pace(tables: Tables, tmp_path: Path) -> None:
    changed_rules(tmp_path, "viagem.yaml", "efeitos_de_condicao:\n",
                  "efeitos_de_condicao:\n  passo_lento: {nome: passo lento, fator_avanco: 0.25,"
                  " modos: [andando]}\n")
    rules = changed_rules(tmp_path, "viagem.yaml", "efeito: meio_movimento ",
                          "efeito: passo_lento ")
    assert advance_factor(_with(tables, ANKLE), tables).factor == 0.5
    slowed = advance_factor(_with(rules, ANKLE), rules)
    assert (slowed.factor, slowed.effect) == (0.25, "passo lento")


def test_rounds_changed_in_the_data_change_how_long_a_timed_condition_lasts(
        tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "rodadas: 2, desvantagem: true}",
                          "rodadas: 3, desvantagem: true}")
    play = camp(Play(rules), fed(new_character(id="ana", name="Ana")), safe=False)
    events = run(play, "descansar", *QUIET, 7, 5)  # Tabela H row 7: mosquitoes
    assert any("Mosquitos: DESV em todas as rolagens nas próximas 3 rodadas" in e.text
               for e in events)
    (bitten,) = play.state.party[0].lasting
    assert bitten.until - bitten.since == 3 * 240


@pytest.mark.parametrize("old, new, message", [
    ("rodadas: 2, desvantagem: true}", "rodadas: 2, dias: 1, desvantagem: true}",
     r"^tables/viagem\.yaml: 'tabela_h\.linhas\.7\.condicao_temporaria\.dias' deveria ser "
     r"omitido quando há rodadas"),
    ("dias: 1, desvantagem: true}", "desvantagem: true}",
     r"^tables/viagem\.yaml: 'tabela_f\.linhas\.6\.condicao_temporaria\.rodadas' deveria ser "
     r"um número inteiro de 1 para cima, ou diga dias"),
    ("rodadas: 2, desvantagem: true}", "rodadas: 0, desvantagem: true}",
     r"'tabela_h\.linhas\.7\.condicao_temporaria\.rodadas' deveria ser um número inteiro de 1"),
    ("efeito: meio_movimento ", "efeito: meio_passo ",
     r"^tables/viagem\.yaml: 'tabela_f\.linhas\.8\.efeito' deveria ser um destes: "
     r"meio_movimento \(viagem\.yaml efeitos_de_condicao\)$"),
    ('      como_fica: "doente"\n', '      como_fica: "doente"\n      efeito: lento\n',
     r"^tables/viagem\.yaml: 'tabela_h\.linhas\.10\.efeito' deveria ser um destes: "),
])
def test_a_bad_condition_is_refused_at_load_with_file_and_key(tmp_path: Path, old: str,
                                                              new: str, message: str) -> None:
    with pytest.raises(TableError, match=message):
        changed_rules(tmp_path, "viagem.yaml", old, new)


def test_a_condition_in_another_file_is_checked_too(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"^tables/masmorra\.yaml: 'tabela_b\.linhas\.8\."
                                         r"condicao_temporaria\.dias' deveria ser omitido"):
        changed_rules(tmp_path, "masmorra.yaml", "      encontro: true\n",
                      "      encontro: true\n      condicao_temporaria: {texto: Frio, rodadas: 1,"
                      " dias: 1}\n")


def test_a_condition_noted_by_a_dungeon_row_has_its_effect(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "      encontro: true\n",
                          "      encontro: true\n      condicao: Mordida\n"
                          "      dano_por_rodada: 1\n      ate_ser_curado: true\n")
    note = condition_note(rules, "Mordida")
    assert note is not None and note.dano_por_rodada == 1 and note.ate_ser_curado
    assert note.how_said(rules.narration) == "com mordida"


def test_what_a_condition_does_needs_the_condition(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"^tables/viagem\.yaml: 'tabela_f\.linhas\.10\."
                                         r"condicao' deveria ser o texto da condição"):
        changed_rules(tmp_path, "viagem.yaml", "      encontro: true\n",
                      "      encontro: true\n      ate_ser_curado: true\n")


def test_a_round_harm_below_one_is_refused_at_load(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'tabela_f\.linhas\.7\."
                                         r"dano_por_rodada' deveria ser um número inteiro de 1"):
        changed_rules(tmp_path, "viagem.yaml", "      dano_por_rodada: 1 ",
                      "      dano_por_rodada: 0 ")


def test_one_condition_described_two_ways_is_refused_at_load(tmp_path: Path) -> None:
    """Row 7 says the ticks deal 1 a round; a rest mishap that notes the same condition with
    another effect would make which one counts depend on the files' order."""
    with pytest.raises(TableError, match=r"a condição 'Doença \(roedores/pestes\)' é descrita "
                                         r"de dois jeitos"):
        changed_rules(tmp_path, "viagem.yaml",
                      '      condicao: "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar"',
                      '      condicao: "Doença (roedores/pestes)"')
