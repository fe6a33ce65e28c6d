"""`repetir`: the last result the asker could see, given back to the asker alone, never stored
(chosen as the GM page's last-result box chooses: companion.history.outcome)."""
from __future__ import annotations

from companion.engine import Command
from companion.engine.model import GM, PUBLIC
from companion.history.outcome import CODE, outcome
from companion.history.projection import Projection
from companion.history.replay import REPEAT
from companion.rules.pages import PageTexts
from companion.session.journal import Journal
from companion.session.reading import Reader
from companion.session.rules_in_force import RulesInForce
from companion.session.shapes import EventDict, RunResult
from companion.tables import protocol
from companion.tables.errors import CommandRejected


class Repeat:
    """The last result, read from the stored history."""

    def __init__(self, journal: Journal, rules: RulesInForce, reader: Reader) -> None:
        self._lock = journal.lock
        self._log = journal.log
        self._rules = rules
        self._reader = reader

    def repeat(self, command: Command) -> RunResult:
        """`repetir`: the last result the asker could see, again, only to them. Nothing is
        stored, nothing is sent to anyone else, no dice; the events are the stored ones (their
        seqs included: each viewer's copy is its own projection's)."""
        try:
            protocol.require_may_run(command.actor, REPEAT, self._rules.tables)
            events = self.last_result(command.actor)
            if not events:
                raise self._rules.refusal(CommandRejected.because("perguntas.nada_para_repetir"))
        except CommandRejected as refused:
            return RunResult(False, error=refused.message, code=refused.code,
                             params=refused.params)
        return RunResult(True, events=events, repeated=True)

    def last_result(self, viewer: str) -> list[EventDict]:
        """The last result `viewer` could see, its headline first: of the newest command with
        an event it may see, the events the GM page's last-result box shows
        (companion.history.outcome), among those it may see; a command with nothing to show
        there (an answer to a question: `tempo`, `registro`, a help text, a state dump) is
        passed over for the one before. As the GM reads them (a player's copies are their
        projection's: the server's gate makes them)."""
        rules = self._rules.tables.piece(PageTexts).ultimo_resultado
        seen = None if protocol.is_gm(viewer) else [PUBLIC, *(
            [viewer] if protocol.is_player(viewer) else [])]
        with self._lock:
            before = self._log.last_seq() + 1
            while (found := self._log.newest_seen(before, seen)) is not None:
                seen_here = [e for e in self._log.events_of(found[1])
                             if protocol.may_see(e["visibility"], viewer)]
                events = [e for e in seen_here if e.get("command") not in rules.perguntas]
                codes = self._log.narrations([e["seq"] for e in events])
                events = [{**e, CODE: codes[e["seq"]].code} if e["seq"] in codes else e
                          for e in events]
                chosen = outcome(events, rules, tables=self._rules.tables)
                if chosen:
                    return self._as_the_gm_reads([e["seq"] for e in chosen])
                before = min(e["seq"] for e in seen_here)
        return []

    def _as_the_gm_reads(self, seqs: list[int]) -> list[EventDict]:
        """Stored events as the GM reads them now (companion.history.projection: today's
        wording), in the order given (the headline first)."""
        first, last = min(seqs), max(seqs)
        reader = Projection(GM, self._rules.tables, self._reader.quoted)
        rows = {event.seq: event for event in self._reader.history_since(first - 1,
                                                                          limit=last - first + 1)}
        return [reader.show(rows[seq]) for seq in seqs if seq in rows]

