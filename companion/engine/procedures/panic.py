"""Panic (Tabelas J and K) and the daily harm of exhaustion (Tabela I).

`panico Nome` queues a panic test on that character's phone (`request_panic`, also used by the
rest mishaps and the dungeon). The test is a house default in tables/panico.yaml: 1d20, passes on
a result ≤ the character's current Sanity. On a failure Tabela J is read at the CURRENT Sanity
(0 or below → row 1) and its effect applied:

- Insanidade: the condition named in data ("Insanidade") is added to the character.
- Afetado: 1d8 on Tabela K (the full text goes only to that player; the name is added to the
  character's afflictions), then a random panic effect: house default 1d4 over Tabela J's brief
  rows 5-7, 8-10, 11-13 and 14+ (`efeito_aleatorio` in data), applied like a rolled row.
- Fúria / Catatonia / Terror: 1d4 rounds are rolled and announced.
- Impactado: 2 damage to Sabedoria, kept in `attribute_damage["sab"]`.

`exhaustion_day(state, scratch)` applies Tabela I's daily harm (the rows with `efeito:
dano_diario`, level 3+ in tables/panico.yaml: 1d4 CON damage, kept in `attribute_damage`);
travel.end_of_day calls it. The `desvantagem` and `sem_modificadores` rows act through
toolkit.edge_for / toolkit.modifier.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from companion.engine.model import PUBLIC, Character, Prompt, State, player_visibility
from companion.engine.toolkit import (
    ATTRIBUTES,
    DICE_TEXT,
    EXHAUSTION_DAILY_HARM,
    PromptAnswer,
    Scratch,
    add_prompt,
    arg,
    command,
    find_character,
    one_of,
    pick_row,
    plural,
    prompt_handler,
    update_character,
    variant,
)
from companion.errors import CommandRejected
from companion.tables import register_schema

FILE = "panico"

# Tabela J rows: the keys each effect reads (the effects are EFFECTS, below).
_J_ROW = {"texto": str, "efeito": str}
_J_ROWS = {
    "insanidade": {**_J_ROW, "condicao": str},
    "afetado": _J_ROW,
    "breve": {**_J_ROW, "nome": str, "duracao": DICE_TEXT},
    "dano_atributo": {**_J_ROW, "nome": str, "atributo": one_of(*ATTRIBUTES), "dano": int},
}
register_schema(FILE, {  # tabela_i is declared by core, which reads its levels
    "teste_panico": {"nome": str, "dados": DICE_TEXT},
    "tabela_j": {"nome": str, "nome_duracao": str, "linhas": {"*": variant("efeito", _J_ROWS)}},
    "efeito_aleatorio": {"nome": str, "dados": DICE_TEXT, "linhas": {"*": str}},
    "tabela_k": {"nome": str, "dados": DICE_TEXT,
                 "linhas": {"*": {"nome": str, "texto": str}}},
    "personagem_padrao": {"nivel": int, "pv": int, "sanidade": int, "exaustao": int,
                          "comida": int, "agua": int, "municao": int},
    "limites_personagem": {"nivel": [int], "pv": [int], "pv_max": [int], "atributo": [int],
                           "sanidade": [int], "exaustao": [int], "comida": [int],
                           "agua": [int], "municao": [int], "dado_de_vida": [int],
                           "dano_atributo": [int], "nome_maximo": int},
    "registro": {"regiao_masmorra": str, "quantidade_maxima": int, "nome_maximo": int},
    "nomes_pedidos": {"*": str},
})

Row = Mapping[str, Any]
Effect = Callable[[State, Character, Row, Scratch], State]


# ---------------------------------------------------------------- asking for the test

def request_panic(state: State, scratch: Scratch, character_id: str) -> State:
    """Queue a panic test (prompt kind "panico") on the character's player's phone."""
    character = find_character(state, character_id)
    test = scratch.table(FILE, "teste_panico")
    text = (f"{character.name}: {test['nome'].lower()}! Role {test['dados']}: passa com "
            f"{character.sanity} ou menos (sua Sanidade atual).")
    scratch.say(f"{test['nome']} para {character.name}.", PUBLIC, personagem=character.id)
    return add_prompt(state, scratch, "panico", character.id, text, dice_expression=test["dados"],
                      rolar_abaixo=True)


@command("panico")
def panic_command(state: State, scratch: Scratch) -> State:
    """`panico personagem`: ask that character's player for a panic test."""
    name = arg(scratch, "personagem")
    if not name:
        raise CommandRejected("diga de quem é o teste de pânico: 'pânico Ana'")
    return request_panic(state, scratch, name)


# ---------------------------------------------------------------- resolving it

@prompt_handler("panico")
def resolve_panic(state: State, prompt: Prompt, answer: PromptAnswer, scratch: Scratch) -> State:
    """Pass on total ≤ current Sanity; otherwise Tabela J at the current Sanity."""
    character = find_character(state, prompt.character or "")
    name = scratch.table(FILE, "teste_panico", "nome").lower()
    total = answer.total if answer.total is not None else 0
    if total <= character.sanity:
        scratch.say(f"{character.name} passou no {name} ({total} ≤ Sanidade {character.sanity}).",
                    PUBLIC, personagem=character.id, sucesso=True)
        return state
    scratch.say(f"{character.name} falhou no {name} ({total} > Sanidade {character.sanity}).",
                PUBLIC, personagem=character.id, sucesso=False)
    return apply_panic_row(state, character, scratch)


