"""What one HTTP connection may cost the laptop: the time to send its request, and how many
file descriptors the server may hold.

The server has a thread and a file descriptor per TCP connection (companion.server.door decides
which sockets get one). A client that opens connections and never finishes its request
(half-sent headers or body) held them for ever, and a read timeout alone let one header line
every few seconds keep a request open. Here a whole request must arrive within REQUEST_TIMEOUT
seconds (the headers, a body, the next request on a kept-alive connection), a deadline kept by
the server's door.DeadlineWatch, not per read; a WebSocket, once upgraded, has no timeout
(Engine.IO's pings find a dead one). At start, the limit of open files is raised to the most the OS allows (`resource`
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
    """A mixin for werkzeug's request handler: each whole request must arrive within
    `timeout` seconds (a deadline armed when the server starts waiting for it, on a server
    with `deadlines`, companion.server.door.GuardedServer; socketserver also sets `timeout` on
    each read). It is disarmed once the request has arrived: at once for a request without a
    body, when the answer starts for one with a body (the application has read it); a
    WebSocket upgrade clears both. A connection that timed out is closed with one log line,
    not a traceback, said with the server's `words` (set on the handler class made for each
    server)."""

    timeout: float | None = REQUEST_TIMEOUT
    words: Narrator
    connection: socket.socket
    headers: Any
    server: Any

    def handle_one_request(self) -> None:
        watch = getattr(self.server, "deadlines", None)
        if watch is not None:
            watch.arm(self.connection, self.timeout)
        try:
            super().handle_one_request()  # type: ignore[misc]
        finally:
            if watch is not None:
                watch.disarm(self.connection)

    def run_wsgi(self) -> None:
        upgrade = self.headers.get("Upgrade", "").lower() == "websocket"
        if upgrade:
            self.connection.settimeout(None)  # long-lived; Engine.IO's pings watch it
        if upgrade or not _has_body(self.headers):
            self._arrived()
        super().run_wsgi()  # type: ignore[misc]

    def send_response(self, *args: Any, **kwargs: Any) -> None:
        self._arrived()  # the application answers: it has read what it wanted of the body
        super().send_response(*args, **kwargs)  # type: ignore[misc]

    def _arrived(self) -> None:
        watch = getattr(self.server, "deadlines", None)
        if watch is not None:
            watch.disarm(self.connection)

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if format.startswith("Request timed out"):
            log.info(self.words.render("log_do_servidor.pedido_atrasado", {}))
            return
        super().log_error(format, *args)  # type: ignore[misc]


def _has_body(headers: Any) -> bool:
    """Whether a request announces a body (a length above 0, or chunks)."""
    length = str(headers.get("Content-Length", "") or "").strip()
    chunked = "chunked" in str(headers.get("Transfer-Encoding", "") or "").lower()
    return chunked or (length not in ("", "0"))


def open_files_limit() -> int | None:
    """This process's soft limit of open files (None where the OS has no such limit)."""
    if resource is None:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


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
