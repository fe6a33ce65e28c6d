"""The small commands: `rolar`, `tabela`, `segredo`, `ajuda` and `estado`.

- `rolar expressao [vantagem]`: a public rolagem ("Rolagem"). A player's roll names their
  character, and Tabela I's DESV applies to an exhausted character: it cancels a vantagem said
  aloud, and is the edge when none was said.
- `tabela X`: looks X up in tables/panico.yaml `tabelas` (which file and key hold it, and its
  form). Tables with rows to roll (D on the current terrain's column, F, H, K, the dungeon's B,
  and the start-of-day region's encounters) are rolled and only shown — nothing is applied.
  Chance, DC and modifier tables (A, B, C, E, G, I, J and the dungeon's A and C) have nothing to
  roll by themselves: the companion explains them, marking the line that applies now.
- `segredo [expressao] [motivo]`: a GM-only rolagem (default 1d20), noted in state.secrets.
- `ajuda`: the commands of the current mode with their help texts, only to whoever asked; a
  player sees only the commands marked `jogador: true`.
- `estado`: asked by the GM, a public summary plus a GM-only line (lost, monsters, pending
  prompts, the last secrets); asked by a player, the summary goes only to that player.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable, Mapping

from companion.engine.core import (
    DICE_TEXT,
    Scratch,
    plural,
    arg,
    command,
    edge_for,
    one_of,
    pick_row,
    slug,
    variant,
)
from companion.engine.hexcrawl import group_for
from companion.engine.model import GM, PUBLIC, State, player_visibility
from companion.engine.party import _actor_character as _player_id
from companion.engine.rest import row_text
from companion.engine.view import view_state
from companion.errors import CommandRejected, TableError
from companion.tables import Tables, register_schema

FILE = "panico"
EDGES = ("vantagem", "desvantagem")
MARK = " ◀ agora"


def _asker_visibility(scratch: Scratch) -> str:
    player = _player_id(scratch)
    return player_visibility(player) if player else GM


# ---------------------------------------------------------------- rolar

def _edge(said: Any, exhausted: bool) -> tuple[str | None, str]:
    """The edge to roll with, and a note for people when exhaustion changed it."""
    if said not in (None, "", *EDGES):
        raise CommandRejected(f"vantagem desconhecida: '{said}'; use vantagem ou desvantagem")
    if not exhausted or said == "desvantagem":
        return (said or None), ""
    if said == "vantagem":
        return None, " (vantagem e a DESV da exaustão se anulam)"
    return "desvantagem", " (DESV da exaustão)"


@command("rolar")
def roll_command(state: State, scratch: Scratch) -> State:
    """Roll any dice expression in public."""
    expression = str(arg(scratch, "expressao") or "").strip()
    if not expression:
        raise CommandRejected("diga o que rolar, como 'rolar 2d6+1' ou 'rolar d20 com vantagem'")
    player = _player_id(scratch)
    character = next((c for c in state.party if c.id == player), None)
    exhausted = character is not None and edge_for(character, scratch.tables, state.minutes) is not None
    edge, note = _edge(arg(scratch, "vantagem"), exhausted)
    name = str(scratch.table(FILE, "rolagens", "nome"))
    who = f"{character.name if character else player}: " if player else ""
    extra = {"personagem": player} if player else {}
    scratch.roll(expression, name, edge=edge, label=f"{who}{name}{note}", **extra)
    return state


# ---------------------------------------------------------------- segredo

@command("segredo")
def secret_command(state: State, scratch: Scratch) -> State:
    """A roll only the GM sees, noted among the secrets."""
    spec = scratch.table(FILE, "rolagens")
    expression = str(arg(scratch, "expressao") or spec["secreta_padrao"])
    reason = " ".join(str(arg(scratch, "motivo") or "").split())[:80]
    name = f"{spec['nome_secreta']}: {reason}" if reason else str(spec["nome_secreta"])
    rolled = scratch.roll(expression, name, visibility=GM, motivo=reason or None)
    note = f"{reason or spec['nome_secreta']}: {rolled.expression} = {rolled.total}"
    return replace(state, secrets=state.secrets + (note,))


# ---------------------------------------------------------------- ajuda

def commands_for(state: State, tables: Tables, player: bool) -> list[tuple[str, str]]:
    """(name, help) of the commands valid now; for a player only `jogador: true` ones."""
    modes = {"todos", state.mode}
    if state.mode == "perseguicao":
        modes.add("masmorra" if state.dungeon.active else "viagem")
    specs = tables.get("comandos", "comandos")
    return [(name, str(spec.get("ajuda", name))) for name, spec in specs.items()
            if modes & set(spec.get("modos", ["todos"]))
            and (not player or spec.get("jogador", False))]


@command("ajuda")
def help_command(state: State, scratch: Scratch) -> State:
    """The commands of the current mode, only to whoever asked."""
    player = _player_id(scratch) is not None
    listed = commands_for(state, scratch.tables, player)
    mode = scratch.table("comandos", "modos", state.mode)
    lines = "\n".join(f"• {text}" for _, text in listed)
    scratch.say(f"Comandos (modo {mode}):\n{lines}", _asker_visibility(scratch), kind="ajuda",
             modo=state.mode, comandos=[{"nome": n, "ajuda": t} for n, t in listed])
    return state


# ---------------------------------------------------------------- estado

def _summary(view: Mapping[str, Any]) -> str:
    weather = view["clima"] or "clima não rolado"
    parts = [str(view["relogio"]), f"{view['estacao_nome']}: {weather}"]
    dungeon, chase = view["masmorra"], view["perseguicao"]
    if dungeon:
        lights = ", ".join(f"{t['nome']} ({plural(t['turnos'], 'turno')})"
                           for t in dungeon["luzes"])
        parts.append(f"masmorra, perigo {dungeon['perigo_efetivo_nome']}"
                     + (" (escuridão total)" if dungeon["escuro"] else f"; luz: {lights}"))
    else:
        travel = view["viagem"]
        parts.append(f"{view['terreno_nome']}, {travel['modo_nome']}, {travel['hexes_texto']}")
    if chase:
        parts.append(f"perseguição ({chase['fase']}): distância {chase['distancia_nome']}, "
                     f"placar {chase['placar']:+d}"
                     + (f", velocidade {chase['velocidade_grupo']} × "
                        f"{chase['velocidade_perseguidores']} ({chase['velocidade_diferenca']})"
                        if "velocidade_grupo" in chase else ""))
    party = "; ".join(f"{c['nome']} PV {c['pv']}/{c['pv_max']} San {c['sanidade']} "
                      f"Exa {c['exaustao']} Com {c['comida']} Água {c['agua']} Mun {c['municao']}"
                      + _harm_text(c) for c in view["grupo"]) or "nenhum personagem"
    return " · ".join(parts) + f"\nGrupo: {party}"


def _harm_text(character: Mapping[str, Any]) -> str:
    """' Dano SAB 2' (attribute damage), then every condition and affliction:
    ' · Insanidade · Tornozelo torcido: … · Mosquitos (DESV, mais 2 rodadas) · aflição: Fobia'."""
    harm = ", ".join(f"{k.upper()} {v}" for k, v in character["dano_atributos"].items())
    shown = "".join(f" · {text}" for text in character["condicoes"])
    shown += "".join(f" · aflição: {name}" for name in character["aflicoes"])
    return (f" Dano {harm}" if harm else "") + shown


def _monster_text(monster: Mapping[str, Any]) -> str:
    """'Ogro (sala 3, alertado)', as the turn's reminder says it."""
    notes = ([f"sala {monster['sala']}"] if monster["sala"] else []) + (
        ["alertado"] if monster["alertado"] else [])
    return str(monster["nome"]) + (f" ({', '.join(notes)})" if notes else "")