def panic_row(tables_rows: Mapping[str, Row], sanity: int) -> Row:
    """The Tabela J row for a Sanity (0 or below reads as row 1)."""
    return pick_row(tables_rows, max(1, sanity))


def apply_panic_row(state: State, character: Character, scratch: Scratch) -> State:
    """Announce and apply Tabela J at the character's current Sanity."""
    table = scratch.table(FILE, "tabela_j")
    row = panic_row(table["linhas"], character.sanity)
    scratch.say(f"{table['nome']} (Sanidade {character.sanity}): {row['texto']}", PUBLIC,
                tabela=table["nome"], sanidade=character.sanity, resultado=row["texto"],
                personagem=character.id)
    return EFFECTS[row["efeito"]](state, character, row, scratch)


def _insanity(state: State, character: Character, row: Row, scratch: Scratch) -> State:
    condition = str(row["condicao"])
    if condition in character.conditions:
        return state
    scratch.say(f"{character.name} agora sofre de {condition.lower()}.", PUBLIC,
                personagem=character.id, condicao=condition)
    return update_character(state, replace(character,
                                           conditions=character.conditions + (condition,)))


def _afflicted(state: State, character: Character, row: Row, scratch: Scratch) -> State:
    """Tabela K to the player, then a random brief panic effect."""
    table = scratch.table(FILE, "tabela_k")
    rows = table["linhas"]
    rolled = scratch.roll(table["dados"], table["nome"], visibility=player_visibility(character.id),
                          describe=lambda total: pick_row(rows, total)["texto"],
                          personagem=character.id)
    affliction = pick_row(rows, rolled.total)
    scratch.say(f"{character.name} recebeu uma aflição: {affliction['nome']}.", PUBLIC,
                personagem=character.id, aflicao=affliction["nome"])
    character = replace(character, afflictions=character.afflictions + (affliction["nome"],))
    state = update_character(state, character)
    return _random_effect(state, character, scratch)


def _random_effect(state: State, character: Character, scratch: Scratch) -> State:
    """House default: 1d4 over Tabela J's brief rows, applied like the rolled row."""
    spec = scratch.table(FILE, "efeito_aleatorio")
    rows = scratch.table(FILE, "tabela_j", "linhas")
    rolled = scratch.roll(spec["dados"], spec["nome"], personagem=character.id,
                          describe=lambda total: rows[pick_row(spec["linhas"], total)]["texto"])
    row = rows[pick_row(spec["linhas"], rolled.total)]
    return EFFECTS[row["efeito"]](state, character, row, scratch)


def _brief(state: State, character: Character, row: Row, scratch: Scratch) -> State:
    """Fúria, Catatonia, Terror: roll how many rounds it lasts."""
    rolled = scratch.roll(row["duracao"], scratch.table(FILE, "tabela_j", "nome_duracao"),
                          describe=lambda total: f"{row['nome']}: {plural(total, 'rodada')}",
                          personagem=character.id)
    scratch.say(f"{character.name}: {row['nome']} por {plural(rolled.total, 'rodada')}.", PUBLIC,
                personagem=character.id, efeito=row["nome"], rodadas=rolled.total)
    return state


def _attribute_damage(state: State, character: Character, row: Row, scratch: Scratch) -> State:
    """Impactado: damage to an attribute (Sabedoria)."""
    attribute, amount = str(row["atributo"]), int(row["dano"])
    damage = dict(character.attribute_damage)
    damage[attribute] = damage.get(attribute, 0) + amount
    scratch.say(f"{character.name} sofre {amount} de dano em {attribute.upper()} "
                f"(total {damage[attribute]}).", PUBLIC, personagem=character.id,
                atributo=attribute, dano=amount)
    return update_character(state, replace(character, attribute_damage=damage))


EFFECTS: dict[str, Effect] = {
    "insanidade": _insanity,
    "afetado": _afflicted,
    "breve": _brief,
    "dano_atributo": _attribute_damage,
}


# ---------------------------------------------------------------- exhaustion (Tabela I)

def exhaustion_effects(character: Character, tables_rows: Mapping[str, Row]) -> list[str]:
    """Tabela I texts that apply to the character (levels are cumulative)."""
    return [row["texto"] for key, row in sorted(tables_rows.items(), key=lambda kv: int(kv[0]))
            if character.exhaustion >= int(key)]


def exhaustion_day(state: State, scratch: Scratch) -> State:
    """At a day's end: every Tabela I `dano_diario` row the character's level has reached."""
    table = scratch.table(FILE, "tabela_i")
    harmful = [(int(key), row) for key, row in table["linhas"].items()
               if row["efeito"] == EXHAUSTION_DAILY_HARM]
    for character in state.party:
        for level, row in harmful:
            if character.exhaustion >= level:
                character = _daily_harm(character, row, table["nome"], scratch)
        state = update_character(state, character)
    return state


def _daily_harm(character: Character, row: Row, name: str, scratch: Scratch) -> Character:
    harm = row["dano_diario"]
    attribute = str(harm["atributo"])
    rolled = scratch.roll(str(harm["dados"]), name, resultado=row["texto"], personagem=character.id)
    damage = dict(character.attribute_damage)
    damage[attribute] = damage.get(attribute, 0) + rolled.total
    scratch.say(f"{character.name} sofre {rolled.total} de dano de {attribute.upper()} pela "
                f"exaustão (nível {character.exhaustion}).", PUBLIC, personagem=character.id,
                atributo=attribute, dano=rolled.total)
    return replace(character, attribute_damage=damage)
