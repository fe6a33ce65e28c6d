"""The dungeon's rules as read from tables/masmorra.yaml (the DungeonRules piece and its parts:
Tabela A's danger levels, darkness, the encounter check and arrival, surprise, the hour rest, the
sleep's Tabelas B and C); dungeon.py runs the turn, the rest and the sleep with them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, get_args

from companion.tables import protocol
from companion.engine.procedures import rest
from companion.engine.model import Danger, Visibility
from companion.engine.validators import require_chance, require_dice
from companion.tables.rulebook import InvalidValue, piece, require_at_least


FILE = "masmorra"

_DANGERS = get_args(Danger)


def _require_every_danger(field_name: str, levels: Mapping[str, Any]) -> None:
    if any(level not in levels for level in _DANGERS):
        raise InvalidValue(field_name, "validacao.mapa_com", {"chaves": _DANGERS})


@dataclass(frozen=True)
class DangerLevel:
    """A row of Tabela A: the check's chance in 6, every how many turns."""

    nome: str
    chance: int
    a_cada_turnos: int
    texto: str

    def validate(self) -> None:
        require_chance("chance", self.chance)
        require_at_least(self, 1, "a_cada_turnos")


@dataclass(frozen=True)
class DangerTable:
    nome: str
    niveis: Mapping[str, DangerLevel]

    def validate(self) -> None:
        _require_every_danger("niveis", self.niveis)


@dataclass(frozen=True)
class Darkness:
    """Total darkness makes the danger level `nivel`."""

    nivel: Danger
    texto: str


@dataclass(frozen=True)
class EncounterCheck:
    nome: str
    sim: str
    nao: str
    visibilidade: protocol.Seen
    visibilidade_padrao_da_casa: bool

    @property
    def visibility(self) -> Visibility:
        return protocol.seen_by(self.visibilidade)


@dataclass(frozen=True)
class ArrivalRow:
    texto: str
    visibilidade: protocol.Seen
    na_sala: bool  # the monsters come into the party's room

    @property
    def visibility(self) -> Visibility:
        return protocol.seen_by(self.visibilidade)


@dataclass(frozen=True)
class Arrival:
    nome: str
    dados: str
    linhas: Mapping[str, ArrivalRow]

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class SurpriseSide:
    nome: str
    sim: str
    nao: str


@dataclass(frozen=True)
class SurpriseSides:
    grupo: SurpriseSide
    monstros: SurpriseSide


@dataclass(frozen=True)
class Surprise:
    """Each side surprised on `chance` in 6; the four outcomes' texts."""

    nome: str
    chance: int
    lados: SurpriseSides
    ambos: str
    nenhum: str
    so_grupo: str
    so_monstros: str

    def validate(self) -> None:
        require_chance("chance", self.chance)


@dataclass(frozen=True)
class HourRest:
    turnos_por_hora: int
    exaustao: int

    def validate(self) -> None:
        require_at_least(self, 1, "turnos_por_hora")


@dataclass(frozen=True)
class SleepMishap:
    """Tabela B (its rows are rest.MishapRow, read by rest.mishap in rest's own vocabulary)."""

    nome: str
    dados: str
    visibilidade: protocol.Seen
    linhas: rest.MishapRows

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class SleepLevel:
    a_cada_horas: int
    texto: str

    def validate(self) -> None:
        require_at_least(self, 1, "a_cada_horas")


@dataclass(frozen=True)
class SleepChecks:
    """Tabela C: `chance` in 6 every `a_cada_horas` of the level, over `horas`."""

    nome: str
    horas: int
    chance: int
    niveis: Mapping[str, SleepLevel]
    sim: str
    nao: str

    def validate(self) -> None:
        require_chance("chance", self.chance)
        require_at_least(self, 1, "horas")
        _require_every_danger("niveis", self.niveis)


@piece(FILE)
@dataclass(frozen=True)
class DungeonRules:
    """tables/masmorra.yaml."""

    turno_minutos: int
    perigo_padrao: Danger
    perigo_padrao_da_casa: bool
    tabela_a: DangerTable
    escuridao: Darkness
    encontro: EncounterCheck
    chegada: Arrival
    surpresa: Surprise
    descanso: HourRest
    tabela_b: SleepMishap
    tabela_c: SleepChecks
    magia_maximo_turnos: int
    magia_maximo_turnos_padrao_da_casa: bool = False

    def validate(self) -> None:
        require_at_least(self, 1, "turno_minutos", "magia_maximo_turnos")
