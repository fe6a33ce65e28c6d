"""What a session hands back: a command's result, the events as dicts, its one error."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from companion.tables import protocol
from companion.tables.errors import CompanionError

EventDict = dict[str, Any]
Subscriber = Callable[[list[EventDict]], None]


class SessionError(CompanionError):
    """The session cannot be opened as asked (e.g. a --seed that contradicts the log)."""


@dataclass(frozen=True)
class RunResult:
    """What one command did: the stored events, or why nothing happened."""

    ok: bool
    events: list[EventDict] = field(default_factory=list)
    error: str | None = None
    code: str | None = None  # why, for the pages (companion.tables.protocol.REFUSAL_CODES)
    params: dict[str, Any] = field(default_factory=dict)  # the refusal's data (its code's)
    repeated: bool = False  # `repetir`: the events are the last result again, headline first

    def to_json(self) -> dict[str, Any]:
        """The acknowledgement shape of the HTTP API and Socket.IO."""
        if self.ok:
            return {"ok": True, "events": self.events}
        return protocol.refusal(self.error or "", self.code)
