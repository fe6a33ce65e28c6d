"""Dice and tables: `rolar`, `segredo` and `tabela`.

- `rolar expressao [vantagem]`: a public rolagem ("Rolagem"). A player's roll names their
  character, and Tabela I's DESV applies to an exhausted character: it cancels a vantagem said
  aloud, and is the edge when none was said.
- `tabela X`: looks X up in tables/dados.yaml `tabelas` (which file and key hold it, and its
  form). Tables with rows to roll (D on the current terrain's column, F, H, K, the dungeon's B,
  and the start-of-day region's encounters) are rolled and only shown — nothing is applied.
  Chance, DC and modifier tables (A, B, C, E, G, I, J and the dungeon's A and C) have nothing to
  roll by themselves: the companion explains them, marking the line that applies now. Each
  table is read as the typed value of the piece that owns it (piece_lookup.typed_at, resolved once
  per rules load): an entry no piece types, or whose forma the table cannot take, is a load error.
- `segredo [expressao] [motivo]`: a GM-only rolagem (default 1d20), noted in state.secrets.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable, Literal, Mapping, get_args

from companion.engine.model import GM, State, TravelMode
from companion.engine.procedures.dungeon import DungeonRules
from companion.engine.procedures.travel import TravelModes
from companion.engine.characters import edge_for, slug
from companion.engine.handlers import command
from companion.engine.rows import pick_row, row_text
from companion.engine.scratch import Scratch, actor_character, arg
from companion.engine.terrain import group_for
from companion.engine.validators import require_dice
from companion.tables.errors import CommandRejected, TableError
from companion.tables.piece_lookup import typed_at
from companion.tables.rulebook import InvalidValue, piece
from companion.tables.files import Tables

FILE = "dados"


EDGES = ("vantagem", "desvantagem")


def _edge(said: Any, exhausted: bool) -> tuple[str | None, str | None]:
    """The edge to roll with, and why exhaustion changed it (for the roll's heading):
    'anulam' (vantagem said, cancelled by DESV), 'desv' (DESV of exhaustion), or None."""
    if said not in (None, "", *EDGES):
        raise CommandRejected.because("dados.vantagem_desconhecida", vantagem=said)
    if not exhausted or said == "desvantagem":
        return (said or None), None
    if said == "vantagem":
        return None, "anulam"
    return "desvantagem", "desv"


@command("rolar")
def roll_command(state: State, scratch: Scratch) -> State:
    """Roll any dice expression in public."""
    expression = str(arg(scratch, "expressao") or "").strip()
    if not expression:
        raise CommandRejected.because("dados.o_que_rolar")
    player = actor_character(scratch)
    character = next((c for c in state.party if c.id == player), None)
    exhausted = character is not None and edge_for(character, scratch.tables, state.minutes) is not None
    edge, note = _edge(arg(scratch, "vantagem"), exhausted)
    name = scratch.piece(DiceRules).rolagens.nome
    who = (character.name if character else player) if player else None
    extra = {"personagem": player, "quem": who} if player else {}
    label = scratch.tables.narration.render("dados.rotulo_rolar", {
        "quem": who, "nome": name, "nota": note})
    scratch.roll(expression, name, edge=edge, label=label, **extra)
    return state


@command("segredo")
def secret_command(state: State, scratch: Scratch) -> State:
    """A roll only the GM sees, noted among the secrets."""
    spec = scratch.piece(DiceRules).rolagens
    expression = str(arg(scratch, "expressao") or spec.secreta_padrao)
    reason = " ".join(str(arg(scratch, "motivo") or "").split())[:80]
    name = f"{spec.nome_secreta}: {reason}" if reason else spec.nome_secreta
    rolled = scratch.roll(expression, name, visibility=GM, motivo=reason or None)
    note = f"{reason or spec.nome_secreta}: {rolled.expression} = {rolled.total}"
    return replace(state, secrets=state.secrets + (note,))


# ---------------------------------------------------------------- tabela

def _roll_rows(scratch: Scratch, name: str, dice: str, rows: Mapping[Any, Any], visibility: str,
               **extra: Any) -> None:
    scratch.roll(str(dice), str(name), visibility=visibility, consulta=True,
                 describe=lambda total: row_text(pick_row(rows, total)), **extra)


def _roll_column(state: State, scratch: Scratch, table: Any, entry: TableEntry) -> None:
    """Tabela D: the column of the current terrain."""
    column = group_for(table.colunas, state.travel.terrain, entry.arquivo,
                       f"{entry.chave}.colunas", scratch.tables.narration)
    _roll_rows(scratch, table.nome, getattr(table, str(entry.dados)), column.linhas,
               entry.visibilidade, coluna=column.nome)


def _roll_encounter(state: State, scratch: Scratch, regions: Any, entry: TableEntry) -> None:
    """The encounter table of the region where the day started."""
    region = regions[state.travel.day_start_terrain]
    _roll_rows(scratch, region.nome, region.dados, region.linhas, entry.visibilidade)


def _roll_plain(state: State, scratch: Scratch, table: Any, entry: TableEntry) -> None:
    _roll_rows(scratch, table.nome, table.dados, table.linhas, entry.visibilidade)


Roller = Callable[[State, Scratch, Any, "TableEntry"], None]


ROLL: dict[str, Roller] = {"colunas": _roll_column, "encontros": _roll_encounter,
                           "rolar": _roll_plain}


def _fraction(value: Any) -> str:
    return str(Fraction(str(value)).limit_denominator(8))


def _explain_advance(state: State, scratch: Scratch, table: Any) -> list[str]:
    names = scratch.piece(TravelModes)
    return [scratch.tables.narration.render("dados.linha_avancar", {
        "modo": names.name(mode) if mode in get_args(TravelMode) else mode, "hexes": _fraction(hexes),
        "agora": mode == state.travel.mode}) for mode, hexes in table.hexes.items()]


def _explain_forced(state: State, scratch: Scratch, table: Any) -> list[str]:
    return scratch.tables.narration.render("dados.linhas_forcando", {
        "rodadas": table.rodadas_sem_penalidade, "atributo": str(table.atributo).upper(),
        "dc": table.dc, "por_rodada": table.dc_por_rodada}).split("\n")


def _explain_groups(state: State, scratch: Scratch, table: Any) -> list[str]:
    return [scratch.tables.narration.render("dados.linha_grupo", {
        "nome": g.nome, "chance": g.chance, "agora": state.travel.terrain in g.terrenos})
        for g in table.grupos]


def _explain_activities(state: State, scratch: Scratch, table: Any) -> list[str]:
    names = table.atividades
    return [scratch.tables.narration.render("dados.linha_atividades", {
        "nome": row.nome, "chances": [(label, getattr(row, key)) for key, label in names.items()],
        "agora": state.travel.terrain in row.terrenos}) for row in table.linhas]


def _explain_modifiers(state: State, scratch: Scratch, table: Any) -> list[str]:
    return [scratch.tables.narration.render("dados.linha_modificador", {
        "nome": row.nome, "modificador": int(row.modificador),
        "agora": state.travel.terrain in row.terrenos}) for row in table.linhas]


def _explain_texts(state: State, scratch: Scratch, table: Any) -> list[str]:
    return [scratch.tables.narration.render("dados.linha_texto", {
        "nome": key, "texto": row_text(row), "agora": False})
        for key, row in table.linhas.items()]


def _explain_levels(state: State, scratch: Scratch, table: Any) -> list[str]:
    names = scratch.piece(DungeonRules).tabela_a.niveis
    current = state.dungeon.danger if state.dungeon.active else None
    return [scratch.tables.narration.render("dados.linha_texto", {
        "nome": names[level].nome if level in names else level, "texto": row.texto,
        "agora": level == current}) for level, row in table.niveis.items()]


Explainer = Callable[[State, Scratch, Any], list[str]]


EXPLAIN: dict[str, Explainer] = {
    "avancar": _explain_advance, "forcando": _explain_forced, "grupos": _explain_groups,
    "atividades": _explain_activities, "modificadores": _explain_modifiers,
    "textos": _explain_texts, "niveis": _explain_levels,
}


# The keys of the typed table each forma reads (`colunas` also its `dados`; `encontros` reads a
# map of regions, each with the keys of `rolar`).
READS: dict[str, tuple[str, ...]] = {
    "colunas": ("nome", "colunas"), "encontros": ("nome", "dados", "linhas"),
    "rolar": ("nome", "dados", "linhas"), "avancar": ("hexes",),
    "forcando": ("rodadas_sem_penalidade", "atributo", "dc", "dc_por_rodada"),
    "grupos": ("grupos",), "atividades": ("atividades", "linhas"), "modificadores": ("linhas",),
    "textos": ("linhas",), "niveis": ("niveis",),
}


def _lacking(entry: TableEntry, table: Any) -> str | None:
    """What the typed table lacks that the entry's forma reads ("'linhas'"; "" when a table
    of encounters is no map of regions), or None."""
    keys = READS[entry.forma] + ((str(entry.dados),) if entry.forma == "colunas" else ())
    if entry.forma == "encontros":
        if not isinstance(table, Mapping):
            return ""
        found = (f"'{region}.{key}'" for region, value in table.items() for key in keys
                 if not hasattr(value, key))
    else:
        found = (f"'{key}'" for key in keys if not hasattr(table, key))
    return next(found, None)


@dataclass(frozen=True)
class TableEntry:
    """An entry of dados.yaml `tabelas`: where a seed table is (`arquivo`, `chave`), what
    `tabela X` does with it (`forma`: ROLL or EXPLAIN) and who sees it; a table rolled by
    columns (`colunas`) names which of its dice (`dados`)."""

    arquivo: str
    chave: str
    forma: str
    visibilidade: Literal["public", "gm"]
    dados: str | None = None

    def validate(self) -> None:
        if self.forma not in (*ROLL, *EXPLAIN):
            raise InvalidValue("forma", "validacao.um_destes", {"opcoes": (*ROLL, *EXPLAIN)})
        if self.forma == "colunas" and self.dados is None:
            raise InvalidValue("dados", "validacao.dados_das_colunas")

    def typed(self, rules: Callable[[type[Any]], Any]) -> Any:
        """The typed value this entry names (piece_lookup.typed_at); LookupError if none."""
        return typed_at(rules, self.arquivo, self.chave)

    def check_against(self, rules: Callable[[type[Any]], Any]) -> None:
        try:
            table = self.typed(rules)
        except LookupError:
            raise InvalidValue("chave", "validacao.parte_tipada",
                               {"arquivo": self.arquivo, "chave": self.chave}) from None
        lacking = _lacking(self, table)
        if lacking is not None:
            field = "dados" if lacking == f"'{self.dados}'" else "forma"
            raise InvalidValue(field, "validacao.forma_da_tabela",
                               {"arquivo": self.arquivo, "chave": self.chave, "falta": lacking})


@dataclass(frozen=True)
class FreeRolls:
    """dados.yaml `rolagens`: the names of `rolar` and `segredo`, and a secret's default dice."""

    nome: str
    nome_secreta: str
    secreta_padrao: str
    padrao_da_casa: bool = False

    def validate(self) -> None:
        require_dice("secreta_padrao", self.secreta_padrao)


