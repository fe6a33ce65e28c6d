"""The party sheet: `personagem`.

`personagem Nome [campos…]` creates a character with the house defaults of tables/personagem.yaml
(`personagem_padrao`) or changes the given fields of an existing one; every value is checked
against `limites_personagem`. A value and its maximum go together (`pv`/`pv_max`,
`sanidade`/`sanidade_max`, the character's own Sanity that resting recovers up to): on creation
either one alone sets both; later, a value above its maximum raises the maximum, and a maximum
below the value is refused. A character made by name alone (a player's join runs `personagem
Nome`) has the house defaults and no sheet yet (`Character.sheet_unset`): the first `personagem`
with values is its creation ("personagem Carla nível 1 pv 7": PV 7/7, not 7/8); after that, a
value is a change ("personagem Carla pv 5": PV 5/7).

With `relativo: true` every field given is a CHANGE of an existing character ("Ana toma 3 de
dano" → pv −3; "comida +2"); each result is clamped to `limites_personagem` (never below 0 for
the counters) and PV/Sanidade never go above their maximum (healing stops there); the event says
before → after ("Ana: PV 12 → 9") and what was clamped.

"""
from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from companion.engine.model import ATTRIBUTES, PUBLIC, Character, State
from companion.engine.characters import kept_private, seen_damage, slug, update_character
from companion.engine.handlers import command
from companion.engine.scratch import Scratch, arg
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import InvalidValue, piece
from companion.tables.weights import Weight

FILE = "personagem"
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
# A value and the maximum it never goes above (how the maximum is said: SheetLabels).
MAXIMA: dict[str, str] = {"pv": "pv_max", "sanidade": "sanidade_max"}


@piece(FILE, "rotulos")
@dataclass(frozen=True)
class SheetLabels:
    """tables/personagem.yaml `rotulos`: how each field of the sheet is shown to people
    (`campos`, one per FIELDS key) and how a value's maximum is said in a command
    (`maximos_ditos`, one per MAXIMA key)."""

    campos: Mapping[str, str]
    maximos_ditos: Mapping[str, str]

    def validate(self) -> None:
        for where, wanted, given in (("campos", FIELDS, self.campos),
                                     ("maximos_ditos", MAXIMA, self.maximos_ditos)):
            missing = [key for key in wanted if key not in given]
            if missing:
                raise InvalidValue(where, "validacao.texto_para_cada_campo", {"falta": missing[0]})

    def of(self, key: str) -> str:
        """The label of a field said at the table (the key itself when it has none)."""
        return str(self.campos.get(key, key))


@piece(FILE, "personagem_padrao")
@dataclass(frozen=True)
class CharacterDefaults:
    """House default: the sheet of a character created with `personagem Nome`."""

    nivel: int
    pv: int
    sanidade: int
    exaustao: int
    comida: int
    agua: int
    municao: int
    padrao_da_casa: bool = False

    def values(self) -> dict[str, int]:
        """The defaults by field name (the keys of FIELDS)."""
        return {item.name: int(getattr(self, item.name)) for item in fields(self)
                if item.name in FIELDS}

    def character(self, character_id: str, name: str) -> Character:
        """A new character with this sheet (its maxima equal to its PV and Sanity)."""
        return Character(id=character_id, name=name, level=self.nivel, hp=self.pv,
                         hp_max=self.pv, sanity=self.sanidade, sanity_max=self.sanidade,
                         exhaustion=self.exaustao, food=self.comida, water=self.agua,
                         ammo=self.municao)


Span = tuple[int, int]


@piece(FILE, "limites_personagem")
@dataclass(frozen=True)
class CharacterLimits:
    """House default: the (lowest, highest) value `personagem` accepts for each field."""

    nivel: Span
    pv: Span
    pv_max: Span
    atributo: Span
    sanidade: Span
    exaustao: Span
    comida: Span
    agua: Span
    municao: Span
    dado_de_vida: Span
    dano_atributo: Span
    nome_maximo: int
    padrao_da_casa: bool = False

    def validate(self) -> None:
        for item in fields(self):
            span = getattr(self, item.name)
            if isinstance(span, tuple) and not span[0] <= span[1]:
                raise InvalidValue(item.name, "validacao.faixa")
        if self.nome_maximo < 1:
            raise InvalidValue("nome_maximo", "validacao.inteiro_a_partir_de_um")

    def of(self, key: str) -> Span:
        """The span of a field said at the table (FIELDS key)."""
        span: Span = getattr(self, FIELDS[key][1])
        return span


# ---------------------------------------------------------------- personagem

