"""The run path: a line read (the parser), its command applied with its dice and stored (the
disk-full guard), the subscribers told."""
from __future__ import annotations

import json
import random
from typing import Any

from companion.engine import Command, apply
from companion.engine.procedures.roster import REMOVE
from companion.engine.procedures.weather import SESSION_START
from companion.history.replay import REPEAT, SYSTEM, UNDO, fresh_prompt_ids
from companion.session.dice import Dice
from companion.session.journal import Journal, logger
from companion.session.parsing import Parser
from companion.session.repeat import Repeat
from companion.session.rules_in_force import RulesInForce
from companion.session.seat_book import SeatBook
from companion.session.shapes import EventDict, RunResult
from companion.session.subscribers import Subscribers
from companion.session.undo import Undo
from companion.store.log import NewEvent, dumps
from companion.tables.errors import CommandRejected, CompanionError
from companion.tables.weights import KEY as WEIGHT


def describe(command: Command) -> str:
    """A text for a command that arrived already parsed (a tapped button)."""
    values = " ".join(str(v) for v in command.args.values())
    return f"{command.name} {values}".strip()


_SCALARS = frozenset({str, int, float, bool, type(None)})  # JSON gives these back as they are


def _json_safe(value: dict[str, Any]) -> dict[str, Any]:
    """Arguments as they come back from the log, so live and replayed runs see the same thing
    (a command's arguments are mostly a few plain values, which JSON gives back unchanged:
    those are not written out and read again)."""
    if all(type(key) is str and type(item) in _SCALARS for key, item in value.items()):
        return dict(value)
    return json.loads(dumps(value))


class Runner:
    """Lines and commands run: read, applied with their dice, stored, told."""

    def __init__(self, journal: Journal, rules: RulesInForce, parser: Parser, dice: Dice,
                 undo: Undo, repeat: Repeat, book: SeatBook, subscribers: Subscribers) -> None:
        self._journal = journal
        self._rules = rules
        self._parser = parser
        self._dice = dice
        self._undo = undo
        self._repeat = repeat
        self._book = book
        self._subscribers = subscribers

    def run(self, text: str, actor: str = "gm") -> RunResult:
        """Parse and run one line of text as `actor` ("gm" or "player:<id>")."""
        render = self._rules.render
        line = text.strip()
        if not line:
            return RunResult(False, error=render("sessao.linha_vazia", {}))
        try:
            result = self._parser.parse(line, actor)
        except Exception as error:  # "not a command" is a value; anything else is a bug
            logger.exception(render("sessao.log_erro_ao_interpretar", {"linha": repr(line)}))
            return RunResult(False, error=render(
                "sessao.erro_ao_interpretar",
                {"linha": line, "erro": f"{type(error).__name__}: {error}"}))
        if result.command is None:
            return RunResult(False, error=result.error or render(
                "sessao.nao_entendi", {"linha": line}))
        command = Command(result.command.name, dict(result.command.args), actor)
        return self.run_command(command, text=line)

    def run_command(self, command: Command, text: str | None = None) -> RunResult:
        """Run an already-parsed command (its actor included): apply, store, notify."""
        render = self._rules.render
        said = text or describe(command)
        if command.name == SESSION_START or command.name in SYSTEM:
            return RunResult(False, error=render("sessao.nao_e_da_mesa", {"comando": said}))
        if command.name == REPEAT:
            return self._repeat.repeat(command)
        with self._journal.lock:
            try:
                with self._journal.recording(CommandRejected.because("gravacao.disco_cheio")):
                    stored = self.run_locked(command, said)
            except CompanionError as error:
                return RunResult(False, error=error.message, code=getattr(error, "code", None),
                                 params=getattr(error, "params", {}))
            except Exception as error:  # a bug must not take the table down; nothing stored
                logger.exception(render("sessao.log_erro_ao_executar", {"comando": repr(said)}))
                return RunResult(False, error=render(
                    "sessao.erro_ao_executar",
                    {"comando": said, "erro": f"{type(error).__name__}: {error}"}))
        self._subscribers.deliver()
        return RunResult(True, events=stored)

    def run_locked(self, command: Command, text: str) -> list[EventDict]:
        """Apply and store one command, and queue its events for the subscribers (the lock
        held)."""
        if command.name == REMOVE:
            self._book.never_played(command)  # the log says whether it ever played
        party = {c.id for c in self._journal.state.party}
        stored = self._undo.undo(command, text) if command.name == UNDO \
            else self.apply(command, text)
        self._subscribers.queue(stored)
        if command.name == UNDO:
            self._book.free_undone_seats(party)
        return stored

    def apply(self, command: Command, text: str, n: int | None = None,
              house: str | None = None) -> list[EventDict]:
        """The engine's answer to one command, stored (the lock held)."""
        args = _json_safe(dict(command.args))
        clean = Command(command.name, args, command.actor)
        dice = self._dice.key(clean.name)
        journal = self._journal
        state, events = apply(fresh_prompt_ids(journal.state, journal.prompts_issued), clean,
                              random.Random(dice), self._rules.tables)
        return journal.commit(clean.name, text,
                              [NewEvent(e.kind, e.visibility, e.text,
                                        {**e.data, WEIGHT: e.weight}, e.code, e.words)
                               for e in events],
                              args=args, actor=clean.actor, state=state, dice=dice, n=n,
                              house=house)
