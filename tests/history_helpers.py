"""What the history tests share: the commands of a stored campaign whose events would differ if
it were run again today (companion verificar's check), read from a copy of the file."""
from __future__ import annotations

from pathlib import Path

from companion import replay
from companion.store.log import Log
from companion.tables import Tables


def differences(db: str | Path, tables: Tables) -> list[replay.Step]:
    """The commands `companion verificar` would list for the campaign at db."""
    log = Log.read(db)
    try:
        meta = log.meta()
        assert meta is not None, f"{db} has no campaign"
        return replay.differences(log, tables, meta.seed)
    finally:
        log.close()
