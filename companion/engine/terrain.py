"""The six terrains as the tables name them (tables/viagem.yaml `terrenos`) and the group,
column or row of a typed table that covers a terrain."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol, TypeVar, get_args

from companion.engine.model import Terrain
from companion.engine.scratch import Scratch
from companion.tables.errors import TableError
from companion.tables.rulebook import piece


@piece("viagem", "terrenos")
@dataclass(frozen=True)
class TerrainNames:
    """tables/viagem.yaml `terrenos`: how each of the six terrains is named."""

    planicie: str
    estepe: str
    colinas: str
    floresta: str
    pantano: str
    montanha: str

    def names(self) -> dict[str, str]:
        """terrain id → name, in the order of model.Terrain (the data's order too)."""
        return {terrain: str(getattr(self, terrain)) for terrain in get_args(Terrain)}

    def name(self, terrain: str) -> str:
        """The name of one terrain id (an unknown id: a TableError naming the key)."""
        if terrain not in get_args(Terrain):
            raise TableError(f"tables/viagem.yaml: chave 'terrenos.{terrain}' não encontrada")
        return str(getattr(self, terrain))


def terrain_name(scratch: Scratch, terrain: str) -> str:
    """How people call a terrain (tables/viagem.yaml `terrenos`)."""
    return scratch.piece(TerrainNames).name(terrain)


class Terrained(Protocol):
    """A typed group, column or row of a table that says which terrains it covers."""

    @property
    def terrenos(self) -> tuple[str, ...]: ...


G = TypeVar("G", bound=Terrained)


def group_for(groups: Iterable[G], terrain: str, file: str, where: str) -> G:
    """The group/column/row of a typed table that covers this terrain (mapped in data)."""
    for group in groups:
        if terrain in group.terrenos:
            return group
    raise TableError(f"tables/{file}.yaml: '{where}' não cobre o terreno '{terrain}'")
