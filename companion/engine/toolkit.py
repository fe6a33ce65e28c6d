"""The toolkit every procedure module uses: the per-call scratch object, the registries the
procedures fill with `@command`, `@prompt_handler` and `@cancel_handler`, the checks a typed
rules piece's validate() shares (require_dice, require_chance), and small helpers (arguments,
characters, prompts, table rows, plurals).

It imports only the model, the dice and the rules loader: never a procedure.
"""
from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Literal, Mapping, Protocol, TypeVar, get_args

from companion.tables import protocol
from companion.tables.protocol import CommandRules
from companion.engine import dice
from companion.engine.model import (
    GM,
    PUBLIC,
    Character,
    Command,
    Event,
    Prompt,
    State,
    Terrain,
    Visibility,
)
from companion.tables.dice_limits import DiceLimits
from companion.tables.errors import CommandRejected, DiceError, TableError
from companion.tables.narration import Narrator, counted
from companion.tables.narration import number_text as narrated_number
from companion.tables.prompt_names import PromptLabels
from companion.tables.rulebook import InvalidValue, piece, require_at_least
from companion.tables.files import Tables

T = TypeVar("T")


def _rolls(value: Any) -> bool:
    try:
        dice.roll(value, random.Random(0))
    except DiceError:
        return False
    return True


def require_chance(field_name: str, value: int) -> None:
    """For a typed rules piece's validate(): an X-in-6 chance, 0 to 6."""
    if not 0 <= value <= 6:
        raise InvalidValue(field_name, "uma chance em 6, de 0 a 6")


def require_dice(field_name: str, value: str) -> None:
    """For a typed rules piece's validate(): `value` must be a dice expression."""
    if not _rolls(value):
        raise InvalidValue(field_name, "uma expressão de dados, como 1d6 ou 2d4+1")


# Tabela I (exaustao.yaml tabela_i): each row says which effect starts at its level; the levels
# are cumulative, so an effect applies from its row's level up.
EXHAUSTION_EDGE = "desvantagem"


EXHAUSTION_NO_MODIFIERS = "sem_modificadores"


EXHAUSTION_DAILY_HARM = "dano_diario"


@dataclass(frozen=True)
class DailyHarm:
    """Tabela I `dano_diario`: the damage rolled on an attribute at each day's end."""

    atributo: str
    dados: str

    def validate(self) -> None:
        require_dice("dados", self.dados)
        if self.atributo not in ATTRIBUTES:
            raise InvalidValue("atributo", "um destes: " + ", ".join(ATTRIBUTES))


@dataclass(frozen=True)
class ExhaustionRow:
    texto: str
    efeito: Literal["desvantagem", "sem_modificadores", "dano_diario"]
    dano_diario: DailyHarm | None = None

    def validate(self) -> None:
        if self.efeito == EXHAUSTION_DAILY_HARM and self.dano_diario is None:
            raise InvalidValue("dano_diario", "presente (atributo e dados do dano diário)")


@piece("exaustao", "tabela_i")
@dataclass(frozen=True)
class ExhaustionTable:
    """Tabela I: Exaustão (levels are cumulative)."""

    nome: str
    linhas: Mapping[str, ExhaustionRow]

    def level_of(self, effect: str) -> int | None:
        """The level from which `effect` applies (None if no row has it)."""
        return min((int(key) for key, row in self.linhas.items() if row.efeito == effect),
                   default=None)


@piece("personagem", "dano_de_atributo")
@dataclass(frozen=True)
class AttributeDamage:
    """personagem.yaml `dano_de_atributo` (house default): attribute damage lowers that
    modifier by 1 per `pontos_por_modificador` points."""

    pontos_por_modificador: int
    padrao_da_casa: bool = False

    def validate(self) -> None:
        require_at_least(self, 1, "pontos_por_modificador")


