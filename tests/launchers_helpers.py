"""Helpers shared by the test_launchers test modules."""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from uv import find_uv_bin

from companion.cli import launcher


ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".venv" / "cache-uv-lancador"  # kept between runs: a warm cache is quick
NAME = "mesa-main"  # the folder "Download ZIP" makes for a repository called mesa
VERSION = launcher.folder_version(ROOT)


def _attribute(path: str, name: str) -> str:
    done = subprocess.run(["git", "check-attr", name, "--", path], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip().rsplit(": ", 1)[-1]


# ---------------------------------------------------------------------- mesa itself

def _mesa(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "mesa"), *args],
                          capture_output=True, text=True, timeout=120, env=env)


def _netns() -> list[str]:
    """The command prefix of a new network namespace (loopback only)."""
    if os.geteuid() != 0:
        pytest.skip("a network namespace (unshare -n) needs root here")
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"unshare -n is not allowed here: {probe.stderr.strip()}")
    return ["unshare", "-n", sys.executable, str(ROOT / "tests" / "netns_run.py")]


def _in_netns(command: list[str], env: dict[str, str], cwd: Path | None = None,
              pages: tuple[str, ...] = ()) -> dict:
    asked = {"command": command, "env": env, "cwd": str(cwd) if cwd else None,
             "pages": list(pages), "timeout": 240}
    done = subprocess.run([*_netns(), json.dumps(asked)], capture_output=True, text=True,
                          timeout=400)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _browser_stub(folder: Path) -> tuple[Path, Path]:
    """A BROWSER that writes down the link it was given."""
    stub, opened = folder / "navegador", folder / "aberto.txt"
    stub.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n', encoding="utf-8")
    stub.chmod(0o755)
    return stub, opened


def _rows(lines: list[str], columns: int = 80) -> int:
    """How many rows of a terminal `columns` wide the lines take."""
    return sum(max(1, math.ceil(len(line) / columns)) for line in lines)


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """`mesa` started as the GM starts it, on a laptop with no network, a stub browser."""
    place = tmp_path_factory.mktemp("ligar")
    home = place / "Usuário Mestre"
    home.mkdir()
    stub, opened = _browser_stub(place)
    env = {**_clean_env(), "HOME": str(home), "BROWSER": str(stub)}
    result = _in_netns([str(Path(sys.executable).parent / "mesa")], env, cwd=home)
    result["opened"] = opened.read_text(encoding="utf-8").split() if opened.exists() else []
    return result


def _start_block(output: list[str]) -> list[str]:
    return output[:next(i for i, line in enumerate(output) if "encerrado" in line)]


# ---------------------------------------------------------------------- installs (slow)

def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without what points Python or uv elsewhere (the checkout, a venv, the
    GM's folders, uv's own settings)."""
    kept = {key: value for key, value in os.environ.items()
            if not key.startswith(("PYTHON", "XDG_", "VIRTUAL_ENV", "COMPANION_", "UV_",
                                   "BROWSER"))}
    return {**kept, "PYTHONUNBUFFERED": "1", **extra}


@pytest.fixture(scope="session")
def machine(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """What the install tests share: a bin folder with uv (from PyPI) alone, the environment
    a fresh GM account has (HOME set per test), the archive of this checkout."""
    place = tmp_path_factory.mktemp("maquina")
    bin_dir = place / "bin"
    bin_dir.mkdir()
    shutil.copy2(find_uv_bin(), bin_dir / "uv")
    CACHE.mkdir(parents=True, exist_ok=True)
    stub, opened = _browser_stub(place)
    env = _clean_env(PATH=f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin",
                     UV_CACHE_DIR=str(CACHE), UV_PYTHON_DOWNLOADS="never",
                     UV_PYTHON=getattr(sys, "_base_executable", sys.executable),
                     BROWSER=str(stub))
    # the tree as committed, with the changes not committed yet (what a zip of it would hold)
    tree = subprocess.run(["git", "stash", "create"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip() or "HEAD"
    archive = place / f"{NAME}.tar"
    subprocess.run(["git", "archive", f"--prefix={NAME}/", "-o", str(archive), tree],
                   cwd=ROOT, check=True)
    return {"env": env, "archive": archive, "place": place, "opened": opened}


def _unpacked(machine: dict, home: Path, version: str | None = None,
              speech: str | None = None) -> Path:
    """The zip unpacked into home's Downloads; its version or its speech extra changed."""
    downloads = home / "Downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-xf", str(machine["archive"]), "-C", str(downloads)], check=True)
    folder = downloads / NAME
    project = folder / "pyproject.toml"
    text = project.read_text(encoding="utf-8")
    if version:
        text = text.replace(f'version = "{VERSION}"', f'version = "{version}"', 1)
    if speech:
        text = text.replace('  "piper-tts>=1.3",\n', f'  "{speech}",\n', 1)
    project.write_text(text, encoding="utf-8")
    return folder


def _launch(folder: Path, home: Path, machine: dict, *args: str,
            offline: bool = False) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {**machine["env"], "HOME": str(home)}
    command = ["bash", str(folder / "Mesa.command"), *args]
    if offline:
        _netns()  # says why not, when not
        command = ["unshare", "-n", *command]
    began = time.monotonic()
    done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=900)
    return done, time.monotonic() - began


def _installed_version(home: Path, machine: dict) -> str:
    mesa = home / ".local" / "bin" / "mesa"
    return subprocess.run([str(mesa), "--version"], env={**machine["env"], "HOME": str(home)},
                          capture_output=True, text=True, timeout=120).stdout.strip()


@pytest.fixture(scope="session")
def first_run(machine: dict) -> dict:
    """Mesa.command the first time (with the internet), `--version` after it (no server)."""
    home = machine["place"] / "Usuário Mestre"
    folder = _unpacked(machine, home)
    done, took = _launch(folder, home, machine, "--version")
    return {"home": home, "folder": folder, "done": done, "took": took}


def _readme_line(language: str, name: str) -> str:
    """The one line of the README's Instalar section in a `language` block naming `name`."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Instalar\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    blocks = re.findall(rf"```{language}\n(.*?)\n\s*```", section, re.DOTALL)
    found = [block.strip() for block in blocks if name in block]
    assert len(found) == 1 and "\n" not in found[0], found
    return found[0]
