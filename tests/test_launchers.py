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

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import jinja2
import pytest
import yaml
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


# ---------------------------------------------------------------------- mesa itself

def _mesa(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "mesa"), *args],
                          capture_output=True, text=True, timeout=120, env=env)


def test_mesa_version_says_the_version_and_the_extras() -> None:
    said = _mesa("--version")
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == f"Mesa {VERSION} (voz: instalada; fala: instalada)"


def test_mesa_atualizar_says_what_updating_a_zip_install_is() -> None:
    said = _mesa("atualizar")
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith(f"Mesa {VERSION} instalado. Para atualizar: baixe o zip novo")
    assert said.stdout.count("\n") == 1


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


# ---------------------------------------------------------------------- installs (slow)

def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without what points Python or uv elsewhere (the checkout, a venv, the
    GM's folders, uv's own settings)."""
    kept = {key: value for key, value in os.environ.items()
            if not key.startswith(("PYTHON", "XDG_", "VIRTUAL_ENV", "COMPANION_", "UV_",
                                   "BROWSER"))}
    return {**kept, "PYTHONUNBUFFERED": "1", **extra}


@pytest.fixture(scope="module")
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


@pytest.fixture(scope="module")
def first_run(machine: dict) -> dict:
    """Mesa.command the first time (with the internet), `--version` after it (no server)."""
    home = machine["place"] / "Usuário Mestre"
    folder = _unpacked(machine, home)
    done, took = _launch(folder, home, machine, "--version")
    return {"home": home, "folder": folder, "done": done, "took": took}


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


@pytest.mark.slow
def test_a_newer_folder_whose_speech_cannot_install_keeps_the_installed_mesa_and_says_why(
        first_run: dict, machine: dict, tmp_path: Path) -> None:
    newer = _unpacked(machine, tmp_path / "zip novo", version="99.0.0",
                      speech="piper-tts>=999")
    done, _ = _launch(newer, first_run["home"], machine, "--version")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert f"Atualizando o Mesa {VERSION} para o 99.0.0" in out
    assert ("aviso: não consegui instalar o Mesa 99.0.0 (ainda não há pacote para este "
            f"computador); continua o {VERSION}, com o que já tinha.") in out
    assert _installed_version(first_run["home"], machine) == \
        f"Mesa {VERSION} (voz: instalada; fala: instalada)"


@pytest.mark.slow
def test_a_first_install_without_the_speech_package_says_so_and_keeps_the_voice(
        first_run: dict, machine: dict, tmp_path: Path) -> None:
    home = tmp_path / "Outra Conta"
    folder = _unpacked(machine, home, speech="piper-tts>=999")
    done, _ = _launch(folder, home, machine, "--version")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert ("aviso: a fala do Piper não pôde ser instalada (ainda não há pacote para este "
            "computador); o Mesa liga sem ela.") in out
    assert f"Mesa {VERSION} instalado com voz (sem a fala do Piper)." in out
    assert f"Mesa {VERSION} (voz: instalada; fala: não instalada)" in out


def _readme_line(language: str, name: str) -> str:
    """The one line of the README's Instalar section in a `language` block naming `name`."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Instalar\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    blocks = re.findall(rf"```{language}\n(.*?)\n\s*```", section, re.DOTALL)
    found = [block.strip() for block in blocks if name in block]
    assert len(found) == 1 and "\n" not in found[0], found
    return found[0]


@pytest.mark.slow
def test_the_readmes_line_installs_from_the_zips_folder_and_mesa_serves(
        first_run: dict, machine: dict, tmp_path: Path) -> None:
    """The README's Linux/macOS line, as written, on a fresh account with the zip unpacked in
    Downloads; no network (uv's cache warmed by the first run): the launcher installs from it,
    mesa serves the pages and opens the GM link."""
    line = _readme_line("bash", "Mesa.command")
    home = tmp_path / "Usuária Nova"
    _unpacked(machine, home)
    opened = machine["opened"]
    opened.unlink(missing_ok=True)
    env = {**machine["env"], "HOME": str(home)}
    result = _in_netns(["bash", "-c", line], env, cwd=home, pages=("/jogador", "/mesa"))
    out = "\n".join(result["output"])
    assert f"Mesa {VERSION} instalado com voz e fala." in out, out
    assert result["pages"] == {"/jogador": 200, "/mesa": 200}, out
    gm = next(line for line in result["output"] if "/mestre#token=" in line)
    assert opened.read_text(encoding="utf-8").split() == [gm.split(": ")[-1].strip()]
    assert (home / ".local" / "share" / "Mesa" / "campanhas" / "mesa.db").is_file()


def test_the_readmes_powershell_line_stops_when_mesa_cmd_is_not_found() -> None:
    """Read, not run (no PowerShell here): the line looks for Mesa.cmd and runs it only when
    found, else says so in Portuguese; nothing else is chained after it."""
    line = _readme_line("powershell", "Mesa.cmd")
    assert "Get-ChildItem" in line and "-Filter Mesa.cmd" in line and "-Recurse" in line
    assert re.search(r"if \(\$m\) \{ & \$m\.FullName \} else \{ \"Não achei", line)
    assert line.rstrip().endswith("}")


