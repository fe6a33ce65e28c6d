"""A table session: the imperative shell around the pure engine.

Every input — typed, spoken, tapped or sent over HTTP — goes the same way through `Session.run`:
parse → engine.apply(state, command, Random(dice), tables) → one SQLite transaction (the
command, its events, the state after it) → subscribers → the caller. A rejected command stores
and changes nothing.

History is kept, not recomputed (DESIGN.md): reopening reads the newest stored state, and
`desfazer` marks the last state-changing command undone and goes back to the state stored
before it. `repetir` reads the history too: the last result the asker could see, chosen as the
GM page's last-result box chooses (companion.history.outcome), given back to the asker alone and never
stored. Dice: a command's RNG is derived from the session seed and its place among the
standing commands that change the state (`Session.dice_key`), so the same command given again
after `desfazer` rolls the same dice — undo corrects, it does not re-roll. The rules in force
are part of the campaign: each command names the rules version it ran under, and opening a
campaign whose last rules differ from these tables records, for the GM, what changed
(`regras_mudaram`) before anything else runs. A log written before stored history is
migrated once (companion.history.replay); a stored state that cannot be read back is rebuilt from the
newest readable one by replaying what follows, and the GM is told.

Players and seats: a character's seat belongs to the devices holding its tokens. `join_player`
gives a token to a FREE character (one with no token: made by the GM with `personagem`, or
whose seat was freed), creating it the first time the name is heard (through a logged
`personagem` command); a seated name is refused (`entrada.lugar_ocupado`), nothing created or
handed out. A second device of the same player joins with the same token (the link its first
device shows). `free_seat` — the GM for any seat, a player for their own ("Sair") — deletes
every token of the seat in the transaction of a system command (`lugar_liberado`: GM-only,
never undone, no dice, no place), so the next join by that name takes the character back.

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
from typing import Any, Callable, Hashable, Iterator

from companion.rules import overlay
from companion.tables import protocol
from companion.history import replay
from companion.rules import version
from companion.history import codec
from companion.engine import Command, State, apply, initial_state
from companion.commands.context import Known
from companion.commands.reading import ParseResult, parse
from companion.engine.model import GM, PUBLIC
from companion.engine.procedures.weather import SESSION_START
from companion.engine.toolkit import slug
from companion.tables.errors import CommandRejected, CompanionError, DiskFull, TableError
from companion.history.outcome import outcome
from companion.rules.pages import PageTexts
from companion.history.projection import Projection, Quoted, StoredEvent
from companion.history.replay import (PLACELESS, REPEAT, RULES, RULES_CHANGED, HISTORY_NOTICE, SEAT_FREED,
                              SYSTEM, UNDO, fresh_prompt_ids)
from companion.store.log import Log, Meta, NewEvent, StoredCommand, StoredState, dumps
from companion.tables.files import Tables

logger = logging.getLogger(__name__)

NOT_UNDOABLE = PLACELESS  # views, desfazer itself, the session's own and system commands
START_NUMBER = 0  # the session's own first command (the initial weather), before the table's
PARSE_CACHE = 512  # distinct readings remembered: (line, tables version, context)

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
    code: str | None = None  # why, for the pages (companion.tables.protocol.REFUSAL_CODES)
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
class Seat:
    """A character's place at the table: free (no token), or held by the devices with its
    tokens since the first of them was given (None: a log from before tokens kept it)."""

    character_id: str
    name: str
    since: str | None
    tokens: int

    @property
    def occupied(self) -> bool:
        return self.tokens > 0


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _json_safe(value: Any) -> Any:
    """The value as it comes back from the log, so live and replayed runs see the same thing."""
    return json.loads(dumps(value))


def _full_at_open(tables: Tables, where: str) -> SessionError:
    """The session could not be written as it opened: the disk is full."""
    return SessionError(tables.narration.render("gravacao.disco_cheio_ao_abrir",
                                                {"banco": where}))


def place_of(command: StoredCommand | None) -> int:
    """A standing command's place among those that change the state: the number after the
    last ':' of its dice key (none: the session's start, place 0)."""
    if command is None or not command.dice:
        return START_NUMBER
    tail = command.dice.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else command.n


def quoted(stored: StoredCommand) -> Quoted:
    """A stored command as an undo quotes it."""
    return Quoted(stored.name, stored.args, stored.actor, stored.text)


def describe(command: Command) -> str:
    """A text for a command that arrived already parsed (a tapped button)."""
    values = " ".join(str(v) for v in command.args.values())
    return f"{command.name} {values}".strip()


class Session:
    """One table's session. Thread-safe: every read and write takes the session's lock."""

    def __init__(self, log: Log, meta: Meta, tables: Tables,
                 rules: overlay.Overrides | None = None) -> None:
        self._log = log
        self.seed = meta.seed
        self.gm_token = meta.gm_token
        self.created = meta.created
        self.shipped = tables  # the program's tables/; `tables`: with the GM's rules over them
        fresh = log.is_empty()
        settled = self._house_rules(rules if fresh else None)
        self.tables = settled.tables
        self.overrides: overlay.Overrides = settled.overrides
        self._lock = threading.RLock()
        self._notify_lock = threading.RLock()
        self._draining = False
        self._pending: deque[list[EventDict]] = deque()
        self._subscribers: list[Subscriber] = []
        # (line, tables version, context) → what the line means (LRU, Session.parse)
        self._parsed: OrderedDict[tuple[str, str, Hashable], ParseResult] = OrderedDict()
        # every file of tables/, the sentences included: part of a reading's key
        self.tables_version = version.tables_fingerprint(self.tables)
        self._disk_full = False  # the last write found the disk full (said once, _recording)
        # the rules each command runs under: the shipped ones with the GM's over them
        self._rules_id = replay.rules_id(log, self.tables)
        self.notices: list[str] = []  # what opening told the GM (printed by the shells too)
        self._state, notices = (initial_state(self.tables), []) if fresh else self._resume()
        self._prompts_issued = max(log.prompt_ids().values(), default=0)
        # what the session said when it was created (empty when it was resumed)
        self.started: list[EventDict] = self._start() if fresh else []
        self.opening: list[EventDict] = [] if fresh else (
            self._tell(HISTORY_NOTICE, notices)
            + self._tell(RULES_CHANGED, self._dropped_news(settled) + self._rules_news(),
                         house=overlay.dump(self.overrides) if settled.dropped else None))

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, db_path: str | Path | None, seed: int | str | None, tables: Tables,
             gm_token: str | None = None,
             rules: overlay.Overrides | None = None) -> Session:
        """Open a new session or resume the one stored at db_path (None → in memory); a new
        one may start from the GM's rules of another campaign (`rules`, the export's shape)."""
        try:
            log = Log.open(db_path)
        except DiskFull:
            raise _full_at_open(tables, str(db_path)) from None
        return cls.open_log(log, seed, tables, gm_token, rules)

    @classmethod
    def open_log(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None = None,
                 rules: overlay.Overrides | None = None) -> Session:
        """The session stored in an open log (a new one when it has none). A write that finds
        the disk full (the meta row, the first command) closes the log and says so."""
        try:
            return cls._opening(log, seed, tables, gm_token, rules)
        except DiskFull:
            log.close()
            raise _full_at_open(tables, log.path) from None

    @classmethod
    def _opening(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None, rules: overlay.Overrides | None) -> Session:
        if rules is not None and not log.is_empty():
            log.close()
            raise SessionError(tables.narration.render("regras.so_na_criacao",
                                                       {"banco": log.path}))
        if rules is not None:
            try:
                overlay.patched(tables, {}, rules)
            except TableError as error:
                log.close()
                raise SessionError(tables.narration.render("regras.invalida",
                                                           {"motivo": error.message})) from None
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
                meta = replace(meta, gm_token=gm_token)
                log.write_meta(meta)
        return cls(log, meta, tables, rules)

    def _house_rules(self, created: overlay.Overrides | None) -> overlay.Settled:
        """The GM's rules of this campaign: the ones it was created with (already checked),
        or the stored ones, as this version can keep them."""
        if created is not None:
            change = overlay.patched(self.shipped, {}, created)
            return overlay.Settled(change.overrides, change.tables, ())
        stored = self._log.house_rules()
        return overlay.settle(self.shipped, overlay.load(stored[1]) if stored else {})

    def _start(self) -> list[EventDict]:
        """A session just created rolls its initial weather (RULES.md: at the start of the
        session, with the default season). It is command 0, with its own RNG, so the table's
        commands keep their places and rolls; it is never undone."""
        with self._lock:
            return self._apply(Command(SESSION_START, {}), "início da sessão", START_NUMBER,
                               house=overlay.dump(self.overrides) if self.overrides
                               else None)

    def _resume(self) -> tuple[State, list[NewEvent]]:
        """The stored session's state (replay.open_history), and what the GM must be told of
        how it was opened: a migration that came out different, damaged states rebuilt."""
        opened = replay.open_history(self._log, self.shipped, self.seed, self._rules_id)
        told: list[NewEvent] = []
        first = opened.first_difference
        if first is not None:
            logger.warning("migração: o comando %d (%r) daria outro resultado: %s",
                           first.command.n, first.command.text, first.differs)
            told.append(self._narrated(
                "historico.atualizada_diferente", GM,
                {"comando": first.command.n, "texto": first.command.text,
                 "motivo": first.differs}))
        if opened.damaged:
            logger.warning("estados danificados depois dos comandos %s; refeitos a partir "
                           "do %d", list(opened.damaged), opened.recovered_from)
            told.append(self._narrated("historico.recuperada", GM, {
                "comandos": list(opened.damaged), "desde": max(opened.recovered_from, 0)}))
        return opened.state, told

    def _rules_news(self) -> list[NewEvent]:
        """What changed in the rules since the campaign's last command ran, for the GM."""
        last = self._log.last_rules()
        if last is None or last == self._rules_id:
            return []
        stored = self._log.rules_text(last)
        before = version.read(stored) if stored is not None else {}
        changes = version.changes(before, version.rule_files(self.tables))
        if not changes:
            return []
        told = [self._narrated("historico.regras_mudaram", GM, {"quantas": len(changes)})]
        told += [self._narrated("historico.regra_mudou", GM, change.data())
                 for change in changes[:version.MAX_SHOWN]]
        if len(changes) > version.MAX_SHOWN:
            told.append(self._narrated("historico.mais_mudancas", GM,
                                       {"quantas": len(changes) - version.MAX_SHOWN}))
        return told

    def _dropped_news(self, settled: overlay.Settled) -> list[NewEvent]:
        """What an update of the companion took from the GM's rules (told once: the rules
        kept without it are stored with the telling)."""
        if not settled.dropped:
            return []
        return [self._narrated("regras.removidas", GM, {"quantas": len(settled.dropped)})] + [
            self._narrated("historico.regra_mudou", GM, change.data())
            for change in settled.dropped]

    def _tell(self, name: str, events: list[NewEvent],
              house: str | None = None) -> list[EventDict]:
        """Record what opening found as a system command `name` (GM-only, never undone, no
        dice; with `house`, the GM's rules kept from it on); the shells print it too
        (`notices`)."""
        if not events:
            return []
        self.notices += [e.text for e in events]
        with self._lock:
            return self._record(name, "(ao abrir a campanha)", events, house=house)

    def close(self) -> None:
        with self._lock:
            self._log.close()

    @property
    def db_path(self) -> str:
        return self._log.path

    @property
    def rules_id(self) -> int:
        """The rules version this session runs under (stored in the log)."""
        return self._rules_id

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> State:
        with self._lock:
            return self._state

    def events_since(self, seq: int = 0) -> list[EventDict]:
        with self._lock:
            return self._log.events_since(seq)

    def history_since(self, seq: int = 0, limit: int = -1) -> list[StoredEvent]:
        """The stored events after `seq` (at most `limit`), with how their texts were
        rendered (what a projection reads: companion.history.projection)."""
        with self._lock:
            rows = self._log.stored_since(seq, limit)
        return [StoredEvent(*row) for row in rows]

    def quoted(self, n: int) -> Quoted | None:
        """Command n as an undo quotes it (None: no such command)."""
        with self._lock:
            stored = self._log.command(n)
        return None if stored is None else quoted(stored)

    def events_of(self, n: int) -> list[EventDict]:
        """The events command n produced."""
        with self._lock:
            return self._log.events_of(n)

    def last_seq(self) -> int:
        with self._lock:
            return self._log.last_seq()

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
            result = self.parse(line, actor)
        except Exception as error:  # "not a command" is a value; anything else is a bug
            logger.exception("erro interno ao interpretar %r", line)
            return RunResult(False, error=f"erro interno ao interpretar '{line}': "
                                          f"{type(error).__name__}: {error}")
        if result.command is None:
            return RunResult(False, error=result.error or f"não entendi: '{line}'")
        command = Command(result.command.name, dict(result.command.args), actor)
        return self.run_command(command, text=line)

    def parse(self, text: str, actor: str = protocol.GM) -> ParseResult:
        """What a line means (commands.parse), read once: a table says the same few commands
        all evening, and a reading is a pure function of the line, the tables and the context
        (the asker's: a player's "sim" reads only their own prompts), its key in a bounded cache
        (PARSE_CACHE). `run` and the server's player gate share it, so a player's line is
        parsed once."""
        line = text.strip()
        key = (line, self.tables_version, self._parse_context(actor))
        with self._lock:
            known = self._parsed.get(key)
            if known is not None:
                self._parsed.move_to_end(key)
                return known
        result = parse(line, self.tables, key[2])
        with self._lock:
            self._parsed[key] = result
            if len(self._parsed) > PARSE_CACHE:
                self._parsed.popitem(last=False)
        return result

    def _parse_context(self, actor: str) -> Known:
        """What a reading depends on besides the line and the rules: the names that exist
        and the answers the actor's prompts wait for ("sim" alone answers only then)."""
        return reading_context(self.state, actor)

    def run_command(self, command: Command, text: str | None = None) -> RunResult:
        """Run an already-parsed command (its actor included): apply, store, notify."""
        said = text or describe(command)
        if command.name == SESSION_START or command.name in SYSTEM:
            return RunResult(False, error=f"'{said}' não é um comando da mesa: a sessão o roda "
                                          "sozinha; 'ajuda' lista os comandos")
        if command.name == REPEAT:
            return self._repeat(command)
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
        party = {c.id for c in self._state.party}
        stored = self._undo(command, text) if command.name == UNDO else self._apply(command, text)
        self._pending.append(stored)
        if command.name == UNDO:
            self._free_undone_seats(party)
        return stored

    def _free_undone_seats(self, party: set[str]) -> None:
        """An undo that takes a seated character out of the party (the `personagem` a
        player's join made) frees its seat: its tokens stop working, recorded as the GM's
        freeing is (by 'desfazer'); the server lets its phones go (the lock held)."""
        now = {c.id for c in self._state.party}
        for row in self._log.seats():
            seat = Seat(*row)
            if seat.character_id not in party or seat.character_id in now:
                continue
            data = {"personagem": seat.character_id, "nome": seat.name, "por": UNDO}
            told = self._narrated("entrada.lugar_liberado", GM, data)
            self._pending.append(self._record(
                SEAT_FREED, told.text, [told], {"personagem": seat.character_id, "por": UNDO},
                release=seat.character_id))

    # ------------------------------------------------------------------ repeating

    def _repeat(self, command: Command) -> RunResult:
        """`repetir`: the last result the asker could see, again, only to them. Nothing is
        stored, nothing is sent to anyone else, no dice; the events are the stored ones (their
        seqs included: each viewer's copy is its own projection's)."""
        try:
            protocol.require_may_run(command.actor, REPEAT, self.tables)
            events = self.last_result(command.actor)
            if not events:
                raise self._refusal(CommandRejected.because("perguntas.nada_para_repetir"))
        except CommandRejected as refused:
            return RunResult(False, error=refused.message, code=refused.code,
                             params=refused.params)
        return RunResult(True, events=events)

    def last_result(self, viewer: str) -> list[EventDict]:
        """The last result `viewer` could see: of the newest command with an event it may see,
        the events the GM page's last-result box shows (companion.history.outcome), among those it may
        see; a command with nothing to show there (a help text, a state dump) is passed over
        for the one before. As the GM reads them (a player's copies are their projection's:
        the server's gate makes them)."""
        rules = self.tables.piece(PageTexts).ultimo_resultado
        seen = None if protocol.is_gm(viewer) else [PUBLIC, *(
            [viewer] if protocol.is_player(viewer) else [])]
        with self._lock:
            before = self._log.last_seq() + 1
            while (found := self._log.newest_seen(before, seen)) is not None:
                events = [e for e in self._log.events_of(found[1])
                          if protocol.may_see(e["visibility"], viewer)]
                chosen = outcome(events, rules)
                if chosen:
                    return self._as_the_gm_reads([e["seq"] for e in chosen])
                before = min(e["seq"] for e in events)
        return []

    def _as_the_gm_reads(self, seqs: list[int]) -> list[EventDict]:
        """Stored events as the GM reads them now (companion.history.projection: today's wording)."""
        first, last = min(seqs), max(seqs)
        reader = Projection(GM, self.tables, self.quoted)
        rows = self.history_since(first - 1, limit=last - first + 1)
        return [reader.show(event) for event in rows if event.seq in set(seqs)]

    def dice_key(self, name: str) -> str:
        """What the RNG of a command about to run derives from: the seed and its place among
        the standing commands that change the state — the place after the newest of them (the
        session's start is place 0; a command of a migrated log has its number as its place).
        A command undone gives its place back, so the same command again rolls the same
        dice."""
        if name == SESSION_START:
            return f"{self.seed}:{START_NUMBER}"
        return f"{self.seed}:{place_of(self._log.last_active(sorted(PLACELESS))) + 1}"

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

    def _apply(self, command: Command, text: str, n: int | None = None,
               house: str | None = None) -> list[EventDict]:
        n = self._log.next_number() if n is None else n
        args = _json_safe(dict(command.args))
        clean = Command(command.name, args, command.actor)
        dice = self.dice_key(clean.name)
        state, events = apply(fresh_prompt_ids(self._state, self._prompts_issued), clean,
                              random.Random(dice), self.tables)
        raw = codec.encode(state)
        stored = self._log.append(n, text, clean.name, args, clean.actor, _now(),
                                  [NewEvent(e.kind, e.visibility, e.text, e.data, e.code,
                                            e.words) for e in events],
                                  StoredState(codec.FORMAT, raw), dice, self._rules_id,
                                  house_rules=house)
        self._state = codec.decode(raw)
        self._prompts_issued = max([self._prompts_issued] + [
            e["data"]["pedido"]["id"] for e in stored if e["kind"] == "pedido"
            and isinstance(e["data"].get("pedido"), dict)])
        return stored

    def _record(self, name: str, text: str, events: list[NewEvent],
                args: dict[str, Any] | None = None,
                release: str | None = None, house: str | None = None) -> list[EventDict]:
        """Store a system command: its events, the state unchanged, no dice (and, with
        `release`, that character's tokens deleted in the same transaction; with `house`, the
        GM's rules from it on)."""
        return self._log.append(self._log.next_number(), text, name, args or {}, "sistema",
                                _now(), events,
                                StoredState(codec.FORMAT, codec.encode(self._state)),
                                None, self._rules_id, release=release, house_rules=house)

    def _undo(self, command: Command, text: str) -> list[EventDict]:
        protocol.require_may_run(command.actor, UNDO, self.tables)
        target = self._log.last_active(sorted(NOT_UNDOABLE))
        if target is None:
            raise self._refusal(CommandRejected.because("desfazer.nada", dito=text))
        state = replay.state_before(self._log, self.shipped, self.seed, target.n)
        n = self._log.next_number()
        events = self._undo_events(target)
        back = self._rules_before(target) if target.name == RULES else None
        if back is not None:
            events += self._rules_events(self._narrated(
                "regras.desfeitas", GM, {"quantas": len(back.changes)}), back)
        stored = self._log.append(n, text, UNDO, {}, command.actor, _now(), events,
                                  StoredState(codec.FORMAT, codec.encode(state)),
                                  None, self._rules_id if back is None
                                  else self._rules_key_id(back.tables), undo=target.n,
                                  house_rules=None if back is None
                                  else overlay.dump(back.overrides))
        self._state = state
        if back is not None:
            self._use_rules(back)
        return stored

    def _rules_before(self, target: StoredCommand) -> overlay.Change:
        """The GM's rules as they were before the rules change `target`, and what going back
        to them changes."""
        found = self._log.house_rules(target.n - 1)
        settled = overlay.settle(self.shipped,
                                     overlay.load(found[1]) if found else {})
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

    # ------------------------------------------------------------------ the GM's rules

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
        events = self._rules_events(self._narrated(
            "regras.alteradas", GM, {"quantas": len(change.changes), "origem": origin}), change)
        rules = self._rules_key_id(change.tables)
        said = text or ("regras (arquivo)" if origin == "arquivo" else "regras (tela do Mestre)")
        stored = self._log.append(
            self._log.next_number(), said, RULES, {"origem": origin}, actor, _now(), events,
            StoredState(codec.FORMAT, codec.encode(self._state)),
            self.dice_key(RULES), rules, house_rules=overlay.dump(change.overrides))
        self._use_rules(change)
        return stored

    def _rules_events(self, summary: NewEvent, change: overlay.Change) -> list[NewEvent]:
        """The GM's one line of a rules change (`summary`), then each value that changed."""
        told = [summary]
        told += [self._narrated("historico.regra_mudou", GM, item.data())
                 for item in change.changes[:version.MAX_SHOWN]]
        if len(change.changes) > version.MAX_SHOWN:
            told.append(self._narrated("historico.mais_mudancas", GM,
                                       {"quantas": len(change.changes) - version.MAX_SHOWN}))
        return told

    def _rules_key_id(self, tables: Tables) -> int:
        return replay.rules_id(self._log, tables)

    def _use_rules(self, change: overlay.Change | overlay.Settled) -> None:
        """From now on, these rules (the lock held)."""
        self.tables = change.tables
        self.overrides = change.overrides
        self.tables_version = version.tables_fingerprint(change.tables)
        self._rules_id = replay.rules_id(self._log, change.tables)

    def _refusal(self, refusal: CommandRejected) -> CommandRejected:
        """A session refusal said by its code (CommandRejected.because), its message rendered
        from tables/narracao/."""
        return refusal.rendered(self.tables.narration.render(str(refusal.code), refusal.params))

    def _narrated(self, code: str, visibility: str, data: dict[str, Any]) -> NewEvent:
        """A session event (not the engine's) narrated from tables/narracao/."""
        return NewEvent("relato", visibility, self.tables.narration.render(code, data), data,
                        code)

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
        """A new token for the named character if its seat is free, creating the character
        the first time; a seated name is refused (the GM frees seats)."""
        shown = " ".join(name.split())
        character_id = slug(shown)
        if not character_id:
            raise self._refusal(CommandRejected.because("entrada.nome_invalido", nome=name))
        full = CommandRejected.because("entrada.disco_cheio", nome=shown)
        try:
            with self._lock, self._recording(full):
                seated = self._seat_of(character_id)
                if seated is not None:
                    raise self._refusal(CommandRejected.because("entrada.lugar_ocupado",
                                                                nome=seated.name))
                if not any(c.id == character_id for c in self._state.party):
                    self._run_locked(Command("personagem", {"nome": shown}),
                                     f"personagem {shown}")
                character = next((c for c in self._state.party if c.id == character_id), None)
                if character is None:
                    raise self._refusal(CommandRejected.because("entrada.nao_criado",
                                                                nome=shown))
                player = Player(secrets.token_urlsafe(12), character.id, character.name)
                self._log.add_player(player.token, player.character_id, player.name, _now())
        finally:
            self._deliver()  # a character created before the disk filled is still told
        return player

    def _seat_of(self, character_id: str) -> Seat | None:
        """The character's seat if someone holds it (the lock held)."""
        return next((Seat(*row) for row in self._log.seats() if row[0] == character_id), None)

    def seats(self) -> list[Seat]:
        """Every character's seat: the party's in its order (free ones too), then any seat
        whose character left the party."""
        with self._lock:
            held = {row[0]: Seat(*row) for row in self._log.seats()}
            party = [(c.id, c.name) for c in self._state.party]
        listed = [held.get(cid, Seat(cid, name, None, 0)) for cid, name in party]
        return listed + [seat for cid, seat in held.items()
                         if cid not in {c for c, _ in party}]

    def free_seat(self, character_id: str, actor: str) -> list[EventDict]:
        """Free a character's seat: every token of it stops working, and the next join by
        that name takes the character. The GM frees any seat, a player only their own. The
        freeing is a system command (GM-only event; never undone, no dice, no place)."""
        mine = protocol.character_of(actor)
        if protocol.is_player(actor) and mine != character_id:
            raise self._refusal(CommandRejected.because("entrada.lugar_alheio"))
        full = CommandRejected.because("gravacao.disco_cheio")
        with self._lock:
            seat = self._seat_of(character_id)
            if seat is None:
                character = next((c for c in self._state.party if c.id == character_id), None)
                if character is None:
                    raise self._refusal(CommandRejected.because(
                        "entrada.sem_personagem", personagem=character_id,
                        lugares=[s.name for s in self.seats() if s.occupied]))
                raise self._refusal(CommandRejected.because("entrada.lugar_livre",
                                                            nome=character.name))
            who = actor if mine else GM
            told = self._narrated("entrada.lugar_liberado", GM,
                                  {"personagem": character_id, "nome": seat.name, "por": who})
            with self._recording(full):
                stored = self._record(SEAT_FREED, told.text, [told],
                                      {"personagem": character_id, "por": who},
                                      release=character_id)
            self._pending.append(stored)
        self._deliver()
        return stored

    def player_by_token(self, token: str) -> Player | None:
        with self._lock:
            row = self._log.player(token)
        return Player(*row) if row else None

    def players(self) -> list[Player]:
        with self._lock:
            return [Player(*row) for row in self._log.players()]


