"""The companion's one small exception hierarchy. Messages are for people at the table (pt-BR)."""
from __future__ import annotations

from typing import Any, Mapping


class CompanionError(Exception):
    """Base of every error the companion reports to a person."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class TableError(CompanionError):
    """A file in tables/ is missing, unreadable or has a bad key."""


class CommandRejected(CompanionError):
    """A command that parsed but cannot run now; nothing changed.

    A refusal carries a `code` (a word the pages decide on, e.g. companion.tables.protocol's
    REFUSAL_CODES) and its `params`. The narration layer can render the message from
    tables/narracao/ (`raise CommandRejected.because("viagem.sem_grupo")`); the engine's entry
    point renders it, so `message` is always the Portuguese text people read."""

    def __init__(self, message: str = "", code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    @classmethod
    def because(cls, code: str, **params: Any) -> CommandRejected:
        """A refusal said by its code; the message is rendered at the engine's boundary."""
        return cls("", code=code, params=params)

    def rendered(self, text: str) -> CommandRejected:
        """The same refusal (same class, code and params) with its message written out."""
        return type(self)(text, code=self.code, params=self.params)


class DiceError(CommandRejected):
    """A dice expression that is malformed or absurd."""


class AccessDenied(CompanionError):
    """A client asked for something it may not do."""


class DiskFull(CompanionError):
    """The disk under the session's SQLite file is full: the write was rolled back, nothing of
    it was recorded. Raised by the store, which has no words for people; the session says it
    (tables/narracao/gravacao.yaml, entrada.yaml)."""
