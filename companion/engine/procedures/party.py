"""The party sheet: `personagem`.

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

"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping

from companion.engine.model import PUBLIC, Character, State
from companion.engine.toolkit import ATTRIBUTES, Scratch, arg, command, slug, update_character
from companion.errors import CommandRejected

FILE = "panico"
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
        value = whole_number(key, raw)
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


def whole_number(key: str, raw: Any) -> int:
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


# ---------------------------------------------------------------- responder


# ---------------------------------------------------------------- cancelar


# ---------------------------------------------------------------- vigia

