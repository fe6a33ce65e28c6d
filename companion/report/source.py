"""Read a campaign's log for the report: sessions, commands with their events, replayed views.

A session boundary is a `nova_sessao` command that was not undone: it ends the session it was
given in. Each accepted command is replayed with the session's own RNG rule (DESIGN.md:
`Random(f"{seed}:{n}")`) so the report knows the table as it stood after every command (the
clock, the terrain, each character's supplies) exactly as the viewer could see it.
"""
from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from companion import protocol
from companion.engine import Command, State, apply, initial_state
from companion.engine.procedures.weather import SESSION_START
from companion.engine.view import view_state, visible_to
from companion.errors import CommandRejected, CompanionError
from companion.report import prompt_ids
from companion.store.log import MEMORY, Log, Narration, StoredCommand
from companion.tables import Tables

BOUNDARY = "nova_sessao"
UNDO = "desfazer"
READ_ONLY = frozenset({"ajuda", "estado", UNDO})  # never replayed (as the session does)

EventDict = dict[str, Any]


class ReportError(CompanionError):
    """The report cannot be made as asked (no such session, no such player, no log)."""


@dataclass(frozen=True)
class Entry:
    """One stored command, the events of it the viewer may see, and the table before/after."""

    command: StoredCommand
    events: tuple[EventDict, ...]
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class SessionSpan:
    """One session of the campaign: its number and the command numbers it holds."""

    number: int
    first: int  # first command number (inclusive); may be past `last` for an empty session
    last: int  # last command number (inclusive)
    started: str
    ended: str | None  # None: the session is still being played
    commands: int
    undone: int


@dataclass(frozen=True)
class Campaign:
    """Everything the report reads from one log."""

    seed: str
    created: str
    commands: tuple[StoredCommand, ...]
    events: Mapping[int, tuple[EventDict, ...]]  # by command number
    utterances: tuple[dict[str, Any], ...]
    players: tuple[tuple[str, str, str], ...]  # token, character id, name
    narrations: Mapping[int, Narration] = field(default_factory=dict)  # by seq, those kept


def read_log(log: Log, db_path: str | Path | None = None) -> Campaign:
    """Read the whole log (and the voice listener's utterances table, if any)."""
    meta = log.meta()
    if meta is None:
        raise ReportError("este banco não tem sessão nenhuma: jogue com 'companion serve "
                          "--db ARQUIVO' ou 'companion shell --db ARQUIVO' antes")
    where = db_path if db_path is not None else log.path
    commands = tuple(log.commands(after=-1))  # with command 0, the session's own start
    events = {c.n: tuple(log.events_of(c.n)) for c in commands}
    named = [e["seq"] for stored in events.values() for e in stored
             if isinstance(e.get("data"), dict)
             and (prompt_ids.carries_prompt_ids(e["data"]) or "desfeito" in e["data"])]
    return Campaign(meta.seed, meta.created, commands, events,
                    tuple(read_utterances(where)), tuple(log.players()), log.narrations(named))


def open_campaign(db_path: str | Path) -> Campaign:
    """Read the campaign stored at db_path, which must exist (nothing is created)."""
    path = Path(db_path)
    if not path.is_file():
        raise ReportError(f"banco não encontrado: '{db_path}'; diga o arquivo da campanha, "
                          "como --db mesa.db")
    log = Log.open(path)
    try:
        return read_log(log, path)
    finally:
        log.close()


def read_utterances(db_path: str | Path | None) -> list[dict[str, Any]]:
    """The voice listener's `utterances` rows, oldest first; [] when there is no such table.

    The table belongs to the voice layer; only the columns that exist are read (any of id, at,
    text, confidence, accepted, command, name, n, reason)."""
    if not db_path or str(db_path) == MEMORY:
        return []
    try:
        connection = sqlite3.connect(f"file:{Path(db_path)}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    try:
        found = connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                   "AND name = 'utterances'").fetchone()
        if not found:
            return []
        cursor = connection.execute("SELECT * FROM utterances ORDER BY rowid")
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    except sqlite3.Error:
        return []
    finally:
        connection.close()


# ---------------------------------------------------------------- sessions

def _live(commands: Iterable[StoredCommand]) -> list[StoredCommand]:
    return [c for c in commands if not c.undone]


def sessions(campaign: Campaign) -> list[SessionSpan]:
    """The campaign's sessions in order; the last one is the one being played."""
    commands = list(campaign.commands)
    ends = [c for c in _live(commands) if c.name == BOUNDARY]
    spans: list[SessionSpan] = []
    first, started = 0, campaign.created
    for number, end in enumerate(ends, start=1):
        spans.append(_span(number, first, end.n, started, end.at, commands))
        first, started = end.n + 1, end.at
    last = commands[-1].n if commands else 0
    spans.append(_span(len(ends) + 1, first, last, started, None, commands))
    return spans


def _span(number: int, first: int, last: int, started: str, ended: str | None,
          commands: Sequence[StoredCommand]) -> SessionSpan:
    inside = [c for c in commands
              if first <= c.n <= last and c.name not in (UNDO, SESSION_START)]
    return SessionSpan(number, first, last, started, ended, len(inside),
                       sum(1 for c in inside if c.undone))