def _gm_line(view: Mapping[str, Any], kinds: Mapping[str, str]) -> str:
    secret = view["mestre"]
    monsters = ", ".join(_monster_text(m) for m in secret["monstros"]) or "nenhum"
    names = {c["id"]: c["nome"] for c in view["grupo"]}
    prompts = ", ".join(f"{p['id']} {kinds.get(p['tipo'], p['tipo'])} "
                        f"({names.get(p['personagem'], p['personagem'] or 'Mestre')})"
                        for p in view["pedidos"]) or "nenhum"
    lost = "sim" if secret["perdido"] else "não"
    secrets = "; ".join(secret["segredos"][-3:]) or "nenhuma"
    return (f"Só o Mestre — perdidos: {lost}; monstros: {monsters}; "
            f"pedidos pendentes: {prompts}; últimas rolagens secretas: {secrets}")


@command("estado")
def state_command(state: State, scratch: Scratch) -> State:
    """A short summary of the table, plus the GM's secrets line for the GM."""
    player = _player_id(scratch)
    viewer = player_visibility(player) if player else PUBLIC
    view = view_state(state, viewer, scratch.tables)
    scratch.say(_summary(view), viewer, kind="estado", estado=view)
    if player is None:
        gm_view = view_state(state, GM, scratch.tables)
        scratch.say(_gm_line(gm_view, scratch.table(FILE, "nomes_pedidos")), GM, kind="estado", mestre=gm_view["mestre"],
                 pedidos=gm_view["pedidos"])
    return state


# ---------------------------------------------------------------- tabela

def _roll_rows(scratch: Scratch, name: str, dice: str, rows: Mapping[Any, Any], visibility: str,
               **extra: Any) -> None:
    scratch.roll(str(dice), str(name), visibility=visibility, consulta=True,
              describe=lambda total: row_text(pick_row(rows, total)), **extra)


def _roll_column(state: State, scratch: Scratch, node: Any, entry: Mapping[str, Any]) -> None:
    """Tabela D: the column of the current terrain."""
    column = group_for(scratch, node["colunas"], state.travel.terrain, f"{entry['chave']}.colunas")
    _roll_rows(scratch, node["nome"], node[entry["dados"]], column["linhas"],
               str(entry["visibilidade"]), coluna=column["nome"])


