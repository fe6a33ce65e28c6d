"""Lasting conditions with a rule effect, and `curar`.

Characters keep their lasting conditions as texts (`Character.conditions`). A table row that
notes a condition (`condicao: "…"`, e.g. viagem.yaml Tabela F row 8) may also say what it does:
  efeito: meio_movimento      an entry of viagem.yaml `efeitos_de_condicao`
  ate_ser_curado: true        it stays until the GM says `curar Nome`
  como_fica: "com o …"        how a text says who has it ("Ana está com o tornozelo torcido")
A row dataclass that may note one inherits these keys from `NotesCondition` (foraging's
AccidentRow, rest's MishapRow: Tabela F, Tabela H, masmorra.yaml's Tabela B), and
`condition_notes` collects each row's `ConditionNote` from the typed pieces once per rules
load, by condition text, so a condition noted by any table gets its effect the same way. An
`efeito` that is not in `efeitos_de_condicao` is a TableError at load naming file and key.
(Tabela J's `condicao`, "Insanidade", says nothing of what it does: its `efeito` is a panic
effect.)

Effects: `fator_avanco` scales Tabela A's progress while anyone in the party has the condition;
the group moves at the slowest member's pace, so the lowest factor counts, once, however many
are hurt (`advance_factor`). A row with `dano_por_rodada: N` deals N damage to whoever has the
condition at the end of every travel round (every 4 h of the clock, wherever the party is)
until it is cured (`round_harm`, called by clock.pass_time).

Conditions that end by themselves (`condicao_temporaria: {texto, rodadas | dias, desvantagem}`,
a `TimedCondition` checked at load: exactly one of rodadas and dias) become `Lasting` values
(`timed`): `rodadas: N` for the N travel rounds after the one in
progress ("nas próximas duas rodadas"), `dias: N` for the N days after the current one ("pelo
próximo dia"); with `desvantagem`, DESV on every roll while it lasts.

`curar Nome` removes the character's conditions that last "até ser curado"; `curar Nome
condicao` removes the one named (any condition, matched ignoring accents and case).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from companion.engine.clock import MINUTES_PER_DAY
from companion.engine.model import GM, PUBLIC, Character, Lasting, State, TravelMode
from companion.engine.characters import clamp_supplies, find_character, slug, update_character
from companion.engine.handlers import command
from companion.engine.scratch import Scratch, arg
from companion.tables.errors import CommandRejected, TableError
from companion.tables.narration import Narrator
from companion.tables.piece_lookup import can_hold, held
from companion.tables.rulebook import PIECES, InvalidValue, piece, require_at_least
from companion.tables.files import Tables
from companion.tables.weights import Weight


@dataclass(frozen=True)
class ConditionEffect:
    """An entry of viagem.yaml `efeitos_de_condicao`: what a condition does while it lasts."""

    nome: str
    fator_avanco: float | int  # Tabela A's progress is multiplied by it
    modos: tuple[TravelMode, ...]  # the travel modes it applies in

    def validate(self) -> None:
        if not 0 <= self.fator_avanco:
            raise InvalidValue("fator_avanco", "validacao.numero_a_partir_de_zero")
        if not self.modos:
            raise InvalidValue("modos", "validacao.lista_de_modos_de_viagem")


@piece("viagem", "rodada")
@dataclass(frozen=True)
class TravelRound:
    """tables/viagem.yaml `rodada`: the travel round's length (the clock of `rodadas: N`
    conditions) and how many make a day."""

    rodadas_por_dia: int
    minutos: int

    def validate(self) -> None:
        require_at_least(self, 1, "rodadas_por_dia", "minutos")


@piece("viagem", strict=False)  # the rest of viagem.yaml belongs to the travel procedures
@dataclass(frozen=True)
class ConditionRules:
    """What conditions do (viagem.yaml `efeitos_de_condicao`)."""

    efeitos_de_condicao: Mapping[str, ConditionEffect]


@dataclass(frozen=True)
class Slowed:
    """Why the party moves slower: who has which condition, and the effect's name."""

    factor: float
    effect: str  # "meio movimento"
    who: tuple[tuple[str, str], ...]  # (character name, how it is said: "com o tornozelo…")


