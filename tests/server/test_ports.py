"""The server's port: the default is not 5000 (macOS's AirPlay), a busy default is traded for
a free one and said, a port asked for by --port is never traded, nor shared."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from companion.server import ports
from tests.process_helpers import read_until


def _listening(port: int) -> socket.socket | None:
    """A socket listening on 127.0.0.1:port, or None when another program already has it."""
    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", port))
    except OSError:
        holder.close()
        return None
    holder.listen()
    return holder


def test_the_default_port_is_not_airplays() -> None:
    assert ports.DEFAULT_PORT != 5000


def test_a_busy_port_is_refused_and_a_free_one_found() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        with pytest.raises(OSError):
            ports.check("127.0.0.1", taken)
        other = ports.free_port("127.0.0.1", taken)
        assert other != taken
        ports.check("127.0.0.1", other)  # really free


def test_a_free_port_is_kept() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert ports.free_port("127.0.0.1", port) == port


def test_windows_binds_exclusively() -> None:
    """On Windows the server's socket gets SO_EXCLUSIVEADDRUSE, not SO_REUSEADDR (which there
    lets another program share the port); Linux has no such option, so a fake socket says
    which option was asked for."""
    asked: list[tuple[int, int, int]] = []

    class Recording:
        def setsockopt(self, level: int, option: int, value: int) -> None:
            asked.append((level, option, value))

    exclusive = -5  # Windows' SO_EXCLUSIVEADDRUSE is ~SO_REUSEADDR (-5)
    socket_module = sys.modules["socket"]
    had = hasattr(socket_module, "SO_EXCLUSIVEADDRUSE")
    if not had:
        socket_module.SO_EXCLUSIVEADDRUSE = exclusive  # type: ignore[attr-defined]
    try:
        ports.exclusive(Recording(), windows=True)  # type: ignore[arg-type]
    finally:
        if not had:
            del socket_module.SO_EXCLUSIVEADDRUSE  # type: ignore[attr-defined]
    assert asked == [(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", exclusive), 1)]
    assert ports.ExclusiveServer.allow_reuse_address == (os.name != "nt")


def test_serve_without_port_moves_off_a_busy_default_and_says_so(tmp_path: Path) -> None:
    holder = _listening(ports.DEFAULT_PORT)  # None: another program has it, busy all the same
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
         "--db", str(tmp_path / "mesa.db")], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        said = read_until(process, "Ctrl+C")
        assert f"a porta {ports.DEFAULT_PORT} está ocupada" in said
        moved = int(said.split("usando a porta ")[1].split()[0])
        assert moved != ports.DEFAULT_PORT
        assert f"http://127.0.0.1:{moved}/jogador" in said
        assert requests.get(f"http://127.0.0.1:{moved}/jogador", timeout=5).status_code == 200
    finally:
        process.kill()
        process.wait()
        if holder is not None:
            holder.close()
