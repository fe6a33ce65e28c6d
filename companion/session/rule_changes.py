"""The GM's rules changed during the campaign (the Regras screen, a rules file): checked as a
whole, stored as one undoable command `regras`, in force from the next command on."""
from __future__ import annotations

from typing import Any

from companion.engine.model import GM
from companion.history import replay
from companion.history.replay import RULES
from companion.rules import overlay
from companion.session.core import Core
from companion.session.shapes import EventDict, RunResult
from companion.tables.errors import CommandRejected, CompanionError, TableError


class RuleChanges(Core):
    """`change_rules`, the GM's only way to change the rules in force (through self:
    Notices._changes_told, Running.dice_key, Reading._deliver)."""

    def change_rules(self, patch: Any, actor: str, dry_run: bool = False,
                     origin: str = "mestre", text: str | None = None,
                     create: bool = False) -> RunResult:
        """The GM's rules changed by `patch` (the export's shape; null: back to the shipped
        value): checked as a whole by the loader, and, unless `dry_run`, stored as one
        undoable command (`regras`, GM-only events: what changed) whose rules hold from the
        next command on. A bad change is refused with the loader's message; nothing
        changes. With `create` (the Regras screen's "Nova região"), the patch only adds: a
        region that exists is refused with the reason, never replaced."""
        if actor != GM:
            return RunResult(False, error=self.tables.narration.render("regras.so_mestre", {}),
                             code="regras")
        with self._lock:
            try:
                change = overlay.patched(self.shipped, self.overrides, patch, create=create)
                overlay.regions_kept(self._state, change.tables)
            except overlay.Taken as taken:
                return RunResult(False, error=overlay.taken_reason(self.tables, taken, patch),
                                 code="regras")
            except TableError as error:
                return RunResult(False, error=self.tables.narration.render(
                    "regras.invalida", {"motivo": error.message}), code="regras",
                    params={"motivo": error.message})
            if dry_run:
                return RunResult(True, events=[item.data() for item in change.changes])
            if not change.changes and change.overrides == self.overrides:
                return RunResult(False, error=self.tables.narration.render("regras.nada", {}),
                                 code="regras")
            try:
                with self._recording(CommandRejected.because("gravacao.disco_cheio")):
                    stored = self._store_rules(change, actor, origin, text)
            except CompanionError as error:
                return RunResult(False, error=error.message, code=getattr(error, "code", None))
            self._pending.append(stored)
        self._deliver()
        return RunResult(True, events=stored)

    def _store_rules(self, change: overlay.Change, actor: str, origin: str,
                     text: str | None) -> list[EventDict]:
        events = self._changes_told(self._narrated(
            "regras.alteradas", GM, {"quantas": len(change.changes), "origem": origin}),
            change.changes)
        rules = replay.rules_id(self._log, change.tables)
        said = text or self.tables.narration.render("sessao.texto_regras", {"origem": origin})
        stored = self._commit(RULES, said, events, args={"origem": origin}, actor=actor,
                              dice=self.dice_key(RULES), rules=rules,
                              house=overlay.dump(change.overrides))
        self._use_rules(change)
        return stored
