"""The dungeon exploration turn (tables/masmorra.yaml: the turn, its encounter
check and arrival, surprise, the hour rest and the sleep).

One `turno` is 10 minutes, in the order of the rules: encounter check → player actions
(narrative) → monster movement (a GM-only reminder) → end of turn (timers tick, the hour-rest
bookkeeping, then any rolled encounter arrives, with automatic surprise). `descansar` in the
dungeon is a rest turn (`rest_turn`, which the registry's `descansar` runs in a dungeon),
`dormir` the 8-hour sleep (`sleep`). Numbers, chances and row texts come from
tables/masmorra.yaml; the lights and spells are light.py's.

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

from companion.engine.clock import pass_time
from companion.engine.procedures import rest
from companion.engine.model import GM, PUBLIC, Dungeon, Monster, State
from companion.engine.toolkit import (
    Scratch,
    arg,
    command,
    duration_text,
    exhaust_party,
    find_character,
    pick_row,
    plural,
    require_group_free,
    slug,
)
from companion.errors import CommandRejected, TableError
from companion.tables import register_schema

FILE = "masmorra"
_LEVEL = {"nome": str, "chance": int, "a_cada_turnos": int, "texto": str}
register_schema(FILE, {
    "turno_minutos": int,
    "perigo_padrao": str,
    "tabela_a": {"nome": str, "niveis": {"inseguro": _LEVEL, "arriscado": _LEVEL,
                                         "mortal": _LEVEL}},
    "escuridao": {"nivel": str, "texto": str},
    "encontro": {"nome": str, "sim": str, "nao": str, "visibilidade": str},
    "chegada": {"nome": str, "dados": str,
                "linhas": {"*": {"texto": str, "visibilidade": str, "na_sala": bool}}},
    "surpresa": {"nome": str, "chance": int,
                 "lados": {side: {"nome": str, "sim": str, "nao": str}
                           for side in ("grupo", "monstros")},
                 "ambos": str, "nenhum": str},
    "descanso": {"turnos_por_hora": int, "exaustao": int},
    "tabela_b": {"nome": str, "dados": str, "visibilidade": str,
                 "linhas": {"*": (str, dict)}},
    "tabela_c": {"nome": str, "horas": int, "chance": int, "sim": str, "nao": str,
                 "niveis": {"*": {"a_cada_horas": int, "texto": str}}},
    "magia_maximo_turnos": int,
})

MISHAP_KEY = "tabela_b"


# ---------------------------------------------------------------- small readers

def _data(scratch: Scratch, *path: str | int) -> Any:
    return scratch.table(FILE, *path)


def _levels(scratch: Scratch) -> dict[str, Any]:
    return _data(scratch, "tabela_a", "niveis")


def _level_name(scratch: Scratch, level: str) -> str:
    return str(_levels(scratch)[level]["nome"])


def _visibility(value: str) -> str:
    if value not in (PUBLIC, GM):
        raise TableError(f"tables/{FILE}.yaml: visibilidade '{value}' inválida; use public ou gm")
    return value


def is_dark(state: State) -> bool:
    """Total darkness: no light source burning."""
    return not state.dungeon.lights


def effective_danger(state: State, scratch: Scratch) -> str:
    """The danger level the rules use now: total darkness makes it the darkness level (Mortal)."""
    if is_dark(state):
        return str(_data(scratch, "escuridao", "nivel"))
    return state.dungeon.danger


def _say_darkness(state: State, scratch: Scratch) -> None:
    if is_dark(state):
        level = _level_name(scratch, effective_danger(state, scratch))
        scratch.warn(f"Escuridão total: o nível de perigo é {level}. "
                     f"({_data(scratch, 'escuridao', 'texto')})")


def _danger_arg(scratch: Scratch, value: Any) -> str:
    key = slug(str(value))
    if key not in _levels(scratch):
        names = ", ".join(str(level["nome"]).lower() for level in _levels(scratch).values())
        raise CommandRejected(f"nível de perigo desconhecido: '{value}'; use {names}")
    return key


def _require_no_chase(state: State, what: str) -> None:
    if state.chase is not None:
        raise CommandRejected(f"'{what}' não vale durante a perseguição; resolva a fuga com "
                              "'fuga sucesso', 'fuga falha' ou 'fuga dificuldade N'")


# ---------------------------------------------------------------- entering and leaving

@command("masmorra")
def enter(state: State, scratch: Scratch) -> State:
    """Enter a dungeon: exploration turn 0, the given (or house-default) danger level. Already
    inside, `masmorra arriscado` changes the danger level (as `perigo` does). The GM's monster
    list is kept from an earlier visit (the party may come back)."""
    if state.dungeon.active:
        if arg(scratch, "perigo") is None:
            raise CommandRejected("o grupo já está na masmorra; para mudar o nível de perigo "
                                  "diga 'masmorra arriscado' (ou inseguro, mortal); para sair, "
                                  "'viagem'")
        return set_danger(state, scratch)
    danger = _danger_arg(scratch, arg(scratch, "perigo", _data(scratch, "perigo_padrao")))
    require_group_free(state, scratch)
    travel = replace(state.travel, consecutive_advances=0, camp_safe=False)
    state = replace(state, travel=travel,
                    dungeon=Dungeon(active=True, danger=danger,  # type: ignore[arg-type]
                                    entered_at=state.minutes,
                                    monsters=state.dungeon.monsters))
    spec = _levels(scratch)[danger]
    scratch.say(f"O grupo entra na masmorra. Perigo {spec['nome']}: {spec['texto']}.",
                perigo=danger)
    _say_darkness(state, scratch)
    return state


@command("viagem")
def leave(state: State, scratch: Scratch) -> State:
    """Leave the dungeon and go back to travel; the timers and the marching order are cleared,
    the GM's monster list is kept (the party may come back)."""
    spent = duration_text(state.minutes - state.dungeon.entered_at)
    scratch.say(f"O grupo sai da masmorra depois de {spent} lá dentro "
                f"({plural(state.dungeon.turn, 'turno')} de exploração). De volta à viagem.",
                minutos=state.minutes - state.dungeon.entered_at, turnos=state.dungeon.turn)
    return replace(state, dungeon=Dungeon(monsters=state.dungeon.monsters))


