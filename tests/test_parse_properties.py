"""Properties of the parser: any text gives a result; every sampled phrase parses back."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unicode_rbnf import RbnfEngine

from companion.commands import normalize, parse, sample_phrases
from companion.commands.parse import ParseResult
from companion.tables import Tables, load_tables

TABLES = load_tables()
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


PAIRS = sample_phrases(TABLES)


@pytest.mark.parametrize("command, phrase", PAIRS, ids=[p for _, p in PAIRS])
def test_every_sampled_phrase_parses_back_to_its_command(command: str, phrase: str,
                                                         tables: Tables) -> None:
    result = parse(phrase, tables)
    assert result.command is not None, result.error
    assert result.command.name == command
