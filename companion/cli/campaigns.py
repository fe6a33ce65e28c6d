"""`mesa campanhas`: the campaigns in the GM's campaigns folder, with when each was last played,
how many sessions it has and its size on disk; and `--campanha NOME` made into a file there."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO

from companion.report.source import open_campaign, sessions
from companion.tables import places
from companion.tables.errors import CompanionError


@dataclass(frozen=True)
class CampaignInfo:
    name: str
    path: Path
    last_played: str  # "2026-12-04 21:30", or "" for a campaign never played
    sessions: int
    size: int  # bytes, with its SQLite WAL


def resolve(args: argparse.Namespace) -> None:
    """`--campanha NOME` becomes `--db <the GM's campaigns folder>/NOME.db` (the folder made)."""
    name = getattr(args, "campanha", None)
    if not name:
        return
    if getattr(args, "db", None):
        raise CompanionError("use --campanha NOME ou --db ARQUIVO, não os dois")
    path = places.campaign_file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    args.db = str(path)


def campaign_info(path: Path) -> CampaignInfo:
    """What the list says of one campaign file (CompanionError when it cannot be read)."""
    size = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())
    campaign = open_campaign(path)
    played = [command.at for command in campaign.commands]
    last = _when(played[-1]) if played else ""
    return CampaignInfo(path.stem, path, last, len(sessions(campaign)) if played else 0, size)


def _when(stamp: str) -> str:
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def _size(size: int) -> str:
    if size < 1_000_000:
        return f"{max(1, round(size / 1000))} kB"
    return f"{size / 1_000_000:.1f} MB".replace(".", ",")


def line(info: CampaignInfo) -> str:
    played = f"jogada por último em {info.last_played}" if info.last_played else "nunca jogada"
    count = "1 sessão" if info.sessions == 1 else f"{info.sessions} sessões"
    return f"{info.name}: {played}, {count}, {_size(info.size)}"


def list_campaigns(out: TextIO, err: TextIO, folder: Path | None = None) -> int:
    """Print one line per campaign (the most recently played first); 0."""
    folder = folder or places.campaigns_folder()
    files = sorted(folder.glob(f"*{places.CAMPAIGN_SUFFIX}")) if folder.is_dir() else []
    found: list[CampaignInfo] = []
    for path in files:
        try:
            found.append(campaign_info(path))
        except Exception as error:  # noqa: BLE001 (one unreadable file must not hide the rest)
            print(f"{path.stem}: não consegui ler {path} ({error})", file=err)
    if not files:
        print(f"nenhuma campanha em {folder}; o comando mesa cria a primeira, e mesa "
              "--campanha NOME uma com esse nome", file=out)
        return 0
    for info in sorted(found, key=lambda i: i.last_played, reverse=True):
        print(line(info), file=out)
    print(f"(pasta: {folder}; abra uma com mesa --campanha NOME)", file=out)
    return 0
