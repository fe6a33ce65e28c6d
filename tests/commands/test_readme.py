"""The README's command list tells the truth: every example in it is understood."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.commands.parse import parse

README = Path(__file__).resolve().parents[2] / "README.md"


def examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Comandos", 1)[1].split("\n## ", 1)[0]
    found = []
    for row in section.splitlines():
        if not row.startswith("| `"):
            continue
        first_cell = row.split("|")[1]
        for snippet in re.findall(r"`([^`]+)`", first_cell):
            cleaned = re.sub(r"\[[^\]]*\]", "", snippet).strip()
            if cleaned:
                found.append(cleaned)
    return found


def test_the_readme_lists_commands() -> None:
    assert len(examples()) > 40


@pytest.mark.parametrize("example", examples())
def test_every_readme_example_is_a_command(example: str, tables) -> None:
    result = parse(example, tables)
    assert result.command is not None, f"o README promete '{example}': {result.error}"
