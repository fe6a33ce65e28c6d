"""The dungeon exploration turn (tables/masmorra.yaml: the turn, its encounter
check and arrival, surprise, the hour rest and the sleep).

One `turno` is 10 minutes, in the order of the rules: encounter check → player actions
(narrative) → monster movement (a GM-only reminder) → end of turn (timers tick, the hour-rest
bookkeeping, then any rolled encounter arrives, with automatic surprise). `descansar` in the
dungeon is a rest turn (`rest_turn`, which the registry's `descansar` runs in a dungeon),
`dormir` the 8-hour sleep (`sleep`). Numbers, chances and row texts come from
tables/masmorra.yaml (the DungeonRules piece; who sees an event is `mestre` or `publico` there),
the texts people read from tables/narracao/masmorra.yaml; the lights and spells are light.py's.

Time passes through clock.pass_time: a turn burns one turn of every light and spell, and so does
a chase turn in the dungeon; entering a dungeon breaks the travel's run of advances and leaves
the camp.

Where the rules are silent: encounter checks fall on turns divisible by the interval (3, 6, …);
the check and the arrival roll are GM-only (data), a same-room arrival is announced in public;
the hour rest warns at the 6th turn and costs exhaustion on the 7th (then a new hour begins).

Sleeping (`dormir`, masmorra.yaml `tabela_b` and `tabela_c`): Tabela B's mishap first (a GM-only
roll: row 10 is the GM's to know; the rows with an effect say it in public), then the 8 hours
pass hour by hour: the lights and spells burn each hour (a torch is out after the first), and
each hour checks Tabela C if it falls on the interval of the level of THAT hour (no light left:
Mortal, every hour). Monsters arriving in an adjacent room are GM-only and interrupt nothing.
Monsters arriving IN the party's room (`chegada` rows with `na_sala: true`) end the sleep at
that hour: no further checks, only the hours slept pass, and the rest still applies — food and
water, and one CON test per interruption. Tabela B's own encounter (row 8) arrives when the
sleep is over, and interrupts only if it comes into the room.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.clock import MINUTES_PER_HOUR, pass_time
from companion.engine.procedures import rest
from companion.engine.procedures.rounds import round_before_leaving
from companion.engine.procedures.dungeon_rules import (
    ArrivalRow,
    DangerTable,
    Darkness,
    DungeonRules,
    HourRest,
)
from companion.engine.model import GM, PUBLIC, Dungeon, Monster, State
from companion.engine.characters import exhaust_party, find_character, slug
from companion.engine.handlers import command
from companion.engine.prompting import require_group_free
from companion.engine.rows import pick_row
from companion.engine.scratch import Scratch, arg
from companion.tables.errors import CommandRejected
from companion.tables.weights import Weight


# ---------------------------------------------------------------- small readers

def is_dark(state: State) -> bool:
    """Total darkness: no light source burning."""
    return not state.dungeon.lights


def effective_danger(state: State, scratch: Scratch) -> str:
    """The danger level the rules use now: total darkness makes it the darkness level (Mortal)."""
    return _danger_now(state, scratch.piece(DungeonRules).escuridao)


def _danger_now(state: State, darkness: Darkness) -> str:
    return darkness.nivel if is_dark(state) else state.dungeon.danger


def _say_darkness(state: State, scratch: Scratch) -> None:
    if is_dark(state):
        rules = scratch.piece(DungeonRules)
        level = rules.tabela_a.niveis[rules.escuridao.nivel].nome
        scratch.tell("masmorra.escuridao", weight=Weight.DARKNESS, kind="aviso",
                     words={"nivel": level, "regra": rules.escuridao.texto})


def _danger_arg(levels: DangerTable, value: Any) -> str:
    key = slug(str(value))
    if key not in levels.niveis:
        raise CommandRejected.because("masmorra.perigo_desconhecido", valor=value,
                                      niveis=[level.nome for level in levels.niveis.values()])
    return key


def _require_no_chase(state: State, what: str) -> None:
    if state.chase is not None:
        raise CommandRejected.because("masmorra.durante_perseguicao", comando=what)


# ---------------------------------------------------------------- entering and leaving

@command("masmorra")
def enter(state: State, scratch: Scratch) -> State:
    """Enter a dungeon: exploration turn 0, the given (or house-default) danger level. Already
    inside, `masmorra arriscado` changes the danger level (as `perigo` does). The GM's monster
    list is kept from an earlier visit (the party may come back)."""
    if state.dungeon.active:
        if arg(scratch, "perigo") is None:
            raise CommandRejected.because("masmorra.ja_na_masmorra")
        return set_danger(state, scratch)
    rules = scratch.piece(DungeonRules)
    danger = _danger_arg(rules.tabela_a, arg(scratch, "perigo", rules.perigo_padrao))
    require_group_free(state, scratch)
    state = round_before_leaving(state, scratch)  # the travel round it fills had its rolls
    travel = replace(state.travel, consecutive_advances=0, camp_safe=False)
    state = replace(state, travel=travel,
                    dungeon=Dungeon(active=True, danger=danger,  # type: ignore[arg-type]
                                    entered_at=state.minutes,
                                    monsters=state.dungeon.monsters))
    spec = rules.tabela_a.niveis[danger]
    scratch.tell("masmorra.entrou", words={"nome": spec.nome, "texto": spec.texto},
                 perigo=danger)
    _say_darkness(state, scratch)
    return state


@command("viagem")
def leave(state: State, scratch: Scratch) -> State:
    """Leave the dungeon and go back to travel; the timers and the marching order are cleared,
    the GM's monster list is kept (the party may come back)."""
    scratch.tell("masmorra.saiu", minutos=state.minutes - state.dungeon.entered_at,
                 turnos=state.dungeon.turn)
    return replace(state, dungeon=Dungeon(monsters=state.dungeon.monsters))


