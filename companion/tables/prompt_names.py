"""How people call the prompts (tables/pedidos.yaml): each prompt kind's name and each option's
label, read by the engine (events, refusals), the pages (their titles and buttons must name
known kinds and options) and voice (the options a player may say)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.tables.rulebook import piece


@piece("pedidos")
@dataclass(frozen=True)
class PromptLabels:
    """tables/pedidos.yaml: `nomes_pedidos` (prompt kind → its name) and `nomes_opcoes`
    (canonical option → its label), house defaults."""

    nomes_pedidos: Mapping[str, str]
    nomes_opcoes: Mapping[str, str]
    # the kinds whose asking everyone saw: everyone sees them cancelled too
    cancelamento_publico: tuple[str, ...] = ()

    def kind_name(self, kind: str) -> str:
        """A prompt kind's name (the kind itself when the data names none)."""
        return self.nomes_pedidos.get(kind, kind)

    def option_name(self, option: str) -> str:
        """An option's label (the option itself when the data names none)."""
        return self.nomes_opcoes.get(option, option)


__all__ = ["PromptLabels"]
