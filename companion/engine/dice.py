"""Dice rolling on top of the `dice` library, always with the RNG passed in."""
from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass
from functools import lru_cache

import dice as dicelib
from dice.elements import Dice
from dice.exceptions import DiceBaseException

from companion.errors import DiceError

ACCEPTED = "use algo como 1d20, 2d6+1, 3d6-1 ou d8"
_SIDES = re.compile(r"d(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class Roll:
    """One rolled expression: the text, the dice faces by type, and the total."""

    expression: str
    total: int
    faces: tuple[tuple[str, tuple[int, ...]], ...]  # (("d6", (3, 5)),)


def _collect_dice(element: object, out: list[tuple[str, tuple[int, ...]]]) -> None:
    if isinstance(element, Dice):
        out.append((f"d{int(element.max_value)}", tuple(int(v) for v in element.result)))
        return
    children = getattr(element, "original_operands", None) or getattr(element, "operands", ())
    for child in children or ():
        _collect_dice(child, out)


@lru_cache(maxsize=512)
def _parsed(text: str, max_dice: int) -> object:
    """Parsing is the slow part of the dice library (pyparsing): parse each text once."""
    return dicelib.roll(text, raw=True, max_dice=max_dice)


def roll(expression: str, rng: random.Random, max_dice: int = 100, max_sides: int = 1000) -> Roll:
    """Roll a dice expression; raise DiceError with a Portuguese message when it is bad or absurd."""
    text = expression.strip().lower().replace(" ", "")
    if not text or len(text) > 40:
        raise DiceError(f"expressão de dados inválida: '{expression}'; {ACCEPTED}")
    for sides in _SIDES.findall(text):
        if int(sides) > max_sides or int(sides) < 2:
            raise DiceError(
                f"dado absurdo em '{expression}': use dados de 2 a {max_sides} faces; {ACCEPTED}"
            )
    try:
        element = copy.deepcopy(_parsed(text, max_dice))  # evaluation mutates the tree
        value = element.evaluate_cached(random=rng, max_dice=max_dice)
    except DiceBaseException as error:
        if "Too many dice" in str(error):
            raise DiceError(
                f"dados demais em '{expression}': no máximo {max_dice} dados; {ACCEPTED}"
            ) from None
        raise DiceError(f"expressão de dados inválida: '{expression}'; {ACCEPTED}") from None
    except (ValueError, TypeError, ZeroDivisionError, RecursionError):
        raise DiceError(f"expressão de dados inválida: '{expression}'; {ACCEPTED}") from None
    total = int(sum(value)) if isinstance(value, list) else int(value)
    faces: list[tuple[str, tuple[int, ...]]] = []
    _collect_dice(element, faces)
    if not faces:
        raise DiceError(f"'{expression}' não tem dados para rolar; {ACCEPTED}")
    return Roll(expression=text if text[0] != "d" else "1" + text, total=total, faces=tuple(faces))


def roll_with_edge(
    expression: str, rng: random.Random, edge: str | None = None, low_is_good: bool = False
) -> tuple[Roll, Roll | None]:
    """Roll with vantagem/desvantagem (DESV): two rolls, keep the better/worse one first.

    Better is higher, except for roll-under tests (low_is_good), where DESV keeps the higher.
    """
    first = roll(expression, rng)
    if edge not in ("vantagem", "desvantagem"):
        return first, None
    second = roll(expression, rng)
    keep_high = (edge == "vantagem") != low_is_good
    better = first if (first.total >= second.total) == keep_high else second
    other = second if better is first else first
    return better, other

