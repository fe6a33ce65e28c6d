"""Loading the rules again (a copy of tables/, a house rule merged in) builds again only what
changed: a piece made of the same data is the piece already built; changed data is built and
checked anew, its errors as at the first load."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.procedures.forced_march import ForcedMarch
from companion.rules.loader import load_rules
from companion.tables.errors import TableError
from companion.tables.files import Tables
from companion.engine.procedures.weather import WeatherRules
from tests.rules_helpers import changed_rules


def test_a_copy_of_the_tables_shares_the_pieces_and_a_change_makes_its_own(
        tables: Tables, tmp_path: Path) -> None:
    copy = changed_rules(tmp_path / "a", "viagem.yaml", "dc: 12               # 1 rodada extra",
                         "dc: 13               # 1 rodada extra")
    assert copy.piece(ForcedMarch).dc == 13 and tables.piece(ForcedMarch).dc == 12
    assert copy.piece(WeatherRules) is tables.piece(WeatherRules)  # clima.yaml unchanged
    assert copy.narration is tables.narration  # narracao/ unchanged
    again = load_rules(tmp_path / "a" / "tables")
    assert again.piece(ForcedMarch) is copy.piece(ForcedMarch)


def test_a_broken_piece_is_refused_at_every_load(tmp_path: Path) -> None:
    for attempt in ("a", "b"):
        with pytest.raises(TableError, match=r"^tables/viagem\.yaml: 'tabela_b\.dc' deveria"):
            changed_rules(tmp_path / attempt, "viagem.yaml",
                          "dc: 12               # 1 rodada extra",
                          "dc: doze               # 1 rodada extra")
