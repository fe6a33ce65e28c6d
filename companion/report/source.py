"""Read a campaign's log for the report: sessions, commands with their events, stored views.

A session boundary is a `nova_sessao` command that was not undone: it ends the session it was
given in. The report reads the state stored after every command (docs/design.md: history is kept,
not recomputed), so it knows the table as it stood after each one (the clock, the terrain,
each character's supplies) exactly as the viewer could see it, with the rules of that time —
whatever the code or tables/ say today. Nothing is replayed here: a campaign file written
before stored history is migrated first, in a copy in memory (the file is only read).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from companion.history import replay
from companion.tables import protocol
from companion.rules import version
from companion.history import codec
from companion.history.projection import Projection, Quoted, StoredEvent
from companion.engine import State, initial_state
from companion.engine.procedures.weather import SESSION_START
from companion.engine.view import view_state
from companion.report.report_errors import ReportError, narration
from companion.tables.errors import TableError
from companion.rules.loader import load_rules
from companion.tables.rulebook import build_pieces
from companion.store.log import DERIVED, Log, PackedStates, StateDamaged, StoredCommand
from companion.store.log import program_texts
from companion.tables.files import Tables

BOUNDARY = "nova_sessao"
UTTERANCES = "utterances"  # the voice listener's table in the same file (companion.store)
UNDO = replay.UNDO
# commands that change nothing in the story the report tells (an undone command is marked, and
# changed nothing either: the report shows what stands)
UNCHANGING = replay.PLACELESS - {SESSION_START}

EventDict = dict[str, Any]
ANSWER = "responder"  # the command answering a prompt
ANSWER_PARAMS = ("valor", "valor2", "opcao", "rolar")  # what its sentence says of the answer

# the narration code of an event, kept beside what the viewer saw (the report finds facts by it;
# the wire and the exports never carry it)
CODE = "code"


@dataclass(frozen=True)
class Entry:
    """One stored command, the events of it the viewer may see, and the table before/after."""

    command: StoredCommand
    events: tuple[EventDict, ...]
    before: dict[str, Any]
    after: dict[str, Any]
    rules: Tables | None = None  # the rules the command ran under (a region's name then)


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
    history: Mapping[int, tuple[StoredEvent, ...]]  # by command number, as stored
    utterances: tuple[dict[str, Any], ...]
    players: tuple[tuple[str, str, str], ...]  # token, character id, name
    states: PackedStates = field(default_factory=lambda: PackedStates({}))  # after each command
    rules: Mapping[int, str] = field(default_factory=dict)  # rules version id → stored rules
    # how a text the log left out is rendered again (companion.store.log.DERIVED)
    texts: Callable[[str, Mapping[str, Any]], str] = program_texts

    @property
    def events(self) -> dict[int, tuple[EventDict, ...]]:
        """Each command's events in the wire's shape, as stored (a text the log left out,
        rendered again from its code)."""
        return {n: tuple(self._wire(e) for e in kept) for n, kept in self.history.items()}

    def _wire(self, event: StoredEvent) -> EventDict:
        wire = event.wire()
        if event.text == DERIVED and event.code and isinstance(event.data, dict):
            try:
                wire["text"] = self.texts(event.code, {**event.data, **event.words})
            except TableError:
                pass
        return wire


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a report is read or built: the tens of
    thousands of events a long campaign keeps alive made its full collections a third of a
    report's time (reference counting still frees them at once; what cycles a build makes are
    collected once it ends). Several builds at once are fine: the first to end turns the
    collector back on; one that found it off leaves it off."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def read_log(log: Log, tables: Tables | None = None) -> Campaign:
    """Read the whole log (and the voice listener's utterances table, if any). A log written
    before stored history must be a copy (Log.read): it is migrated there, with `tables`."""
    with gc_paused():
        return _read_log(log, tables)


def _read_log(log: Log, tables: Tables | None) -> Campaign:
    meta = log.meta()
    if meta is None:
        raise ReportError(narration().render("relatorio.banco_sem_sessao", {}))
    if not log.keeps_history() and tables is not None:
        replay.open_history(log, tables, meta.seed, replay.rules_id(log, tables))
    if tables is not None:
        log.texts = tables.narration.render
    commands = tuple(log.commands(after=-1))  # with command 0, the session's own start
    history: dict[int, list[StoredEvent]] = {c.n: [] for c in commands}
    for row in log.stored_since(0):  # one read of every event, with its narration
        event = StoredEvent(*row)
        history.setdefault(event.command_n, []).append(event)
    used = {c.rules for c in commands if c.rules is not None}
    return Campaign(meta.seed, meta.created, commands,
                    {n: tuple(kept) for n, kept in history.items()},
                    tuple(log.rows_of(UTTERANCES)), tuple(log.players()),
                    log.states(), {i: log.rules_text(i) or "" for i in used},
                    log.texts or program_texts)


def open_campaign(db_path: str | Path, tables: Tables | None = None) -> Campaign:
    """Read the campaign stored at db_path, which must exist; the file is never written (a
    file from before stored history is migrated in a copy in memory, with `tables`, by
    default the ones on disk)."""
    path = Path(db_path)
    if not path.is_file():
        raise ReportError(narration().render("relatorio.banco_nao_encontrado",
                                             {"arquivo": str(db_path)}))
    log = Log.read(path)
    try:
        if not log.keeps_history() and tables is None:
            tables = load_rules()
        return read_log(log, tables)
    finally:
        log.close()


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
    inside = [c for c in commands if first <= c.n <= last
              and c.name not in (UNDO, SESSION_START) and c.name not in replay.SYSTEM]
    return SessionSpan(number, first, last, started, ended, len(inside),
                       sum(1 for c in inside if c.undone))


def session_number(raw: str | int | None) -> int | None:
    """A session number as typed (None: the last session), or a clear refusal."""
    if raw is None or raw == "":
        return None
    text = str(raw).strip()
    if not text.isdigit():
        raise ReportError(narration().render("relatorio.sessao_invalida", {"sessao": raw}))
    return int(text)


def find_session(campaign: Campaign, number: int | None) -> SessionSpan:
    """The session with that number, or a clear refusal. None: the last one played — just
    after `encerrar sessão` the new session has no command yet, and the report a GM opens
    then is the one just closed (the new one is one click away in the list)."""
    spans = sessions(campaign)
    if number is None:
        return spans[-1] if spans[-1].commands or len(spans) == 1 else spans[-2]
    for span in spans:
        if span.number == number:
            return span
    raise ReportError(narration().render("relatorio.sessao_inexistente",
                                         {"sessao": number, "sessoes": len(spans)}))


# ---------------------------------------------------------------- stored history

def _stored_state(campaign: Campaign, n: int) -> State:
    """The state stored after command n; a damaged one is a clear refusal."""
    try:
        return codec.decode_value(campaign.states.value(n), campaign.states.format_of(n))
    except KeyError:
        raise ReportError(narration().render("relatorio.estado_ausente",
                                             {"comando": n})) from None
    except (codec.StateUnreadable, StateDamaged) as error:
        raise ReportError(narration().render("relatorio.estado_danificado", {
            "comando": n, "erro": type(error).__name__})) from None


def _standing_before(campaign: Campaign, first: int, rules_of: _RulesOfTheirTime
                     ) -> tuple[State, int | None]:
    """The state the table stood at just before command `first` (the one stored after the
    command before it; before the campaign's first command, the start of the rules it ran
    under), and the rules version it ran under."""
    earlier = [c for c in campaign.commands if c.n < first]
    if not earlier:
        rules = campaign.commands[0].rules if campaign.commands else None
        return initial_state(rules_of.of(rules)), rules
    return _stored_state(campaign, earlier[-1].n), earlier[-1].rules


def _history(campaign: Campaign, rules_of: _RulesOfTheirTime, first: int, last: int
             ) -> Iterable[tuple[StoredCommand, State, State, int | None]]:
    """Each stored command numbered first..last with the state before and after it, as the
    story stands (an undone command, a view, a system command changed nothing), and the
    rules version of the state after it."""
    state, rules = _standing_before(campaign, first, rules_of)
    for stored in campaign.commands:
        if stored.n < first:
            continue
        if stored.n > last:
            return
        before = state
        if not stored.undone and stored.name not in UNCHANGING:
            state, rules = _stored_state(campaign, stored.n), stored.rules
        yield stored, before, state, rules


class _RulesOfTheirTime:
    """The tables a past view is built with: the rules version its command ran under (the
    wording of today's tables/), today's when it is today's or cannot be built any more."""

    def __init__(self, campaign: Campaign, tables: Tables) -> None:
        self._campaign = campaign
        self._tables = tables
        self._today = version.fingerprint(version.rules_text(tables))
        self._built: dict[int | None, Tables] = {None: tables}

    def of(self, rules: int | None) -> Tables:
        if rules not in self._built:
            self._built[rules] = self._build(self._campaign.rules.get(rules or 0, ""))
        return self._built[rules]

    def _build(self, stored: str) -> Tables:
        if not stored or version.fingerprint(stored) == self._today:
            return self._tables
        files = {**self._tables.files, **version.read(stored)}
        try:
            return Tables(files=files, directory=self._tables.directory,
                          pieces=build_pieces(files, self._tables.narration),
                          narrator=self._tables.narration)
        except TableError:  # rules this code cannot read any more: today's, for the view
            return self._tables


def entries(campaign: Campaign, span: SessionSpan, tables: Tables,
            viewer: str = "gm") -> tuple[dict[str, Any], list[Entry]]:
    """The view at the session's start, and its commands with the events `viewer` may see
    and the views after each, all in the viewer's projection (companion.history.projection: its own
    numbers, prompt ids and texts). Undone commands are kept (marked) but changed nothing."""
    projection = viewer_projection(campaign, tables, viewer)
    rules_of = _RulesOfTheirTime(campaign, tables)
    state, rules = _standing_before(campaign, span.first, rules_of)
    start = view = projection.view(view_state(state, viewer, rules_of.of(rules)))
    out: list[Entry] = []
    for stored, before, after, rules in _history(campaign, rules_of, span.first, span.last):
        shown = projection.view(view_state(after, viewer, rules_of.of(rules))) \
            if after is not before else view
        seen = tuple({**projection.show(event), CODE: event.code}
                     for event in _stored_events(campaign, stored) if projection.sees(event))
        said = replace(stored, text=_said(projection, stored, tables, viewer))
        out.append(Entry(said, seen, view, shown, rules_of.of(rules)))
        view = shown
    return start, out


def _said(projection: Projection, stored: StoredCommand, tables: Tables, viewer: str) -> str:
    """A command as the viewer reads it in the report: the projection's quote, but an answer
    to a prompt, for a player, as what was done ("respondeu com 5": a quoted "responder um
    pedido 5" reads as prompt nº 5; tables/narracao/relatorio.yaml `resposta`)."""
    if stored.name == SESSION_START:  # the companion's own, never typed: its name in words
        return stored.text
    if viewer == protocol.GM or stored.name != ANSWER:
        return projection.quote(quoted(stored))
    params = {k: v for k, v in stored.args.items() if k in ANSWER_PARAMS}
    if "pedido" in stored.args:
        params["pedido"] = projection.prompt_numbers().get(stored.args["pedido"])
    return tables.narration.render("relatorio.resposta", params)


def quoted(stored: StoredCommand) -> Quoted:
    return Quoted(stored.name, stored.args, stored.actor, stored.text)


def _stored_events(campaign: Campaign, stored: StoredCommand) -> Iterable[StoredEvent]:
    """A command's events with how their texts were rendered."""
    return campaign.history.get(stored.n, ())


def viewer_projection(campaign: Campaign, tables: Tables, viewer: str) -> Projection:
    """The viewer's projection of the whole campaign."""
    lookup = {c.n: quoted(c) for c in campaign.commands}.get
    projection = Projection(viewer, tables, lookup)
    for stored in campaign.commands:
        for event in _stored_events(campaign, stored):
            projection.add(event)
    return projection
