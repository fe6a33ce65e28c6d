"""Per-viewer event numbers: what `seq` means on a player's or the table screen's connection.

The log numbers every event globally. A player's connection only receives public events and
their own, so global numbers would leave gaps exactly where GM-only events happened — and how
many GM-only events a command makes depends on secret outcomes (getting lost, an encounter's
rolls). So every viewer but the GM counts only the events it may see: its `seq` is 1, 2, 3, …
(the event's position among the events visible to that viewer key: "public" for the table
screen, "player:<id>" for a player). The GM sees everything, so its numbers stay the log's.
The same goes for an undo's `data.desfeito`: for everyone but the GM it is the viewer's number
of the first event of the undone command that the viewer saw, never the log's command number.
And for prompt ids (`PromptNumbering`): a player's prompts are numbered 1, 2, 3, … over the
prompts addressed to that player, wherever an id reaches them (events, estado, texts, refusals).

`Numbering` is built lazily per viewer key from the log and advanced incrementally; it is
thread-safe (the dispatcher thread and the command handlers' threads both use it).
"""
from __future__ import annotations

import threading
from bisect import bisect_left
from typing import Any, Callable, Mapping, Sequence

from companion import protocol
from companion.report import prompt_ids
from companion.store import Narration

EventDict = dict[str, Any]
ReadLog = Callable[[int], list[EventDict]]
VisibleTo = Callable[[str, str], bool]
ReadNarrations = Callable[[Sequence[int]], Mapping[int, Narration]]
NARRATIONS_KEPT = 4096  # events whose narration a PromptNumbering keeps read


class Numbering:
    """For each viewer key, the global seqs it may see, in order (its number = index + 1)."""

    def __init__(self, read_log: ReadLog, visible_to: VisibleTo,
                 events_of: Callable[[int], list[EventDict]] | None = None,
                 prompts: PromptNumbering | None = None) -> None:
        self._read = read_log
        self.prompts = prompts
        self._visible = visible_to
        self._events_of = events_of
        self._lock = threading.Lock()
        self._upto = 0  # every known viewer's list covers the log up to this global seq
        self._seqs: dict[str, list[int]] = {}

    # ------------------------------------------------------------------ reading

    def localize(self, event: EventDict, viewer: str) -> EventDict:
        """The event as `viewer` receives it: its seq renumbered (the GM's is unchanged), an
        undo's `desfeito` and, for a player, its prompt ids in the viewer's numbers. The
        event must be visible to the viewer."""
        if viewer == protocol.GM:
            return event
        local = {**event, "seq": self.number_of(event["seq"], viewer)}
        data = event.get("data")
        if isinstance(data, dict) and "desfeito" in data:
            local["data"] = data = {**data, "desfeito": self._undone(data["desfeito"], viewer)}
        if self.prompts is not None and protocol.is_player(viewer):
            local["text"] = self.prompts.localize_event_text(event, viewer)
            data = self.prompts.localize_data(data, viewer)
            if isinstance(data, dict) and isinstance(data.get("texto"), str) and "desfeito" in data:
                data = {**data, "texto": self.prompts.localize_text(data["texto"], viewer)}
            local["data"] = data
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
        if viewer == protocol.GM or number <= 0:
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


# ---------------------------------------------------------------- prompt ids

