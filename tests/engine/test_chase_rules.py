"""The chase reads tables/perseguicao.yaml through its typed piece and says its texts from
tables/narracao/perseguicao.yaml: a change in the data changes what happens and what is said."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.model import Chase, State
from companion.engine.procedures.chase import ChaseRules, distance_of
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

THRESHOLDS = "distancia_pelo_placar: {menor_ate: -1, maior_desde: 1}"


def running(tables: Tables, score: int = 0, **chase: object) -> Play:
    return Play(tables, State(chase=Chase(phase="ativa", score=score,  # type: ignore[arg-type]
                                          **chase)))


def said(events: list, code: str) -> list:
    return [e for e in events if e.code == code]


def test_the_piece_is_typed(tables: Tables) -> None:
    rules = tables.piece(ChaseRules)
    assert rules.distancias.menor.chance == "sempre" and rules.distancias.neutra.chance == 4
    assert rules.distancia_pelo_placar.maior_desde == 1 and rules.teste_de_fuga.atributo == "des"
    assert distance_of(Chase(phase="ativa", score=1), rules.distancia_pelo_placar) == "maior"


def test_the_score_thresholds_in_the_data_decide_the_distance(tables: Tables,
                                                               tmp_path: Path) -> None:
    wider = changed_rules(tmp_path, "perseguicao.yaml", THRESHOLDS,
                          THRESHOLDS.replace("maior_desde: 1", "maior_desde: 2"))
    for rules, distance, name in ((tables, "maior", "Maior"), (wider, "neutra", "Neutra")):
        play = running(rules)
        (turn,) = said(play("fuga", resultado="sucesso"), "perseguicao.turno")
        assert turn.data == {"distancia": distance, "placar": 1}
        assert turn.text == f"Turno de perseguição 1: distância {name} (placar +1)."
        # the phones' view reads the same thresholds as the chase's events
        shown = view_state(play.state, "public", rules)["perseguicao"]
        assert (shown["distancia"], shown["distancia_nome"]) == (distance, name)


def test_the_points_to_end_come_from_the_data(tables: Tables, tmp_path: Path) -> None:
    quick = changed_rules(tmp_path, "perseguicao.yaml", "pontos_para_fim: 2", "pontos_para_fim: 1")
    assert not said(running(tables)("fuga", resultado="sucesso"), "perseguicao.escaparam")
    play = running(quick)
    (end,) = said(play("fuga", resultado="sucesso"), "perseguicao.escaparam")
    assert end.data["fim"] == "escaparam" and play.state.chase is None
    assert end.text == tables.piece(ChaseRules).fim_escaparam


def test_the_range_chance_comes_from_the_data(tables: Tables, tmp_path: Path) -> None:
    always = changed_rules(tmp_path, "perseguicao.yaml",
                           'linha: "4 em 6 de chance padrão para o alcance de 18 metros.", '
                           'chance: 4', 'linha: "Sempre alcança.", chance: sempre')
    events = running(tables)("distancia", rng=FixedDice(4))
    assert [e.data["chance"] for e in events if e.kind == "rolagem"] == ["4:6"]
    events = running(always)("distancia")
    (shown,) = said(events, "perseguicao.alcance_sempre")
    assert not [e for e in events if e.kind == "rolagem"]
    assert shown.text == "Ataques, Arremessos e Magias — distância Neutra: Sempre alcança."


def test_the_escape_dc_limits_come_from_the_data(tables: Tables, tmp_path: Path) -> None:
    narrow = changed_rules(tmp_path, "perseguicao.yaml", "dc_maxima: 40", "dc_maxima: 20")
    party = (new_character(id="ana", name="Ana", mods={"des": 1}),)
    Play(tables, State(chase=Chase(phase="ativa"), party=party))("fuga", dc=30)
    with pytest.raises(CommandRejected, match="diga um número de 1 a 20") as refused:
        Play(narrow, State(chase=Chase(phase="ativa"), party=party))("fuga", dc=30)
    assert refused.value.code == "perseguicao.dificuldade_invalida"


def test_the_chase_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                          'turno: "Turno de perseguição {{ turno }}: distância',
                          'turno: "Rodada {{ turno }} da fuga: distância')
    (turn,) = said(running(rules)("fuga", resultado="falha"), "perseguicao.turno")
    assert turn.text == "Rodada 1 da fuga: distância Menor (placar -1)."


def test_the_prompt_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                          'pedido_teste: "{{ nome }}: teste de fuga — role',
                          'pedido_teste: "{{ nome }}, fuja! Role')
    party = (new_character(id="ana", name="Ana", mods={"des": 1}),)
    play = Play(rules, State(chase=Chase(phase="ativa"), party=party))
    play("fuga", dc=12, personagem="Ana")
    (prompt,) = play.state.prompts
    assert prompt.text == "Ana, fuja! Role 1d20+1 (DES), dificuldade 12."


def test_a_refusal_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                          "ainda_nao_comecou: \"a perseguição ainda não começou:",
                          "ainda_nao_comecou: \"calma, a fuga nem começou:")
    play = Play(rules, State(chase=Chase(phase="declarada")))
    with pytest.raises(CommandRejected) as refused:
        play("distancia")
    assert refused.value.code == "perseguicao.ainda_nao_comecou"
    assert refused.value.message.startswith("calma, a fuga nem começou: primeiro o teste")


def test_a_range_chance_outside_six_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/perseguicao\.yaml: 'distancias\.neutra\.chance'"
                                         r" deveria ser uma chance em 6"):
        changed_rules(tmp_path, "perseguicao.yaml",
                      'linha: "4 em 6 de chance padrão para o alcance de 18 metros.", chance: 4',
                      'linha: "4 em 6 de chance padrão para o alcance de 18 metros.", chance: 9')


def test_crossed_thresholds_name_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/perseguicao\.yaml: "
                                         r"'distancia_pelo_placar\.maior_desde' deveria ser"):
        changed_rules(tmp_path, "perseguicao.yaml", THRESHOLDS,
                      THRESHOLDS.replace("maior_desde: 1", "maior_desde: -2"))
