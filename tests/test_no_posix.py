"""The whole program without the POSIX-only standard modules, as on Windows: fcntl, termios,
resource, grp and pwd set to None in sys.modules before anything is imported (an import of
them then fails). `serve` starts, a phone page loads, a command runs, and a second server on
the same campaign is refused."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import requests

from tests.process_helpers import free_port, read_until

ROOT = Path(__file__).resolve().parents[1]
POSIX_ONLY = ("fcntl", "termios", "resource", "grp", "pwd")
TOKEN = "segredo-sem-posix"
# Run companion's command line with the POSIX-only modules gone; the first line proves it.
BOOTSTRAP = (
    "import sys\n"
    f"for name in {POSIX_ONLY!r}:\n"
    "    sys.modules[name] = None\n"
    "try:\n"
    "    import fcntl\n"
    "except ImportError:\n"
    "    print('sem os módulos POSIX', flush=True)\n"
    "from companion.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _companion(*args: str) -> list[str]:
    return [sys.executable, "-c", BOOTSTRAP, *args]


def _serve(db: Path, port: int) -> list[str]:
    return _companion("serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db),
                      "--gm-token", TOKEN, "--modelo", str(db.parent / "sem-modelo"))


def test_without_posix_modules_serve_runs_and_holds_its_campaign(tmp_path: Path) -> None:
    db = tmp_path / "mesa.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    port = free_port()
    process = subprocess.Popen(_serve(db, port), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=tmp_path, env=env)
    try:
        banner = read_until(process, "Ctrl+C", timeout=60)
        assert banner.startswith("sem os módulos POSIX")
        base = f"http://127.0.0.1:{port}"
        phone = requests.get(f"{base}/jogador", timeout=10)
        assert phone.status_code == 200 and "Jogador" in phone.text
        gm = {"Authorization": f"Bearer {TOKEN}"}
        ran = requests.post(f"{base}/api/command", json={"text": "rolar 2d6"}, headers=gm,
                            timeout=10)
        assert ran.status_code == 200 and "2d6" in str(ran.json()["events"])
        second = subprocess.run(_serve(db, free_port()), capture_output=True, text=True,
                                timeout=60, cwd=tmp_path, env=env)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "já está aberta em outro servidor" in second.stderr
        assert f"{base}/mestre" in second.stderr
    finally:
        process.kill()
        process.wait()


def test_without_posix_modules_every_action_answers_help() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(_companion("--help"), capture_output=True, text=True, timeout=60,
                            env=env)
    assert result.returncode == 0, result.stderr
    assert "uso: companion" in result.stdout
