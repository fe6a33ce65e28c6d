"""Every rules piece is checked at start, by every entry point: the report's and the voice's
pieces (declared above companion.rules.loader) too; that companion.cli declares them all is
checked in a fresh interpreter where nothing else imported them first."""
from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import pieces_doc
from companion.tables.files import DEFAULT_DIR
from tests.cli_helpers import run_main

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"
STARTUP_FAILURE = 2

ENTRY_POINTS = {  # each stops at the tables before it does anything
    "serve": ["serve", "--host", "127.0.0.1", "--port", "0"],
    "shell": ["shell"],
    "parse": ["parse", "ajuda"],
    "voz": ["voz", "frases"],
    "ouvir": ["ouvir", "nada.wav"],
}
BROKEN = {  # a file only a piece above the loader reads: (old, new, the error)
    "relatorio.yaml": ("faces_no_grafico: 20", "faces_no_grafico: muitas",
                       "erro nas tabelas: tables/relatorio.yaml: 'faces_no_grafico' deveria "
                       "ser número inteiro"),
    "voz.yaml": ("modo_inicial: ativacao", "modo_inicial: gritando",
                 "erro nas tabelas: tables/voz.yaml: 'modo_inicial' deveria ser um destes: "),
}


def _fresh(args: list[str], tables: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    if tables is not None:
        env["COMPANION_TABLES"] = str(tables)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, stdin=subprocess.DEVNULL, timeout=120)


@pytest.fixture(scope="module", params=sorted(BROKEN))
def broken(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    file = request.param
    old, new, error = BROKEN[file]
    folder = tmp_path_factory.mktemp("tabelas") / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert text.count(old) == 1
    (folder / file).write_text(text.replace(old, new), encoding="utf-8")
    return folder, error


@pytest.mark.parametrize("action", sorted(ENTRY_POINTS))
def test_every_entry_point_refuses_a_broken_report_or_voice_piece_at_start(
        broken: tuple[Path, str], action: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in this process (the fresh interpreter's declarations are the next test's)."""
    folder, error = broken
    monkeypatch.setenv("COMPANION_TABLES", str(folder))
    done = run_main(*ENTRY_POINTS[action])
    assert done.returncode == STARTUP_FAILURE, done.stdout + done.stderr
    assert done.stderr.startswith(error), done.stderr
    assert "Traceback" not in done.stderr


def _declaring_modules() -> set[str]:
    """The modules of companion/ with a class decorated `@piece(…)`."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(d, ast.Call) and "piece" in (getattr(d.func, "id", None),
                                                            getattr(d.func, "attr", None))
                    for d in node.decorator_list):
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_the_cli_declares_every_piece_before_it_loads_the_rules() -> None:
    declaring = _declaring_modules()
    assert {"companion.report.words", "companion.voice.config"} <= declaring
    done = _fresh(["-c", "import json, companion.cli; from companion.tables.rulebook import PIECES; "
                         "print(json.dumps(sorted({c.__module__ for c in PIECES})))"])
    assert done.returncode == 0, done.stderr
    assert declaring - set(json.loads(done.stdout)) == set()


def test_docs_pecas_lists_every_piece_as_generated() -> None:
    """docs/pecas.md (table key → the class that reads it) is what the declarations give now."""
    declared = {reader for _, reader in pieces_doc.rows()}
    assert {"companion.engine.procedures.forced_march.ForcedMarch",
            "companion.voice.config.VoiceData"} <= declared
    assert ("viagem.tabela_b", "companion.engine.procedures.forced_march.ForcedMarch") \
        in pieces_doc.rows()
    written = pieces_doc.DOC.read_text(encoding="utf-8")
    assert written == pieces_doc.render(), (
        f"docs/pecas.md is stale: regenerate it with `{pieces_doc.COMMAND}`")