@command("perigo")
def set_danger(state: State, scratch: Scratch) -> State:
    if arg(scratch, "perigo") is None:
        raise CommandRejected("diga o nível de perigo: 'perigo inseguro', 'perigo arriscado' "
                              "ou 'perigo mortal'")
    danger = _danger_arg(scratch, arg(scratch, "perigo"))
    spec = _levels(scratch)[danger]
    scratch.say(f"Nível de perigo: {spec['nome']} ({spec['texto']}).", perigo=danger)
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
    doing = "o grupo descansa" if resting else "ações dos jogadores"
    scratch.say(f"Turno de exploração {number} ({_data(scratch, 'turno_minutos')} min): {doing}.",
                turno=number, descanso=resting)
    _monster_reminder(state, scratch)
    return _end_of_turn(state, scratch, resting)


def _encounter_check(state: State, scratch: Scratch) -> State:
    """Step 1: every N turns by the (effective) danger level, 1:6."""
    _say_darkness(state, scratch)
    level = effective_danger(state, scratch)
    spec = _levels(scratch)[level]
    every = max(1, int(spec["a_cada_turnos"]))
    if state.dungeon.turn % every != 0:
        next_turn = state.dungeon.turn + every - state.dungeon.turn % every
        scratch.say(f"Sem checagem de encontro neste turno (perigo {spec['nome']}: próxima no "
                    f"turno {next_turn}).", GM)
        return state
    data = _data(scratch, "encontro")
    happens = scratch.chance(int(spec["chance"]), str(data["nome"]), str(data["sim"]),
                             str(data["nao"]), visibility=_visibility(str(data["visibilidade"])),
                             perigo=level)
    if not happens:
        return state
    return replace(state, dungeon=replace(state.dungeon, pending_encounter=True))


