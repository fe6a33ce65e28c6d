"""A campaign file read offline, never written (the CLI's tools): its rules, the state it
stands at, and the commands that would come out different if run again."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from companion.engine import State, initial_state
from companion.history import replay
from companion.rules import overlay
from companion.session.shapes import SessionError
from companion.store.log import Log, Meta
from companion.tables.files import Tables


@contextmanager
def _campaign_file(path: str | Path, tables: Tables) -> Iterator[tuple[Log, Meta | None]]:
    """A campaign file read from a copy in memory (Log.read: the file is never written), with
    its meta row (None: no campaign in it); a missing file is a clear refusal."""
    if not Path(path).is_file():
        raise SessionError(tables.narration.render("sessao.banco_nao_encontrado",
                                                   {"banco": path}))
    log = Log.read(path)
    try:
        yield log, log.meta()
    finally:
        log.close()


def campaign_rules(path: str | Path, tables: Tables) -> tuple[overlay.Overrides, Tables]:
    """A campaign file's own rules (its differences from `tables`) and the rules they give,
    read without writing the file."""
    with _campaign_file(path, tables) as (log, _meta):
        found = log.house_rules()
    settled = overlay.settle(tables, overlay.load(found[1], tables.narration) if found else {})
    return settled.overrides, settled.tables


def campaign_state(path: str | Path, tables: Tables) -> State:
    """The state a campaign file stands at, read without writing the file."""
    with _campaign_file(path, tables) as (log, meta):
        if meta is None:
            return initial_state(tables)
        return replay.open_history(log, tables, meta.seed, replay.rules_id(log, tables)).state


def verify_campaign(path: str | Path, tables: Tables) -> list[replay.Step]:
    """The commands of a campaign file whose events would differ if run again with this code
    and these tables (`companion verificar`); the file is only read."""
    with _campaign_file(path, tables) as (log, meta):
        if meta is None:
            raise SessionError(tables.narration.render("sessao.sem_campanha", {"banco": path}))
        return replay.differences(log, tables, meta.seed)
