"""The session's core: what every piece shares — its state, its lock, the one write path.

Every command the session stores, the table's and its own, goes through `Core._commit`: one
transaction (the command, its events, the state after it), and the live state moves only once
it committed. The pieces (opening, notices, reading, parsing, running, repeat, undo, the GM's
rule changes, seats) are mixins over this core; they keep no state of their own.

A full disk (the store's DiskFull) refuses the command or the join that could not be written,
in the table's words (tables/narracao/gravacao.yaml, entrada.yaml); the state stays as it was,
since it only moves after its write committed. The operator's log says it once, and again only
if the disk fills up again after a write went through; nothing needs a restart.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Hashable, Iterator, Mapping, Sequence

from companion.commands.reading import ParseResult
from companion.engine import State
from companion.history import codec, dice_keys, replay
from companion.history.projection import Quoted
from companion.rules import overlay, version
from companion.tables.errors import CommandRejected, DiskFull
from companion.tables.files import Tables
from companion.store.log import Log, Meta, NewEvent, StoredCommand, StoredState
from companion.session.shapes import EventDict, Subscriber

logger = logging.getLogger("companion.session")  # one name in the operator's log, every piece

START_NUMBER = 0  # the session's own first command (the initial weather), before the table's
SYSTEM_ACTOR = "sistema"  # who gives the session's own commands


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def quoted(stored: StoredCommand) -> Quoted:
    """A stored command as an undo quotes it."""
    return Quoted(stored.name, stored.args, stored.actor, stored.text)


class Core:
    """A session's state and lock. Thread-safe: every read and write takes the lock."""

    tables: Tables  # the rules in force: `shipped` with the GM's over them (opening sets them)
    overrides: overlay.Overrides
    tables_version: str  # every file of tables/, the sentences included: part of a reading's key
    _rules_id: int  # the rules each command runs under, stored in the log
    _state: State
    _prompts_issued: int

    def __init__(self, log: Log, meta: Meta, shipped: Tables) -> None:
        self._log = log
        log.texts = self._render  # a text the log left out is the session's narration's
        self.seed = meta.seed
        self._secret = meta.secret  # the campaign's dice secret (companion.history.dice_keys)
        # the places played before the campaign had a secret keep their keys (Opening sets it)
        self._seeded_places: dict[int, str] = {}
        self.gm_token = meta.gm_token
        self.created = meta.created
        self.shipped = shipped  # the program's tables/
        self._lock = threading.RLock()
        self._notify_lock = threading.RLock()
        self._draining = False
        self._pending: deque[list[EventDict]] = deque()  # stored batches not yet delivered
        self._subscribers: list[Subscriber] = []
        # (line, tables version, context) → what the line means (LRU, Parsing.parse)
        self._parsed: OrderedDict[tuple[str, str, Hashable], ParseResult] = OrderedDict()
        self._disk_full = False  # the last write found the disk full (said once, _recording)
        self.notices: list[str] = []  # what opening told the GM (printed by the shells too)

    def _commit(self, name: str, text: str, events: Sequence[NewEvent], *,
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
        raw = codec.encode(self._state if state is None else state)
        stored = self._log.append(
            self._log.next_number() if n is None else n, text, name, args or {}, actor, now(),
            events, StoredState(codec.FORMAT, raw), dice,
            self._rules_id if rules is None else rules,
            undo=undo, release=release, house_rules=house)
        if state is not None:
            self._state = codec.decode(raw)
        return stored

    @contextmanager
    def _recording(self, refusal: CommandRejected) -> Iterator[None]:
        """One write the table asked for (the session's lock held). A full disk becomes
        `refusal`, in the table's words, and one warning in the operator's log until a write
        goes through again."""
        try:
            yield
        except DiskFull:
            if not self._disk_full:
                logger.warning(self.tables.narration.render("sessao.log_disco_cheio",
                                                            {"banco": self.db_path}))
            self._disk_full = True
            raise self._refusal(refusal) from None
        if self._disk_full:
            logger.info(self.tables.narration.render("sessao.log_espaco_de_novo",
                                                     {"banco": self.db_path}))
            self._disk_full = False

    def _use_rules(self, change: overlay.Change | overlay.Settled) -> None:
        """From now on, these rules (the lock held)."""
        self.tables = change.tables
        self.overrides = change.overrides
        self.tables_version = version.tables_fingerprint(change.tables)
        self._rules_id = replay.rules_id(self._log, change.tables)

    def _render(self, code: str, params: Mapping[str, Any]) -> str:
        """A text of the rules in force (a stored event's, rendered again by the log)."""
        return self.tables.narration.render(code, params)

    def _refusal(self, refusal: CommandRejected) -> CommandRejected:
        """A session refusal said by its code (CommandRejected.because), its message rendered
        from tables/narracao/."""
        return refusal.rendered(self.tables.narration.render(str(refusal.code), refusal.params))

    def _narrated(self, code: str, visibility: str, data: dict[str, Any]) -> NewEvent:
        """A session event (not the engine's) narrated from tables/narracao/."""
        return NewEvent("relato", visibility, self.tables.narration.render(code, data), data,
                        code)

    @property
    def state(self) -> State:
        with self._lock:
            return self._state

    @property
    def seeded(self) -> bool:
        """Whether the dice come from a seed (--seed N: tests; an old campaign kept on its
        seed) rather than the campaign's secret."""
        return not dice_keys.is_secret(self._secret)

    @property
    def db_path(self) -> str:
        return self._log.path

    @property
    def rules_id(self) -> int:
        """The rules version this session runs under (stored in the log)."""
        return self._rules_id

    def close(self) -> None:
        with self._lock:
            self._log.close()

