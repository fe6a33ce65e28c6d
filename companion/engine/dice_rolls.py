"""Dice rolling on top of the `dice` library, always with the RNG passed in.

The sums every table and most commands use (1d6, 2d6+1, d20, 1d8+1d4-1) are read once into an
immutable plan (`Term`s) and rolled straight from it: one `rng.randint(1, sides)` per die, left
to right, exactly the calls the library makes for them, so the same seed gives the same faces.
Anything else (keep-highest, exploding dice…) goes through the library itself.
"""
from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass
from functools import lru_cache

import dice as dicelib
from dice.elements import Dice
from dice.exceptions import DiceBaseException

from companion.tables.dice_limits import DiceLimits
from companion.tables.errors import DiceError

_SIDES = re.compile(r"d(\d+)", re.IGNORECASE)
_TERM = r"(?:\d*d\d+|\d+)"
_SUM = re.compile(rf"{_TERM}(?:[+-]{_TERM})*")
_SIGNED_TERM = re.compile(r"([+-]?)(?:(\d*)d(\d+)|(\d+))")
DIE_SHAPE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")  # 'NdS' or 'NdS+M'


def die_range(expression: str) -> tuple[int, int] | None:
    """Lowest and highest total of 'NdS' or 'NdS+M' (None for other shapes)."""
    match = DIE_SHAPE.match(expression.strip().lower().replace(" ", ""))
    if not match:
        return None
    count, sides = int(match.group(1) or 1), int(match.group(2))
    bonus = int(match.group(3) or 0)
    return count + bonus, count * sides + bonus


@dataclass(frozen=True)
class Roll:
    """One rolled expression: the text, the dice faces by type, and the total."""

    expression: str
    total: int
    faces: tuple[tuple[str, tuple[int, ...]], ...]  # (("d6", (3, 5)),)


@dataclass(frozen=True)
class Term:
    """One term of a sum of dice and numbers: `amount` dice of `sides` faces (sides 0 for a
    plain number, `amount` then being the number), added (sign 1) or subtracted (-1)."""

    sign: int
    amount: int
    sides: int


def _collect_dice(element: object, out: list[tuple[str, tuple[int, ...]]]) -> None:
    if isinstance(element, Dice):
        out.append((f"d{int(element.max_value)}", tuple(int(v) for v in element.result)))
        return
    children = getattr(element, "original_operands", None) or getattr(element, "operands", ())
    for child in children or ():
        _collect_dice(child, out)


@lru_cache(maxsize=512)
def plan(text: str) -> tuple[Term, ...] | None:
    """The text as a sum of dice and numbers (read once per text); None for anything else,
    or for a sum without dice."""
    if not _SUM.fullmatch(text):
        return None
    terms = tuple(
        Term(-1 if sign == "-" else 1, int(amount or 1) if sides else int(number),
             int(sides) if sides else 0)
        for sign, amount, sides, number in _SIGNED_TERM.findall(text))
    return terms if any(term.sides for term in terms) else None


def _roll_plan(terms: tuple[Term, ...], rng: random.Random
               ) -> tuple[int, tuple[tuple[str, tuple[int, ...]], ...]]:
    total = 0
    faces: list[tuple[str, tuple[int, ...]]] = []
    for term in terms:
        if not term.sides:
            total += term.sign * term.amount
            continue
        rolled = tuple(rng.randint(1, term.sides) for _ in range(term.amount))
        faces.append((f"d{term.sides}", rolled))
        total += term.sign * sum(rolled)
    return total, tuple(faces)


@lru_cache(maxsize=512)
def _parsed(text: str, max_dice: int | None) -> object:
    """Parsing is the slow part of the dice library (pyparsing): parse each text once."""
    return dicelib.roll(text, raw=True, **_library_limit(max_dice))


def _library_limit(max_dice: int | None) -> dict[str, int]:
    return {} if max_dice is None else {"max_dice": max_dice}


def _roll_library(text: str, expression: str, rng: random.Random, max_dice: int | None
                  ) -> tuple[int, tuple[tuple[str, tuple[int, ...]], ...]]:
    """Any other expression the library reads, its errors in Portuguese."""
    try:
        element = copy.deepcopy(_parsed(text, max_dice))  # evaluation mutates the tree
        value = element.evaluate_cached(random=rng, **_library_limit(max_dice))
    except DiceBaseException as error:
        if "Too many dice" in str(error):
            raise _too_many(expression, max_dice) from None
        raise _invalid(expression) from None
    except (ValueError, TypeError, ZeroDivisionError, RecursionError):
        raise _invalid(expression) from None
    total = int(sum(value)) if isinstance(value, list) else int(value)
    faces: list[tuple[str, tuple[int, ...]]] = []
    _collect_dice(element, faces)
    return total, tuple(faces)


def _too_many(expression: str, max_dice: int | None) -> DiceError:
    return DiceError.because("dados.dados_demais", expressao=expression, maximo=max_dice)


def _invalid(expression: str) -> DiceError:
    return DiceError.because("dados.expressao_invalida", expressao=expression)


def _checked(expression: str, limits: DiceLimits | None) -> str:
    """The expression as rolled (lower case, no spaces), refused when empty, long or absurd."""
    text = expression.strip().lower().replace(" ", "")
    if not text or (limits is not None and len(text) > limits.caracteres):
        raise _invalid(expression)
    for sides in _SIDES.findall(text):
        if int(sides) < 2 or (limits is not None and int(sides) > limits.faces):
            raise DiceError.because("dados.dado_absurdo", expressao=expression,
                                    maximo=limits.faces if limits is not None else None)
    return text


def roll(expression: str, rng: random.Random, limits: DiceLimits | None = None) -> Roll:
    """Roll a dice expression within `limits` (casa.yaml `limites_dados`; every command rolls
    with them, Scratch.roll; None only to check the tables' own expressions at load); raise
    DiceError when it is bad or absurd (said by its code: tables/narracao/dados.yaml, rendered
    at the engine's boundary like every refusal)."""
    text = _checked(expression, limits)
    max_dice = limits.dados if limits is not None else None
    terms = plan(text)
    if terms is None:
        total, faces = _roll_library(text, expression, rng, max_dice)
    elif max_dice is not None and any(term.sides and term.amount > max_dice for term in terms):
        raise _too_many(expression, max_dice)
    else:
        total, faces = _roll_plan(terms, rng)
    if not faces:
        raise DiceError.because("dados.sem_dados", expressao=expression)
    return Roll(expression=text if text[0] != "d" else "1" + text, total=total, faces=faces)


def roll_with_edge(
    expression: str, rng: random.Random, edge: str | None = None, low_is_good: bool = False,
    *, limits: DiceLimits | None = None,
) -> tuple[Roll, Roll | None]:
    """Roll with vantagem/desvantagem (DESV): two rolls, keep the better/worse one first.

    Better is higher, except for roll-under tests (low_is_good), where DESV keeps the higher.
    """
    first = roll(expression, rng, limits)
    if edge not in ("vantagem", "desvantagem"):
        return first, None
    second = roll(expression, rng, limits)
    keep_high = (edge == "vantagem") != low_is_good
    better = first if (first.total >= second.total) == keep_high else second
    other = second if better is first else first
    return better, other

