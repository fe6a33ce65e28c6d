"""Properties of the parser: any text gives a result; every voice phrase parses back."""
from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unicode_rbnf import RbnfEngine

from companion.commands import normalize, parse
from companion.commands.normalize import fold
from companion.commands.parse import ParseResult
from companion.rules.loader import load_rules
from tests.phrase_helpers import PhraseReading

TABLES = load_rules()
WORDS = st.sampled_from([
    "rolar", "d", "2d6", "+1", "avançar", "pânico", "pra", "Ana", "teste", "de", "fuga",
    "dificuldade", "12", "um", "uma", "vinte", "e", "três", "monstro", "na", "sala", ",",
    "personagem", "nível", "menos", "mil", "tocha", "acender", "masmorra", "o", "grupo",
])
PROFILE = settings(max_examples=300, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])


def _check(result: ParseResult) -> None:
    assert isinstance(result, ParseResult)
    shape = result.to_json()
    if result.command is None:
        assert isinstance(result.error, str) and result.error
        assert shape == {"command": None, "error": result.error}
    else:
        assert result.error is None
        assert set(shape) == {"command", "args"}
        assert shape["command"] in TABLES.get("comandos", "comandos")


@PROFILE
@given(st.text())
def test_any_text_gives_a_result(text: str) -> None:
    _check(parse(text, TABLES))


@PROFILE
@given(st.binary(max_size=300))
def test_binary_junk_gives_a_result(data: bytes) -> None:
    _check(parse(data.decode("latin-1"), TABLES))
    _check(parse(data.decode("utf-8", errors="surrogateescape"), TABLES))


@settings(max_examples=20, deadline=None)
@given(st.text(min_size=1, max_size=5).map(lambda piece: piece * 2500))
def test_huge_text_gives_a_result(text: str) -> None:
    _check(parse(text, TABLES))


@PROFILE
@given(st.lists(WORDS, max_size=12).map(" ".join))
def test_command_like_word_salad_gives_a_result(text: str) -> None:
    _check(parse(text, TABLES))


@PROFILE
@given(st.text())
def test_normalize_never_raises_and_is_idempotent(text: str) -> None:
    once = normalize(text).text
    assert normalize(once).text == once
    assert once == once.strip() and "  " not in once


@PROFILE
@given(st.integers(min_value=2, max_value=9999))
def test_number_words_become_digits(number: int) -> None:
    engine = RbnfEngine.for_language("pt")
    for words in set(engine.format_number(number).text_by_ruleset.values()):
        assert normalize(words).text == str(number), words


def test_every_voice_phrase_parses_back_to_its_command(
        phrase_readings: list[PhraseReading]) -> None:
    """The recogniser's whole list, answers to prompts included: the chat reads each line as
    the command it is listed for ("achamos…" may be treasure or an item); an answer the
    listener adds only while a prompt waits is read with every prompt waiting (a bare "sim"
    is an answer only then). The list is read once for the run: tests/phrase_helpers.py."""
    wrong = []
    for phrase, result in ((reading.phrase, reading.chat) for reading in phrase_readings):
        expected = {"tesouro", "item"} if phrase.command in {"tesouro", "item"} \
            else {phrase.command}
        if result.command is None or result.command.name not in expected:
            wrong.append((phrase.text, result.error))
    assert wrong == []


# ---------------------------------------------------------------- values outside the lists

RULES = TABLES["frases"]["mesa"]
NOT_VALUES = set(RULES["nao_sao_nomes"]) | {fold(w) for w in TABLES["frases"]["skip_words"]}
SLOTS = ["terreno", "estacao", "modo", "perigo", "tabela"]


def _literal_words(node: Any) -> set[str]:
    """Every word written in the templates, outside {slots} and <rules>."""
    if isinstance(node, str):
        return set(re.findall(r"[a-z]+", re.sub(r"\{[^}]*\}|<[^>]*>", " ", fold(node))))
    items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    return set().union(*(_literal_words(item) for item in items))


