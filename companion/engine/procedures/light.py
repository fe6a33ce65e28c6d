"""Light sources and spells in the dungeon (tables/casa.yaml `luz`, tables/masmorra.yaml): `luz`
lights or puts out a source, `magia` counts a spell's duration in exploration turns, and
`tick_timers` (the clock's dungeon-turns hook) burns them turn by turn, saying what went out.
Where the rules are silent: `apagar` drops the light (a new one starts full).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from companion.engine.procedures.dungeon import is_dark
from companion.engine.model import State, Timer
from companion.engine.toolkit import Scratch, arg, command, plural, slug
from companion.errors import CommandRejected
from companion.tables import register_schema

register_schema("casa", {"luz": {"*": {"nome": str, "turnos": int, "apagou": str}}})


def _tick(timers: tuple[Timer, ...], turns: int) -> tuple[tuple[Timer, ...], tuple[Timer, ...]]:
    """Burn `turns` from each timer: (still running, expired). Never below zero."""
    burnt = tuple(replace(t, turns_left=max(0, t.turns_left - turns)) for t in timers)
    return (tuple(t for t in burnt if t.turns_left > 0),
            tuple(t for t in burnt if t.turns_left == 0))


def tick_timers(state: State, scratch: Scratch, turns: int) -> State:
    """Burn `turns` turns of every light and spell, saying what went out (clock.pass_time)."""
    lights, lights_out = _tick(state.dungeon.lights, turns)
    spells, spells_over = _tick(state.dungeon.spells, turns)
    for light in lights_out:
        scratch.warn(_light_spec(scratch, light.name)["apagou"], luz=light.name)
    for spell in spells_over:
        scratch.warn(f"A magia {spell.name} terminou.", magia=spell.name)
    state = replace(state, dungeon=replace(state.dungeon, lights=lights, spells=spells))
    if lights_out and is_dark(state):
        scratch.warn("Nenhuma luz acesa: escuridão total.")
    return state


def _light_spec(scratch: Scratch, source: str) -> dict[str, Any]:
    sources = scratch.table("casa", "luz")
    if source not in sources:
        names = ", ".join(sources)
        raise CommandRejected(f"fonte de luz desconhecida: '{source}'; use {names}")
    return sources[source]


@command("luz")
def light(state: State, scratch: Scratch) -> State:
    """Light (a new, full) source or put one out."""
    source = slug(str(arg(scratch, "fonte", "")))
    spec = _light_spec(scratch, source)
    action = slug(str(arg(scratch, "acao", "acender")))
    handlers: dict[str, Callable[[State, Scratch, str, dict[str, Any]], State]] = {
        "acender": _light_on, "apagar": _light_off}
    if action not in handlers:
        raise CommandRejected(f"ação de luz desconhecida: '{arg(scratch, 'acao')}'; "
                              "use acender ou apagar")
    return handlers[action](state, scratch, source, spec)


def _light_on(state: State, scratch: Scratch, source: str, spec: dict[str, Any]) -> State:
    timer = Timer(name=source, turns_left=int(spec["turnos"]), kind="luz")
    scratch.say(f"{spec['nome']} acesa: queima por {plural(timer.turns_left, 'turno')}.", luz=source,
                turnos=timer.turns_left)
    lights = state.dungeon.lights + (timer,)
    return replace(state, dungeon=replace(state.dungeon, lights=lights))


def _light_off(state: State, scratch: Scratch, source: str, spec: dict[str, Any]) -> State:
    burning = [t for t in state.dungeon.lights if t.name == source]
    if not burning:
        raise CommandRejected(f"não há {str(spec['nome']).lower()} acesa para apagar")
    out = min(burning, key=lambda t: t.turns_left)
    lights = list(state.dungeon.lights)
    lights.remove(out)
    left = plural(out.turns_left, "turno")
    scratch.say(f"{spec['nome']} apagada ({'restava' if out.turns_left == 1 else 'restavam'} "
                f"{left}).", luz=source)
    state = replace(state, dungeon=replace(state.dungeon, lights=tuple(lights)))
    if is_dark(state):
        scratch.warn("Nenhuma luz acesa: escuridão total.")
    return state


@command("magia")
def spell(state: State, scratch: Scratch) -> State:
    """Count a spell's duration in exploration turns."""
    name = " ".join(str(arg(scratch, "nome", "")).split())
    turns = arg(scratch, "turnos")
    hours = arg(scratch, "horas")  # "por uma hora": the turns of that many hours
    if turns is None and isinstance(hours, int) and not isinstance(hours, bool):
        turns = hours * 60 // int(scratch.table("masmorra", "turno_minutos"))
    top = int(scratch.table("masmorra", "magia_maximo_turnos"))
    if not name:
        raise CommandRejected("diga o nome da magia: 'magia escudo 6 turnos'")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= top:
        raise CommandRejected(f"duração da magia inválida: '{turns}'; diga de 1 a {top} turnos, "
                              "como em 'magia escudo 6 turnos'")
    spells = state.dungeon.spells + (Timer(name=name, turns_left=turns, kind="magia"),)
    scratch.say(f"Magia {name}: dura {plural(turns, 'turno')}.", magia=name, turnos=turns)
    return replace(state, dungeon=replace(state.dungeon, spells=spells))
