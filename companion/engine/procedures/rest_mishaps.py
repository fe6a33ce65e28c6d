"""The rest's mishaps: the tables rolled when the party rests unsafe (the travel rest's Tabela H,
the dungeon's Tabela B), their effects, and the rest's rules pieces they read; rest.py runs the rest.

A mishap row (viagem.yaml tabela_h, masmorra.yaml …) is either a text, or a mapping with `texto`
and any of these effects (a `MishapRow`, built and checked at load: an unknown key or a value
of the wrong type is a TableError naming the file and key):
  perde_racoes: "1d4"        rations lost from the party (from whoever carries most)
  panico: vigia | todos      panic test for the watcher or everyone (the watcher: the one
                             chosen with `vigia Nome`, else casa.yaml descanso.vigia)
  encontro: true             a random encounter happens (interrupts the rest)
  encontro_chance: 3         1d6, X:6 → a random encounter (interrupts the rest)
  dano: 2                    damage to every character
  condicao: "texto"          a lasting condition noted on every character
  teste_con: 12              every character tests CON at this DC to get the benefits
  condicao_temporaria: {texto: "…", rodadas: 2, desvantagem: true}
                             a condition on every character for the next N travel rounds
                             (after the one in progress); with desvantagem, DESV on every roll
                             while it lasts (characters.edge_for); clock.pass_time ends it
  perde_item: "nome da rolagem"
                             one character loses 1 random item: with more than one, 1dN over
                             the party (its own rolagem, named by the value) says who
  teste_atributo: {atributo: des, dc: 12, motivo: "…", falha: "…"}
                             every character tests the attribute (a prompt, kind
                             "teste_percalco"); a failure says `falha` for that character
A row may say what the table reads of it (`relato`) when the seed writes it for the GM ("Role
1d6. 3:6 | Encontro Aleatório."): the roll's text shows it, its data keep the seed's row.
A row that notes a `condicao` may also say what the condition does (`ate_ser_curado`,
`como_fica`, `efeito`, `dano_por_rodada`: conditions.NotesCondition, read by conditions.py).

The CON test prompts say why they are asked: "o descanso foi interrompido" for an encounter, or
the mishap row's first sentence ("O ambiente da Dungeon é muito opressor.").
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Literal, Mapping, Protocol, Union

from companion.engine.procedures import conditions, encounters, panic
from companion.tables import protocol
from companion.engine.model import GM, PUBLIC, Attribute, Character, State
from companion.engine.characters import (
    clamp_supplies,
    find_character,
    modifier,
    update_character,
)
from companion.engine.prompting import add_prompt
from companion.engine.rows import pick_row, row_text
from companion.engine.scratch import Scratch
from companion.engine.validators import require_chance, require_dice
from companion.tables.errors import CommandRejected
from companion.tables.rulebook import piece
from companion.tables.weights import Weight


@dataclass(frozen=True)
class Ration:
    comida: int
    agua: int


@dataclass(frozen=True)
class Recovery:
    """What one rest gives back: attribute damage, Sanity and exhaustion points."""

    atributo: int
    sanidade: int
    exaustao: int


@piece("viagem", "descanso")
@dataclass(frozen=True)
class RestRules:
    """Descansar (viagem.yaml `descanso`)."""

    consumo: Ration
    interrupcao_dc: int
    atributo: Attribute  # the attribute an interruption tests
    dados_teste: str
    recupera: Recovery
    dados_de_vida: str  # the name of the HP roll
    dia_sem_descanso: int  # read by travel (a day without rest)
    sem_comida_sem_beneficios: bool

    def validate(self) -> None:
        require_dice("dados_teste", self.dados_teste)


def _hit_die_text(die: str) -> str:
    return die if die.startswith("d") else f"d{die}"


@piece("casa", "descanso")
@dataclass(frozen=True)
class HouseRest:
    """House defaults of the rest (casa.yaml `descanso`)."""

    dado_de_vida: str  # the hit die of whoever has none on the sheet
    dados_de_vida: Mapping[str, str]  # by character id
    vigia: str  # "primeiro" or a character's name
    racoes_perdidas: str  # the name of the roll of rations lost to a mishap

    def validate(self) -> None:
        for where, die in [("dado_de_vida", self.dado_de_vida),
                           *((f"dados_de_vida.{k}", v) for k, v in self.dados_de_vida.items())]:
            require_dice(where, "1" + _hit_die_text(str(die)))


@dataclass(frozen=True)
class AttributeTest:
    """A mishap row's `teste_atributo`: every character tests `atributo` at `dc`; a failure
    says `falha`; `motivo` is why it is asked (else the row's first sentence)."""

    atributo: Attribute
    dc: int
    falha: str
    motivo: str | None = None


@dataclass(frozen=True)
class MishapRow(conditions.NotesCondition):
    """A mishap row with effects (the module's docstring says what each one does); an effect
    left out is None. `condicao` and what it does (`ate_ser_curado`, `como_fica`, `efeito`,
    `dano_por_rodada`) are conditions.NotesCondition's keys."""

    texto: str
    relato: str | None = None  # what the table reads of a row written for the GM
    perde_racoes: str | None = None
    perde_item: str | None = None
    dano: int | None = None
    panico: Literal["vigia", "todos"] | None = None
    encontro: bool | None = None
    encontro_chance: int | None = None
    teste_con: int | None = None
    condicao_temporaria: conditions.TimedCondition | None = None
    teste_atributo: AttributeTest | None = None

    def validate(self) -> None:
        super().validate()
        if self.perde_racoes is not None:
            require_dice("perde_racoes", self.perde_racoes)
        if self.encontro_chance is not None:
            require_chance("encontro_chance", self.encontro_chance)


MishapRows = Mapping[Union[int, str], Union[str, MishapRow]]
# a CON test for the rest's benefits: (DC, why it is asked, whether its cause is the GM's secret)
Test = tuple[int, str, bool]
Effect = Callable[[State, Scratch, Any, MishapRow], tuple[State, tuple[Test, ...]]]



class MishapTable(Protocol):
    """A mishap table as `mishap` rolls it: the travel rest's Tabela H (TravelMishaps) or the
    dungeon's Tabela B (dungeon.SleepMishap), each the typed piece of whoever owns it."""

    @property
    def nome(self) -> str: ...

    @property
    def dados(self) -> str: ...

    @property
    def visibilidade(self) -> str: ...  # the data's words: mestre or publico

    @property
    def linhas(self) -> MishapRows: ...


@piece("viagem", "tabela_h")
@dataclass(frozen=True)
class TravelMishaps:
    """tables/viagem.yaml `tabela_h` (Tabela H: Percalços): the travel rest's mishaps, rows in
    this module's vocabulary (EFFECTS). Who sees the roll: `visibilidade`, public unless said."""

    nome: str
    dados: str
    linhas: MishapRows
    visibilidade: protocol.Seen = "publico"

    def validate(self) -> None:
        require_dice("dados", self.dados)


def interruption(scratch: Scratch, secret: bool = False) -> Test:
    """The CON test an interruption of the rest asks for (`secret`: its cause is the GM's)."""
    return (scratch.piece(RestRules).interrupcao_dc,
            scratch.tables.narration.render("descanso.interrompido", {}), secret)



def mishap(state: State, scratch: Scratch, table: MishapTable) -> tuple[State, tuple[Test, ...]]:
    """Roll on the mishap table and apply the row's mechanical parts. The table says who
    sees the roll (`visibilidade`: publico or mestre; the dungeon's Tabela B is the GM's, so a
    row that only the GM may know, like its row 10, leaves no trace for the players)."""
    rows = table.linhas
    visibility = protocol.seen_by(table.visibilidade)
    rolled = scratch.roll(table.dados, table.nome, visibility=visibility,
                          describe=lambda total: row_text(pick_row(rows, total)),
                          shown=lambda total: getattr(pick_row(rows, total), "relato", None))
    row = pick_row(rows, rolled.total)
    tests: tuple[Test, ...] = ()
    if isinstance(row, str):
        return state, tests
    for effect_key, effect in EFFECTS.items():
        value = getattr(row, effect_key)
        if value is not None:
            state, found = effect(state, scratch, value, row)
            tests += found
    return state, tests


def first_sentence(text: str) -> str:
    """'O fogo espalhou. Teste de…' → 'O fogo espalhou.'"""
    head = text.split(". ", 1)[0].strip()
    return head if head.endswith(".") else head + "."


# ---------------------------------------------------------------- mishap effects

def _lose_rations(state: State, scratch: Scratch, expression: str,
                  row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    narration = scratch.tables.narration
    rolled = scratch.roll(expression, scratch.piece(HouseRest).racoes_perdidas,
                          weight=Weight.ROUTINE,
                          describe=lambda total: narration.render(
                              "descanso.racoes_devoradas", {"racoes": total}))
    party = list(state.party)
    lost = 0
    for _ in range(rolled.total):
        richest = max(range(len(party)), key=lambda i: party[i].food, default=None)
        if richest is None or party[richest].food <= 0:
            break
        party[richest] = replace(party[richest], food=party[richest].food - 1)
        lost += 1
    if lost < rolled.total:
        scratch.tell("descanso.racoes_faltaram", weight=Weight.HARM, kind="aviso", perdidas=lost)
    else:
        scratch.tell("descanso.racoes_perdidas", weight=Weight.HARM, perdidas=lost)
    return replace(state, party=tuple(party)), ()


def watcher(state: State, scratch: Scratch) -> Character | None:
    """Who keeps watch: the character chosen with `vigia`, else the house default."""
    found = _watcher(state, scratch)
    return found[0] if found else None


def _watcher(state: State, scratch: Scratch) -> tuple[Character, ...]:
    if not state.party:
        return ()
    named = next((c for c in state.party if c.id == state.travel.watcher), None)
    if named is not None:
        return (named,)
    chosen = scratch.piece(HouseRest).vigia
    if chosen == "primeiro":
        return (state.party[0],)
    try:
        return (find_character(state, chosen),)
    except CommandRejected:
        return (state.party[0],)


def _panic(state: State, scratch: Scratch, who: str, row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    targets = state.party if who == "todos" else _watcher(state, scratch)
    for character in targets:
        state = panic.request_panic(state, scratch, character.id)
    return state, ()


def _encounter(state: State, scratch: Scratch, happens: bool,
               row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    if not happens:
        return state, ()
    return _encounter_now(state, scratch)


def _encounter_chance(state: State, scratch: Scratch, chance: int,
                      row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    spec = scratch.piece(encounters.EncounterCheck)
    if scratch.chance(chance, spec.nome, spec.sim, spec.nao,
                      visibility=encounters.encounter_visibility(scratch)):
        return _encounter_now(state, scratch)
    return state, ()


def _encounter_now(state: State, scratch: Scratch) -> tuple[State, tuple[Test, ...]]:
    """An encounter interrupts the rest. Travel: roll the region's table. Dungeon: flag it;
    the sleep rolls where it arrives, and only an arrival in the party's room interrupts."""
    if state.dungeon.active:
        scratch.tell("descanso.encontro_masmorra", GM, weight=Weight.ARRIVAL, kind="aviso")
        return replace(state, dungeon=replace(state.dungeon, pending_encounter=True)), ()
    encounters.roll_encounter(state, scratch)
    secret = encounters.encounter_visibility(scratch) != PUBLIC
    return state, (interruption(scratch, secret),)


def _damage_all(state: State, scratch: Scratch, amount: int,
                row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    for character in state.party:
        state = update_character(state, clamp_supplies(
            replace(character, hp=character.hp - amount)))
    if state.party:
        scratch.tell("descanso.dano_todos", weight=Weight.HARM, words={"dano": amount})
    return state, ()


def _condition_all(state: State, scratch: Scratch, text: str,
                   row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    new = any(text not in character.conditions for character in state.party)
    for character in state.party:
        state = update_character(state, add_condition(character, text))
    if state.party:
        cured = conditions.lasts_until_cured(scratch.tables, text)
        # harm when someone gains it; a condition they all had already: routine (the row says it)
        scratch.tell("descanso.condicao_todos", weight=Weight.HARM if new else Weight.ROUTINE,
                     kind="aviso", condicao=text,
                     words={"ate_a_cura": cured})
        if cured:
            scratch.tell("descanso.condicao_todos_dica", GM, weight=Weight.FRAMING, condicao=text)
    return state, ()


def _con_test(state: State, scratch: Scratch, dc: int,
              row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    return state, ((dc, first_sentence(row.texto), False),)


def _timed_condition(state: State, scratch: Scratch, value: conditions.TimedCondition,
                     row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    """A condition on everyone for the next N travel rounds (after the one in progress)."""
    lasting = conditions.timed(state, scratch, value)
    new = any(lasting.text not in {x.text for x in c.lasting} for c in state.party)
    party = tuple(conditions.add_lasting(c, lasting) for c in state.party)
    if party:
        # harm when someone gains it; one they all had already is only renewed: routine
        scratch.tell("descanso.condicao_temporaria",
                     weight=Weight.HARM if new else Weight.ROUTINE,
                     kind="aviso", condicao=lasting.text,
                     rodadas=value.rodadas, dias=value.dias,
                     words={"texto": conditions.timed_text(scratch.tables.narration, lasting, value)})
    return replace(state, party=party), ()


def _attribute_test(state: State, scratch: Scratch, spec: AttributeTest,
                    row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    """Every character tests an attribute (a prompt); a failure costs what the row says."""
    attribute, dc = spec.atributo, spec.dc
    why = first_sentence(spec.motivo or row.texto)
    dice = scratch.piece(RestRules).dados_teste
    narration = scratch.tables.narration
    words = {"motivo": why, "atributo": attribute, "dc": dc, "falha": spec.falha}
    for character in state.party:
        state = add_prompt(
            state, scratch, "teste_percalco", character.id,
            narration.render("descanso.pedido_percalco", {**words, "nome": character.name}),
            dice, modifier(character, attribute, scratch.tables), dc,
            falha=spec.falha, rotulo=narration.render("descanso.rotulo_percalco", words))
    return state, ()


def _lose_item(state: State, scratch: Scratch, name: str,
               row: MishapRow) -> tuple[State, tuple[Test, ...]]:
    """"Um personagem perde 1 item aleatório.": 1dN over the party says who (the GM picks the
    item)."""
    people = list(state.party)
    if not people:
        return state, ()
    loser = people[0]
    if len(people) > 1:
        rolled = scratch.roll(f"1d{len(people)}", name, weight=Weight.ROUTINE,
                              describe=lambda total: people[total - 1].name)
        loser = people[rolled.total - 1]
    scratch.tell("descanso.perde_item", weight=Weight.HARM, kind="aviso", personagem=loser.id,
                 perdidas=1, words={"nome": loser.name})
    return state, ()


EFFECTS: dict[str, Effect] = {
    "perde_racoes": _lose_rations,
    "perde_item": _lose_item,
    "dano": _damage_all,
    "condicao": _condition_all,
    "panico": _panic,
    "encontro": _encounter,
    "encontro_chance": _encounter_chance,
    "teste_con": _con_test,
    "condicao_temporaria": _timed_condition,
    "teste_atributo": _attribute_test,
}


def add_condition(character: Character, text: str) -> Character:
    if text in character.conditions:
        return character
    return replace(character, conditions=character.conditions + (text,))
