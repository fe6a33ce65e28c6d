"""Answering and cancelling prompts: `responder` (a rolled value, the physical die's face, or an
option; routed to the handler the prompt's kind registered) and `cancelar` (drop a pending
prompt, or release a character from the forced-march rest they owe).

`responder` resolves a pending prompt, found by `pedido` (id), by `personagem`, by the player's
own oldest prompt, or — for the GM with neither — the oldest prompt when every pending prompt
belongs to the same character (or all are the GM's); prompts of different owners must be named.
`opcao` answers a choice; `valor` is a physical die (checked against the die's range; total =
valor + modifier); with neither, the companion rolls the prompt's dice with the character's edge
(Tabela I: DESV). The answer's event shows the die and the modifier ("Ana respondeu ao pedido 1:
15 + 1 = 16") and an option by its label ("exaustão"). `cancelar` drops a prompt. `cancelar
Nome` for a character with no pending prompt who owes forced-march rest releases them from it
(the GM's call; see travel.py).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from companion.tables import protocol
from companion.engine.dice_rolls import DIE_SHAPE, die_range
from companion.engine.model import PUBLIC, Character, Prompt, State
from companion.engine.characters import edge_for, find_character, modifier, slug, update_character
from companion.engine.handlers import CANCEL_HANDLERS, PROMPT_HANDLERS, PromptAnswer, command
from companion.engine.prompting import option_label, prompt_edge, prompt_visibility
from companion.engine.scratch import Scratch, actor_character, arg
from companion.tables.errors import CommandRejected
from companion.engine.procedures.party import whole_number
from companion.tables.prompt_names import PromptLabels
from companion.tables.weights import Weight



def _pending_list(state: State, scratch: Scratch) -> list[dict[str, Any]]:
    """The pending prompts as the refusals list them: id, whose, which kind."""
    names = scratch.piece(PromptLabels)
    return [{"id": p.id, "dono": _owner(state, p, scratch), "tipo": names.kind_name(p.kind)}
            for p in state.prompts]


def _owner(state: State, prompt: Prompt, scratch: Scratch) -> str:
    """Whose prompt it is, as people say it: the character, the party's, or the GM's."""
    if prompt.character is None and prompt.party:
        return scratch.tables.narration.render("pedidos.dono_grupo", {})
    if prompt.character is None:
        return scratch.tables.narration.render("pedidos.dono_mestre", {})
    return next((c.name for c in state.party if c.id == prompt.character), prompt.character)


def _owned_by(prompt: Prompt, owner: str) -> bool:
    """Whether character `owner` may call this prompt theirs (their own, or the party's)."""
    return prompt.character == owner or prompt.party


def find_prompt(state: State, scratch: Scratch) -> Prompt:
    """The prompt a `responder`/`cancelar` means (see the module docstring)."""
    if not state.prompts:
        raise CommandRejected.because("pedidos.sem_pedido")
    wanted_id, name = arg(scratch, "pedido"), arg(scratch, "personagem")
    if wanted_id is not None:
        found = next((p for p in state.prompts if str(p.id) == str(wanted_id).strip()), None)
        if found is None:
            raise CommandRejected.because("pedidos.pedido_encerrado", pedido=wanted_id,
                                          pendentes=_pending_list(state, scratch))
        return found
    owner = find_character(state, name).id if name else actor_character(scratch)
    if owner is None:
        owners = {"" if p.party else p.character for p in state.prompts}
        if len(owners) > 1:  # the GM must say which: guessing answers the wrong one
            raise CommandRejected.because("pedidos.diga_qual", verbo=scratch.command.name,
                                          pendentes=_pending_list(state, scratch),
                                          ultimo=state.prompts[-1].id)
        return state.prompts[0]
    found = next((p for p in state.prompts if _owned_by(p, owner)), None)
    if found is None:
        raise CommandRejected.because("pedidos.sem_pedido_para", quem=name or owner,
                                      pendentes=_pending_list(state, scratch))
    return found


def _check_owner(state: State, prompt: Prompt, scratch: Scratch) -> None:
    actor = scratch.command.actor
    in_party = any(c.id == protocol.character_of(actor) for c in state.party)
    if not protocol.may_answer(actor, prompt.character, prompt.party and in_party):
        raise CommandRejected.because("pedidos.pedido_alheio", pedido=prompt.id)


def _for_answerer(state: State, prompt: Prompt, scratch: Scratch) -> Prompt:
    """The party's prompt as the one who answers it rolls it: their character, the test's
    attribute modifier and their edge (DESV). The GM answering it with no name gives the die
    as said, with no one's modifier."""
    if not prompt.party:
        return prompt
    name = arg(scratch, "personagem") or actor_character(scratch)
    if not name:
        return prompt
    who: Character = find_character(state, str(name))
    attribute = prompt.context.get("atributo")
    bonus = modifier(who, str(attribute), scratch.tables) if attribute else prompt.modifier
    edge = edge_for(who, scratch.tables, state.minutes)
    return replace(prompt, character=who.id, modifier=bonus,
                   context={**prompt.context, "vantagem": edge})


@command("responder")
def answer_command(state: State, scratch: Scratch) -> State:
    """Answer a pending prompt with an option, a physical die value, or a companion roll."""
    scratch = _name_said_as_option(state, scratch)
    prompt = find_prompt(state, scratch)
    _check_owner(state, prompt, scratch)
    prompt = _for_answerer(state, prompt, scratch)
    option, value = arg(scratch, "opcao"), arg(scratch, "valor")
    how: Callable[[State, Prompt, Scratch], PromptAnswer]
    if prompt.options:
        how = _by_option
    elif option is not None:
        raise CommandRejected.because("pedidos.pede_rolagem", pedido=prompt.id,
                                      dados=prompt.dice)
    else:
        how = _by_value if value is not None else _by_roll
    answer = how(state, prompt, scratch)
    handler = PROMPT_HANDLERS.get(prompt.kind)
    if handler is None:
        raise CommandRejected.because("pedidos.tipo_sem_resolucao", tipo=prompt.kind)
    physical = {"dados_fisicos": _physical_dice(prompt)} if answer.faces else {}
    by_gm = scratch.command.actor == "gm" and prompt.character is not None
    scratch.tell("pedidos.respondeu", prompt_visibility(prompt), "resposta",
                 words={"quem": _answerer_name(state, prompt, scratch), "pelo_mestre": by_gm,
                        "nome_pedido": _prompt_name(prompt, scratch),
                        **({"pelo_grupo": True} if prompt.party else {}),
                        **_answer_words(prompt, answer)},
                 pedido=prompt.id, tipo=prompt.kind, personagem=prompt.character,
                 total=answer.total, natural=answer.natural, opcao=answer.option, **physical)
    remaining = tuple(p for p in state.prompts if p.id != prompt.id)
    return handler(replace(state, prompts=remaining), prompt, answer, scratch)


def _prompt_name(prompt: Prompt, scratch: Scratch) -> str:
    """What the prompt asked, in words ('teste de CON DC 12 (marcha forçada)', 'Teste de
    pânico'): its own label, else its kind's name (tables/pedidos.yaml `nomes_pedidos`)."""
    names = scratch.piece(PromptLabels).nomes_pedidos
    return str(prompt.context.get("rotulo") or names.get(prompt.kind, prompt.text))


def _answerer_name(state: State, prompt: Prompt, scratch: Scratch) -> str:
    """Who answered: the prompt's character, or the GM answering the party's prompt unnamed."""
    if prompt.party and prompt.character is None:
        return scratch.tables.narration.render("pedidos.quem_mestre", {})
    return _owner(state, prompt, scratch)


def _physical_dice(prompt: Prompt) -> dict[str, int]:
    """The dice a physical answer rolled, for the session tally: '2d6' → {'d6': 2}; under DESV
    or vantagem the prompt asked for two rolls, so twice that."""
    match = DIE_SHAPE.match(prompt.dice.strip().lower().replace(" ", ""))
    if not match:
        return {}
    count = int(match.group(1) or 1) * (2 if prompt_edge(prompt) else 1)
    return {f"d{match.group(2)}": count}


def _answer_words(prompt: Prompt, answer: PromptAnswer) -> dict[str, Any]:
    """What the answer's text shows (tables/narracao/pedidos.yaml `respondeu`): an option by
    its label; a value with the modifier added ('15 + 1 = 16'); under DESV or vantagem with
    both dice said, the one discarded ('9 (DESV, descartado 15) + 1 = 10')."""
    other = None
    if len(answer.faces) == 2:
        other = answer.faces[1] if answer.faces[0] == answer.natural else answer.faces[0]
    return {"rotulo": option_label(prompt, answer.option) if answer.option is not None else None,
            "outro": other, "modificador": prompt.modifier,
            "lado": "DESV" if prompt_edge(prompt) == "desvantagem" else "vantagem"}


def _name_said_as_option(state: State, scratch: Scratch) -> Scratch:
    """'responder Ana' reaches us as the option 'ana': when no pending prompt offers that option
    and a character has that name, it names whose prompt to answer (the parser cannot know)."""
    args = dict(scratch.command.args)
    said = args.get("opcao")
    if said is None or "personagem" in args or "pedido" in args:
        return scratch
    offered = {slug(o) for p in state.prompts for o in p.options}
    named = next((c for c in state.party if c.id == slug(str(said))), None)
    if slug(str(said)) in offered or named is None:
        return scratch
    args.pop("opcao")
    args["personagem"] = named.name
    return replace(scratch, command=replace(scratch.command, args=args))


def _by_option(state: State, prompt: Prompt, scratch: Scratch) -> PromptAnswer:
    option = arg(scratch, "opcao")
    listed = [option_label(prompt, o) for o in prompt.options]
    if option is None:
        raise CommandRejected.because("pedidos.escolha", pedido=prompt.id, opcoes=listed)
    chosen = next((o for o in prompt.options if slug(str(option)) in
                   (slug(o), slug(option_label(prompt, o)))), None)
    if chosen is None:
        raise CommandRejected.because("pedidos.opcao_desconhecida", opcao=option, opcoes=listed)
    return PromptAnswer(option=chosen)


def _by_value(state: State, prompt: Prompt, scratch: Scratch) -> PromptAnswer:
    """A physical die: one value (under DESV, the one the player kept) or, under DESV or
    vantagem, both values (`valor2`): the companion keeps the worse (or the better)."""
    bounds = die_range(prompt.dice)
    if bounds is None:
        raise CommandRejected.because("pedidos.dado_sem_faixa", pedido=prompt.id,
                                      dados=prompt.dice)
    values = [_die_value(prompt, arg(scratch, "valor"), bounds)]
    if arg(scratch, "valor2") is not None:
        edge = prompt_edge(prompt)
        if edge is None:
            raise CommandRejected.because("pedidos.sem_vantagem", pedido=prompt.id,
                                          valor=values[0])
        values.append(_die_value(prompt, arg(scratch, "valor2"), bounds))
        keep_high = (edge == "vantagem") != bool(prompt.context.get("rolar_abaixo"))
        natural = max(values) if keep_high else min(values)
    else:
        natural = values[0]
    return PromptAnswer(total=natural + prompt.modifier, natural=natural, faces=tuple(values))


def _die_value(prompt: Prompt, raw: Any, bounds: tuple[int, int]) -> int:
    low, high = bounds
    refusal = CommandRejected.because("pedidos.valor_fora_do_dado", valor=raw, pedido=prompt.id,
                                      dados=prompt.dice, minimo=low, maximo=high)
    try:
        natural = whole_number("valor", raw)
    except CommandRejected:
        raise refusal from None
    if not low <= natural <= high:
        raise refusal
    return natural


def _by_roll(state: State, prompt: Prompt, scratch: Scratch) -> PromptAnswer:
    character = next((c for c in state.party if c.id == prompt.character), None)
    edge = (prompt_edge(prompt) if "vantagem" in prompt.context
            else edge_for(character, scratch.tables, state.minutes) if character else None)
    names = scratch.piece(PromptLabels).nomes_pedidos
    name = str(prompt.context.get("tabela") or names.get(prompt.kind, prompt.text))
    label = f"{_owner(state, prompt, scratch)}: {prompt.context.get('rotulo') or name}"
    def shown(total: int) -> str:
        """The roll's `resultado`: the total with the modifier, against the DC if any."""
        return scratch.tables.narration.render("pedidos.resultado_rolado", {
            "natural": total, "modificador": prompt.modifier, "dc": prompt.dc})
    rolled = scratch.roll(prompt.dice, name, weight=Weight.ROUTINE,
                          visibility=prompt_visibility(prompt), edge=edge,
                          label=label, describe=shown,
                          low_is_good=bool(prompt.context.get("rolar_abaixo")),
                          pedido=prompt.id, personagem=prompt.character,
                          quem=character.name if character else None,
                          modificador=prompt.modifier)
    return PromptAnswer(total=rolled.total + prompt.modifier, natural=rolled.total)


# ---------------------------------------------------------------- cancelar

def _release_rest(state: State, scratch: Scratch) -> State | None:
    """`cancelar Nome`: the GM lets a character who owes rest go on (None: not this case)."""
    name = arg(scratch, "personagem")
    if not name or arg(scratch, "pedido") is not None:
        return None
    character = find_character(state, str(name))
    if character.rest_rounds_owed <= 0 or any(p.character == character.id
                                              for p in state.prompts):
        return None
    scratch.tell("pedidos.dispensado", PUBLIC, personagem=character.id, descanso_devido=0,
                 words={"nome": character.name, "devido": character.rest_rounds_owed})
    return update_character(state, replace(character, rest_rounds_owed=0))


@command("cancelar")
def cancel_command(state: State, scratch: Scratch) -> State:
    """Drop a pending prompt (by id, by character, or the oldest); or release a character
    with no pending prompt from the forced-march rest they owe."""
    released = _release_rest(state, scratch)
    if released is not None:
        return released
    prompt = find_prompt(state, scratch)
    kind = scratch.piece(PromptLabels).kind_name(prompt.kind)
    scratch.tell("pedidos.cancelado", prompt_visibility(prompt), pedido=prompt.id,
                 tipo=prompt.kind, personagem=prompt.character, cancelado=True,
                 words={"dono": _owner(state, prompt, scratch), "nome_tipo": kind})
    if prompt.kind in scratch.piece(PromptLabels).cancelamento_publico \
            and prompt_visibility(prompt) != PUBLIC:  # everyone saw it asked
        scratch.tell("pedidos.cancelado_para_todos", PUBLIC, tipo=prompt.kind,
                     personagem=prompt.character, cancelado=True,
                     words={"dono": _owner(state, prompt, scratch), "nome_tipo": kind})
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
    after = CANCEL_HANDLERS.get(prompt.kind)
    return after(state, scratch) if after is not None else state
