"""The argument contract (tables/argumentos.yaml): applied once in the parse layer, for every
input, and said the same way in docs/commands.md."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion.commands import parse
from companion.commands import contract
from companion.commands.contract import ArgumentContract, ContractBroken
from companion.commands.parse import grammar
from companion.tables.dice_limits import DiceLimits
from companion.tables.errors import TableError
from companion.tables.rulebook import build_piece
from companion.tables.files import Tables
from tests.rules_helpers import changed_rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
ROW = re.compile(r"^\| `(?P<command>[a-z_]+)` \| (?P<args>.*) \|$")
ARG = re.compile(r"`(?P<name>[a-z_0-9]+)(?P<optional>\??)` \((?P<kind>[a-z_]+)(?::"
                 r" (?P<values>[a-z_/]+))?\)")


def documented_contract() -> dict[str, dict[str, tuple[str, bool, tuple[str, ...]]]]:
    """command → argument → (kind, required, values), from docs/commands.md's contract table."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Argument contract", 1)[1]
    found: dict[str, dict[str, tuple[str, bool, tuple[str, ...]]]] = {}
    for line in section.splitlines():
        row = ROW.match(line.strip())
        if row is None:
            continue
        found[row["command"]] = {
            arg["name"]: (arg["kind"], not arg["optional"],
                          tuple(arg["values"].split("/")) if arg["values"] else ())
            for arg in ARG.finditer(row["args"])}
    return found


def test_docs_and_the_contract_say_the_same(tables: Tables) -> None:
    rules = grammar(tables).contract
    from_yaml = {name: {arg: (spec.tipo, spec.obrigatorio, spec.valores)
                        for arg, spec in args.items()}
                 for name, args in rules.comandos.items()}
    assert documented_contract() == from_yaml