def _roll_encounter(state: State, scratch: Scratch, node: Any, entry: Mapping[str, Any]) -> None:
    """The encounter table of the region where the day started."""
    region = node[state.travel.day_start_terrain]
    _roll_rows(scratch, region["nome"], region["dados"], region["linhas"],
               str(entry["visibilidade"]))


def _roll_plain(state: State, scratch: Scratch, node: Any, entry: Mapping[str, Any]) -> None:
    _roll_rows(scratch, node["nome"], node["dados"], node["linhas"],
               str(entry["visibilidade"]))


Roller = Callable[[State, Scratch, Any, Mapping[str, Any]], None]
ROLL: dict[str, Roller] = {"colunas": _roll_column, "encontros": _roll_encounter,
                           "rolar": _roll_plain}


def _fraction(value: Any) -> str:
    return str(Fraction(str(value)).limit_denominator(8))


def _explain_advance(state: State, scratch: Scratch, node: Any) -> list[str]:
    names = scratch.table("viagem", "modos")
    return [f"{names.get(mode, mode)}: {_fraction(hexes)} hex por rodada"
            + (MARK if mode == state.travel.mode else "") for mode, hexes in node["hexes"].items()]


def _explain_forced(state: State, scratch: Scratch, node: Any) -> list[str]:
    return [f"Além de {node['rodadas_sem_penalidade']} rodadas consecutivas: teste de "
            f"{str(node['atributo']).upper()}",
            f"1 rodada extra: DC {node['dc']}", f"rodadas subsequentes: +{node['dc_por_rodada']}"]


def _explain_groups(state: State, scratch: Scratch, node: Any) -> list[str]:
    return [f"{g['nome']}: {g['chance']}:6"
            + (MARK if state.travel.terrain in g["terrenos"] else "") for g in node["grupos"]]


def _explain_activities(state: State, scratch: Scratch, node: Any) -> list[str]:
    names = node["atividades"]
    return [f"{row['nome']}: " + ", ".join(f"{label} {row[key]}:6" for key, label in names.items())
            + (MARK if state.travel.terrain in row["terrenos"] else "") for row in node["linhas"]]


def _explain_modifiers(state: State, scratch: Scratch, node: Any) -> list[str]:
    return [f"{row['nome']}: {int(row['modificador']):+d}"
            + (MARK if state.travel.terrain in row["terrenos"] else "") for row in node["linhas"]]


def _explain_texts(state: State, scratch: Scratch, node: Any) -> list[str]:
    return [f"{key}: {row_text(row)}" for key, row in node["linhas"].items()]


def _explain_levels(state: State, scratch: Scratch, node: Any) -> list[str]:
    names = scratch.table("masmorra", "tabela_a", "niveis")
    current = state.dungeon.danger if state.dungeon.active else None
    return [f"{names.get(level, {}).get('nome', level)}: {row['texto']}"
            + (MARK if level == current else "") for level, row in node["niveis"].items()]


Explainer = Callable[[State, Scratch, Any], list[str]]
EXPLAIN: dict[str, Explainer] = {
    "avancar": _explain_advance, "forcando": _explain_forced, "grupos": _explain_groups,
    "atividades": _explain_activities, "modificadores": _explain_modifiers,
    "textos": _explain_texts, "niveis": _explain_levels,
}


_ENTRY = {"arquivo": str, "chave": str, "forma": str, "visibilidade": one_of(PUBLIC, GM)}
_FORMS = {**{form: _ENTRY for form in (*ROLL, *EXPLAIN)}, "colunas": {**_ENTRY, "dados": str}}
register_schema(FILE, {
    "tabelas": {"*": variant("forma", _FORMS)},
    "rolagens": {"nome": str, "nome_secreta": str, "secreta_padrao": DICE_TEXT},
})


def _table_key(scratch: Scratch) -> str:
    raw = str(arg(scratch, "tabela") or "")
    key = slug(raw).replace("-", "_").removeprefix("tabela_")
    known = scratch.table(FILE, "tabelas")
    if key not in known:
        letters = ", ".join(k.upper() if len(k) == 1 else k for k in known)
        raise CommandRejected(f"tabela desconhecida: '{raw}'; use {letters}")
    return key


@command("tabela")
def table_command(state: State, scratch: Scratch) -> State:
    """Roll on a seed table, or explain it when it has nothing to roll."""
    key = _table_key(scratch)
    entry = scratch.table(FILE, "tabelas", key)
    try:
        node = scratch.table(str(entry["arquivo"]), str(entry["chave"]))
        if entry["forma"] in ROLL:
            ROLL[entry["forma"]](state, scratch, node, entry)
            return state
        lines = EXPLAIN[entry["forma"]](state, scratch, node)
    except (TableError, KeyError, TypeError) as error:
        raise CommandRejected(f"a tabela '{key}' não está completa nos dados ({error}); "
                              "confira tables/") from None
    title = node.get("nome", key) if isinstance(node, Mapping) else key
    text = f"{title} (nada a rolar; a tabela é consultada pelos comandos):\n" + "\n".join(lines)
    scratch.say(text, str(entry["visibilidade"]), tabela=title, linhas=lines)
    return state