@piece(FILE)
@dataclass(frozen=True)
class DiceRules:
    """tables/dados.yaml: the free and secret rolls and the index of `tabela X`."""

    rolagens: FreeRolls
    tabelas: Mapping[str, TableEntry]


def typed_tables(tables: Tables) -> dict[str, Any]:
    """Each table of dados.yaml `tabelas`, by key: its typed value (once per rules load)."""
    return {key: entry.typed(tables.piece)
            for key, entry in tables.piece(DiceRules).tabelas.items()}


def _table_key(scratch: Scratch) -> str:
    raw = str(arg(scratch, "tabela") or "")
    key = slug(raw).replace("-", "_").removeprefix("tabela_")
    known = scratch.piece(DiceRules).tabelas
    if key not in known:
        raise CommandRejected.because("dados.tabela_desconhecida", tabela=raw,
                                      letras=[k.upper() if len(k) == 1 else k for k in known])
    return key


@command("tabela")
def table_command(state: State, scratch: Scratch) -> State:
    """Roll on a seed table, or explain it when it has nothing to roll."""
    key = _table_key(scratch)
    entry = scratch.piece(DiceRules).tabelas[key]
    table = scratch.tables.derived(typed_tables)[key]
    try:
        if entry.forma in ROLL:
            ROLL[entry.forma](state, scratch, table, entry)
            return state
        lines = EXPLAIN[entry.forma](state, scratch, table)
    except (TableError, KeyError, AttributeError) as error:  # a terrain or region not covered
        raise CommandRejected.because("dados.tabela_incompleta", tabela=key,
                                      erro=str(error)) from None
    scratch.tell("dados.consulta", entry.visibilidade, tabela=getattr(table, "nome", key),
                 linhas=lines)
    return state
