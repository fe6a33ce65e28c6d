"""The pure engine: apply(state, command, rng, tables) -> (state, events)."""
from __future__ import annotations

from companion.engine.core import apply, initial_state
from companion.engine.model import Command, Event, State

__all__ = ["apply", "initial_state", "Command", "Event", "State"]
