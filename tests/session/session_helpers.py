"""What the session tests share: a command's result read as accepted (its events) or
refused (its one message)."""
from __future__ import annotations

from companion.session import RunResult


def ok(result: RunResult) -> list[dict]:
    assert result.ok, result.error
    assert result.error is None
    return result.events


def rejected(result: RunResult) -> str:
    assert not result.ok
    assert result.events == []
    assert isinstance(result.error, str) and result.error
    return result.error
