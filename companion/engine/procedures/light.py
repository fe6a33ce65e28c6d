"""Light sources and spells in the dungeon (tables/casa.yaml `luz`, read through
companion/tables/light_sources.py; tables/masmorra.yaml): `luz` lights or puts out a source, `magia`
counts a spell's duration in exploration turns, and `tick_timers` (the clock's dungeon-turns
hook) burns them turn by turn, saying what went out.
Texts: tables/narracao/masmorra.yaml.
Where the rules are silent: `apagar` drops the light (a new one starts full).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.engine.clock import MINUTES_PER_HOUR
from companion.engine.model import State, Timer
from companion.engine.procedures.dungeon import DungeonRules, is_dark
from companion.engine.characters import slug
from companion.engine.handlers import command
from companion.engine.scratch import Scratch, arg
from companion.tables.errors import CommandRejected
from companion.tables.light_sources import LightRules, LightSource
from companion.tables.weights import Weight


def _tick(timers: tuple[Timer, ...], turns: int) -> tuple[tuple[Timer, ...], tuple[Timer, ...]]:
    """Burn `turns` from each timer: (still running, expired). Never below zero."""
    burnt = tuple(replace(t, turns_left=max(0, t.turns_left - turns)) for t in timers)
    return (tuple(t for t in burnt if t.turns_left > 0),
            tuple(t for t in burnt if t.turns_left == 0))


def tick_timers(state: State, scratch: Scratch, turns: int) -> State:
    """Burn `turns` turns of every light and spell, saying what went out (clock.pass_time)."""
    lights, lights_out = _tick(state.dungeon.lights, turns)
    spells, spells_over = _tick(state.dungeon.spells, turns)
    sources = scratch.piece(LightRules)
    for light in lights_out:
        scratch.tell("masmorra.luz_apagou", weight=Weight.DARKNESS, kind="aviso",
                     words={"texto": _light_spec(sources, light.name).apagou}, luz=light.name)
    for spell in spells_over:
        scratch.tell("masmorra.magia_terminou", weight=Weight.DARKNESS,
                     kind="aviso", magia=spell.name)
    state = replace(state, dungeon=replace(state.dungeon, lights=lights, spells=spells))
    if lights_out and is_dark(state):
        scratch.tell("masmorra.escuridao_total", weight=Weight.DARKNESS, kind="aviso")
    return state


def _light_spec(rules: LightRules, source: str) -> LightSource:
    if source not in rules.luz:
        raise CommandRejected.because("masmorra.luz_desconhecida", fonte=source,
                                      fontes=list(rules.luz))
    return rules.luz[source]


@command("luz")
def light(state: State, scratch: Scratch) -> State:
    """Light (a new, full) source or put one out."""
    source = slug(str(arg(scratch, "fonte", "")))
    spec = _light_spec(scratch.piece(LightRules), source)
    action = slug(str(arg(scratch, "acao", "acender")))
    handlers: dict[str, Callable[[State, Scratch, str, LightSource], State]] = {
        "acender": _light_on, "apagar": _light_off}
    if action not in handlers:
        raise CommandRejected.because("masmorra.luz_acao_desconhecida",
                                      acao=arg(scratch, "acao"))
    return handlers[action](state, scratch, source, spec)


def _light_on(state: State, scratch: Scratch, source: str, spec: LightSource) -> State:
    timer = Timer(name=source, turns_left=spec.turnos, kind="luz")
    scratch.tell("masmorra.luz_acesa", words={"nome": spec.nome}, luz=source,
                 turnos=timer.turns_left)
    lights = state.dungeon.lights + (timer,)
    return replace(state, dungeon=replace(state.dungeon, lights=lights))


def _light_off(state: State, scratch: Scratch, source: str, spec: LightSource) -> State:
    burning = [t for t in state.dungeon.lights if t.name == source]
    if not burning:
        raise CommandRejected.because("masmorra.luz_nao_acesa", nome=spec.nome)
    out = min(burning, key=lambda t: t.turns_left)
    lights = list(state.dungeon.lights)
    lights.remove(out)
    scratch.tell("masmorra.luz_apagada", weight=Weight.DARKNESS,
                 words={"nome": spec.nome, "restavam": out.turns_left},
                 luz=source)
    state = replace(state, dungeon=replace(state.dungeon, lights=tuple(lights)))
    if is_dark(state):
        scratch.tell("masmorra.escuridao_total", weight=Weight.DARKNESS, kind="aviso")
    return state


@command("magia")
def spell(state: State, scratch: Scratch) -> State:
    """Count a spell's duration in exploration turns."""
    rules = scratch.piece(DungeonRules)
    name = " ".join(str(arg(scratch, "nome", "")).split())
    turns = arg(scratch, "turnos")
    hours = arg(scratch, "horas")  # "por uma hora": the turns of that many hours
    if turns is None and isinstance(hours, int) and not isinstance(hours, bool):
        turns = hours * MINUTES_PER_HOUR // rules.turno_minutos
    top = rules.magia_maximo_turnos
    if not name:
        raise CommandRejected.because("masmorra.magia_sem_nome")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= top:
        raise CommandRejected.because("masmorra.magia_duracao_invalida", turnos=turns,
                                      maximo=top)
    spells = state.dungeon.spells + (Timer(name=name, turns_left=turns, kind="magia"),)
    scratch.tell("masmorra.magia", magia=name, turnos=turns)
    return replace(state, dungeon=replace(state.dungeon, spells=spells))