def test_every_command_the_parser_knows_has_a_contract_and_is_documented(tables: Tables) -> None:
    rules = tables.piece(ArgumentContract)
    said = set(grammar(tables).intents.intents)
    assert said == set(rules.comandos)
    described = {m for line in DOCS.read_text(encoding="utf-8").split("## Argument contract")[0]
                 .splitlines() if line.startswith("| `")
                 for m in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    assert set(rules.comandos) <= described


def test_the_commands_of_the_golden_sentences_keep_the_contract(tables: Tables) -> None:
    golden = Path(__file__).resolve().parents[1] / "golden" / "sentences.yaml"
    cases = yaml.safe_load(golden.read_text(encoding="utf-8"))["positivos"]
    rules = grammar(tables).contract
    limits = tables.piece(DiceLimits)
    for case in cases:
        wanted = case["comando"]
        contract.check(rules, limits, tables.narration, wanted["command"], wanted["args"])  # raises if not


@pytest.mark.parametrize("said, limit_word", [
    ("rolar 1d6+1000000", "o modificador vai até 1000,"),
    ("rolar 2d6-1001", "o modificador vai até 1000,"),
    ("segredo 1d20+5000 escutar a porta", "o modificador vai até 1000,"),
])
def test_a_dice_modifier_past_the_limit_is_refused_saying_the_limit(said: str, limit_word: str,
                                                                    tables: Tables) -> None:
    result = parse(said, tables)
    assert result.command is None
    assert result.error is not None and result.error.startswith(f"'{said}': ")
    assert limit_word in result.error


def _with_modifier_limit(tables: Tables, top: int) -> Tables:
    """The tables with casa.yaml `limites_dados.modificador` set to `top`."""
    casa = tables.files["casa"]
    files = {**tables.files, "casa": {**casa, "limites_dados": {**casa["limites_dados"],
                                                                "modificador": top}}}
    return replace(tables, files=files, pieces={})


def test_the_modifier_limit_comes_from_the_house_dice_limits(tables: Tables) -> None:
    wider = _with_modifier_limit(tables, 1000000)
    assert parse("rolar 1d6+1000000", wider).command is not None
    assert parse("rolar 1d6+1000", tables).command is not None
    narrower = _with_modifier_limit(tables, 10)
    assert "vai até 10," in (parse("rolar 1d6+11", narrower).error or "")


@pytest.mark.parametrize("name, args, words", [
    ("rolar", {}, "falta expressao em 'rolar'"),
    ("rolar", {"expressao": "1d6", "voando": True}, "'rolar' não leva voando; leva: expressao, "
                                                    "vantagem"),
    ("rolar", {"expressao": "1d6", "vantagem": "sorte"}, "use vantagem ou desvantagem"),
    ("luz", {"fonte": "tocha", "acao": "quebrar"}, "use acender ou apagar"),
    ("tesouro", {"quantidade": "muito", "tipo": "ouro"}, "use um número inteiro"),
    ("tesouro", {"quantidade": True, "tipo": "ouro"}, "use um número inteiro"),
    ("marcha", {"ordem": []}, "diga os nomes"),
    ("distancia", {"alcance_maior": "sim"}, "use sim ou não"),
    ("voar", {}, "comando sem contrato de argumentos: 'voar'"),
])
def test_broken_arguments_say_what_would_be_accepted(name: str, args: dict[str, Any],
                                                     words: str, tables: Tables) -> None:
    with pytest.raises(ContractBroken) as broken:
        contract.check(grammar(tables).contract, tables.piece(DiceLimits), tables.narration,
                       name, args)
    assert words in str(broken.value)


def test_a_bad_contract_file_names_the_file_and_the_key(tables: Tables) -> None:
    bad = {**tables.files, "argumentos": {**tables.files["argumentos"], "comandos": {
        "rolar": {"expressao": {"tipo": "escolha"}}, "personagem": {}}}}
    with pytest.raises(TableError) as error:
        build_piece(ArgumentContract, bad, tables.narration)
    assert "tables/argumentos.yaml" in error.value.message
    assert "comandos.rolar.expressao.valores" in error.value.message


def test_the_sheet_fields_are_listed_once_in_frases(tables: Tables) -> None:
    """argumentos.yaml `ficha`: every key of frases.yaml `mesa.atributos` is an argument of
    `personagem`, besides its own; docs/commands.md's command table lists the same fields."""
    fields = list(grammar(tables).rules.atributos)
    own = tables.piece(ArgumentContract).comandos["personagem"]
    taken = grammar(tables).contract.comandos["personagem"]
    assert list(taken) == [*own, *fields]
    assert {taken[field].tipo for field in fields} == {"inteiro"}
    row = next(line for line in DOCS.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `personagem` |"))
    listed = re.search(r"plus any of `([a-z_ ]+)`", row)
    assert listed is not None and sorted(listed[1].split()) == sorted(fields)


def test_every_sheet_field_is_an_argument_of_the_sheet_command(tables: Tables) -> None:
    whole = tables.piece(ArgumentContract).with_sheet(["pv", "tochas"], tables.narration)
    assert whole.comandos["personagem"]["tochas"].tipo == "inteiro"


def test_a_sheet_field_the_engine_does_not_keep_is_refused_at_load(tmp_path: Path) -> None:
    """frases.yaml names the fields the parser accepts; one the engine keeps nowhere on a
    character (party.FIELDS) would be accepted, then refused at the table: refused at load."""
    with pytest.raises(TableError, match=r"tables/frases\.yaml: 'mesa\.atributos\.tochas' não é "
                                         r"um campo da ficha; os campos são: nivel, pv"):
        changed_rules(tmp_path, "frases.yaml", "    agua: [agua]\n",
                      "    agua: [agua]\n    tochas: [tochas]\n")


def test_the_sheet_command_must_be_in_the_contract(tables: Tables) -> None:
    bad = {**tables.files, "argumentos": {**tables.files["argumentos"],
                                          "ficha": {"comando": "ficha", "campo": {
                                              "tipo": "inteiro"}}}}
    with pytest.raises(TableError, match=r"tables/argumentos\.yaml: 'ficha\.comando' deveria"):
        build_piece(ArgumentContract, bad, tables.narration)


def test_a_sheet_field_named_like_the_commands_own_argument_is_refused(tables: Tables) -> None:
    with pytest.raises(TableError, match=r"'mesa\.atributos' tem nome, que já é argumento de "
                                         r"'personagem'"):
        tables.piece(ArgumentContract).with_sheet(["pv", "nome"], tables.narration)


@pytest.mark.parametrize("name, args, message", [
    ("voar", {}, "comando sem contrato de argumentos: 'voar'"),
    ("rolar", {"expressao": "1d6", "voando": True, "asas": 1},
     "'rolar' não leva asas, voando; leva: expressao, vantagem"),
    ("caminho", {"x": 1}, "'caminho' não leva x; leva: nenhum"),
    ("velocidade", {}, "falta grupo, perseguidores em 'velocidade'"),
    ("monstro", {"nome": " "}, "valor inválido para nome: ' '; diga um texto"),
    ("marcha", {"ordem": ["Ana", ""]},
     "valor inválido para ordem: Ana, ; diga os nomes, como 'Ana, Bia e Caio'"),
    ("avancar", {"vezes": True}, "valor inválido para vezes: 'True'; use um número inteiro"),
    ("distancia", {"alcance_maior": 1}, "valor inválido para alcance_maior: '1'; use sim ou não"),
    ("monstro", {"nome": "orc", "acao": "x"},
     "valor inválido para acao: 'x'; use adicionar ou remover ou alertar"),
    ("rolar", {"expressao": ""}, "valor inválido para expressao: ''; use algo como 1d20 ou 2d6+1"),
    ("rolar", {"expressao": "1d6-1001"}, "valor inválido para expressao: '1d6-1001'; o "
     "modificador vai até 1000, para mais ou para menos (ex.: 1d20+2)"),
    ("cancelar", {"pedido": "x"}, "valor inválido para pedido: 'x'; use o número do pedido"),
])
def test_the_contract_refusals_are_said_from_their_templates(name: str, args: dict[str, Any],
                                                             message: str,
                                                             tables: Tables) -> None:
    """tables/narracao/argumentos.yaml: the texts as they were when they lived in the code."""
    with pytest.raises(ContractBroken) as broken:
        contract.check(grammar(tables).contract, tables.piece(DiceLimits), tables.narration,
                       name, args)
    assert str(broken.value) == message


def test_the_modifier_example_stays_within_a_small_limit(tables: Tables) -> None:
    narrow = _with_modifier_limit(tables, 1)
    assert parse("rolar 1d6+5", narrow).error == (
        "'rolar 1d6+5': valor inválido para expressao: '1d6+5'; o modificador vai até 1, para "
        "mais ou para menos (ex.: 1d20+1)")
