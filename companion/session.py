"""A table session: the imperative shell around the pure engine.

Every input — typed, spoken, tapped or sent over HTTP — goes the same way through `Session.run`:
parse → engine.apply(state, command, Random(f"{seed}:{n}"), tables) → one SQLite transaction →
subscribers → the caller. A rejected command stores and changes nothing. `desfazer` is handled
here: it marks the last state-changing command undone and goes back to the state before it
(kept in memory, or rebuilt from the newest snapshot before it plus the commands after that,
each with its own number's RNG). Every `snapshot.EVERY` commands the state is snapshotted in the
command's own transaction; opening an existing log loads the newest snapshot of this engine and
these tables and replays only what follows it (the whole log when there is none).

Players: `join_player` creates the character (through a logged `personagem` command) the first
time a name joins; every join, even a second one with the same name, gets a NEW token for that
same character — one per device, so a token is never handed out twice.

A full disk (the store's DiskFull) refuses the command or the join that could not be written,
in the table's words (tables/narracao/gravacao.yaml, entrada.yaml); the state stays as it was,
since it only moves after its write committed. The operator's log says it once, and again only
if the disk fills up again after a write went through; nothing needs a restart.
"""
from __future__ import annotations

import json
import logging
import random
import secrets
import threading
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from companion import protocol, snapshot
from companion.engine import Command, State, apply, initial_state
from companion.commands.parse import parse
from companion.engine.model import GM, PUBLIC
from companion.engine.procedures.weather import SESSION_START
from companion.engine.toolkit import slug
from companion.errors import CommandRejected, CompanionError, DiskFull
from companion.store.log import (Log, Meta, Narration, NewEvent, Snapshot, StoredCommand,
                                 dumps)
from companion.tables import Tables

logger = logging.getLogger(__name__)

UNDO = "desfazer"
READ_ONLY = frozenset({"ajuda", "estado", "registro"})  # views: not replayed, not undone
NOT_UNDOABLE = READ_ONLY | {UNDO}
START_NUMBER = 0  # the session's own first command (the initial weather), before the table's
NO_SNAPSHOT = START_NUMBER - 1  # "replay from the very start": below every command number
PARSE_CACHE = 512  # distinct command lines remembered

EventDict = dict[str, Any]
Subscriber = Callable[[list[EventDict]], None]


class SessionError(CompanionError):
    """The session cannot be opened as asked (e.g. a --seed that contradicts the log)."""


@dataclass(frozen=True)
class RunResult:
    """What one command did: the stored events, or why nothing happened."""

    ok: bool
    events: list[EventDict] = field(default_factory=list)
    error: str | None = None
    code: str | None = None  # why, for the pages (companion.protocol.REFUSAL_CODES)
    params: dict[str, Any] = field(default_factory=dict)  # the refusal's data (its code's)

    def to_json(self) -> dict[str, Any]:
        """The acknowledgement shape of the HTTP API and Socket.IO."""
        if self.ok:
            return {"ok": True, "events": self.events}
        return protocol.refusal(self.error or "", self.code)


@dataclass(frozen=True)
class Player:
    token: str
    character_id: str
    name: str


@dataclass(frozen=True)
class ReplayMismatch:
    """A stored command whose replay did not give back its stored events."""

    n: int
    text: str
    reason: str


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _json_safe(value: Any) -> Any:
    """The value as it comes back from the log, so live and replayed runs see the same thing."""
    return json.loads(dumps(value))


def fresh_prompt_ids(state: State, issued: int) -> State:
    """The state with its next prompt id past every id the log ever issued: after `desfazer`
    restores an older counter, a new prompt must not take an undone prompt's id (an old
    button on a phone would answer it). Live runs and replays apply it alike, before each
    command, from the ids stored in the log, so replay stays exact."""
    if state.next_prompt_id > issued:
        return state
    return replace(state, next_prompt_id=issued + 1)


