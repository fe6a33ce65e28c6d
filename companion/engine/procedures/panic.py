"""Panic (Tabelas J and K) and the daily harm of exhaustion (Tabela I).

`panico Nome` queues a panic test on that character's phone (`request_panic`, also used by the
rest mishaps and the dungeon). The test is a house default in tables/panico.yaml: 1d20, passes on
a result ≤ the character's current Sanity. On a failure Tabela J is read at the CURRENT Sanity
(0 or below → row 1) and its effect applied:

- Insanidade: the condition named in data ("Insanidade") is added to the character.
- Afetado: 1d8 on Tabela K (the full text goes only to that player; the name is added to the
  character's afflictions, with who sees it), then a random panic effect: house default 1d4 over
  Tabela J's brief rows 5-7, 8-10, 11-13 and 14+ (`efeito_aleatorio` in data), applied like a
  rolled row.
- Fúria / Catatonia / Terror: 1d4 rounds are rolled and announced.
- Impactado: 2 damage to Sabedoria, kept in `attribute_damage["sab"]`.

Who sees what (docs/regras.md "Pânico"; tables/panico.yaml `visibilidade`, a house setting): the
prompt, the answer and Tabela K's full text go to that player and the GM; everyone sees the test
asked and whether the character passed or panicked. The effect's name (Tabela J's row, the random
effect, a brief effect and its duration) and the affliction's name go to everyone only when the
setting says `publico` (default `jogador`: the player and the GM). The affliction keeps its
visibility (model.Affliction): the view, the report and `estado` show it by that, never by today's
setting. What an effect leaves on the sheet (Insanidade as a condition, Impactado's attribute
damage) is seen by whom the effect is seen, on the sheet too (`Character.condition_visibility`,
`Character.private_damage`): one visibility for the same fact everywhere.

`exhaustion_day(state, scratch)` applies Tabela I's daily harm (the rows with `efeito:
dano_diario`, level 3+ in tables/exaustao.yaml: 1d4 CON damage, kept in `attribute_damage`);
travel.end_of_day calls it. The `desvantagem` and `sem_modificadores` rows act through
characters.edge_for / characters.modifier.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Literal, Mapping

from companion.tables import protocol
from companion.engine.model import Affliction, Attribute, Character, Lasting, Prompt, State
from companion.engine.characters import find_character, update_character
from companion.engine.exhaustion import ExhaustionRow, ExhaustionTable
from companion.engine.handlers import PromptAnswer, command, prompt_handler
from companion.engine.prompting import add_prompt
from companion.engine.rows import pick_row
from companion.engine.scratch import Scratch, arg
from companion.engine.validators import require_dice
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import InvalidValue, piece
from companion.tables.files import Tables
from companion.tables.weights import Weight

FILE = "panico"

PanicEffect = Literal["insanidade", "afetado", "breve", "dano_atributo"]
# The keys each Tabela J effect reads, besides texto and efeito.
_J_KEYS: dict[str, tuple[str, ...]] = {
    "insanidade": ("condicao",), "afetado": (),
    "breve": ("nome", "duracao"), "dano_atributo": ("nome", "atributo", "dano"),
}


@piece(FILE, "teste_panico")
@dataclass(frozen=True)
class PanicTest:
    """The panic test (house default): roll `dados`, pass on a result <= current Sanity."""

    nome: str
    dados: str
    padrao_da_casa: bool = False

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class PanicRow:
    """A Tabela J row; which optional keys it needs depends on its `efeito`."""

    texto: str
    efeito: PanicEffect
    # what a player's card shows: the row without what the companion already did for them
    # ("Role 1d8 na Tabela K"), "{rodadas}" being the rounds it rolled (None: the row's text)
    cartao: str | None = None
    condicao: str | None = None
    nome: str | None = None
    duracao: str | None = None
    atributo: Attribute | None = None
    dano: int | None = None

    def validate(self) -> None:
        for key in _J_KEYS[self.efeito]:
            if getattr(self, key) is None:
                raise InvalidValue(key, "validacao.efeito_precisa",
                                   {"efeito": self.efeito, "chaves": _J_KEYS[self.efeito]})
        if self.duracao is not None:
            require_dice("duracao", self.duracao)


@piece(FILE, "tabela_j")
@dataclass(frozen=True)
class PanicTable:
    """Tabela J: Pânico, read at the current Sanity."""

    nome: str
    nome_duracao: str
    linhas: Mapping[str, PanicRow]


@piece(FILE, "efeito_aleatorio")
@dataclass(frozen=True)
class RandomPanicEffect:
    """House default: a die over some of Tabela J's rows (value: the row's key)."""

    nome: str
    dados: str
    linhas: Mapping[str, str]
    padrao_da_casa: bool = False

    def validate(self) -> None:
        require_dice("dados", self.dados)


@dataclass(frozen=True)
class AfflictionRow:
    nome: str
    texto: str


@piece(FILE, "tabela_k")
@dataclass(frozen=True)
class AfflictionTable:
    """Tabela K: Aflição."""

    nome: str
    dados: str
    linhas: Mapping[str, AfflictionRow]

    def validate(self) -> None:
        require_dice("dados", self.dados)


Shown = Literal["jogador", "publico"]  # the character's player and the GM, or everyone


@piece(FILE, "visibilidade")
@dataclass(frozen=True)
class PanicVisibility:
    """Who sees the effect's name and the affliction (house setting, docs/regras.md "Pânico"): the
    character's player and the GM (`jogador`) or everyone (`publico`)."""

    efeito: Shown
    aflicao: Shown
    padrao_da_casa: bool = False

    def effect_for(self, character: Character) -> str:
        """The visibility of the effect's name: Tabela J's row, the random effect, a brief
        effect and its duration."""
        return _seen(self.efeito, character)

    def affliction_for(self, character: Character) -> str:
        """The visibility an affliction gained now keeps (model.Affliction)."""
        return _seen(self.aflicao, character)


