"""The engine's entry point: `apply(state, command, rng, tables)`, pure.

The same state, command, RNG seed and tables give the same new state and events. The commands
and prompt handlers are the ones the procedure modules registered in companion.engine.handlers;
companion.engine.registry imports them all (companion/engine/__init__.py imports it, so any
import of the engine has them registered).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from companion.tables import protocol
from companion.engine.model import (
    Command,
    Danger,
    Dungeon,
    Event,
    Season,
    State,
    Terrain,
    Travel,
    TravelMode,
)
from companion.engine.handlers import COMMANDS, Handler
from companion.engine.scratch import Scratch
from companion.tables.protocol import CommandRules, spoken_name
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import piece
from companion.tables.files import Tables


def require_mode(state: State, scratch: Scratch) -> None:
    """Reject a command that does not fit the current mode (modes come from comandos.yaml),
    saying it in spoken words: "'fuga' só vale numa perseguição (agora: viagem)…"."""
    rules = scratch.piece(CommandRules)
    spec = rules.comandos.get(scratch.command.name)
    modes = spec.modos if spec is not None else ("todos",)
    if "todos" in modes or state.mode in modes:
        return
    if state.mode == "perseguicao" and state.dungeon.active and "masmorra" in modes:
        return
    if state.mode == "perseguicao" and not state.dungeon.active and "viagem" in modes:
        return
    now = rules.modos_frases.of(state.mode)
    raise CommandRejected.because(
        "comandos.fora_do_modo", comando=spoken_name(scratch.tables, scratch.command.name),
        onde=[rules.modos_frases.of(mode).onde for mode in modes], agora=now.nome, de=now.de)


def require_actor(state: State, scratch: Scratch) -> None:
    """Players may run only what comandos.yaml marks `jogador: true` (companion.tables.protocol)."""
    protocol.require_may_run(scratch.command.actor, scratch.command.name, scratch.tables)


def _count_dice(state: State, events: list[Event]) -> State:
    """The session tally counts every die rolled, by type: the rolagem events' faces and the
    physical dice of the prompts answered with a value (`dados_fisicos`)."""
    counts = dict(state.tally.dice)
    for event in events:
        for kind, count in event.data.get("dados_fisicos", {}).items():  # a physical answer
            counts[kind] = counts.get(kind, 0) + int(count)
        if event.kind != "rolagem":
            continue
        for kind, values in event.data.get("faces", []):
            counts[kind] = counts.get(kind, 0) + len(values)
    if counts == dict(state.tally.dice):
        return state
    return replace(state, tally=replace(state.tally, dice=counts))


V = TypeVar("V")


@dataclass(frozen=True)
class HouseValue(Generic[V]):
    """A starting value of tables/inicio.yaml: the value, and whether it is a house default."""

    valor: V
    padrao_da_casa: bool


@piece("inicio")
@dataclass(frozen=True)
class StartRules:
    """tables/inicio.yaml: the session's starting values (house defaults)."""

    estacao: HouseValue[Season]
    terreno: HouseValue[Terrain]
    modo: HouseValue[TravelMode]
    perigo: HouseValue[Danger]


def initial_state(tables: Tables) -> State:
    """A new session: season, terrain, travel mode and danger level from tables/inicio.yaml."""
    start = tables.piece(StartRules)
    terrain = start.terreno.valor
    travel = Travel(season=start.estacao.valor, terrain=terrain,
                    day_start_terrain=terrain, mode=start.modo.valor)
    return State(travel=travel, dungeon=Dungeon(danger=start.perigo.valor))


def apply(state: State, command: Command, rng: random.Random,
          tables: Tables) -> tuple[State, list[Event]]:
    """Run one command. Raises CommandRejected (nothing changes) when it cannot run."""
    scratch = Scratch(rng=rng, tables=tables, command=command)
    try:
        handler = COMMANDS.get(command.name)
        if handler is None:
            raise CommandRejected.because("comandos.desconhecido", comando=command.name)
        require_actor(state, scratch)
        require_mode(state, scratch)
        narrated = _narrating_refusals(handler)
        new_state = _repeated(narrated, state, scratch) if "vezes" in command.args \
            else narrated(state, scratch)
    except CommandRejected as refusal:
        raise _written_out(refusal, tables) from None
    return _count_dice(new_state, scratch.events), scratch.events


def _written_out(refusal: CommandRejected, tables: Tables) -> CommandRejected:
    """A refusal said by its code (CommandRejected.because) with its message written out from
    tables/narracao/; a refusal that has its message already is itself."""
    if refusal.message or refusal.code is None:
        return refusal
    return refusal.rendered(tables.narration.render(refusal.code, refusal.params))


def _narrating_refusals(handler: Handler) -> Handler:
    """The handler, with a refusal said by its code (CommandRejected.because) written out from
    tables/narracao/ before it leaves the engine: `message` is always the text people read."""

    def run(state: State, scratch: Scratch) -> State:
        try:
            return handler(state, scratch)
        except CommandRejected as refusal:
            written = _written_out(refusal, scratch.tables)
            if written is refusal:
                raise
            raise written from None

    return run


def _repeated(handler: Handler, state: State, scratch: Scratch) -> State:
    """'avançar duas vezes', '2 turnos': the command N times in a row, as one command (all or
    nothing: a refusal at any time refuses the whole, saying at which one). Only commands
    marked `repete` in comandos.yaml, at most `repeticoes_maximas` times."""
    name = scratch.command.name
    times = scratch.command.args["vezes"]
    rules = scratch.piece(CommandRules)
    top = rules.repeticoes_maximas
    spec = rules.comandos.get(name)
    if spec is None or not spec.repete:
        raise CommandRejected.because("comandos.nao_repete",
                                      comando=spoken_name(scratch.tables, name))
    if isinstance(times, bool) or not isinstance(times, int) or not 1 <= times <= top:
        raise CommandRejected.because("comandos.vezes_invalidas", vezes=times, maximo=top,
                                      comando=spoken_name(scratch.tables, name))
    args = {k: v for k, v in scratch.command.args.items() if k != "vezes"}
    once = replace(scratch, command=replace(scratch.command, args=args))
    for count in range(1, times + 1):
        try:
            state = handler(state, once)
        except CommandRejected as refused:
            if count == 1:
                raise
            raise CommandRejected.because("comandos.na_vez", vez=count,
                                          motivo=refused.message,
                                          dentro={"code": refused.code,
                                                  "params": refused.params}) from None
    scratch.events[:] = once.events
    return state
