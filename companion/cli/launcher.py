"""What the double-click launchers do before `mesa` starts (Mesa.cmd, Mesa.command): install
the Mesa of their folder once, and update forward only.

Run by the launcher as `uv run --no-project --python 3.12 companion/cli/launcher.py`, before the
package is installed: standard library only (it imports nothing of companion), its words read
from tables/narracao/instalacao.yaml by a small reader of its own (each text on one line, in
double quotes, only `{{ value }}` in it; tests/test_launchers.py checks that YAML reads the
same). One implementation for Windows, macOS and Linux:

- nothing installed: the folder's Mesa with the voice and speech extras, else the ones that
  install (each one left out said, with why: no internet, no package for this computer);
  uv's progress shown (the first install takes minutes);
- the folder's version newer than the installed one: the same extras as before (from uv's cache
  first, then the internet); when that fails the installed Mesa stays, said;
- the same version, or an older folder: nothing installed (an offline start takes seconds); an
  older folder is said, never installed.

Exit status: 0 when a Mesa is installed (the launcher then starts `mesa`), SAID (3) when not,
with the reason said.
"""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Iterable, Sequence

TOOL = "mesa"  # before 0.2.0 the tool was "companion": --force takes over its `mesa`
EXTRAS = ("voz", "fala")
EXTRA_NAMES = {"voz": "a_voz", "fala": "a_fala"}  # their codes in instalacao.yaml
SAID = 3
RETRY = "tentar-extras"  # in the tool's folder: extras left out for want of the internet
FOLDER = Path(__file__).resolve().parents[2]
WORDS = FOLDER / "tables" / "narracao" / "instalacao.yaml"
LINE = re.compile(r'^([a-z_]+):\s*(".*")\s*$')
PACKAGE_LINE = re.compile(r"^ [-+~] ")  # uv's list of every package installed: not shown
FIELD = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
# What uv says when the network is missing, and when no package fits this computer.
OFFLINE = ("offline", "failed to fetch", "dns error", "error sending request", "connect error",
           "could not connect", "network is unreachable", "failed to lookup address",
           "temporary failure in name resolution", "connection refused", "timed out")
NO_PACKAGE = ("no solution found", "no version of", "no wheels", "doesn't have a source "
              "distribution or wheel", "no matching distribution", "only has wheels for",
              "not available for")


