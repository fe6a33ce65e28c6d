"""Lasting conditions with a rule effect, and `curar`.

Characters keep their lasting conditions as texts (`Character.conditions`). A table row that
notes a condition (`condicao: "…"`, e.g. viagem.yaml Tabela F row 8) may also say what it does:
  efeito: meio_movimento      an entry of viagem.yaml `efeitos_de_condicao`
  ate_ser_curado: true        it stays until the GM says `curar Nome`
  como_fica: "com o …"        how a text says who has it ("Ana está com o tornozelo torcido")
The rows are found by their condition text, in every table file, so a condition noted by any
table (travel accident, rest mishap, panic) gets its effect the same way.

Effects: `fator_avanco` scales Tabela A's progress while anyone in the party has the condition;
the group moves at the slowest member's pace, so the lowest factor counts, once, however many
are hurt (`advance_factor`).

`curar Nome` removes the character's conditions that last "até ser curado"; `curar Nome
condicao` removes the one named (any condition, matched ignoring accents and case).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

from companion.engine.core import Turn, arg, command, find_character, slug, update_character
from companion.engine.model import PUBLIC, Character, State
from companion.errors import CommandRejected, TableError
from companion.tables import Tables, register_schema

register_schema("viagem", {"efeitos_de_condicao": {"*": {
    "nome": str, "fator_avanco": float, "modos": [str]}}})


@dataclass(frozen=True)
class Slowed:
    """Why the party moves slower: who has which condition, and the effect's name."""

    factor: float
    effect: str  # "meio movimento"
    who: tuple[tuple[str, str], ...]  # (character name, how it is said: "com o tornozelo…")


# ---------------------------------------------------------------- finding the rows

def _rows(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping in a table file that notes a condition (`condicao` as text)."""
    if isinstance(node, Mapping):
        if isinstance(node.get("condicao"), str):
            yield node
        for value in node.values():
            yield from _rows(value)
    elif isinstance(node, list):
        for item in node:
            yield from _rows(item)


def condition_row(tables: Tables, text: str) -> Mapping[str, Any] | None:
    """The table row that notes this condition text, when it has effects (else None)."""
    for file in tables.files.values():
        for row in _rows(file):
            if row["condicao"] == text and ("efeito" in row or "ate_ser_curado" in row):
                return row
    return None


def lasts_until_cured(tables: Tables, text: str) -> bool:
    row = condition_row(tables, text)
    return bool(row and row.get("ate_ser_curado") is True)


def _effect(tables: Tables, row: Mapping[str, Any]) -> Mapping[str, Any] | None:
    key = row.get("efeito")
    if key is None:
        return None
    effects = tables.get("viagem", "efeitos_de_condicao")
    if key not in effects:
        raise TableError(f"tables: a condição '{row['condicao']}' tem efeito '{key}', que não "
                         f"está em viagem.yaml efeitos_de_condicao ({', '.join(effects)})")
    return effects[key]


def _how_said(row: Mapping[str, Any]) -> str:
    """'com o tornozelo torcido'; without `como_fica`, the condition's text before ':'."""
    said = row.get("como_fica")
    return str(said) if said else "com " + str(row["condicao"]).split(":")[0].lower()


# ---------------------------------------------------------------- Avançar

def advance_factor(state: State, tables: Tables) -> Slowed | None:
    """The slowest pace in the party for the current travel mode, or None at full pace."""
    found: list[tuple[float, str, str, str]] = []
    for character in state.party:
        for text in character.conditions:
            row = condition_row(tables, text)
            effect = _effect(tables, row) if row is not None else None
            if row is None or effect is None or state.travel.mode not in effect["modos"]:
                continue
            found.append((float(effect["fator_avanco"]), str(effect["nome"]),
                          character.name, _how_said(row)))
    slowest = min((f for f in found if f[0] < 1), default=None)
    if slowest is None:
        return None
    who = tuple(dict.fromkeys((name, said) for factor, effect, name, said in found
                              if factor == slowest[0] and effect == slowest[1]))
    return Slowed(factor=slowest[0], effect=slowest[1], who=who)


def slowed_text(slowed: Slowed) -> str:
    """'meio movimento: Ana está com o tornozelo torcido' (Ana e Bia estão …)."""
    by_how: dict[str, list[str]] = {}
    for name, said in slowed.who:
        by_how.setdefault(said, []).append(name)
    parts = [f"{_names(names)} {'está' if len(names) == 1 else 'estão'} {said}"
             for said, names in by_how.items()]
    return f"{slowed.effect}: {'; '.join(parts)}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]


# ---------------------------------------------------------------- curar

@command("curar")
def cure_command(state: State, turn: Turn) -> State:
    """Remove the conditions that last until cured (or the one named)."""
    name = arg(turn, "personagem")
    if not name:
        raise CommandRejected("diga quem é curado: 'curar Ana'")
    character = find_character(state, str(name))
    named = arg(turn, "condicao")
    cured = (_named(character, str(named)) if named
             else _until_cured(character, turn.tables))
    kept = tuple(c for c in character.conditions if c not in cured)
    slowed_before = advance_factor(state, turn.tables)
    state = update_character(state, replace(character, conditions=kept))
    listed = "; ".join(f"“{text}”" for text in cured)
    turn.say(f"Cura — {character.name} não tem mais {listed}.", PUBLIC,
             personagem=character.id, curadas=list(cured))
    if slowed_before is not None and advance_factor(state, turn.tables) is None:
        turn.say("O grupo volta a avançar no passo normal.", PUBLIC)
    return state


def _conditions_text(character: Character) -> str:
    return "; ".join(character.conditions) or "nenhuma"


def _until_cured(character: Character, tables: Tables) -> tuple[str, ...]:
    cured = tuple(c for c in character.conditions if lasts_until_cured(tables, c))
    if cured:
        return cured
    other = (f"; para tirar outra, diga qual: 'curar {character.name} "
             f"{_first_word(character.conditions[0])}'"
             if character.conditions else "")
    raise CommandRejected(f"{character.name} não tem condição que dure até ser curada "
                          f"(condições: {_conditions_text(character)}){other}")


def _first_word(text: str) -> str:
    """'Carrapatos/sanguessugas: …' → 'carrapatos' (how the GM can name it)."""
    return re.split(r"[^a-z0-9]", slug(text))[0]


def _named(character: Character, named: str) -> tuple[str, ...]:
    wanted = slug(named).replace("-", " ")
    cured = tuple(c for c in character.conditions if wanted and wanted in
                  slug(c).replace("-", " "))
    if not cured:
        raise CommandRejected(
            f"{character.name} não tem nenhuma condição '{named}' (condições: "
            f"{_conditions_text(character)}); diga 'curar {character.name}' para tirar as que "
            "duram até a cura")
    return cured


__all__ = ["advance_factor", "slowed_text", "lasts_until_cured", "condition_row", "Slowed"]
