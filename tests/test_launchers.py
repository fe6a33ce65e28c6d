"""The double-click launchers and the README's install lines, as a GM meets them.

The quick tests read the scripts and the launcher's logic (companion/cli/launcher.py, the one
both scripts run). The slow ones (marked `slow`, run by ./run.sh test) install for real with uv
from PyPI and a Python already on this machine, into a temporary home folder with a space and
an accent in its path, from the folder a repository's "Download ZIP" makes (`git archive
--prefix=<name>-main/`); uv's cache is one kept in .venv, so only the first run downloads.
Servers run inside a network namespace (`unshare -n`, root only): loopback alone, which is
also a laptop on no network.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
import yaml

from companion.cli import launcher
from tests.launchers_helpers import (  # noqa: F401
    ROOT,
    VERSION,
    _attribute,
    _mesa,
    _in_netns,
    _browser_stub,
    _rows,
    _start_block,
    _clean_env,
    _unpacked,
    _launch,
    _installed_version,
)


# ---------------------------------------------------------------------- the scripts as text

def test_shell_scripts_keep_lf_and_the_windows_launcher_crlf() -> None:
    assert _attribute("run.sh", "eol") == "lf"
    assert _attribute("Mesa.command", "eol") == "lf"
    assert _attribute("Mesa.cmd", "eol") == "crlf"


def test_the_mac_launcher_is_an_executable_bash_script() -> None:
    mode = subprocess.run(["git", "ls-files", "-s", "Mesa.command"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.split()[0]
    assert mode == "100755"
    assert subprocess.run(["bash", "-n", str(ROOT / "Mesa.command")]).returncode == 0


def test_both_launchers_run_the_one_launcher_then_the_installed_mesa() -> None:
    for name in ("Mesa.cmd", "Mesa.command"):
        text = (ROOT / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        assert "uv run --no-project --python" in text, name
        assert "companion" in text and "launcher.py" in text, name
        assert "uv tool dir --bin" in text, name  # the mesa uv installed, wherever uv puts it
        assert "--quiet" not in text and "| sh" not in text, name  # progress; statuses checked


def test_the_windows_launcher_speaks_portuguese_with_accents() -> None:
    raw = (ROOT / "Mesa.cmd").read_bytes()
    text = raw.decode("utf-8")  # saved as UTF-8 ...
    assert not raw.startswith(b"\xef\xbb\xbf")  # ... without a BOM (cmd would read it as a command)
    assert text.index("chcp 65001") < text.index("\necho ")  # the code page before any line shown
    assert "Não consegui" in text and "Nao consegui" not in text
    assert 'if "%STATUS%"=="3"' in text  # the launcher's own failure, said once


def test_no_file_a_gm_reads_sends_them_to_pip_install_e() -> None:
    found = [str(path.relative_to(ROOT)) for folder in ("tables", "companion", "web")
             for path in (ROOT / folder).rglob("*") if path.is_file()
             and path.suffix in (".yaml", ".py", ".html", ".js", ".css", ".md", ".json", ".txt")
             and "pip install -e" in path.read_text(encoding="utf-8")]
    assert found == []


# ---------------------------------------------------------------------- the launcher's logic

def test_the_launcher_reads_its_words_as_yaml_does_and_fills_them_as_jinja_does() -> None:
    read = launcher.read_words()
    with launcher.WORDS.open(encoding="utf-8") as file:
        assert read == yaml.safe_load(file)
    values = {"versao": "0.3.0", "instalada": "0.2.0", "extras": " com voz", "qual": "a fala",
              "motivo": "sem internet", "erro": "x", "pasta": "C:\\Mesa", "voz": "sim",
              "fala": "não"}
    for code, text in read.items():
        assert "{%" not in text and "|" not in text.replace("||", ""), code
        assert launcher.render(read, code, **values) == jinja2.Template(text).render(**values)


def test_versions_compare_as_numbers() -> None:
    assert launcher.version_key("0.10.0") > launcher.version_key("0.9.1")
    assert launcher.version_key("0.2.0") == launcher.version_key("0.2.0")
    assert launcher.version_key("1.0.0") > launcher.version_key("0.99.99")


@pytest.mark.parametrize("said, code", [
    (["error: Failed to fetch: `https://pypi.org/simple/flask/`",
      "  Caused by: dns error: failed to lookup address information"], "motivo_internet"),
    (["× No solution found when resolving dependencies:",
      "╰─▶ Because vosk has no wheels with a matching platform tag (e.g., `win_arm64`)"],
     "motivo_plataforma"),
    (["error: Distribution not found at: file:///x"], "motivo_outro"),
])
def test_why_an_install_failed_is_said_in_portuguese(said: list[str], code: str) -> None:
    words = launcher.read_words()
    reason = launcher.why(said, words)
    expected = launcher.render(words, code, qual="", erro=said[-1].strip())
    assert reason == expected


def test_mesa_version_says_the_version_and_the_extras() -> None:
    said = _mesa("--version")
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == f"Mesa {VERSION} (voz: instalada; fala: instalada)"


def test_mesa_atualizar_says_what_updating_a_zip_install_is() -> None:
    said = _mesa("atualizar")
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith(f"Mesa {VERSION} instalado. Para atualizar: baixe o zip novo")
    assert said.stdout.count("\n") == 1


def test_mesa_opens_the_gm_page_in_the_browser_with_the_gm_link(started: dict) -> None:
    gm = [line for line in started["output"] if "/mestre#token=" in line]
    assert len(gm) == 1, started["output"]
    link = gm[0].split(": ")[-1].strip()
    assert started["opened"] == [link]
    assert started["status"] == 0


def test_mesa_on_no_network_says_no_phone_can_reach_it(started: dict) -> None:
    text = "\n".join(started["output"])
    assert "aviso: sem rede (127.0.0.1): celular nenhum alcança este computador." in text
    assert "Conecte-o ao Wi-Fi da mesa" in text


def test_the_start_block_fits_an_80_by_24_window(started: dict) -> None:
    block = _start_block(started["output"])
    shown = "\n".join(block)
    assert "Jogadores: abram no celular http://" in shown and "Tela da mesa: http://" in shown
    assert "█" not in shown and "▀" not in shown  # the QR code is on the pages
    assert _rows(block) <= 23, block  # and the shell's prompt line above it


@pytest.mark.parametrize("base, windows", [("http://192.168.100.200:65535", True),
                                           ("http://127.0.0.1:8765", False)])
def test_each_line_of_the_start_block_fits_80_columns(base: str, windows: bool) -> None:
    from companion.rules.loader import load_rules
    from companion.server import qr
    text = qr.banner(qr.Links(base, "x" * 22), load_rules().narration, windows=windows)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert ("Firewall" in text) is windows and ("sem rede" in text) is not windows


def test_mesa_sem_navegador_opens_nothing(tmp_path: Path) -> None:
    stub, opened = _browser_stub(tmp_path)
    env = {**_clean_env(), "HOME": str(tmp_path), "BROWSER": str(stub)}
    result = _in_netns([str(Path(sys.executable).parent / "mesa"), "--sem-navegador"], env)
    assert result["ready_after"] is not None, result["output"]
    assert not opened.exists()


@pytest.mark.slow
def test_the_first_run_installs_with_progress_and_says_the_version(first_run: dict) -> None:
    done = first_run["done"]
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert f"Instalando o Mesa {VERSION}" in out
    assert re.search(r"Installed \d+ packages|Installed 2 executables", out), out  # uv's lines
    assert f"Mesa {VERSION} instalado com voz e fala." in out
    assert f"Mesa {VERSION} (voz: instalada; fala: instalada)" in out  # mesa --version ran
    print(f"primeira instalação: {first_run['took']:.1f} s")


@pytest.mark.slow
def test_the_second_run_offline_installs_nothing_and_starts_in_seconds(first_run: dict,
                                                                        machine: dict) -> None:
    home = first_run["home"]
    tool = home / ".local" / "share" / "uv" / "tools" / "mesa"
    before = sorted(p.name for p in tool.rglob("*.dist-info"))
    stamp = (tool / "uv-receipt.toml").stat().st_mtime_ns
    done, took = _launch(first_run["folder"], home, machine, "--version", offline=True)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert f"Mesa {VERSION} já instalado; ligando." in out and "Instalando" not in out
    assert f"Mesa {VERSION} (voz: instalada; fala: instalada)" in out
    assert (tool / "uv-receipt.toml").stat().st_mtime_ns == stamp
    assert sorted(p.name for p in tool.rglob("*.dist-info")) == before
    print(f"segunda vez, sem rede: {took:.1f} s (primeira: {first_run['took']:.1f} s)")
    assert took < 20


@pytest.mark.slow
def test_an_older_folders_launcher_never_goes_back(first_run: dict, machine: dict,
                                                   tmp_path: Path) -> None:
    older = _unpacked(machine, tmp_path / "zip antigo", version="0.0.1")
    done, _ = _launch(older, first_run["home"], machine, "--version", offline=True)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert (f"Esta pasta tem o Mesa 0.0.1, mais antigo que o instalado ({VERSION}): "
            f"continua o {VERSION}.") in out
    assert _installed_version(first_run["home"], machine).startswith(f"Mesa {VERSION} ")
