"""One projection per viewer (companion.history.projection), on its own: numbers, prompt ids, undo
numbers and texts for each viewer, from stored events alone (no server, no regex)."""
from __future__ import annotations

from typing import Any

import pytest

from companion.history.projection import Projection, Quoted, StoredEvent, project
from companion.tables.files import Tables


def events(*visibilities: str) -> list[StoredEvent]:
    return [StoredEvent(n, n, "rolar", "relato", v, f"e{n}", {})
            for n, v in enumerate(visibilities, start=1)]


def test_numbers_grow_with_the_log_and_a_late_viewer_counts_from_the_start(
        tables: Tables) -> None:
    log = events("public", "gm", "player:ana", "gm", "public")
    ana = Projection("player:ana", tables, lambda n: None)
    for event in log:
        ana.add(event)
    assert ana.number_of(5) == 3 and ana.count() == 3
    more = events("public", "gm", "player:ana", "gm", "public", "gm", "player:bia", "public",
                  "player:ana")[5:]
    for event in more:
        ana.add(event)
    assert [ana.number_of(s) for s in (1, 3, 5, 8, 9)] == [1, 2, 3, 4, 5]
    late, shown = project("player:bia", tables, log + more, lambda n: None)
    assert [e["seq"] for e in shown] == [1, 2, 3, 4] and late.number_of(7) == 3
    assert ana.global_after(3) == 5 and ana.global_after(0) == 0
    gm = Projection("gm", tables, lambda n: None)
    for event in log:
        gm.add(event)
    assert gm.show(log[3]) == log[3].wire() and gm.count() == 5
    with pytest.raises(ValueError):
        ana.number_of(2)  # a GM event has no number for a player


def prompt(seq: int, command_n: int, character: str, prompt_id: int) -> StoredEvent:
    return StoredEvent(seq, command_n, "panico", "pedido", f"player:{character}",
                       f"{character}: teste de pânico.", {"pedido": {"id": prompt_id}})


def test_each_player_counts_only_their_own_prompts_everywhere(tables: Tables) -> None:
    log = [prompt(1, 1, "ana", 1), prompt(2, 2, "bia", 2), prompt(3, 3, "bia", 3),
           StoredEvent(4, 4, "responder", "resposta", "player:bia", "…", {"pedido": 3})]
    bia, shown = project("player:bia", tables, log, lambda n: None)
    assert [e["data"]["pedido"] for e in shown] == [{"id": 1}, {"id": 2}, 2]
    assert bia.prompt_numbers() == {2: 1, 3: 2} and bia.prompt_id(2) == 3
    assert bia.prompt_id(3) is None
    view: dict[str, Any] = {"pedidos": [{"id": 1}, {"id": 3}]}
    assert bia.view(view) == {"pedidos": [{"id": None}, {"id": 2}]}
    assert bia.params({"pendentes": [{"id": 1, "quem": "Ana"}, {"id": 2, "quem": "Bia"}],
                       "pedido": 1}) == {"pendentes": [{"id": 1, "quem": "Bia"}],
                                         "pedido": None}


def test_an_undo_is_numbered_and_quoted_for_each_viewer(tables: Tables) -> None:
    """Bia answered her prompt (the log's 7); the GM undid it. Bia reads her own prompt's
    number, Ana reads 'um pedido', the table screen a quote with no number of the log's."""
    answer = Quoted("responder", {"pedido": 7, "opcao": "descansar"}, "player:bia",
                    "responder pedido 1 descansar")
    lookup = {3: answer}.get
    log = [StoredEvent(1, 1, "panico", "pedido", "player:ana", "Ana…", {"pedido": {"id": 6}}),
           StoredEvent(2, 2, "avancar", "pedido", "player:bia", "Bia…", {"pedido": {"id": 7}}),
           StoredEvent(3, 3, "responder", "relato", "public", "Bia descansa.", {}),
           StoredEvent(4, 4, "desfazer", "relato", "public", "Desfeito: 'responder pedido 7 "
                       "descansar'", {"desfeito": 3, "comando": "responder",
                                      "texto": "responder pedido 7 descansar"},
                       "desfazer.desfeito", {})]
    said = {viewer: project(viewer, tables, log, lookup)[1][-1]
            for viewer in ("gm", "player:bia", "player:ana", "public")}
    assert said["gm"]["text"] == "Desfeito: 'responder pedido 7 descansar'"
    assert said["player:bia"]["text"] == "Desfeito: a resposta ao pedido 1 (descansar)"
    assert said["player:ana"]["text"] == "Desfeito: a resposta a um pedido (descansar)"
    assert said["public"]["text"] == "Desfeito: a resposta a um pedido (descansar)"
    assert said["player:bia"]["data"]["texto"] == "responder pedido 1 descansar"  # the quote
    assert said["player:bia"]["data"]["desfeito"] == 2  # her number of the undone one's event
    assert said["public"]["data"]["desfeito"] == 1 and said["public"]["seq"] == 2
    assert said["player:bia"]["data"]["texto"] == "responder pedido 1 descansar"


