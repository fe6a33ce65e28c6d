"""Immutable values the engine works on: events and state (commands: companion.tables.vocabulary),
the closed sets of words the rules use (seasons, terrains, attributes…) and set_travel."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping, get_args

from companion.tables import protocol
from companion.tables.vocabulary import Command  # noqa: F401  (re-exported for the engine's callers)

Visibility = str  # "public", "gm" or "player:<character id>"
PUBLIC: Visibility = protocol.PUBLIC
GM: Visibility = protocol.GM


@dataclass(frozen=True)
class Event:
    """Something the engine reports. The session adds seq and command when it stores it."""

    kind: str  # rolagem, relato, aviso, pedido, resposta, ajuda, estado
    visibility: Visibility
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    code: str | None = None  # the narration code the text was rendered from (tables/narracao)
    words: Mapping[str, Any] = field(default_factory=dict)  # the values only the text used
    # its weight as news (companion.tables.weights.Weight), declared by the procedure that
    # emitted it; the session stores it in the data as `peso`
    weight: int = 0


@dataclass(frozen=True)
class Lasting:
    """A condition that ends by itself: `until` is the session minute it ends at; `edge` is the
    edge it gives every roll while it lasts (e.g. "desvantagem"), or None."""

    text: str
    until: int
    edge: str | None = None
    since: int = 0  # the session minute it starts at ("nas próximas duas rodadas": the next)
    # combat rounds it lasts as the companion rolled them (a brief panic effect: 1d4 rounds of
    # Terror), shown as such; it ends when time next passes (rounds are over by then)
    rounds: int | None = None
    visibility: str = "public"  # who sees it on the sheet (a panic effect: its player and the GM)


@dataclass(frozen=True)
class Affliction:
    """A Tabela K affliction a character gained, with who sees its name: "public" or
    "player:<character id>" (that player and the GM). Fixed when it is gained, from
    tables/panico.yaml `visibilidade.aflicao` then, so a later change of that setting never
    exposes a past one (engine/view.py shows it only to whom protocol.may_see allows)."""

    name: str
    visibility: Visibility


@dataclass(frozen=True)
class Character:
    """One member of the party. Ids are slugs of the name (no accents, lowercase).

    The sheet's numbers have no defaults here: a new character's come from the rules
    (tables/personagem.yaml `personagem_padrao`, party.CharacterDefaults.character)."""

    id: str
    name: str
    level: int
    hp: int
    hp_max: int
    sanity: int
    sanity_max: int  # the character's own Sanity: resting recovers up to it
    exhaustion: int
    food: int
    water: int
    ammo: int
    mods: Mapping[str, int] = field(default_factory=dict)  # for des con int sab car
    afflictions: tuple[Affliction, ...] = ()
    attribute_damage: Mapping[str, int] = field(default_factory=dict)
    # the part of attribute_damage only the character's player and the GM see (a panic
    # effect's, docs/regras.md "Pânico"), per attribute; never more than attribute_damage's
    private_damage: Mapping[str, int] = field(default_factory=dict)
    hit_die: int | None = None  # sides of the character's hit die (None: casa.yaml's)
    rest_rounds_owed: int = 0  # forced-march failure: rounds of rest before other activities
    conditions: tuple[str, ...] = ()  # free-text lasting effects (DESV, tornozelo torcido…)
    # who sees a condition that not everyone sees (Insanidade from a private panic effect:
    # "player:<id>"); a condition not named here is public
    condition_visibility: Mapping[str, Visibility] = field(default_factory=dict)
    lasting: tuple[Lasting, ...] = ()  # conditions with an end (clock.pass_time removes them)
    # made by name alone (a player's join, `personagem Nome`): the sheet is still the house
    # defaults, and the first `personagem` with values sets it as a creation does (party.py)
    sheet_unset: bool = False


@dataclass(frozen=True)
class Prompt:
    """A request for one character's player to roll (or for the GM to confirm, or for any
    player of the party when `party`)."""

    id: int
    kind: str  # panico, marcha_forcada, interrupcao, fuga, escolha_marcha, confirmar_perseguicao
    character: str | None  # character id, or None for a GM-only confirmation
    text: str
    dice: str = "1d20"
    modifier: int = 0
    dc: int | None = None
    options: tuple[str, ...] = ()  # for choices instead of rolls (canonical, no accents)
    labels: tuple[str, ...] = ()  # how each option is shown to people (same order)
    context: Mapping[str, Any] = field(default_factory=dict)
    # the whole party's test (the escape test asked with no name): every player sees it and any
    # may answer, with their own character's modifier and edge; the first answer closes it
    party: bool = False


Season = Literal["primavera", "verao", "outono", "inverno"]
Terrain = Literal["planicie", "estepe", "colinas", "floresta", "pantano", "montanha"]
TravelMode = Literal["andando", "montado", "navegando"]
Danger = Literal["inseguro", "arriscado", "mortal"]
Attribute = Literal["for", "des", "con", "int", "sab", "car"]
ATTRIBUTES: tuple[Attribute, ...] = get_args(Attribute)


@dataclass(frozen=True)
class Travel:
    """The hexcrawl day. Day and round come from Clock.minutes."""

    season: Season = "primavera"
    weather_row: int | None = None  # 1..6 on the season's column; None until first rolled
    terrain: Terrain = "planicie"
    day_start_terrain: Terrain = "planicie"
    # the region the GM named that the party is in / started the day in (None: the terrain's
    # default region, tables/encontros.yaml); its terrain is `terrain` / `day_start_terrain`
    region: str | None = None
    day_start_region: str | None = None
    mode: TravelMode = "andando"
    consecutive_advances: int = 0
    camp_safe: bool = False
    rested_today: bool = False
    hexes: float = 0.0  # progress travelled today/overall, in hexes
    lost: bool = False  # GM-only
    watcher: str | None = None  # character id keeping watch (`vigia`); None: the house default
    # The travel round in progress: who already did their one activity (id, activity), whether
    # its weather and encounter check were rolled, and whether that check found an encounter.
    acted: tuple[tuple[str, str], ...] = ()
    round_open: bool = False
    round_encounter: bool = False
    pending_advance: bool = False  # the round's advance waits for the forced-march tests
    # the round's advance waited for who rests off a forced march: the group does not advance
    # in it (a round a chase or a dungeon opened has not waited: the group may advance in it)
    advance_waited: bool = False


@dataclass(frozen=True)
class Timer:
    """A light source or spell counted in dungeon turns."""

    name: str
    turns_left: int
    kind: Literal["luz", "magia"] = "luz"


@dataclass(frozen=True)
class Monster:
    name: str
    room: str = ""
    alerted: bool = False


@dataclass(frozen=True)
class Dungeon:
    active: bool = False
    danger: Danger = "inseguro"
    turn: int = 0  # exploration turns since entering
    turns_since_rest: int = 0
    lights: tuple[Timer, ...] = ()
    spells: tuple[Timer, ...] = ()
    marching_order: tuple[str, ...] = ()  # character ids
    monsters: tuple[Monster, ...] = ()  # GM-only
    pending_encounter: bool = False
    entered_at: int = 0  # State.minutes when the party entered


@dataclass(frozen=True)
class Chase:
    """Flight from combat. Distance is derived from the score (see chase module)."""

    phase: Literal["declarada", "ativa"] = "declarada"
    score: int = 0  # +1 per escape point, -1 per danger point
    turn: int = 0  # chase turns completed
    ranged_checked: bool = False  # ranged check used this turn
    roller: str | None = None  # character id who rolls the escape test (None: the first)
    party_speed: int | None = None  # the sides' speeds, as the GM gives them (informative)
    foe_speed: int | None = None


@dataclass(frozen=True)
class Tally:
    """The session form: defeated per region, treasure, items, dice rolled per type."""

    defeated: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    treasure: Mapping[str, int] = field(default_factory=dict)
    items: Mapping[str, int] = field(default_factory=dict)
    dice: Mapping[str, int] = field(default_factory=dict)  # "d6" -> count of dice rolled


@dataclass(frozen=True)
class State:
    minutes: int = 0  # session clock since start
    travel: Travel = Travel()
    dungeon: Dungeon = Dungeon()
    chase: Chase | None = None
    # the speeds the GM gave for a flight whose escape test failed (combat goes on): the next
    # `fugir` of that combat keeps them; time passing (the combat is over) drops them
    flight_speeds: tuple[int, int] | None = None
    party: tuple[Character, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    next_prompt_id: int = 1
    tally: Tally = Tally()
    secrets: tuple[str, ...] = ()  # GM-only notes of secret rolls, newest last
    session: int = 1  # the campaign's session number (`nova_sessao` starts the next)

    @property
    def mode(self) -> str:
        """'masmorra' inside a dungeon, else 'viagem'; a chase is shown as 'perseguicao'."""
        if self.chase is not None:
            return "perseguicao"
        return "masmorra" if self.dungeon.active else "viagem"


def set_travel(state: State, **changes: Any) -> State:
    """The state with these fields of its travel day changed."""
    return replace(state, travel=replace(state.travel, **changes))
