"""Golden files: seed + script → events, exactly as `companion shell --json` prints them.

A script is tests/golden/scripts/NAME.txt: a `# semente: N` line, other `#` lines are comments,
every other line is sent to the shell as it is. Its expected output is
tests/golden/events/NAME.jsonl. Regenerate after a deliberate change with

    UPDATE_GOLDEN=1 python -m pytest tests/cli/test_golden_events.py

and read the diff before committing it.
"""
from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from companion.session import Session
from companion.cli.shell import run_shell
from companion.tables.files import Tables
from tests.golden_scripts import SCRIPTS, read_script

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def play(tables: Tables, seed: int, lines: list[str]) -> str:
    """What `companion shell --json --seed seed` prints for these lines."""
    session = Session.open(None, seed, tables)
    out = io.StringIO()
    run_shell(session, lines, out, as_json=True)
    session.close()
    return out.getvalue()


def test_there_are_golden_scripts() -> None:
    names = {path.stem for path in SCRIPTS}
    assert {"viagem", "masmorra", "perseguicao"} <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_script_gives_the_golden_events(tables: Tables, script: Path) -> None:
    seed, lines = read_script(script)
    output = play(tables, seed, lines)
    golden = GOLDEN / "events" / f"{script.stem}.jsonl"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(output, encoding="utf-8")
    assert golden.exists(), f"{golden} não existe: gere com UPDATE_GOLDEN=1"
    expected = golden.read_text(encoding="utf-8").splitlines()
    got = output.splitlines()
    for number, (want, have) in enumerate(zip(expected, got), start=1):
        assert json.loads(have) == json.loads(want), f"{golden.name}, linha {number}"
    assert len(got) == len(expected), f"{golden.name}: {len(got)} linhas, esperava {len(expected)}"


PLAYS = [path for path in SCRIPTS if not path.stem.startswith("erros")]


@pytest.mark.parametrize("script", PLAYS, ids=[path.stem for path in PLAYS])
def test_golden_plays_run_without_rejections(tables: Tables, script: Path) -> None:
    """Every line of a play script is accepted (only erros*.txt holds rejected lines)."""
    seed, lines = read_script(script)
    outputs = [json.loads(line) for line in play(tables, seed, lines).splitlines()]
    errors = [item["error"] for item in outputs if "error" in item]
    assert not errors, f"{script.name}: comandos recusados: {errors}"


def test_same_script_twice_gives_the_same_events(tables: Tables) -> None:
    seed, lines = read_script(SCRIPTS[0])
    assert play(tables, seed, lines) == play(tables, seed, lines)
