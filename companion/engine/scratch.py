"""The scratch space of one apply(): the RNG, the tables, the command and the events emitted so
far, with the ways a procedure emits them (say, tell, roll, chance) and reads its command's
arguments."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypeVar

from companion.engine import dice_rolls
from companion.engine.model import PUBLIC, Command, Event, Visibility
from companion.tables import protocol
from companion.tables.dice_limits import DiceLimits
from companion.tables.files import Tables
from companion.tables.weights import Weight, default_weight

T = TypeVar("T")


def _roll_data(rolled: dice_rolls.Roll, other: dice_rolls.Roll | None, tabela: str,
               edge: str | None, label: str | None, text_result: str | None,
               extra: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A rolagem event's data (the contract's tabela, dados, total, resultado; the faces;
    under an edge the discarded roll) and the words only its text needs."""
    data: dict[str, Any] = {
        "tabela": tabela,
        "dados": rolled.expression,
        "total": rolled.total,
        "resultado": text_result,
        "faces": [[kind, list(values)] for kind, values in rolled.faces],
        **extra,
    }
    if other is not None:
        data["vantagem"] = edge
        data["descartado"] = other.total
        data["faces"] += [[kind, list(values)] for kind, values in other.faces]
    words = {"rotulo": label or tabela, "lado": edge if other is not None else None,
             "outro": other.total if other is not None else None}
    return data, words


def _weighed(kind: str, data: Mapping[str, Any], weight: Weight | None) -> int:
    """An event's weight as news: the one its procedure declared, or its kind's default
    (companion.tables.weights)."""
    return int(weight if weight is not None else default_weight(kind, data))


@dataclass
class Scratch:
    """Scratch space for one apply(): the RNG, the tables and the events emitted so far."""

    rng: random.Random
    tables: Tables
    command: Command
    events: list[Event] = field(default_factory=list)

    def say(self, text: str, visibility: Visibility = PUBLIC, kind: str = "relato",
            weight: Weight | None = None, **data: Any) -> None:
        """Emit a plain event (weighed as `weight`, or its kind's default)."""
        self.events.append(Event(kind=kind, visibility=visibility, text=text, data=data,
                                 weight=_weighed(kind, data, weight)))

    def tell(self, code: str, visibility: Visibility = PUBLIC, kind: str = "relato", *,
             words: Mapping[str, Any] | None = None, weight: Weight | None = None,
             **data: Any) -> None:
        """Emit an event narrated from tables/narracao/: its text is the template `code`
        ('viagem.avancou') rendered with `data` plus `words` (values only the text needs);
        the event's data is `data` alone. Its weight as news is `weight`, declared where the
        rule is decided, or its kind's default (companion.tables.weights)."""
        text = self.tables.narration.render(code, {**data, **(words or {})})
        self.events.append(Event(kind=kind, visibility=visibility, text=text, data=data,
                                 code=code, words=dict(words or {}),
                                 weight=_weighed(kind, data, weight)))

    def piece(self, cls: type[T]) -> T:
        """The typed rules piece `cls` (companion.tables.rulebook.piece)."""
        return self.tables.piece(cls)

    def roll(self, expression: str, tabela: str, resultado: str | None = None,
             visibility: Visibility = PUBLIC, edge: str | None = None,
             describe: Callable[[int], str] | None = None, low_is_good: bool = False,
             label: str | None = None, *, x_in_6: int | None = None,
             shown: Callable[[int], str | None] | None = None,
             weight: Weight | None = None, **extra: Any) -> dice_rolls.Roll:
        """Roll for the rules and emit a `rolagem` event (its text: tables/narracao/dados.yaml
        `rolagem`, or `chance` for an X-in-6 check, `x_in_6`). `describe(total)` gives the
        row text.

        `low_is_good` marks a roll-under test, where DESV keeps the higher die. `label` is the
        heading people read (default: the table's name, which data["tabela"] always keeps).
        `shown(total)` is what the players read of the row when the seed's text (kept in
        `resultado`) is written for the GM (data `relato`: the text and the pages show it)."""
        rolled, other = dice_rolls.roll_with_edge(expression, self.rng, edge, low_is_good,
                                            limits=self.piece(DiceLimits))
        data, words = _roll_data(rolled, other, tabela, edge, label,
                                 describe(rolled.total) if describe else resultado, extra)
        if shown is not None and shown(rolled.total):
            data["relato"] = shown(rolled.total)
        if x_in_6 is None:
            self.tell("dados.rolagem", visibility, "rolagem", words=words, weight=weight,
                      **data)
        else:
            self.tell("dados.chance", visibility, "rolagem", words={**words, "x": x_in_6},
                      weight=weight, **data)
        return rolled

    def chance(self, x: int, tabela: str, yes: str, no: str,
               visibility: Visibility = PUBLIC, edge: str | None = None,
               label: str | None = None, weight: Weight | None = None,
               **extra: Any) -> bool:
        """An X-in-6 check as its own rolagem event: happens on 1d6 ≤ x. Under an `edge`
        (a character's DESV or vantagem) two dice, and DESV keeps the higher (the worse)."""
        rolled = self.roll("1d6", tabela, visibility=visibility,
                           describe=lambda total: yes if total <= x else no,
                           edge=edge, low_is_good=True, label=label,
                           chance=f"{x}:6", x_in_6=x, weight=weight, **extra)
        return rolled.total <= x


def arg(scratch: Scratch, name: str, default: Any = None) -> Any:
    """The command's argument `name` (`default` when it was not said)."""
    return scratch.command.args.get(name, default)


def actor_character(scratch: Scratch) -> str | None:
    """The character id of who gave the command (None for the GM)."""
    return protocol.character_of(scratch.command.actor)
