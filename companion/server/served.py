"""What the server needs of a session: the one type its modules hold a session as.

companion.session.Session is the implementation (tests/server/test_session.py checks that it
satisfies this); the server calls nothing on a session that is not named here.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, runtime_checkable

from companion.commands.text_readings import ParseResult
from companion.engine import Command, State
from companion.session import Player, RunResult, Seat
from companion.store.log import StoredCommand
from companion.history.projection import Quoted, StoredEvent
from companion.tables.files import Tables

EventDict = dict[str, Any]
Subscriber = Callable[[list[EventDict]], None]


@runtime_checkable
class ServedSession(Protocol):
    """A table's session as the pages, the API, the report pages and the sockets use it."""

    gm_token: str
    tables: Tables  # the campaign's rules in force (the shipped ones with the GM's over them)
    shipped: Tables  # the program's tables/
    overrides: dict[str, Any]  # the GM's rules: the differences from `shipped`

    @property
    def state(self) -> State: ...

    @property
    def db_path(self) -> str: ...

    # ---------------------------------------------------------------- running
    def parse(self, text: str, actor: str = "gm") -> ParseResult: ...

    def run(self, text: str, actor: str = "gm") -> RunResult: ...

    def run_command(self, command: Command, text: str | None = None) -> RunResult: ...

    def change_rules(self, patch: Any, actor: str, dry_run: bool = False,
                     origin: str = "mestre", text: str | None = None,
                     create: bool = False) -> RunResult: ...

    # ---------------------------------------------------------------- the log
    def events_since(self, seq: int = 0) -> list[EventDict]: ...

    def events_of(self, n: int) -> list[EventDict]: ...

    def last_seq(self) -> int: ...

    def commands(self) -> list[StoredCommand]: ...

    def history_since(self, seq: int = 0, limit: int = -1) -> list[StoredEvent]: ...

    def quoted(self, n: int) -> Quoted | None: ...

    def subscribe(self, callback: Subscriber) -> None: ...

    def unsubscribe(self, callback: Subscriber) -> None: ...

    # ---------------------------------------------------------------- players
    def join_player(self, name: str) -> Player: ...

    def player_by_token(self, token: str) -> Player | None: ...

    def seats(self) -> list[Seat]: ...

    def free_seat(self, character_id: str, actor: str) -> list[EventDict]: ...
