"""A clock the test moves by hand, for rate limits and refresh intervals."""
from __future__ import annotations


class Clock:
    """Reads `now`; the test sets it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