KNOWN = _literal_words([TABLES["frases"][key] for key in ("intents", "lists", "expansion_rules")])
# a word the grammar does not know ("lava", "chuvosa"): not a template word, article or filler
LETTERS = "abcdefghijklmnopqrstuvwxyzáãçéêíóõú"
WORD = st.text(alphabet=LETTERS, min_size=2, max_size=12).filter(
    lambda word: fold(word) not in NOT_VALUES | KNOWN)


@PROFILE
@given(st.sampled_from(SLOTS), WORD)
def test_a_value_outside_the_list_is_refused_with_the_lists_values(slot: str,
                                                                    word: str) -> None:
    result = parse(f"{slot} {word}", TABLES)
    assert result.command is None
    assert f"'{word}'; use " in (result.error or ""), result.error


# ---------------------------------------------------------------- the pages' buttons

PROMPT_ID = st.integers(min_value=1, max_value=1_000_000)


@PROFILE
@given(PROMPT_ID, st.integers(min_value=0, max_value=1000))
def test_a_button_value_targets_its_prompt(prompt: int, value: int) -> None:
    for text in (f"responder pedido {prompt} valor {value}",
                 f"responder ao pedido {prompt} com {value}"):
        assert parse(text, TABLES).to_json() == {
            "command": "responder", "args": {"pedido": prompt, "valor": value}}, text


@PROFILE
@given(PROMPT_ID, st.sampled_from(["descansar", "exaustao", "sim", "nao"]))
def test_a_button_option_roll_or_cancel_targets_its_prompt(prompt: int, option: str) -> None:
    assert parse(f"responder pedido {prompt} opcao {option}", TABLES).to_json() == {
        "command": "responder", "args": {"pedido": prompt, "opcao": option}}
    assert parse(f"responder pedido {prompt} rolar", TABLES).to_json() == {
        "command": "responder", "args": {"pedido": prompt}}
    assert parse(f"cancelar pedido {prompt}", TABLES).to_json() == {
        "command": "cancelar", "args": {"pedido": prompt}}


# ---------------------------------------------------------------- changes said at the table

NAMES = st.sampled_from(["Ana", "Bia", "Caio", "João Pedro", "Mëlkor"])
FIELDS = st.sampled_from([("comida", "comida"), ("rações", "comida"), ("pv", "pv"),
                          ("flechas", "municao"), ("água", "agua"), ("sanidade", "sanidade"),
                          ("exaustão", "exaustao"), ("nível", "nivel")])
AMOUNTS = st.integers(min_value=1, max_value=999)


@PROFILE
@given(NAMES, FIELDS, AMOUNTS, st.sampled_from([("+", 1), ("-", -1), ("mais ", 1),
                                                ("menos ", -1)]),
       st.sampled_from(["", "personagem ", "a "]))
def test_a_signed_field_is_a_change(name: str, field: tuple[str, str], amount: int,
                                    sign: tuple[str, int], prefix: str) -> None:
    said, key = field
    text = f"{prefix}{name} {said} {sign[0]}{amount}"
    assert parse(text, TABLES).to_json() == {
        "command": "personagem",
        "args": {"nome": name, key: sign[1] * amount, "relativo": True}}, text


@PROFILE
@given(NAMES, st.sampled_from(["o ", "a ", ""]), st.sampled_from([
    "{x} vai forragear", "{x} vai caçar", "pescar com {x}", "{x} faz um teste de pânico",
    "{x} fica de vigia", "vigia {x}", "{x} toma 3 de dano", "{x} tirou 12"]))
def test_an_article_before_a_name_changes_nothing(name: str, article: str,
                                                  template: str) -> None:
    plain = parse(template.format(x=name), TABLES).to_json()
    assert plain["command"] is not None, plain
    assert parse(template.format(x=article + name), TABLES).to_json() == plain