@dataclass(frozen=True)
class TimedCondition:
    """A row's `condicao_temporaria`: a condition that ends by itself after `rodadas` travel
    rounds or `dias` days (exactly one of them); with `desvantagem`, DESV on every roll."""

    texto: str
    rodadas: int | None = None
    dias: int | None = None
    desvantagem: bool = False

    def validate(self) -> None:
        if self.rodadas is not None and self.dias is not None:
            raise InvalidValue("dias", "validacao.dias_com_rodadas")
        if self.rodadas is None and self.dias is None:
            raise InvalidValue("rodadas", "validacao.rodadas_ou_dias")
        require_at_least(self, 1, "rodadas", "dias")


@dataclass(frozen=True)
class ConditionNote:
    """What a table row says a lasting condition does (the module's docstring says each)."""

    condicao: str
    efeito: str | None = None  # a key of viagem.yaml efeitos_de_condicao
    ate_ser_curado: bool = False
    como_fica: str | None = None
    dano_por_rodada: int | None = None

    def how_said(self, narration: Narrator) -> str:
        """'com o tornozelo torcido'; without `como_fica`, the condition's text before ':'
        (tables/narracao/como_esta.yaml)."""
        return self.como_fica or narration.render("como_esta.com_condicao",
                                                  {"condicao": self.condicao.split(":")[0]})


_NOTE_KEYS = ("efeito", "ate_ser_curado", "como_fica", "dano_por_rodada")


@dataclass(frozen=True, kw_only=True)
class NotesCondition:
    """The keys of a table row that notes a lasting condition (`condicao`) and says what it
    does; a row dataclass inherits them, and `condition_notes` finds it in any piece."""

    condicao: str | None = None
    efeito: str | None = None
    ate_ser_curado: bool = False
    como_fica: str | None = None
    dano_por_rodada: int | None = None

    def validate(self) -> None:
        if self.condicao is None and any(getattr(self, key) for key in _NOTE_KEYS):
            raise InvalidValue("condicao", "validacao.texto_da_condicao", {"chaves": _NOTE_KEYS})
        require_at_least(self, 1, "dano_por_rodada")

    def check_against(self, rules: Callable[[type[Any]], Any]) -> None:
        effects = rules(ConditionRules).efeitos_de_condicao
        if self.efeito is not None and self.efeito not in effects:
            raise InvalidValue("efeito", "validacao.efeito_de_condicao", {"efeitos": list(effects)})

    def note(self) -> ConditionNote | None:
        """The row's condition, when the row says what it does (else None)."""
        if self.condicao is None or (self.efeito is None and not self.ate_ser_curado
                                     and self.dano_por_rodada is None):
            return None
        return ConditionNote(condicao=self.condicao, efeito=self.efeito,
                             ate_ser_curado=self.ate_ser_curado, como_fica=self.como_fica,
                             dano_por_rodada=self.dano_por_rodada)


# ---------------------------------------------------------------- finding the notes

def condition_notes(tables: Tables) -> Mapping[str, ConditionNote]:
    """Every condition a table row notes and says what it does, by its text (the first row
    that notes it, files by name, each in its order), from the typed pieces; once per Tables."""
    return tables.derived(_collect_notes)


def _collect_notes(tables: Tables) -> Mapping[str, ConditionNote]:
    notes: dict[str, ConditionNote] = {}
    for cls in _noting_pieces(tables):
        for row in held(tables.piece(cls), NotesCondition):
            note = row.note()
            if note is None:
                continue
            known = notes.setdefault(note.condicao, note)
            if known != note:
                raise TableError(tables.narration.render("conferencia.condicao_dupla", {
                    "condicao": note.condicao, "primeira": known, "segunda": note}))
    return notes


