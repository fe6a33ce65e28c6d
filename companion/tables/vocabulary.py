"""The words every layer shares: a command as the parser reads it and the engine runs it.

Both companion.commands (text → Command) and companion.engine (Command → events) import this
module; it imports nothing of the companion, so the parser never has to import the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Command:
    """A parsed command: canonical name, JSON-safe args, and who gave it."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    actor: str = "gm"  # "gm" or "player:<character id>"
