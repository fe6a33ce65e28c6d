"""Wrong tokens, throttled per address.

A token is the only thing between a phone on the Wi-Fi and the GM's page, the API, a player's
seat and the reports; unthrottled, a phone could try hundreds a second. Every check of a token
a client sent (the GM page, `Authorization: Bearer`, a socket's `{"token": …}`, a report link)
goes through `checked`: a wrong one costs that address one attempt of FAILED_PER_WINDOW per
WINDOW_SECONDS, and once they are spent every token that address sends — the right one too —
is refused in the table's words until the bucket refills. A check with no token given costs
nothing (a player joining by name, a bare /mestre).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from flask import current_app, request

from companion.server.access import TokenBucket
from companion.tables.errors import AccessDenied

FAILED_PER_WINDOW = 10  # wrong tokens one address may send…
WINDOW_SECONDS = 60.0  # …per this many seconds
EXTENSION = "mesa_tokens"  # where the app keeps its TokenThrottle


class TokenThrottled(AccessDenied):
    """This address sent too many wrong tokens: nothing it sends is checked for a while."""


class TokenThrottle:
    """Wrong tokens per address (a token bucket each). Thread-safe."""

    def __init__(self, message: str, capacity: float = FAILED_PER_WINDOW,
                 window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.message = message
        self.capacity = capacity
        self.window = window
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    def check(self, address: str, given: Any, right: Callable[[], bool]) -> bool:
        """Whether the token is right (`right()`), counting a wrong one against the address;
        TokenThrottled when the address has no attempts left."""
        if not isinstance(given, str) or not given:
            return right()
        with self._lock:
            bucket = self._buckets.get(address)
            if bucket is not None and bucket.available() < 1:
                raise TokenThrottled(self.message)
        if right():
            return True
        with self._lock:
            bucket = self._buckets.setdefault(
                address, TokenBucket(self.capacity, self.window, self.clock))
            bucket.take()
        return False


def checked(given: Any, right: Callable[[], bool]) -> bool:
    """`right()` for a token the current request sent, throttled by the app's TokenThrottle
    (none: not throttled, e.g. `--sem-limites`)."""
    throttle: TokenThrottle | None = current_app.extensions.get(EXTENSION)
    if throttle is None:
        return right()
    return throttle.check(request.remote_addr or "?", given, right)
