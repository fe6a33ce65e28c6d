"""How much a command may roll (tables/casa.yaml `limites_dados`): read by the engine's dice
(the longest expression, the most dice, the most faces) and by the parser's argument contract
(the largest modifier), so the house states its dice limits in one place."""
from __future__ import annotations

from dataclasses import dataclass

from companion.tables.rulebook import piece, require_at_least


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
        require_at_least(self, 1, "caracteres", "dados")
        require_at_least(self, 2, "faces")
        require_at_least(self, 0, "modificador")


__all__ = ["DiceLimits"]
