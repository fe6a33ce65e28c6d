"""`mesa campanhas` (companion/cli/campaigns.py): each campaign with when it was last played,
said as the report says a date, the latest first."""
from __future__ import annotations

from pathlib import Path

from companion.cli.campaigns import CampaignInfo, line, most_recent_first
from companion.report.cells import when
from companion.tables.files import Tables


def _info(name: str, stamp: str, sessions: int = 1) -> CampaignInfo:
    return CampaignInfo(name, Path(f"{name}.db"), stamp, sessions, 12_000)


def test_a_campaign_is_listed_with_the_reports_date(tables: Tables) -> None:
    said = line(_info("Tumba", "2026-12-01T21:24:00"), tables)
    assert said == "Tumba: jogada por último em 01/12/2026 21:24, 1 sessão, 12 kB"
    assert when("2026-12-01T21:24:00") == "01/12/2026 21:24"  # the report says it so too


def test_a_campaign_never_played_says_so(tables: Tables) -> None:
    assert line(_info("Nova", "", 0), tables) == "Nova: nunca jogada, 0 sessões, 12 kB"


def test_the_latest_played_comes_first_by_time_not_by_the_dates_text() -> None:
    # as dd/mm/yyyy text, '20/12/2025' sorts after '05/01/2026': the order is by the moment
    found = [_info("Velha", "2025-12-20T20:00:00+00:00"), _info("Nunca", ""),
             _info("Nova", "2026-01-05T20:00:00+00:00"),
             _info("Meio", "2025-12-31T23:00:00-03:00")]
    assert [info.name for info in most_recent_first(found)] == ["Nova", "Meio", "Velha", "Nunca"]
