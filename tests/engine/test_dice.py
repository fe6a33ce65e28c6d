"""The dice wrapper: expressions, limits, advantage, determinism."""
from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.tables.dice_limits import DiceLimits
from companion.engine import Command, apply, dice_rolls, initial_state
from companion.tables.errors import CommandRejected, DiceError, TableError
from companion.rules.loader import load_rules
from companion.tables.files import Tables
from tests.play_helpers import FixedDice
from tests.rules_helpers import changed_rules

LIMITS = load_rules().piece(DiceLimits)  # tables/casa.yaml limites_dados, as shipped


@pytest.mark.parametrize(
    ("expression", "faces", "total"),
    [("1d20+3", (12,), 15), ("2d6", (3, 5), 8), ("3d6-1", (1, 2, 3), 5), ("d8", (7,), 7)],
)
def test_expressions(expression: str, faces: tuple[int, ...], total: int) -> None:
    rolled = dice_rolls.roll(expression, FixedDice(*faces))
    assert rolled.total == total
    assert [v for _, values in rolled.faces for v in values] == list(faces)


def test_faces_by_type() -> None:
    rolled = dice_rolls.roll("2d6+1d4", FixedDice(1, 2, 3))
    assert rolled.faces == (("d6", (1, 2)), ("d4", (3,)))


@pytest.mark.parametrize("expression", ["1000d1000000", "101d6", "1d1001", "1d1", "", "x2",
                                        "d", "2d6+", "1d6" * 20, "\x00\x01", "drop table"])
def test_bad_or_absurd_expressions_are_rejected_in_portuguese(expression: str,
                                                              tables: Tables) -> None:
    with pytest.raises(DiceError) as error:
        dice_rolls.roll(expression, random.Random(1), LIMITS)
    message = tables.narration.render(error.value.code, error.value.params)  # said by its code
    assert "use algo como" in message or "dados" in message


@pytest.mark.parametrize(("expression", "said"), [
    ("x2", "expressão de dados inválida: 'x2'; use algo como 1d20, 2d6+1, 3d6-1 ou d8"),
    ("101d6", "dados demais em '101d6': no máximo 100 dados; use algo como 1d20, 2d6+1, "
              "3d6-1 ou d8"),
    ("1d1", "dado absurdo em '1d1': use dados de 2 a 1000 faces; use algo como 1d20, 2d6+1, "
            "3d6-1 ou d8"),
    ("3", "'3' não tem dados para rolar; use algo como 1d20, 2d6+1, 3d6-1 ou d8"),
])
def test_a_bad_expression_is_said_from_narracao(expression: str, said: str,
                                                tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        apply(initial_state(tables), Command("rolar", {"expressao": expression}),
              random.Random(1), tables)
    assert isinstance(refused.value, DiceError) and refused.value.message == said
    assert refused.value.code.startswith("dados.")


def test_advantage_keeps_higher_and_disadvantage_lower() -> None:
    kept, other = dice_rolls.roll_with_edge("1d20", FixedDice(4, 17), "vantagem")
    assert (kept.total, other.total) == (17, 4)
    kept, other = dice_rolls.roll_with_edge("1d20", FixedDice(4, 17), "desvantagem")
    assert (kept.total, other.total) == (4, 17)
    kept, other = dice_rolls.roll_with_edge("1d20", FixedDice(9), None)
    assert kept.total == 9 and other is None


@given(st.integers(min_value=0, max_value=10**9))
def test_same_seed_same_roll(seed: int) -> None:
    first = dice_rolls.roll("3d6+2", random.Random(seed))
    second = dice_rolls.roll("3d6+2", random.Random(seed))
    assert first == second and 5 <= first.total <= 20


@given(st.text(max_size=60))
def test_any_text_rolls_or_is_rejected(text: str) -> None:
    try:
        dice_rolls.roll(text, random.Random(0), LIMITS)
    except DiceError:
        pass


def test_disadvantage_on_a_roll_under_test_keeps_the_higher_die() -> None:
    kept, other = dice_rolls.roll_with_edge("1d20", FixedDice(4, 17), "desvantagem",
                                            low_is_good=True)
    assert (kept.total, other.total) == (17, 4)
    kept, other = dice_rolls.roll_with_edge("1d20", FixedDice(4, 17), "vantagem", low_is_good=True)
    assert (kept.total, other.total) == (4, 17)


_TERMS = st.one_of(
    st.builds(lambda n, s: f"{n}d{s}", st.sampled_from(["", "0", "1", "2", "3", "10", "01"]),
              st.sampled_from([2, 4, 6, 8, 10, 12, 20, 100])),
    st.integers(min_value=0, max_value=30).map(str))


@given(st.lists(_TERMS, min_size=1, max_size=4), st.lists(st.sampled_from("+-"), min_size=3,
                                                           max_size=3),
       st.integers(min_value=0, max_value=10**9))
def test_sums_roll_as_the_library_rolls_them(terms: list[str], signs: list[str],
                                             seed: int) -> None:
    """The plan of a sum of dice and numbers rolls what the library would, with the same
    calls to the RNG (same seed → same faces, golden files unchanged)."""
    text = terms[0] + "".join(sign + term for sign, term in zip(signs, terms[1:]))
    mine, theirs = random.Random(seed), random.Random(seed)
    try:
        rolled = dice_rolls.roll(text, mine)
    except DiceError:
        assert not any("d" in term for term in terms)  # only a sum without dice is refused
        return
    assert dice_rolls.plan(text) is not None
    assert (rolled.total, rolled.faces) == dice_rolls._roll_library(text, text, theirs, 100)
    assert mine.getstate() == theirs.getstate()


def test_the_dice_limits_are_data(tmp_path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "  dados: 100\n", "  dados: 3\n")
    with pytest.raises(CommandRejected) as refused:
        apply(initial_state(rules), Command("rolar", {"expressao": "4d6"}), random.Random(1),
              rules)
    assert refused.value.message.startswith("dados demais em '4d6': no máximo 3 dados;")
    rules = changed_rules(tmp_path, "casa.yaml", "  faces: 1000\n", "  faces: 20\n")
    with pytest.raises(CommandRejected, match="use dados de 2 a 20 faces"):
        apply(initial_state(rules), Command("rolar", {"expressao": "1d100"}), random.Random(1),
              rules)
    _, events = apply(initial_state(rules), Command("rolar", {"expressao": "1d20"}),
                      random.Random(1), rules)
    assert events[0].data["dados"] == "1d20"


def test_a_bad_dice_limit_names_the_file_and_key(tmp_path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: 'limites_dados\.faces' deveria"):
        changed_rules(tmp_path, "casa.yaml", "  faces: 1000\n", "  faces: 1\n")


def test_a_negative_modifier_limit_names_the_file_and_key(tmp_path) -> None:
    with pytest.raises(TableError,
                       match=r"tables/casa\.yaml: 'limites_dados\.modificador' deveria"):
        changed_rules(tmp_path, "casa.yaml", "  modificador: 1000\n", "  modificador: -1\n")
