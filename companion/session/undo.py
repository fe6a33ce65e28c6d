"""`desfazer`: the last state-changing command marked undone and the state stored before it
back (a rules change undone brings the GM's rules before it back); never re-rolled, never
recomputed (docs/design.md: history is kept)."""
from __future__ import annotations

from dataclasses import replace

from companion.engine import Command
from companion.engine.model import GM, PUBLIC
from companion.history import replay
from companion.history.projection import Projection
from companion.history.replay import PLACELESS, RULES, UNDO
from companion.rules import overlay, version
from companion.session.journal import Journal, quoted
from companion.session.notices import Notices
from companion.session.reading import Reader
from companion.session.rules_in_force import RulesInForce
from companion.session.shapes import EventDict
from companion.store.log import NewEvent, StoredCommand
from companion.tables import protocol
from companion.tables.errors import CommandRejected

NOT_UNDOABLE = PLACELESS  # views, desfazer itself, the session's own and system commands


class Undo:
    """The last standing command undone."""

    def __init__(self, journal: Journal, rules: RulesInForce, notices: Notices, reader: Reader,
                 seed: str) -> None:
        self._journal = journal
        self._log = journal.log
        self._rules = rules
        self._notices = notices
        self._reader = reader
        self._seed = seed

    def undo(self, command: Command, text: str) -> list[EventDict]:
        """Undo the newest standing command (the lock held)."""
        rules_now = self._rules
        protocol.require_may_run(command.actor, UNDO, rules_now.tables)
        target = self._log.last_active(sorted(NOT_UNDOABLE))
        if target is None:
            raise rules_now.refusal(CommandRejected.because("desfazer.nada", dito=text))
        state = replay.state_before(self._log, rules_now.shipped, self._seed, target.n)
        events = self._undo_events(target)
        back = self._rules_before(target) if target.name == RULES else None
        rules = house = None  # the rules in force stay, unless a rules change is undone
        if back is not None:
            events += self._notices.changes_told(rules_now.narrated(
                "regras.desfeitas", GM, {"quantas": len(back.changes)}), back.changes)
            rules, house = replay.rules_id(self._log, back.tables), overlay.dump(back.overrides)
        stored = self._journal.commit(UNDO, text, events, actor=command.actor, state=state,
                                      rules=rules, undo=target.n, house=house)
        if back is not None:
            rules_now.use(back)
        return stored

    def _rules_before(self, target: StoredCommand) -> overlay.Change:
        """The GM's rules as they were before the rules change `target`, and what going back
        to them changes."""
        shipped = self._rules.shipped
        found = self._log.house_rules(target.n - 1)
        settled = overlay.settle(shipped, overlay.load(found[1], shipped.narration)
                                 if found else {})
        changes = version.changes(version.rule_files(self._rules.tables),
                                  version.rule_files(settled.tables))
        return overlay.Change(settled.overrides, settled.tables, tuple(
            replace(change, origem=overlay.ORIGIN_UNDO) for change in changes))

    def _undo_events(self, target: StoredCommand) -> list[NewEvent]:
        """Say what was undone, quoting it as the GM reads it (each viewer's projection quotes
        it again for that viewer); a command the table never saw is named to the GM alone."""
        texto = Projection(GM, self._rules.tables, self._reader.quoted).quote(quoted(target))
        details = {"desfeito": target.n, "comando": target.name, "texto": texto}
        said = self._rules.narrated("desfazer.desfeito", PUBLIC, details)
        if any(e["visibility"] == PUBLIC for e in self._log.events_of(target.n)):
            return [said]
        return [self._rules.narrated("desfazer.mestre_desfez", PUBLIC, {}),
                replace(said, visibility=GM)]
