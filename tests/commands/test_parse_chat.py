"""Chat readings that earlier sessions found wrong: each pinned here (the parse layer)."""
from __future__ import annotations

import pytest

from companion.commands import parse
from companion.tables.files import Tables


@pytest.mark.parametrize("said, names", [
    ("ordem de marcha ana bia e caio", ["Ana", "Bia", "Caio"]),
    ("ordem de marcha Ana Bia e Caio", ["Ana", "Bia", "Caio"]),
    ("ordem de marcha ana bia depois caio", ["Ana", "Bia", "Caio"]),
    # the last name of the list may have several words; commas keep every name as said
    ("a ordem de marcha é Bia e Ana Clara", ["Bia", "Ana Clara"]),
    ("ordem de marcha Ana Clara, Bia e Caio", ["Ana Clara", "Bia", "Caio"]),
    ("ordem de marcha ana de souza bia e caio", ["Ana de Souza", "Bia", "Caio"]),
])
def test_marching_order_without_commas_is_one_name_per_word(said: str, names: list[str],
                                                            tables: Tables) -> None:
    result = parse(said, tables)
    assert result.command is not None, result.error
    assert result.command.args["ordem"] == names


@pytest.mark.parametrize("said", ["xyzzy rolar", "blorp rolar", "ana bia rolar"])
def test_a_stray_word_before_rolar_is_not_a_command(said: str, tables: Tables) -> None:
    result = parse(said, tables)
    assert result.command is None, result.command
    assert result.error == f"não entendi '{said}' como comando; diga 'ajuda' para ver os comandos"


@pytest.mark.parametrize("said", ["Ana rola", "a Carla rola o teste", "ana vai rolar",
                                  "responder Carla rolar"])
def test_a_character_who_rolls_is_still_an_answer(said: str, tables: Tables) -> None:
    result = parse(said, tables)
    assert result.command is not None and result.command.name == "responder", result.error
