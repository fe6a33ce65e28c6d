"""The pure engine: apply(state, command, rng, tables) -> (state, events).

Importing the package assembles it (companion.engine.registry: every procedure registered, the
clock's hooks in place), so `apply` always finds every command.
"""
from __future__ import annotations

from companion.engine import registry  # noqa: F401  (registers every procedure)
from companion.engine.core import apply, initial_state
from companion.engine.model import Command, Event, State

__all__ = ["apply", "initial_state", "Command", "Event", "State"]