def _monster_reminder(state: State, scratch: Scratch) -> None:
    """Step 3: a GM-only reminder with the dungeon's monster list."""
    monsters = state.dungeon.monsters
    listed = "; ".join(_monster_text(m) for m in monsters) or "nenhum monstro na lista"
    scratch.say(f"Movimento dos monstros: confira quem foi alertado e mova-os — {listed}.", GM,
                monstros=[_monster_dict(m) for m in monsters])


def _end_of_turn(state: State, scratch: Scratch, resting: bool) -> State:
    """Step 4: the clock (which burns the timers), the hour rest; then the encounter arrives."""
    state = pass_time(state, scratch, int(_data(scratch, "turno_minutos")))
    state = _hour_rest(state, scratch, resting)
    if state.dungeon.pending_encounter:
        state, _ = _arrival(state, scratch)
    return state


# ---------------------------------------------------------------- timers


# ---------------------------------------------------------------- the hour rest

def _hour_rest(state: State, scratch: Scratch, resting: bool) -> State:
    """Every hour (6 turns) of exploration the party rests a turn or each gains exhaustion."""
    if resting:
        scratch.say("O grupo descansou um turno.")
        return replace(state, dungeon=replace(state.dungeon, turns_since_rest=0))
    hour = int(_data(scratch, "descanso", "turnos_por_hora"))
    amount = int(_data(scratch, "descanso", "exaustao"))
    count = state.dungeon.turns_since_rest + 1
    if count > hour:
        state = _exhaust_party(state, scratch, amount)
        count = 1
    elif count == hour:
        scratch.warn("Uma hora de exploração: o grupo precisa descansar um turno ('descansar') "
                     f"ou cada personagem sofre {plural(amount, 'ponto')} de exaustão.")
    return replace(state, dungeon=replace(state.dungeon, turns_since_rest=count))


def _exhaust_party(state: State, scratch: Scratch, amount: int) -> State:
    state, levels = exhaust_party(state, amount)
    scratch.warn(f"O grupo não descansou depois de uma hora de exploração: cada personagem sofre "
                 f"{plural(amount, 'ponto')} de exaustão (exaustão: {levels}).", exaustao=amount)
    return state


# ---------------------------------------------------------------- encounters and surprise

def _arrival(state: State, scratch: Scratch) -> tuple[State, bool]:
    """The rolled encounter arrives: 1d6 ranges (1–3 this room, 4–6 next room) + surprise.

    Also returns whether the monsters came into the party's room (the row's `na_sala`)."""
    data = _data(scratch, "chegada")
    rows = data["linhas"]
    rolled = scratch.roll(str(data["dados"]), str(data["nome"]), visibility=GM,
                          describe=lambda total: str(pick_row(rows, total)["texto"]))
    row = pick_row(rows, rolled.total)
    visibility = _visibility(str(row["visibilidade"]))
    if visibility == PUBLIC:
        scratch.warn(f"Encontro! {row['texto']}")
    surprise(scratch, visibility)
    return replace(state, dungeon=replace(state.dungeon, pending_encounter=False)), bool(
        row["na_sala"])


