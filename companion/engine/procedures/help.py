"""`ajuda` and `estado`.

- `ajuda`: the commands of the current mode with their help texts, only to whoever asked; a
  player sees only the commands marked `jogador: true`.
- `estado`: asked by the GM, a public summary plus a GM-only line (lost, monsters, pending
  prompts, the last secrets); asked by a player, the summary goes only to that player.

Both read the state through companion.engine.view (the one procedure module allowed to).
"""
from __future__ import annotations

from typing import Any, Mapping

from companion.engine.view import view_state
from companion.engine.model import GM, PUBLIC, State, player_visibility
from companion.engine.toolkit import Scratch, actor_character, command, plural
from companion.tables import Tables

FILE = "panico"


def _asker_visibility(scratch: Scratch) -> str:
    player = actor_character(scratch)
    return player_visibility(player) if player else GM


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
    player = actor_character(scratch) is not None
    listed = commands_for(state, scratch.tables, player)
    mode = scratch.table("comandos", "modos", state.mode)
    lines = "\n".join(f"• {text}" for _, text in listed)
    scratch.say(f"Comandos (modo {mode}):\n{lines}", _asker_visibility(scratch), kind="ajuda",
                modo=state.mode, comandos=[{"nome": n, "ajuda": t} for n, t in listed])
    return state


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
    player = actor_character(scratch)
    viewer = player_visibility(player) if player else PUBLIC
    view = view_state(state, viewer, scratch.tables)
    scratch.say(_summary(view), viewer, kind="estado", estado=view)
    if player is None:
        gm_view = view_state(state, GM, scratch.tables)
        scratch.say(_gm_line(gm_view, scratch.table(FILE, "nomes_pedidos")), GM, kind="estado", mestre=gm_view["mestre"],
                    pedidos=gm_view["pedidos"])
    return state
