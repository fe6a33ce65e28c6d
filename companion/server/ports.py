"""The port the server listens on: not shared with another program on any OS, and a busy
default traded for a free one.

On Windows SO_REUSEADDR lets a second program take a port already in use (both then get half
the connections): there the socket is bound with SO_EXCLUSIVEADDRUSE instead. Elsewhere
SO_REUSEADDR only lets a restarted server take its port back at once, as werkzeug sets it.
"""
from __future__ import annotations

import os
import socket

from werkzeug.serving import ThreadedWSGIServer

# 5000 is macOS's AirPlay Receiver (Monterey on); 8765 is no common program's default.
DEFAULT_PORT = 8765
NEXT_PORTS = 20  # a busy default: the next ports are tried, then any free one
WINDOWS = os.name == "nt"


def exclusive(sock: socket.socket, windows: bool = WINDOWS) -> None:
    """Set the socket's options so that no other program can share its port."""
    if windows:
        sock.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE"), 1)
    else:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)


def check(host: str, port: int) -> None:
    """Raise OSError if host:port cannot be bound (with the real server's options)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        exclusive(probe)
        probe.bind((host, port))


def free_port(host: str, wanted: int) -> int:
    """`wanted` when it can be bound, else the first free one of the next ports, else one the
    system picks; OSError when even that fails (the address is not this machine's)."""
    for port in range(wanted, wanted + NEXT_PORTS):
        try:
            check(host, port)
        except OSError:
            continue
        return port
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        exclusive(probe)
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class ExclusiveServer(ThreadedWSGIServer):
    """Werkzeug's threaded server, its port never shared (SO_EXCLUSIVEADDRUSE on Windows)."""

    allow_reuse_address = not WINDOWS

    def server_bind(self) -> None:
        if WINDOWS:
            exclusive(self.socket)
        super().server_bind()
