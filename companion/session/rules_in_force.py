"""The rules a session runs under: the program's tables/ with the GM's over them, their
version in the log, and the session's own words rendered from them (tables/narracao/)."""
from __future__ import annotations

from typing import Any, Mapping

from companion.rules import overlay, version
from companion.history import replay
from companion.store.log import Log, NewEvent
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables


class RulesInForce:
    """The rules in force. `use` is the one place they change (the session's lock held)."""

    tables: Tables  # the shipped rules with the GM's over them
    overrides: overlay.Overrides  # the GM's rules of this campaign
    tables_version: str  # every file of tables/, the sentences included: part of a reading's key
    rules_id: int  # the rules each command runs under, stored in the log

    def __init__(self, log: Log, shipped: Tables, settled: overlay.Settled) -> None:
        self._log = log
        self.shipped = shipped  # the program's tables/
        log.texts = self.render  # a text the log left out is the session's narration's
        self.use(settled)

    def use(self, change: overlay.Change | overlay.Settled) -> None:
        """From now on, these rules."""
        self.tables = change.tables
        self.overrides = change.overrides
        self.tables_version = version.tables_fingerprint(change.tables)
        self.rules_id = replay.rules_id(self._log, change.tables)

    def render(self, code: str, params: Mapping[str, Any]) -> str:
        """A text of the rules in force (tables/narracao/)."""
        return self.tables.narration.render(code, params)

    def refusal(self, refusal: CommandRejected) -> CommandRejected:
        """A session refusal said by its code (CommandRejected.because), its message rendered
        from tables/narracao/."""
        return refusal.rendered(self.render(str(refusal.code), refusal.params))

    def narrated(self, code: str, visibility: str, data: dict[str, Any]) -> NewEvent:
        """A session event (not the engine's) narrated from tables/narracao/."""
        return NewEvent("relato", visibility, self.render(code, data), data, code)
