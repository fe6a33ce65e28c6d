"""`avancar` (tables/viagem.yaml Tabela A: hexes by travel mode, Tabela C: getting lost, Tabela
D: what the party meets) and `caminho` (the lost party found its way).

A round of advance past the free rounds asks the forced-march tests first (forced_march.py);
the advance runs when the last one is settled: this module registers those prompts' handlers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine.procedures import conditions
from companion.engine.procedures.forced_march import (
    MARCH_PROMPTS,
    ForcedMarch,
    ask_tests,
    forced_dc,
    forced_march_answered,
    march_choice_answered,
)
from companion.engine.procedures.encounters import TerrainGroup
from companion.engine.procedures.travel import (
    AdvanceTable,
    TravelModes,
    close_round,
    events_roll,
    participants,
    run_round,
)
from companion.engine.model import GM, Prompt, State, set_travel
from companion.engine.handlers import PromptAnswer, cancel_handler, command, prompt_handler
from companion.engine.scratch import Scratch
from companion.engine.terrain import group_for
from companion.engine.validators import require_dice
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import piece
from companion.tables.weights import Weight


@command("avancar")
def advance(state: State, scratch: Scratch) -> State:
    """A round of advance. Past the free rounds, the forced-march test comes BEFORE the advance
    ("requer um teste"): the round opens, every character is asked, and the advance itself
    runs when the last test (and choice) is settled — unless someone must now rest, who the
    group waits for: then the group does not advance this round, and the others still choose
    their own activity in it (`_wait_for_the_resting`)."""
    count = state.travel.consecutive_advances + 1
    if forced_dc(scratch.piece(ForcedMarch), count) is None or not state.party:
        return run_round(state, scratch, lambda s, t, _: _advance(s, t, count), advancing=True)
    return run_round(state, scratch, lambda s, t, _: ask_tests(s, t, count), advancing=True,
                     close=False)


def resume_advance(state: State, scratch: Scratch) -> State:
    """After a forced-march prompt is settled: the round's advance, once none is left."""
    if not state.travel.pending_advance or any(
            p.kind in MARCH_PROMPTS for p in state.prompts):
        return state
    state = set_travel(state, pending_advance=False)
    resting = [c.name for c in state.party if c.rest_rounds_owed > 0]
    if resting:
        return _wait_for_the_resting(state, scratch, resting)
    state = _advance(state, scratch, state.travel.consecutive_advances + 1)
    return close_round(state, scratch, advancing=True)


def _wait_for_the_resting(state: State, scratch: Scratch, resting: list[str]) -> State:
    """Someone now owes forced-march rest: the group does not advance this round (it waits for
    them), but only they sit it out — everyone else still does their own activity this round
    (named, or a group one), and the round closes when they all have (travel.named_activity,
    travel.run_round); at once when nobody may act."""
    waiting = participants(state)
    names = {c.id: c.name for c in state.party}
    scratch.tell("viagem.sem_avanco", sem_avanco=True, faltam=list(waiting),
                 words={"nomes": resting, "faltam_nomes": [names[c] for c in waiting]})
    if waiting:  # the commands that say it are the GM's (issue 31 item 6)
        scratch.tell("viagem.sem_avanco_dica", GM, weight=Weight.FRAMING,
                     words={"faltam_nomes": [names[c] for c in waiting]})
    state = set_travel(state, advance_waited=True)
    return state if waiting else close_round(state, scratch)


def _advance(state: State, scratch: Scratch, count: int) -> State:
    lost = state.travel.lost or _lost_check(state, scratch)
    mode = state.travel.mode
    table = scratch.piece(AdvanceTable)
    hexes = float(table.hexes[mode])
    slowed = conditions.advance_factor(state, scratch.tables)
    pace = scratch.piece(TravelModes).name(mode)
    extra: dict[str, Any] = {}
    slow = None
    if slowed is not None:  # the group moves at the slowest member's pace
        hexes *= slowed.factor
        slow = conditions.slowed_text(scratch.tables.narration, slowed)
        extra = {"fator": slowed.factor, "lentos": [name for name, _ in slowed.who]}
    scratch.tell("viagem.avanca", hexes=hexes, tabela=table.nome, **extra,
                 words={"ritmo": pace, "lento": slow})
    if lost and state.travel.lost:
        scratch.tell("viagem.continua_perdido", GM, perdido=True)
    elif lost:
        scratch.tell("viagem.perdido", GM, perdido=True)
    state = set_travel(state, lost=lost, hexes=state.travel.hexes + hexes,
                        consecutive_advances=count, camp_safe=False)  # the camp stays behind
    events_roll(state, scratch, "dados_avancar")
    return state


@command("caminho")
def found_the_way(state: State, scratch: Scratch) -> State:
    """The GM says the lost party found its way (GM-only: the players never knew)."""
    if not state.travel.lost:
        raise CommandRejected.because("viagem.nao_esta_perdido")
    scratch.tell("viagem.achou_o_caminho", GM, perdido=False)
    return set_travel(state, lost=False)


@piece("viagem", "tabela_c")
@dataclass(frozen=True)
class GettingLost:
    """tables/viagem.yaml `tabela_c` (Tabela C: Perdendo a direção): X-in-6 by terrain."""

    nome: str
    dados: str
    sim: str
    nao: str
    grupos: tuple[TerrainGroup, ...]

    def validate(self) -> None:
        require_dice("dados", self.dados)


def _lost_check(state: State, scratch: Scratch) -> bool:
    """Tabela C — a GM-only roll: players never learn they are lost from the app."""
    spec = scratch.piece(GettingLost)
    group = group_for(spec.grupos, state.travel.terrain, "viagem", "tabela_c.grupos",
                      scratch.tables.narration)
    return scratch.chance(group.chance, spec.nome, spec.sim, spec.nao,
                          visibility=GM, grupo=group.nome)


# ---------------------------------------------------------------- the forced march's prompts

@prompt_handler("marcha_forcada")
def forced_march_test(state: State, prompt: Prompt, answer: PromptAnswer,
                      scratch: Scratch) -> State:
    """A forced-march test settled: then the advance, once no test or choice is left."""
    return resume_advance(forced_march_answered(state, prompt, answer, scratch), scratch)


@prompt_handler("escolha_marcha")
def forced_march_choice(state: State, prompt: Prompt, answer: PromptAnswer,
                        scratch: Scratch) -> State:
    """The choice after a failed test settled: then the advance, once none is left."""
    return resume_advance(march_choice_answered(state, prompt, answer, scratch), scratch)


for _kind in MARCH_PROMPTS:  # a test or choice cancelled by the GM: the advance goes on
    cancel_handler(_kind)(resume_advance)
