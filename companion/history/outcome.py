"""A command's outcome: which of its events are "the result" a person wants at a glance.

Each event carries its weight as news, given by the procedure that emitted it (its data's
`peso`: companion.tables.weights; an event stored before weights is weighed by its code or
kind). The headline of a command for one viewer is the heaviest event that viewer may see, the
later one on a tie; the GM's last-result box (the server's `resultado`, companion.server.fanout),
the table screen, a player's page and the spoken answer all lead with it, and `repetir`
(companion.session) repeats the same choice. Of a command's events, the kinds of
tables/paginas.yaml `ultimo_resultado.nao_sao_resultado` (a help text, a state dump) are never
a result; the others follow the headline heaviest first, the later first on a tie.

An event is the wire shape (seq, kind, data…) with, when known, its narration `code`
(tables/narracao/) beside it. Pure: events in, events out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.rules.pages import LastResultRules
from companion.tables.files import Tables
from companion.tables.weights import Weight, weight_of

EventDict = Mapping[str, Any]
CODE = "code"  # the narration code an event was rendered from, when the caller knows it


@dataclass(frozen=True)
class Ranked:
    """A command's (or a burst's) result: at most `linhas` events, the headline first, and
    how many events could have been shown (`total`: the log has the others)."""

    lines: tuple[EventDict, ...]
    total: int


def weight(event: EventDict, tables: Tables | None = None) -> Weight:
    """An event's weight as news (companion.tables.weights.weight_of, its code beside it)."""
    code = event.get(CODE)
    return weight_of(event, code if isinstance(code, str) else None, tables)


def by_weight(events: Sequence[EventDict], tables: Tables | None = None) -> list[EventDict]:
    """The events heaviest first, the later first on a tie (the first is the headline)."""
    order = sorted(range(len(events)), key=lambda i: (weight(events[i], tables), i),
                   reverse=True)
    return [events[i] for i in order]


def headline(events: Sequence[EventDict], rules: LastResultRules,
             tables: Tables | None = None) -> EventDict | None:
    """The heaviest event of these that is a result (the later on a tie); None: none is.
    Give it the events one viewer may see: that viewer's headline."""
    shown = [e for e in events if e.get("kind") not in rules.nao_sao_resultado]
    return by_weight(shown, tables)[0] if shown else None


def ranked(events: Sequence[EventDict], rules: LastResultRules,
           limit: int | None = None, tables: Tables | None = None) -> Ranked:
    """The events of one command (or of a burst) to show as its result, the headline first,
    then the others heaviest first, at most `limit` (default: `linhas`)."""
    most = rules.linhas if limit is None else limit
    shown = [e for e in events if e.get("kind") not in rules.nao_sao_resultado]
    return Ranked(tuple(by_weight(shown, tables)[:most]), len(shown))


def outcome(events: Sequence[EventDict], rules: LastResultRules,
            limit: int | None = None, tables: Tables | None = None) -> list[EventDict]:
    """The events of one command to show as its result, the headline first (none: nothing
    to show), at most `limit` (default: `linhas`)."""
    return list(ranked(events, rules, limit, tables).lines)