def test_a_first_start_without_the_internet_says_so_once_in_portuguese(
        machine: dict, tmp_path: Path) -> None:
    """No internet and nothing in uv's cache: one Portuguese line, the window's status 1."""
    home = tmp_path / "Sem Internet"
    folder = _unpacked(machine, home)
    env = {**machine["env"], "UV_CACHE_DIR": str(tmp_path / "cache vazio")}
    done, took = _launch(folder, home, {**machine, "env": env}, "--version", offline=True)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert out.splitlines()[-1] == ("Não consegui instalar o Mesa (sem internet; com ela, o "
                                    "lançador tenta de novo na próxima vez).")
    assert "error" not in out.lower() and "Traceback" not in out
    assert took < 60


def test_without_uv_and_without_the_internet_the_mac_launcher_stops_at_once(
        machine: dict, tmp_path: Path) -> None:
    """The uv installer's download fails: said, and nothing runs after it."""
    home = tmp_path / "Mac Novo"
    folder = _unpacked(machine, home)
    env = {**machine["env"], "PATH": f"/usr/bin{os.pathsep}/bin"}
    done, _ = _launch(folder, home, {**machine, "env": env}, offline=True)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "Não consegui baixar o uv: sem internet? A primeira vez precisa dela." in out
    assert "command not found" not in out and "Instalando o Mesa" not in out


# ---------------------------------------------------------------------- what the GM is told

def test_voice_off_without_vosk_says_to_install_the_voice_not_to_download_a_model(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from companion.rules.loader import load_rules
    from companion.voice import recognizer, service
    real = importlib.util.find_spec
    monkeypatch.setattr(recognizer.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "vosk" else real(name, *rest))
    monkeypatch.setattr(service, "find_model", lambda *args, **kwargs: None)
    voice = service.start_voice(None, load_rules(), None, None)
    assert voice.listener is None
    assert voice.line.startswith("voz desligada: a voz não está instalada neste computador")
    assert "lançador" in voice.line and "mesa modelo" not in voice.line


def test_mesa_modelo_without_the_internet_says_so_and_leaves_no_folder(tmp_path: Path) -> None:
    _netns()  # says why not, when not
    home = tmp_path / "Usuário"
    home.mkdir()
    done = subprocess.run(["unshare", "-n", str(Path(sys.executable).parent / "mesa"),
                           "modelo"], capture_output=True, text=True, timeout=120,
                          env={**_clean_env(), "HOME": str(home)})
    assert done.returncode == 1, done.stderr
    errors = done.stderr.splitlines()
    failed = [line for line in errors if line.startswith("erro:")]
    assert len(failed) == 2, done.stderr  # the Vosk model, then the first file of the voice
    assert all("(sem internet); a primeira vez precisa de internet" in line for line in failed)
    assert "urlopen" not in done.stderr and "Errno" not in done.stderr
    data = home / ".local" / "share"
    assert not (data / "Mesa" / "modelos").exists(), list(data.rglob("*"))  # no empty folder
    assert not data.exists() or not [p for p in data.rglob("*") if p.is_dir()
                                     and not any(p.iterdir())]


def test_the_gm_page_and_the_table_screen_show_the_players_qr_code(server) -> None:
    import requests

    from tests.socket_helpers import SERVER_GM_TOKEN
    for path in (f"/mestre?token={SERVER_GM_TOKEN}", "/mesa"):
        page = requests.get(server.url + path, timeout=10).text
        assert 'src="/qr.svg"' in page, path
    assert "<svg" in requests.get(server.url + "/qr.svg", timeout=10).text


def test_the_gm_page_without_its_link_names_the_link_as_the_terminal_shows_it(server) -> None:
    import html

    import requests
    refused = html.unescape(requests.get(server.url + "/mestre", timeout=10).text)
    assert "/mestre#token=" in refused and "?token=" not in refused
    assert "companion serve" not in refused
    assert "“Mestre (link secreto: não compartilhe…)”" in refused


def test_extras_left_out_for_want_of_the_internet_are_tried_again_at_the_next_start(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The launcher's decisions with uv faked (the real installs are the slow tests above):
    speech missing for want of the internet is said, and the next start tries it again."""
    words = launcher.read_words()
    online = {"speech": False}
    offline_lines = ["error: Failed to fetch: `https://pypi.org/simple/piper-tts/`"]

    def fake_install(uv: str, extras, offline: bool, show: bool, folder: Path = ROOT):
        works = "fala" not in extras or (online["speech"] and not offline)
        return works, [] if works else offline_lines

    monkeypatch.setattr(launcher, "install", fake_install)
    monkeypatch.setattr(launcher, "tool_folder", lambda uv: tmp_path)
    assert launcher.first_install("uv", "0.2.0", words) == 0
    said = capsys.readouterr().out
    assert ("aviso: a fala do Piper não pôde ser instalada (sem internet; com ela, o lançador "
            "tenta de novo na próxima vez); o Mesa liga sem ela.") in said
    assert "Mesa 0.2.0 instalado com voz (sem a fala do Piper)." in said
    assert (tmp_path / launcher.RETRY).is_file()

    monkeypatch.setattr(launcher, "installed", lambda uv: ("0.2.0", ("voz",)))
    monkeypatch.setattr(launcher, "folder_version", lambda folder=ROOT: "0.2.0")
    assert launcher.main() == 0  # still offline: said again, the marker kept
    assert "a fala do Piper não pôde ser instalada" in capsys.readouterr().out
    assert (tmp_path / launcher.RETRY).is_file()
    online["speech"] = True
    assert launcher.main() == 0
    assert "Mesa 0.2.0 instalado com voz e fala." in capsys.readouterr().out
    assert not (tmp_path / launcher.RETRY).exists()
    assert launcher.main() == 0  # nothing left to try: a plain start
    assert capsys.readouterr().out.strip() == "Mesa 0.2.0 já instalado; ligando."
