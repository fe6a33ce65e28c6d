"""Narrator.render remembers the texts it rendered (issue 33 item 4): the same code and data
give the same text, and data a template could tell apart never share one."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from companion.tables import narration
from companion.tables.narration import compile_templates


@pytest.mark.parametrize("values", [
    [1, True, 1.0],  # equal as dict keys, written differently by a template
    [[1, 2], (1, 2)],  # a list and a tuple
    [{"a": 1, "b": 2}, {"b": 2, "a": 1}],  # a map's order is what a loop reads
    [0, False, 0.0, None, ""],
    [{1: "a"}, {"1": "a"}, {True: "a"}],  # keys of other types
    [float("nan"), float("inf"), -0.0, 0.0],
    [b"x", "x"],
])
def test_values_equal_in_python_but_written_differently_keep_their_own_text(
        values: list[Any]) -> None:
    narrator = compile_templates({"t": {"x": "[{{ x }}]"}})
    fresh = [compile_templates({"t": {"x": "[{{ x }}]"}}).render("t.x", {"x": v}) for v in values]
    for _ in range(2):  # the second time from what was remembered
        assert [narrator.render("t.x", {"x": v}) for v in values] == fresh
    assert len(set(fresh)) == len(values)


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The codes Narrator rendered for real (not from what it remembered), in order."""
    codes: list[str] = []
    real = narration.Narrator._render

    def counting(self: narration.Narrator, code: str, data: Any) -> str:
        codes.append(code)
        return real(self, code, data)

    monkeypatch.setattr(narration.Narrator, "_render", counting)
    return codes


def test_the_same_code_and_data_are_rendered_once(rendered: list[str]) -> None:
    narrator = compile_templates({"t": {"x": "{{ x | lista }}"}})
    assert narrator.render("t.x", {"x": ["Ana", "Bia"]}) == "Ana e Bia"
    assert narrator.render("t.x", {"x": ["Ana", "Bia"]}) == "Ana e Bia"
    assert narrator.render("t.x", {"x": ["Ana", "Caio"]}) == "Ana e Caio"
    assert rendered == ["t.x", "t.x"]


def test_the_same_data_read_back_from_json_is_rendered_once(rendered: list[str]) -> None:
    """The session renders an event's text again from its data as the log reads it back
    (companion.session.journal): strings that are not interned, a new dict — the same key."""
    narrator = compile_templates({"t": {"x": "{{ tabela }}: {{ faces }} {{ total }}"}})
    data = {"tabela": "Rolagem", "faces": [["d20", [7]]], "total": 7, "lado": None}
    first = narrator.render("t.x", data)
    assert narrator.render("t.x", msgspec.json.decode(msgspec.json.encode(data))) == first
    assert rendered == ["t.x"]


def test_data_that_is_not_plain_json_is_rendered_every_time() -> None:
    class Name:
        def __init__(self, text: str) -> None:
            self.text = text

        def __str__(self) -> str:
            return self.text

    class Said(str):
        def __str__(self) -> str:
            return "dito"

    narrator = compile_templates({"t": {"x": "{{ x }}"}})
    assert narrator.render("t.x", {"x": Said("Ana")}) == "dito"
    assert narrator.render("t.x", {"x": "Ana"}) == "Ana"
    name = Name("Ana")
    assert narrator.render("t.x", {"x": name}) == "Ana"
    name.text = "Bia"
    assert narrator.render("t.x", {"x": name}) == "Bia"


def test_only_the_newest_texts_are_kept() -> None:
    narrator = compile_templates({"t": {"x": "{{ x }}"}})
    for number in range(narration.RENDERS_KEPT + 50):
        assert narrator.render("t.x", {"x": number}) == str(number)
    assert len(narrator._said[1]) == narration.RENDERS_KEPT


def test_a_template_may_read_only_the_values_it_or_a_part_names() -> None:
    """What the journal asks before leaving the weight (`peso`) out of a re-render."""
    narrator = compile_templates({"t": {"x": "{{ peso }} kg", "y": "{{ nome }}"}})
    assert narrator.may_read("t.x", "peso")
    assert not narrator.may_read("t.y", "peso")
