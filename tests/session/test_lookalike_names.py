"""Look-alike names (issue 33, item 3): digits that read as letters (1/l/i, 0/o, 5/s) and
punctuation at either end are folded before names are compared, so "L1a" beside "Lia",
"B1a" beside "Bia" and "Ana." beside "Ana" are refused as impersonations."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.session import Session
from companion.session.names import skeleton
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables


def test_digits_that_read_as_letters_and_edge_punctuation_fold() -> None:
    assert skeleton("L1a") == skeleton("Lia") == skeleton("LIA") == skeleton("Lla")
    assert skeleton("B1a") == skeleton("Bia")
    assert skeleton("Ana.") == skeleton("Ana") == skeleton("¡Ana!") == skeleton("Ana ...")
    assert skeleton("5ofia") == skeleton("Sofia") and skeleton("J0ão") == skeleton("João")
    assert skeleton("Ana") != skeleton("Ava") and skeleton("Lia") != skeleton("Lua")
    assert skeleton("Ana Maria") != skeleton("Ana Marta")


@pytest.mark.parametrize(("first", "second"), [("Lia", "L1a"), ("Bia", "B1a"),
                                                ("Ana", "Ana."), ("L1a", "Lia"),
                                                ("Sofia", "5ofia"), ("Otto", "0tto")])
def test_a_lookalike_of_a_seated_name_is_refused(tmp_path: Path, tables: Tables, first: str,
                                                 second: str) -> None:
    session = Session.open(tmp_path / "c.db", 3, tables)
    try:
        session.join_player(first)
        with pytest.raises(CommandRejected, match=f"se confunde com {first}"):
            session.join_player(second)
        assert [c.name for c in session.state.party] == [first]
    finally:
        session.close()
