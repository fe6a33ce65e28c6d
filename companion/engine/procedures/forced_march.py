"""Forced march (tables/viagem.yaml `tabela_b`): past the free rounds of consecutive advances,
every character tests CON before the group advances; a failure chooses between resting 2
rounds and 1 exhaustion.

This module asks the tests and settles each answer; advance.py registers the prompt handlers,
since once the last test (and choice) is settled the advance itself runs (`resume_advance`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.engine.model import Character, Prompt, State
from companion.engine.toolkit import (
    PromptAnswer,
    Scratch,
    add_prompt,
    find_character,
    modifier,
    option_label,
    passed,
    plural,
    set_travel,
    slug,
    update_character,
)
from companion.errors import CommandRejected


MARCH_PROMPTS = ("marcha_forcada", "escolha_marcha")


def forced_dc(scratch: Scratch, count: int) -> int | None:
    """Tabela B: the DC of the `count`-th consecutive advance (None within the free rounds)."""
    spec = scratch.table("viagem", "tabela_b")
    extra = count - spec["rodadas_sem_penalidade"]
    return None if extra < 1 else spec["dc"] + spec["dc_por_rodada"] * (extra - 1)


def ask_tests(state: State, scratch: Scratch, count: int) -> State:
    """Tabela B: past the free rounds every character tests CON, DC 12 then +3 per round,
    before the group advances (the advance waits: `resume_advance`)."""
    spec = scratch.table("viagem", "tabela_b")
    dc = forced_dc(scratch, count)
    attribute = str(spec["atributo"])
    scratch.say(f"Marcha forçada: {count}ª rodada seguida de avanço — antes de avançar, cada "
                f"personagem faz um teste de {attribute.upper()} DC {dc}.", tabela=spec["nome"],
                dc=dc)
    state = set_travel(state, pending_advance=True)
    for character in state.party:
        state = add_prompt(
            state, scratch, "marcha_forcada", character.id,
            f"{character.name}: teste de {attribute.upper()} DC {dc} (marcha forçada).",
            str(spec["dados"]), modifier(character, attribute, scratch.tables), dc,
            rotulo=f"teste de {attribute.upper()} DC {dc} (marcha forçada)")
    return state


def forced_march_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                          scratch: Scratch) -> State:
    """Pass → goes on (advance.py resumes the advance); fail → the player chooses: rest 2 rounds
    or 1 exhaustion (a new prompt, so the advance still waits)."""
    character = find_character(state, str(prompt.character))
    if passed(prompt, answer):
        scratch.say(f"{character.name} aguenta a marcha forçada ({answer.total} contra DC "
                    f"{prompt.dc}).", personagem=character.id)
        return state
    spec = scratch.table("viagem", "tabela_b")
    scratch.say(f"{character.name} falha na marcha forçada ({answer.total} contra DC {prompt.dc}).",
                personagem=character.id)
    return add_prompt(
        state, scratch, "escolha_marcha", character.id,
        f"{character.name}: descansar {plural(spec['rodadas_de_descanso'], 'rodada')} antes de "
        f"qualquer outra atividade, ou receber {plural(spec['exaustao'], 'ponto')} de exaustão?",
        options=tuple(MARCH_CHOICES))


def _owe_rest(state: State, scratch: Scratch, character: Character) -> State:
    rounds = int(scratch.table("viagem", "tabela_b", "rodadas_de_descanso"))
    scratch.say(f"{character.name} vai descansar {plural(rounds, 'rodada')} antes de outra "
                "atividade.",
                personagem=character.id)
    return update_character(state, replace(character, rest_rounds_owed=rounds))


def _take_exhaustion(state: State, scratch: Scratch, character: Character) -> State:
    gain = int(scratch.table("viagem", "tabela_b", "exaustao"))
    tired = replace(character, exhaustion=character.exhaustion + gain)
    scratch.say(f"{character.name} recebe {plural(gain, 'ponto')} de exaustão (agora "
                f"{tired.exhaustion}).",
                personagem=character.id)
    return update_character(state, tired)


MARCH_CHOICES: dict[str, Callable[[State, Scratch, Character], State]] = {
    "descansar": _owe_rest,
    "exaustao": _take_exhaustion,
}


def march_choice_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                          scratch: Scratch) -> State:
    character = find_character(state, str(prompt.character))
    choice = MARCH_CHOICES.get(slug(str(answer.option or "")))
    if choice is None:
        listed = " ou ".join(option_label(prompt, o) for o in prompt.options)
        raise CommandRejected(f"escolha desconhecida: '{answer.option or ''}'; use {listed}")
    return choice(state, scratch, character)
