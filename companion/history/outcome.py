"""A command's outcome: which of its events are "the result" a person wants at a glance.

The server ranks them and sends the ranking to the GM page's last-result box (the `resultado`
message, companion.server.fanout); `repetir` (companion.session) repeats the same events. Both
read tables/paginas.yaml `ultimo_resultado`: a travel round begins with the clock, the weather
and the encounter check, but what matters is what the activity gave. Of a command's events:

- the kinds of `nao_sao_resultado` (a help text, a state dump) are never a result;
- the preamble — the round's clock line (a `relato` whose data has `dia` and `rodada`), the
  weather (a `relato` with `clima`, a `rolagem` whose table starts with `prefixo_do_clima`) and
  the `checagem_de_encontro` that missed — is left out when anything else remains;
- the rest is ranked: first the news (`noticias`, in their order: the encounter that arrives,
  the light that goes out, a result table's row — a chance roll that missed is no news), each
  kind in log order; then the other warnings, the last plain line (`relato`, `pedido`,
  `resposta`…), the other rolls and the other plain lines from the newest.

An event is the wire shape (seq, kind, data…) with, when known, its narration `code`
(tables/narracao/) beside it. Pure: events in, events out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.rules.pages import LastResultRules, News

EventDict = Mapping[str, Any]
WARNING = "aviso"
ROLL = "rolagem"
CODE = "code"  # the narration code an event was rendered from, when the caller knows it
_CHANCE = re.compile(r"^(\d+):(\d+)$")


@dataclass(frozen=True)
class Ranked:
    """A command's (or a burst's) result: at most `linhas` events, the most needed first, and
    how many events could have been shown (`total`: the log has the others)."""

    lines: tuple[EventDict, ...]
    total: int


def _data(event: EventDict) -> Mapping[str, Any]:
    data = event.get("data")
    return data if isinstance(data, Mapping) else {}


def _has(data: Mapping[str, Any], key: str) -> bool:
    return data.get(key) is not None


def _missed(data: Mapping[str, Any]) -> bool:
    """An "X:6" check whose roll missed (an unknown shape counts as a hit: better shown)."""
    match = _CHANCE.match(str(data.get("chance") or ""))
    try:
        return match is not None and float(data.get("total")) > int(match.group(1))
    except (TypeError, ValueError):
        return False


def is_preamble(event: EventDict, rules: LastResultRules) -> bool:
    """The clock's own lines at the start of a travel round (see the module's docstring)."""
    data = _data(event)
    if event.get("kind") == "relato":
        return (_has(data, "dia") and _has(data, "rodada")) or _has(data, "clima")
    if event.get("kind") == ROLL:
        table = str(data.get("tabela") or "")
        return table.startswith(rules.prefixo_do_clima) or (
            table == rules.checagem_de_encontro and _missed(data))
    return False


def is_news(event: EventDict, news: News) -> bool:
    """Whether an event is of one kind of news: by its narration code, a data key or the table
    it gives a row of — never a chance roll that missed."""
    data = _data(event)
    if event.get(CODE) in news.codigos:
        return True
    table = str(data.get("tabela") or "")
    found = any(_has(data, key) for key in news.dados) or (
        bool(table) and table.startswith(tuple(news.tabelas)))
    return found and not _missed(data)


def ranked(events: Sequence[EventDict], rules: LastResultRules,
           limit: int | None = None) -> Ranked:
    """The events of one command (or of a burst) to show as its result, the most needed
    first, at most `limit` (default: `linhas`)."""
    most = rules.linhas if limit is None else limit
    shown = [e for e in events if e.get("kind") not in rules.nao_sao_resultado]
    useful = [e for e in shown if not is_preamble(e, rules)]
    pool = useful or shown
    plain = [e for e in pool if e.get("kind") not in (WARNING, ROLL)]
    order = [e for news in rules.noticias for e in pool if is_news(e, news)]
    order += ([e for e in pool if e.get("kind") == WARNING] + plain[-1:]
              + [e for e in pool if e.get("kind") == ROLL] + plain[:-1][::-1])
    chosen: list[EventDict] = []
    for event in order:  # an event ranked twice (news and a warning) counts once
        if len(chosen) == most:
            break
        if not any(event is seen for seen in chosen):
            chosen.append(event)
    return Ranked(tuple(chosen), len(shown))


def outcome(events: Sequence[EventDict], rules: LastResultRules,
            limit: int | None = None) -> list[EventDict]:
    """The events of one command to show as its result, in log order (none: nothing to show),
    at most `limit` (default: `linhas`)."""
    chosen = ranked(events, rules, limit).lines
    return [e for e in events if any(e is c for c in chosen)]
