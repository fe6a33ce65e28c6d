"""The table's questions, answered only to whoever asked (tables/narracao/perguntas.yaml).

- `tempo`: the clock and what runs out, as the current mode has it — travelling, the day, the
  round and the rounds left in the day (and whether the party rested today); in a dungeon, the
  time of day, the turn, each light and spell with its turns and minutes left, and the turns
  until the hourly rest; in a chase, its turn against the limit too.
- `estado` with a `personagem`: that character's sheet in one sentence, as the asker's group
  list shows it (companion.engine.view): the GM and the character's own player read it all,
  another player only what the group list shows them (never an affliction kept private).

Both only read the state: they change nothing and roll nothing (companion.history.replay READ_ONLY).
A character's sheet is read through the view, like `estado`'s: one place decides who sees what.
"""
from __future__ import annotations

from typing import Any

from companion.tables import protocol
from companion.engine.clock import MINUTES_PER_DAY, MINUTES_PER_HOUR, day_of
from companion.engine.model import GM, Chase, State, Timer
from companion.engine.procedures.chase import ChaseRules
from companion.engine.procedures.conditions import TravelRound
from companion.engine.procedures.dungeon import DungeonRules, is_dark
from companion.engine.procedures.travel import round_of
from companion.engine.characters import find_character
from companion.engine.handlers import command
from companion.engine.scratch import Scratch, actor_character, arg
from companion.engine.view import view_state
from companion.tables.light_sources import LightRules
from companion.tables.weights import Weight


def asker(scratch: Scratch) -> str:
    """Who asked, as a visibility: that player, or the GM."""
    player = actor_character(scratch)
    return protocol.player_key(player) if player else GM


# ---------------------------------------------------------------- tempo

@command("tempo")
def time_question(state: State, scratch: Scratch) -> State:
    """The clock and what runs out, to whoever asked (perguntas.yaml `tempo`)."""
    hours, minutes = divmod(state.minutes % MINUTES_PER_DAY, MINUTES_PER_HOUR)
    answer: dict[str, Any] = {"modo": state.mode, "dia": day_of(state),
                              "hora": {"horas": hours, "minutos": minutes},
                              "viagem": None, "masmorra": None, "perseguicao": None}
    if state.dungeon.active:
        answer["masmorra"] = _dungeon_clock(state, scratch)
    else:
        answer["viagem"] = _travel_clock(state, scratch)
    if state.chase is not None:
        answer["perseguicao"] = _chase_clock(state.chase, scratch)
    scratch.tell("perguntas.tempo", asker(scratch), weight=Weight.FRAMING, **answer)
    return state


def _travel_clock(state: State, scratch: Scratch) -> dict[str, Any]:
    """The travel round of the day and the rounds the day still has, this one included."""
    rules = scratch.piece(TravelRound)
    number = round_of(state, rules.minutos)
    return {"rodada": number, "rodadas_por_dia": rules.rodadas_por_dia,
            "rodadas_restantes": rules.rodadas_por_dia - number + 1,
            "descansou_hoje": state.travel.rested_today}


def _dungeon_clock(state: State, scratch: Scratch) -> dict[str, Any]:
    """The turn, each light and spell with its turns and minutes left, the hourly rest."""
    rules = scratch.piece(DungeonRules)
    per_turn = rules.turno_minutos

    def left(timer: Timer, name: str) -> dict[str, Any]:
        return {"nome": name, "turnos": timer.turns_left,
                "minutos": timer.turns_left * per_turn}

    return {
        "turno": state.dungeon.turn,
        "luzes": [left(t, name) for name, t in zip(
            scratch.piece(LightRules).shown_names([t.name for t in state.dungeon.lights]),
            state.dungeon.lights)],
        "magias": [left(t, t.name) for t in state.dungeon.spells],
        "escuro": is_dark(state),
        "descanso_em": max(0, rules.descanso.turnos_por_hora
                           - state.dungeon.turns_since_rest),
        "exaustao_sem_descanso": rules.descanso.exaustao,
    }


def _chase_clock(chase: Chase, scratch: Scratch) -> dict[str, Any]:
    """The chase's phase and the turn under way against the rules' limit."""
    return {"fase": chase.phase, "turno": chase.turn + 1,
            "limite": scratch.piece(ChaseRules).limite_turnos}


# ---------------------------------------------------------------- a character

def character_question(state: State, scratch: Scratch) -> State:
    """`estado Ana`: the character's sheet as the asker's group list shows it
    (perguntas.yaml `ficha`), only to whoever asked: a state dump (kind estado), so `repetir`
    passes over it for the last result."""
    character = find_character(state, str(arg(scratch, "personagem", "")))
    viewer = asker(scratch)
    shown = next(c for c in view_state(state, viewer, scratch.tables)["grupo"]
                 if c["id"] == character.id)
    scratch.tell("perguntas.ficha", viewer, "estado", weight=Weight.FRAMING,
                 personagem=character.id, ficha=shown)
    return state
