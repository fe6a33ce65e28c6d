"""One projection per viewer (docs/design.md): what one viewer sees of the stored history.

The log numbers every event globally and keeps, for each, its visibility, its data and how its
text was rendered (the narration code and the words only the text used). A viewer — the GM
("gm"), a player ("player:<id>") or the table screen ("public") — sees:

- **its events**: those its visibility allows (companion.tables.protocol.may_see), numbered 1, 2, 3, …
  counting only those (the GM keeps the log's numbers). A gap would reveal that a hidden event
  happened, and how many GM-only events a command makes depends on secret outcomes;
- **its prompt ids**: a player's prompts are 1, 2, 3, … over the `pedido` events addressed to
  that player, in log order, undone ones included (a number is never given twice, so an old
  button never answers a newer prompt). Wherever an id reaches the player — an event's data, a
  view's `pedidos`, a text, a refusal — it is that player's number; another's prompt is none;
- **its undo numbers**: an undo names the undone command by the viewer's number of the first
  event of it the viewer saw (None when it saw none), and says it as people say what was done
  (`describe`, tables/narracao/desfeitos.yaml; its quote by name and arguments, `quote`, when
  the command has no sentence), never by the words someone typed;
- **its texts**: every event the log knows how it was written (its narration code and words)
  is rendered again from today's tables/narracao/, with the viewer's numbers — a reworded
  sentence reads reworded in the past too; an event with no code (a prompt's own words) keeps
  its text.

`Projection` is pure and incremental: `add` each stored event once, in seq order (all of them,
whatever their visibility), then ask. The live server keeps one per connected viewer
(companion.server.projections); the report and the exports build one per report.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from companion.tables import protocol
from companion.engine.procedures.party import FIELDS
from companion.tables.protocol import spoken_name
from companion.tables.errors import TableError
from companion.tables.files import Tables
from companion.tables.weights import template_params

EventDict = dict[str, Any]

# The narration params (tables/narracao/) that name a prompt by its id, those that list prompts
# (each with an `id`) and those that list bare ids.
PROMPT_ID_PARAMS = ("pedido", "primeiro", "ultimo")
PROMPT_LIST_PARAMS = ("pendentes", "esperando")
PROMPT_IDS_PARAMS = ("substituidos",)
UNDONE = "desfeito"  # an undo's data: the number of the command it undid
INNER = "dentro"  # a refusal's params: the refusal it wraps ({"code", "params"})
DC_WORD = "dificuldade"  # how a quoted command says its `dc`
DESCRIBED = "descricao"  # an undo's param for a player: the undone command described
DESCRIPTIONS = "desfeitos"  # tables/narracao/desfeitos.yaml: one sentence per command
ANY_COMMAND = "qualquer_comando"  # its sentence for a command that has none of its own


@dataclass(frozen=True)
class StoredEvent:
    """An event as the log keeps it: the wire fields, the command that made it, and how its
    text was rendered (code None: a text no template made)."""

    seq: int
    command_n: int
    command: str
    kind: str
    visibility: str
    text: str
    data: Any
    code: str | None = None
    words: Mapping[str, Any] = field(default_factory=dict)

    def wire(self) -> EventDict:
        """The event's shape on the wire and in `shell --json` (docs/design.md)."""
        return {"seq": self.seq, "command": self.command, "kind": self.kind,
                "visibility": self.visibility, "text": self.text, "data": self.data}


@dataclass(frozen=True)
class Quoted:
    """A command as an undo quotes it: its name, arguments, who gave it and what they typed."""

    name: str
    args: Mapping[str, Any]
    actor: str
    text: str


Lookup = Callable[[int], "Quoted | None"]


