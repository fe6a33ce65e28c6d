"""The run path: a line read (Parsing), its command applied with its dice and stored (the
disk-full guard), the subscribers told."""
from __future__ import annotations

import json
import random
from typing import Any

from companion.engine import Command, apply
from companion.engine.procedures.roster import REMOVE
from companion.engine.procedures.weather import SESSION_START
from companion.history import dice_keys
from companion.history.replay import PLACELESS, REPEAT, SYSTEM, UNDO, fresh_prompt_ids
from companion.session.core import START_NUMBER, Core, logger
from companion.session.shapes import EventDict, RunResult
from companion.store.log import NewEvent, StoredCommand, dumps
from companion.tables.errors import CommandRejected, CompanionError
from companion.tables.weights import KEY as WEIGHT


def place_of(command: StoredCommand | None) -> int:
    """A standing command's place among those that change the state: the number after the
    last ':' of its dice key (none: the session's start, place 0)."""
    if command is None or not command.dice:
        return START_NUMBER
    tail = command.dice.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else command.n


def describe(command: Command) -> str:
    """A text for a command that arrived already parsed (a tapped button)."""
    values = " ".join(str(v) for v in command.args.values())
    return f"{command.name} {values}".strip()


def _json_safe(value: Any) -> Any:
    """The value as it comes back from the log, so live and replayed runs see the same thing."""
    return json.loads(dumps(value))


class Running(Core):
    """Lines and commands run (through self: Parsing.parse, Repeat._repeat for `repetir`,
    Undo._undo for `desfazer`, Reading._deliver)."""

    def run(self, text: str, actor: str = "gm") -> RunResult:
        """Parse and run one line of text as `actor` ("gm" or "player:<id>")."""
        line = text.strip()
        if not line:
            return RunResult(False, error=self.tables.narration.render("sessao.linha_vazia", {}))
        try:
            result = self.parse(line, actor)
        except Exception as error:  # "not a command" is a value; anything else is a bug
            logger.exception(self.tables.narration.render("sessao.log_erro_ao_interpretar",
                                                          {"linha": repr(line)}))
            return RunResult(False, error=self.tables.narration.render(
                "sessao.erro_ao_interpretar",
                {"linha": line, "erro": f"{type(error).__name__}: {error}"}))
        if result.command is None:
            return RunResult(False, error=result.error or self.tables.narration.render(
                "sessao.nao_entendi", {"linha": line}))
        command = Command(result.command.name, dict(result.command.args), actor)
        return self.run_command(command, text=line)

    def run_command(self, command: Command, text: str | None = None) -> RunResult:
        """Run an already-parsed command (its actor included): apply, store, notify."""
        said = text or describe(command)
        if command.name == SESSION_START or command.name in SYSTEM:
            return RunResult(False, error=self.tables.narration.render(
                "sessao.nao_e_da_mesa", {"comando": said}))
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
                logger.exception(self.tables.narration.render("sessao.log_erro_ao_executar",
                                                              {"comando": repr(said)}))
                return RunResult(False, error=self.tables.narration.render(
                    "sessao.erro_ao_executar",
                    {"comando": said, "erro": f"{type(error).__name__}: {error}"}))
        self._deliver()
        return RunResult(True, events=stored)

    def _run_locked(self, command: Command, text: str) -> list[EventDict]:
        """Apply and store one command, and queue its events for the subscribers."""
        if command.name == REMOVE:
            self._never_played(command)  # Seats: the log says whether it ever played
        party = {c.id for c in self._state.party}
        stored = self._undo(command, text) if command.name == UNDO else self._apply(command, text)
        self._pending.append(stored)
        if command.name == UNDO:
            self._free_undone_seats(party)  # Seats
        return stored

    def dice_key(self, name: str) -> str:
        """What the RNG of a command about to run derives from: the campaign's secret (or the
        --seed: companion.history.dice_keys) and its place among the standing commands that
        change the state — the place after the newest of them (the session's start is place
        0; a command of a migrated log has its number as its place). A command undone gives
        its place back, so the same command again rolls the same dice (a place played before
        the campaign had a secret keeps that key)."""
        place = START_NUMBER if name == SESSION_START else \
            place_of(self._log.last_active(sorted(PLACELESS))) + 1
        return self._seeded_places.get(place) or dice_keys.dice_key(self.seed, self._secret,
                                                                     place)

    def _apply(self, command: Command, text: str, n: int | None = None,
               house: str | None = None) -> list[EventDict]:
        """The engine's answer to one command, stored (the lock held)."""
        args = _json_safe(dict(command.args))
        clean = Command(command.name, args, command.actor)
        dice = self.dice_key(clean.name)
        state, events = apply(fresh_prompt_ids(self._state, self._prompts_issued), clean,
                              random.Random(dice), self.tables)
        stored = self._commit(clean.name, text,
                              [NewEvent(e.kind, e.visibility, e.text,
                                        {**e.data, WEIGHT: e.weight}, e.code, e.words)
                               for e in events],
                              args=args, actor=clean.actor, state=state, dice=dice, n=n,
                              house=house)
        self._prompts_issued = max([self._prompts_issued] + [
            e["data"]["pedido"]["id"] for e in stored if e["kind"] == "pedido"
            and isinstance(e["data"].get("pedido"), dict)])
        return stored
