"""The attribute test the GM asks of a character (`teste`): "teste de CON da Carla", "teste de
destreza do Bruno dificuldade 15".

A prompt on that character's phone: the dice of tables/personagem.yaml `teste_de_atributo` plus
the attribute's modifier (companion.engine.characters.modifier: exhaustion and attribute damage
count), under DESV when the character has it (add_prompt). With a difficulty the answer passes on
a total at or above it (public, like the forced-march CON test); without one, the total goes to
the player and the GM, who decides. A test without a name is refused listing the names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.tables import protocol
from companion.engine.model import ATTRIBUTES, Prompt, State
from companion.engine.procedures.party import SheetLabels
from companion.engine.characters import find_character, modifier, slug
from companion.engine.handlers import PromptAnswer, command, prompt_handler
from companion.engine.prompting import add_prompt
from companion.engine.scratch import Scratch, arg
from companion.engine.validators import require_dice
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import InvalidValue, piece

KIND = "teste"


@piece("personagem", "teste_de_atributo")
@dataclass(frozen=True)
class AttributeTest:
    """House default: the dice of an attribute test and the difficulties the GM may give."""

    nome: str
    dados: str
    dc_minima: int
    dc_maxima: int
    padrao_da_casa: bool = False

    def validate(self) -> None:
        require_dice("dados", self.dados)
        if self.dc_maxima < self.dc_minima:
            raise InvalidValue("dc_maxima", "validacao.dc_maxima", {"minima": self.dc_minima})


def _attribute(scratch: Scratch) -> str:
    said = slug(str(arg(scratch, "atributo") or ""))
    if said not in ATTRIBUTES:
        labels = scratch.piece(SheetLabels)
        raise CommandRejected.because("testes.atributo_desconhecido", atributo=said,
                                      atributos=[labels.of(a) for a in ATTRIBUTES])
    return said


def _difficulty(scratch: Scratch) -> int | None:
    said = arg(scratch, "dc")
    if said is None:
        return None
    rules = scratch.piece(AttributeTest)
    if isinstance(said, bool) or not isinstance(said, int) \
            or not rules.dc_minima <= said <= rules.dc_maxima:
        raise CommandRejected.because("testes.dificuldade_invalida", valor=said,
                                      minima=rules.dc_minima, maxima=rules.dc_maxima)
    return said


@command(KIND)
def attribute_test(state: State, scratch: Scratch) -> State:
    """Ask a character's player for an attribute test (d20 + modifier against the GM's DC)."""
    attribute = _attribute(scratch)
    label = scratch.piece(SheetLabels).of(attribute)
    name = arg(scratch, "personagem")
    if not name:
        raise CommandRejected.because("testes.sem_personagem", rotulo=label,
                                      nomes=[c.name for c in state.party])
    character = find_character(state, str(name))
    dc = _difficulty(scratch)
    rules = scratch.piece(AttributeTest)
    bonus = modifier(character, attribute, scratch.tables)
    words: dict[str, Any] = {"nome": character.name, "rotulo": label}
    text = scratch.tables.narration.render("testes.pedido", {
        **words, "dados": rules.dados, "modificador": bonus, "dc": dc})
    scratch.tell("testes.pedido_feito", personagem=character.id, atributo=attribute, dc=dc,
                 words=words)
    rolled = scratch.tables.narration.render("testes.rotulo_rolagem", words)  # "Teste de CON"
    return add_prompt(state, scratch, KIND, character.id, text, rules.dados, bonus, dc,
                      atributo=attribute, rotulo=rolled, tabela=rolled)


@prompt_handler(KIND)
def answer_test(state: State, prompt: Prompt, answer: PromptAnswer, scratch: Scratch) -> State:
    """With a DC: passed or failed, for everyone; without: the total for the player and GM."""
    if answer.total is None:
        raise CommandRejected.because("pedidos.e_um_teste", pedido=prompt.id)
    character = find_character(state, prompt.character or "")
    attribute = str(prompt.context.get("atributo", ""))
    words = {"nome": character.name, "rotulo": scratch.piece(SheetLabels).of(attribute)}
    data: dict[str, Any] = {"personagem": character.id, "atributo": attribute,
                            "total": answer.total, "dc": prompt.dc}
    if prompt.dc is None:
        scratch.tell("testes.total", protocol.player_key(character.id), words=words, **data)
        return state
    if answer.total >= prompt.dc:
        scratch.tell("testes.passou", words=words, sucesso=True, **data)
    else:
        scratch.tell("testes.falhou", words=words, sucesso=False, **data)
    return state
