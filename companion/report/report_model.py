"""The typed session report: what gather computes and render/export show."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.report.source import SessionSpan


@dataclass(frozen=True)
class Post:
    """A link of the served report (another session, a download): a form posting these
    hidden fields to `action`, so the viewer's token is never in an address (the history,
    the address bar and the logs keep addresses)."""

    action: str
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Count:
    name: str
    amount: int


@dataclass(frozen=True)
class RegionForm:
    """One region's lines of the seed's form."""

    region: str
    defeated: tuple[Count, ...]
    treasure: tuple[Count, ...]
    items: tuple[Count, ...]


@dataclass(frozen=True)
class DieCount:
    """How many dice of one type were rolled, and how often each face came up."""

    kind: str  # "d6"
    sides: int | None  # None for a die without a number of faces (shown without chart)
    dice: int  # all of them: the companion's rolls and the physical dice answered
    faces: tuple[int, ...]  # faces[i] = times face i+1 came up (the companion's rolls)
    physical: int = 0  # physical dice answered on prompts (their faces stay out of the chart)

    @property
    def rolled(self) -> int:
        """The dice the companion rolled (those the faces chart counts)."""
        return self.dice - self.physical


@dataclass(frozen=True)
class WeatherPoint:
    day: int
    round: int | None
    text: str
    row: int


@dataclass(frozen=True)
class Encounter:
    day: int
    round: int | None
    where: str
    what: str


@dataclass(frozen=True)
class SupplyPoint:
    """The party's totals when a day ended (or when the session started/ended)."""

    label: str
    food: int
    water: int
    ammo: int


@dataclass(frozen=True)
class CharacterLine:
    name: str
    hp: tuple[int, int, int]  # start, end, max
    exhaustion: tuple[int, int, int]  # start, end, highest
    spent: tuple[int, int, int]  # food, water, ammunition spent
    left: tuple[int, int, int]  # food, water, ammunition at the end
    panic: tuple[str, ...]
    afflictions: tuple[str, ...]
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class ChaseLine:
    day: int
    where: str
    turns: int
    outcome: str


@dataclass(frozen=True)
class FailedEscape:
    """An escape test that failed before any chase began (not a chase: no turn was run)."""

    day: int
    where: str
    outcome: str


@dataclass(frozen=True)
class Utterance:
    at: str
    text: str
    confidence: float | None
    accepted: bool | None
    command: str
    n: int | None
    undone: bool
    reason: str


@dataclass(frozen=True)
class Place:
    day: int
    clock: str
    where: str


@dataclass(frozen=True)
class Report:
    """One session's report as one viewer ("gm" or "player:<id>") may see it."""

    span: SessionSpan
    viewer: str
    viewer_name: str | None
    start: Place
    end: Place
    forms: tuple[RegionForm, ...]
    dice: tuple[DieCount, ...]
    days_ended: int
    rounds: int
    dungeon_turns: int
    hexes: float
    terrains: tuple[Count, ...]  # terrain name, rounds spent there
    weather: tuple[WeatherPoint, ...]
    weather_rows: tuple[str, ...]  # the season's row texts, 1..6 (for the chart's axis)
    encounters: tuple[Encounter, ...]
    lights: tuple[Count, ...]
    supplies: tuple[SupplyPoint, ...]
    characters: tuple[CharacterLine, ...]
    chases: tuple[ChaseLine, ...]
    failed_escapes: tuple[FailedEscape, ...]
    utterances: tuple[Utterance, ...]
    undone: tuple[tuple[int, str], ...]
    gm_notes: dict[str, Any]  # lost, monsters, secrets (GM only; empty for a player)
    log: tuple[dict[str, Any], ...]  # every event the viewer saw, with its command's text

    @property
    def gm(self) -> bool:
        return self.viewer == "gm"
