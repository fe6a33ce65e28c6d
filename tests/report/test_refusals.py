"""The report's refusals are said from tables/narracao/relatorio.yaml of the tables folder in
use, even where no campaign's tables are at hand (reading the file, a session number), and the
CSV's yes and no are the report's words."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from companion.report import build
from companion.report.report_errors import ReportError
from companion.report.source import open_campaign, session_number
from companion.session import Session
from companion.tables.files import DEFAULT_DIR, Tables
from tests.report_helpers import play
from tests.rules_helpers import changed_rules

NARRATION = Path("narracao") / "relatorio.yaml"


def _reworded(tmp_path: Path, old: str, new: str) -> Path:
    """A tables folder whose tables/narracao/relatorio.yaml says `new` where it said `old`."""
    folder = tmp_path / "tabelas"
    (folder / NARRATION).parent.mkdir(parents=True)
    text = (DEFAULT_DIR / NARRATION).read_text(encoding="utf-8")
    assert old in text
    (folder / NARRATION).write_text(text.replace(old, new), encoding="utf-8")
    return folder


def test_a_bad_session_number_is_said_by_the_tables_in_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ReportError, match="^sessão inválida: 'dois'; use o número da sessão"):
        session_number("dois")
    folder = _reworded(tmp_path, "sessão inválida:", "número de sessão estranho:")
    monkeypatch.setenv("COMPANION_TABLES", str(folder))
    with pytest.raises(ReportError, match="^número de sessão estranho: 'dois'"):
        session_number("dois")


def test_a_missing_campaign_file_is_said_by_the_tables_in_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _reworded(tmp_path, "banco não encontrado:", "campanha sumida:")
    monkeypatch.setenv("COMPANION_TABLES", str(folder))
    with pytest.raises(ReportError, match="^campanha sumida: '.*nada.db'; diga o arquivo"):
        open_campaign(tmp_path / "nada.db")
    assert not (tmp_path / "nada.db").exists()


def test_the_csv_says_undone_with_the_reports_words(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "c.db", 3, tables)
    play(session, ["rolar 1d6", "desfazer", "rolar 1d8"])
    session.close()
    campaign = open_campaign(tmp_path / "c.db")
    rows = list(csv.DictReader(io.StringIO(build.export(campaign, tables, "csv"))))
    assert {row["desfeito"] for row in rows} == {"sim", "não"}
    reworded = changed_rules(tmp_path, "relatorio.yaml", 'sim: "sim"', 'sim: "desfeito"')
    rows = list(csv.DictReader(io.StringIO(build.export(campaign, reworded, "csv"))))
    assert {row["desfeito"] for row in rows} == {"desfeito", "não"}