def as_id(value: Any) -> int | None:
    """A prompt id as the engine says it (an int, or the digits the GM typed)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    return None


def asked_prompt(event: StoredEvent) -> tuple[str, int] | None:
    """(the player viewer, the engine's id) of a `pedido` event addressed to a player; the
    party's prompt (`grupo`, public) is addressed to every player: its viewer is PUBLIC."""
    if event.kind != "pedido":
        return None
    pedido = event.data.get("pedido") if isinstance(event.data, dict) else None
    if not isinstance(pedido, dict) or not isinstance(pedido.get("id"), int):
        return None
    if protocol.is_player(event.visibility):
        return event.visibility, pedido["id"]
    if event.visibility == protocol.PUBLIC and pedido.get("grupo") is True:
        return protocol.PUBLIC, pedido["id"]
    return None


# What a viewer's copy of an event changes besides its number: its data's prompt ids (and a
# view inside it), an undo's number and quote, the narration params that name prompts or wrap a
# refusal. An event with none of them reads the same for every viewer but for its `seq`.
PER_VIEWER_KEYS = frozenset(("pedido", "pedidos", "estado", UNDONE, INNER) + PROMPT_ID_PARAMS
                            + PROMPT_LIST_PARAMS + PROMPT_IDS_PARAMS)


def alike_for_all(event: StoredEvent) -> bool:
    """Whether every viewer who sees the event reads the same copy of it but for its number
    (`Projection.show`): then it is rendered once, not once per viewer (the fan-out)."""
    data = event.data if isinstance(event.data, dict) else {}
    return PER_VIEWER_KEYS.isdisjoint(data) and PER_VIEWER_KEYS.isdisjoint(event.words)


def names_prompts(params: Mapping[str, Any]) -> bool:
    """Whether narration params (or a refusal's) name or list prompts by id."""
    return any(key in params for key in PROMPT_ID_PARAMS + PROMPT_LIST_PARAMS
               + PROMPT_IDS_PARAMS)


class Projection:
    """One viewer's projection of the stored history (see the module's docstring)."""

    def __init__(self, viewer: str, tables: Tables, lookup: Lookup) -> None:
        self.viewer = viewer
        self.tables = tables
        self._lookup = lookup
        self._gm = viewer == protocol.GM
        self._player = protocol.is_player(viewer)
        self.upto = 0  # the last global seq added
        self._seqs: list[int] = []  # the global seqs this viewer sees (its number: index + 1)
        self._first_seen: dict[int, int] = {}  # command number → its first event's number
        self._prompts: list[int] = []  # this player's prompts, engine ids in order
        self._prompt_numbers: dict[int, int] = {}  # engine id → this player's number

    # ------------------------------------------------------------------ building

    @property
    def needs_past(self) -> bool:
        """Whether the events before it was made change what it says. The GM's does not: the GM
        sees every event in the log's own numbers and has no prompt numbers of its own, so a
        GM projection made at any point of a long campaign needs only `skip_to` (a new GM
        connection reads nothing of the past)."""
        return not self._gm

    def skip_to(self, seq: int) -> None:
        """Count the log as added through global seq `seq` without reading it (only for a
        projection that does not need the past)."""
        if self.needs_past:
            raise ValueError(f"the projection of {self.viewer} needs every event")
        self.upto = max(self.upto, seq)

    def add(self, event: StoredEvent) -> None:
        """Take one stored event into account (each once, in seq order, whoever sees it)."""
        if event.seq <= self.upto:
            return
        self.upto = event.seq
        if self._gm:  # its numbers are the log's: nothing to remember (needs_past)
            return
        if not protocol.may_see(event.visibility, self.viewer):
            return
        self._seqs.append(event.seq)
        self._first_seen.setdefault(event.command_n, len(self._seqs))  # its number: the last
        asked = asked_prompt(event)
        if asked is not None and asked[0] in (self.viewer, protocol.PUBLIC if self._player
                                              else None) \
                and asked[1] not in self._prompt_numbers:
            self._prompts.append(asked[1])
            self._prompt_numbers[asked[1]] = len(self._prompts)

    # ------------------------------------------------------------------ numbers

    def sees(self, event: StoredEvent | EventDict) -> bool:
        visibility = event.visibility if isinstance(event, StoredEvent) else event["visibility"]
        return protocol.may_see(visibility, self.viewer)

    def number_of(self, seq: int) -> int:
        """The viewer's number of an event it sees (the GM: the log's)."""
        if self._gm:
            return seq
        if self._seqs and self._seqs[-1] == seq:  # the newest (the live fan-out's)
            return len(self._seqs)
        index = bisect_left(self._seqs, seq)
        if index == len(self._seqs) or self._seqs[index] != seq:
            raise ValueError(f"event {seq} is not visible to {self.viewer}")
        return index + 1

    def count(self) -> int:
        """How many of the events added so far the viewer sees (the GM: the last seq)."""
        return self.upto if self._gm else len(self._seqs)

    def global_after(self, number: int) -> int:
        """The global seq after which the viewer's events numbered above `number` come."""
        if self._gm or number <= 0:
            return max(number, 0)
        return self._seqs[number - 1]

    def prompt_numbers(self) -> dict[int, int]:
        """engine id → the viewer's number, for every prompt ever addressed to it (the GM
        reads the engine's ids; the table screen has no prompt)."""
        return dict(self._prompt_numbers)

    def prompt_id(self, number: int) -> int | None:
        """The engine's id of the viewer's prompt `number` (None: it never had one)."""
        return self._prompts[number - 1] if 1 <= number <= len(self._prompts) else None

    def _prompt(self, value: Any) -> int | None:
        """A prompt id as the viewer reads it (another's prompt: None)."""
        found = as_id(value)
        if found is None or self._gm:
            return found
        return self._prompt_numbers.get(found)

    # ------------------------------------------------------------------ what the viewer reads

    def show(self, event: StoredEvent) -> EventDict:
        """The viewer's copy of an event it sees (added already): its number, its data's
        prompt ids and its undo number in the viewer's numbering, its text for the viewer."""
        wire = event.wire()
        if self._gm:
            quoted_text = event.data.get("texto") if isinstance(event.data, dict) \
                and UNDONE in event.data else None
            wire["text"] = self._text(event, quoted_text)
            return wire
        wire["seq"] = self.number_of(event.seq)
        data = self.data(event.data)
        if isinstance(data, dict) and UNDONE in data:
            data = {**data, UNDONE: self._undone_number(data[UNDONE])}
            command = self._command(event.data[UNDONE])
            if command is not None and "texto" in data:
                data["texto"] = self.quote(command)
                data[DESCRIBED] = self.describe(command)
        wire["data"] = data
        undo = isinstance(data, dict) and UNDONE in data
        wire["text"] = self._text(event, quoted_text=data.get("texto") if undo else None,
                                  described=data.get(DESCRIBED) if undo else None)
        return wire

    def renumbered(self, copy: EventDict, event: StoredEvent) -> EventDict:
        """Another viewer's copy of an event `alike_for_all`, with this viewer's number."""
        return {**copy, "seq": self.number_of(event.seq)}

    def _undone_number(self, command_n: Any) -> int | None:
        return self._first_seen.get(command_n) if isinstance(command_n, int) else None

    def _command(self, command_n: Any) -> Quoted | None:
        return self._lookup(command_n) if isinstance(command_n, int) else None

    def _text(self, event: StoredEvent, quoted_text: str | None,
              described: str | None = None) -> str:
        """The event's text for this viewer, rendered again from today's narration with the
        viewer's numbers (as stored when the log has no code for it, or today's template no
        longer fits what the event said)."""
        if event.code is None or event.code not in self.tables.narration.codes:
            return event.text
        said = self.params(template_params(
            self.tables.narration, event.code,
            event.data if isinstance(event.data, dict) else {}, event.words))
        if quoted_text is not None:
            said["texto"] = quoted_text
        if described is not None:
            said[DESCRIBED] = described
        try:
            return self.tables.narration.render(event.code, said)
        except TableError:
            return event.text

    def data(self, data: Any) -> Any:
        """An event's data, or a view, with its prompt ids in the viewer's numbers."""
        if self._gm or not isinstance(data, dict):
            return data
        out = dict(data)
        pedido = data.get("pedido")
        if isinstance(pedido, int) and not isinstance(pedido, bool):
            out["pedido"] = self._prompt(pedido)
        elif isinstance(pedido, dict) and isinstance(pedido.get("id"), int):
            out["pedido"] = {**pedido, "id": self._prompt(pedido["id"])}
        if isinstance(data.get("pedidos"), list):
            out["pedidos"] = [{**p, "id": self._prompt(p["id"])} if isinstance(p, dict)
                              and isinstance(p.get("id"), int) else p for p in data["pedidos"]]
        if isinstance(data.get("estado"), dict):
            out["estado"] = self.data(data["estado"])
        return out

    def view(self, view: dict[str, Any]) -> dict[str, Any]:
        """The viewer's view of the state (engine.view) with its prompt ids in its numbers."""
        return self.data(view)

    def params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Narration params (of an event or a refusal) as the viewer may read them: every
        prompt id in its numbers (another's: None), the lists of prompts cut to its own, a
        wrapped refusal rendered for it too."""
        out = dict(params)
        if self._gm:
            return out
        for key in PROMPT_ID_PARAMS:
            if key in params:
                out[key] = self._prompt(params[key])
        for key in PROMPT_LIST_PARAMS:
            if isinstance(params.get(key), list):
                out[key] = [{**p, "id": self._prompt(p.get("id"))} for p in params[key]
                            if isinstance(p, Mapping) and self._prompt(p.get("id")) is not None]
        for key in PROMPT_IDS_PARAMS:
            if isinstance(params.get(key), list):
                out[key] = [self._prompt(i) for i in params[key] if self._prompt(i) is not None]
        inner = params.get(INNER)
        if isinstance(inner, Mapping) and inner.get("code") in self.tables.narration.codes:
            out["motivo"] = self.refusal(str(inner["code"]), inner.get("params") or {})
        return out

    def refusal(self, code: str, params: Mapping[str, Any]) -> str:
        """A refusal's message as the viewer reads it, rendered from its code."""
        return self.tables.narration.render(code, self.params(params))

    def names_prompts(self, params: Mapping[str, Any]) -> bool:
        """Whether a refusal's params (or one it wraps) name prompts: its text is then the
        viewer's to render."""
        inner = params.get(INNER)
        return names_prompts(params) or (isinstance(inner, Mapping) and names_prompts(
            inner.get("params") or {}))

    def quote(self, command: Quoted) -> str:
        """A command as the viewer may read it quoted: the GM reads what was typed (but a
        player's answer by prompt number, typed in that player's numbers, by its arguments);
        anyone else reads its spoken name and arguments, a prompt in the reader's own numbers
        ('um pedido' for another's), never the words someone typed."""
        if self._gm and (command.actor == protocol.GM or "pedido" not in command.args):
            return command.text
        words = spoken_name(self.tables, command.name).split()
        for key, value in command.args.items():
            said = self._argument(key, value)
            if said != [] and said[-1] not in words:  # 'acender tocha', not '… acender'
                words += said
        return " ".join(word for word in words if word)

    def describe(self, command: Quoted) -> str:
        """A command said as people say what was done ('o teste de Destreza de Bruno
        (dificuldade 15)'): its sentence in tables/narracao/desfeitos.yaml, with its arguments
        (a prompt in the reader's own numbers, None for another's); a command with none (or
        one its sentence cannot say) by its quote (`desfeitos.qualquer_comando`)."""
        narration = self.tables.narration
        code = f"{DESCRIPTIONS}.{command.name}"
        params = dict(command.args)
        if "pedido" in params:
            params["pedido"] = self._prompt(params["pedido"])
        if code in narration.codes:
            try:
                return narration.render(code, params)
            except TableError:
                pass
        return narration.render(f"{DESCRIPTIONS}.{ANY_COMMAND}", {"citacao": self.quote(command)})

    def _argument(self, key: str, value: Any) -> list[str]:
        if isinstance(value, bool):
            return []
        if key == "pedido":
            number = self._prompt(value)
            return ["pedido", str(number)] if number is not None else ["um", "pedido"]
        if key == "dc":
            return [DC_WORD, str(value)]
        if key in FIELDS and key != "nome":
            return [key, str(value)]
        return [str(value)]


def project(viewer: str, tables: Tables, events: list[StoredEvent],
            lookup: Lookup) -> tuple[Projection, list[EventDict]]:
    """A viewer's projection of a whole history, and its copies of the events it sees."""
    projection = Projection(viewer, tables, lookup)
    for event in events:
        projection.add(event)
    return projection, [projection.show(e) for e in events if projection.sees(e)]