@contextmanager
def _campaign_file(path: str | Path) -> Iterator[tuple[Log, Meta | None]]:
    """A campaign file read from a copy in memory (Log.read: the file is never written), with
    its meta row (None: no campaign in it); a missing file is a clear refusal."""
    if not Path(path).is_file():
        raise SessionError(f"banco não encontrado: '{path}'; diga o arquivo da campanha, "
                           "como --db mesa.db")
    log = Log.read(path)
    try:
        yield log, log.meta()
    finally:
        log.close()


def reading_context(state: State, actor: str = protocol.GM) -> Known:
    """What a reading may know from a state: the party's names, the options the prompts the
    actor may answer wait for, and whether one of them waits for a die's value."""
    theirs = [prompt for prompt in state.prompts
              if protocol.may_answer(actor, prompt.character, prompt.party)]
    return Known.of([character.name for character in state.party],
                    [option for prompt in theirs for option in prompt.options],
                    roll_waiting=any(not prompt.options for prompt in theirs))


def campaign_rules(path: str | Path, tables: Tables) -> tuple[overlay.Overrides, Tables]:
    """A campaign file's own rules (its differences from `tables`) and the rules they give,
    read without writing the file."""
    with _campaign_file(path) as (log, _meta):
        found = log.house_rules()
    settled = overlay.settle(tables, overlay.load(found[1]) if found else {})
    return settled.overrides, settled.tables


def campaign_state(path: str | Path, tables: Tables) -> State:
    """The state a campaign file stands at, read without writing the file."""
    with _campaign_file(path) as (log, meta):
        if meta is None:
            return initial_state(tables)
        return replay.open_history(log, tables, meta.seed, replay.rules_id(log, tables)).state


def verify_campaign(path: str | Path, tables: Tables) -> list[replay.Step]:
    """The commands of a campaign file whose events would differ if run again with this code
    and these tables (`companion verificar`); the file is only read."""
    with _campaign_file(path) as (log, meta):
        if meta is None:
            raise SessionError(f"'{path}' não tem campanha nenhuma")
        return replay.differences(log, tables, meta.seed)
