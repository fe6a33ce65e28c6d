"""tables/fala.yaml, typed: the voices, the announcement kinds and which events they are."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from companion.tables.errors import TableError
from companion.tables.rulebook import InvalidValue, piece, require_at_least, require_filled
from companion.tables.files import Tables
from companion.tables.narration import Narrator
from companion.speech.pronunciation import Pronunciation, SpokenRules, compile_rules, spoken_words

ANSWER = "por_voz"  # the announcement kind of the events of a command said by voice


@dataclass(frozen=True)
class Espeak:
    voz: str
    velocidade: int

    def validate(self) -> None:
        require_at_least(self, 80, "velocidade")


@dataclass(frozen=True)
class VoiceFile:
    """One file `./run.sh modelo` fetches into models/, and how it is checked."""

    arquivo: str
    url: str
    tamanho: int
    sha256: str


@dataclass(frozen=True)
class Piper:
    voz: str
    baixar: tuple[VoiceFile, ...]

    def validate(self) -> None:
        require_filled(self, "baixar")


@dataclass(frozen=True)
class Kind:
    """An announcement kind as the GM page lists it."""

    nome: str
    padrao: bool


@piece("fala")
@dataclass(frozen=True)
class SpeechData:
    espeak: Espeak
    piper: Piper
    pronuncia: Pronunciation
    surdo_depois_ms: int
    avisos: Mapping[str, Kind]
    codigos: Mapping[str, str]
    tipos: Mapping[str, str]
    notebook: bool
    notebook_segredos: bool
    respostas_publicas: tuple[str, ...] = ()

    def validate(self) -> None:
        require_at_least(self, 0, "surdo_depois_ms")
        if ANSWER not in self.avisos:
            raise InvalidValue("avisos", "validacao.avisos_com_resposta", {"resposta": ANSWER})
        for where, mapping in (("codigos", self.codigos), ("tipos", self.tipos)):
            for key, kind in mapping.items():
                if kind not in self.avisos:
                    raise InvalidValue(f"{where}.{key}", "validacao.um_dos_avisos",
                                       {"avisos": list(self.avisos)})


@dataclass(frozen=True)
class SpeechConfig:
    """What speech reads: the voices, the kinds (in the page's order) and the event map."""

    espeak_voice: str
    espeak_rate: int
    piper_voice: str
    piper_files: tuple[VoiceFile, ...]
    deaf_after: float  # seconds the microphone stays deaf after the laptop spoke
    kinds: Mapping[str, Kind]
    by_code: Mapping[str, str]
    by_event_kind: Mapping[str, str]
    laptop: bool
    laptop_secrets: bool
    # what speech says when it cannot speak (tables/narracao/fala_erros.yaml)
    narration: Narrator = field(compare=False, repr=False)
    # how a shown text is said (tables/fala.yaml `pronuncia`, compiled)
    words: SpokenRules | None = field(default=None, compare=False, repr=False)
    # answers addressed to the asker alone whose content the whole table may know (the clock)
    public_answers: frozenset[str] = frozenset()

    def spoken(self, text: str) -> str:
        """The text as it is said aloud: in words a listener takes in
        (companion.speech.pronunciation)."""
        if self.words is None:
            return " ".join(text.split())
        return spoken_words(text, self.words)

    def default_kinds(self) -> frozenset[str]:
        return frozenset(name for name, kind in self.kinds.items() if kind.padrao)

    def kind_of(self, code: str | None, event_kind: str) -> str | None:
        """The announcement kind of an event (None: it is not an announcement)."""
        if code is not None and code in self.by_code:
            return self.by_code[code]
        return self.by_event_kind.get(event_kind)

    def to_json(self) -> dict[str, object]:
        """What the pages need to draw the "Voz" panel."""
        return {"avisos": [{"tipo": name, "nome": kind.nome, "padrao": kind.padrao}
                           for name, kind in self.kinds.items()]}


_CACHE: dict[int, tuple[Tables, SpeechConfig]] = {}


def speech_config(tables: Tables) -> SpeechConfig:
    """The speech settings of these tables (read once per Tables object); every event code
    named in `codigos` must be a narration code."""
    cached = _CACHE.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    data = tables.piece(SpeechData)
    for key, codes in (("codigos", data.codigos), ("respostas_publicas", data.respostas_publicas)):
        unknown = sorted(set(codes) - set(tables.narration.codes))
        if unknown:
            raise TableError(tables.narration.render("conferencia.codigos_da_fala",
                                                     {"chave": key, "codigos": unknown}))
    config = SpeechConfig(
        espeak_voice=data.espeak.voz, espeak_rate=data.espeak.velocidade,
        piper_voice=data.piper.voz, piper_files=data.piper.baixar,
        deaf_after=data.surdo_depois_ms / 1000, kinds=dict(data.avisos),
        by_code=dict(data.codigos), by_event_kind=dict(data.tipos),
        laptop=data.notebook, laptop_secrets=data.notebook_segredos,
        words=compile_rules(data.pronuncia),
        public_answers=frozenset(data.respostas_publicas), narration=tables.narration)
    _CACHE[id(tables)] = (tables, config)
    return config
