"""Random encounters while travelling (tables/viagem.yaml `encontro`, tables/encontros.yaml):
the X-in-6 check by the terrain where the day started, the region's table (with how many
appear), who sees it (casa.yaml `encontros.visibilidade`), and `encontro` (roll one now).
"""
from __future__ import annotations

from typing import Mapping

from companion.engine.model import GM, PUBLIC, State
from companion.engine.toolkit import (
    DICE_TEXT,
    Scratch,
    command,
    group_for,
    pick_row,
    row_text,
    schema_rule,
)
from companion.errors import TableError
from companion.tables import register_schema

_ENCOUNTER_ROW = schema_rule(
    "um texto, ou um mapa com texto e quantidade (dados, como 2d4)",
    lambda row: isinstance(row, str) or (
        isinstance(row, Mapping) and isinstance(row.get("texto"), str)
        and set(row) <= {"texto", "quantidade"}
        and ("quantidade" not in row or isinstance(row["quantidade"], DICE_TEXT))))


register_schema("encontros", {
    "regioes": {"*": {"nome": str, "dados": DICE_TEXT, "linhas": {"*": _ENCOUNTER_ROW}}},
    "quantos": str,
})


def encounter_visibility(scratch: Scratch) -> str:
    chosen = scratch.table("casa", "encontros", "visibilidade")
    visibility = {"mestre": GM, "publico": PUBLIC}.get(chosen)
    if visibility is None:
        raise TableError(f"tables/casa.yaml: 'encontros.visibilidade' deveria ser mestre ou "
                         f"publico, não '{chosen}'")
    return visibility


def check_encounter(state: State, scratch: Scratch) -> bool:
    """X-in-6 by the terrain where the party started the day; on a hit, the region's table."""
    spec = scratch.table("viagem", "encontro")
    region = state.travel.day_start_terrain
    group = group_for(scratch, spec["grupos"], region, "encontro.grupos")
    happened = scratch.chance(group["chance"], spec["nome"], spec["sim"], spec["nao"],
                              visibility=encounter_visibility(scratch), regiao=region)
    if happened:
        roll_encounter(state, scratch)
    return happened


def roll_encounter(state: State, scratch: Scratch) -> None:
    """Roll on the start-of-day region's encounter table (the GM's own, in encontros.yaml);
    a row with `quantidade` rolls how many appear as its own rolagem."""
    table = scratch.table("encontros", "regioes", state.travel.day_start_terrain)
    visibility = encounter_visibility(scratch)
    rolled = scratch.roll(table["dados"], table["nome"], visibility=visibility,
                          describe=lambda total: row_text(pick_row(table["linhas"], total)),
                          regiao=state.travel.day_start_terrain)
    row = pick_row(table["linhas"], rolled.total)
    if not isinstance(row, Mapping) or "quantidade" not in row:
        return
    what = row_text(row)
    count = scratch.roll(str(row["quantidade"]), str(scratch.table("encontros", "quantos")),
                         visibility=visibility, describe=lambda total: f"{total} — {what}",
                         regiao=state.travel.day_start_terrain)
    scratch.say(f"Aparecem {count.total}: {what}.", visibility, quantidade=count.total,
                encontro=what)


@command("encontro")
def encounter_command(state: State, scratch: Scratch) -> State:
    roll_encounter(state, scratch)
    return state
