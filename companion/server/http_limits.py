"""What one HTTP connection may cost the laptop: the time to send its request, and how many
file descriptors the server may hold.

The server has a thread and a file descriptor per TCP connection. A client that opens
connections and never finishes its request (half-sent headers or body) held them for ever: a
thousand such connections exhausted the descriptors and no phone could load a page. Here a
request must arrive within REQUEST_TIMEOUT seconds (the headers, a body, the next request on a
kept-alive connection); a WebSocket, once upgraded, has no timeout (Engine.IO's pings find a
dead one). At start, the limit of open files is raised to the most the OS allows (`resource`
exists on POSIX only: on Windows nothing is changed — there the C runtime's default of 512 is
for `open()`, not for sockets).
"""
from __future__ import annotations

import logging
import socket
from typing import Any

from companion.tables.narration import Narrator

try:  # POSIX only
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

log = logging.getLogger(__name__)
REQUEST_TIMEOUT = 10.0  # seconds to send a request (headers and body), or the next one
FD_WANTED = 65536  # open files to ask for (at most the hard limit)


class TimedRequests:
    """A mixin for werkzeug's request handler: each request must arrive within `timeout`
    seconds (socketserver sets it on the connection); a WebSocket upgrade then clears it.
    A connection that timed out is closed with one log line, not a traceback, said with the
    server's `words` (set on the handler class made for each server)."""

    timeout: float | None = REQUEST_TIMEOUT
    words: Narrator
    connection: socket.socket
    headers: Any

    def run_wsgi(self) -> None:
        if self.headers.get("Upgrade", "").lower() == "websocket":
            self.connection.settimeout(None)  # long-lived; Engine.IO's pings watch it
        super().run_wsgi()  # type: ignore[misc]

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if format.startswith("Request timed out"):
            log.info(self.words.render("log_do_servidor.pedido_atrasado", {}))
            return
        super().log_error(format, *args)  # type: ignore[misc]


def raise_fd_limit(wanted: int = FD_WANTED) -> int | None:
    """Raise this process's soft limit of open files towards `wanted` (never above the hard
    limit, never lowering it); the limit now, or None where the OS has no such limit."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # e.g. macOS caps it below the hard limit
            return soft
        return target
    return soft