@command("personagem")
def character_command(state: State, scratch: Scratch) -> State:
    """Create a character or change the fields given."""
    limits, labels = scratch.piece(CharacterLimits), scratch.piece(SheetLabels)
    name = _clean_name(arg(scratch, "nome"), limits.nome_maximo)
    relative = _relative_flag(scratch)
    changes = _read_fields(scratch.command.args, limits, labels, relative)
    wanted = slug(name)
    existing = next((c for c in state.party if c.id == wanted), None)
    if relative and existing is None:
        raise CommandRejected.because(
            "personagem.relativo_sem_ficha", nome=name,
            mudancas=[(labels.of(key), value) for key, value in changes.items()])
    if relative:
        return _change_by(state, existing, changes, limits, scratch)
    if existing is None:
        return _create(state, name, changes, scratch)
    return _change(state, existing, changes, scratch)


def _relative_flag(scratch: Scratch) -> bool:
    flag = arg(scratch, "relativo", False)
    if not isinstance(flag, bool):
        raise CommandRejected.because("personagem.relativo_invalido", valor=flag)
    return flag


def _clean_name(raw: Any, longest: int) -> str:
    name = " ".join(str(raw or "").split())
    if not slug(name).replace("-", "").isalnum():
        raise CommandRejected.because("personagem.nome_invalido", nome=raw or "")
    if len(name) > longest:
        raise CommandRejected.because("personagem.nome_longo", nome=name, maximo=longest)
    return name


def _read_fields(args: Mapping[str, Any], limits: CharacterLimits, labels: SheetLabels,
                 relative: bool = False) -> dict[str, int]:
    """The fields given, as ints within limites_personagem (changes: any size)."""
    changes: dict[str, int] = {}
    for key, raw in args.items():
        if key in ("nome", "relativo"):
            continue
        if key not in FIELDS:
            raise CommandRejected.because("personagem.campo_desconhecido", campo=key,
                                          aceitos=list(FIELDS))
        value = whole_number(key, raw, labels.of(key))
        low, high = limits.of(key)
        if relative:  # a change of any size: the result is clamped ("toma 1000 de dano" → 0)
            changes[key] = value
            continue
        if not low <= value <= high:
            raise CommandRejected.because("personagem.fora_do_razoavel", rotulo=labels.of(key),
                                          valor=value, minimo=low, maximo=high)
        changes[key] = value
    return changes


