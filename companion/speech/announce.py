"""What the companion says, and who says it: pure steps.

An event is said when its announcement kind (tables/fala.yaml `codigos`, `tipos`) or, for a
command said by voice, the kind `por_voz` is one the GM chose. Each such event is said by ONE
speaker, the first that may say it in this order: the laptop's speakers, a table screen with its
switch on, a GM page with its switch on. The whole table hears the laptop and the table screen:
they say public facts only, unless the GM turned on the laptop's secrets (headphones); a GM page
may say anything the GM sees.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Literal, Mapping, Sequence

from companion.speech.speech_config import ANSWER, SpeechConfig
from companion.tables.weights import weight_of

PUBLIC = "public"
SILENCE = "silencio"  # the command that stops speech (it is itself never said)
Role = Literal["notebook", "mesa", "mestre"]
ORDER: tuple[Role, ...] = ("notebook", "mesa", "mestre")


@dataclass(frozen=True)
class Said:
    """An event the companion may say: its global seq, who may see it, its kinds, and whether
    the laptop may say it aloud although it is someone's own (tables/fala.yaml
    `respostas_publicas`: an answer that says only what the table may know)."""

    seq: int
    visibility: str
    kinds: frozenset[str]
    table_safe: bool = False


@dataclass(frozen=True)
class Choice:
    """The GM's choice (the GM page's preference): which kinds, and the laptop's speakers."""

    kinds: frozenset[str]
    laptop: bool
    laptop_secrets: bool

    @classmethod
    def defaults(cls, config: SpeechConfig) -> Choice:
        return cls(config.default_kinds(), config.laptop, config.laptop_secrets)

    @classmethod
    def read(cls, payload: Mapping[str, Any], config: SpeechConfig, before: Choice) -> Choice:
        """A GM page's choice; a part it leaves out, or gets wrong, keeps what it was."""
        kinds = payload.get("avisos")
        chosen = before.kinds if not isinstance(kinds, list) else \
            frozenset(k for k in kinds if isinstance(k, str) and k in config.kinds)
        laptop = payload.get("notebook")
        secrets = payload.get("notebook_segredos")
        return cls(chosen, laptop if isinstance(laptop, bool) else before.laptop,
                   secrets if isinstance(secrets, bool) else before.laptop_secrets)

    def to_json(self) -> dict[str, Any]:
        return {"avisos": sorted(self.kinds), "notebook": self.laptop,
                "notebook_segredos": self.laptop_secrets}


@dataclass(frozen=True)
class Place:
    """A speaker: the laptop, or a page (its connection id) whose switch is on."""

    id: str
    role: Role


def to_say(events: Iterable[Mapping[str, Any]], config: SpeechConfig,
           by_voice: bool = False) -> list[Said]:
    """The events of one batch that are announcements ({seq, visibility, kind, code?,
    command}); with `by_voice`, its headline (the heaviest event, the later on a tie:
    companion.tables.weights) is also the answer to what was said — and, when that one is not
    public, the heaviest public event too (what the laptop may say)."""
    said = []
    events = [event for event in events if event.get("command") != SILENCE]
    weights = [weight_of(event) for event in events]
    answers: set[int] = set()
    if by_voice:  # the GM's headline, and the table's when that one is not public
        for pool in (range(len(events)),
                     [i for i, event in enumerate(events) if event["visibility"] == PUBLIC]):
            if pool:
                answers.add(max(pool, key=lambda i: (weights[i], i)))
    for index, event in enumerate(events):
        kinds = {config.kind_of(event.get("code"), event["kind"])} - {None}
        if index in answers:
            kinds.add(ANSWER)
        if kinds:
            said.append(Said(event["seq"], event["visibility"], frozenset(kinds),
                             event.get("code") in config.public_answers))
    return said


def may_say(place: Place, said: Said, choice: Choice) -> bool:
    if place.role == "mestre":
        return True
    public = said.visibility == PUBLIC
    if place.role == "notebook":
        return choice.laptop and (public or said.table_safe or choice.laptop_secrets)
    return public  # a table screen says only what is in its own numbering


def speaker_for(said: Said, choice: Choice, places: Sequence[Place]) -> Place | None:
    """The one speaker of an announcement (None: the GM chose not to hear it, or nobody who
    may say it is listening)."""
    if not said.kinds & choice.kinds:
        return None
    for role in ORDER:
        for place in places:
            if place.role == role and may_say(place, said, choice):
                return place
    return None
