"""The party's characters as the rules read them: finding one by name, replacing one, keeping
supplies and trackers in range, exhaustion for all, an attribute's modifier (Tabela I and
attribute damage) and the edge a roll is made with."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Mapping

from companion.tables import protocol
from companion.engine.exhaustion import EXHAUSTION_EDGE, EXHAUSTION_NO_MODIFIERS, ExhaustionTable
from companion.engine.model import Character, State
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from companion.tables.rulebook import piece, require_at_least


@piece("personagem", "dano_de_atributo")
@dataclass(frozen=True)
class AttributeDamage:
    """personagem.yaml `dano_de_atributo` (house default): attribute damage lowers that
    modifier by 1 per `pontos_por_modificador` points."""

    pontos_por_modificador: int
    padrao_da_casa: bool = False

    def validate(self) -> None:
        require_at_least(self, 1, "pontos_por_modificador")


def slug(text: str) -> str:
    """Lowercase, no accents, words joined by '-': the id of a character."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(plain.lower().split())


def find_character(state: State, name_or_id: str) -> Character:
    """The character named (accents and case ignored), or a rejection listing the party."""
    wanted = slug(str(name_or_id))
    for character in state.party:
        if character.id == wanted or slug(character.name) == wanted:
            return character
    raise CommandRejected.because("personagem.desconhecido", nome=name_or_id,
                                  personagens=[c.name for c in state.party])


def update_character(state: State, character: Character) -> State:
    """Replace the character with the same id."""
    party = tuple(character if c.id == character.id else c for c in state.party)
    return replace(state, party=party)


def clamp_supplies(character: Character) -> Character:
    """Supplies and trackers never go negative; HP stays within 0..max."""
    return replace(
        character,
        hp=max(0, min(character.hp, character.hp_max)),
        food=max(0, character.food), water=max(0, character.water),
        ammo=max(0, character.ammo), exhaustion=max(0, character.exhaustion),
        sanity=max(0, character.sanity), rest_rounds_owed=max(0, character.rest_rounds_owed),
    )


def exhaust_party(state: State, amount: int) -> tuple[State, list[tuple[str, int]]]:
    """Every character gains `amount` exhaustion; also returns each one's (name, new level)
    for the message (its template says them: 'Ana 2, Bia 1')."""
    party = tuple(clamp_supplies(replace(c, exhaustion=c.exhaustion + amount))
                  for c in state.party)
    return replace(state, party=party), [(c.name, c.exhaustion) for c in party]


def has_exhaustion_effect(character: Character, effect: str, tables: Tables) -> bool:
    """Whether the character's exhaustion has reached the Tabela I row with `effect`."""
    level = tables.piece(ExhaustionTable).level_of(effect)
    return level is not None and character.exhaustion >= level


def modifier(character: Character, attribute: str, tables: Tables) -> int:
    """The attribute modifier as the rules apply it: Tabela I `sem_modificadores` drops it;
    attribute damage lowers it by 1 per `dano_de_atributo.pontos_por_modificador` points."""
    if has_exhaustion_effect(character, EXHAUSTION_NO_MODIFIERS, tables):
        return 0
    per = tables.piece(AttributeDamage).pontos_por_modificador
    harm = int(character.attribute_damage.get(attribute, 0)) // per
    return int(character.mods.get(attribute, 0)) - harm


def edge_for(character: Character, tables: Tables, now: int) -> str | None:
    """Tabela I `desvantagem`, or the edge of a lasting condition in force at minute `now`
    (Tabela H 7: DESV for the next two rounds, from the round after the one it happened in)."""
    if has_exhaustion_effect(character, EXHAUSTION_EDGE, tables):
        return EXHAUSTION_EDGE
    return next((c.edge for c in character.lasting if c.edge and c.since <= now < c.until),
                None)


def seen_conditions(character: Character, viewer: str) -> list[str]:
    """The character's conditions `viewer` may see (each keeps who sees it)."""
    return [c for c in character.conditions
            if protocol.may_see(character.condition_visibility.get(c, protocol.PUBLIC), viewer)]


def seen_damage(character: Character, viewer: str) -> dict[str, int]:
    """The attribute damage `viewer` may see: all of it for the GM and the character's
    player, without its private part (a private panic effect's) for the others."""
    own = protocol.may_see(protocol.player_key(character.id), viewer)
    shown = {k: int(v) - (0 if own else int(character.private_damage.get(k, 0)))
             for k, v in character.attribute_damage.items()}
    return {k: v for k, v in shown.items() if v > 0}


def kept_private(private: Mapping[str, int], damage: Mapping[str, int]) -> dict[str, int]:
    """The private part of each attribute's damage once the damage is `damage` (healed or
    set by the GM): never more than the damage left (the public part heals first)."""
    kept = {k: min(int(v), int(damage.get(k, 0))) for k, v in private.items()}
    return {k: v for k, v in kept.items() if v > 0}