def _seen(word: str, character: Character) -> str:
    return protocol.PUBLIC if word == "publico" else protocol.player_key(character.id)


Effect = Callable[[State, Character, PanicRow, Scratch], State]


# ---------------------------------------------------------------- asking for the test

def request_panic(state: State, scratch: Scratch, character_id: str) -> State:
    """Queue a panic test (prompt kind "panico") on the character's player's phone."""
    character = find_character(state, character_id)
    test = scratch.piece(PanicTest)
    text = scratch.tables.narration.render("panico.pedido", {
        "personagem": character.name, "teste": test.nome, "dados": test.dados,
        "sanidade": character.sanity})
    scratch.tell("panico.teste_para", personagem=character.id,
                 words={"teste": test.nome, "nome": character.name})
    return add_prompt(state, scratch, "panico", character.id, text, dice_expression=test.dados,
                      rolar_abaixo=True)


@command("panico")
def panic_command(state: State, scratch: Scratch) -> State:
    """`panico personagem`: ask that character's player for a panic test."""
    name = arg(scratch, "personagem")
    if not name:
        raise CommandRejected.because("panico.sem_personagem",
                                      nomes=[c.name for c in state.party])
    return request_panic(state, scratch, name)


# ---------------------------------------------------------------- resolving it

@prompt_handler("panico")
def resolve_panic(state: State, prompt: Prompt, answer: PromptAnswer, scratch: Scratch) -> State:
    """Pass on total <= current Sanity; otherwise Tabela J at the current Sanity."""
    character = find_character(state, prompt.character or "")
    words = {"nome": character.name, "teste": scratch.piece(PanicTest).nome,
             "total": answer.total if answer.total is not None else 0,
             "sanidade": character.sanity}
    if words["total"] <= character.sanity:
        scratch.tell("panico.passou", personagem=character.id, sucesso=True, words=words)
        return state
    scratch.tell("panico.falhou", personagem=character.id, sucesso=False, words=words)
    return apply_panic_row(state, character, scratch)


def panic_row(rows: Mapping[str, PanicRow], sanity: int) -> PanicRow:
    """The Tabela J row for a Sanity (0 or below reads as row 1)."""
    row: PanicRow = pick_row(rows, max(1, sanity))
    return row


def apply_panic_row(state: State, character: Character, scratch: Scratch) -> State:
    """Announce and apply Tabela J at the character's current Sanity."""
    table = scratch.piece(PanicTable)
    row = panic_row(table.linhas, character.sanity)
    affliction = scratch.piece(AfflictionTable)
    card = {"cartao": row.cartao} if row.cartao and "{rodadas}" not in row.cartao else {}
    scratch.tell("panico.tabela_j", _effect_seen(scratch, character), weight=Weight.ROW,
                 tabela=table.nome,
                 sanidade=character.sanity, resultado=row.texto, personagem=character.id, **card,
                 words={"efeito": row.efeito, "tabela_k": affliction.nome,
                        "dados_k": affliction.dados})
    return EFFECTS[row.efeito](state, character, row, scratch)


def _insanity(state: State, character: Character, row: PanicRow, scratch: Scratch) -> State:
    """The condition named in data, seen by whom the effect is seen (on the sheet too)."""
    condition = str(row.condicao)
    if condition in character.conditions:
        return state
    seen = _effect_seen(scratch, character)
    scratch.tell("panico.insanidade", seen, weight=Weight.HARM,
                 personagem=character.id, condicao=condition,
                 words={"nome": character.name})
    kept = {k: v for k, v in character.condition_visibility.items() if k != condition}
    if seen != protocol.PUBLIC:
        kept[condition] = seen
    return update_character(state, replace(character,
                                           conditions=character.conditions + (condition,),
                                           condition_visibility=kept))


def _afflicted(state: State, character: Character, row: PanicRow, scratch: Scratch) -> State:
    """Tabela K to the player, then a random brief panic effect."""
    table = scratch.piece(AfflictionTable)
    rows = table.linhas
    rolled = scratch.roll(table.dados, table.nome, visibility=protocol.player_key(character.id),
                          describe=lambda total: pick_row(rows, total).texto,
                          personagem=character.id)
    gained = Affliction(pick_row(rows, rolled.total).nome,
                        scratch.piece(PanicVisibility).affliction_for(character))
    scratch.tell("panico.aflicao", gained.visibility, weight=Weight.HARM, personagem=character.id,
                 aflicao=gained.name, words={"nome": character.name})
    character = replace(character, afflictions=character.afflictions + (gained,))
    state = update_character(state, character)
    return _random_effect(state, character, scratch)


