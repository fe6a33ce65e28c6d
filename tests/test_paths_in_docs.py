"""The repository stands alone: every path its comments and documents name exists in it.

A comment, a docstring or a document that points to `companion/…`, `tests/…`, `docs/…`,
`tables/…`, `web/…`, `bench/…`, `README.md` or `pyproject.toml` must point to something in the
repository (a template such as `tables/narracao/<assunto>.yaml` or `eventos-N.zdict` must match
at least one file), and nothing may send the reader to a document outside it: the design is
`docs/design.md`, the readings of the seeds' rules `docs/regras.md`.
"""
from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A path starts a word (not inside a URL or another path) with one of the repository's folders.
PATH = re.compile(r"(?<![\w/.:@-])((?:companion|tests|docs|tables|web|bench)/[\w./<>*{}-]*[\w>*}])")
OUTSIDE = re.compile(r"\b(?:DESIGN|RULES)\.md\b")
# A placeholder segment: <assunto>, *, {n}, or a word in capitals (N, NAME, ARQUIVO).
PLACEHOLDER = re.compile(r"<[^>]*>|\*|\{[^}]*\}|\b[A-Z][A-Z_]*\b")


def _python_notes(path: Path) -> list[tuple[int, str]]:
    """The comments and docstrings of a Python file, with their line numbers."""
    source = path.read_text(encoding="utf-8")
    notes = [(token.start[0], token.string)
             for token in tokenize.generate_tokens(io.StringIO(source).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                notes.append((body[0].lineno, body[0].value.value))
    return notes


def _hash_comments(path: Path) -> list[tuple[int, str]]:
    """The `#` comments of a YAML or TOML file (a `#` that starts the line or follows a space)."""
    notes = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = re.search(r"(?:^|\s)(#.*)$", line)
        if match:
            notes.append((number, match.group(1)))
    return notes


def _js_comments(path: Path) -> list[tuple[int, str]]:
    """The `//` and `/* … */` comments of a page script."""
    text = path.read_text(encoding="utf-8")
    notes = []
    for match in re.finditer(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", text, re.S):
        notes.append((text.count("\n", 0, match.start()) + 1, match.group(0)))
    return notes


def _whole(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))


@functools.cache
def notes() -> list[tuple[Path, int, str]]:
    """Every comment and document of the repository, line by line."""
    readers = [("*.md", _whole), ("docs/**/*.md", _whole), ("models/*.md", _whole),
               ("pyproject.toml", _hash_comments), ("tables/**/*.yaml", _hash_comments),
               ("companion/**/*.py", _python_notes), ("tests/**/*.py", _python_notes),
               ("bench/**/*.py", _python_notes), ("web/static/js/*.js", _js_comments)]
    found = []
    for pattern, reader in readers:
        for path in sorted(ROOT.glob(pattern)):
            if ".venv" in path.parts:
                continue
            found.extend((path, line, text) for line, text in reader(path))
    return found


@functools.cache
def _wheel_folders() -> dict[str, str]:
    """Where a wheel puts the repository's top-level folders (pyproject's force-include):
    `companion/_data/tables` is `tables/` of the repository."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {packed: source for source, packed in
            project["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"].items()}


def exists(name: str) -> bool:
    """Whether a path named in a note is in the repository: a file, a folder, a module's
    attribute (`tests/socket_helpers.Peer`), a folder as a wheel carries it, or a template
    that matches something."""
    name = name.rstrip(".")
    for packed, source in _wheel_folders().items():
        if name == packed or name.startswith(packed + "/"):
            name = source + name[len(packed):]
    if PLACEHOLDER.search(name):
        pattern = PLACEHOLDER.sub("*", name)
        return any(ROOT.glob(pattern))
    if (ROOT / name).exists():
        return True
    parts = name.split(".")
    return any((ROOT / (".".join(parts[:n]) + ".py")).is_file() for n in range(1, len(parts)))


def test_the_notes_are_read() -> None:
    """The reader finds the notes it must judge (else the test below would pass on nothing)."""
    found = notes()
    assert len(found) > 5000
    assert any("companion/engine/view.py" in text for _, _, text in found)


def test_a_missing_path_is_caught() -> None:
    assert not exists("companion/state_codec.py")
    assert not exists("companion/rulebook.py")
    assert exists("companion/tables/rulebook.py") and exists("tests/socket_helpers.Peer")
    assert exists("tables/narracao/<assunto>.yaml") and exists("companion/store/eventos-N.zdict")
    assert not exists("tables/narracao/<assunto>.json")
    assert exists("companion/_data/tables/casa.yaml") and not exists("companion/_data/x")


def test_every_path_in_a_comment_or_document_exists() -> None:
    missing = [f"{path.relative_to(ROOT)}:{line}: {name}"
               for path, line, text in notes()
               for name in PATH.findall(text) if not exists(name)]
    assert not missing, "caminhos que não existem no repositório:\n" + "\n".join(missing)


def test_nothing_points_outside_the_repository() -> None:
    outside = [f"{path.relative_to(ROOT)}:{line}: {text.strip()[:100]}"
               for path, line, text in notes() if OUTSIDE.search(text)]
    assert not outside, ("o desenho é docs/design.md e a leitura das regras docs/regras.md:\n"
                         + "\n".join(outside))


@pytest.mark.parametrize("document", ["docs/design.md", "docs/regras.md"])
def test_the_design_and_the_rules_are_in_the_repository(document: str) -> None:
    assert (ROOT / document).is_file()
