"""Prompts as the procedures ask and read them: queueing one for a player (with its edge), who
sees it, how it is shown and named, whether an answer passed, and refusing a group activity
while a prompt that holds the group waits."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.characters import edge_for
from companion.engine.exhaustion import EXHAUSTION_EDGE
from companion.engine.handlers import PromptAnswer
from companion.engine.model import GM, PUBLIC, Prompt, State, Visibility
from companion.engine.scratch import Scratch
from companion.tables import protocol
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from companion.tables.narration import Narrator
from companion.tables.prompt_names import PromptLabels
from companion.tables.protocol import CommandRules


def add_prompt(state: State, scratch: Scratch, kind: str, character: str | None, text: str,
               dice_expression: str = "1d20", modifier_value: int = 0, dc: int | None = None,
               options: tuple[str, ...] = (), party: bool = False, **context: Any) -> State:
    """Queue a prompt for a character's player (or the GM when character is None; or, with
    `party`, for every player: public, with no one's modifier or edge until someone answers)."""
    names = scratch.piece(PromptLabels)
    owner = next((c for c in state.party if c.id == character), None)
    if owner is not None and not options:  # a roll: DESV applies to the physical die too
        edge = edge_for(owner, scratch.tables, state.minutes)
        context = {**context, "vantagem": edge}
        if edge is not None:
            text += " " + edge_text(scratch.tables.narration, edge, dice_expression,
                                    bool(context.get("rolar_abaixo")))
    prompt = Prompt(id=state.next_prompt_id, kind=kind, character=character, text=text,
                    dice=dice_expression, modifier=modifier_value, dc=dc, options=options,
                    labels=tuple(names.option_name(o) for o in options), context=context,
                    party=party)
    visibility = prompt_visibility(prompt)
    scratch.say(text, visibility, kind="pedido", pedido=prompt_to_dict(prompt))
    return replace(state, prompts=state.prompts + (prompt,),
                   next_prompt_id=state.next_prompt_id + 1)


def prompt_visibility(prompt: Prompt) -> Visibility:
    """Who sees a prompt and its answer: its character's player, everyone for the party's, or
    the GM for the GM's own."""
    if prompt.party:
        return PUBLIC
    return protocol.player_key(prompt.character) if prompt.character else GM


def prompt_name(tables: Tables, kind: str) -> str:
    """How people call a prompt kind (tables/pedidos.yaml `nomes_pedidos`)."""
    return tables.piece(PromptLabels).kind_name(kind)


def require_group_free(state: State, scratch: Scratch, who: tuple[str, ...] | None = None) -> None:
    """Refuse a group activity (or one for `who`) while a prompt of a kind that holds the group
    (comandos.yaml `pedidos_que_seguram`) waits, naming whose and which."""
    kinds = set(scratch.piece(CommandRules).pedidos_que_seguram)
    waiting = [p for p in state.prompts
               if p.kind in kinds and (who is None or p.character in who)]
    if not waiting:
        return
    names = {c.id: c.name for c in state.party}
    gm = scratch.tables.narration.render("pedidos.quem_espera_mestre", {})
    raise CommandRejected.because(
        "pedidos.pedido_pendente", primeiro=waiting[0].id,
        esperando=[{"quem": names.get(str(p.character), p.character or gm), "id": p.id,
                    "tipo": prompt_name(scratch.tables, p.kind)} for p in waiting])


def edge_text(narrator: Narrator, edge: str, dice_expression: str, low_is_good: bool) -> str:
    """What a prompt under DESV (or vantagem) asks of a physical die: roll twice, keep one
    (tables/narracao/pedidos.yaml `com_vantagem`)."""
    worse = edge == EXHAUSTION_EDGE
    return narrator.render("pedidos.com_vantagem", {
        "desv": worse, "dados": dice_expression, "fica_menor": worse != low_is_good})


def prompt_edge(prompt: Prompt) -> str | None:
    """The edge the prompt was asked with (DESV of exhaustion or of a lasting condition)."""
    edge = prompt.context.get("vantagem")
    return str(edge) if edge else None


def prompt_to_dict(prompt: Prompt) -> dict[str, Any]:
    shown = {"id": prompt.id, "tipo": prompt.kind, "personagem": prompt.character,
             "texto": prompt.text, "dados": prompt.dice, "modificador": prompt.modifier,
             "dc": prompt.dc, "opcoes": list(prompt.options),
             "opcoes_nomes": list(prompt.labels or prompt.options)}
    if prompt.party:
        shown["grupo"] = True
    if prompt_edge(prompt):
        shown["vantagem"] = prompt_edge(prompt)
    return shown


def option_label(prompt: Prompt, option: str) -> str:
    """How a canonical option of this prompt is shown (its label from tables)."""
    labels = dict(zip(prompt.options, prompt.labels))
    return labels.get(option, option)


def passed(prompt: Prompt, answer: PromptAnswer) -> bool:
    """A rolled answer meets the prompt's DC."""
    if answer.total is None:
        raise CommandRejected.because("pedidos.e_um_teste", pedido=prompt.id)
    return prompt.dc is None or answer.total >= prompt.dc
