"""Weather reads tables/clima.yaml through its typed piece and says its texts from
tables/narracao/clima.yaml: a change in the data changes what happens and what is said."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import Command, apply, initial_state
from companion.engine.model import State
from companion.engine.procedures.weather import WeatherRules
from companion.tables.errors import TableError
from companion.tables.files import Tables
from tests.play_helpers import Play
from tests.rules_helpers import changed_rules


def _drift_once(tables: Tables, seed: int = 1) -> tuple[int, int]:
    """The row before and after one travel round's drift (an 'acampar' round)."""
    state, _ = apply(initial_state(tables), Command("clima"), random.Random(f"{seed}:a"), tables)
    before = state.travel.weather_row
    state, events = apply(state, Command("acampar"), random.Random(f"{seed}:b"), tables)
    return before, state.travel.weather_row


def test_the_piece_is_typed(tables: Tables) -> None:
    rules = tables.piece(WeatherRules)
    assert rules.variacao.linhas[1].passo == -1 and rules.estacoes["inverno"].nome == "Inverno"


def test_a_drift_step_changed_in_the_data_changes_the_drift(tables: Tables,
                                                             tmp_path: Path) -> None:
    moved = changed_rules(tmp_path, "clima.yaml", '"3-6": {texto: "Sem mudança", passo: 0}',
                          '"3-6": {texto: "Sem mudança", passo: 0}'.replace("passo: 0",
                                                                             "passo: 1"))
    seeds = [s for s in range(40) if _drift_once(tables, s)[0] == _drift_once(tables, s)[1]]
    assert seeds, "nenhuma semente sem mudança de clima"
    changed = [s for s in seeds if _drift_once(moved, s)[1] != _drift_once(moved, s)[0]]
    assert changed  # 3–6 now moves the row up (unless already at the top)


def test_a_season_column_changed_in_the_data_is_the_weather_rolled(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "clima.yaml", '1: "Frio, chuvoso e ventoso"',
                          '1: "Garoa de prata"')
    for seed in range(30):
        state, events = apply(initial_state(rules), Command("clima"),
                              random.Random(f"{seed}:1"), rules)
        if state.travel.weather_row == 1:
            assert events[0].data["resultado"] == "Garoa de prata"
            return
    pytest.fail("nenhuma semente rolou a linha 1")


def test_the_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/clima.yaml", 'clima: "Clima: {{ clima }}."',
                          'clima: "O tempo: {{ clima }}!"')
    _, events = apply(initial_state(rules), Command("acampar"), random.Random("3:1"), rules)
    said = [e for e in events if e.code == "clima.clima"]
    assert said and said[0].text.startswith("O tempo: ") and said[0].text.endswith("!")


def test_a_bad_dice_expression_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/clima\.yaml: 'variacao\.dados' deveria ser "
                                         r"uma expressão de dados"):
        changed_rules(tmp_path, "clima.yaml", "  nome: Clima\n  dados: 1d6",
                      "  nome: Clima\n  dados: muitos")


def test_weather_rolled_again_mid_session_is_not_the_initial_weather(tables: Tables) -> None:
    play = Play(tables, State())
    rolled = [e for e in play("clima") if e.kind == "rolagem"]
    assert rolled and all(e.data["tabela"] != "Clima inicial" for e in rolled)
