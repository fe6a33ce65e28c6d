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
    """tables/casa.yaml `luz`: each key is a source the GM may light; `luz_numerada`: how two
    lit sources of one kind are told apart."""

    luz: Mapping[str, LightSource]
    luz_numerada: str = "{nome} {n}"

    def shown_names(self, keys: list[str]) -> list[str]:
        """How people tell the lit sources apart: each by its name ('Tocha'), and sources of one
        kind by their order too (`luz_numerada`, with {nome} and {n}: 'Tocha 1')."""
        numbered = self.luz_numerada
        names = [self.luz[key].nome if key in self.luz else key for key in keys]
        shown, seen = [], {name: 0 for name in names}
        for name in names:
            seen[name] += 1
            alone = names.count(name) == 1
            shown.append(name if alone else numbered.replace("{nome}", name)
                         .replace("{n}", str(seen[name])))
        return shown


__all__ = ["LightRules", "LightSource"]
