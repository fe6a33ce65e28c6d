"""`ajuda`, `estado` and `silencio`.

- `ajuda`: the commands of the current mode with their help texts, only to whoever asked; a
  player sees only the commands marked `jogador: true`.
- `estado`: asked by the GM, a public summary plus a GM-only line (lost, monsters, pending
  prompts, the last secrets, the afflictions only their players see); asked by a player, the
  summary (with their own afflictions) goes only to that player. (`estado Ana`, one
  character's sheet, is procedures/questions.py's; companion.engine.registry picks which.)

- `silencio`: the companion stops speaking ("mestre, silêncio"); the state does not change, the
  asker is told, and the server (which sees the command) silences the laptop and the pages.

`ajuda` and `estado` read the state through companion.engine.view (the one procedure module
allowed to).
"""
from __future__ import annotations

from typing import Any

from companion.tables import protocol
from companion.engine.view import view_state
from companion.engine.model import GM, PUBLIC, State
from companion.engine.handlers import command
from companion.engine.scratch import Scratch, actor_character
from companion.tables.protocol import CommandRules
from companion.tables.prompt_names import PromptLabels
from companion.tables.files import Tables
from companion.tables.weights import Weight


def _asker_visibility(scratch: Scratch) -> str:
    player = actor_character(scratch)
    return protocol.player_key(player) if player else GM


def commands_for(state: State, tables: Tables, player: bool) -> list[tuple[str, str]]:
    """(name, help) of the commands valid now; for a player only `jogador: true` ones."""
    modes = {"todos", state.mode}
    if state.mode == "perseguicao":
        modes.add("masmorra" if state.dungeon.active else "viagem")
    specs = tables.piece(CommandRules).comandos
    return [(name, spec.ajuda) for name, spec in specs.items()
            if modes & set(spec.modos) and (not player or spec.jogador)]


@command("ajuda")
def help_command(state: State, scratch: Scratch) -> State:
    """The commands of the current mode, only to whoever asked (tables/narracao/comandos.yaml
    `ajuda`)."""
    player = actor_character(scratch) is not None
    listed = commands_for(state, scratch.tables, player)
    mode = scratch.piece(CommandRules).modos.of(state.mode)
    scratch.tell("comandos.ajuda", _asker_visibility(scratch), "ajuda", weight=Weight.FRAMING,
                 words={"nome_modo": mode},
                 modo=state.mode, comandos=[{"nome": n, "ajuda": t} for n, t in listed])
    return state


@command("silencio")
def silence_command(state: State, scratch: Scratch) -> State:
    """Speech stops (the server acts on the command's name); only the asker reads that it
    did (tables/narracao/comandos.yaml `silencio`)."""
    scratch.tell("comandos.silencio", _asker_visibility(scratch), "aviso", weight=Weight.FRAMING)
    return state


def state_command(state: State, scratch: Scratch) -> State:
    """A short summary of the table, plus the GM's secrets line for the GM
    (tables/narracao/comandos.yaml `estado` and `estado_mestre`)."""
    player = actor_character(scratch)
    viewer = protocol.player_key(player) if player else PUBLIC
    view = view_state(state, viewer, scratch.tables)
    scratch.tell("comandos.estado", viewer, "estado", weight=Weight.FRAMING, estado=view)
    if player is None:
        gm_view = view_state(state, GM, scratch.tables)
        names = {c["id"]: c["nome"] for c in gm_view["grupo"]}
        words: dict[str, Any] = {"tipos": scratch.piece(PromptLabels).nomes_pedidos,
                                 "nomes": names}
        unseen = _private_afflictions(state)
        if unseen:  # only then: the line (and its stored words) stays as it was without them
            words["so_do_jogador"] = unseen
        effects = _private_effects(gm_view, view)
        if effects:  # likewise: a brief panic effect with its rolled rounds, the player's
            words["efeitos_do_jogador"] = effects
        scratch.tell("comandos.estado_mestre", GM, "estado", weight=Weight.FRAMING,
                     mestre=gm_view["mestre"],
                     pedidos=gm_view["pedidos"], words=words)
    return state


def _private_effects(gm_view: dict[str, Any], shown: dict[str, Any]) -> list[dict[str, Any]]:
    """[{nome, efeitos}]: the conditions on a sheet that the public summary leaves out (a
    brief panic effect only its player and the GM see), as the GM's sheet says them."""
    public = {c["id"]: set(c["condicoes"]) for c in shown["grupo"]}
    found = [{"nome": c["nome"], "efeitos": [t for t in c["condicoes"]
                                             if t not in public.get(c["id"], set())]}
             for c in gm_view["grupo"]]
    return [c for c in found if c["efeitos"]]


def _private_afflictions(state: State) -> list[dict[str, Any]]:
    """[{nome, aflicoes}]: the afflictions only their player (and the GM) see, which the
    public summary leaves out."""
    found = [{"nome": c.name, "aflicoes": [a.name for a in c.afflictions
                                           if a.visibility != PUBLIC]} for c in state.party]
    return [c for c in found if c["aflicoes"]]