def read_words(path: Path = WORDS) -> dict[str, str]:
    """The code → text map of a flat narration file (one double-quoted text per line)."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = LINE.match(line)
        if match:
            found[match.group(1)] = json.loads(match.group(2))
    return found


def render(words: dict[str, str], code: str, **values: object) -> str:
    """The text of `code` with each {{ value }} filled in."""
    return FIELD.sub(lambda field: str(values.get(field.group(1), "")), words[code])


def version_key(version: str) -> tuple[int, ...]:
    """A version as numbers to compare (0.10.0 after 0.9.1)."""
    return tuple(int(part) for part in re.findall(r"\d+", version))


def folder_version(folder: Path = FOLDER) -> str:
    with (folder / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def _uv(uv: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([uv, *args], capture_output=True, text=True, encoding="utf-8",
                          errors="replace", timeout=120)


def tool_folder(uv: str) -> Path:
    """Where uv keeps the installed Mesa (removed with it by `uv tool uninstall mesa`)."""
    return Path(_uv(uv, "tool", "dir").stdout.strip()) / TOOL


def installed(uv: str) -> tuple[str, tuple[str, ...]] | None:
    """The installed Mesa's version and extras (uv's tool list and receipt), or None."""
    listed = _uv(uv, "tool", "list")
    match = re.search(rf"^{TOOL} v(\S+)", listed.stdout, re.MULTILINE)
    if listed.returncode != 0 or match is None:
        return None
    extras: tuple[str, ...] = ()
    receipt = tool_folder(uv) / "uv-receipt.toml"
    try:
        with receipt.open("rb") as file:
            wanted = tomllib.load(file)["tool"]["requirements"]
        extras = tuple(next((r.get("extras", []) for r in wanted if r.get("name") == TOOL), []))
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    return match.group(1), tuple(e for e in EXTRAS if e in extras)


def install(uv: str, extras: Sequence[str], offline: bool, show: bool,
            folder: Path = FOLDER) -> tuple[bool, list[str]]:
    """`uv tool install` of the folder with these extras; (worked, what uv said). With `show`
    uv's progress lines are passed on as they come (its error lines are not: the launcher says
    why in Portuguese)."""
    wanted = f"{TOOL}[{','.join(extras)}]" if extras else TOOL
    command = [uv, "tool", "install", "--force", "--reinstall-package", TOOL,
               "--python", sys.executable,
               *(["--offline"] if offline else []), f"{wanted} @ {folder}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, encoding="utf-8", errors="replace")
    said: list[str] = []
    failing = False
    assert process.stdout is not None
    for line in process.stdout:
        said.append(line.rstrip())
        failing = failing or line.lstrip().startswith(("error", "×", "x "))
        if show and not failing and not PACKAGE_LINE.match(line):
            print(line, end="", flush=True)
    return process.wait() == 0, said


def why(said: Iterable[str], words: dict[str, str]) -> str:
    """Why an install failed, in the GM's words: no internet, no package here, or uv's line."""
    lines = [line.strip() for line in said if line.strip()]
    text = "\n".join(lines).lower()
    if any(sign in text for sign in OFFLINE):
        return render(words, "motivo_internet")
    if any(sign in text for sign in NO_PACKAGE):
        return render(words, "motivo_plataforma", qual=_computer())
    errors = [line for line in lines if line.startswith(("error", "×", "╰─▶", "hint"))]
    return render(words, "motivo_outro", erro=(errors or lines or ["?"])[-1])


def _computer() -> str:
    """The computer named when it is one the voice packages leave out (Windows on ARM)."""
    machine = platform.machine().lower()
    if sys.platform == "win32" and machine in ("arm64", "aarch64"):
        return " (Windows no ARM)"
    return ""


def _with(extras: Sequence[str], words: dict[str, str]) -> str:
    if set(EXTRAS) <= set(extras):
        return render(words, "com_voz_e_fala")
    return render(words, "com_voz" if "voz" in extras else "sem_voz")


def _attempt(uv: str, extras: Sequence[str], show: bool) -> tuple[bool, list[str]]:
    """From uv's cache first (no internet, quick), then with the internet; uv's progress shown
    for both (its error lines are not)."""
    done, said = install(uv, extras, offline=True, show=show)
    if done:
        return done, said
    return install(uv, extras, offline=False, show=show)


def _left_out(extras: Sequence[str], reason: str, words: dict[str, str]) -> None:
    for extra in EXTRAS:
        if extra not in extras:
            print(render(words, "sem_extra", qual=render(words, EXTRA_NAMES[extra]),
                         motivo=reason),
                  flush=True)


def first_install(uv: str, version: str, words: dict[str, str]) -> int:
    """The folder's Mesa with the most extras that install; each one left out said (and tried
    again at the next start when the internet was missing)."""
    print(render(words, "instalando", versao=version), flush=True)
    reason, no_internet = "", render(words, "motivo_internet")
    for extras in (EXTRAS, ("voz",), ("fala",), ()):
        if reason == no_internet:  # without it only uv's cache can help (quick)
            done, said = install(uv, extras, offline=True, show=True)
        else:
            done, said = _attempt(uv, extras, show=True)
        if done:
            _left_out(extras, reason, words)
            if extras != EXTRAS and reason == no_internet:
                (tool_folder(uv) / RETRY).write_text(version, encoding="utf-8")
            print(render(words, "pronto", versao=version, extras=_with(extras, words)),
                  flush=True)
            return 0
        reason = reason or why(said, words)
    print(render(words, "nao_instalou", motivo=reason), flush=True)
    return SAID


def update(uv: str, version: str, before: str, extras: tuple[str, ...],
           words: dict[str, str]) -> int:
    """The folder's newer Mesa with every extra, else with the extras it had; else it stays."""
    print(render(words, "atualizando", versao=version, instalada=before), flush=True)
    tries = [EXTRAS] if extras == EXTRAS else [EXTRAS, extras]
    reason = ""
    for wanted in tries:
        done, said = _attempt(uv, wanted, show=True)
        if done:
            _left_out(wanted, reason, words) if wanted != EXTRAS else None
            print(render(words, "pronto", versao=version, extras=_with(wanted, words)),
                  flush=True)
            return 0
        reason = reason or why(said, words)
    print(render(words, "nao_atualizou", versao=version, instalada=before, motivo=reason),
          flush=True)
    return 0


def retry_extras(uv: str, version: str, extras: tuple[str, ...],
                 words: dict[str, str]) -> int:
    """The extras a first install without the internet left out, tried again (online)."""
    done, said = install(uv, EXTRAS, offline=False, show=True)
    if done:
        (tool_folder(uv) / RETRY).unlink(missing_ok=True)
        print(render(words, "pronto", versao=version, extras=_with(EXTRAS, words)), flush=True)
    else:
        _left_out(extras, why(said, words), words)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    words = read_words()
    if not (FOLDER / "pyproject.toml").is_file():
        print(render(words, "sem_pyproject", pasta=FOLDER), flush=True)
        return SAID
    uv = os.environ.get("UV") or shutil.which("uv") or "uv"
    version = folder_version()
    current = installed(uv)
    if current is None:
        return first_install(uv, version, words)
    before, extras = current
    if version_key(version) > version_key(before):
        return update(uv, version, before, extras, words)
    if version_key(version) == version_key(before) and (tool_folder(uv) / RETRY).is_file():
        return retry_extras(uv, version, extras, words)
    code = "ja_instalado" if version_key(version) == version_key(before) else "pasta_antiga"
    print(render(words, code, versao=version, instalada=before), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