def _noting_pieces(tables: Tables) -> list[type]:
    """The declared pieces that may hold a NotesCondition row, in the order of the files."""
    def where(cls: type) -> tuple[str, int]:
        place = PIECES[cls]
        keys = list(tables.files.get(place.file) or ())
        return place.file, keys.index(place.path[0]) if place.path[:1] and place.path[0] in keys \
            else -1

    return sorted((cls for cls in PIECES if can_hold(cls, NotesCondition)), key=where)


def condition_note(tables: Tables, text: str) -> ConditionNote | None:
    """What the table row that notes this condition text says it does (None: nothing)."""
    return condition_notes(tables).get(text)


def timed(state: State, scratch: Scratch, spec: TimedCondition) -> Lasting:
    """A condition that ends by itself, from a row's `condicao_temporaria` (see above)."""
    if spec.dias is not None:
        length, count = MINUTES_PER_DAY, spec.dias
    else:
        length, count = scratch.piece(TravelRound).minutos, int(spec.rodadas or 0)
    start = (state.minutes // length + 1) * length
    return Lasting(text=spec.texto, since=start, until=start + count * length,
                   edge="desvantagem" if spec.desvantagem else None)


def timed_text(narrator: Narrator, lasting: Lasting, spec: TimedCondition) -> str:
    """'DESV em todas as rolagens nas próximas 2 rodadas' / '… durante o dia 2'
    (tables/narracao/condicoes.yaml `com_tempo`)."""
    return narrator.render("condicoes.com_tempo", {
        "texto": lasting.text, "desv": bool(lasting.edge), "dias": spec.dias,
        "primeiro_dia": lasting.since // MINUTES_PER_DAY + 1,
        "rodadas": None if spec.dias is not None else spec.rodadas})


def add_lasting(character: Character, lasting: Lasting) -> Character:
    """The condition on the character (a new one of the same name replaces the old)."""
    kept = tuple(x for x in character.lasting if x.text != lasting.text)
    return replace(character, lasting=kept + (lasting,))


def round_harm(state: State, scratch: Scratch, rounds: int) -> State:
    """`rounds` travel rounds ended: each condition with `dano_por_rodada` deals its damage."""
    if rounds <= 0:
        return state
    for character in state.party:
        for text in character.conditions:
            note = condition_note(scratch.tables, text)
            harm = (note.dano_por_rodada or 0) if note is not None else 0
            if harm <= 0:
                continue
            before = character.hp
            character = clamp_supplies(replace(character, hp=character.hp - harm * rounds))
            # harm when it hurt (a character already at the floor loses nothing more)
            scratch.tell("condicoes.dano_por_rodada",
                         weight=Weight.HARM if character.hp < before else Weight.ROUTINE,
                         kind="aviso", personagem=character.id,
                         dano=harm * rounds, condicao=text,
                         words={"nome": character.name, "curta": str(text).split(":")[0],
                                "antes": before, "depois": character.hp,
                                "palavra": _first_word(text)})
            scratch.tell("condicoes.dano_por_rodada_dica", GM, weight=Weight.FRAMING,
                         personagem=character.id,
                         condicao=text, words={"nome": character.name,
                                               "palavra": _first_word(text)})
        state = update_character(state, character)
    return state


def lasts_until_cured(tables: Tables, text: str) -> bool:
    note = condition_note(tables, text)
    return bool(note and note.ate_ser_curado)


def _effect(tables: Tables, note: ConditionNote) -> ConditionEffect | None:
    """The note's effect (its name checked at load against viagem.yaml efeitos_de_condicao)."""
    if note.efeito is None:
        return None
    return tables.piece(ConditionRules).efeitos_de_condicao[note.efeito]


# ---------------------------------------------------------------- Avançar

def advance_factor(state: State, tables: Tables) -> Slowed | None:
    """The slowest pace in the party for the current travel mode, or None at full pace."""
    found: list[tuple[float, str, str, str]] = []
    for character in state.party:
        for text in character.conditions:
            note = condition_note(tables, text)
            effect = _effect(tables, note) if note is not None else None
            if note is None or effect is None or state.travel.mode not in effect.modos:
                continue
            found.append((float(effect.fator_avanco), effect.nome,
                          character.name, note.how_said(tables.narration)))
    slowest = min((f for f in found if f[0] < 1), default=None)
    if slowest is None:
        return None
    who = tuple(dict.fromkeys((name, said) for factor, effect, name, said in found
                              if factor == slowest[0] and effect == slowest[1]))
    return Slowed(factor=slowest[0], effect=slowest[1], who=who)


def slowed_text(narrator: Narrator, slowed: Slowed) -> str:
    """'meio movimento: Ana está com o tornozelo torcido' (Ana e Bia estão …)
    (tables/narracao/condicoes.yaml `mais_lento`)."""
    by_how: dict[str, list[str]] = {}
    for name, said in slowed.who:
        by_how.setdefault(said, []).append(name)
    return narrator.render("condicoes.mais_lento", {
        "efeito": slowed.effect,
        "grupos": [{"nomes": names, "como": said} for said, names in by_how.items()]})


# ---------------------------------------------------------------- curar

@command("curar")
def cure_command(state: State, scratch: Scratch) -> State:
    """Remove the conditions that last until cured (or the one named)."""
    name = arg(scratch, "personagem")
    if not name:
        raise CommandRejected.because("condicoes.sem_personagem")
    name, named = _split_name(state, str(name), arg(scratch, "condicao"))
    character = find_character(state, name)
    cured = (_named(character, str(named)) if named
             else _until_cured(character, scratch.tables))
    kept = tuple(c for c in character.conditions if c not in cured)
    slowed_before = advance_factor(state, scratch.tables)
    seen = character.condition_visibility
    state = update_character(state, replace(character, conditions=kept, condition_visibility={
        c: v for c, v in seen.items() if c in kept}))
    for visibility in dict.fromkeys(seen.get(c, PUBLIC) for c in cured):  # each by whom saw it
        scratch.tell("condicoes.curado", visibility, personagem=character.id,
                     curadas=[c for c in cured if seen.get(c, PUBLIC) == visibility],
                     words={"nome": character.name})
    if slowed_before is not None and advance_factor(state, scratch.tables) is None:
        scratch.tell("condicoes.passo_normal", PUBLIC)
    return state


def _split_name(state: State, said: str, condition: Any) -> tuple[str, Any]:
    """'Ana carrapatos' reaches us as one name: a party member's name first, the rest is the
    condition (the parser cannot know the names)."""
    if condition or any(slug(c.name) == slug(said) for c in state.party):
        return said, condition
    words = said.split()
    for cut in range(len(words) - 1, 0, -1):
        head = " ".join(words[:cut])
        if any(slug(c.name) == slug(head) for c in state.party):
            rest = words[cut:]
            if rest and slug(rest[0]) in ("de", "da", "do", "das", "dos"):
                rest = rest[1:]
            return head, " ".join(rest) or None
    return said, condition


def _until_cured(character: Character, tables: Tables) -> tuple[str, ...]:
    cured = tuple(c for c in character.conditions if lasts_until_cured(tables, c))
    if cured:
        return cured
    first = _first_word(character.conditions[0]) if character.conditions else None
    raise CommandRejected.because("condicoes.nada_ate_a_cura", nome=character.name,
                                  condicoes=list(character.conditions), palavra=first)


def _first_word(text: str) -> str:
    """'Carrapatos/sanguessugas: …' → 'carrapatos' (how the GM can name it)."""
    return re.split(r"[^a-z0-9]", slug(text))[0]


def _named(character: Character, named: str) -> tuple[str, ...]:
    wanted = slug(named).replace("-", " ")
    cured = tuple(c for c in character.conditions if wanted and wanted in
                  slug(c).replace("-", " "))
    if not cured:
        raise CommandRejected.because("condicoes.sem_essa", nome=character.name, condicao=named,
                                      condicoes=list(character.conditions))
    return cured


__all__ = ["timed", "timed_text", "add_lasting", "round_harm", "advance_factor", "slowed_text", "lasts_until_cured", "condition_note", "condition_notes", "ConditionNote", "NotesCondition", "TimedCondition", "Slowed"]