@command("perigo")
def set_danger(state: State, scratch: Scratch) -> State:
    if arg(scratch, "perigo") is None:
        raise CommandRejected.because("masmorra.perigo_sem_nivel")
    levels = scratch.piece(DungeonRules).tabela_a
    danger = _danger_arg(levels, arg(scratch, "perigo"))
    spec = levels.niveis[danger]
    scratch.tell("masmorra.perigo", words={"nome": spec.nome, "texto": spec.texto},
                 perigo=danger)
    _say_darkness(state, scratch)
    return replace(state, dungeon=replace(state.dungeon, danger=danger))  # type: ignore[arg-type]


# ---------------------------------------------------------------- the exploration turn

@command("turno")
def exploration_turn(state: State, scratch: Scratch) -> State:
    """One 10-minute exploration turn."""
    _require_no_chase(state, "turno")
    return _run_turn(state, scratch, resting=False)


def rest_turn(state: State, scratch: Scratch) -> State:
    """`descansar` in the dungeon: an exploration turn spent resting (resets the hour count)."""
    _require_no_chase(state, "descansar")
    return _run_turn(state, scratch, resting=True)


def _run_turn(state: State, scratch: Scratch, resting: bool) -> State:
    require_group_free(state, scratch)
    number = state.dungeon.turn + 1
    state = replace(state, dungeon=replace(state.dungeon, turn=number))
    state = _encounter_check(state, scratch)  # the rules' order: the check, then the actions
    scratch.tell("masmorra.turno", words={"minutos": scratch.piece(DungeonRules).turno_minutos},
                 turno=number, descanso=resting)
    _monster_reminder(state, scratch)
    return _end_of_turn(state, scratch, resting)


def _encounter_check(state: State, scratch: Scratch) -> State:
    """Step 1: every N turns by the (effective) danger level, 1:6."""
    _say_darkness(state, scratch)
    rules = scratch.piece(DungeonRules)
    level = _danger_now(state, rules.escuridao)
    spec = rules.tabela_a.niveis[level]
    every = spec.a_cada_turnos
    if state.dungeon.turn % every != 0:
        next_turn = state.dungeon.turn + every - state.dungeon.turn % every
        scratch.tell("masmorra.sem_checagem", GM,
                     words={"nome": spec.nome, "proximo": next_turn})
        return state
    check = rules.encontro
    happens = scratch.chance(spec.chance, check.nome, check.sim, check.nao,
                             visibility=check.visibility, perigo=level)
    if not happens:
        return state
    return replace(state, dungeon=replace(state.dungeon, pending_encounter=True))


def _monster_reminder(state: State, scratch: Scratch) -> None:
    """Step 3: a GM-only reminder with the dungeon's monster list."""
    scratch.tell("masmorra.movimento_dos_monstros", GM,
                 monstros=[_monster_dict(m) for m in state.dungeon.monsters])


def _end_of_turn(state: State, scratch: Scratch, resting: bool) -> State:
    """Step 4: the clock (which burns the timers), the hour rest; then the encounter arrives."""
    rules = scratch.piece(DungeonRules)
    state = pass_time(state, scratch, rules.turno_minutos)
    state = _hour_rest(state, scratch, rules.descanso, resting)
    if state.dungeon.pending_encounter:
        state, _ = _arrival(state, scratch)
    return state


# ---------------------------------------------------------------- the hour rest

