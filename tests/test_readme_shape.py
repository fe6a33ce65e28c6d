"""The README is a GM's manual: short, with a table of contents, in the order a GM needs it, and
the programs, the measured numbers and the inside in docs/, linked from it."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
LIMIT = 350
# What a GM meets, in order (issue 35): install, the evening, campaigns, house rules, security.
ORDER = ["## Instalar", "## A noite", "## Campanha e relatório", "## As regras da casa",
         "## Segurança"]
DOCS = ["docs/commands.md", "docs/socketio.md", "docs/desempenho.md", "docs/camadas.md",
        "docs/design.md", "docs/regras.md"]


def text() -> str:
    return README.read_text(encoding="utf-8")


def test_the_first_lines_show_the_developer_commands() -> None:
    first = "\n".join(text().splitlines()[:10])
    assert re.search(r"^\./run\.sh\s", first, re.M) and re.search(r"^\./run\.sh test\b", first, re.M)


def test_the_readme_is_short() -> None:
    assert len(text().splitlines()) <= LIMIT


def test_the_sections_come_in_a_gms_order() -> None:
    headings = [line for line in text().splitlines() if line.startswith("## ")]
    assert [h for h in headings if h in ORDER] == ORDER


def test_the_table_of_contents_points_to_every_section() -> None:
    """Each `## ` section has a link to its anchor (GitHub's: lower case, spaces to hyphens,
    punctuation dropped) before the first section."""
    body = text()
    contents = body.split("\n## ", 1)[0]
    for heading in re.findall(r"^## (.+)$", body, re.M):
        anchor = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        assert f"(#{anchor})" in contents, heading


def test_the_programs_the_numbers_and_the_inside_are_linked() -> None:
    body = text()
    for doc in DOCS:
        assert f"]({doc})" in body and (ROOT / doc).is_file(), doc


def test_the_screenshots_are_shown() -> None:
    shown = set(re.findall(r"\(docs/screenshots/([\w-]+\.png)\)", text()))
    assert {path.name for path in (ROOT / "docs" / "screenshots").glob("*.png")} <= shown
