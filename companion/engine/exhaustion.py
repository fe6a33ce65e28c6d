"""Tabela I: Exaustão (tables/exaustao.yaml `tabela_i`) as a typed piece. Each row says which
effect starts at its level; the levels are cumulative, so an effect applies from its row's
level up."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Mapping

from companion.engine.model import Attribute
from companion.engine.validators import require_dice
from companion.tables.rulebook import InvalidValue, piece

EXHAUSTION_EDGE = "desvantagem"


EXHAUSTION_NO_MODIFIERS = "sem_modificadores"


EXHAUSTION_DAILY_HARM = "dano_diario"


@dataclass(frozen=True)
class DailyHarm:
    """Tabela I `dano_diario`: the damage rolled on an attribute at each day's end."""

    atributo: Attribute
    dados: str

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class ExhaustionRow:
    texto: str
    efeito: Literal["desvantagem", "sem_modificadores", "dano_diario"]
    dano_diario: DailyHarm | None = None

    def validate(self) -> None:
        if self.efeito == EXHAUSTION_DAILY_HARM and self.dano_diario is None:
            raise InvalidValue("dano_diario", "validacao.dano_diario")


@piece("exaustao", "tabela_i")
@dataclass(frozen=True)
class ExhaustionTable:
    """Tabela I: Exaustão (levels are cumulative)."""

    nome: str
    linhas: Mapping[str, ExhaustionRow]

    @cached_property
    def by_level(self) -> tuple[tuple[int, ExhaustionRow], ...]:
        """The rows by level, lowest first (sorted once: every view of every character asks)."""
        return tuple(sorted(((int(key), row) for key, row in self.linhas.items()),
                            key=lambda pair: pair[0]))

    def level_of(self, effect: str) -> int | None:
        """The level from which `effect` applies (None if no row has it)."""
        return min((int(key) for key, row in self.linhas.items() if row.efeito == effect),
                   default=None)
