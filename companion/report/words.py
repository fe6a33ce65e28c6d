"""The report's words and lookups (tables/relatorio.yaml) as one typed piece."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from companion.report.report_errors import narration
from companion.tables.errors import TableError
from companion.tables.rulebook import piece, require_at_least

FILE = "relatorio"


@dataclass(frozen=True)
class ReportLookups:
    """`procura`: the names of rolls and tables the report looks for in the log (the same as
    in the other tables)."""

    checagem_encontro: str
    prefixo_encontros: str
    tabela_avanco: str
    tabelas_panico: tuple[str, ...]
    codigos_panico: tuple[str, ...]  # the events of a panic (test and effect), by their code
    chegada_masmorra: str  # the roll of where dungeon monsters arrive
    codigo_chegada: str  # the public warning that they arrived in the party's room
    luzes: Mapping[str, tuple[str, str]]  # a light source: its name for one, for several

    def light_name(self, key: str, amount: int) -> str:
        """'tocha' for 1, 'tochas' for 0 or several (the key itself when it has none)."""
        one, several = self.luzes.get(key, (key, key))
        return one if amount == 1 else several


@piece(FILE)
@dataclass(frozen=True)
class ReportWords:
    """tables/relatorio.yaml: titles, section names, labels, empty-section texts, what the
    report looks for in the log, and the largest die that gets a faces chart."""

    titulo: str
    titulo_jogador: str
    campanha: str
    sessoes: str
    sessao_atual: str
    secoes: Mapping[str, str]
    rotulos: Mapping[str, str]
    vazios: Mapping[str, str]
    procura: ReportLookups
    faces_no_grafico: int

    def validate(self) -> None:
        require_at_least(self, 2, "faces_no_grafico")

    def label(self, key: str) -> str:
        return _word(self.rotulos, "rotulos", key)

    def section(self, key: str) -> str:
        return _word(self.secoes, "secoes", key)

    def empty(self, key: str) -> str:
        return _word(self.vazios, "vazios", key)


def _word(group: Mapping[str, str], where: str, key: str) -> str:
    if key not in group:
        raise TableError(narration().render("relatorio.palavra_ausente", {
            "arquivo": FILE, "chave": f"{where}.{key}"}))
    return str(group[key])


__all__ = ["ReportLookups", "ReportWords"]
