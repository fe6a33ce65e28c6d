"""Per-viewer event numbers: what `seq` means on a player's or the table screen's connection.

The log numbers every event globally. A player's connection only receives public events and
their own, so global numbers would leave gaps exactly where GM-only events happened — and how
many GM-only events a command makes depends on secret outcomes (getting lost, an encounter's
rolls). So every viewer but the GM counts only the events it may see: its `seq` is 1, 2, 3, …
(the event's position among the events visible to that viewer key: "public" for the table
screen, "player:<id>" for a player). The GM sees everything, so its numbers stay the log's.
The same goes for an undo's `data.desfeito`: for everyone but the GM it is the viewer's number
of the first event of the undone command that the viewer saw, never the log's command number.

`Numbering` is built lazily per viewer key from the log and advanced incrementally; it is
thread-safe (the dispatcher thread and the command handlers' threads both use it).
"""
from __future__ import annotations

import threading
from bisect import bisect_left
from typing import Any, Callable

GM_VIEWER = "gm"

EventDict = dict[str, Any]
ReadLog = Callable[[int], list[EventDict]]
VisibleTo = Callable[[str, str], bool]


class Numbering:
    """For each viewer key, the global seqs it may see, in order (its number = index + 1)."""

    def __init__(self, read_log: ReadLog, visible_to: VisibleTo,
                 events_of: Callable[[int], list[EventDict]] | None = None) -> None:
        self._read = read_log
        self._visible = visible_to
        self._events_of = events_of
        self._lock = threading.Lock()
        self._upto = 0  # every known viewer's list covers the log up to this global seq
        self._seqs: dict[str, list[int]] = {}

    # ------------------------------------------------------------------ reading

    def localize(self, event: EventDict, viewer: str) -> EventDict:
        """The event as `viewer` receives it: its seq renumbered (the GM's is unchanged).
        The event must be visible to the viewer."""
        if viewer == GM_VIEWER:
            return event
        local = {**event, "seq": self.number_of(event["seq"], viewer)}
        data = event.get("data")
        if isinstance(data, dict) and "desfeito" in data:
            local["data"] = {**data, "desfeito": self._undone(data["desfeito"], viewer)}
        return local

    def _undone(self, command_n: Any, viewer: str) -> int | None:
        """What an undo names, in the viewer's numbers: not the log's command number (that
        counts every command, hidden ones too) but the viewer's number of the first event of
        the undone command it saw; None when it saw none (or the log cannot say)."""
        if self._events_of is None or not isinstance(command_n, int):
            return None
        seen = [e["seq"] for e in self._events_of(command_n)
                if self._visible(e["visibility"], viewer)]
        return self.number_of(seen[0], viewer) if seen else None

    def number_of(self, seq: int, viewer: str) -> int:
        """The viewer's number for the global seq of an event it may see."""
        with self._lock:
            seqs = self._known(viewer, seq)
            index = bisect_left(seqs, seq)
            if index == len(seqs) or seqs[index] != seq:
                raise ValueError(f"event {seq} is not visible to {viewer}")
            return index + 1

    def count(self, viewer: str) -> int:
        """How many events of the log, up to now, the viewer may see."""
        with self._lock:
            self._advance()
            return len(self._known(viewer, self._upto))

    def global_after(self, number: int, viewer: str) -> int:
        """The global seq after which the viewer's events numbered > `number` come: the
        global seq of its event `number` (0 for number 0). `number` must be ≤ count(viewer)."""
        if viewer == GM_VIEWER or number <= 0:
            return max(number, 0)
        with self._lock:
            seqs = self._known(viewer, self._upto)
            return seqs[number - 1]

    # ------------------------------------------------------------------ building

    def _known(self, viewer: str, through: int) -> list[int]:
        """The viewer's list, covering the log at least through global seq `through`."""
        if through > self._upto:
            self._advance()
        if viewer not in self._seqs:
            self._seqs[viewer] = [e["seq"] for e in self._read(0)
                                  if e["seq"] <= self._upto
                                  and self._visible(e["visibility"], viewer)]
        return self._seqs[viewer]

    def _advance(self) -> None:
        """Append the log's new events to every known viewer's list."""
        fresh = self._read(self._upto)
        for event in fresh:
            for viewer, seqs in self._seqs.items():
                if self._visible(event["visibility"], viewer):
                    seqs.append(event["seq"])
        if fresh:
            self._upto = fresh[-1]["seq"]
