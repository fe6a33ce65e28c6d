"""The value checks a typed rules piece's validate() shares beyond the rulebook's own
(companion.tables.rulebook.require_at_least, require_filled): a dice expression, an X-in-6
chance."""
from __future__ import annotations

import random
from typing import Any

from companion.engine import dice_rolls
from companion.tables.errors import DiceError
from companion.tables.rulebook import InvalidValue


def _rolls(value: Any) -> bool:
    try:
        dice_rolls.roll(value, random.Random(0))
    except DiceError:
        return False
    return True


def require_chance(field_name: str, value: int) -> None:
    """For a typed rules piece's validate(): an X-in-6 chance, 0 to 6."""
    if not 0 <= value <= 6:
        raise InvalidValue(field_name, "validacao.chance_em_6")


def require_dice(field_name: str, value: str) -> None:
    """For a typed rules piece's validate(): `value` must be a dice expression."""
    if not _rolls(value):
        raise InvalidValue(field_name, "validacao.expressao_de_dados")
