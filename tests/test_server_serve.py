"""`companion serve` as a real process: the start banner, the pages, Ctrl+C; a busy port."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from companion.server.app import ServerError, serve, start_in_thread
from companion.session import Session
from companion.tables import Tables


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_until(process: subprocess.Popen, marker: str, timeout: float = 20.0) -> str:
    """Read the process's output line by line until marker appears."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                break
            continue
        seen.append(line)
        if marker in line:
            return "".join(seen)
    raise AssertionError(f"'{marker}' não apareceu; saída: {''.join(seen)!r}")


def test_serve_prints_links_and_qr_then_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(tmp_path / "mesa.db"), "--seed", "3",
               "--gm-token", "segredo-123"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        banner = read_until(process, "Ctrl+C")
        base = f"http://127.0.0.1:{port}"
        assert f"{base}/jogador" in banner
        assert f"{base}/mesa" in banner
        assert f"{base}/mestre?token=segredo-123" in banner
        assert "▀" in banner or "█" in banner
        assert requests.get(f"{base}/mestre?token=segredo-123", timeout=5).status_code == 200
        assert requests.get(f"{base}/mestre", timeout=5).status_code == 403
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=10)
        assert process.returncode == 0
        assert "Servidor encerrado." in rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_busy_port_is_a_clear_error(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "mesa.db", 1, tables)
    running = start_in_thread(session)
    try:
        with pytest.raises(ServerError, match="porta já está em uso"):
            serve("127.0.0.1", running.port, session)
    finally:
        running.stop()
        session.close()
