"""Which names this server answers to, which origins may open a socket, and which pages run on
the laptop itself.

- Host allowlist (DNS rebinding): a page a phone's browser fetched from `rebind.test` that
  resolves to the laptop carries `Host: rebind.test`. Only the laptop's own names are served
  (its LAN address and other addresses, `localhost`, `127.0.0.1`, `::1`, its hostname, and the
  host of the link the banner shows); anything else gets a short Portuguese refusal, before
  Flask or Socket.IO see the request. The laptop's addresses may change while it serves (a
  Wi-Fi reconnect gives it another LAN address): a Host that is the very address the
  connection reached is ours, and any other miss reads the machine's names again, at most
  once per REFRESH_SECONDS (a flood of foreign Hosts costs one read).
- Origins: a socket opens only from a page of the same origin (the request's own scheme and
  allowed Host); unlike the library's default, no `X-Forwarded-*` header is believed.
- The laptop: a connection whose two ends are the same address comes from this machine
  (`127.0.0.1 → 127.0.0.1`, or the laptop's browser opening its own LAN address). The request
  handler puts the local end in the environ (LOCAL_ADDRESS).
"""
from __future__ import annotations

import ipaddress
import socket
import threading
import time
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

LOCAL_ADDRESS = "mesa.local_addr"  # the environ key of the connection's local address
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
REFRESH_SECONDS = 5.0  # a foreign Host reads the machine's names again at most this often
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def host_of(header: str) -> str:
    """The name of a Host header, without port or brackets, lower case ("" if none)."""
    text = header.strip().lower()
    if text.startswith("["):
        return text[1:].split("]", 1)[0]
    if text.count(":") == 1:
        text = text.split(":", 1)[0]
    return text.rstrip(".")


def machine_names() -> set[str]:
    """This machine's hostname and the addresses it resolves to (nothing leaves the machine)."""
    names: set[str] = set()
    try:
        hostname = socket.gethostname().lower()
    except OSError:
        return names
    names |= {hostname, f"{hostname}.local"}
    try:
        names |= {str(info[4][0]).lower() for info in socket.getaddrinfo(hostname, None)}
    except OSError:
        pass
    return names


def allowed_hosts(base_url: str | None, lan: Iterable[str] = ()) -> frozenset[str]:
    """Every name the server answers to: the local names, this machine's, the LAN
    addresses and the host of the link phones open."""
    names = set(LOCAL_NAMES) | machine_names() | {host_of(name) for name in lan}
    if base_url:
        names.add(host_of(urlsplit(base_url).netloc))
    return frozenset(name for name in names if name)


def local_address(environ: dict[str, Any]) -> str:
    """The address the connection reached on this machine, as a Host would name it ("" if
    the handler did not say; an IPv4 address seen through an IPv6 socket as IPv4)."""
    text = str(environ.get(LOCAL_ADDRESS) or "").lower()
    try:
        mapped = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(mapped, ipaddress.IPv6Address) and mapped.ipv4_mapped is not None:
        return str(mapped.ipv4_mapped)
    return str(mapped)


class HostGuard:
    """WSGI middleware: a request whose Host is not one of ours is refused (403).

    `names()` gives every name the server answers to (allowed_hosts); it is read at start
    and again on a miss, at most once per `refresh` seconds."""

    def __init__(self, app: WSGIApp, names: Callable[[], frozenset[str]],
                 refusal: Callable[[str], str], refresh: float = REFRESH_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.names = names
        self.refusal = refusal  # host → the refusal page (HTML)
        self.refresh = refresh
        self.clock = clock
        self.allowed = names()
        self._read_at = clock()
        self._lock = threading.Lock()

    def ours(self, host: str, environ: dict[str, Any]) -> bool:
        """Whether `host` names this server: a known name, the address the connection
        reached, or a name the machine has now (read again if the last read is old enough)."""
        if host and (host in self.allowed or host == local_address(environ)):
            return True
        with self._lock:
            if self.clock() - self._read_at >= self.refresh:
                self.allowed = self.names()
                self._read_at = self.clock()
        return bool(host) and host in self.allowed

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        given = environ.get("HTTP_HOST", "")
        if not given or self.ours(host_of(given), environ):
            return self.app(environ, start_response)
        body = self.refusal(given[:100]).encode("utf-8")
        start_response("403 FORBIDDEN", [("Content-Type", "text/html; charset=utf-8"),
                                         ("Content-Length", str(len(body))),
                                         ("Cache-Control", "no-store")])
        return [body]


def same_origin(origin: str | None, environ: dict[str, Any]) -> bool:
    """Whether a socket's Origin is the page's own (its scheme and Host); no Origin (a
    client that is not a browser) is the library's to judge: allowed."""
    if origin is None:
        return True
    host = environ.get("HTTP_HOST", "")
    scheme = environ.get("wsgi.url_scheme", "http")
    return bool(host) and origin == f"{scheme}://{host}"


def on_laptop(environ: dict[str, Any]) -> bool:
    """Whether the request came from this machine: its two ends are the same address (when
    the handler did not say the local end, only 127.0.0.1 and ::1 count)."""
    remote = str(environ.get("REMOTE_ADDR") or "")
    local = environ.get(LOCAL_ADDRESS)
    if local is None:
        return remote in ("127.0.0.1", "::1")
    return bool(remote) and remote == local