def surprise(scratch: Scratch, visibility: str = PUBLIC) -> tuple[bool, bool]:
    """Each side rolls 1d6, surprised on 2:6; both surprised means nobody is."""
    data = _data(scratch, "surpresa")
    sides = data["lados"]
    party, monsters = (
        scratch.chance(int(data["chance"]), str(data["nome"]), str(sides[side]["sim"]),
                       str(sides[side]["nao"]), visibility=visibility, lado=side)
        for side in ("grupo", "monstros"))
    group, foes = sides["grupo"]["nome"], sides["monstros"]["nome"]
    outcome = {
        (True, True): str(data["ambos"]),
        (False, False): str(data["nenhum"]),
        (True, False): f"{group} está surpreso: {foes.lower()} têm um turno de surpresa.",
        (False, True): f"{foes} estão surpresos: {group.lower()} tem um turno de surpresa.",
    }[(party, monsters)]
    both = party and monsters
    scratch.say(outcome, visibility, grupo_surpreso=party and not both,
                monstros_surpresos=monsters and not both)
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
    hours = int(_data(scratch, "tabela_c", "horas"))
    scratch.say(f"O grupo dorme {plural(hours, 'hora')} na masmorra.", horas=hours)
    state, tests = rest.mishap(state, scratch, FILE, MISHAP_KEY,
                               str(_data(scratch, "tabela_b", "nome")))
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
    data = _data(scratch, "tabela_c")
    visibility = _visibility(str(_data(scratch, "encontro", "visibilidade")))
    for hour in range(1, hours + 1):
        state = pass_time(state, scratch, 60)
        level = effective_danger(state, scratch)
        if level not in data["niveis"]:
            raise TableError(f"tables/{FILE}.yaml: falta a chave 'tabela_c.niveis.{level}'")
        if hour % max(1, int(data["niveis"][level]["a_cada_horas"])):
            continue
        if not scratch.chance(int(data["chance"]), str(data["nome"]), str(data["sim"]),
                              str(data["nao"]), visibility=visibility, hora=hour, perigo=level):
            continue
        scratch.warn(f"Encontro aleatório na hora {hour} do sono.", visibility, hora=hour)
        state, in_room = _arrival(state, scratch)
        if not in_room:
            scratch.say(f"Os monstros estão numa sala adjacente (hora {hour}): o grupo não sabe e "
                        "continua dormindo.", GM, hora=hour)
            continue
        scratch.warn(_woken_text(hour, hours), PUBLIC, hora=hour)
        return state, True
    return state, False


def _woken_text(hour: int, hours: int) -> str:
    if hour >= hours:
        return (f"Os monstros chegam à sala do grupo na hora {hour}, no fim do sono: isso "
                "interrompe o descanso.")
    return (f"Os monstros chegam à sala do grupo na hora {hour}: isso interrompe o sono. O "
            f"descanso vale só {'pela' if hour == 1 else 'pelas'} {plural(hour, 'hora')} "
            f"{'dormida' if hour == 1 else 'dormidas'}.")


# ---------------------------------------------------------------- marching order and monsters

@command("marcha")
def marching_order(state: State, scratch: Scratch) -> State:
    names = arg(scratch, "ordem") or []
    if isinstance(names, str):
        names = [part for part in names.split(",") if part.strip()]
    if not names:
        raise CommandRejected("diga a ordem de marcha: 'ordem de marcha Ana, Bia, Caio'")
    characters = [find_character(state, str(name)) for name in names]
    ids = [c.id for c in characters]
    if len(set(ids)) != len(ids):
        raise CommandRejected(f"personagem repetido na ordem de marcha: '{', '.join(names)}'; "
                              "diga cada um uma vez")
    scratch.say("Ordem de marcha: " + ", ".join(c.name for c in characters) + ".", ordem=ids)
    return replace(state, dungeon=replace(state.dungeon, marching_order=tuple(ids)))


def _monster_text(monster: Monster) -> str:
    room = f", sala {monster.room}" if monster.room else ""
    alert = ", alertado" if monster.alerted else ""
    return f"{monster.name}{room}{alert}"


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
        raise CommandRejected(f"ação de monstro desconhecida: '{arg(scratch, 'acao')}'; "
                              "use adicionar, remover ou alertar")
    if not name:
        listed = "; ".join(_monster_text(m) for m in state.dungeon.monsters) or "vazia"
        scratch.say(f"Lista de monstros: {listed}.", GM)
        return state
    monsters = handlers[action](state.dungeon.monsters, name, str(arg(scratch, "sala", "") or ""))
    listed = "; ".join(_monster_text(m) for m in monsters) or "vazia"
    scratch.say(f"Monstros ({action}: {name}). Lista: {listed}.", GM,
                monstros=[_monster_dict(m) for m in monsters])
    return replace(state, dungeon=replace(state.dungeon, monsters=monsters))


def _find_monster(monsters: tuple[Monster, ...], name: str) -> int:
    for index, known in enumerate(monsters):
        if slug(known.name) == slug(name):
            return index
    names = ", ".join(m.name for m in monsters) or "nenhum"
    raise CommandRejected(f"monstro desconhecido: '{name}'; na lista: {names}")


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
