"""The campaign across sessions: `nova_sessao` ends the session and starts the next one.

A session boundary is an ordinary logged command, so replay, undo and a kill -9 keep working
and one SQLite file (`--db`) holds the whole campaign. Everything about the world carries over
(characters, supplies, afflictions, position, terrain, clock, lights, the GM's monster list);
what belongs to one session resets: the session form (`State.tally`) and the session number
goes up by one. The ended session's full form goes to the GM in its own event, so the log
keeps it; the table hears that the session ended and where the next one starts.

Refused while a prompt waits: a prompt belongs to the session it was asked in.
"""
from __future__ import annotations

from dataclasses import replace

from companion.engine.clock import day_of
from companion.engine.procedures.tally import current_region, form_text, tally_dict
from companion.engine.model import GM, PUBLIC, State, Tally
from companion.engine.handlers import command
from companion.engine.scratch import Scratch
from companion.tables.errors import CommandRejected
from companion.tables.prompt_names import PromptLabels
from companion.tables.weights import Weight


@command("nova_sessao")
def new_session_command(state: State, scratch: Scratch) -> State:
    """End this session (its form to the GM) and start the next one where the party is.
    Texts: tables/narracao/campanha.yaml."""
    if state.prompts:
        names = {c.id: c.name for c in state.party}
        kinds = scratch.piece(PromptLabels)
        raise CommandRejected.because("campanha.pedidos_pendentes", pedidos=[
            p.id for p in state.prompts], pendentes=[
            {"id": p.id, "tipo": kinds.kind_name(p.kind), "grupo": p.party,
             "dono": names.get(p.character, p.character) if p.character else None}
            for p in state.prompts])
    ended, starting = state.session, state.session + 1
    scratch.tell("campanha.ficha", GM, weight=Weight.FRAMING,
                 sessao=ended, registro=tally_dict(state.tally),
                 words={"ficha": form_text(state, scratch.tables.narration, True)})
    place = current_region(state, scratch)
    scratch.tell("campanha.nova_sessao", PUBLIC, encerrada=ended, sessao=starting,
                 dia=day_of(state), lugar=place)
    return replace(state, session=starting, tally=Tally())
