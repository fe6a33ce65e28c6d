"""The import contract (pyproject.toml [tool.importlinter]) holds, and it would catch an import
that runs the wrong way; no import hides inside a function to dodge a cycle."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
# imported where used because the companion runs without them (the voice/https extras)
OPTIONAL = {"vosk", "sounddevice", "cryptography", "piper"}


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True,
                          text=True, timeout=300)


def test_the_import_contract_holds() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 7 kept, 0 broken." in done.stdout


@pytest.mark.parametrize("file, line, broken", [
    # the rules loader importing the engine (as load_tables once did)
    ("companion/tables/files.py", "import companion.engine.registry",
     "companion.tables is not allowed to import companion.engine"),
    # the parser importing the engine (as it did for Command)
    ("companion/commands/parse.py", "from companion.engine.model import State",
     "companion.commands is not allowed to import companion.engine"),
    # the clock importing a procedure (as it did for end_of_day) instead of taking a hook
    ("companion/engine/clock.py", "from companion.engine.procedures import travel",
     "companion.engine.clock is not allowed to import companion.engine.procedures"),
    # a procedure importing one of its own layer: a cycle waiting to happen
    ("companion/engine/procedures/travel.py", "from companion.engine.procedures import dungeon",
     "companion.engine.procedures.travel is not allowed to import "
     "companion.engine.procedures.dungeon"),
    # a procedure importing one above it
    ("companion/engine/procedures/rest.py", "from companion.engine.procedures import travel",
     "companion.engine.procedures.rest is not allowed to import "
     "companion.engine.procedures.travel"),
    # a session piece calling one above it back (the seats <-> running cycle that was)
    ("companion/session/seat_book.py", "from companion.session.running import Runner",
     "companion.session.seat_book is not allowed to import companion.session.running"),
    # the journal reaching up into a piece it is given to
    ("companion/session/journal.py", "from companion.session.undo import Undo",
     "companion.session.journal is not allowed to import companion.session.undo"),
])
def test_an_import_the_wrong_way_breaks_the_contract(tmp_path: Path, file: str, line: str,
                                                     broken: str) -> None:
    shutil.copytree(ROOT / "companion", tmp_path / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with (tmp_path / file).open("a", encoding="utf-8") as handle:
        handle.write(f"\n{line}  # noqa: E402,F401\n")
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    assert broken in " ".join(done.stdout.split()), done.stdout


def _imports_inside_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names
                      if name.split(".")[0] not in OPTIONAL]
    return found


def test_no_import_inside_a_function() -> None:
    found = [hit for path in sorted((ROOT / "companion").rglob("*.py"))
             for hit in _imports_inside_functions(path)]
    assert found == []
