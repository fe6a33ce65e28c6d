"""test_launchers.py, continued: the without tests."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import launcher
from tests.launchers_helpers import (  # noqa: F401
    ROOT,
    VERSION,
    _netns,
    _in_netns,
    _clean_env,
    _unpacked,
    _launch,
    _installed_version,
    _readme_line,
)


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
