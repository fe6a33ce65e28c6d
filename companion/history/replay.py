"""Running stored commands again: the one-time migration of a log written before stored history,
the recovery of damaged stored states, and `companion verificar`. Nothing else replays: the
session, the report and the exports read the stored history.

A replay runs the log as the live session ran it, in order: each command on the state before it,
with the RNG of its dice key (`Random(dice)`; a log from before stored history derived it from
the command's number), undone commands at their time too, and each `desfazer` going back to the
state before the command it undid. Before each command the state's next prompt id is moved past
every id the log had issued (`fresh_prompt_ids`), as the live session does.

The stored log is the truth of what happened (DESIGN.md: campaign files across releases): a
command the old release accepted is never refused here for a prompt that waits (today's rules
may hold the group where the old ones did not: it runs as the log shows, the prompt waiting
on); a prompt today's rules ask that the log never had is settled as the log shows
(companion.history.settle); the weather the table was told stays the table's. Each such command
is a difference (`Step.differs`), told to the GM by a migration and listed by `verificar`.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping, Sequence

from companion.rules import overlay
from companion.rules import version
from companion.history import codec
from companion.history import settle
from companion.engine import Command, Event, State, apply, initial_state
from companion.engine.procedures.weather import SESSION_START
from companion.tables.errors import CommandRejected
from companion.store.log import Log, StateDamaged, StoredCommand, StoredState, dumps
from companion.tables.files import Tables
from companion.tables.weights import KEY as WEIGHT

UNDO = "desfazer"
REPEAT = "repetir"  # the session answers it from the history: never stored, never applied
# views and questions: they change nothing
READ_ONLY = frozenset({"ajuda", "estado", "registro", "tempo", "silencio"})
RULES_CHANGED = "regras_mudaram"  # system commands: stored by the session, never applied,
HISTORY_NOTICE = "aviso_historico"  # never undone, no dice; GM-only events
SEAT_FREED = "lugar_liberado"  # a player's seat freed (its tokens deleted with it)
RULES = "regras"  # the GM changed the campaign's rules: undoable, no dice, the state unchanged
SYSTEM = frozenset({RULES_CHANGED, HISTORY_NOTICE, SEAT_FREED})
# commands that take no place among the standing ones (their dice key is not a place)
PLACELESS = READ_ONLY | SYSTEM | {UNDO, REPEAT, SESSION_START}


def old_dice(seed: str, n: int) -> str:
    """The dice key of a command stored before stored history: its number."""
    return f"{seed}:{n}"


def fresh_prompt_ids(state: State, issued: int) -> State:
    """The state with its next prompt id past every id the log ever issued: after `desfazer`
    restores an older counter, a new prompt must not take an undone prompt's id (an old
    button on a phone would answer it)."""
    if state.next_prompt_id > issued:
        return state
    return replace(state, next_prompt_id=issued + 1)


@dataclass(frozen=True)
class Step:
    """One command run again: the state after it, its events (None: not applied, or refused)
    and, when its events differ from the stored ones, why."""

    command: StoredCommand
    state: State
    events: tuple[Event, ...] | None
    differs: str | None
    # prompts today's rules asked that the log never had, settled as the log shows: (kind,
    # answer; None when cancelled) — settle.py
    settled: tuple[tuple[str, str | None], ...] = ()


def _facts(event: Mapping[str, Any]) -> tuple[Any, ...]:
    """What an event says: its kind, who sees it, its data — without its weight as news (how
    it is shown, not what happened: an event stored before weights says the same)."""
    data = event["data"]
    if isinstance(data, Mapping) and WEIGHT in data:
        data = {key: value for key, value in data.items() if key != WEIGHT}
    return (event["kind"], event["visibility"], json.loads(dumps(data)))


def _same_saying(stored: Mapping[str, Any], event: Event) -> bool:
    """The stored event says what the event run again says (its kind, data and text), whoever
    may see each: its narration (code, words) is the stored one's too. A command whose events
    differ only in who sees them (a visibility today's rules set otherwise) still gets the
    narration of each, so a player's copy is renumbered like any other."""
    again = _facts({"kind": event.kind, "visibility": event.visibility, "data": event.data})
    kind, _visibility, data = _facts(stored)
    # the same words too: a narration whose words today's rules would fill otherwise (a
    # Sanity read differently) is not kept; the text stays the one the table read
    return (kind, data) == (again[0], again[2]) and stored.get("text") == event.text


def _undone_by(events: Sequence[Mapping[str, Any]]) -> int | None:
    for event in events:
        data = event.get("data")
        if isinstance(data, dict) and isinstance(data.get("desfeito"), int):
            return data["desfeito"]
    return None


def rules_at(log: Log, shipped: Tables, n: int) -> Tables:
    """The rules command n ran under: the shipped tables with the GM's rules in force at it
    (companion.rules.overlay)."""
    found = log.house_rules(n)
    return overlay.stored_rules(shipped, found[1] if found else None)


def run(log: Log, tables: Tables, seed: str, start: State | None = None,
        after: int = -1) -> Iterator[Step]:
    """Every command numbered above `after` run again on `start` (the initial state by
    default), each compared with its stored events (their kind, visibility and data: the
    facts, not the wording). `tables` are the shipped ones: each command runs under them with
    the GM's rules in force at it."""
    rows = log.house_rules_rows()
    shipped, tables = tables, rules_at(log, tables, max(after, 0))
    state = start if start is not None else initial_state(tables)
    issued = log.prompt_ids()
    history = log.commands(after)
    highest = max((i for n, i in issued.items() if n <= after), default=0)
    before: dict[int, State] = {}
    for stored in history:
        before_this, highest = highest, max(highest, issued.get(stored.n, 0))
        kept = log.events_of(stored.n)
        if stored.n in rows:  # the GM's rules from this command on
            tables = overlay.stored_rules(shipped, rows[stored.n])
        if stored.name in SYSTEM or stored.name == RULES:
            if stored.name == RULES:
                before[stored.n] = state
            yield Step(stored, state, None, None)
            continue
        if stored.name == UNDO:
            target = _undone_by(kept)
            if target is not None:  # back to the state before it (read, when before the start)
                state = before[target] if target in before else state_before(
                    log, tables, seed, target)
            yield Step(stored, state, None, None)
            continue
        dice = stored.dice or old_dice(seed, stored.n)
        ready = fresh_prompt_ids(state, before_this)
        command = Command(stored.name, stored.args, stored.actor)
        held: str | None = None  # why today's rules would hold it back (a prompt waiting)
        try:
            after, events = apply(ready, command, random.Random(dice), tables)
        except CommandRejected as refused:  # the old release accepted it: the table goes on
            past = _past_waiting_prompts(ready, command, dice, tables)
            if past is None:  # from the state before it (an undo of it too)
                if stored.name not in READ_ONLY:
                    before[stored.n] = state
                yield Step(stored, state, None, tables.narration.render(
                    "historico.agora_recusado", {"motivo": refused.message}))
                continue
            (after, events), held = past, refused.message
        settled: tuple[tuple[str, str | None], ...] = ()
        if after.prompts != ready.prompts:  # prompts asked: as the log asked them
            done = settle.settle(ready, after, events, kept, dice, tables)
            after, events, settled = done.state, list(events) + list(done.events), done.settled
        if stored.name not in READ_ONLY:  # a view changes nothing: nothing to undo
            before[stored.n] = state
        state = codec.normalized(settle.as_logged(after, kept))
        same = [_facts(e) for e in kept] == [
            _facts({"kind": e.kind, "visibility": e.visibility, "data": e.data}) for e in events]
        yield Step(stored, state, tuple(events),
                   None if same and held is None else _why(tables, settled, held), settled)


def _past_waiting_prompts(state: State, command: Command, dice: str, tables: Tables
                          ) -> tuple[State, Sequence[Event]] | None:
    """A command today's rules hold back while a prompt waits, which the old release ran with
    it waiting: run on the state without its waiting prompts, which then wait on as the log
    has them (None: refused even so, or no prompt waits)."""
    if not state.prompts:
        return None
    try:
        after, events = apply(replace(state, prompts=()), command, random.Random(dice), tables)
    except CommandRejected:
        return None
    return replace(after, prompts=state.prompts + after.prompts), events


def _why(tables: Tables, settled: Sequence[tuple[str, str | None]], held: str | None) -> str:
    """Why a command run again differs: a prompt settled as the log shows, a refusal passed
    over as the log shows, or (neither) its events."""
    reasons = []
    if held is not None:
        reasons.append(tables.narration.render("historico.seguiu_pelo_registro",
                                               {"motivo": held}))
    if settled:
        reasons.append(tables.narration.render("historico.resolvido_pelo_registro", {
            "pedidos": [{"tipo": settle.prompt_kind_name(tables, kind), "resposta": answer}
                        for kind, answer in settled]}))
    return "; ".join(reasons) or "eventos diferentes"


def _undo_code(event: Mapping[str, Any]) -> str:
    """The narration code of an undo's event (the session's: desfazer.yaml): the one that names
    the undone command, or the public line when only the GM learns which it was."""
    data = event.get("data")
    return "desfazer.desfeito" if isinstance(data, dict) and "desfeito" in data \
        else "desfazer.mestre_desfez"


@dataclass(frozen=True)
class Migrated:
    """A log brought up to stored history: the state it now stands at, and the commands whose
    events came out different (in order)."""

    state: State
    differences: tuple[Step, ...] = ()

    @property
    def first_difference(self) -> Step | None:
        return self.differences[0] if self.differences else None


def said_then_and_now(log: Log, step: Step) -> tuple[list[str], list[str]]:
    """What a command said when the table played it and what it says run again today: the
    texts of its events that the other lacks (the stored text: what the table read)."""
    then = [str(e["text"]) for e in log.events_of(step.command.n)]
    now = [e.text for e in step.events or ()]
    return [t for t in then if t not in now], [t for t in now if t not in then]


def migrate(log: Log, tables: Tables, seed: str, rules_id: int) -> Migrated:
    """Store, once, the history a log written before stored history lacks: each command's
    state (replayed with today's code and these tables, with the old dice), its dice key and
    rules version, and the narration of every event that had none."""
    filled: list[tuple[int, str, int, StoredState]] = []
    narrations: dict[int, tuple[str, Mapping[str, Any]]] = {}
    found: list[Step] = []
    state = initial_state(tables)
    for step in run(log, tables, seed):
        state = step.state
        dice = step.command.dice or old_dice(seed, step.command.n)
        filled.append((step.command.n, dice, rules_id,
                       StoredState(codec.FORMAT, codec.encode(state))))
        if step.differs is not None:
            found.append(step)
        kept = log.events_of(step.command.n)
        if step.events is not None and len(step.events) == len(kept):
            for stored_event, event in zip(kept, step.events):
                if event.code and _same_saying(stored_event, event):
                    narrations[stored_event["seq"]] = (event.code, dict(event.words))
        elif step.command.name == UNDO:
            narrations.update({e["seq"]: (_undo_code(e), {}) for e in kept})
    log.fill(filled, narrations, migration=True)
    return Migrated(state, tuple(found))


def rules_id(log: Log, tables: Tables) -> int:
    """The id of these tables' rules version in the log (stored now if new)."""
    text = version.rules_text(tables)
    return log.rules_id(version.fingerprint(text), text)


def differences(log: Log, tables: Tables, seed: str) -> list[Step]:
    """The commands whose events would differ if the log were run again with this code and
    these tables (`companion verificar`; a check, never the truth)."""
    return [step for step in run(log, tables, seed) if step.differs is not None]


@dataclass(frozen=True)
class Opened:
    """A campaign's log opened: the state it stands at, and what opening had to do — the
    first command a migration found different, the damaged states rebuilt (and from which
    command's state)."""

    state: State
    differences: tuple[Step, ...] = ()
    damaged: tuple[int, ...] = ()
    recovered_from: int = -1

    @property
    def first_difference(self) -> Step | None:
        return self.differences[0] if self.differences else None


def read_state(log: Log, n: int) -> State:
    """The state stored after command n (StateDamaged / StateUnreadable when it cannot be)."""
    stored = log.state_after(n)
    return codec.decode(stored.raw, stored.format)


def open_history(log: Log, tables: Tables, seed: str, rules: int) -> Opened:
    """The newest stored state of the log: a log written before stored history is migrated
    first; damaged states are rebuilt from the newest readable one and stored again."""
    if log.is_empty():
        return Opened(initial_state(rules_at(log, tables, 0)))
    if not log.keeps_history():
        migrated = migrate(log, tables, seed, rules)
        return Opened(migrated.state, migrated.differences)
    damaged = _damaged_keyframes(log)  # every later state depends on them
    below = min(damaged) if damaged else None
    for n in log.state_numbers(below=below):
        try:
            state = read_state(log, n)
        except (StateDamaged, codec.StateUnreadable):
            damaged.append(n)
            continue
        if not damaged:
            return Opened(state)
        return _recover(log, tables, seed, rules, state, n, damaged)
    start = initial_state(rules_at(log, tables, 0))
    return _recover(log, tables, seed, rules, start, -1, damaged)


def _damaged_keyframes(log: Log) -> list[int]:
    """The keyframes that cannot be read (cheap: a few per hundred commands)."""
    damaged = []
    for n in log.keyframes():
        try:
            read_state(log, n)
        except (StateDamaged, codec.StateUnreadable):
            damaged.append(n)
    return damaged


def _recover(log: Log, tables: Tables, seed: str, rules: int, state: State, good: int,
             damaged: list[int]) -> Opened:
    """The commands after `good` run again on its state; their states stored again."""
    filled = []
    for step in run(log, tables, seed, start=state, after=good):
        state = step.state
        filled.append((step.command.n, step.command.dice or old_dice(seed, step.command.n),
                       step.command.rules or rules,
                       StoredState(codec.FORMAT, codec.encode(state))))
    log.fill(filled, {})
    return Opened(state, damaged=tuple(sorted(damaged)), recovered_from=good)


def state_before(log: Log, tables: Tables, seed: str, n: int) -> State:
    """The state the table had just before command n ran: the one stored after the command
    before it (a damaged one is rebuilt from the newest readable one before it)."""
    start, after = initial_state(rules_at(log, tables, 0)), -1  # none readable: the start
    for index, m in enumerate(log.state_numbers(below=n)):
        try:
            start, after = read_state(log, m), m
        except (StateDamaged, codec.StateUnreadable):
            continue
        if index == 0:
            return start
        break
    state = start
    for step in run(log, tables, seed, start=start, after=after):
        if step.command.n >= n:
            break
        state = step.state
    return state
