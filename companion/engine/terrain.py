"""The six terrains as the tables name them (tables/viagem.yaml `terrenos`) and the group,
column or row of a typed table that covers a terrain."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol, TypeVar, get_args

from companion.engine.model import Terrain
from companion.engine.scratch import Scratch
from companion.tables.errors import TableError
from companion.tables.narration import Narrator
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

    def name(self, terrain: Terrain) -> str:
        """The name of one terrain id (of model.Terrain)."""
        return str(getattr(self, terrain))


def terrain_name(scratch: Scratch, terrain: str) -> str:
    """How people call a terrain (tables/viagem.yaml `terrenos`); an unknown id is a
    TableError naming the key."""
    if terrain not in get_args(Terrain):
        raise TableError(scratch.tables.narration.render("conferencia.terreno_sem_nome",
                                                         {"terreno": terrain}))
    return scratch.piece(TerrainNames).name(terrain)


class Terrained(Protocol):
    """A typed group, column or row of a table that says which terrains it covers."""

    @property
    def terrenos(self) -> tuple[str, ...]: ...


G = TypeVar("G", bound=Terrained)


def group_for(groups: Iterable[G], terrain: str, file: str, where: str,
              narration: Narrator) -> G:
    """The group/column/row of a typed table that covers this terrain (mapped in data); none
    is a TableError naming tables/<file>.yaml and `where`."""
    for group in groups:
        if terrain in group.terrenos:
            return group
    raise TableError(narration.render("conferencia.nao_cobre_terreno",
                                      {"arquivo": file, "onde": where, "terreno": terrain}))
