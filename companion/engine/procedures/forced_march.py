"""Forced march (tables/viagem.yaml `tabela_b`): past the free rounds of consecutive advances,
every character tests CON before the group advances; a failure chooses between resting 2
rounds and 1 exhaustion.

This module asks the tests and settles each answer; advance.py registers the prompt handlers,
since once the last test (and choice) is settled the advance itself runs (`resume_advance`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from companion.engine.model import Attribute, Character, Prompt, State, set_travel
from companion.engine.characters import find_character, modifier, slug, update_character
from companion.engine.handlers import PromptAnswer
from companion.engine.prompting import add_prompt, option_label, passed
from companion.engine.scratch import Scratch
from companion.engine.validators import require_dice
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import piece, require_at_least
from companion.tables.weights import Weight


MARCH_PROMPTS = ("marcha_forcada", "escolha_marcha")


@piece("viagem", "tabela_b")
@dataclass(frozen=True)
class ForcedMarch:
    """tables/viagem.yaml `tabela_b` (Tabela B: Forçando o Avanço)."""

    nome: str
    dados: str  # the test's die: d20 + the attribute's modifier against the DC
    rodadas_sem_penalidade: int
    dc: int
    dc_por_rodada: int
    atributo: Attribute
    rodadas_de_descanso: int
    exaustao: int

    def validate(self) -> None:
        require_dice("dados", self.dados)
        require_at_least(self, 0, "rodadas_sem_penalidade", "rodadas_de_descanso", "exaustao")


def forced_dc(rules: ForcedMarch, count: int) -> int | None:
    """Tabela B: the DC of the `count`-th consecutive advance (None within the free rounds)."""
    extra = count - rules.rodadas_sem_penalidade
    return None if extra < 1 else rules.dc + rules.dc_por_rodada * (extra - 1)


def ask_tests(state: State, scratch: Scratch, count: int) -> State:
    """Tabela B: past the free rounds every character tests CON, DC 12 then +3 per round,
    before the group advances (the advance waits: `resume_advance`)."""
    rules = scratch.piece(ForcedMarch)
    dc = forced_dc(rules, count)
    attribute = rules.atributo
    scratch.tell("viagem.marcha_forcada", tabela=rules.nome, dc=dc,
                 words={"rodada": count, "atributo": attribute})
    state = set_travel(state, pending_advance=True)
    narration = scratch.tables.narration
    for character in state.party:
        words = {"nome": character.name, "atributo": attribute, "dc": dc}
        state = add_prompt(
            state, scratch, "marcha_forcada", character.id,
            narration.render("viagem.pedido_marcha", words),
            rules.dados, modifier(character, attribute, scratch.tables), dc,
            rotulo=narration.render("viagem.rotulo_marcha", words))
    return state


def forced_march_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                          scratch: Scratch) -> State:
    """Pass → goes on (advance.py resumes the advance); fail → the player chooses: rest 2 rounds
    or 1 exhaustion (a new prompt, so the advance still waits)."""
    character = find_character(state, str(prompt.character))
    words = {"nome": character.name, "total": answer.total, "dc": prompt.dc}
    if passed(prompt, answer):
        scratch.tell("viagem.aguenta_marcha", personagem=character.id, words=words)
        return state
    rules = scratch.piece(ForcedMarch)
    scratch.tell("viagem.falha_marcha", personagem=character.id, words=words)
    return add_prompt(
        state, scratch, "escolha_marcha", character.id,
        scratch.tables.narration.render("viagem.pedido_escolha_marcha", {
            "nome": character.name, "rodadas": rules.rodadas_de_descanso,
            "exaustao": rules.exaustao}),
        options=tuple(MARCH_CHOICES))


def _owe_rest(state: State, scratch: Scratch, character: Character) -> State:
    rounds = scratch.piece(ForcedMarch).rodadas_de_descanso
    scratch.tell("viagem.vai_descansar", personagem=character.id,
                 words={"nome": character.name, "rodadas": rounds})
    return update_character(state, replace(character, rest_rounds_owed=rounds))


def _take_exhaustion(state: State, scratch: Scratch, character: Character) -> State:
    gain = scratch.piece(ForcedMarch).exaustao
    tired = replace(character, exhaustion=character.exhaustion + gain)
    scratch.tell("viagem.recebe_exaustao", weight=Weight.HARM, personagem=character.id,
                 words={"nome": character.name, "pontos": gain, "exaustao": tired.exhaustion})
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
        raise CommandRejected.because(
            "viagem.escolha_desconhecida", escolha=answer.option or "",
            opcoes=[option_label(prompt, o) for o in prompt.options])
    return choice(state, scratch, character)
