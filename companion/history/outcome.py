"""A command's outcome: which of its events are "the result" a person wants at a glance.

The GM page's last-result box (web/static/js/outcome.js) and `repetir` (companion.session) pick
the same events, by the same rules (tables/paginas.yaml `ultimo_resultado`, which the pages
receive in `boas_vindas.paginas`): a travel round begins with the clock, the weather and the
encounter check, but what matters is what the activity gave. Of a command's events:

- the kinds of `nao_sao_resultado` (a help text, a state dump) are never a result;
- the preamble — the round's clock line (a `relato` whose data has `dia` and `rodada`), the
  weather (a `relato` with `clima`, a `rolagem` whose table starts with `prefixo_do_clima`) and
  the `checagem_de_encontro` that missed — is left out when anything else remains;
- at most `linhas` events are kept, in log order, chosen first among the warnings, then the
  news (an event whose data has a key of `destaques`: the encounter that appears, which a
  standing reminder such as "the party is still lost" must not push out of a one-line box),
  then the last plain line (`relato`, `pedido`, `resposta`…), then the rolls, then the other
  plain lines from the newest.

Pure: events in (the wire shape), events out.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from companion.rules.pages import LastResultRules

EventDict = Mapping[str, Any]
WARNING = "aviso"
ROLL = "rolagem"
_CHANCE = re.compile(r"^(\d+):(\d+)$")


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


def outcome(events: Sequence[EventDict], rules: LastResultRules,
            limit: int | None = None) -> list[EventDict]:
    """The events of one command to show as its result, in log order (none: nothing to show),
    at most `limit` (default: `linhas`)."""
    most = rules.linhas if limit is None else limit
    shown = [e for e in events if e.get("kind") not in rules.nao_sao_resultado]
    useful = [e for e in shown if not is_preamble(e, rules)]
    pool = useful or shown
    plain = [e for e in pool if e.get("kind") not in (WARNING, ROLL)]
    news = [e for e in plain if any(_has(_data(e), key) for key in rules.destaques)]
    ranked = ([e for e in pool if e.get("kind") == WARNING] + news + plain[-1:]
              + [e for e in pool if e.get("kind") == ROLL] + plain[:-1][::-1])
    chosen: set[int] = set()
    for event in ranked:  # an event ranked twice (news and the last line) counts once
        if len(chosen) == most:
            break
        chosen.add(id(event))
    return [e for e in pool if id(e) in chosen]