def test_a_refusal_inside_a_refusal_is_rendered_for_the_player(tables: Tables) -> None:
    log = [prompt(1, 1, "ana", 4), prompt(2, 2, "bia", 5)]
    bia, _shown = project("player:bia", tables, log, lambda n: None)
    inner = {"code": "pedidos.e_um_teste", "params": {"pedido": 5}}
    params = {"vez": 2, "motivo": "o pedido 5 é um teste: …", "dentro": inner}
    assert bia.names_prompts(params)
    text = bia.refusal("comandos.na_vez", params)
    assert text.startswith("na 2ª vez: o pedido 1 é um teste"), text
    ana, _shown = project("player:ana", tables, log, lambda n: None)
    assert "o pedido 5" not in ana.refusal("comandos.na_vez", params)


# ---------------------------------------------------------------- what a player reads undone (issue 26)

def _undone(tables: Tables, command: Quoted, viewer: str) -> str:
    log = [StoredEvent(1, 1, command.name, "relato", "public", "…", {}),
           StoredEvent(2, 2, "desfazer", "relato", "public", "Desfeito: '…'",
                       {"desfeito": 1, "comando": command.name, "texto": command.text},
                       "desfazer.desfeito", {})]
    return project(viewer, tables, log, {1: command}.get)[1][-1]["text"]


def test_a_player_reads_an_undone_command_as_a_human_description(tables: Tables) -> None:
    """Not the spoken name and raw arguments ('teste de atributo des Bruno dificuldade 15'):
    a sentence per command from tables/narracao/desfeitos.yaml; the GM reads what was typed."""
    test = Quoted("teste", {"atributo": "des", "personagem": "Bruno", "dc": 15}, "gm",
                  "teste de destreza do Bruno dificuldade 15")
    for viewer in ("player:bruno", "public"):
        assert _undone(tables, test, viewer) == \
            "Desfeito: o teste de Destreza de Bruno (dificuldade 15)"
    assert _undone(tables, test, "gm") == "Desfeito: 'teste de destreza do Bruno dificuldade 15'"
    hunt = Quoted("cacar", {"personagem": "Ana"}, "gm", "caçar Ana")
    assert _undone(tables, hunt, "player:ana") == "Desfeito: a caçada de Ana"
    roll = Quoted("rolar", {"expressao": "2d6"}, "gm", "rolar 2d6")
    assert _undone(tables, roll, "public") == "Desfeito: a rolagem de 2d6"


def test_a_command_with_no_description_is_quoted_by_its_spoken_name(tables: Tables) -> None:
    odd = Quoted("comando_sem_descricao", {}, "gm", "algo")
    assert _undone(tables, odd, "player:ana") == "Desfeito: o comando 'comando_sem_descricao'"


def test_the_gms_projection_made_late_reads_no_past_and_says_the_same(tables: Tables) -> None:
    """The GM sees every event in the log's numbers and has no prompt numbers of its own: a
    GM projection made at seq 4 without reading anything answers as one that read it all
    (a long campaign's GM connection costs nothing of its length)."""
    answer = Quoted("responder", {"pedido": 7, "opcao": "descansar"}, "player:bia",
                    "responder pedido 1 descansar")
    log = [prompt(1, 1, "ana", 6), prompt(2, 2, "bia", 7),
           StoredEvent(3, 3, "responder", "relato", "public", "Bia descansa.", {}),
           StoredEvent(4, 4, "segredo", "rolagem", "gm", "…", {"total": 3}),
           StoredEvent(5, 5, "desfazer", "relato", "public", "Desfeito: 'responder pedido 7 "
                       "descansar'", {"desfeito": 3, "comando": "responder",
                                      "texto": "responder pedido 7 descansar"},
                       "desfazer.desfeito", {})]
    whole, shown = project("gm", tables, log, {3: answer}.get)
    late = Projection("gm", tables, {3: answer}.get)
    assert not late.needs_past and Projection("public", tables, lambda n: None).needs_past
    late.skip_to(4)
    late.add(log[4])
    assert late.show(log[4]) == shown[4]
    assert [late.show(e) for e in log] == shown
    for ask in (lambda p: p.count(), lambda p: p.global_after(3), lambda p: p.number_of(2),
                lambda p: p.prompt_numbers(), lambda p: p.prompt_id(1),
                lambda p: p.view({"pedidos": [{"id": 7}]})):
        assert ask(late) == ask(whole)
    with pytest.raises(ValueError):
        Projection("player:ana", tables, lambda n: None).skip_to(3)
