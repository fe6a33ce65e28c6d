"""`companion serve` with voice: the one start line when voice is off, and `--https` with the
certificate it makes (browsers only give a page its microphone over https or on localhost)."""
from __future__ import annotations

import os
import signal
import ssl
import subprocess
import sys
from pathlib import Path

import requests

from tests.process_helpers import free_port, read_until

ROOT = Path(__file__).resolve().parents[2]


def test_https_serve_with_voice_off_says_how_to_turn_it_on(tmp_path: Path) -> None:
    port = free_port()
    empty = tmp_path / "sem-modelo"
    empty.mkdir()
    command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(tmp_path / "mesa.db"), "--seed", "3",
               "--gm-token", "segredo-123-do-mestre", "--https", "--modelo", str(empty)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path / "dados")},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        banner = read_until(process, "voz desligada", timeout=60)
        assert f"https://127.0.0.1:{port}/jogador" in banner
        voice_lines = [line for line in banner.splitlines() if "voz desligada" in line]
        assert len(voice_lines) == 1
        assert "mesa modelo" in voice_lines[0] and "pip" not in voice_lines[0]
        # in the GM's data folder (XDG_DATA_HOME here), not beside the campaign or in the cwd
        folder = tmp_path / "dados" / "Mesa" / "certificado"
        cert = folder / "mesa-cert.pem"
        assert cert.is_file() and (folder / "mesa-key.pem").stat().st_mode & 0o077 == 0
        assert not (tmp_path / "mesa-cert.pem").exists() and not (ROOT / "mesa-cert.pem").exists()
        page = requests.get(f"https://127.0.0.1:{port}/jogador", verify=str(cert), timeout=10)
        assert page.status_code == 200 and "Jogador" in page.text
        try:
            requests.get(f"https://127.0.0.1:{port}/jogador", timeout=10)
        except requests.exceptions.SSLError:
            pass  # self-signed: not trusted by default, as the README warns
        else:
            raise AssertionError("um certificado próprio não deveria ser aceito sem aviso")
        shown = ssl._ssl._test_decode_cert(str(cert))  # type: ignore[attr-defined]
        assert ("IP Address", "127.0.0.1") in shown["subjectAltName"]
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=15)
        assert process.returncode == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
