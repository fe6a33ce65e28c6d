"""The door: which TCP connections get a thread, decided before one is spent.

The server is werkzeug's threaded server (companion.server.ports.ExclusiveServer): one thread
per socket. Left alone it gave a thread and a file descriptor to every socket a device opened
(1,500 bare websockets from one address: 6,000 threads), and a request could trickle in for
ever (one header line every few seconds). Here, in the accepting thread, before any thread is
started:

- one address may hold at most `per_address` open sockets (HTTP or websocket, a request
  finished or not): what one phone, or one curious laptop, may cost;
- all addresses together at most `total` (kept below the open-file limit, so the GM always
  finds a descriptor);
- one address may open at most `new_per_window` sockets per access.WINDOW_SECONDS (a device
  reconnecting in a loop slows only itself);
- a socket refused is closed at once: no thread, no handler, nothing read from it.

The laptop itself (a connection whose two ends are the same address: the GM's own browser,
`companion serve` on 127.0.0.1) is never refused: it is the GM's machine.

Each request then has a whole deadline (`DeadlineWatch`): from the moment the server waits for
it until its headers and body have arrived, however slowly the bytes trickle, at most
http_limits.REQUEST_TIMEOUT seconds; a socket past its deadline is shut down (its thread's read
returns and the thread ends). A websocket, once upgraded, has no deadline (Engine.IO's pings
watch it).
"""
from __future__ import annotations

import socket
import ssl
import threading
import time
from collections import Counter
from typing import Any, Callable

from companion.server import access
from companion.server.ports import ExclusiveServer

SOCKETS_PER_ADDRESS = 48  # budget.CONNECTIONS_PER_ADDRESS Socket.IO connections, and pages
MAX_SOCKETS = 768  # every address together (the laptop's own aside)
RESERVED_FILES = 64  # descriptors kept free for the log, the pages, the GM
NEW_SOCKETS_PER_WINDOW = 120  # new sockets per address per access.WINDOW_SECONDS
WATCH_EVERY = 0.1  # seconds between two looks for requests past their deadline


def total_for(open_files: int | None, wanted: int = MAX_SOCKETS) -> int:
    """The bound on all sockets for a process that may open `open_files` files (None: no
    such limit on this OS)."""
    if open_files is None:
        return wanted
    return max(16, min(wanted, open_files - RESERVED_FILES))


def same_ends(connection: socket.socket, address: str) -> bool:
    """Whether the socket's two ends are the same address (a connection from the laptop)."""
    try:
        return str(connection.getsockname()[0]) == address
    except (OSError, IndexError, TypeError):
        return False


class Door:
    """Counts the open sockets per address and says which new one may come in. Thread-safe:
    `admit` runs in the accepting thread, `leave` in each connection's."""

    def __init__(self, per_address: int | None = SOCKETS_PER_ADDRESS,
                 total: int | None = MAX_SOCKETS,
                 new_per_window: access.Limiter | None = None) -> None:
        self.per_address = per_address  # None: no cap (`--sem-limites`)
        self.total = total
        self.new_sockets: access.Limiter = new_per_window if new_per_window is not None \
            else access.RateLimiter(NEW_SOCKETS_PER_WINDOW, access.WINDOW_SECONDS)
        self.open: Counter[str] = Counter()  # address → its open sockets (the laptop's aside)
        self.refused = 0  # sockets closed at the door, since the start
        self._lock = threading.Lock()

    def admit(self, connection: socket.socket, address: str) -> bool:
        """Whether this new socket from `address` gets a thread (counted if so)."""
        if same_ends(connection, address):
            return True
        with self._lock:
            held = self.open[address]
            full = (self.per_address is not None and held >= self.per_address) or \
                (self.total is not None and sum(self.open.values()) >= self.total)
            if full or not self.new_sockets.allow(address):
                self.refused += 1
                return False
            self.open[address] = held + 1
            return True

    def leave(self, connection: socket.socket, address: str) -> None:
        """A socket admitted by `admit` is closed."""
        if same_ends(connection, address):
            return
        with self._lock:
            if self.open[address] <= 1:
                self.open.pop(address, None)
            else:
                self.open[address] -= 1

    def held(self, address: str) -> int:
        with self._lock:
            return self.open[address]


class DeadlineWatch:
    """Sockets waiting for a request, each with its deadline; one thread shuts down those
    past it. `arm` when the server starts waiting for a request, `disarm` once it has fully
    arrived (or the socket became a websocket)."""

    def __init__(self, every: float = WATCH_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self._due: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self.expired = 0  # requests cut at their deadline, since the start

    def arm(self, connection: socket.socket, seconds: float | None) -> None:
        if seconds is None:
            return
        with self._lock:
            self._due[connection] = self.clock() + seconds
        self._start()

    def disarm(self, connection: socket.socket) -> None:
        with self._lock:
            self._due.pop(connection, None)

    def waiting(self) -> int:
        with self._lock:
            return len(self._due)

    def stop(self) -> None:
        self._stopped.set()

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._watch, name="mesa-prazos", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stopped.wait(self.every):
            now = self.clock()
            with self._lock:
                late = [c for c, due in self._due.items() if due <= now]
                for connection in late:
                    del self._due[connection]
            for connection in late:
                self.expired += 1
                try:  # the blocked read returns: its thread sees the end and leaves
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # already closed by its thread


class GuardedServer(ExclusiveServer):
    """The threaded server with its door: a socket the door refuses is closed from the
    accepting thread (socketserver's verify_request), before any thread is started; each
    admitted one is counted until its thread ends. Its handler arms and disarms `deadlines`
    (companion.server.http_limits.TimedRequests)."""

    door: Door
    deadlines: DeadlineWatch

    def __init__(self, *args: Any, door: Door | None = None, **kwargs: Any) -> None:
        self.door = door if door is not None else Door()
        self.deadlines = DeadlineWatch()
        super().__init__(*args, **kwargs)
        if isinstance(self.socket, ssl.SSLSocket):
            # the TLS handshake in the connection's own thread, under its deadline: made in
            # `accept`, a client that connects and says nothing stopped every other at the door
            self.socket.do_handshake_on_connect = False

    def verify_request(self, request: Any, client_address: Any) -> bool:
        return self.door.admit(request, _host(client_address))

    def process_request(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread could be started: it never will leave
            self.door.leave(request, _host(client_address))
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            if isinstance(request, ssl.SSLSocket) and not self._handshake(request):
                self.shutdown_request(request)
                return
            super().process_request_thread(request, client_address)  # type: ignore[misc]
        finally:
            self.deadlines.disarm(request)
            self.door.leave(request, _host(client_address))

    def _handshake(self, request: ssl.SSLSocket) -> bool:
        """The TLS handshake within the handler's request timeout (False: failed or late)."""
        seconds = getattr(self.RequestHandlerClass, "timeout", None)
        self.deadlines.arm(request, seconds)
        try:
            request.settimeout(seconds)
            request.do_handshake()
            return True
        except (OSError, ValueError):  # ssl.SSLError is an OSError; a late one, a timeout
            return False
        finally:
            self.deadlines.disarm(request)

    def server_close(self) -> None:
        self.deadlines.stop()
        super().server_close()


def _host(client_address: Any) -> str:
    """The address part of socketserver's client address (a tuple; a string for others)."""
    if isinstance(client_address, (tuple, list)) and client_address:
        return str(client_address[0])
    return str(client_address)