def _full_at_open(tables: Tables, where: str) -> SessionError:
    """The session could not be written as it opened: the disk is full."""
    return SessionError(tables.narration.render("gravacao.disco_cheio_ao_abrir",
                                                {"banco": where}))


def describe(command: Command) -> str:
    """A text for a command that arrived already parsed (a tapped button)."""
    values = " ".join(str(v) for v in command.args.values())
    return f"{command.name} {values}".strip()


class Session:
    """One table's session. Thread-safe: every read and write takes the session's lock."""

    def __init__(self, log: Log, meta: Meta, tables: Tables) -> None:
        self._log = log
        self.seed = meta.seed
        self.gm_token = meta.gm_token
        self.created = meta.created
        self.tables = tables
        self._lock = threading.RLock()
        self._notify_lock = threading.RLock()
        self._draining = False
        self._pending: deque[list[EventDict]] = deque()
        self._subscribers: list[Subscriber] = []
        self._parsed: OrderedDict[str, Any] = OrderedDict()  # line → parse result (LRU)
        self._disk_full = False  # the last write found the disk full (said once, _recording)
        # The state before each command still in force: undo goes back in one step.
        self._before: dict[int, State] = {}
        self._version = snapshot.version(tables)
        self.resumed_from = 0  # the command number of the snapshot the state was resumed from
        self._state, self.replay_mismatches = self._resume()
        self._prompts_issued = max(log.prompt_ids().values(), default=0)
        # what the session said when it was created (empty when it was resumed)
        self.started: list[EventDict] = self._start() if log.is_empty() else []

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, db_path: str | Path | None, seed: int | str | None, tables: Tables,
             gm_token: str | None = None) -> Session:
        """Open a new session or resume the one stored at db_path (None → in memory)."""
        try:
            log = Log.open(db_path)
        except DiskFull:
            raise _full_at_open(tables, str(db_path)) from None
        return cls.open_log(log, seed, tables, gm_token)

    @classmethod
    def open_log(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None = None) -> Session:
        """The session stored in an open log (a new one when it has none). A write that finds
        the disk full (the meta row, the first command) closes the log and says so."""
        try:
            return cls._opening(log, seed, tables, gm_token)
        except DiskFull:
            log.close()
            raise _full_at_open(tables, log.path) from None

    @classmethod
    def _opening(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None) -> Session:
        meta = log.meta()
        if meta is None:
            chosen = str(seed) if seed is not None else str(secrets.randbelow(1_000_000))
            meta = Meta(seed=chosen, gm_token=gm_token or secrets.token_urlsafe(16),
                        created=_now())
            log.write_meta(meta)
        else:
            if seed is not None and str(seed) != meta.seed:
                log.close()
                raise SessionError(
                    f"o banco '{log.path}' é de uma sessão com a semente {meta.seed}, não "
                    f"{seed}; abra-o sem --seed (ou com --seed {meta.seed}) ou use outro --db"
                )
            if gm_token and gm_token != meta.gm_token:
                meta = Meta(meta.seed, gm_token, meta.created)
                log.write_meta(meta)
        return cls(log, meta, tables)

    def _start(self) -> list[EventDict]:
        """A session just created rolls its initial weather (RULES.md: at the start of the
        session, with the default season). It is command 0, with its own RNG, so the table's
        commands keep their numbers and rolls; it is never undone."""
        with self._lock:
            return self._apply(Command(SESSION_START, {}), "início da sessão", START_NUMBER)

    def _resume(self) -> tuple[State, list[ReplayMismatch]]:
        """The stored session's state: newest usable snapshot, then the commands after it."""
        start, after = self._snapshot_before(None)
        self.resumed_from = max(after, 0)
        history = self._log.commands(after)
        state, mismatches = self._replay(history, check=True, record=self._before, start=start)
        if len(history) >= snapshot.EVERY and not mismatches:
            # a long replay (new rules or code since the last snapshot): not again next time
            self._log.keep_snapshot(history[-1].n, snapshot.dump(state, self._version))
        return state, mismatches

    def _snapshot_before(self, n: int | None) -> tuple[State, int]:
        """The newest usable snapshot taken after a command below n: (state, its number);
        the initial state and NO_SNAPSHOT (before command 0) when there is none."""
        stored = self._log.snapshot_before(self._version, n)
        while stored is not None:
            state = snapshot.load(stored[1])
            if state is not None:
                return state, stored[0]
            logger.warning("instantâneo do comando %d ilegível; uso um anterior", stored[0])
            stored = self._log.snapshot_before(self._version, stored[0])
        return initial_state(self.tables), NO_SNAPSHOT

    def close(self) -> None:
        with self._lock:
            self._log.close()

    @property
    def db_path(self) -> str:
        return self._log.path

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> State:
        with self._lock:
            return self._state

    def events_since(self, seq: int = 0) -> list[EventDict]:
        with self._lock:
            return self._log.events_since(seq)

    def narrations(self, seqs: Sequence[int]) -> dict[int, Narration]:
        """How these events' texts were rendered (Log.narrations)."""
        with self._lock:
            return self._log.narrations(seqs)

    def events_of(self, n: int) -> list[EventDict]:
        """The events command n produced."""
        with self._lock:
            return self._log.events_of(n)

    def last_seq(self) -> int:
        with self._lock:
            return self._log.last_seq()

    def visibilities_since(self, seq: int = 0) -> list[EventDict]:
        """{"seq", "visibility"} of each event after seq: enough to number them per viewer,
        without decoding their data."""
        with self._lock:
            rows = self._log.visibilities_since(seq)
        return [{"seq": s, "visibility": v} for s, v in rows]

    def commands(self) -> list[StoredCommand]:
        with self._lock:
            return self._log.commands()

    def subscribe(self, callback: Subscriber) -> None:
        """Call `callback(events)` with each batch of new events, in seq order."""
        with self._lock:
            self._subscribers.append(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    # ------------------------------------------------------------------ running

    def run(self, text: str, actor: str = "gm") -> RunResult:
        """Parse and run one line of text as `actor` ("gm" or "player:<id>")."""
        line = text.strip()
        if not line:
            return RunResult(False, error="linha vazia: diga ou digite um comando; "
                                          "'ajuda' lista os comandos")
        try:
            result = self._parse(parse, line)
        except Exception as error:  # "not a command" is a value; anything else is a bug
            logger.exception("erro interno ao interpretar %r", line)
            return RunResult(False, error=f"erro interno ao interpretar '{line}': "
                                          f"{type(error).__name__}: {error}")
        if result.command is None:
            return RunResult(False, error=result.error or f"não entendi: '{line}'")
        command = Command(result.command.name, dict(result.command.args), actor)
        return self.run_command(command, text=line)

    def _parse(self, parse: Callable[..., Any], line: str) -> Any:
        """parse(line, tables), remembered: a table says the same few commands all evening,
        and parsing is a pure function of the text and the tables."""
        with self._lock:
            known = self._parsed.get(line)
            if known is not None:
                self._parsed.move_to_end(line)
                return known
        result = parse(line, self.tables)
        with self._lock:
            self._parsed[line] = result
            if len(self._parsed) > PARSE_CACHE:
                self._parsed.popitem(last=False)
        return result

    def run_command(self, command: Command, text: str | None = None) -> RunResult:
        """Run an already-parsed command (its actor included): apply, store, notify."""
        said = text or describe(command)
        if command.name == SESSION_START:
            return RunResult(False, error=f"'{said}' não é um comando da mesa: a sessão o roda "
                                          "sozinha quando é criada; 'ajuda' lista os comandos")
        with self._lock:
            try:
                with self._recording(CommandRejected.because("gravacao.disco_cheio")):
                    stored = self._run_locked(command, said)
            except CompanionError as error:
                return RunResult(False, error=error.message, code=getattr(error, "code", None),
                                 params=getattr(error, "params", {}))
            except Exception as error:  # a bug must not take the table down; nothing stored
                logger.exception("erro interno ao executar %r", said)
                return RunResult(False, error=f"erro interno ao executar '{said}': "
                                              f"{type(error).__name__}: {error}")
        self._deliver()
        return RunResult(True, events=stored)

    def _run_locked(self, command: Command, text: str) -> list[EventDict]:
        """Apply and store one command, and queue its events for the subscribers."""
        stored = self._undo(command, text) if command.name == UNDO else self._apply(command, text)
        self._pending.append(stored)
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
                logger.warning("disco cheio: nada mais é gravado em %s; os comandos são "
                               "recusados até liberar espaço (o já gravado está salvo)",
                               self.db_path)
            self._disk_full = True
            raise self._refusal(refusal) from None
        if self._disk_full:
            logger.info("há espaço de novo em %s: os comandos voltam a ser gravados",
                        self.db_path)
            self._disk_full = False

    def _rng(self, n: int) -> random.Random:
        return random.Random(f"{self.seed}:{n}")

    def _apply(self, command: Command, text: str, n: int | None = None) -> list[EventDict]:
        n = self._log.next_number() if n is None else n
        args = _json_safe(dict(command.args))
        clean = Command(command.name, args, command.actor)
        state, events = apply(fresh_prompt_ids(self._state, self._prompts_issued), clean,
                              self._rng(n), self.tables)
        stored = self._log.append(n, text, clean.name, args, clean.actor, _now(),
                                  [NewEvent(e.kind, e.visibility, e.text, e.data, e.code,
                                            e.words) for e in events], snapshot=self._snapshot_at(n, state))
        self._before[n] = self._state
        self._state = state
        self._prompts_issued = max([self._prompts_issued] + [
            e["data"]["pedido"]["id"] for e in stored if e["kind"] == "pedido"
            and isinstance(e["data"].get("pedido"), dict)])
        return stored

    def _undo(self, command: Command, text: str) -> list[EventDict]:
        protocol.require_may_run(command.actor, UNDO, self.tables)
        target = self._log.last_active(sorted(NOT_UNDOABLE | {SESSION_START}))
        if target is None:
            raise self._refusal(CommandRejected.because("desfazer.nada", dito=text))
        # Everything after the target is read-only (ajuda, estado, desfazer), so the state
        # before it is the state without it. When it was never recorded (the session was
        # reopened from a later snapshot), rebuild it: the newest snapshot before the target
        # (still valid: undoing deletes the snapshots at or after what it undoes) plus the
        # commands between.
        state = self._before.pop(target.n, None)
        if state is None:
            start, after = self._snapshot_before(target.n)
            history = [c for c in self._log.commands(after) if c.n < target.n]
            state, _ = self._replay(history, start=start)
        n = self._log.next_number()
        stored = self._log.append(n, text, UNDO, {}, command.actor, _now(),
                                  self._undo_events(target), undo=target.n,
                                  snapshot=self._snapshot_at(n, state))
        self._state = state
        return stored

    def _snapshot_at(self, n: int, state: State) -> Snapshot | None:
        return snapshot.dump(state, self._version) if snapshot.due(n) else None

    def _undo_events(self, target: StoredCommand) -> list[NewEvent]:
        """Say what was undone; a command the table never saw is named to the GM alone."""
        details = {"desfeito": target.n, "comando": target.name, "texto": target.text}
        said = self._narrated("desfazer.desfeito", PUBLIC, details)
        if any(e["visibility"] == PUBLIC for e in self._log.events_of(target.n)):
            return [said]
        return [self._narrated("desfazer.mestre_desfez", PUBLIC, {}),
                replace(said, visibility=GM)]

    def _refusal(self, refusal: CommandRejected) -> CommandRejected:
        """A session refusal said by its code (CommandRejected.because), its message rendered
        from tables/narracao/."""
        return refusal.rendered(self.tables.narration.render(str(refusal.code), refusal.params))

    def _narrated(self, code: str, visibility: str, data: dict[str, Any]) -> NewEvent:
        """A session event (not the engine's) narrated from tables/narracao/."""
        return NewEvent("relato", visibility, self.tables.narration.render(code, data), data,
                        code)

    def _replay(self, history: Iterable[StoredCommand], check: bool = False,
                record: dict[int, State] | None = None, start: State | None = None
                ) -> tuple[State, list[ReplayMismatch]]:
        """The state the log describes (from `start`, the initial state by default); with
        check, the commands whose events differ.

        With record, the state before each replayed command is kept there by its number."""
        state = start if start is not None else initial_state(self.tables)
        mismatches: list[ReplayMismatch] = []
        issued = self._log.prompt_ids()
        history = list(history)
        first = history[0].n if history else 0
        highest = max((i for n, i in issued.items() if n < first), default=0)
        for stored in history:
            before_this, highest = highest, max(highest, issued.get(stored.n, 0))
            if stored.undone or stored.name in NOT_UNDOABLE:
                continue
            command = Command(stored.name, stored.args, stored.actor)
            if record is not None:
                record[stored.n] = state
            try:
                state, events = apply(fresh_prompt_ids(state, before_this), command,
                                      self._rng(stored.n), self.tables)
            except CommandRejected as error:
                mismatches.append(ReplayMismatch(stored.n, stored.text, error.message))
                continue
            if check and not self._same_events(stored.n, events):
                mismatches.append(ReplayMismatch(stored.n, stored.text, "eventos diferentes"))
        if mismatches:
            logger.warning("a repetição do registro divergiu em %d comando(s): %s",
                           len(mismatches), mismatches)
        return state, mismatches

    def _same_events(self, n: int, events: list[Any]) -> bool:
        stored = [(e["kind"], e["visibility"], e["text"], e["data"])
                  for e in self._log.events_of(n)]
        replayed = [(e.kind, e.visibility, e.text, _json_safe(dict(e.data))) for e in events]
        return stored == replayed

    def _deliver(self) -> None:
        """Hand queued batches to the subscribers, one drainer at a time, in seq order.

        Called without the session lock held, so a subscriber may read the session or run a
        command (that command's batch is delivered by the loop already running).
        """
        with self._notify_lock:
            if self._draining:
                return
            self._draining = True
            try:
                while True:
                    with self._lock:
                        if not self._pending:
                            return
                        batch = self._pending.popleft()
                        subscribers = list(self._subscribers)
                    for callback in subscribers:
                        self._call(callback, batch)
            finally:
                self._draining = False

    @staticmethod
    def _call(callback: Subscriber, batch: list[EventDict]) -> None:
        try:
            callback(batch)
        except Exception:  # one broken listener must not stop the others
            logger.exception("falha ao avisar um assinante da sessão")

    # ------------------------------------------------------------------ players

    def join_player(self, name: str) -> Player:
        """A new token for the named character, creating the character the first time."""
        shown = " ".join(name.split())
        character_id = slug(shown)
        if not character_id:
            raise self._refusal(CommandRejected.because("entrada.nome_invalido", nome=name))
        full = CommandRejected.because("entrada.disco_cheio", nome=shown)
        try:
            with self._lock, self._recording(full):
                if not any(c.id == character_id for c in self._state.party):
                    self._run_locked(Command("personagem", {"nome": shown}),
                                     f"personagem {shown}")
                character = next((c for c in self._state.party if c.id == character_id), None)
                if character is None:
                    raise self._refusal(CommandRejected.because("entrada.nao_criado",
                                                                nome=shown))
                player = Player(secrets.token_urlsafe(12), character.id, character.name)
                self._log.add_player(player.token, player.character_id, player.name)
        finally:
            self._deliver()  # a character created before the disk filled is still told
        return player

    def player_by_token(self, token: str) -> Player | None:
        with self._lock:
            row = self._log.player(token)
        return Player(*row) if row else None

    def players(self) -> list[Player]:
        with self._lock:
            return [Player(*row) for row in self._log.players()]