def _hour_rest(state: State, scratch: Scratch, rules: HourRest, resting: bool) -> State:
    """Every hour (6 turns) of exploration the party rests a turn or each gains exhaustion."""
    if resting:
        scratch.tell("masmorra.descansou")
        return replace(state, dungeon=replace(state.dungeon, turns_since_rest=0))
    count = state.dungeon.turns_since_rest + 1
    if count > rules.turnos_por_hora:
        state = _exhaust_party(state, scratch, rules.exaustao)
        count = 1
    elif count == rules.turnos_por_hora:
        scratch.tell("masmorra.hora_de_descansar", kind="aviso",
                     words={"pontos": rules.exaustao})
        scratch.tell("masmorra.hora_de_descansar_dica", GM, weight=Weight.FRAMING)
    return replace(state, dungeon=replace(state.dungeon, turns_since_rest=count))


def _exhaust_party(state: State, scratch: Scratch, amount: int) -> State:
    state, levels = exhaust_party(state, amount)
    scratch.tell("masmorra.sem_descanso", weight=Weight.HARM,
                 kind="aviso", words={"niveis": levels},
                 exaustao=amount)
    return state


# ---------------------------------------------------------------- encounters and surprise

def _arrival(state: State, scratch: Scratch) -> tuple[State, bool]:
    """The rolled encounter arrives: 1d6 ranges (1–3 this room, 4–6 next room) + surprise.

    Also returns whether the monsters came into the party's room (the row's `na_sala`)."""
    arrival = scratch.piece(DungeonRules).chegada
    rows = arrival.linhas
    rolled = scratch.roll(arrival.dados, arrival.nome, weight=Weight.ARRIVAL, visibility=GM,
                          describe=lambda total: pick_row(rows, total).texto)
    row: ArrivalRow = pick_row(rows, rolled.total)
    if row.visibility == PUBLIC:
        scratch.tell("masmorra.encontro", weight=Weight.ARRIVAL, kind="aviso", encontro=row.texto,
                     words={"texto": row.texto})
    surprise(scratch, row.visibility)
    return replace(state, dungeon=replace(state.dungeon, pending_encounter=False)), row.na_sala


def surprise(scratch: Scratch, visibility: str = PUBLIC) -> tuple[bool, bool]:
    """Each side rolls 1d6, surprised on 2:6; both surprised means nobody is."""
    rules = scratch.piece(DungeonRules).surpresa
    party, monsters = (
        scratch.chance(rules.chance, rules.nome, side.sim, side.nao, visibility=visibility,
                       lado=name)
        for name, side in (("grupo", rules.lados.grupo), ("monstros", rules.lados.monstros)))
    outcome = {
        (True, True): rules.ambos,
        (False, False): rules.nenhum,
        (True, False): rules.so_grupo,
        (False, True): rules.so_monstros,
    }[(party, monsters)]
    both = party and monsters
    scratch.tell("masmorra.surpresa", visibility, words={"texto": outcome},
                 grupo_surpreso=party and not both, monstros_surpresos=monsters and not both)
    return party and not both, monsters and not both


@command("surpresa")
def surprise_command(state: State, scratch: Scratch) -> State:
    surprise(scratch, PUBLIC)
    return state


# ---------------------------------------------------------------- sleeping 8 hours

def sleep(state: State, scratch: Scratch) -> State:
    """Eight hours, hour by hour (or until monsters reach the room): Tabela B's mishap first,
    then each hour the lights burn and Tabela C checks at the level of that hour; then the
    rest's end (rest.finish_rest: food, water, CON tests or benefits). Travelling, `dormir` is
    the travel rest (the registry decides)."""
    _require_no_chase(state, "dormir")
    require_group_free(state, scratch)
    _say_darkness(state, scratch)
    rules = scratch.piece(DungeonRules)
    hours = rules.tabela_c.horas
    scratch.tell("masmorra.dorme", horas=hours)
    state, tests = rest.mishap(state, scratch, rules.tabela_b)
    state, interrupted = _sleep_hours(state, scratch, hours)
    if state.dungeon.pending_encounter:  # Tabela B's own encounter, when they wake up
        state, in_room = _arrival(state, scratch)
        interrupted = interrupted or in_room
    if interrupted:
        tests += (rest.interruption(scratch),)
    state = rest.finish_rest(state, scratch, tests)
    return replace(state, dungeon=replace(state.dungeon, turns_since_rest=0))