def _roll_data(rolled: dice.Roll, other: dice.Roll | None, tabela: str, edge: str | None,
               label: str | None, text_result: str | None,
               extra: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A rolagem event's data (the contract's tabela, dados, total, resultado; the faces;
    under an edge the discarded roll) and the words only its text needs."""
    data: dict[str, Any] = {
        "tabela": tabela,
        "dados": rolled.expression,
        "total": rolled.total,
        "resultado": text_result,
        "faces": [[kind, list(values)] for kind, values in rolled.faces],
        **extra,
    }
    if other is not None:
        data["vantagem"] = edge
        data["descartado"] = other.total
        data["faces"] += [[kind, list(values)] for kind, values in other.faces]
    words = {"rotulo": label or tabela, "lado": edge if other is not None else None,
             "outro": other.total if other is not None else None}
    return data, words


@dataclass
class Scratch:
    """Scratch space for one apply(): the RNG, the tables and the events emitted so far."""

    rng: random.Random
    tables: Tables
    command: Command
    events: list[Event] = field(default_factory=list)

    def say(self, text: str, visibility: Visibility = PUBLIC, kind: str = "relato",
            **data: Any) -> None:
        """Emit a plain event."""
        self.events.append(Event(kind=kind, visibility=visibility, text=text, data=data))

    def tell(self, code: str, visibility: Visibility = PUBLIC, kind: str = "relato", *,
             words: Mapping[str, Any] | None = None, **data: Any) -> None:
        """Emit an event narrated from tables/narracao/: its text is the template `code`
        ('viagem.avancou') rendered with `data` plus `words` (values only the text needs);
        the event's data is `data` alone."""
        text = self.tables.narration.render(code, {**data, **(words or {})})
        self.events.append(Event(kind=kind, visibility=visibility, text=text, data=data,
                                 code=code, words=dict(words or {})))

    def piece(self, cls: type[T]) -> T:
        """The typed rules piece `cls` (companion.tables.rulebook.piece)."""
        return self.tables.piece(cls)

    def roll(self, expression: str, tabela: str, resultado: str | None = None,
             visibility: Visibility = PUBLIC, edge: str | None = None,
             describe: Callable[[int], str] | None = None, low_is_good: bool = False,
             label: str | None = None, *, x_in_6: int | None = None,
             **extra: Any) -> dice.Roll:
        """Roll for the rules and emit a `rolagem` event (its text: tables/narracao/dados.yaml
        `rolagem`, or `chance` for an X-in-6 check, `x_in_6`). `describe(total)` gives the
        row text.

        `low_is_good` marks a roll-under test, where DESV keeps the higher die. `label` is the
        heading people read (default: the table's name, which data["tabela"] always keeps)."""
        rolled, other = dice.roll_with_edge(expression, self.rng, edge, low_is_good,
                                            limits=self.piece(DiceLimits))
        data, words = _roll_data(rolled, other, tabela, edge, label,
                                 describe(rolled.total) if describe else resultado, extra)
        if x_in_6 is None:
            self.tell("dados.rolagem", visibility, "rolagem", words=words, **data)
        else:
            self.tell("dados.chance", visibility, "rolagem", words={**words, "x": x_in_6},
                      **data)
        return rolled

    def chance(self, x: int, tabela: str, yes: str, no: str,
               visibility: Visibility = PUBLIC, edge: str | None = None,
               label: str | None = None, **extra: Any) -> bool:
        """An X-in-6 check as its own rolagem event: happens on 1d6 ≤ x. Under an `edge`
        (a character's DESV or vantagem) two dice, and DESV keeps the higher (the worse)."""
        rolled = self.roll("1d6", tabela, visibility=visibility,
                           describe=lambda total: yes if total <= x else no,
                           edge=edge, low_is_good=True, label=label,
                           chance=f"{x}:6", x_in_6=x, **extra)
        return rolled.total <= x


Handler = Callable[[State, Scratch], State]


PromptHandler = Callable[[State, Prompt, "PromptAnswer", Scratch], State]


COMMANDS: dict[str, Handler] = {}


PROMPT_HANDLERS: dict[str, PromptHandler] = {}


CANCEL_HANDLERS: dict[str, Handler] = {}  # what happens after a prompt of a kind is cancelled


@dataclass(frozen=True)
class PromptAnswer:
    """A player's answer: a rolled total (natural die + modifier) or a chosen option."""

    total: int | None = None
    natural: int | None = None
    option: str | None = None
    faces: tuple[int, ...] = ()  # the physical die values said (two under DESV/vantagem)


def command(name: str) -> Callable[[Handler], Handler]:
    """Register a handler for a canonical command name."""
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler
    return register


def cancel_handler(kind: str) -> Callable[[Handler], Handler]:
    """Register what happens after a prompt of this kind is cancelled (`cancelar`)."""
    def register(handler: Handler) -> Handler:
        CANCEL_HANDLERS[kind] = handler
        return handler
    return register


def prompt_handler(kind: str) -> Callable[[PromptHandler], PromptHandler]:
    """Register what happens when a prompt of this kind is answered."""
    def register(handler: PromptHandler) -> PromptHandler:
        PROMPT_HANDLERS[kind] = handler
        return handler
    return register