def session_number(raw: str | int | None) -> int | None:
    """A session number as typed (None: the last session), or a clear refusal."""
    if raw is None or raw == "":
        return None
    text = str(raw).strip()
    if not text.isdigit():
        raise ReportError(f"sessão inválida: '{raw}'; use o número da sessão, como 2")
    return int(text)


def find_session(campaign: Campaign, number: int | None) -> SessionSpan:
    """The session with that number (None: the last one), or a clear refusal."""
    spans = sessions(campaign)
    if number is None:
        return spans[-1]
    for span in spans:
        if span.number == number:
            return span
    raise ReportError(f"sessão {number} não existe; esta campanha tem as sessões 1 a "
                      f"{len(spans)}")


# ---------------------------------------------------------------- replay

def _replayed(campaign: Campaign, tables: Tables, until: int) -> Iterable[
        tuple[StoredCommand, State, State]]:
    """Each stored command up to number `until` with the state before and after it."""
    state = initial_state(tables)
    for stored in campaign.commands:
        if stored.n > until:
            return
        before = state
        if not stored.undone and stored.name not in READ_ONLY:
            try:
                state, _ = apply(state, Command(stored.name, stored.args, stored.actor),
                                 random.Random(f"{campaign.seed}:{stored.n}"), tables)
            except CommandRejected:
                pass  # the session reports such a mismatch; the report shows what was stored
        yield stored, before, state


def _numbering(campaign: Campaign, viewer: str) -> dict[int, int]:
    """Global seq → the viewer's number (DESIGN.md: a player counts only the events it may see,
    so no gap reveals a hidden one); the GM keeps the log's numbers."""
    numbers: dict[int, int] = {}
    for stored in campaign.commands:
        for event in campaign.events.get(stored.n, ()):
            if visible_to(event["visibility"], viewer):
                numbers[event["seq"]] = event["seq"] if viewer == "gm" else len(numbers) + 1
    return numbers


def entries(campaign: Campaign, span: SessionSpan, tables: Tables,
            viewer: str = "gm") -> tuple[dict[str, Any], list[Entry]]:
    """The view at the session's start, and its commands with the events `viewer` may see
    and the views after each. Undone commands are kept (marked) but changed nothing."""
    numbers = _numbering(campaign, viewer)
    mine = _prompt_numbers(campaign, viewer)
    start: dict[str, Any] | None = None
    out: list[Entry] = []
    view: dict[str, Any] | None = None
    for stored, before, after in _replayed(campaign, tables, span.last):
        if stored.n < span.first:
            continue
        if start is None:
            start = _seen_view(before, viewer, tables, mine)
            view = start
        assert view is not None
        shown = _seen_view(after, viewer, tables, mine) if after is not before else view
        seen = tuple(_seen_event(_undo_seen(campaign, {**e, "seq": numbers[e["seq"]]}, viewer,
                                            numbers), mine, campaign.narrations.get(e["seq"]),
                                 tables)
                     for e in campaign.events.get(stored.n, ()) if e["seq"] in numbers)
        out.append(Entry(_seen_command(stored, mine), seen, view, shown))
        view = shown
    if start is None:  # a session with no command yet: the table as the last one left it
        state = initial_state(tables)
        for _stored, _before, state in _replayed(campaign, tables, span.first - 1):
            pass
        start = _seen_view(state, viewer, tables, mine)
    return start, out


def _prompt_numbers(campaign: Campaign, viewer: str) -> dict[int, int] | None:
    """A player's prompt numbers (report.prompt_ids); None for the GM, who reads the log's."""
    if not protocol.is_player(viewer):
        return None
    return prompt_ids.numbers_for(
        (e for stored in campaign.commands for e in campaign.events.get(stored.n, ())), viewer)


def _seen_view(state: State, viewer: str, tables: Tables,
               mine: dict[int, int] | None) -> dict[str, Any]:
    view = view_state(state, viewer, tables)
    return view if mine is None else prompt_ids.rewrite_data(view, mine)


def _undo_seen(campaign: Campaign, event: EventDict, viewer: str,
               numbers: Mapping[int, int]) -> EventDict:
    """An undo as `viewer` reads it: for everyone but the GM, `desfeito` is not the log's
    command number (it counts the GM's hidden commands) but the viewer's number of the first
    event of the undone command it saw (None: it saw none), as on the live connection."""
    data = event.get("data")
    if viewer == "gm" or not isinstance(data, dict) or "desfeito" not in data:
        return event
    seen = [numbers[e["seq"]] for e in campaign.events.get(data["desfeito"], ())
            if e["seq"] in numbers] if isinstance(data["desfeito"], int) else []
    return {**event, "data": {**data, "desfeito": seen[0] if seen else None}}


def _seen_event(event: EventDict, mine: dict[int, int] | None, narration: Narration | None,
                tables: Tables) -> EventDict:
    """The event as a player reads it: its prompt ids in their numbers (its text rendered
    again from its narration when the log kept it)."""
    if mine is None:
        return event
    return prompt_ids.localize_event(event, mine, narration, tables.narration.render)


def _seen_command(stored: StoredCommand, mine: dict[int, int] | None) -> StoredCommand:
    """The command as a player reads it: 'responder pedido 7' in their own numbers."""
    if mine is None:
        return stored
    return replace(stored, text=prompt_ids.rewrite_text(stored.text, mine))
