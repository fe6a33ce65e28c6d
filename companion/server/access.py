"""Who may do what on the server: tokens, payload checks, rate limits and security headers.

Everything here is small and synchronous so the HTTP API and the Socket.IO handlers share one
set of rules. Refusals carry a Portuguese message a person can read, from
tables/narracao/acesso.yaml (WORDS): each check is given the narrator that says it.
"""
from __future__ import annotations

import hmac
import ipaddress
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from companion.tables.errors import AccessDenied
from companion.tables.narration import Narrator

WORDS = "acesso"  # tables/narracao/acesso.yaml

MAX_TEXT = 500  # characters in one command text
MAX_NAME = 40  # characters in a player's name
MAX_HTTP_BODY = 4 * 1024  # bytes in one POST /api/command body
MAX_SOCKET_MESSAGE = 16 * 1024  # bytes in one Socket.IO message
COMMANDS_PER_WINDOW = 10  # a connection may send this many commands…
WINDOW_SECONDS = 5.0  # …per this many seconds (token bucket)
GM_COMMANDS_PER_WINDOW = 50  # the GM taps quick buttons in bursts (several turns in a row)
JOINS_PER_MINUTE = 30  # new players one address may create per minute
MIN_GM_TOKEN = 16  # characters in a GM token fixed with --gm-token


def same_token(given: Any, expected: str | None) -> bool:
    """Constant-time comparison of a token the client sent with the one we expect."""
    if not isinstance(given, str) or not given or not expected:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


def gm_token_problem(token: str, words: Narrator) -> str | None:
    """Why a GM token the GM chose (`--gm-token`) is too weak to guard the table (None: it
    will do)."""
    if len(token) < MIN_GM_TOKEN or not token.isprintable() or token != token.strip():
        return words.render("acesso.token_curto", {"minimo": MIN_GM_TOKEN,
                                                   "tamanho": len(token)})
    return None


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def command_text(payload: Any, words: Narrator) -> str:
    """The command text of a `{"text": "…"}` payload, or AccessDenied saying what is accepted."""
    if not isinstance(payload, Mapping):
        raise AccessDenied(words.render("acesso.comando_nao_objeto", {}))
    text = payload.get("text")
    if not isinstance(text, str):
        raise AccessDenied(words.render("acesso.comando_nao_texto",
                                        {"recebido": _describe(text)}))
    if not text.strip():
        raise AccessDenied(words.render("acesso.comando_vazio", {}))
    if len(text) > MAX_TEXT:
        raise AccessDenied(words.render("acesso.comando_longo",
                                        {"tamanho": len(text), "limite": MAX_TEXT}))
    return text.strip()


def player_name(value: Any, words: Narrator) -> str:
    """A valid name for a new player, or AccessDenied."""
    if not isinstance(value, str):
        raise AccessDenied(words.render("acesso.nome_nao_texto", {"recebido": _describe(value)}))
    name = " ".join(value.split())
    if not name:
        raise AccessDenied(words.render("acesso.nome_vazio", {}))
    if len(name) > MAX_NAME:
        raise AccessDenied(words.render("acesso.nome_longo",
                                        {"tamanho": len(name), "limite": MAX_NAME}))
    if not any(ch.isalnum() for ch in name):
        raise AccessDenied(words.render("acesso.nome_invalido", {"nome": name}))
    return name


def since_value(value: Any, words: Narrator) -> int:
    """The `desde` of a connection: a non-negative integer (absent means 0)."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AccessDenied(words.render("acesso.desde_invalido", {"recebido": _describe(value)}))
    return value


def _describe(value: Any) -> str | None:
    """A value a client sent, as a refusal quotes it (None: nothing was sent)."""
    if value is None:
        return None
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


@dataclass
class TokenBucket:
    """`capacity` actions, refilled continuously over `window` seconds."""

    capacity: float
    window: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = -1.0
    updated: float = 0.0

    def __post_init__(self) -> None:
        self.tokens = self.capacity
        self.updated = self.clock()

    def available(self) -> float:
        """The tokens in the bucket now (refilled up to this moment)."""
        now = self.clock()
        rate = self.capacity / self.window
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * rate)
        self.updated = now
        return self.tokens

    def take(self) -> bool:
        """Spend one token; False when the bucket is empty (the action must be refused)."""
        if self.available() < 1:
            return False
        self.tokens -= 1
        return True


class RateLimiter:
    """One token bucket per key (a connection id, a remote address). Thread-safe."""

    def __init__(self, capacity: float, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.window = window
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = TokenBucket(self.capacity, self.window,
                                                          self.clock)
            return bucket.take()

    def forget(self, key: str) -> None:
        with self._lock:
            self._buckets.pop(key, None)


class NoLimit:
    """A limiter that allows everything: `companion serve --sem-limites` (load tests only)."""

    capacity = float("inf")

    def allow(self, _key: str) -> bool:
        return True

    def forget(self, _key: str) -> None:
        return None


Limiter = RateLimiter | NoLimit  # allows or refuses, key by key (a connection, an address)


def is_loopback(host: str) -> bool:
    """Whether host names this machine's loopback interface only (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def rate_limited(capacity: int, words: Narrator) -> str:
    """The refusal of a command over a token's budget (capacity per WINDOW_SECONDS)."""
    return words.render("acesso.devagar", {"capacidade": capacity,
                                           "segundos": f"{WINDOW_SECONDS:g}"})


def security_headers(host: str) -> dict[str, str]:
    """Headers for every page and API answer: nothing may come from another origin."""
    safe = re.fullmatch(r"[A-Za-z0-9.:\[\]-]{1,255}", host or "")
    sockets = f"ws://{host} wss://{host}" if safe else ""
    policy = (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"font-src 'self'; connect-src 'self' {sockets}".rstrip() + "; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
        "Permissions-Policy": "camera=(), geolocation=(), microphone=(self)",  # GM page: voice
    }
