"""Foraging, hunting and fishing (Tabela E, with Tabela F's accidents on a failure) and making
ammunition (Tabela G): `forragear`, `cacar`, `pescar`, `criar_municao` (tables/viagem.yaml).
Each is a travel-round activity (travel.py): named for one character, or the group's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping

from companion.engine.procedures import conditions, rest
from companion.engine.procedures.encounters import roll_encounter
from companion.engine.procedures.travel import (
    named_activity,
    participants,
    require_rested,
    run_round,
)
from companion.engine.model import Character, State
from companion.engine.toolkit import (
    Scratch,
    arg,
    clamp_supplies,
    command,
    edge_for,
    find_character,
    group_for,
    modifier,
    names_text,
    pick_row,
    require_group_free,
    row_text,
    update_character,
)


def _who(state: State, scratch: Scratch) -> tuple[str, ...] | None:
    """The named character's id, or None for a group activity."""
    name = arg(scratch, "personagem")
    if not name:
        return None
    character = find_character(state, name)
    require_group_free(state, scratch, (character.id,))
    require_rested(state, scratch, (character.id,))
    return (character.id,)


def _gathering(activity: str) -> Callable[[State, Scratch], State]:
    def handler(state: State, scratch: Scratch) -> State:
        named = _who(state, scratch)
        if named is not None:
            return named_activity(state, scratch, named[0],
                                  lambda s, t, who: gather(s, t, activity, who))
        return run_round(state, scratch, lambda s, t, _: gather(s, t, activity,
                                                              participants(s)))
    handler.__doc__ = f"{activity}: Tabela E; on failure Tabela F."
    return handler


for _activity in ("forragear", "cacar", "pescar"):
    command(_activity)(_gathering(_activity))


def gather(state: State, scratch: Scratch, activity: str, who: tuple[str, ...]) -> State:
    """1d6 X-in-6 on Tabela E (terrain row, activity column); failure → Tabela F."""
    if not who and state.party:
        scratch.say(_nobody_text())
        return state
    spec = scratch.table("viagem", "tabela_e")
    row = group_for(scratch, spec["linhas"], state.travel.terrain, "tabela_e.linhas")
    found = scratch.chance(row[activity], spec["nome"], spec["sim"], spec["nao"],
                           atividade=spec["atividades"][activity], linha=row["nome"])
    if found:
        return _harvest(state, scratch, activity, who)
    return accident(state, scratch, who)


def _harvest(state: State, scratch: Scratch, activity: str, who: tuple[str, ...]) -> State:
    """House default yields (casa.yaml colheita) for each character taking part."""
    gain = scratch.table("casa", "colheita", activity)
    names = []
    for character_id in who:
        character = find_character(state, character_id)
        names.append(character.name)
        state = update_character(state, replace(character, food=character.food + gain["comida"],
                                                water=character.water + gain["agua"]))
    what = f"+{gain['comida']} comida e +{gain['agua']} água"
    if names:
        each = " cada" if len(names) > 1 else ""
        scratch.say(f"{names_text(names)}: {what}{each}.", comida=gain["comida"],
                    agua=gain["agua"])
    else:
        scratch.say(f"Encontram comida ({what} por personagem), mas não há personagens no grupo.")
    return state


def _nobody_text() -> str:
    return "Ninguém participa: todo o grupo descansa nesta rodada pela marcha forçada."


def accident(state: State, scratch: Scratch, who: tuple[str, ...]) -> State:
    """1d10 on Tabela F; apply damage, conditions and the encounter row."""
    spec = scratch.table("viagem", "tabela_f")
    rolled = scratch.roll(spec["dados"], spec["nome"],
                          describe=lambda total: row_text(pick_row(spec["linhas"], total)))
    row = pick_row(spec["linhas"], rolled.total)
    if not isinstance(row, Mapping):
        return state
    if row.get("encontro"):
        roll_encounter(state, scratch)
    if not {"dano", "condicao", "condicao_temporaria"} & set(row):
        return state
    victim = _victim(state, scratch, who)
    if victim is None:
        return state
    hurt = victim
    if "condicao_temporaria" in row:
        lasting = conditions.timed(state, scratch, row["condicao_temporaria"])
        hurt = conditions.add_lasting(hurt, lasting)
        scratch.warn(f"{hurt.name}: {conditions.timed_text(lasting, row['condicao_temporaria'])}.",
                     personagem=hurt.id, condicao=lasting.text)
    if "condicao" in row:
        hurt = rest.add_condition(hurt, str(row["condicao"]))
    if "dano" in row:
        hurt = clamp_supplies(replace(hurt, hp=hurt.hp - int(row["dano"])))
        scratch.say(f"{hurt.name} sofre {row['dano']} de dano (PV {hurt.hp}).", personagem=hurt.id)
    if "condicao" in row:
        cure = (f" Dura até ser curado: diga 'curar {hurt.name}'."
                if row.get("ate_ser_curado") is True else "")
        scratch.warn(f"{hurt.name}: {row['condicao']}.{cure}", personagem=hurt.id)
    return update_character(state, hurt)


def _victim(state: State, scratch: Scratch, who: tuple[str, ...]) -> Character | None:
    """The one taking part, or 1dN among the party when the whole group foraged."""
    people = [find_character(state, character_id) for character_id in who]
    if len(people) <= 1:
        return people[0] if people else None
    rolled = scratch.roll(f"1d{len(people)}", scratch.table("viagem", "tabela_f", "vitima"),
                          describe=lambda total: people[total - 1].name)
    return people[rolled.total - 1]


# ---------------------------------------------------------------- Criar munição

@command("criar_municao")
def craft_ammo(state: State, scratch: Scratch) -> State:
    named = _who(state, scratch)
    if named is not None:
        return named_activity(state, scratch, named[0], craft)
    return run_round(state, scratch, lambda s, t, _: craft(s, t, participants(s)))


def craft(state: State, scratch: Scratch, who: tuple[str, ...]) -> State:
    """DEX test (d20 + DEX modifier) + Tabela G: ammunition made = result, never below 0."""
    spec = scratch.table("viagem", "tabela_g")
    row = group_for(scratch, spec["linhas"], state.travel.terrain, "tabela_g.linhas")
    if not who:
        scratch.warn(_nobody_text() if state.party
                     else "Não há personagens no grupo para criar munição.")
    for character_id in who:
        character = find_character(state, character_id)
        mods = (modifier(character, spec["atributo"], scratch.tables), int(row["modificador"]))
        expression = spec["dados"] + "".join(f"{m:+d}" for m in mods if m)
        rolled = scratch.roll(expression, spec["nome"], edge=edge_for(character, scratch.tables, state.minutes),
                              personagem=character.id, linha=row["nome"],
                              describe=lambda total, c=character: f"{c.name}: {max(0, total)} "
                                                               "munições")
        made = max(0, rolled.total)
        state = update_character(state, replace(character, ammo=character.ammo + made))
    return state
