"""The Portuguese command language: golden sentences, normalization, messages, phrases."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.commands import parse
from companion.commands.parse import ParseResult, grammar
from companion.engine.model import Command
from companion.session import Session
from companion.tables.files import Tables
from tests.rules_helpers import changed_rules
from tests.commands.parse_helpers import (  # noqa: F401
    GOLDEN,
    SessionFactory,
    session_after,
)


@pytest.mark.parametrize("case", GOLDEN["positivos"], ids=lambda case: case["frase"])
def test_golden_positive(case: dict[str, Any], tables: Tables) -> None:
    assert parse(case["frase"], tables).to_json() == case["comando"]


@pytest.mark.parametrize("sentence", GOLDEN["negativos"])
def test_golden_negative_is_not_a_command(sentence: str, tables: Tables) -> None:
    result = parse(sentence, tables)
    assert result.command is None
    assert result.to_json()["command"] is None
    assert "ajuda" in result.to_json()["error"]


@pytest.mark.parametrize("case", GOLDEN["incompletos"], ids=lambda case: case["frase"])
def test_golden_incomplete_says_what_is_missing(case: dict[str, Any], tables: Tables) -> None:
    assert parse(case["frase"], tables).to_json() == {"command": None, "error": case["erro"]}


@pytest.mark.parametrize("case", GOLDEN["recusas"], ids=lambda case: case["frase"])
def test_golden_refusal_says_why_and_what_to_say(case: dict[str, Any], tables: Tables) -> None:
    assert parse(case["frase"], tables).to_json() == {"command": None, "error": case["erro"]}


def test_golden_file_is_big_enough() -> None:
    assert len(GOLDEN["positivos"]) >= 150
    assert len(GOLDEN["negativos"]) >= 30
    assert len(GOLDEN["incompletos"]) >= 10
    sentences = ([case["frase"] for case in GOLDEN["positivos"]] + GOLDEN["negativos"]
                 + [case["frase"] for case in GOLDEN["incompletos"] + GOLDEN["recusas"]])
    assert len(sentences) == len(set(sentences)), "frase repetida no golden"


def test_every_command_has_a_golden_sentence(tables: Tables) -> None:
    golden_commands = {case["comando"]["command"] for case in GOLDEN["positivos"]}
    declared = set(tables.get("comandos", "comandos"))
    assert declared - golden_commands == set()


def test_every_command_has_templates_and_no_template_is_unknown(tables: Tables) -> None:
    declared = set(tables.get("comandos", "comandos"))
    assert set(grammar(tables).intents.intents) == declared


def test_to_json_shapes(tables: Tables) -> None:
    assert parse("rolar 2d6+1", tables).to_json() == {"command": "rolar",
                                                       "args": {"expressao": "2d6+1"}}
    assert ParseResult(error="x").to_json() == {"command": None, "error": "x"}
    result = parse("avançar", tables)
    assert result.command == Command("avancar", {})
    assert result.error is None


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "...", "!!!"])
def test_empty_or_punctuation_only_messages(text: str, tables: Tables) -> None:
    error = parse(text, tables).error
    assert error is not None
    expected = "comando vazio" if not text.strip() else "não entendi"
    assert error.startswith(expected)
    assert "diga 'ajuda'" in error


def test_unknown_message_quotes_the_input(tables: Tables) -> None:
    error = parse("xyz  qualquer", tables).error
    assert error == "não entendi 'xyz qualquer' como comando; diga 'ajuda' para ver os comandos"


def test_long_input_is_refused_with_a_message(tables: Tables) -> None:
    error = parse("avançar " * 200, tables).error
    assert error is not None and "longo demais" in error
    quoted = parse("blá " * 30, tables).error
    assert quoted is not None and "…" in quoted  # the quote is cut short


def test_non_name_wildcards_are_rejected(tables: Tables) -> None:
    assert parse("quem vai forragear", tables).command is None
    assert parse("ele faz um teste de pânico", tables).command is None
    assert parse("Ana Maria Clara Souza faz um teste de pânico", tables).command is None


def test_voice_names_are_capitalized_and_typed_names_kept(tables: Tables) -> None:
    assert parse("teste de pânico pra ana de souza", tables).command.args == {
        "personagem": "Ana de Souza"}
    assert parse("teste de pânico pra McLeod", tables).command.args == {"personagem": "McLeod"}


def test_sheet_errors_are_specific(tables: Tables) -> None:
    error = parse("personagem Ana nível", tables).error
    assert error is not None and "falta o número" in error
    assert parse("personagem nível 2", tables).error.startswith("personagem sem nome")


def test_dice_word_forms_agree(tables: Tables) -> None:
    spoken = ["rolar 2d6+1", "rolar 2 d 6 + 1", "rolar dois d seis mais um",
              "rolar dois dados de seis mais um", "Rolar 2D6 +1"]
    assert {parse(text, tables).command.args["expressao"] for text in spoken} == {"2d6+1"}


def test_dice_of_absurd_size_keep_their_shape(tables: Tables) -> None:
    # size limits are the engine's job; the parser keeps the shape
    assert parse("rolar 500d1000", tables).command.args == {"expressao": "500d1000"}


def test_accents_case_and_punctuation_do_not_matter(tables: Tables) -> None:
    forms = ["Estamos no Pântano!", "estamos no pantano", "ESTAMOS NO PÂNTANO.",
             "estamos   no pântano", "estamos nos pântanos"]
    assert {parse(t, tables).command.args["terreno"] for t in forms} == {"pantano"}


def test_treasure_and_items_are_told_apart(tables: Tables) -> None:
    assert parse("achamos 12 peças de prata", tables).command.name == "tesouro"
    assert parse("achamos 3 tochas", tables).command.name == "item"


def test_light_sources_from_house_table_are_accepted(tables: Tables, tmp_path: Path) -> None:
    extended = changed_rules(tmp_path, "casa.yaml", "luz:\n", "luz:\n"
                             "  vela:\n    nome: Vela\n    turnos: 2\n"
                             "    apagou: A vela se apagou.\n")
    # a house source is a list value: canonical, whatever the case said
    assert parse("acender Vela", extended).command.args == {"fonte": "vela", "acao": "acender"}
    # unknown to the house table: a reading error that lists the house's sources
    assert parse("acender Vela", tables).to_json() == {
        "command": None, "error": "fonte de luz desconhecida: 'Vela'; use tocha, lanterna"}
    assert "vela" in parse("acender Tocha Azul", extended).error


def test_a_light_source_only_in_a_copy_of_the_tables_is_lit_from_the_chat(
        tmp_path: Path) -> None:
    extended = changed_rules(tmp_path, "casa.yaml", "luz:\n", "luz:\n"
                             "  vela:\n    nome: Vela\n    turnos: 2\n"
                             "    apagou: A vela se apagou.\n")
    session = Session.open(None, 1, extended)
    try:
        assert session.run("masmorra").ok
        result = session.run("acender a Vela")
        assert result.ok, result.error
        assert [light.name for light in session.state.dungeon.lights] == ["vela"]
    finally:
        session.close()


@pytest.mark.parametrize("setup, text, message, accepted", [
    ((), "terreno lava", "terreno desconhecido: 'lava'",
     ["planície", "estepe", "colinas", "floresta", "pântano", "montanha"]),
    ((), "mudar o terreno para Tundra Gelada", "terreno desconhecido: 'Tundra Gelada'",
     ["planície", "montanha"]),
    ((), "estação chuvosa", "estação desconhecida: 'chuvosa'",
     ["primavera", "verão", "outono", "inverno"]),
    ((), "modo voando", "modo de viagem desconhecido: 'voando'",
     ["andando", "montado", "navegando"]),
    ((), "entrar na masmorra perigo extremo", "nível de perigo desconhecido: 'extremo'",
     ["inseguro", "arriscado", "mortal"]),
    (("masmorra",), "perigo extremo", "nível de perigo desconhecido: 'extremo'",
     ["inseguro", "arriscado", "mortal"]),
    (("masmorra",), "acender vela", "fonte de luz desconhecida: 'vela'", ["tocha", "lanterna"]),
    (("masmorra",), "apagar a fogueira", "fonte de luz desconhecida: 'fogueira'",
     ["tocha", "lanterna"]),
    ((), "tabela Z", "tabela desconhecida: 'Z'", ["A", "K", "masmorra_b", "encontros"]),
])
def test_values_outside_the_lists_get_the_engines_message(
        setup: tuple[str, ...], text: str, message: str, accepted: list[str],
        session_after: SessionFactory) -> None:
    session = session_after(*setup)
    stored, state = len(session.commands()), session.state
    result = session.run(text)
    assert not result.ok and result.error is not None
    assert result.error.startswith(message + "; use ")
    assert all(name in result.error for name in accepted), result.error
    assert len(session.commands()) == stored and session.state == state


@pytest.mark.parametrize("setup, text, message", [
    (("personagem Ana", "fugir"), "fuga dificuldade 0",
     "dificuldade de fuga inválida: '0'; diga um número de 1 a "),
    (("personagem Ana", "fugir"), "teste de fuga 2000",
     "dificuldade de fuga inválida: '2000'; diga um número de 1 a "),
    (("masmorra",), "magia escudo 0 turnos", "duração da magia inválida: '0'; diga de 1 a "),
    ((), "derrotados 0 goblins", "quantidade inválida: '0'; diga um número inteiro de 1 a "),
    ((), "rolar d0", "dado absurdo em '1d0': use dados de 2 a "),
    (("personagem Ana", "pânico Ana"), "cancelar 99", "pedido desconhecido: '99'; pendentes: "),
])
def test_numbers_outside_the_range_get_the_engines_message(
        setup: tuple[str, ...], text: str, message: str, session_after: SessionFactory) -> None:
    session = session_after(*setup)
    stored, state = len(session.commands()), session.state
    result = session.run(text)
    assert not result.ok and result.error is not None
    assert result.error.startswith(message), result.error
    assert len(session.commands()) == stored and session.state == state


@pytest.mark.parametrize("text, command, missing", [
    ("tabela", "tabela", "a tabela"),
    ("terreno", "terreno", "o terreno"), ("estação", "estacao", "a estação"),
    ("perigo", "perigo", "o nível de perigo"), ("personagem", "personagem", "o nome"),
    ("modo", "modo", "o modo de viagem"),
])
def test_a_command_word_alone_gets_its_usage_line(text: str, command: str, missing: str,
                                                  tables: Tables,
                                                  session_after: SessionFactory) -> None:
    usage = tables.get("comandos", "comandos")[command]["ajuda"]
    expected = f"falta {missing} em '{text}'; uso: {usage}"
    assert parse(text, tables).error == expected
    session = session_after("personagem Ana")
    state = session.state
    assert session.run(text).error == expected and session.state == state


@pytest.mark.parametrize("text, slot, canonical", [
    ("terreno Pântano", "terreno", "pantano"), ("terreno de montanhas", "terreno", "montanha"),
    ("estação Verão", "estacao", "verao"), ("modo a pé", "modo", "andando"),
    ("perigo Mortal", "perigo", "mortal"), ("acender a Lanterna", "fonte", "lanterna"),
    ("tabela Jota", "tabela", "J"),
])
def test_list_values_win_over_the_fallback(text: str, slot: str, canonical: str,
                                           tables: Tables) -> None:
    assert parse(text, tables).command.args[slot] == canonical


@pytest.mark.parametrize("text, command", [
    ("forragear Ana", "forragear"), ("caçar Ana", "cacar"), ("pescar Ana", "pescar"),
    ("criar munição Ana", "criar_municao"), ("fugir Ana", "fugir"), ("cancelar Ana", "cancelar"),
    ("masmorra inseguro", "masmorra"), ("masmorra mortal", "masmorra"),
    ("estação verão", "estacao"), ("terreno planície", "terreno"), ("modo navegando", "modo"),
    ("perigo arriscado", "perigo"), ("acender tocha", "luz"), ("apagar lanterna", "luz"),
    ("magia Escudo 3 turnos", "magia"), ("monstro Ogro na sala 4", "monstro"),
    ("segredo 1d20+2 escutar a porta", "segredo"), ("fuga dificuldade 12", "fuga"),
    ("pânico Ana", "panico"), ("tabela K", "tabela"), ("tabela masmorra A", "tabela"),
    ("tabela encontros", "tabela"), ("responder rolar", "responder"),
])
def test_what_the_help_advertises_parses(text: str, command: str, tables: Tables) -> None:
    """The usage lines of comandos.yaml ('caçar [Nome]', 'tabela … encontros') are accepted."""
    result = parse(text, tables)
    assert result.command is not None, result.error
    assert result.command.name == command
