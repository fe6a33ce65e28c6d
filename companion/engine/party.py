"""The party and the prompts: `personagem`, `responder` and `cancelar`.

`personagem Nome [campos…]` creates a character with the house defaults of tables/panico.yaml
(`personagem_padrao`) or changes the given fields of an existing one; every value is checked
against `limites_personagem`. A value and its maximum go together (`pv`/`pv_max`,
`sanidade`/`sanidade_max`, the character's own Sanity that resting recovers up to): on creation
either one alone sets both; later, a value above its maximum raises the maximum, and a maximum
below the value is refused.

With `relativo: true` every field given is a CHANGE of an existing character ("Ana toma 3 de
dano" → pv −3; "comida +2"); each result is clamped to `limites_personagem` (never below 0 for
the counters) and PV/Sanidade never go above their maximum (healing stops there); the event says
before → after ("Ana: PV 12 → 9") and what was clamped.

`vigia Nome` chooses who keeps watch during the travel rest (Tabela H row 8's panic test); it
holds until another is chosen. Without a name it says who watches now (the chosen one, else the
house default of casa.yaml).

`responder` resolves a pending prompt, found by `pedido` (id), by `personagem`, by the player's
own oldest prompt, or — for the GM with neither — the oldest prompt when every pending prompt
belongs to the same character (or all are the GM's); prompts of different owners must be named. `opcao` answers a choice;
`valor` is a physical die (checked against the die's range; total = valor + modifier); with
neither, the companion rolls the prompt's dice with the character's edge (Tabela I: DESV).
The answer's event shows the die and the modifier ("Ana respondeu ao pedido 1: 15 + 1 = 16")
and an option by its label ("exaustão").
`cancelar` drops a prompt. `cancelar Nome` for a character with no pending prompt who owes
forced-march rest releases them from it (the GM's call; see hexcrawl.py).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Mapping

from companion.engine.core import (
    CANCEL_HANDLERS,
    PROMPT_HANDLERS,
    PromptAnswer,
    Scratch,
    arg,
    command,
    edge_for,
    find_character,
    option_label,
    plural,
    prompt_edge,
    slug,
    update_character,
)
from companion.engine.model import GM, PUBLIC, Character, Prompt, State, Visibility
from companion.engine.model import player_visibility
from companion.errors import CommandRejected

FILE = "panico"
ATTRIBUTES = ("for", "des", "con", "int", "sab", "car")
# Field said at the table → (Character attribute, limit key in limites_personagem).
FIELDS: dict[str, tuple[str, str]] = {
    "nivel": ("level", "nivel"), "pv": ("hp", "pv"), "pv_max": ("hp_max", "pv_max"),
    "sanidade": ("sanity", "sanidade"), "sanidade_max": ("sanity_max", "sanidade"),
    "exaustao": ("exhaustion", "exaustao"),
    "comida": ("food", "comida"), "agua": ("water", "agua"), "municao": ("ammo", "municao"),
    **{name: ("mods", "atributo") for name in ATTRIBUTES},
    "dado_de_vida": ("hit_die", "dado_de_vida"),
    **{f"dano_{name}": ("attribute_damage", "dano_atributo") for name in ATTRIBUTES},
}
LABELS = {"nivel": "nível", "pv": "PV", "pv_max": "PV máx.", "sanidade": "Sanidade",
          "sanidade_max": "Sanidade máx.", "exaustao": "exaustão", "comida": "comida",
          "agua": "água", "municao": "munição", **{name: name.upper() for name in ATTRIBUTES},
          "dado_de_vida": "dado de vida",
          **{f"dano_{name}": f"dano de {name.upper()}" for name in ATTRIBUTES}}
# A value and the maximum it never goes above, with how the maximum is said at the table.
MAXIMA: dict[str, tuple[str, str]] = {"pv": ("pv_max", "pv_max"),
                                      "sanidade": ("sanidade_max", "sanidade máxima")}
_DICE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


# ---------------------------------------------------------------- personagem

@command("personagem")
def character_command(state: State, scratch: Scratch) -> State:
    """Create a character or change the fields given."""
    name = _clean_name(arg(scratch, "nome"), scratch)
    relative = _relative_flag(scratch)
    changes = _read_fields(scratch, relative)
    wanted = slug(name)
    existing = next((c for c in state.party if c.id == wanted), None)
    if relative and existing is None:
        said = ", ".join(f"{LABELS[key]} {value:+d}" for key, value in changes.items())
        raise CommandRejected(
            f"'{name}' ainda não está no grupo, e '{said}' muda a ficha de quem já existe; "
            f"para criar, diga 'personagem {name}' com valores sem sinal (ex.: 'personagem "
            f"{name} pv 8')")
    if relative:
        return _change_by(state, existing, changes, scratch)
    if existing is None:
        return _create(state, name, changes, scratch)
    return _change(state, existing, changes, scratch)


def _relative_flag(scratch: Scratch) -> bool:
    flag = arg(scratch, "relativo", False)
    if not isinstance(flag, bool):
        raise CommandRejected(f"'relativo' precisa ser sim ou não, não '{flag}'")
    return flag


def _clean_name(raw: Any, scratch: Scratch) -> str:
    name = " ".join(str(raw or "").split())
    longest = int(scratch.table(FILE, "limites_personagem", "nome_maximo"))
    if not slug(name).replace("-", "").isalnum():
        raise CommandRejected(f"nome de personagem inválido: '{raw or ''}'; "
                              "diga 'personagem Ana' (letras ou números)")
    if len(name) > longest:
        raise CommandRejected(f"nome de personagem longo demais: '{name}'; "
                              f"use no máximo {longest} letras")
    return name


def _read_fields(scratch: Scratch, relative: bool = False) -> dict[str, int]:
    """The fields given, as ints within limites_personagem (changes: within its span)."""
    limits = scratch.table(FILE, "limites_personagem")
    accepted = ", ".join(FIELDS)
    changes: dict[str, int] = {}
    for key, raw in scratch.command.args.items():
        if key in ("nome", "relativo"):
            continue
        if key not in FIELDS:
            raise CommandRejected(f"campo desconhecido: '{key}'; use {accepted}")
        value = _as_int(key, raw)
        low, high = limits[FIELDS[key][1]]
        if relative:  # a change of any size: the result is clamped ("toma 1000 de dano" → 0)
            changes[key] = value
            continue
        if not low <= value <= high:
            what = "mudança" if relative else "valor"
            shown = f"{value:+d}" if relative else str(value)
            raise CommandRejected(f"{what} fora do razoável: {LABELS[key]} {shown}; "
                                  f"use de {low} a {high}")
        changes[key] = value
    return changes


def _as_int(key: str, raw: Any) -> int:
    if isinstance(raw, bool):
        raise CommandRejected(f"{LABELS.get(key, key)} precisa ser um número inteiro, "
                              f"não '{raw}'")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and re.fullmatch(r"-?\d{1,6}", raw.strip()):
        return int(raw.strip())
    raise CommandRejected(f"{LABELS.get(key, key)} precisa ser um número inteiro, não '{raw}'")


def _with_fields(character: Character, changes: Mapping[str, int]) -> Character:
    mods = dict(character.mods)
    harm = dict(character.attribute_damage)
    values: dict[str, Any] = {}
    for key, value in changes.items():
        field, _ = FIELDS[key]
        if field == "mods":
            mods[key] = value
        elif field == "attribute_damage":
            harm[key.removeprefix("dano_")] = value
        else:
            values[field] = value
    harm = {name: amount for name, amount in harm.items() if amount}
    return replace(character, mods=mods, attribute_damage=harm, **values)


def _create(state: State, name: str, changes: dict[str, int], scratch: Scratch) -> State:
    defaults = scratch.table(FILE, "personagem_padrao")
    limits = scratch.table(FILE, "limites_personagem")
    merged = {**{key: int(defaults[key]) for key in FIELDS if key in defaults}, **changes}
    for value, (top, _) in MAXIMA.items():
        if top not in changes:
            merged[top] = max(int(limits[FIELDS[top][1]][0]), merged[value])
        elif value not in changes:
            merged[value] = changes[top]
    character = _with_fields(Character(id=slug(name), name=name), merged)
    _check_maxima(character)
    scratch.say(f"Personagem criado: {_summary(character)}.", PUBLIC, personagem=character.id)
    return replace(state, party=state.party + (character,))


def _change(state: State, character: Character, changes: dict[str, int], scratch: Scratch) -> State:
    if not changes:
        scratch.say(f"{_summary(character)}.", PUBLIC, personagem=character.id)
        return state
    for value, (top, _) in MAXIMA.items():  # setting up the sheet: the maximum follows
        if value in changes and top not in changes and \
                changes[value] > getattr(character, FIELDS[top][0]):
            changes = {**changes, top: changes[value]}
    updated = _with_fields(character, changes)
    _check_maxima(updated)
    said = ", ".join(f"{LABELS[key]} {value}" for key, value in changes.items())
    scratch.say(f"{character.name}: {said}.", PUBLIC, personagem=character.id, campos=changes)
    return update_character(state, updated)


def _current(character: Character, key: str) -> int:
    field, _ = FIELDS[key]
    if field == "mods":
        return int(character.mods.get(key, 0))
    if field == "attribute_damage":
        return int(character.attribute_damage.get(key.removeprefix("dano_"), 0))
    return int(getattr(character, field) or 0)


def _change_by(state: State, character: Character, deltas: dict[str, int], scratch: Scratch) -> State:
    """`relativo`: each field changes by the amount given; results clamp (see the docstring)."""
    if not deltas:
        scratch.say(f"{_summary(character)}.", PUBLIC, personagem=character.id)
        return state
    limits = scratch.table(FILE, "limites_personagem")
    before = {key: _current(character, key) for key in {*deltas, *_paired(deltas)}}
    after: dict[str, int] = {}
    notes: dict[str, str] = {}
    for key, delta in deltas.items():
        low, high = limits[FIELDS[key][1]]
        wanted = before[key] + delta
        after[key] = max(low, min(high, wanted))
        if after[key] != wanted:
            notes[key] = f"não fica abaixo de {low}" if wanted < low else f"no máximo {high}"
    for value, (top, _) in MAXIMA.items():
        highest = after.get(top, _current(character, top))
        current = after.get(value, before.get(value, _current(character, value)))
        if current > highest:
            after[value] = highest
            notes[value] = f"só até o máximo, {highest}"
    updated = _with_fields(character, after)
    said = ", ".join(f"{LABELS[key]} {before[key]} → {after[key]}"
                     + (f" ({notes[key]})" if key in notes else "") for key in after)
    scratch.say(f"{character.name}: {said}.", PUBLIC, personagem=character.id, campos=after,
             antes={key: before[key] for key in after}, relativo=True)
    return update_character(state, updated)


def _paired(keys: Mapping[str, int]) -> list[str]:
    """The values whose maximum is among keys (a lower maximum may lower them)."""
    return [value for value, (top, _) in MAXIMA.items() if top in keys]


def _check_maxima(character: Character) -> None:
    """No value above its maximum (PV, Sanidade)."""
    for value, (top, said) in MAXIMA.items():
        current, highest = getattr(character, FIELDS[value][0]), getattr(character, FIELDS[top][0])
        if current > highest:
            raise CommandRejected(f"{LABELS[value]} {current} maior que {LABELS[top]} {highest} "
                                  f"de {character.name}; diga também '{said} {current}'")


def _summary(character: Character) -> str:
    mods = " ".join(f"{k.upper()} {v:+d}" for k, v in character.mods.items() if v)
    harm = attribute_damage_text(character)
    return (f"{character.name} (nível {character.level}, PV {character.hp}/{character.hp_max}, "
            f"Sanidade {character.sanity}/{character.sanity_max}, "
            f"exaustão {character.exhaustion}, "
            f"comida {character.food}, água {character.water}, munição {character.ammo}"
            + (f", {mods}" if mods else "")
            + (f", dano de atributo: {harm}" if harm else "")
            + (f", dado de vida d{character.hit_die}" if character.hit_die else "") + ")")


def attribute_damage_text(character: Character) -> str:
    """'SAB 2, CON 1' (empty when there is none)."""
    return ", ".join(f"{name.upper()} {value}"
                     for name, value in character.attribute_damage.items() if value)


# ---------------------------------------------------------------- finding prompts

def _actor_character(scratch: Scratch) -> str | None:
    actor = scratch.command.actor
    return actor.split(":", 1)[1] if actor.startswith("player:") else None


def _pending_list(state: State, scratch: Scratch) -> str:
    if not state.prompts:
        return "nenhum"
    names = scratch.table(FILE, "nomes_pedidos")
    return "; ".join(f"{p.id} ({_owner(state, p)}: {names.get(p.kind, p.kind)})"
                     for p in state.prompts)


def _owner(state: State, prompt: Prompt) -> str:
    if prompt.character is None:
        return "Mestre"
    return next((c.name for c in state.party if c.id == prompt.character), prompt.character)


def find_prompt(state: State, scratch: Scratch) -> Prompt:
    """The prompt a `responder`/`cancelar` means (see the module docstring)."""
    if not state.prompts:
        raise CommandRejected("não há nenhum pedido pendente")
    wanted_id, name = arg(scratch, "pedido"), arg(scratch, "personagem")
    if wanted_id is not None:
        found = next((p for p in state.prompts if str(p.id) == str(wanted_id).strip()), None)
        if found is None:
            raise CommandRejected(f"pedido desconhecido: '{wanted_id}'; pendentes: "
                                  f"{_pending_list(state, scratch)}")
        return found
    owner = find_character(state, name).id if name else _actor_character(scratch)
    if owner is None:
        owners = {p.character for p in state.prompts}
        if len(owners) > 1:  # the GM must say which: guessing answers the wrong one
            verb = scratch.command.name
            raise CommandRejected(
                f"há {len(state.prompts)} pedidos pendentes: {_pending_list(state, scratch)}; "
                f"diga qual, por exemplo '{verb} pedido {state.prompts[-1].id}' ou "
                f"'{verb} Nome'")
        return state.prompts[0]
    found = next((p for p in state.prompts if p.character == owner), None)
    if found is None:
        raise CommandRejected(f"não há pedido pendente para '{name or owner}'; pendentes: "
                              f"{_pending_list(state, scratch)}")
    return found


def _check_owner(prompt: Prompt, scratch: Scratch) -> None:
    player = _actor_character(scratch)
    if player is not None and prompt.character != player:
        raise CommandRejected(f"o pedido {prompt.id} não é seu; responda só aos seus pedidos")


def prompt_visibility(prompt: Prompt) -> Visibility:
    return player_visibility(prompt.character) if prompt.character else GM


# ---------------------------------------------------------------- responder

@command("responder")
def answer_command(state: State, scratch: Scratch) -> State:
    """Answer a pending prompt with an option, a physical die value, or a companion roll."""
    scratch = _name_said_as_option(state, scratch)
    prompt = find_prompt(state, scratch)
    _check_owner(prompt, scratch)
    option, value = arg(scratch, "opcao"), arg(scratch, "valor")
    how: Callable[[State, Prompt, Scratch], PromptAnswer]
    if prompt.options:
        how = _by_option
    elif option is not None:
        raise CommandRejected(f"o pedido {prompt.id} pede uma rolagem ({prompt.dice}), não uma "
                              f"opção: diga 'responder 14' ou 'responder rolar'")
    else:
        how = _by_value if value is not None else _by_roll
    answer = how(state, prompt, scratch)
    handler = PROMPT_HANDLERS.get(prompt.kind)
    if handler is None:
        raise CommandRejected(f"ainda não sei resolver pedidos do tipo '{prompt.kind}'")
    shown = _answer_text(prompt, answer)
    who = _owner(state, prompt)
    if scratch.command.actor == "gm" and prompt.character is not None:
        who = f"O Mestre, por {who},"
    physical = {"dados_fisicos": _physical_dice(prompt)} if answer.faces else {}
    scratch.say(f"{who} respondeu ao pedido {prompt.id}: {shown}.",
             prompt_visibility(prompt), kind="resposta", pedido=prompt.id, tipo=prompt.kind,
             personagem=prompt.character, total=answer.total, natural=answer.natural,
             opcao=answer.option, **physical)
    remaining = tuple(p for p in state.prompts if p.id != prompt.id)
    return handler(replace(state, prompts=remaining), prompt, answer, scratch)


def _physical_dice(prompt: Prompt) -> dict[str, int]:
    """The dice a physical answer rolled, for the session tally: '2d6' → {'d6': 2}; under DESV
    or vantagem the prompt asked for two rolls, so twice that."""
    match = _DICE.match(prompt.dice.strip().lower().replace(" ", ""))
    if not match:
        return {}
    count = int(match.group(1) or 1) * (2 if prompt_edge(prompt) else 1)
    return {f"d{match.group(2)}": count}


def _answer_text(prompt: Prompt, answer: PromptAnswer) -> str:
    """'exaustão', '16', '15 + 1 = 16' when a modifier was added to the die, and under DESV
    with both dice said, '9 (DESV, descartado 15) + 1 = 10'."""
    if answer.option is not None:
        return option_label(prompt, answer.option)
    natural = str(answer.natural)
    if len(answer.faces) == 2:
        other = answer.faces[1] if answer.faces[0] == answer.natural else answer.faces[0]
        natural += f" ({'DESV' if prompt_edge(prompt) == 'desvantagem' else 'vantagem'}, " \
                   f"descartado {other})"
    elif answer.natural is None or not prompt.modifier:
        return str(answer.total)
    if not prompt.modifier:
        return natural
    sign = "+" if prompt.modifier > 0 else "−"
    return f"{natural} {sign} {abs(prompt.modifier)} = {answer.total}"


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
    listed = " ou ".join(option_label(prompt, o) for o in prompt.options)
    if option is None:
        raise CommandRejected(f"o pedido {prompt.id} é uma escolha: responda {listed} "
                              f"(ex.: 'responder {option_label(prompt, prompt.options[0])}')")
    chosen = next((o for o in prompt.options if slug(str(option)) in
                   (slug(o), slug(option_label(prompt, o)))), None)
    if chosen is None:
        raise CommandRejected(f"opção desconhecida: '{option}'; use {listed}")
    return PromptAnswer(option=chosen)


def die_range(expression: str) -> tuple[int, int] | None:
    """Lowest and highest total of 'NdS' or 'NdS+M' (None for other shapes)."""
    match = _DICE.match(expression.strip().lower().replace(" ", ""))
    if not match:
        return None
    count, sides = int(match.group(1) or 1), int(match.group(2))
    bonus = int(match.group(3) or 0)
    return count + bonus, count * sides + bonus


def _by_value(state: State, prompt: Prompt, scratch: Scratch) -> PromptAnswer:
    """A physical die: one value (under DESV, the one the player kept) or, under DESV or
    vantagem, both values (`valor2`): the companion keeps the worse (or the better)."""
    bounds = die_range(prompt.dice)
    if bounds is None:
        raise CommandRejected(f"o pedido {prompt.id} é de {prompt.dice}: diga 'responder rolar' "
                              "para o companheiro rolar")
    values = [_die_value(prompt, arg(scratch, "valor"), bounds)]
    if arg(scratch, "valor2") is not None:
        edge = prompt_edge(prompt)
        if edge is None:
            raise CommandRejected(f"o pedido {prompt.id} não é com DESV nem vantagem: diga um "
                                  f"valor só, como 'responder {values[0]}'")
        values.append(_die_value(prompt, arg(scratch, "valor2"), bounds))
        keep_high = (edge == "vantagem") != bool(prompt.context.get("rolar_abaixo"))
        natural = max(values) if keep_high else min(values)
    else:
        natural = values[0]
    return PromptAnswer(total=natural + prompt.modifier, natural=natural, faces=tuple(values))


def _die_value(prompt: Prompt, raw: Any, bounds: tuple[int, int]) -> int:
    low, high = bounds
    refusal = CommandRejected(f"valor fora do dado: '{raw}'; o pedido {prompt.id} é de "
                              f"{prompt.dice}: diga um número de {low} a {high}")
    try:
        natural = _as_int("valor", raw)
    except CommandRejected:
        raise refusal from None
    if not low <= natural <= high:
        raise refusal
    return natural


def _by_roll(state: State, prompt: Prompt, scratch: Scratch) -> PromptAnswer:
    character = next((c for c in state.party if c.id == prompt.character), None)
    edge = (prompt_edge(prompt) if "vantagem" in prompt.context
            else edge_for(character, scratch.tables, state.minutes) if character else None)
    names = scratch.table(FILE, "nomes_pedidos")
    name = str(prompt.context.get("tabela") or names.get(prompt.kind, prompt.text))
    label = f"{_owner(state, prompt)}: {prompt.context.get('rotulo') or name}"
    def shown(total: int) -> str:
        """The roll's `resultado`: the total with the modifier, against the DC if any."""
        said = (f"{total} {'+' if prompt.modifier > 0 else '−'} {abs(prompt.modifier)} = "
                f"{total + prompt.modifier}" if prompt.modifier else f"total {total}")
        return said + (f" contra DC {prompt.dc}" if prompt.dc is not None else "")
    rolled = scratch.roll(prompt.dice, name, visibility=prompt_visibility(prompt), edge=edge,
                       label=label, describe=shown,
                       low_is_good=bool(prompt.context.get("rolar_abaixo")),
                       pedido=prompt.id, personagem=prompt.character,
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
    owed = character.rest_rounds_owed
    scratch.say(f"O Mestre dispensa {character.name} do descanso da marcha forçada "
             f"({'faltava' if owed == 1 else 'faltavam'} {plural(owed, 'rodada')}).", PUBLIC,
             personagem=character.id, descanso_devido=0)
    return update_character(state, replace(character, rest_rounds_owed=0))


@command("cancelar")
def cancel_command(state: State, scratch: Scratch) -> State:
    """Drop a pending prompt (by id, by character, or the oldest); or release a character
    with no pending prompt from the forced-march rest they owe."""
    released = _release_rest(state, scratch)
    if released is not None:
        return released
    prompt = find_prompt(state, scratch)
    kind = scratch.table(FILE, "nomes_pedidos").get(prompt.kind, prompt.kind)
    scratch.say(f"Pedido {prompt.id} ({_owner(state, prompt)}: {kind}) cancelado.",
             prompt_visibility(prompt), pedido=prompt.id, tipo=prompt.kind,
             personagem=prompt.character, cancelado=True)
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
    after = CANCEL_HANDLERS.get(prompt.kind)
    return after(state, scratch) if after is not None else state


# ---------------------------------------------------------------- vigia

@command("vigia")
def watch_command(state: State, scratch: Scratch) -> State:
    """Choose who keeps watch during the rest, or say who does now."""
    from companion.engine.rest import watcher

    name = arg(scratch, "personagem")
    if not name:
        current = watcher(state, scratch)
        chosen = state.travel.watcher is not None and current is not None
        how = "escolhido pelo Mestre" if chosen else "padrão da casa"
        who = current.name if current else "ninguém (não há personagens)"
        scratch.say(f"Vigia: {who} ({how}). Para mudar, diga 'vigia Nome'.", PUBLIC,
                 vigia=current.id if current else None)
        return state
    character = find_character(state, str(name))
    scratch.say(f"Vigia: {character.name} (até o Mestre escolher outro).", PUBLIC,
             vigia=character.id)
    return replace(state, travel=replace(state.travel, watcher=character.id))