def _sleep_hours(state: State, scratch: Scratch, hours: int) -> tuple[State, bool]:
    """Hour by hour: the hour passes (lights and spells burn), then Tabela C checks when the
    hour falls on the interval of the level of that hour (no light left: Mortal, every hour).
    Monsters arriving in the party's room end the sleep (and interrupt it); monsters arriving
    in an adjacent room are the GM's to know and the party sleeps on.

    Returns the state and whether monsters came into the room."""
    rules = scratch.piece(DungeonRules)
    checks = rules.tabela_c
    visibility = rules.encontro.visibility
    for hour in range(1, hours + 1):
        state = pass_time(state, scratch, MINUTES_PER_HOUR)
        level = _danger_now(state, rules.escuridao)
        if hour % checks.niveis[level].a_cada_horas:
            continue
        if not scratch.chance(checks.chance, checks.nome, checks.sim, checks.nao,
                              visibility=visibility, hora=hour, perigo=level):
            continue
        scratch.tell("masmorra.encontro_no_sono", visibility, weight=Weight.ARRIVAL,
                     kind="aviso", hora=hour)
        state, in_room = _arrival(state, scratch)
        if not in_room:
            scratch.tell("masmorra.sala_adjacente_no_sono", GM, weight=Weight.ARRIVAL, hora=hour)
            continue
        # the party woken: the sleep cut short (its rest lost); the arrival itself is the
        # encounter's line (masmorra.encontro), which leads
        scratch.tell("masmorra.acordados", PUBLIC, weight=Weight.HARM,
                     kind="aviso", words={"horas": hours},
                     hora=hour)
        return state, True
    return state, False


# ---------------------------------------------------------------- marching order and monsters

@command("marcha")
def marching_order(state: State, scratch: Scratch) -> State:
    names = arg(scratch, "ordem") or []
    if isinstance(names, str):
        names = [part for part in names.split(",") if part.strip()]
    if not names:
        raise CommandRejected.because("masmorra.marcha_vazia")
    characters = [find_character(state, str(name)) for name in names]
    ids = [c.id for c in characters]
    if len(set(ids)) != len(ids):
        raise CommandRejected.because("masmorra.marcha_repetida",
                                      nomes=[str(name) for name in names])
    scratch.tell("masmorra.marcha", words={"nomes": [c.name for c in characters]}, ordem=ids)
    return replace(state, dungeon=replace(state.dungeon, marching_order=tuple(ids)))


def _monster_dict(monster: Monster) -> dict[str, Any]:
    return {"nome": monster.name, "sala": monster.room, "alertado": monster.alerted}


@command("monstro")
def monster(state: State, scratch: Scratch) -> State:
    """The GM's monster list: add (or move), remove, alert. Everything here is GM-only."""
    name = " ".join(str(arg(scratch, "nome", "")).split())
    action = slug(str(arg(scratch, "acao", "adicionar")))
    handlers = {"adicionar": _monster_add, "remover": _monster_remove,
                "alertar": _monster_alert}
    if action not in handlers:
        raise CommandRejected.because("masmorra.monstro_acao_desconhecida",
                                      acao=arg(scratch, "acao"))
    if not name:
        scratch.tell("masmorra.lista_de_monstros", GM,
                     words={"monstros": [_monster_dict(m) for m in state.dungeon.monsters]})
        return state
    monsters = handlers[action](state.dungeon.monsters, name, str(arg(scratch, "sala", "") or ""))
    scratch.tell("masmorra.monstros", GM, weight=Weight.ARRIVAL,
                 words={"acao": action, "nome": name},
                 monstros=[_monster_dict(m) for m in monsters])
    return replace(state, dungeon=replace(state.dungeon, monsters=monsters))


def _find_monster(monsters: tuple[Monster, ...], name: str) -> int:
    for index, known in enumerate(monsters):
        if slug(known.name) == slug(name):
            return index
    raise CommandRejected.because("masmorra.monstro_desconhecido", nome=name,
                                  nomes=[m.name for m in monsters])


def _monster_add(monsters: tuple[Monster, ...], name: str, room: str) -> tuple[Monster, ...]:
    if any(slug(m.name) == slug(name) for m in monsters):
        index = _find_monster(monsters, name)
        moved = replace(monsters[index], room=room or monsters[index].room)
        return monsters[:index] + (moved,) + monsters[index + 1:]
    return monsters + (Monster(name=name, room=room),)


def _monster_remove(monsters: tuple[Monster, ...], name: str, room: str) -> tuple[Monster, ...]:
    index = _find_monster(monsters, name)
    return monsters[:index] + monsters[index + 1:]


def _monster_alert(monsters: tuple[Monster, ...], name: str, room: str) -> tuple[Monster, ...]:
    index = _find_monster(monsters, name)
    alerted = replace(monsters[index], alerted=True, room=room or monsters[index].room)
    return monsters[:index] + (alerted,) + monsters[index + 1:]
