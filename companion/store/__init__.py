"""Persistence: the session's append-only SQLite log."""
from __future__ import annotations

from companion.store.log import (Log, Meta, Narration, NewEvent, PackedStates, StateDamaged,
                                 StoredCommand, StoredState, event_dict)

__all__ = ["Log", "Meta", "Narration", "NewEvent", "PackedStates", "StateDamaged",
           "StoredCommand", "StoredState", "event_dict"]
