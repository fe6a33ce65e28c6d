"""The GM's rules changed during the campaign (the Regras screen, a rules file): checked as a
whole, stored as one undoable command `regras`, in force from the next command on."""
from __future__ import annotations

from typing import Any

from companion.engine.model import GM
from companion.history import replay
from companion.history.replay import RULES
from companion.rules import overlay
from companion.session.dice import Dice
from companion.session.journal import Journal
from companion.session.notices import Notices
from companion.session.rules_in_force import RulesInForce
from companion.session.shapes import EventDict, RunResult
from companion.session.subscribers import Subscribers
from companion.tables.errors import CommandRejected, CompanionError, TableError


class RuleChanges:
    """`change_rules`, the GM's only way to change the rules in force."""

    def __init__(self, journal: Journal, rules: RulesInForce, notices: Notices, dice: Dice,
                 subscribers: Subscribers) -> None:
        self._journal = journal
        self._rules = rules
        self._notices = notices
        self._dice = dice
        self._subscribers = subscribers

    def change_rules(self, patch: Any, actor: str, dry_run: bool = False,
                     origin: str = "mestre", text: str | None = None,
                     create: bool = False) -> RunResult:
        """The GM's rules changed by `patch` (the export's shape; null: back to the shipped
        value): checked as a whole by the loader, and, unless `dry_run`, stored as one
        undoable command (`regras`, GM-only events: what changed) whose rules hold from the
        next command on. A bad change is refused with the loader's message; nothing
        changes. With `create` (the Regras screen's "Nova região"), the patch only adds: a
        region that exists is refused with the reason, never replaced."""
        rules = self._rules
        if actor != GM:
            return RunResult(False, error=rules.render("regras.so_mestre", {}), code="regras")
        with self._journal.lock:
            try:
                change = overlay.patched(rules.shipped, rules.overrides, patch, create=create)
                overlay.regions_kept(self._journal.state, change.tables)
            except overlay.Taken as taken:
                return RunResult(False, error=overlay.taken_reason(rules.tables, taken, patch),
                                 code="regras")
            except TableError as error:
                return RunResult(False, error=rules.render(
                    "regras.invalida", {"motivo": error.message}), code="regras",
                    params={"motivo": error.message})
            if dry_run:
                return RunResult(True, events=[item.data() for item in change.changes])
            if not change.changes and change.overrides == rules.overrides:
                return RunResult(False, error=rules.render("regras.nada", {}), code="regras")
            try:
                with self._journal.recording(CommandRejected.because("gravacao.disco_cheio")):
                    stored = self._store_rules(change, actor, origin, text)
            except CompanionError as error:
                return RunResult(False, error=error.message, code=getattr(error, "code", None))
            self._subscribers.queue(stored)
        self._subscribers.deliver()
        return RunResult(True, events=stored)

    def _store_rules(self, change: overlay.Change, actor: str, origin: str,
                     text: str | None) -> list[EventDict]:
        events = self._notices.changes_told(self._rules.narrated(
            "regras.alteradas", GM, {"quantas": len(change.changes), "origem": origin}),
            change.changes)
        rules = replay.rules_id(self._journal.log, change.tables)
        said = text or self._rules.render("sessao.texto_regras", {"origem": origin})
        stored = self._journal.commit(RULES, said, events, args={"origem": origin}, actor=actor,
                                      dice=self._dice.key(RULES), rules=rules,
                                      house=overlay.dump(change.overrides))
        self._rules.use(change)
        return stored
