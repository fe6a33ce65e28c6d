"""`remover personagem Nome`: a character that never played leaves the party (a name joined
by mistake, a flood of names). It can be undone like any command.

The engine takes the character out of everything that names it: the party, the prompts
waiting for it (each said cancelled, as `cancelar` says it), the watch, the marching order and
the chase's roller. A character that already acted in the current travel round is refused
here; whether it ever played at all (its player's phones sent a command, or a phone holds its
seat) is the session's to check, from the log (companion.session).
"""
from __future__ import annotations

from dataclasses import replace

from companion.engine.model import PUBLIC, State
from companion.engine.characters import find_character
from companion.engine.handlers import command
from companion.engine.prompting import prompt_visibility
from companion.engine.scratch import Scratch, arg
from companion.tables.errors import CommandRejected
from companion.tables.prompt_names import PromptLabels

REMOVE = "remover_personagem"


@command(REMOVE)
def remove_character(state: State, scratch: Scratch) -> State:
    """Take a character that never played out of the party."""
    name = arg(scratch, "personagem")
    if not name:
        raise CommandRejected.because("personagem.remover_sem_nome",
                                      personagens=[c.name for c in state.party])
    character = find_character(state, str(name))
    if any(who == character.id for who, _ in state.travel.acted):
        raise CommandRejected.because("personagem.remover_ja_jogou", nome=character.name)
    labels = scratch.piece(PromptLabels)
    for prompt in (p for p in state.prompts if p.character == character.id):
        scratch.tell("pedidos.cancelado", prompt_visibility(prompt), pedido=prompt.id,
                     tipo=prompt.kind, personagem=prompt.character, cancelado=True,
                     words={"dono": character.name, "nome_tipo": labels.kind_name(prompt.kind)})
    gone = character.id
    travel, dungeon, chase = state.travel, state.dungeon, state.chase
    state = replace(
        state,
        party=tuple(c for c in state.party if c.id != gone),
        prompts=tuple(p for p in state.prompts if p.character != gone),
        travel=replace(travel, watcher=None if travel.watcher == gone else travel.watcher),
        dungeon=replace(dungeon, marching_order=tuple(
            c for c in dungeon.marching_order if c != gone)),
        chase=replace(chase, roller=None) if chase is not None and chase.roller == gone
        else chase)
    scratch.tell("personagem.removido", PUBLIC, personagem=gone, words={"nome": character.name})
    return state