def slug(text: str) -> str:
    """Lowercase, no accents, words joined by '-': the id of a character."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join(plain.lower().split())


def pick_row(rows: Mapping[Any, Any], value: int) -> Any:
    """The row of a table keyed by '3', '1-5' or '14+' that contains value."""
    for key, row in rows.items():
        text = str(key).strip()
        if text.endswith("+") and value >= int(text[:-1]):
            return row
        if "-" in text[1:]:
            low, high = text.split("-", 1)
            if int(low) <= value <= int(high):
                return row
        elif text.lstrip("-").isdigit() and int(text) == value:
            return row
    # a plain message: pick_row also runs outside apply (the view), where no code is rendered
    raise CommandRejected(f"nenhuma linha da tabela para o resultado {value}")


def number_text(value: float) -> str:
    """A number as people read it in Brazil (companion.tables.narration.number_text)."""
    return narrated_number(value)


def plural(count: float, singular: str, plural_form: str | None = None) -> str:
    """'1 rodada', '2 rodadas', '0 rodadas', '1,5 hex' (companion.tables.narration.counted)."""
    return counted(count, singular, plural_form)


def arg(scratch: Scratch, name: str, default: Any = None) -> Any:
    return scratch.command.args.get(name, default)


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


def exhaustion_level(effect: str, tables: Tables) -> int | None:
    """The Tabela I level from which `effect` applies (None if no row has it)."""
    return tables.piece(ExhaustionTable).level_of(effect)


def has_exhaustion_effect(character: Character, effect: str, tables: Tables) -> bool:
    """Whether the character's exhaustion has reached the Tabela I row with `effect`."""
    level = exhaustion_level(effect, tables)
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


def add_prompt(state: State, scratch: Scratch, kind: str, character: str | None, text: str,
               dice_expression: str = "1d20", modifier_value: int = 0, dc: int | None = None,
               options: tuple[str, ...] = (), party: bool = False, **context: Any) -> State:
    """Queue a prompt for a character's player (or the GM when character is None; or, with
    `party`, for every player: public, with no one's modifier or edge until someone answers)."""
    names = scratch.piece(PromptLabels)
    owner = next((c for c in state.party if c.id == character), None)
    if owner is not None and not options:  # a roll: DESV applies to the physical die too
        edge = edge_for(owner, scratch.tables, state.minutes)
        context = {**context, "vantagem": edge}
        if edge is not None:
            text += " " + edge_text(scratch.tables.narration, edge, dice_expression,
                                    bool(context.get("rolar_abaixo")))
    prompt = Prompt(id=state.next_prompt_id, kind=kind, character=character, text=text,
                    dice=dice_expression, modifier=modifier_value, dc=dc, options=options,
                    labels=tuple(names.option_name(o) for o in options), context=context,
                    party=party)
    visibility = prompt_visibility(prompt)
    scratch.say(text, visibility, kind="pedido", pedido=prompt_to_dict(prompt))
    return replace(state, prompts=state.prompts + (prompt,),
                   next_prompt_id=state.next_prompt_id + 1)


def prompt_visibility(prompt: Prompt) -> Visibility:
    """Who sees a prompt and its answer: its character's player, everyone for the party's, or
    the GM for the GM's own."""
    if prompt.party:
        return PUBLIC
    return protocol.player_key(prompt.character) if prompt.character else GM


def prompt_name(tables: Tables, kind: str) -> str:
    """How people call a prompt kind (tables/pedidos.yaml `nomes_pedidos`)."""
    return tables.piece(PromptLabels).kind_name(kind)


def require_group_free(state: State, scratch: Scratch, who: tuple[str, ...] | None = None) -> None:
    """Refuse a group activity (or one for `who`) while a prompt of a kind that holds the group
    (comandos.yaml `pedidos_que_seguram`) waits, naming whose and which."""
    kinds = set(scratch.piece(CommandRules).pedidos_que_seguram)
    waiting = [p for p in state.prompts
               if p.kind in kinds and (who is None or p.character in who)]
    if not waiting:
        return
    names = {c.id: c.name for c in state.party}
    raise CommandRejected.because(
        "pedidos.pedido_pendente", primeiro=waiting[0].id,
        esperando=[{"quem": names.get(str(p.character), p.character or "o Mestre"), "id": p.id,
                    "tipo": prompt_name(scratch.tables, p.kind)} for p in waiting])


