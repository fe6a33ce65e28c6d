"""Random encounters while travelling (tables/viagem.yaml `encontro`, tables/encontros.yaml):
the X-in-6 check by the terrain of the region where the day started, that region's table (with
how many appear), who sees it (casa.yaml `encontros.visibilidade`), and `encontro` (roll one
now). Regions: each terrain has its default region (keyed by the terrain; `terreno floresta`
goes there); the GM names others, each with a terrain and its own table (`regiao`, in
procedures/travel.py). Texts: tables/narracao/encontros.yaml.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Union, get_args

from companion.tables import protocol
from companion.engine.dice_rolls import die_range
from companion.engine.model import State, Terrain, Visibility
from companion.engine.characters import slug
from companion.engine.handlers import command
from companion.engine.rows import pick_row, row_text
from companion.engine.scratch import Scratch
from companion.engine.terrain import TerrainNames, group_for
from companion.engine.validators import require_chance, require_dice
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import InvalidValue, piece
from companion.tables.weights import Weight


@dataclass(frozen=True)
class TerrainGroup:
    """A group of terrains sharing an X-in-6 chance."""

    nome: str
    chance: int
    terrenos: tuple[str, ...]

    def validate(self) -> None:
        require_chance("chance", self.chance)


@piece("viagem", "encontro")
@dataclass(frozen=True)
class EncounterCheck:
    """tables/viagem.yaml `encontro`: the chance of an encounter each round, by terrain group."""

    nome: str
    sim: str
    nao: str
    grupos: tuple[TerrainGroup, ...]


@dataclass(frozen=True)
class EncounterRow:
    texto: str
    quantidade: str | None = None  # dice of how many appear

    def validate(self) -> None:
        if self.quantidade is not None:
            require_dice("quantidade", self.quantidade)


ROW_KEY = re.compile(r"\d+(-\d+|\+)?")  # a row: '3', '1-2', '14+'
PLAIN_DICE = re.compile(r"(\d*)d(\d+)")  # dice without modifiers: each total needs a row


def _reaches(key: str, low: int, high: int) -> bool:
    """Whether a row keyed '3', '1-2' or '14+' holds a total between low and high."""
    if key.endswith("+"):
        return high >= int(key[:-1])
    if "-" in key[1:]:
        first, last = key.split("-", 1)
        return int(first) <= high and int(last) >= low
    return low <= int(key) <= high


@dataclass(frozen=True)
class RegionTable:
    """A region and its encounter table: a terrain's default region (keyed by the terrain,
    named after it) or one the GM named (`regiao`, with its `terreno`)."""

    dados: str
    linhas: Mapping[Union[int, str], Union[str, EncounterRow]]
    nome: str | None = None  # the table's name (the roll says it); None: encontros.yaml `tabela`
    regiao: str | None = None  # the region's name; None: a terrain's default region
    terreno: Terrain | None = None  # None: a terrain's default region (its key)
    preposicao: str | None = None  # how people say "in" it: "na" Floresta Sombria, "no" Pântano

    def validate(self) -> None:
        require_dice("dados", self.dados)
        if not self.linhas:
            raise InvalidValue("linhas", "validacao.tabela_com_linhas")
        for key in self.linhas:
            if not ROW_KEY.fullmatch(str(key)):
                raise InvalidValue(f"linhas.{key}", "validacao.chave_de_linha")
        plain = PLAIN_DICE.fullmatch(self.dados.strip().lower())
        if plain:
            count, faces = int(plain.group(1) or 1), int(plain.group(2))
            for total in range(count, count * faces + 1):
                try:
                    pick_row(self.linhas, total)
                except CommandRejected:
                    raise InvalidValue("linhas", "validacao.linha_para_cada_resultado",
                                       {"dados": self.dados, "total": total}) from None

    def rows_out_of_reach(self) -> list[str]:
        """The rows its die never gives (a 1d4 over six rows: '5', '6'), in table order."""
        bounds = die_range(self.dados)
        if bounds is None:
            return []
        low, high = bounds
        return [str(key) for key in self.linhas if not _reaches(str(key).strip(), low, high)]

    def terreno_de(self, key: str) -> str:
        """The region's terrain (a default region's is its key)."""
        return self.terreno or key


@piece("encontros")
@dataclass(frozen=True)
class EncounterTables:
    """tables/encontros.yaml: the regions (a default one per terrain, the GM's own) and the
    encounter table of each."""

    quantos: str
    tabela: str  # the name of a region's table that gives none, "{regiao}": the region's name
    regioes: Mapping[str, RegionTable]
    preposicoes: tuple[str, ...]  # the prepositions a region may take ("na", "no", "em"…)
    padrao_da_casa: bool = True

    def validate(self) -> None:
        terrains = get_args(Terrain)
        missing = [terrain for terrain in terrains if terrain not in self.regioes]
        if missing:
            raise InvalidValue(f"regioes.{missing[0]}", "validacao.regiao_de_terreno")
        for key, region in self.regioes.items():
            if region.preposicao is not None and region.preposicao not in self.preposicoes:
                raise InvalidValue(f"regioes.{key}.preposicao", "validacao.preposicao_da_regiao",
                                   {"preposicoes": list(self.preposicoes),
                                    "valor": region.preposicao})
            if key in terrains and region.terreno not in (None, key):
                raise InvalidValue(f"regioes.{key}.terreno", "validacao.terreno_da_regiao_padrao",
                                   {"terreno": key})
            if key not in terrains and (region.regiao is None or region.terreno is None):
                if region.regiao is None:
                    raise InvalidValue(f"regioes.{key}.regiao", "validacao.nome_da_regiao")
                raise InvalidValue(f"regioes.{key}.terreno", "validacao.terreno_da_regiao",
                                   {"terrenos": list(terrains)})

    def check_against(self, rules: Any) -> None:
        """A region's name is not a terrain's, nor another region's."""
        terrain_names = rules(TerrainNames).names()
        taken = {slug(name) for name in terrain_names.values()} | set(terrain_names)
        seen: dict[str, str] = {}
        for key, region in self.regioes.items():
            if region.regiao is None:
                continue
            said = slug(region.regiao)
            if not said:
                raise InvalidValue(f"regioes.{key}.regiao", "validacao.nome_com_letras")
            if said in taken:
                raise InvalidValue(f"regioes.{key}.regiao", "validacao.regiao_nao_terreno",
                                   {"regiao": region.regiao})
            if said in seen:
                raise InvalidValue(f"regioes.{key}.regiao", "validacao.regiao_repetida",
                                   {"regiao": region.regiao, "outra": seen[said]})
            seen[said] = key

    def name(self, key: str, terrain_names: Mapping[str, str]) -> str:
        """How people call a region: its name, or its terrain's (a default region)."""
        region = self.regioes[key]
        return region.regiao or terrain_names.get(key, key)

    def names(self, terrain_names: Mapping[str, str]) -> dict[str, str]:
        """Every region's id → its name, in the file's order."""
        return {key: self.name(key, terrain_names) for key in self.regioes}

    def preposition(self, key: str) -> str | None:
        """How people say "in" a region ('na', 'no', 'nas'…), None when the data says none."""
        return self.regioes[key].preposicao

    def table_name(self, key: str, terrain_names: Mapping[str, str]) -> str:
        region = self.regioes[key]
        return region.nome or self.tabela.replace("{regiao}", self.name(key, terrain_names))


@piece("casa", "encontros")
@dataclass(frozen=True)
class EncounterSettings:
    """tables/casa.yaml `encontros`: who sees the encounter check and roll."""

    visibilidade: protocol.Seen


def encounter_visibility(scratch: Scratch) -> Visibility:
    return protocol.seen_by(scratch.piece(EncounterSettings).visibilidade)


def day_region(state: State) -> str:
    """The region where the party started the day (a terrain's default one: the terrain)."""
    return state.travel.day_start_region or state.travel.day_start_terrain


def current_region(state: State) -> str:
    """The region the party is in (a terrain's default one: the terrain)."""
    return state.travel.region or state.travel.terrain


def region_name(scratch: Scratch, key: str) -> str:
    """How people call a region (a terrain's default one: the terrain's name)."""
    return scratch.piece(EncounterTables).name(key, scratch.piece(TerrainNames).names())


def in_region(scratch: Scratch, key: str) -> str:
    """'na Floresta Sombria', 'no Pântano': the region with its own preposition (stored with
    it; tables/narracao/encontros.yaml `na_regiao`)."""
    return scratch.tables.narration.render("encontros.na_regiao", {
        "preposicao": scratch.piece(EncounterTables).preposition(key),
        "nome": region_name(scratch, key)})


def check_encounter(state: State, scratch: Scratch) -> bool:
    """X-in-6 by the terrain where the party started the day; on a hit, the table of the
    region where it started."""
    spec = scratch.piece(EncounterCheck)
    region = day_region(state)
    group = group_for(spec.grupos, state.travel.day_start_terrain, "viagem", "encontro.grupos",
                      scratch.tables.narration)
    happened = scratch.chance(group.chance, spec.nome, spec.sim, spec.nao,
                              visibility=encounter_visibility(scratch), regiao=region)
    if happened:
        roll_encounter(state, scratch)
    return happened


def roll_encounter(state: State, scratch: Scratch) -> None:
    """Roll on the start-of-day region's encounter table (the GM's own, in encontros.yaml);
    a row with `quantidade` rolls how many appear as its own rolagem."""
    tables = scratch.piece(EncounterTables)
    region = day_region(state)
    table = tables.regioes[region]
    visibility = encounter_visibility(scratch)
    name = tables.table_name(region, scratch.piece(TerrainNames).names())
    rolled = scratch.roll(table.dados, name, visibility=visibility,
                          describe=lambda total: row_text(pick_row(table.linhas, total)),
                          regiao=region, weight=Weight.ARRIVAL)
    row = pick_row(table.linhas, rolled.total)
    if isinstance(row, str) or row.quantidade is None:
        return
    what = row.texto
    count = scratch.roll(row.quantidade, tables.quantos, visibility=visibility,
                         describe=lambda total: f"{total} — {what}", regiao=region)
    scratch.tell("encontros.aparecem", visibility, weight=Weight.ARRIVAL,
                 quantidade=count.total, encontro=what, words={"dados": row.quantidade})


@command("encontro")
def encounter_command(state: State, scratch: Scratch) -> State:
    roll_encounter(state, scratch)
    return state
