"""The last result's ranking (companion.history.outcome, tables/paginas.yaml `ultimo_resultado`):
the server sends it to the GM page and `repetir` repeats it; the news (an encounter that
arrives, the light going out, a result table's row) come before the narration."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.history.outcome import CODE, outcome, ranked
from companion.rules.pages import PageTexts
from companion.tables.errors import TableError
from companion.tables.files import Tables
from tests.rules_helpers import changed_rules


def ev(seq: int, kind: str, text: str, data: dict | None = None, code: str | None = None
       ) -> dict[str, Any]:
    event = {"seq": seq, "kind": kind, "text": text, "data": data or {}, "visibility": "public"}
    return {**event, CODE: code} if code else event


def test_preamble_goes_and_a_table_row_leads(tables: Tables) -> None:
    rules = tables.piece(PageTexts).ultimo_resultado
    events = [
        ev(1, "relato", "Dia 1, rodada 1 de 6.", {"dia": 1, "rodada": 1}),
        ev(2, "rolagem", "Clima", {"tabela": "Clima", "total": 3, "resultado": "Sem mudança"}),
        ev(3, "relato", "Clima: Ameno.", {"clima": "Ameno"}),
        ev(4, "rolagem", "E", {"tabela": "Encontro aleatório", "total": 4, "chance": "1:6"}),
        ev(5, "rolagem", "H", {"tabela": "Tabela H: Percalços", "total": 8, "resultado": "Lenha"}),
        ev(6, "relato", "Teste de pânico para Ana."),
        ev(7, "aviso", "Um dia sem descansar."),
        ev(8, "relato", "Ana descansa: PV 8 → 8."),
        ev(9, "estado", "Dia 1"),
    ]
    best = ranked(events, rules)
    assert [e["seq"] for e in best.lines] == [5, 7, 8] and best.total == 8
    assert [e["seq"] for e in outcome(events, rules)] == [5, 7, 8]  # log order
    hit = [ev(1, "rolagem", "E", {"tabela": "Encontro aleatório", "total": 1, "chance": "1:6"})]
    only = [ev(1, "relato", "Clima: Ameno.", {"clima": "Ameno"})]
    assert [e["seq"] for e in outcome(hit, rules)] == [1]
    assert [e["seq"] for e in outcome(only, rules)] == [1]


def test_explorar_shows_the_tabela_d_row_before_its_narration(tables: Tables) -> None:
    rules = tables.piece(PageTexts).ultimo_resultado
    events = [
        ev(3, "relato", "Dia 1, rodada 1 de 6.", {"dia": 1, "rodada": 1}),
        ev(4, "rolagem", "Clima — 1d6 = 1", {"tabela": "Clima", "total": 1, "resultado": "x"}),
        ev(5, "relato", "Clima: Quente e chuvoso.", {"clima": "Quente e chuvoso"}),
        ev(6, "rolagem", "Encontro aleatório — 1d6 = 6: Nenhum encontro",
           {"tabela": "Encontro aleatório", "total": 6, "chance": "1:6",
            "resultado": "Nenhum encontro"}),
        ev(7, "relato", "O grupo explora o hex atual, procurando PdIs e rastros.",
           code="viagem.explora"),
        ev(8, "rolagem", "Tabela D: Eventos — 1d8 = 1: Ponto de Interesse",
           {"tabela": "Tabela D: Eventos", "total": 1, "resultado": "Ponto de Interesse"}),
    ]
    assert [e["seq"] for e in ranked(events, rules, 1).lines] == [8]


def test_dormir_shows_the_arrival_before_the_dark(tables: Tables) -> None:
    rules = tables.piece(PageTexts).ultimo_resultado
    events = [
        ev(8, "relato", "O grupo dorme 8 horas na masmorra.", {"horas": 8}),
        ev(9, "rolagem", "Tabela B", {"tabela": "Tabela B: Percalços da Dungeon", "total": 3,
                                      "resultado": "Nada"}),
        ev(10, "aviso", "A tocha se apagou.", {"luz": "tocha"}, code="masmorra.luz_apagou"),
        ev(11, "aviso", "Nenhuma luz acesa: escuridão total.", code="masmorra.escuridao_total"),
        ev(12, "rolagem", "Tabela C", {"tabela": "Tabela C: Descansando na Dungeon", "total": 5,
                                       "resultado": "Nenhum encontro.", "chance": "3:6"}),
        ev(14, "aviso", "Encontro aleatório na hora 3 do sono.", {"hora": 3},
           code="masmorra.encontro_no_sono"),
        ev(17, "aviso", "Encontro! Os monstros chegam na sala onde os personagens estão.",
           code="masmorra.encontro"),
        ev(21, "aviso", "Os monstros chegam à sala do grupo na hora 3…", {"hora": 3},
           code="masmorra.acordados"),
    ]
    best = ranked(events, rules)
    assert [e["seq"] for e in best.lines] == [17, 21, 14]
    assert 12 not in [e["seq"] for e in ranked(events, rules, 8).lines[:6]]  # a missed check


def test_a_news_code_must_exist(tmp_path: Path) -> None:
    """A news code that is no narration code is refused when the rules load (a typo would
    silently never rank)."""
    with pytest.raises(TableError, match="masmorra.chegada_x"):
        changed_rules(tmp_path, "paginas.yaml", "masmorra.acordados]", "masmorra.chegada_x]")


def test_a_region_die_that_never_gives_some_rows(tables: Tables) -> None:
    """The Regras screen's warning (companion.rules.form.warnings): accepted, but said."""
    from companion.engine.procedures.encounters import RegionTable
    from companion.rules.form import warnings

    six = {str(n): "x" for n in range(1, 7)}
    assert RegionTable(dados="1d4", linhas=six).rows_out_of_reach() == ["5", "6"]
    assert RegionTable(dados="1d6", linhas=six).rows_out_of_reach() == []
    assert RegionTable(dados="2d6", linhas={"1": "a", "2-3": "b", "12+": "c"}
                       ).rows_out_of_reach() == ["1"]
    patch = {"encontros": {"regioes": {"sombria": {"regiao": "Floresta Sombria",
                                                   "dados": "1d4", "linhas": six}}}}
    assert warnings(patch, tables) == ["Floresta Sombria: com 1d4, as linhas 5 e 6 nunca saem."]
    assert warnings({"casa": {"luz": {}}}, tables) == []
