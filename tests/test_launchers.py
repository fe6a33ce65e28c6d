"""The double-click launchers and the line endings that keep the scripts running."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _attribute(path: str, name: str) -> str:
    done = subprocess.run(["git", "check-attr", name, "--", path], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip().rsplit(": ", 1)[-1]


def test_shell_scripts_keep_lf_and_the_windows_launcher_crlf() -> None:
    assert _attribute("run.sh", "eol") == "lf"
    assert _attribute("Mesa.command", "eol") == "lf"
    assert _attribute("Mesa.cmd", "eol") == "crlf"


def test_the_mac_launcher_is_an_executable_bash_script() -> None:
    mode = subprocess.run(["git", "ls-files", "-s", "Mesa.command"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.split()[0]
    assert mode == "100755"
    assert subprocess.run(["bash", "-n", str(ROOT / "Mesa.command")]).returncode == 0


def test_both_launchers_install_with_the_extras_best_effort_then_start_mesa() -> None:
    for name in ("Mesa.cmd", "Mesa.command"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "uv tool install" in text and "[voz,fala]" in text and "[voz]" in text, name
        assert "companion @ " in text or 'companion$extras @ ' in text, name
        assert "\nmesa " in text.replace("\r\n", "\n"), name
