"""Random encounters while travelling (tables/viagem.yaml `encontro`, tables/encontros.yaml):
the X-in-6 check by the terrain where the day started, the region's table (with how many
appear), who sees it (casa.yaml `encontros.visibilidade`), and `encontro` (roll one now).
Texts: tables/narracao/encontros.yaml.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union, get_args

from companion import protocol
from companion.engine.model import State, Terrain, Visibility
from companion.engine.toolkit import (
    Scratch,
    command,
    group_for,
    pick_row,
    require_chance,
    require_dice,
    row_text,
)
from companion.rulebook import InvalidValue, piece


@dataclass(frozen=True)
class TerrainGroup:
    """A group of terrains sharing an X-in-6 chance."""

    nome: str
    chance: int
    terrenos: tuple[str, ...]

    def validate(self) -> None:
        require_chance("chance", self.chance)


@piece("viagem", "encontro")
@dataclass(frozen=True)
class EncounterCheck:
    """tables/viagem.yaml `encontro`: the chance of an encounter each round, by terrain group."""

    nome: str
    sim: str
    nao: str
    grupos: tuple[TerrainGroup, ...]


@dataclass(frozen=True)
class EncounterRow:
    texto: str
    quantidade: str | None = None  # dice of how many appear

    def validate(self) -> None:
        if self.quantidade is not None:
            require_dice("quantidade", self.quantidade)


@dataclass(frozen=True)
class RegionTable:
    nome: str
    dados: str
    linhas: Mapping[Union[int, str], Union[str, EncounterRow]]

    def validate(self) -> None:
        require_dice("dados", self.dados)


@piece("encontros")
@dataclass(frozen=True)
class EncounterTables:
    """tables/encontros.yaml: the GM's encounter table of each region."""

    quantos: str
    regioes: Mapping[str, RegionTable]
    padrao_da_casa: bool = True

    def validate(self) -> None:
        missing = [terrain for terrain in get_args(Terrain) if terrain not in self.regioes]
        if missing:
            raise InvalidValue(f"regioes.{missing[0]}", "a tabela de encontros dessa região "
                               "(cada terreno começa um dia numa região)")


@piece("casa", "encontros")
@dataclass(frozen=True)
class EncounterSettings:
    """tables/casa.yaml `encontros`: who sees the encounter check and roll."""

    visibilidade: protocol.Seen


def encounter_visibility(scratch: Scratch) -> Visibility:
    return protocol.seen_by(scratch.piece(EncounterSettings).visibilidade)


def check_encounter(state: State, scratch: Scratch) -> bool:
    """X-in-6 by the terrain where the party started the day; on a hit, the region's table."""
    spec = scratch.piece(EncounterCheck)
    region = state.travel.day_start_terrain
    group = group_for(spec.grupos, region, "viagem", "encontro.grupos")
    happened = scratch.chance(group.chance, spec.nome, spec.sim, spec.nao,
                              visibility=encounter_visibility(scratch), regiao=region)
    if happened:
        roll_encounter(state, scratch)
    return happened


def roll_encounter(state: State, scratch: Scratch) -> None:
    """Roll on the start-of-day region's encounter table (the GM's own, in encontros.yaml);
    a row with `quantidade` rolls how many appear as its own rolagem."""
    tables = scratch.piece(EncounterTables)
    region = state.travel.day_start_terrain
    table = tables.regioes[region]
    visibility = encounter_visibility(scratch)
    rolled = scratch.roll(table.dados, table.nome, visibility=visibility,
                          describe=lambda total: row_text(pick_row(table.linhas, total)),
                          regiao=region)
    row = pick_row(table.linhas, rolled.total)
    if isinstance(row, str) or row.quantidade is None:
        return
    what = row.texto
    count = scratch.roll(row.quantidade, tables.quantos, visibility=visibility,
                         describe=lambda total: f"{total} — {what}", regiao=region)
    scratch.tell("encontros.aparecem", visibility, quantidade=count.total, encontro=what)


@command("encontro")
def encounter_command(state: State, scratch: Scratch) -> State:
    roll_encounter(state, scratch)
    return state
