"""Helpers shared by the test_house_rules test modules."""
from __future__ import annotations

from pathlib import Path
from typing import Any


from companion.cli import main
from companion.report.source import entries, find_session, open_campaign
from companion.session import RunResult
from companion.tables.files import Tables

SOMBRIA = {"regiao": "Floresta Sombria", "terreno": "floresta", "dados": "1d4",
           "linhas": {1: "Ent furioso", 2: {"texto": "Lobos negros (2d4)", "quantidade": "2d4"},
                      3: "Bruxa da névoa", 4: "Corvos que falam"}}
REGION = {"encontros": {"regioes": {"floresta-sombria": SOMBRIA}}}
TORCH_2 = {"casa": {"luz": {"tocha": {"turnos": 2}}}}


def ok(result: RunResult) -> list[dict[str, Any]]:
    assert result.ok, result.error
    return result.events


def rolled(events: list[Any], table: str) -> list[Any]:
    def data(e: Any) -> dict[str, Any]:
        return e["data"] if isinstance(e, dict) else e.data
    return [data(e) for e in events if data(e).get("tabela") == table]


VIEWERS = ("gm", "player:ana")


def _told(db: Path, tables: Tables, viewer: str) -> list[Any]:
    """What the report tells `viewer`, command by command: the command, the texts of the
    events seen and the view after it."""
    campaign = open_campaign(db, tables)
    _start, found = entries(campaign, find_session(campaign, None), tables, viewer)
    return [(e.command.n, e.command.text, [x["text"] for x in e.events], e.after)
            for e in found]


# ---------------------------------------------------------------------- the file

def cli(*argv: str) -> int:
    return main([str(a) for a in argv])
