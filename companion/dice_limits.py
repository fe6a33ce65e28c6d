"""How much a command may roll (tables/casa.yaml `limites_dados`): read by the engine's dice
(the longest expression, the most dice, the most faces) and by the parser's argument contract
(the largest modifier), so the house states its dice limits in one place."""
from __future__ import annotations

from dataclasses import dataclass

from companion.rulebook import InvalidValue, piece


@piece("casa", "limites_dados")
@dataclass(frozen=True)
class DiceLimits:
    """tables/casa.yaml `limites_dados` (house defaults): the longest expression, the most dice
    and the most faces a command may roll (a dice bomb is refused, not rolled), and the largest
    modifier a rolled expression may add or take away."""

    padrao_da_casa: bool
    caracteres: int
    dados: int
    faces: int
    modificador: int

    def validate(self) -> None:
        for name in ("caracteres", "dados"):
            if getattr(self, name) < 1:
                raise InvalidValue(name, "um número inteiro de 1 para cima")
        if self.faces < 2:
            raise InvalidValue("faces", "um número inteiro de 2 para cima")
        if self.modificador < 0:
            raise InvalidValue("modificador", "um número inteiro de 0 para cima")


__all__ = ["DiceLimits"]
