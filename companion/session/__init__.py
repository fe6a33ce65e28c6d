"""A table session: the imperative shell around the pure engine.

Every input — typed, spoken, tapped or sent over HTTP — goes the same way through `Session.run`:
parse → engine.apply(state, command, Random(dice), tables) → one SQLite transaction (the
command, its events, the state after it) → subscribers → the caller. A rejected command stores
and changes nothing.

History is kept, not recomputed (docs/design.md): reopening reads the newest stored state, and
`desfazer` marks the last state-changing command undone and goes back to the state stored before
it. `repetir` reads the history too: the last result the asker could see, chosen as the GM
page's last-result box chooses (companion.history.outcome), given back to the asker alone and
never stored. Dice: a command's RNG is derived from the campaign's secret (keyed:
companion.history.dice_keys; `--seed N` for tests) and its place among the standing commands
that change the state (`Session.dice_key`), so the same command given again after `desfazer`
rolls the same dice — undo corrects, it does not re-roll. The rules in force
are part of the campaign: each command names the rules version it ran under, and opening a
campaign whose last rules differ from these tables records, for the GM, what changed
(`regras_mudaram`) before anything else runs. A log written before stored history is migrated
once (companion.history.replay); a stored state that cannot be read back is rebuilt from the
newest readable one by replaying what follows, and the GM is told.

`Session` is a façade over small pieces, each given what it uses (docs/camadas.md): the
journal (the lock, the log, the state and the one write path, `Journal.commit`), the rules in
force, the dice, the subscribers, the reader, the parser, the seat book, the notices, undo,
repeat, the runner, the GM's rule changes and the seats; opening checks the log it is given.
campaign_files reads a campaign file offline, apart from any session.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from companion.commands.text_readings import ParseResult
from companion.engine import Command, State, initial_state
from companion.engine.procedures.weather import SESSION_START
from companion.history.projection import Quoted, StoredEvent
from companion.history.replay import HISTORY_NOTICE, RULES_CHANGED
from companion.rules import overlay
from companion.session.campaign_files import campaign_rules, campaign_state, verify_campaign
from companion.session.dice import Dice, place_of
from companion.session.journal import START_NUMBER, Journal, quoted
from companion.session.notices import Notices
from companion.session.opening import checked_meta, full_at_open, house_rules, open_file, tell
from companion.session.parsing import PARSE_CACHE, Parser, reading_context
from companion.session.reading import Reader
from companion.session.repeat import Repeat
from companion.session.rule_changes import RuleChanges
from companion.session.rules_in_force import RulesInForce
from companion.session.running import Runner, describe
from companion.session.seat_book import Seat, SeatBook
from companion.session.seats import Player, Seats
from companion.session.shapes import EventDict, RunResult, SessionError, Subscriber
from companion.session.subscribers import Subscribers
from companion.session.undo import NOT_UNDOABLE, Undo
from companion.store.log import Log, Meta, StoredCommand
from companion.tables import protocol
from companion.tables.errors import DiskFull
from companion.tables.files import Tables

__all__ = ["EventDict", "NOT_UNDOABLE", "PARSE_CACHE", "Player", "RunResult", "START_NUMBER",
           "Seat", "Session", "SessionError", "Subscriber", "campaign_rules", "campaign_state",
           "describe", "place_of", "quoted", "reading_context", "verify_campaign"]


class Session:
    """One table's session. Thread-safe: every read and write takes the session's lock."""

    def __init__(self, log: Log, meta: Meta, tables: Tables,
                 rules: overlay.Overrides | None = None, rekeyed: bool = False) -> None:
        self.seed = meta.seed
        self.gm_token = meta.gm_token
        self.created = meta.created
        self.shipped = tables  # the program's tables/
        fresh = log.is_empty()
        settled = house_rules(log, tables, rules if fresh else None)
        self._rules = RulesInForce(log, tables, settled)  # the shipped with the GM's over them
        notices = Notices(log, meta.seed, self._rules)
        state, found = (initial_state(self._rules.tables), []) if fresh else notices.resume()
        self._journal = journal = Journal(log, self._rules, state)
        self._dice = Dice(log, meta)  # after resume: a migration fills the keys
        self._subscribers = Subscribers(journal, self._rules)
        self._reader = Reader(journal)
        self._parser = Parser(journal, self._rules)
        book = SeatBook(journal, self._rules, self._subscribers)
        undo = Undo(journal, self._rules, notices, self._reader, meta.seed)
        self._repeat = Repeat(journal, self._rules, self._reader)
        self._runner = Runner(journal, self._rules, self._parser, self._dice, undo, self._repeat,
                              book, self._subscribers)
        self._rule_changes = RuleChanges(journal, self._rules, notices, self._dice,
                                         self._subscribers)
        self._seats = Seats(journal, self._rules, self._runner, book, self._subscribers)
        self._book = book
        self.notices: list[str] = []  # what opening told the GM (printed by the shells too)
        # what the session said when it was created (empty when it was resumed)
        self.started: list[EventDict] = self._start() if fresh else []
        # what opening tells, both read before either is stored (the history notice is
        # stored under today's rules: read after it, the rules would seem unchanged)
        history_news = [] if fresh else found + notices.rekeyed_news(rekeyed)
        rules_news = [] if fresh else notices.dropped_news(settled) + notices.rules_news()
        self.opening: list[EventDict] = [] if fresh else (
            self._tell(HISTORY_NOTICE, history_news)
            + self._tell(RULES_CHANGED, rules_news,
                         house=overlay.dump(self.overrides) if settled.dropped else None))

    def _start(self) -> list[EventDict]:
        """A session just created rolls its initial weather (docs/regras.md: at the start of the
        session, with the default season). It is command 0, with its own RNG, so the table's
        commands keep their places and rolls; it is never undone."""
        with self._journal.lock:
            said = self._rules.render("sessao.texto_inicio", {})
            return self._runner.apply(Command(SESSION_START, {}), said, START_NUMBER,
                                      house=overlay.dump(self.overrides) if self.overrides
                                      else None)

    def _tell(self, name: str, events: list[Any], house: str | None = None) -> list[EventDict]:
        """What opening found, recorded (companion.session.opening.tell); the shells print it
        too (`notices`)."""
        self.notices += [e.text for e in events]
        return tell(self._journal, self._rules, name, events, house)

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, db_path: str | Path | None, seed: int | str | None, tables: Tables,
             gm_token: str | None = None, rules: overlay.Overrides | None = None) -> Self:
        """Open a new session or resume the one stored at db_path (None → in memory); a new
        one may start from the GM's rules of another campaign (`rules`, the export's shape)."""
        return cls.open_log(open_file(db_path, tables), seed, tables, gm_token, rules)

    @classmethod
    def open_log(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None = None, rules: overlay.Overrides | None = None) -> Self:
        """The session stored in an open log (a new one when it has none). A write that finds
        the disk full (the meta row, the first command) closes the log and says so."""
        try:
            meta, rekeyed = checked_meta(log, seed, tables, gm_token, rules)
            return cls(log, meta, tables, rules, rekeyed=rekeyed)
        except DiskFull:
            log.close()
            raise full_at_open(tables, log.path) from None

    # ------------------------------------------------------------------ running

    def run(self, text: str, actor: str = "gm") -> RunResult:
        """Parse and run one line of text as `actor` ("gm" or "player:<id>")."""
        return self._runner.run(text, actor)

    def run_command(self, command: Command, text: str | None = None) -> RunResult:
        """Run an already-parsed command (its actor included): apply, store, notify."""
        return self._runner.run_command(command, text)

    def parse(self, text: str, actor: str = protocol.GM) -> ParseResult:
        """What a line means, read once (companion.session.parsing)."""
        return self._parser.parse(text, actor)

    def dice_key(self, name: str) -> str:
        """What the RNG of a command about to run derives from (companion.session.dice)."""
        return self._dice.key(name)

    def last_result(self, viewer: str) -> list[EventDict]:
        """The last result `viewer` could see (companion.session.repeat)."""
        return self._repeat.last_result(viewer)

    def change_rules(self, patch: Any, actor: str, dry_run: bool = False,
                     origin: str = "mestre", text: str | None = None,
                     create: bool = False) -> RunResult:
        """The GM's rules changed by `patch` (companion.session.rule_changes)."""
        return self._rule_changes.change_rules(patch, actor, dry_run, origin, text, create)

    # ------------------------------------------------------------------ seats

    def join_player(self, name: str) -> Player:
        """A token for the named character's free seat (companion.session.seats)."""
        return self._seats.join_player(name)

    def free_seat(self, character_id: str, actor: str) -> list[EventDict]:
        """Free a character's seat (companion.session.seats)."""
        return self._seats.free_seat(character_id, actor)

    def seats(self) -> list[Seat]:
        """Every character's seat, the party's first (companion.session.seat_book)."""
        return self._book.seats()

    def player_by_token(self, token: str) -> Player | None:
        return self._seats.player_by_token(token)

    def players(self) -> list[Player]:
        return self._seats.players()

    # ------------------------------------------------------------------ reading

    def events_since(self, seq: int = 0) -> list[EventDict]:
        return self._reader.events_since(seq)

    def history_since(self, seq: int = 0, limit: int = -1) -> list[StoredEvent]:
        """The stored events after `seq`, as a projection reads them."""
        return self._reader.history_since(seq, limit)

    def quoted(self, n: int) -> Quoted | None:
        """Command n as an undo quotes it (None: no such command)."""
        return self._reader.quoted(n)

    def events_of(self, n: int) -> list[EventDict]:
        """The events command n produced."""
        return self._reader.events_of(n)

    def last_seq(self) -> int:
        return self._reader.last_seq()

    def commands(self) -> list[StoredCommand]:
        return self._reader.commands()

    def subscribe(self, callback: Subscriber) -> None:
        """Call `callback(events)` with each batch of new events, in seq order."""
        self._subscribers.subscribe(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        self._subscribers.unsubscribe(callback)

    # ------------------------------------------------------------------ what it stands at

    @property
    def state(self) -> State:
        with self._journal.lock:
            return self._journal.state

    @property
    def tables(self) -> Tables:
        """The rules in force: the shipped with the GM's over them."""
        return self._rules.tables

    @property
    def overrides(self) -> overlay.Overrides:
        return self._rules.overrides

    @property
    def tables_version(self) -> str:
        return self._rules.tables_version

    @property
    def rules_id(self) -> int:
        """The rules version this session runs under (stored in the log)."""
        return self._rules.rules_id

    @property
    def seeded(self) -> bool:
        """Whether the dice come from a seed rather than the campaign's secret."""
        return self._dice.seeded

    @property
    def db_path(self) -> str:
        return self._journal.log.path

    @property
    def _log(self) -> Log:  # the tests' one reach into the store (tests/disk_helpers.py)
        return self._journal.log

    @property
    def _lock(self) -> Any:
        return self._journal.lock

    def close(self) -> None:
        with self._journal.lock:
            self._journal.log.close()
