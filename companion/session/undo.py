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
from companion.session.core import Core, quoted
from companion.session.shapes import EventDict
from companion.store.log import NewEvent, StoredCommand
from companion.tables import protocol
from companion.tables.errors import CommandRejected

NOT_UNDOABLE = PLACELESS  # views, desfazer itself, the session's own and system commands


class Undo(Core):
    """The last standing command undone (through self: Notices._changes_told,
    Reading.quoted)."""

    def _undo(self, command: Command, text: str) -> list[EventDict]:
        protocol.require_may_run(command.actor, UNDO, self.tables)
        target = self._log.last_active(sorted(NOT_UNDOABLE))
        if target is None:
            raise self._refusal(CommandRejected.because("desfazer.nada", dito=text))
        state = replay.state_before(self._log, self.shipped, self.seed, target.n)
        events = self._undo_events(target)
        back = self._rules_before(target) if target.name == RULES else None
        rules = house = None  # the rules in force stay, unless a rules change is undone
        if back is not None:
            events += self._changes_told(self._narrated(
                "regras.desfeitas", GM, {"quantas": len(back.changes)}), back.changes)
            rules, house = replay.rules_id(self._log, back.tables), overlay.dump(back.overrides)
        stored = self._commit(UNDO, text, events, actor=command.actor, state=state, rules=rules,
                              undo=target.n, house=house)
        if back is not None:
            self._use_rules(back)
        return stored

    def _rules_before(self, target: StoredCommand) -> overlay.Change:
        """The GM's rules as they were before the rules change `target`, and what going back
        to them changes."""
        found = self._log.house_rules(target.n - 1)
        settled = overlay.settle(self.shipped, overlay.load(found[1], self.shipped.narration) if found else {})
        changes = version.changes(version.rule_files(self.tables),
                                  version.rule_files(settled.tables))
        return overlay.Change(settled.overrides, settled.tables, tuple(
            replace(change, origem=overlay.ORIGIN_UNDO) for change in changes))

    def _undo_events(self, target: StoredCommand) -> list[NewEvent]:
        """Say what was undone, quoting it as the GM reads it (each viewer's projection quotes
        it again for that viewer); a command the table never saw is named to the GM alone."""
        texto = Projection(GM, self.tables, self.quoted).quote(quoted(target))
        details = {"desfeito": target.n, "comando": target.name, "texto": texto}
        said = self._narrated("desfazer.desfeito", PUBLIC, details)
        if any(e["visibility"] == PUBLIC for e in self._log.events_of(target.n)):
            return [said]
        return [self._narrated("desfazer.mestre_desfez", PUBLIC, {}),
                replace(said, visibility=GM)]
