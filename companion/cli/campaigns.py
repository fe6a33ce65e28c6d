"""`mesa campanhas`: the campaigns in the GM's campaigns folder, with when each was last played
(as the report says a date), how many sessions it has and its size on disk; and `--campanha
NOME` made into a file there. Its words are tables/narracao/campanhas.yaml."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO

from companion.report.cells import when
from companion.report.source import open_campaign, sessions
from companion.store import file_format
from companion.tables import places
from companion.tables.errors import CompanionError
from companion.tables.files import Tables


@dataclass(frozen=True)
class CampaignInfo:
    name: str
    path: Path
    last_played: str  # the last command's time as logged (ISO 8601), or "" if never played
    sessions: int
    size: int  # bytes, with its SQLite WAL

    @property
    def played_order(self) -> float:
        """When it was last played, as a POSIX time to sort by (never played: 0)."""
        try:
            return datetime.fromisoformat(self.last_played).timestamp()
        except ValueError:
            return 0.0


def resolve(args: argparse.Namespace, tables: Tables) -> None:
    """`--campanha NOME` becomes `--db <the GM's campaigns folder>/NOME.db` (the folder made)."""
    name = getattr(args, "campanha", None)
    if not name:
        return
    if getattr(args, "db", None):
        raise CompanionError(tables.narration.render("campanhas.os_dois", {}))
    path = places.campaign_file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    args.db = str(path)


def campaign_info(path: Path) -> CampaignInfo:
    """What the list says of one campaign file (CompanionError when it cannot be read)."""
    size = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())
    campaign = open_campaign(path)
    played = [command.at for command in campaign.commands]
    last = played[-1] if played else ""
    return CampaignInfo(path.stem, path, last, len(sessions(campaign)) if played else 0, size)


def _size(size: int) -> str:
    if size < 1_000_000:
        return f"{max(1, round(size / 1000))} kB"
    return f"{size / 1_000_000:.1f} MB".replace(".", ",")


def line(info: CampaignInfo, tables: Tables) -> str:
    """One campaign of the list: its name, when it was last played, sessions, size."""
    return tables.narration.render("campanhas.linha", {
        "nome": info.name, "jogada": when(info.last_played), "sessoes": info.sessions,
        "tamanho": _size(info.size)})


def most_recent_first(found: list[CampaignInfo]) -> list[CampaignInfo]:
    """The campaigns by when they were last played, the latest first (never played: last)."""
    return sorted(found, key=lambda info: info.played_order, reverse=True)


def list_campaigns(tables: Tables, out: TextIO, err: TextIO, folder: Path | None = None) -> int:
    """Print one line per campaign (the most recently played first); 0."""
    words = tables.narration
    folder = folder or places.campaigns_folder()
    files = sorted(folder.glob(f"*{places.CAMPAIGN_SUFFIX}")) if folder.is_dir() else []
    copies = [path for path in files if file_format.is_copy(path)]
    files = [path for path in files if not file_format.is_copy(path)]
    found: list[CampaignInfo] = []
    for path in files:
        try:
            found.append(campaign_info(path))
        except Exception as error:  # noqa: BLE001 (one unreadable file must not hide the rest)
            print(words.render("campanhas.nao_leu", {
                "nome": path.stem, "arquivo": path, "motivo": error}), file=err)
    if not files:
        print(words.render("campanhas.nenhuma", {"pasta": folder}), file=out)
        return 0
    for info in most_recent_first(found):
        print(line(info, tables), file=out)
    print_copies(copies, tables, out)
    print(words.render("campanhas.pasta", {"pasta": folder}), file=out)
    return 0


def print_copies(copies: list[Path], tables: Tables, out: TextIO) -> None:
    """The copies an update left beside the campaigns (file_format.copy_before_change), with
    the campaign and the release each was copied before."""
    if not copies:
        return
    print(tables.narration.render("campanhas.copias", {}), file=out)
    for path in copies:
        campaign, _, release = path.stem.partition(file_format.BEFORE)
        print(tables.narration.render("campanhas.copia", {
            "campanha": campaign, "versao": release, "arquivo": path,
            "tamanho": _size(path.stat().st_size)}), file=out)
