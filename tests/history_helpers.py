"""What the history tests share: the commands of a stored campaign whose events would differ if
it were run again today — exactly what `companion verificar` lists."""
from __future__ import annotations

from pathlib import Path

from companion.history import replay
from companion.session import verify_campaign
from companion.tables.files import Tables


def differences(db: str | Path, tables: Tables) -> list[replay.Step]:
    """The commands `companion verificar` would list for the campaign at db."""
    return verify_campaign(db, tables)
