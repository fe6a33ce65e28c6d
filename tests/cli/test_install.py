"""Mesa as a GM installs it: the wheel built and installed (not editable) into a fresh venv,
`mesa` run from an unrelated folder with a temporary HOME; `python -m companion --help`; and
the dependency set resolvable from wheels alone for Windows and macOS.

These need the network to PyPI (hatchling to build, the dependencies to install or resolve;
uv's cache makes a second run fast): they are CI tests, never skipped.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
import requests
from uv import find_uv_bin

from tests.process_helpers import free_port, read_until


ROOT = Path(__file__).resolve().parents[2]
UV = find_uv_bin()
TOKEN = "segredo-do-mestre"


def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without anything that points Python at the checkout or moves the
    GM's folders (PYTHONPATH, XDG_*, a virtualenv, the tables override)."""
    kept = {key: value for key, value in os.environ.items()
            if not key.startswith(("PYTHON", "XDG_", "VIRTUAL_ENV", "COMPANION_"))}
    return {**kept, "PYTHONUNBUFFERED": "1", **extra}


def _bin(venv: Path, name: str) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the wheel of this checkout installed in it (not editable)."""
    place = tmp_path_factory.mktemp("instalado")
    built = subprocess.run([UV, "build", "--wheel", "--out-dir", str(place / "dist"), str(ROOT)],
                           capture_output=True, text=True, timeout=300, env=_clean_env())
    assert built.returncode == 0, built.stderr
    wheel = next((place / "dist").glob("mesa-*.whl"))
    venv = place / "venv"
    made = subprocess.run([UV, "venv", "--python", sys.executable, str(venv)],
                          capture_output=True, text=True, timeout=120, env=_clean_env())
    assert made.returncode == 0, made.stderr
    done = subprocess.run([UV, "pip", "install", "--python", str(_bin(venv, "python")),
                           str(wheel)], capture_output=True, text=True, timeout=600,
                          env=_clean_env())
    assert done.returncode == 0, done.stderr
    yield venv


def test_the_wheel_carries_the_tables_and_the_pages(installed: Path) -> None:
    found = subprocess.run(
        [str(_bin(installed, "python")), "-c",
         "from companion.tables.places import program_folder as f; "
         "print(f('tables')); print(f('web')); "
         "from companion.store.event_json import CURRENT, dictionary; dictionary(CURRENT)"],
        capture_output=True, text=True, timeout=60, env=_clean_env(), cwd=installed)
    assert found.returncode == 0, found.stderr
    tables, web = (Path(line) for line in found.stdout.splitlines())
    assert installed in tables.parents and (tables / "relatorio.yaml").is_file()
    assert installed in web.parents and (web / "templates" / "jogador.html").is_file()


def test_installed_mesa_serves_from_any_folder_with_the_campaign_in_the_gms_folder(
        installed: Path, tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "casa", tmp_path / "outra-pasta"
    home.mkdir()
    elsewhere.mkdir()
    port = free_port()
    process = subprocess.Popen(
        [str(_bin(installed, "mesa")), "--host", "127.0.0.1", "--port", str(port),
         "--gm-token", TOKEN], cwd=elsewhere, env=_clean_env(HOME=str(home)),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        banner = read_until(process, "Ctrl+C", timeout=120)
        base = f"http://127.0.0.1:{port}"
        assert f"{base}/jogador" in banner
        for page in ("/jogador", "/mesa", "/static/css/mesa.css", "/static/js/common.js"):
            assert requests.get(f"{base}{page}", timeout=10).status_code == 200, page
        gm = {"Authorization": f"Bearer {TOKEN}"}
        assert requests.get(f"{base}/api/state", headers=gm, timeout=10).status_code == 200
        ran = requests.post(f"{base}/api/command", json={"text": "rolar 1d6"}, headers=gm,
                            timeout=10)
        assert ran.status_code == 200 and "1d6" in str(ran.json()["events"])
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=30)
        assert process.returncode == 0, rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    campaign = home / ".local" / "share" / "Mesa" / "campanhas" / "mesa.db"
    assert campaign.is_file() and str(campaign) in banner
    assert list(elsewhere.iterdir()) == []  # nothing in the folder the GM was in
    assert not [p for p in installed.rglob("*.db")]  # nor in the program's


def test_installed_commands_answer_help(installed: Path) -> None:
    for command in ([str(_bin(installed, "mesa")), "--help"],
                    [str(_bin(installed, "companion")), "--help"],
                    [str(_bin(installed, "python")), "-m", "companion", "--help"]):
        result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                                env=_clean_env(), cwd=installed)
        assert result.returncode == 0, (command, result.stderr)
        assert "uso:" in result.stdout


def test_python_dash_m_companion_help_exits_zero() -> None:
    result = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True,
                            text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "uso: companion" in result.stdout and "serve" in result.stdout


def test_an_older_python_is_refused_in_one_portuguese_line() -> None:
    """Every entry point imports the package first: a Python older than 3.11 (faked here by
    its version_info) stops there with one line, exit 2, no traceback."""
    for entry in ("companion.cli", "companion.cli.mesa", "companion.__main__"):
        result = subprocess.run(
            [sys.executable, "-c", "import sys; sys.version_info = (3, 10, 12, 'final', 0); "
             f"import {entry}"], capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert result.returncode == 2, entry
        assert result.stderr.splitlines() == [
            "erro: o Mesa precisa do Python 3.11 ou mais novo, e este é o 3.10; instale um "
            "Python novo (python.org) ou use o instalador do README (uv tool install), que "
            "traz o seu"]


# Packages PyPI has only as a source archive, all pure Python (they build anywhere, no compiler):
# vosk's subtitle helper; num2words' argument parser (docopt, one file).
PURE_PYTHON_SDISTS = frozenset({"srt", "docopt"})
PLATFORMS = ("x86_64-pc-windows-msvc", "aarch64-apple-darwin", "x86_64-apple-darwin")


def _compile(platform: str, python: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [UV, "pip", "compile", "--quiet", "--no-header", "--no-annotate",
         str(ROOT / "pyproject.toml"), "--extra", "voz", "--extra", "fala",
         "--python-platform", platform, "--python-version", python, *options],
        capture_output=True, text=True, timeout=300, env=_clean_env())


@pytest.mark.parametrize("python", ["3.11", "3.12", "3.13"])
@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_dependencies_and_extras_install_from_wheels(platform: str, python: str) -> None:
    """Every dependency, the voice and speech extras included, has a wheel for the GM's
    laptop (no compiler there), except the pure-Python source archives named above."""
    listed = _compile(platform, python)
    assert listed.returncode == 0, listed.stderr
    names = [line.split("==")[0] for line in listed.stdout.splitlines() if "==" in line]
    assert {"vosk", "sounddevice", "cryptography", "piper-tts", "flask"} <= set(names)
    binary = [option for name in names if name not in PURE_PYTHON_SDISTS
              for option in ("--only-binary", name)]
    wheels_only = _compile(platform, python, *binary)
    assert wheels_only.returncode == 0, wheels_only.stderr
