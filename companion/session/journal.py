"""The session's journal: its lock, its log, the state, and the one write path.

Every command the session stores, the table's and its own, goes through `Journal.commit`: one
transaction (the command, its events, the state after it), and the live state moves only once
it committed. The commit also decides what the log keeps of each event: its text is left out
(the log stores it DERIVED) when its code renders exactly it again from its data and words.

A full disk (the store's DiskFull) refuses the command or the join that could not be written,
in the table's words (tables/narracao/gravacao.yaml, entrada.yaml); the state stays as it was,
since it only moves after its write committed. The operator's log says it once, and again only
if the disk fills up again after a write went through; nothing needs a restart.
"""
from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import cache, lru_cache
from typing import Any, Iterator, Mapping, Sequence

from companion.engine import State
from companion.history import codec
from companion.history.projection import Quoted
from companion.session.rules_in_force import RulesInForce
from companion.session.shapes import EventDict
from companion.store.log import DERIVED, ChangedState, Log, NewEvent, StoredCommand
from companion.store.log import encoded
from companion.tables.errors import CommandRejected, DiskFull, TableError
from companion.tables.weights import template_params

logger = logging.getLogger("companion.session")  # one name in the operator's log, every piece

START_NUMBER = 0  # the session's own first command (the initial weather), before the table's
SYSTEM_ACTOR = "sistema"  # who gives the session's own commands


def now() -> str:
    """The time of a write, UTC to the second (ISO 8601)."""
    return _at_second(int(time.time()))


@lru_cache(maxsize=1)
def _at_second(second: int) -> str:
    """One second's text, made once for every write within it."""
    return datetime.fromtimestamp(second, timezone.utc).isoformat()


def quoted(stored: StoredCommand) -> Quoted:
    """A stored command as an undo quotes it."""
    return Quoted(stored.name, stored.args, stored.actor, stored.text)


class Journal:
    """The lock, the log and the state. The state moves only in `commit`; the prompts issued
    too (the highest prompt id the log holds)."""

    def __init__(self, log: Log, rules: RulesInForce, state: State) -> None:
        self.log = log
        self.lock = threading.RLock()
        self._rules = rules
        self._state = state
        self._prompts_issued = max(log.prompt_ids().values(), default=0)
        self._disk_full = False  # the last write found the disk full (said once, `recording`)
        self._read_back = False  # `state` is as the log reads it back (a commit decoded it)
        # the command whose stored state `state` reads as, field by field (None: before the
        # first commit, the state may not be any stored one's reading)
        self._stored_n: int | None = None
        # the state a commit stored, not yet read back as the log gives it: (the state
        # before, the state after as stored) — read back when first asked for, so the
        # command's events go out to the phones before it is
        self._unread: tuple[State, ChangedState] | None = None
        self._reading = threading.Lock()

    @property
    def state(self) -> State:
        """The state after the newest command, as the log reads it back."""
        if self._unread is not None:
            with self._reading:
                if self._unread is not None:
                    before, after = self._unread
                    self._state = codec.read_back(before, after.fields, after.whole) \
                        if self._read_back else codec.decode(after.whole())
                    self._read_back = True
                    self._unread = None
        return self._state

    @property
    def prompts_issued(self) -> int:
        """The highest prompt id issued so far (a new prompt takes the next)."""
        return self._prompts_issued

    def commit(self, name: str, text: str, events: Sequence[NewEvent], *,
               args: Mapping[str, Any] | None = None, actor: str = SYSTEM_ACTOR,
               state: State | None = None, dice: str | None = None, rules: int | None = None,
               n: int | None = None, undo: int | None = None, release: str | None = None,
               house: str | None = None) -> list[EventDict]:
        """Store one command, the only way the session writes one (the lock held): its events
        and the state after it (`state`; None: unchanged) in one transaction, numbered next
        (or `n`), under the rules in force (or `rules`), marking `undo` undone, deleting the
        tokens of the character `release`, keeping the GM's rules `house` from it on. The
        defaults are a system command's: the session's own, no dice, the state unchanged.
        The live state moves only after the write, to the state as the log holds it."""
        number = self.log.next_number() if n is None else n
        before = self.state
        after = before if state is None else state
        # what changed since the newest stored state (the fields the engine made anew), and
        # the whole state only if the log asks (a keyframe)
        stored_state = ChangedState(codec.FORMAT, self._stored_n, codec.changes(before, after),
                                    cache(lambda: codec.encode(after)))
        stored = self.log.append(
            number, text, name, args or {}, actor, now(),
            [self._as_stored(event) for event in events], stored_state, dice,
            self._rules.rules_id if rules is None else rules,
            undo=undo, release=release, house_rules=house)
        self._stored_n = number
        if state is not None:  # as read back (only what changed is decoded again), when asked
            self._unread = (before, stored_state)
        self._prompts_issued = max([self._prompts_issued] + [
            e["data"]["pedido"]["id"] for e in stored if e["kind"] == "pedido"
            and isinstance(e["data"].get("pedido"), dict)])
        return stored

    def _as_stored(self, event: NewEvent) -> NewEvent:
        """The event as the log keeps it: marked derived (stored without its text) when its
        code renders exactly its text again from the data and words as they read back."""
        known = encoded(event)  # encoded and read back once: the log stores these
        derived = False
        if event.code and isinstance(known.data, dict):
            try:
                said = self._rules.render(event.code, template_params(
                    self._rules.tables.narration, event.code, known.data, known.words))
                derived = said == event.text and said != DERIVED
            except TableError:  # a template that does not fit these values: the text is kept
                pass
        return NewEvent(kind=event.kind, visibility=event.visibility, text=event.text,
                        data=event.data, code=event.code, words=event.words, derived=derived,
                        encoded=known)

    @contextmanager
    def recording(self, refusal: CommandRejected) -> Iterator[None]:
        """One write the table asked for (the lock held). A full disk becomes `refusal`, in
        the table's words, and one warning in the operator's log until a write goes through
        again."""
        try:
            yield
        except DiskFull:
            if not self._disk_full:
                logger.warning(self._rules.render("sessao.log_disco_cheio",
                                                  {"banco": self.log.path}))
            self._disk_full = True
            raise self._rules.refusal(refusal) from None
        if self._disk_full:
            logger.info(self._rules.render("sessao.log_espaco_de_novo", {"banco": self.log.path}))
            self._disk_full = False
