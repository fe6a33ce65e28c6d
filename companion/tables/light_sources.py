"""The light sources the GM may light (tables/casa.yaml `luz`): burnt by the engine's dungeon
turns (engine/procedures/light.py) and named by the parser, which lets every source of the
table be said as itself ("acender a vela")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.tables.rulebook import piece, require_at_least


@dataclass(frozen=True)
class LightSource:
    """A light the GM can light: its name, how many exploration turns it burns, its end."""

    nome: str
    turnos: int
    apagou: str

    def validate(self) -> None:
        require_at_least(self, 1, "turnos")


@piece("casa", strict=False)  # only `luz` of tables/casa.yaml is the light's
@dataclass(frozen=True)
class LightRules:
    """tables/casa.yaml `luz`: each key is a source the GM may light."""

    luz: Mapping[str, LightSource]


__all__ = ["LightRules", "LightSource"]
