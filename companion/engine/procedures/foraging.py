"""Foraging, hunting and fishing (Tabela E, with Tabela F's accidents on a failure) and making
ammunition (Tabela G): `forragear`, `cacar`, `pescar`, `criar_municao` (tables/viagem.yaml).
Each is a travel-round activity (travel.py): named for one character, or the group's.

Foraging, hunting and fishing are each character's own activity (docs/regras.md): sent as the
group's, every character taking part rolls their own Tabela E, Tabela F on their own failure,
and gains the yield on their own success. A character's roll carries their edge (DESV of
exhaustion or of a lasting condition, characters.edge_for): two dice, the higher kept.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Union

from companion.engine.procedures import conditions, rest
from companion.engine.procedures.encounters import roll_encounter
from companion.engine.procedures.travel import (
    named_activity,
    participants,
    require_rested,
    run_round,
)
from companion.engine.model import GM, Attribute, Character, State
from companion.engine.characters import (
    clamp_supplies,
    edge_for,
    find_character,
    modifier,
    update_character,
)
from companion.engine.handlers import command
from companion.engine.prompting import require_group_free
from companion.engine.rows import pick_row, row_text
from companion.engine.scratch import Scratch, arg
from companion.engine.terrain import group_for
from companion.engine.validators import require_chance, require_dice
from companion.tables.rulebook import piece
from companion.tables.weights import Weight

GATHERINGS = ("forragear", "cacar", "pescar")  # Tabela E's columns (and casa.yaml colheita)


@dataclass(frozen=True)
class GatheringRow:
    """A row of Tabela E: the X-in-6 chance of each activity on these terrains."""

    nome: str
    terrenos: tuple[str, ...]
    forragear: int
    cacar: int
    pescar: int

    def validate(self) -> None:
        for activity in GATHERINGS:
            require_chance(activity, getattr(self, activity))

    def chance(self, activity: str) -> int:
        return int(getattr(self, activity))


@piece("viagem", "tabela_e")
@dataclass(frozen=True)
class GatheringTable:
    """tables/viagem.yaml `tabela_e` (Tabela E: Forragear/Caçar/Pescar)."""

    nome: str
    dados: str
    sim: str
    nao: str
    atividades: Mapping[str, str]
    linhas: tuple[GatheringRow, ...]

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class AccidentRow(conditions.NotesCondition):
    """A row of Tabela F with effects the engine applies (viagem.yaml explains each key;
    `condicao` and what it does are conditions.NotesCondition's keys)."""

    texto: str
    dano: int | None = None
    condicao_temporaria: conditions.TimedCondition | None = None
    encontro: bool = False


@piece("viagem", "tabela_f")
@dataclass(frozen=True)
class AccidentTable:
    """tables/viagem.yaml `tabela_f` (Tabela F: Acidentes)."""

    nome: str
    dados: str
    linhas: Mapping[Union[int, str], Union[str, AccidentRow]]

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class AmmoRow:
    nome: str
    terrenos: tuple[str, ...]
    modificador: int


@piece("viagem", "tabela_g")
@dataclass(frozen=True)
class AmmoTable:
    """tables/viagem.yaml `tabela_g` (Tabela G: Criar Munição)."""

    nome: str
    dados: str
    atributo: Attribute
    linhas: tuple[AmmoRow, ...]

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class Yield:
    comida: int
    agua: int


@piece("casa", "colheita")
@dataclass(frozen=True)
class Yields:
    """tables/casa.yaml `colheita`: what each character taking part gains on a success."""

    forragear: Yield
    cacar: Yield
    pescar: Yield

    def of(self, activity: str) -> Yield:
        return getattr(self, activity)  # type: ignore[no-any-return]


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


for _activity in GATHERINGS:
    command(_activity)(_gathering(_activity))


def gather(state: State, scratch: Scratch, activity: str, who: tuple[str, ...]) -> State:
    """1d6 X-in-6 on Tabela E (terrain row, activity column) for each character taking part,
    with their edge; their failure → Tabela F for them; the yield to each who succeeded. With
    no characters at all, one roll for the party (nobody to feed or hurt)."""
    if not who and state.party:
        scratch.tell("viagem.ninguem_participa")
        return state
    spec = scratch.piece(GatheringTable)
    row = _row_for(scratch, spec.linhas, state.travel.terrain, "tabela_e.linhas")
    if not who:
        if _gathering_roll(scratch, spec, row, activity):
            return _harvest(state, scratch, activity, ())
        return accident(state, scratch, ())
    several = len(who) > 1
    lucky: list[str] = []
    for character_id in who:
        character = find_character(state, character_id)
        if _gathering_roll(scratch, spec, row, activity, character, state.minutes, several):
            lucky.append(character.id)
        else:
            state = accident(state, scratch, (character.id,), several)
    return _harvest(state, scratch, activity, tuple(lucky)) if lucky else state


def _gathering_roll(scratch: Scratch, spec: GatheringTable, row: GatheringRow, activity: str,
                    character: Character | None = None, now: int = 0,
                    several: bool = False) -> bool:
    """One Tabela E roll: a character's own, under their edge (named among several)."""
    extra: dict[str, Any] = {}
    if character is not None:
        extra = {"personagem": character.id, "quem": character.name,
                 "edge": edge_for(character, scratch.tables, now),
                 "label": _label(scratch, spec.nome, character) if several else None}
    return scratch.chance(row.chance(activity), spec.nome, spec.sim, spec.nao,
                          atividade=spec.atividades[activity], linha=row.nome, **extra)


def _label(scratch: Scratch, table: str, character: Character) -> str:
    """'Tabela E: Forragear/Caçar/Pescar (Ana)': whose roll it is, among the group's."""
    return scratch.tables.narration.render("viagem.rotulo_de",
                                           {"tabela": table, "nome": character.name})


def _harvest(state: State, scratch: Scratch, activity: str, who: tuple[str, ...]) -> State:
    """House default yields (casa.yaml colheita) for each character taking part."""
    gain = scratch.piece(Yields).of(activity)
    names = []
    for character_id in who:
        character = find_character(state, character_id)
        names.append(character.name)
        state = update_character(state, replace(character, food=character.food + gain.comida,
                                                water=character.water + gain.agua))
    if names:
        scratch.tell("viagem.colheita", comida=gain.comida, agua=gain.agua,
                     words={"nomes": names})
    else:
        scratch.tell("viagem.colheita_sem_grupo",
                     words={"comida": gain.comida, "agua": gain.agua})
    return state


def _row_for(scratch: Scratch, rows: tuple[Any, ...], terrain: str, where: str) -> Any:
    """The row of a table (Tabela E, G) that covers this terrain."""
    return group_for(rows, terrain, "viagem", where, scratch.tables.narration)


def accident(state: State, scratch: Scratch, who: tuple[str, ...],
             several: bool = False) -> State:
    """1d10 on Tabela F for the one who failed (`who`: that character, or nobody when the
    party has no characters); apply damage, conditions and the encounter row. `several`: the
    roll is one of the group's, named by whose it is."""
    spec = scratch.piece(AccidentTable)
    victim = find_character(state, who[0]) if who else None
    extra: dict[str, Any] = {} if victim is None else {"personagem": victim.id,
                                                         "quem": victim.name}
    rolled = scratch.roll(spec.dados, spec.nome, weight=Weight.ROUTINE,
                          label=_label(scratch, spec.nome, victim) if victim and several
                          else None,
                          describe=lambda total: row_text(pick_row(spec.linhas, total)),
                          **extra)
    row = pick_row(spec.linhas, rolled.total)
    if isinstance(row, str):
        return state
    if row.encontro:
        roll_encounter(state, scratch)
    if row.dano is None and row.condicao is None and row.condicao_temporaria is None:
        return state
    if victim is None:
        return state
    hurt = victim
    if row.condicao_temporaria is not None:
        lasting = conditions.timed(state, scratch, row.condicao_temporaria)
        # harm when the victim gains it; one already there lasts on: routine (the row says it)
        fresh = all(held.text != lasting.text for held in hurt.lasting)
        hurt = conditions.add_lasting(hurt, lasting)
        scratch.tell("viagem.condicao_temporaria",
                     weight=Weight.HARM if fresh else Weight.ROUTINE,
                     kind="aviso", personagem=hurt.id,
                     condicao=lasting.text,
                     words={"nome": hurt.name,
                            "efeito": conditions.timed_text(
                                scratch.tables.narration, lasting, row.condicao_temporaria)})
    # harm when the victim gains it; a condition already there: routine (the row says it)
    gained = row.condicao is not None and row.condicao not in hurt.conditions
    if row.condicao is not None:
        hurt = rest.add_condition(hurt, row.condicao)
    if row.dano is not None:
        hurt = clamp_supplies(replace(hurt, hp=hurt.hp - row.dano))
        scratch.tell("viagem.dano", weight=Weight.HARM, personagem=hurt.id,
                     words={"nome": hurt.name, "dano": row.dano, "pv": hurt.hp})
    if row.condicao is not None:
        scratch.tell("viagem.condicao", weight=Weight.HARM if gained else Weight.ROUTINE,
                     kind="aviso", personagem=hurt.id,
                     words={"nome": hurt.name, "condicao": row.condicao,
                            "ate_ser_curado": row.ate_ser_curado})
        if row.ate_ser_curado:
            scratch.tell("viagem.condicao_dica", GM, weight=Weight.FRAMING, personagem=hurt.id,
                         words={"nome": hurt.name})
    return update_character(state, hurt)


# ---------------------------------------------------------------- Criar munição

@command("criar_municao")
def craft_ammo(state: State, scratch: Scratch) -> State:
    named = _who(state, scratch)
    if named is not None:
        return named_activity(state, scratch, named[0], craft)
    return run_round(state, scratch, lambda s, t, _: craft(s, t, participants(s)))


def craft(state: State, scratch: Scratch, who: tuple[str, ...]) -> State:
    """DEX test (d20 + DEX modifier) + Tabela G: ammunition made = result, never below 0."""
    spec = scratch.piece(AmmoTable)
    row = _row_for(scratch, spec.linhas, state.travel.terrain, "tabela_g.linhas")
    if not who and state.party:
        scratch.tell("viagem.ninguem_participa", kind="aviso")
    elif not who:
        scratch.tell("viagem.sem_personagens_municao", kind="aviso")
    narration = scratch.tables.narration
    for character_id in who:
        character = find_character(state, character_id)
        mods = (modifier(character, spec.atributo, scratch.tables), row.modificador)
        expression = spec.dados + "".join(f"{m:+d}" for m in mods if m)
        rolled = scratch.roll(expression, spec.nome, weight=Weight.ROUTINE,
                              edge=edge_for(character, scratch.tables, state.minutes),
                              personagem=character.id, linha=row.nome,
                              describe=lambda total, c=character: narration.render(
                                  "viagem.municoes", {"nome": c.name, "municoes": max(0, total)}))
        made = max(0, rolled.total)
        state = update_character(state, replace(character, ammo=character.ammo + made))
    return state