class PromptNumbering:
    """Per-viewer prompt ids: a player's prompts are 1, 2, 3, … counted over the prompts
    addressed to them (the `pedido` events of visibility "player:<id>", in log order, undone
    ones included, so a number is never given twice: an old button never answers a newer
    prompt). The GM keeps the engine's ids; the table screen is shown no prompt.

    The `localize_*` methods rewrite what a viewer receives (an event's `data.pedido`, an
    estado's `pedidos`, the "pedido N" of a text, a refusal's params); `to_global` reads a
    number a player sent back.
    Thread-safe, advanced lazily from the log."""

    def __init__(self, read_log: ReadLog, narrations: ReadNarrations | None = None,
                 render: prompt_ids.Render | None = None) -> None:
        self._read = read_log
        self._narrations = narrations  # seq → how its text was rendered (Log.narrations)
        self._render = render  # the narration's renderer (tables.narration.render)
        self._narrated: dict[int, Narration | None] = {}  # seq → its narration, once read
        self._lock = threading.Lock()
        self._upto = 0
        self._ids: dict[str, list[int]] = {}  # viewer → global prompt ids, in order
        self._local: dict[str, dict[int, int]] = {}  # viewer → global id → its number

    def _advance(self) -> None:
        fresh = self._read(self._upto)
        for event in fresh:
            asked = prompt_ids.asked_prompt(event)
            if asked is None:
                continue
            viewer, global_id = asked
            local = self._local.setdefault(viewer, {})
            if global_id not in local:
                ids = self._ids.setdefault(viewer, [])
                ids.append(global_id)
                local[global_id] = len(ids)
        if fresh:
            self._upto = fresh[-1]["seq"]

    def numbers(self, viewer: str, refresh: bool = True) -> dict[int, int]:
        """global id → the viewer's number, for every prompt ever addressed to it."""
        with self._lock:
            if refresh:
                self._advance()
            return dict(self._local.get(viewer, {}))

    def to_global(self, viewer: str, number: int) -> int | None:
        """The engine's id of the viewer's prompt `number` (None: it never had one)."""
        with self._lock:
            self._advance()
            ids = self._ids.get(viewer, [])
            return ids[number - 1] if 1 <= number <= len(ids) else None

    def mapping(self, viewer: str, wanted: set[int]) -> dict[int, int]:
        """global → local for the viewer, advanced when one of `wanted` is not known yet."""
        with self._lock:
            if not wanted <= set(self._local.get(viewer, {})):
                self._advance()
            return dict(self._local.get(viewer, {}))

    # ------------------------------------------------------------------ rewriting

    def localize_data(self, data: Any, viewer: str) -> Any:
        """An event's data (or a view) with its prompt ids in the viewer's numbers."""
        if not protocol.is_player(viewer) or not isinstance(data, dict):
            return data
        wanted = set(prompt_ids.prompt_ids(data))
        if not wanted:
            return data
        return prompt_ids.rewrite_data(data, self.mapping(viewer, wanted))

    def localize_params(self, params: Mapping[str, Any], viewer: str) -> dict[str, Any]:
        """A refusal's params (tables/narracao/pedidos.yaml) as `viewer` may read them: every
        prompt id in the viewer's numbers (another's prompt: None), and the lists of pending
        prompts (`pendentes`, `esperando`) cut to the viewer's own prompts."""
        if not protocol.is_player(viewer):
            return dict(params)
        local = self.mapping(viewer, prompt_ids.param_ids(params))
        return prompt_ids.localize_params(params, local)

    def localize_event_text(self, event: Mapping[str, Any], viewer: str) -> Any:
        """An event's text as `viewer` reads it: for a player, when it names prompts, rendered
        again from its narration (the log keeps code and words) with the player's numbers."""
        text = event.get("text")
        data = event.get("data")
        if not protocol.is_player(viewer) or not isinstance(data, dict):
            return text
        named = prompt_ids.carries_prompt_ids(data) or "desfeito" in data
        if not named and (not isinstance(text, str) or "edido" not in text):
            return text
        narration = self._narration_of(event["seq"])
        if narration is None:
            return self.localize_text(text, viewer)  # a log from before narrations were kept
        wanted = prompt_ids.param_ids({**data, **narration.words})
        if "desfeito" in data and isinstance(data.get("texto"), str):
            wanted |= prompt_ids.ids_in_text(data["texto"])
        return prompt_ids.localize_text(event, self.mapping(viewer, wanted), narration,
                                        self._render)

    def _narration_of(self, seq: int) -> Narration | None:
        """How event `seq`'s text was rendered, read from the log once for all the players it
        goes to (None: the log kept no narration for it)."""
        if self._narrations is None:
            return None
        with self._lock:
            if seq in self._narrated:
                return self._narrated[seq]
        found = self._narrations([seq]).get(seq)
        with self._lock:
            if len(self._narrated) >= NARRATIONS_KEPT:
                self._narrated.clear()
            self._narrated[seq] = found
        return found

    def localize_text(self, text: Any, viewer: str) -> Any:
        """'responder pedido 7' → 'responder pedido 2': a prompt id in words a person typed
        (the command an undo quotes) or in an old log's text, for the viewer's own prompts;
        another's prompt becomes 'um pedido', so no number of the log's count reaches the
        player."""
        if not protocol.is_player(viewer) or not isinstance(text, str) or "edido" not in text:
            return text
        found = prompt_ids.ids_in_text(text)
        if not found:
            return text
        return prompt_ids.rewrite_text(text, self.mapping(viewer, found))

