"""The engine's common parts and the small procedures read tables/ through typed pieces and
say their texts from tables/narracao/ (issue 8): a change in the data changes what happens,
and a change in a template changes what is said."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine import Command
from companion.tables import protocol
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from companion.tables.protocol import CommandRules, spoken_name
from tests.rules_helpers import changed_rules
from tests.engine.common_rules_helpers import (  # noqa: F401
    run,
    held,
    _bitten,
    _defeated,
)


# ---------------------------------------------------------------- scratch: rolls and chances

def test_the_roll_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/dados.yaml", "rolagem: \"{{ rotulo }} — ",
                          "rolagem: \"Rolou {{ rotulo }} — ")
    _, events = run(rules, Command("rolar", {"expressao": "2d6"}))
    assert events[0].code == "dados.rolagem"
    assert events[0].text.startswith("Rolou Rolagem — 2d6 = ")
    assert events[0].data["tabela"] == "Rolagem" and events[0].data["dados"] == "2d6"


def test_the_chance_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/dados.yaml", "chance: \"{{ rotulo }} — ",
                          "chance: \"{{ x }} em 6: {{ rotulo }} — ")
    _, events = run(rules, Command("acampar"))
    chances = [e for e in events if e.code == "dados.chance"]
    assert chances and all(" em 6: " in e.text for e in chances)
    assert all(e.kind == "rolagem" and e.data["chance"].endswith(":6") for e in chances)


# ---------------------------------------------------------------- prompting: require_group_free

def test_a_held_group_refusal_is_narrated_and_keeps_its_page_word(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("avancar"), state=held(tables))
    assert refused.value.code == "pedidos.pedido_pendente"
    assert refused.value.message.startswith("Ana ainda não respondeu ao pedido 1 (")
    assert refused.value.message.endswith("ou cancele ('cancelar pedido 1') antes de seguir")
    assert protocol.refusal(refused.value.message, refused.value.code)["codigo"] == \
        "pedido_pendente"


def test_the_kinds_that_hold_the_group_are_data(tables: Tables, tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "comandos.yaml",
                          "pedidos_que_seguram: [marcha_forcada, escolha_marcha,",
                          "pedidos_que_seguram: [escolha_marcha,")
    assert "marcha_forcada" not in rules.piece(CommandRules).pedidos_que_seguram
    state, _ = run(rules, Command("avancar"), state=held(rules))  # no longer held
    assert state.minutes > 0


def test_the_held_group_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/pedidos.yaml", "antes de seguir\"",
                          "antes de continuar\"")
    with pytest.raises(CommandRejected, match="antes de continuar$"):
        run(rules, Command("avancar"), state=held(rules))


def test_page_codes_are_the_word_after_the_file() -> None:
    assert protocol.page_code("pedidos.sem_pedido") == "sem_pedido"
    assert protocol.page_code("sem_pedido") == "sem_pedido"
    assert protocol.page_code("comandos.desconhecido") is None
    assert "codigo" not in protocol.refusal("x", "comandos.desconhecido")


# ---------------------------------------------------------------- comandos.yaml piece

def test_the_commands_piece_is_typed(tables: Tables) -> None:
    rules = tables.piece(CommandRules)
    assert rules.comandos["avancar"].repete and rules.comandos["rolar"].jogador
    assert rules.modos_frases.of("perseguicao").onde == "numa perseguição"
    assert spoken_name(tables, "criar_municao") == "criar munição"


def test_the_spoken_name_is_the_commands_nome_not_its_help_text(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "comandos.yaml", 'nome: "acampar", ajuda: "acampar — levantar',
                          'nome: "montar acampamento", ajuda: "armar — levantar')
    assert spoken_name(rules, "acampar") == "montar acampamento"
    assert spoken_name(rules, "nao_existe") == "nao_existe"


@pytest.mark.parametrize("old, new, message", [
    ('nome: "acampar", ', "", r"falta a chave 'comandos\.acampar\.nome'$"),
    ('nome: "acampar", ', 'nome: " ", ', r"'comandos\.acampar\.nome' deveria ser o nome do comando"),
])
def test_a_command_without_its_nome_names_the_file_and_key(tmp_path: Path, old: str, new: str,
                                                           message: str) -> None:
    with pytest.raises(TableError, match=r"^tables/comandos\.yaml: " + message):
        changed_rules(tmp_path, "comandos.yaml", old, new)


def test_a_bad_mode_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/comandos\.yaml: 'comandos\.acampar\.modos' "
                                         r"deveria ser uma lista de modos"):
        changed_rules(tmp_path, "comandos.yaml", "acampar: {modos: [viagem]",
                      "acampar: {modos: [praia]")


# ---------------------------------------------------------------- core: refusals

def test_an_unknown_command_is_refused_by_its_code(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("voar"))
    assert refused.value.code == "comandos.desconhecido"
    assert refused.value.message == "comando desconhecido: 'voar'; diga 'ajuda' para a lista"


def test_a_command_out_of_mode_is_said_from_the_data(tables: Tables, tmp_path: Path) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("turno"))
    assert refused.value.code == "comandos.fora_do_modo"
    assert refused.value.message == ("'turno' só vale na masmorra (agora: viagem). Diga 'ajuda' "
                                     "para ver os comandos da viagem.")
    rules = changed_rules(tmp_path, "comandos.yaml", "turno: {modos: [masmorra]",
                          "turno: {modos: [masmorra, viagem]")
    try:  # no longer out of mode (whatever the turn itself then says)
        run(rules, Command("turno"))
    except CommandRejected as again:
        assert again.code != "comandos.fora_do_modo"


def test_the_out_of_mode_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/comandos.yaml", "Diga 'ajuda' para ver os",
                          "Peça 'ajuda' para ver os")
    with pytest.raises(CommandRejected, match="Peça 'ajuda' para ver os comandos da viagem"):
        run(rules, Command("turno"))


def test_the_most_repetitions_are_data(tables: Tables, tmp_path: Path) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("explorar", {"vezes": 7}))
    assert refused.value.code == "comandos.vezes_invalidas"
    assert refused.value.params["maximo"] == 6
    rules = changed_rules(tmp_path, "comandos.yaml", "repeticoes_maximas: 6",
                          "repeticoes_maximas: 2")
    with pytest.raises(CommandRejected, match="diga de 1 a 2, como em 'explorar duas vezes'"):
        run(rules, Command("explorar", {"vezes": 3}))


def test_a_repetition_refused_midway_says_which_time(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("acampar", {"vezes": 2}))
    assert refused.value.code == "comandos.nao_repete"
    assert refused.value.message == "'acampar' não se repete: diga-o uma vez de cada vez"


def test_too_few_repetitions_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/comandos\.yaml: 'repeticoes_maximas' deveria"):
        changed_rules(tmp_path, "comandos.yaml", "repeticoes_maximas: 6", "repeticoes_maximas: 0")


def test_a_lasting_condition_ends_saying_so(tables: Tables) -> None:
    _, events = run(tables, Command("acampar"), state=_bitten(tables))
    ended = [e for e in events if e.code == "relogio.acabou"]
    assert [e.text for e in ended] == ["Acabou: Mosquitos (Ana)."]
    assert ended[0].data == {"condicao": "Mosquitos", "fim": True}


def test_the_end_of_a_condition_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/relogio.yaml", 'acabou: "Acabou: ',
                          'acabou: "Terminou: ')
    _, events = run(rules, Command("acampar"), state=_bitten(rules))
    assert [e.text for e in events if e.code == "relogio.acabou"] == \
        ["Terminou: Mosquitos (Ana)."]


# ---------------------------------------------------------------- prompts: responder, cancelar

def test_answering_with_no_prompt_keeps_the_page_word(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("responder", {"valor": 12}))
    assert refused.value.code == "pedidos.sem_pedido"
    assert refused.value.message == "não há nenhum pedido pendente"
    assert protocol.refusal(refused.value.message, refused.value.code)["codigo"] == "sem_pedido"


def test_a_value_off_the_die_keeps_the_page_word(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("responder", {"valor": 25}), state=held(tables))
    assert refused.value.code == "pedidos.valor_fora_do_dado"
    assert refused.value.message == ("valor fora do dado: '25'; o pedido 1 é de 1d20: diga um "
                                     "número de 1 a 20")
    assert protocol.page_code(refused.value.code) == "valor_fora_do_dado"


def test_the_answer_is_said_from_narracao(tables: Tables, tmp_path: Path) -> None:
    prompt_state = held(tables)
    prompt = replace(prompt_state.prompts[0], modifier=1)
    state = replace(prompt_state, prompts=(prompt,))
    _, events = run(tables, Command("responder", {"valor": 15}), state=state)
    answer = next(e for e in events if e.code == "pedidos.respondeu")
    assert answer.text == "O Mestre, por Ana, respondeu: 15 + 1 = 16 (tabela B: Forçando o Avanço)."
    assert answer.data["total"] == 16 and answer.data["natural"] == 15
    rules = changed_rules(tmp_path, "narracao/pedidos.yaml",
                          " respondeu: {{ valor }}",
                          " deu ao pedido {{ pedido }} a resposta {{ valor }}")
    _, events = run(rules, Command("responder", {"valor": 15}), state=state)
    assert next(e for e in events if e.code == "pedidos.respondeu").text == \
        "O Mestre, por Ana, deu ao pedido 1 a resposta 15 + 1 = 16 (tabela B: Forçando o Avanço)."


def test_the_prompt_kind_names_are_data_for_the_cancel(tables: Tables, tmp_path: Path) -> None:
    _, events = run(tables, Command("cancelar"), state=held(tables))
    cancelled = next(e for e in events if e.code == "pedidos.cancelado")
    assert cancelled.data == {"pedido": 1, "tipo": "marcha_forcada", "personagem": "ana",
                              "cancelado": True}
    name = str(tables.get("pedidos", "nomes_pedidos", "marcha_forcada"))
    assert cancelled.text == f"Pedido 1 (Ana: {name}) cancelado."
    rules = changed_rules(tmp_path, "pedidos.yaml", f"marcha_forcada: \"{name}\"",
                          "marcha_forcada: a marcha longa")
    _, events = run(rules, Command("cancelar"), state=held(rules))
    assert "Pedido 1 (Ana: a marcha longa) cancelado." in [e.text for e in events]


def test_the_longest_name_is_data(tables: Tables, tmp_path: Path) -> None:
    assert _defeated(tables)[0].data == {"regiao": "Planície", "criatura": "goblins",
                                         "quantidade": 3, "total": 3}
    rules = changed_rules(tmp_path, "registro.yaml", "nome_maximo: 60", "nome_maximo: 4")
    with pytest.raises(CommandRejected) as refused:
        _defeated(rules)
    assert refused.value.code == "registro.nome_longo"
    assert refused.value.message == "nome longo demais: 'gobl…'; use até 4 letras"


def test_the_dungeon_region_name_is_data(tables: Tables, tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "registro.yaml", 'regiao_masmorra: "Masmorra"',
                          'regiao_masmorra: "Subterrâneo"')
    state, _ = run(rules, Command("masmorra"))
    _, events = run(rules, Command("derrotados", {"quantidade": 1, "criatura": "ogro"}),
                    state=state)
    assert events[0].data["regiao"] == "Subterrâneo"


def test_the_tally_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/registro.yaml", 'derrotados: "Derrotados: ',
                          'derrotados: "Caíram: ')
    events = _defeated(rules)
    assert events[0].code == "registro.derrotados" and events[0].text.startswith("Caíram: 3 ")