def whole_number(key: str, raw: Any, label: str | None = None) -> int:
    """raw as an int, or a refusal naming the field by its label (default: the key)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and re.fullmatch(r"-?\d{1,6}", raw.strip()):
        return int(raw.strip())
    raise CommandRejected.because("personagem.nao_inteiro", rotulo=label or key,
                                  valor=raw)


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
    return replace(character, mods=mods, attribute_damage=harm,
                   private_damage=kept_private(character.private_damage, harm), **values)


def _create(state: State, name: str, changes: dict[str, int], scratch: Scratch) -> State:
    limits = scratch.piece(CharacterLimits)
    merged = {**scratch.piece(CharacterDefaults).values(), **changes}
    for value, top in MAXIMA.items():
        if top not in changes:
            merged[top] = max(limits.of(top)[0], merged[value])
        elif value not in changes:
            merged[value] = changes[top]
    blank = scratch.piece(CharacterDefaults).character(slug(name), name)
    character = replace(_with_fields(blank, merged), sheet_unset=not changes)
    _check_maxima(character, scratch.piece(SheetLabels))
    scratch.tell("personagem.criado", PUBLIC, personagem=character.id,
                 words={"ficha": _summary(scratch, character)})
    return replace(state, party=state.party + (character,))


def _change(state: State, character: Character, changes: dict[str, int], scratch: Scratch) -> State:
    if not changes:
        scratch.tell("personagem.ficha", PUBLIC, weight=Weight.FRAMING, personagem=character.id,
                     words={"ficha": _summary(scratch, character)})
        return state
    if character.sheet_unset:  # its first sheet: as at creation, a value alone sets both
        changes = _as_created(changes, scratch.piece(CharacterLimits))
    for value, top in MAXIMA.items():  # setting up the sheet: the maximum follows
        if value in changes and top not in changes and \
                changes[value] > getattr(character, FIELDS[top][0]):
            changes = {**changes, top: changes[value]}
    updated = replace(_with_fields(character, changes), sheet_unset=False)
    labels = scratch.piece(SheetLabels)
    _check_maxima(updated, labels)
    scratch.tell("personagem.mudou", PUBLIC, personagem=character.id, campos=changes,
                 weight=sheet_change_weight(character, updated),
                 words={"nome": character.name,
                        "ditos": [(labels.of(key), value, key in ATTRIBUTES)
                                  for key, value in changes.items()]})
    return update_character(state, updated)


def sheet_change_weight(before: Character, after: Character) -> Weight:
    """A change of a sheet weighs as harm when it hurts (fewer PV or less Sanity, more
    exhaustion or attribute damage), as routine bookkeeping otherwise."""
    hurt = (after.hp < before.hp or after.sanity < before.sanity
            or after.exhaustion > before.exhaustion
            or sum(after.attribute_damage.values()) > sum(before.attribute_damage.values()))
    return Weight.HARM if hurt else Weight.ROUTINE


def _as_created(changes: dict[str, int], limits: CharacterLimits) -> dict[str, int]:
    """The changes with each value's maximum set as a creation sets it: a value alone is its
    maximum too (at least the maximum's lowest limit); a maximum alone is the value too."""
    paired = dict(changes)
    for value, top in MAXIMA.items():
        if value in changes and top not in changes:
            paired[top] = max(limits.of(top)[0], changes[value])
        elif top in changes and value not in changes:
            paired[value] = changes[top]
    return paired


def _current(character: Character, key: str) -> int:
    field, _ = FIELDS[key]
    if field == "mods":
        return int(character.mods.get(key, 0))
    if field == "attribute_damage":
        return int(character.attribute_damage.get(key.removeprefix("dano_"), 0))
    return int(getattr(character, field) or 0)


def _change_by(state: State, character: Character, deltas: dict[str, int],
               limits: CharacterLimits, scratch: Scratch) -> State:
    """`relativo`: each field changes by the amount given; results clamp (see the docstring)."""
    if not deltas:
        scratch.tell("personagem.ficha", PUBLIC, weight=Weight.FRAMING, personagem=character.id,
                     words={"ficha": _summary(scratch, character)})
        return state
    before = {key: _current(character, key) for key in {*deltas, *_paired(deltas)}}
    after: dict[str, int] = {}
    notes: dict[str, tuple[str, int]] = {}  # why a result was clamped: (which bound, value)
    for key, delta in deltas.items():
        low, high = limits.of(key)
        wanted = before[key] + delta
        after[key] = max(low, min(high, wanted))
        if after[key] != wanted:
            notes[key] = ("minimo", low) if wanted < low else ("limite", high)
    for value, top in MAXIMA.items():
        highest = after.get(top, _current(character, top))
        current = after.get(value, before.get(value, _current(character, value)))
        if current > highest:
            after[value] = highest
            notes[value] = ("maximo", highest)
    updated = replace(_with_fields(character, after), sheet_unset=False)
    labels = scratch.piece(SheetLabels)
    lines = [{"rotulo": labels.of(key), "antes": before[key], "depois": after[key],
              "sinal": key in ATTRIBUTES,
              "nota": notes.get(key, (None, None))[0], "limite": notes.get(key, (None, None))[1]}
             for key in after]
    scratch.tell("personagem.mudou_relativo", PUBLIC, personagem=character.id, campos=after,
                 weight=sheet_change_weight(character, updated),
                 antes={key: before[key] for key in after}, relativo=True,
                 words={"nome": character.name, "linhas": lines})
    return update_character(state, updated)


def _paired(keys: Mapping[str, int]) -> list[str]:
    """The values whose maximum is among keys (a lower maximum may lower them)."""
    return [value for value, top in MAXIMA.items() if top in keys]


def _check_maxima(character: Character, labels: SheetLabels) -> None:
    """No value above its maximum (PV, Sanidade)."""
    for value, top in MAXIMA.items():
        current, highest = getattr(character, FIELDS[value][0]), getattr(character, FIELDS[top][0])
        if current > highest:
            raise CommandRejected.because(
                "personagem.acima_do_maximo", rotulo=labels.of(value), valor=current,
                rotulo_maximo=labels.of(top), maximo=highest, nome=character.name,
                como_diz=labels.maximos_ditos[value])


def _summary(scratch: Scratch, character: Character) -> str:
    """The sheet in one line (tables/narracao/personagem.yaml `resumo`)."""
    return scratch.tables.narration.render("personagem.resumo", {
        "nome": character.name, "nivel": character.level, "pv": character.hp,
        "pv_max": character.hp_max, "sanidade": character.sanity,
        "sanidade_max": character.sanity_max, "exaustao": character.exhaustion,
        "comida": character.food, "agua": character.water, "municao": character.ammo,
        "mods": [(name, value) for name, value in character.mods.items() if value],
        "dano": list(seen_damage(character, PUBLIC).items()),  # said in public
        "dado_de_vida": character.hit_die})
