"""The last result's ranking (companion.history.outcome): each event's weight as news comes
from the procedure that emitted it (data `peso`, companion.tables.weights); the headline is the
heaviest event, the later one on a tie, and the others follow heaviest first. An event stored
before weights is weighed by its narration code (tables/pesos.yaml) or its kind."""
from __future__ import annotations

from typing import Any

from companion.history.outcome import CODE, headline, outcome, ranked
from companion.rules.pages import PageTexts
from companion.tables.files import Tables
from companion.tables.weights import Weight, default_weight, weight_of


def ev(seq: int, kind: str, text: str, weight: Weight | None = None, code: str | None = None,
       **data: Any) -> dict[str, Any]:
    if weight is not None:
        data = {**data, "peso": int(weight)}
    event = {"seq": seq, "kind": kind, "text": text, "data": data, "visibility": "public"}
    return {**event, CODE: code} if code else event


def test_the_heaviest_leads_and_the_later_wins_a_tie(tables: Tables) -> None:
    rules = tables.piece(PageTexts).ultimo_resultado
    events = [
        ev(1, "relato", "Dia 1, rodada 1 de 6.", Weight.ROUTINE),
        ev(2, "rolagem", "Clima", Weight.ROW),
        ev(3, "aviso", "Ana recebe 1 ponto de exaustão.", Weight.HARM),
        ev(4, "pedido", "Ana: teste de CON", Weight.PROMPT),
        ev(5, "rolagem", "Tabela D", Weight.ROW),
        ev(6, "relato", "O grupo avança.", Weight.ROUTINE),
        ev(7, "estado", "Dia 1", Weight.FRAMING),
    ]
    best = ranked(events, rules)
    assert [e["seq"] for e in best.lines] == [3, 5, 2] and best.total == 6
    assert headline(events, rules)["seq"] == 3
    assert [e["seq"] for e in outcome(events, rules, limit=1)] == [3]
    assert headline([ev(1, "estado", "x", Weight.FRAMING)], rules) is None


def test_an_arrival_beats_harm_and_darkness(tables: Tables) -> None:
    rules = tables.piece(PageTexts).ultimo_resultado
    events = [ev(1, "aviso", "A tocha se apagou.", Weight.DARKNESS),
              ev(2, "aviso", "Todos recebem 1 de exaustão.", Weight.HARM),
              ev(3, "relato", "Aparecem 3 goblins.", Weight.ARRIVAL),
              ev(4, "relato", "Turno 7.", Weight.ROUTINE)]
    assert headline(events, rules)["seq"] == 3
    assert [e["seq"] for e in ranked(events, rules).lines] == [3, 2, 1]


def test_an_event_stored_before_weights_is_weighed_by_its_code_or_kind(tables: Tables) -> None:
    """Old campaign files keep opening: an event without `peso` still has a weight."""
    old_dark = ev(1, "aviso", "A tocha se apagou.", code="masmorra.luz_apagou", luz="tocha")
    assert weight_of(old_dark, "masmorra.luz_apagou", tables) == Weight.DARKNESS
    assert weight_of(ev(2, "pedido", "p")) == Weight.PROMPT
    assert weight_of(ev(3, "rolagem", "r", tabela="Tabela D", resultado="Nada")) == Weight.ROW
    assert weight_of(ev(4, "rolagem", "c", tabela="E", resultado="Não", chance="2:6")) \
        == Weight.ROUTINE
    assert weight_of(ev(5, "relato", "x", code="viagem.avanca"), tables=tables) \
        == Weight.ROUTINE
    assert default_weight("estado", {}) == Weight.FRAMING
    rules = tables.piece(PageTexts).ultimo_resultado
    older = [ev(1, "relato", "Turno 7.", code="masmorra.turno"),
             {**old_dark, "seq": 2}, ev(3, "relato", "Nada mais.")]
    assert headline(older, rules, tables)["seq"] == 2


def test_every_code_in_the_table_of_old_weights_exists(tables: Tables) -> None:
    from companion.tables.weights import stored_weights
    assert set(stored_weights(tables)) <= set(tables.narration.codes)


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