def _random_effect(state: State, character: Character, scratch: Scratch) -> State:
    """House default: 1d4 over Tabela J's brief rows, applied like the rolled row."""
    spec = scratch.piece(RandomPanicEffect)
    rows = scratch.piece(PanicTable).linhas
    rolled = scratch.roll(spec.dados, spec.nome, visibility=_effect_seen(scratch, character),
                          personagem=character.id,
                          describe=lambda total: rows[pick_row(spec.linhas, total)].texto)
    row = rows[pick_row(spec.linhas, rolled.total)]
    return EFFECTS[row.efeito](state, character, row, scratch)


def _brief(state: State, character: Character, row: PanicRow, scratch: Scratch) -> State:
    """Fúria, Catatonia, Terror: roll how many rounds it lasts; the effect stays on the sheet
    (seen by whom the effect is seen) with its rounds until time next passes."""
    narration = scratch.tables.narration
    seen = _effect_seen(scratch, character)
    rolled = scratch.roll(str(row.duracao), scratch.piece(PanicTable).nome_duracao,
                          weight=Weight.ROUTINE,
                          visibility=seen, describe=lambda total: narration.render(
                              "panico.duracao", {"efeito": row.nome, "rodadas": total}),
                          personagem=character.id)
    card = {}
    if row.cartao:
        rounds = narration.render("panico.rodadas", {"rodadas": rolled.total})
        card = {"cartao": row.cartao.replace("{rodadas}", rounds)}
    scratch.tell("panico.breve", seen, weight=Weight.HARM, personagem=character.id, efeito=row.nome,
                 rodadas=rolled.total, words={"nome": character.name}, **card)
    lasting = Lasting(text=str(row.nome), until=state.minutes + 1, since=state.minutes,
                      rounds=rolled.total, visibility=seen)
    kept = tuple(x for x in character.lasting if x.text != lasting.text)  # one of a name
    return update_character(state, replace(character, lasting=kept + (lasting,)))


def _effect_seen(scratch: Scratch, character: Character) -> str:
    return scratch.piece(PanicVisibility).effect_for(character)


def _attribute_damage(state: State, character: Character, row: PanicRow,
                      scratch: Scratch) -> State:
    """Impactado: damage to an attribute (Sabedoria), seen by whom the effect is seen (the
    sheet shows the others only the damage they saw)."""
    attribute, amount = str(row.atributo), int(row.dano or 0)
    seen = _effect_seen(scratch, character)
    damage = dict(character.attribute_damage)
    damage[attribute] = damage.get(attribute, 0) + amount
    private = dict(character.private_damage)
    if seen != protocol.PUBLIC:
        private[attribute] = private.get(attribute, 0) + amount
    total = damage[attribute] if seen != protocol.PUBLIC \
        else damage[attribute] - private.get(attribute, 0)
    scratch.tell("panico.dano_atributo", seen, weight=Weight.HARM,
                 personagem=character.id, atributo=attribute,
                 dano=amount, words={"nome": character.name, "total": total})
    return update_character(state, replace(character, attribute_damage=damage,
                                           private_damage=private))


EFFECTS: dict[str, Effect] = {
    "insanidade": _insanity,
    "afetado": _afflicted,
    "breve": _brief,
    "dano_atributo": _attribute_damage,
}


# ---------------------------------------------------------------- exhaustion (Tabela I)

def exhaustion_effects(character: Character, tables: Tables) -> list[str]:
    """Tabela I texts that apply to the character (levels are cumulative; engine/view.py)."""
    return [row.texto for level, row in tables.piece(ExhaustionTable).by_level
            if character.exhaustion >= level]


def exhaustion_day(state: State, scratch: Scratch) -> State:
    """At a day's end: every Tabela I `dano_diario` row the character's level has reached."""
    table = scratch.piece(ExhaustionTable)
    harmful = [(int(key), row) for key, row in table.linhas.items()
               if row.efeito == "dano_diario"]
    for character in state.party:
        for level, row in harmful:
            if character.exhaustion >= level:
                character = _daily_harm(character, row, table.nome, scratch)
        state = update_character(state, character)
    return state


def _daily_harm(character: Character, row: ExhaustionRow, name: str,
                scratch: Scratch) -> Character:
    harm = row.dano_diario
    assert harm is not None
    attribute = harm.atributo
    rolled = scratch.roll(harm.dados, name, weight=Weight.ROUTINE,
                          resultado=row.texto, personagem=character.id,
                          quem=character.name)
    damage = dict(character.attribute_damage)
    damage[attribute] = damage.get(attribute, 0) + rolled.total
    scratch.tell("panico.dano_exaustao", weight=Weight.HARM,
                 personagem=character.id, atributo=attribute,
                 dano=rolled.total, words={"nome": character.name,
                                           "exaustao": character.exhaustion})
    return replace(character, attribute_damage=damage)
