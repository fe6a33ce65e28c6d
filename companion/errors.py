"""The companion's one small exception hierarchy. Messages are for people at the table (pt-BR)."""
from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion reports to a person."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class TableError(CompanionError):
    """A file in tables/ is missing, unreadable or has a bad key."""


class CommandRejected(CompanionError):
    """A command that parsed but cannot run now; nothing changed.

    `code`, when given, says why in a word the pages read (companion.protocol.REFUSAL_CODES):
    the message stays what people read, the code is what a page decides on."""

    def __init__(self, message: str = "", code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class DiceError(CommandRejected):
    """A dice expression that is malformed or absurd."""


class AccessDenied(CompanionError):
    """A client asked for something it may not do."""