def edge_text(narrator: Narrator, edge: str, dice_expression: str, low_is_good: bool) -> str:
    """What a prompt under DESV (or vantagem) asks of a physical die: roll twice, keep one
    (tables/narracao/pedidos.yaml `com_vantagem`)."""
    worse = edge == EXHAUSTION_EDGE
    return narrator.render("pedidos.com_vantagem", {
        "desv": worse, "dados": dice_expression, "fica_menor": worse != low_is_good})


def prompt_edge(prompt: Prompt) -> str | None:
    """The edge the prompt was asked with (DESV of exhaustion or of a lasting condition)."""
    edge = prompt.context.get("vantagem")
    return str(edge) if edge else None


def prompt_to_dict(prompt: Prompt) -> dict[str, Any]:
    shown = {"id": prompt.id, "tipo": prompt.kind, "personagem": prompt.character,
             "texto": prompt.text, "dados": prompt.dice, "modificador": prompt.modifier,
             "dc": prompt.dc, "opcoes": list(prompt.options),
             "opcoes_nomes": list(prompt.labels or prompt.options)}
    if prompt.party:
        shown["grupo"] = True
    if prompt_edge(prompt):
        shown["vantagem"] = prompt_edge(prompt)
    return shown


def option_label(prompt: Prompt, option: str) -> str:
    """How a canonical option of this prompt is shown (its label from tables)."""
    labels = dict(zip(prompt.options, prompt.labels))
    return labels.get(option, option)


def spoken_name(tables: Tables, name: str) -> str:
    """How people say a command: its `nome`, else the start of its `ajuda` text (before " — "),
    up to the first placeholder (a word with [ | / or a digit, or a capitalized example name)."""
    spec = tables.piece(CommandRules).comandos.get(name)
    if spec is not None and spec.nome:
        return spec.nome
    words = []
    for word in (spec.ajuda if spec is not None else name).split(" — ")[0].split():
        if any(mark in word for mark in "[|/") or any(ch.isdigit() for ch in word) \
                or word[:1].isupper():
            break
        words.append(word.strip(",;"))
    return " ".join(words) or name


# ---------------------------------------------------------------- helpers shared by procedures

ATTRIBUTES = ("for", "des", "con", "int", "sab", "car")


def set_travel(state: State, **changes: Any) -> State:
    return replace(state, travel=replace(state.travel, **changes))


@piece("viagem", "terrenos")
@dataclass(frozen=True)
class TerrainNames:
    """tables/viagem.yaml `terrenos`: how each of the six terrains is named."""

    planicie: str
    estepe: str
    colinas: str
    floresta: str
    pantano: str
    montanha: str

    def names(self) -> dict[str, str]:
        """terrain id → name, in the order of model.Terrain (the data's order too)."""
        return {terrain: str(getattr(self, terrain)) for terrain in get_args(Terrain)}

    def name(self, terrain: str) -> str:
        """The name of one terrain id (an unknown id: a TableError naming the key)."""
        if terrain not in get_args(Terrain):
            raise TableError(f"tables/viagem.yaml: chave 'terrenos.{terrain}' não encontrada")
        return str(getattr(self, terrain))


def terrain_name(scratch: Scratch, terrain: str) -> str:
    """How people call a terrain (tables/viagem.yaml `terrenos`)."""
    return scratch.piece(TerrainNames).name(terrain)


class Terrained(Protocol):
    """A typed group, column or row of a table that says which terrains it covers."""

    @property
    def terrenos(self) -> tuple[str, ...]: ...


G = TypeVar("G", bound=Terrained)


def group_for(groups: Iterable[G], terrain: str, file: str, where: str) -> G:
    """The group/column/row of a typed table that covers this terrain (mapped in data)."""
    for group in groups:
        if terrain in group.terrenos:
            return group
    raise TableError(f"tables/{file}.yaml: '{where}' não cobre o terreno '{terrain}'")


def row_text(row: Any) -> str:
    """A typed table row is a text or a row with `texto`."""
    return row if isinstance(row, str) else str(row.texto)


def passed(prompt: Prompt, answer: PromptAnswer) -> bool:
    """A rolled answer meets the prompt's DC."""
    if answer.total is None:
        raise CommandRejected.because("pedidos.e_um_teste", pedido=prompt.id)
    return prompt.dc is None or answer.total >= prompt.dc


def actor_character(scratch: Scratch) -> str | None:
    return protocol.character_of(scratch.command.actor)
