"""tables/voz.yaml, typed: thresholds, wake word, listening modes, voice lists, accents, models."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from companion.commands.grammar import grammar
from companion.commands.normalize import fold
from companion.errors import TableError
from companion.rulebook import InvalidValue, piece, require_filled
from companion.tables import Tables

MODES = ("ativacao", "apertar", "sempre", "desligado")


@dataclass(frozen=True)
class ListeningPhrases:
    parar: tuple[str, ...]
    ouvir: tuple[str, ...]

    def validate(self) -> None:
        require_filled(self, "parar", "ouvir")


@dataclass(frozen=True)
class Download:
    arquivo: str
    url: str
    tamanho: int
    sha256: str


@dataclass(frozen=True)
class Models:
    padrao: str
    maiores: tuple[str, ...]
    baixar: Download


@dataclass(frozen=True)
class Fillers:
    """voz.yaml `enchimentos`: the commands each filler is said around, in how many phrases."""

    por_palavra: int
    comandos: tuple[str, ...]

    def validate(self) -> None:
        require_filled(self, "comandos")
        if self.por_palavra < 1:
            raise InvalidValue("por_palavra", "um número inteiro, 1 ou mais")


# The lists of voz.yaml that may not be empty.
_NON_EMPTY = ("so_com_pedido", "valor_so_com_pedido", "so_pelo_chat", "nao_sao_nomes",
              "palavras_de_responder", "numeros", "frases_evitar")


@piece("voz")
@dataclass(frozen=True)
class VoiceData:
    """tables/voz.yaml as written (VoiceConfig is what voice reads, folded and checked)."""

    confianca_minima: float | int
    palavra_de_ativacao: str
    modo_inicial: str
    apertar_segundos: float | int
    aviso_segundos: float | int
    silencio_final_ms: int
    comandos_de_escuta: ListeningPhrases
    so_com_pedido: tuple[str, ...]
    valor_so_com_pedido: tuple[str, ...]
    so_pelo_chat: tuple[str, ...]
    nao_sao_nomes: tuple[str, ...]
    palavras_de_responder: tuple[str, ...]
    numeros: tuple[int, ...]
    frases_evitar: tuple[str, ...]
    enchimentos: Fillers
    nomes_por_modelo: int
    listas: Mapping[str, tuple[str, ...]]
    listas_juntas: Mapping[str, tuple[str, ...]]
    aprender: Mapping[str, Mapping[str, tuple[str, ...]]]
    acentos: Mapping[str, str]
    modelos: Models

    def validate(self) -> None:
        require_filled(self, *_NON_EMPTY, "listas")
        lists = {*self.listas, *self.listas_juntas}
        for command, arguments in self.aprender.items():
            unknown = [name for names in arguments.values() for name in names
                       if name not in lists]
            if unknown:
                raise InvalidValue(f"aprender.{command}", "nomes de listas de `listas` (não há "
                                   f"{', '.join(unknown)})")
        for name, parts in self.listas_juntas.items():
            unknown = [part for part in parts if part not in self.listas]
            if unknown:
                raise InvalidValue(f"listas_juntas.{name}", "nomes de listas de `listas` (não há "
                                   f"{', '.join(unknown)})")
        if self.modo_inicial not in MODES:
            raise InvalidValue("modo_inicial", "um destes: " + ", ".join(MODES))
        if self.nomes_por_modelo < 1:
            raise InvalidValue("nomes_por_modelo", "um número inteiro, 1 ou mais")
        if not 0 <= self.confianca_minima <= 1:
            raise InvalidValue("confianca_minima", "um número entre 0 e 1")


@dataclass(frozen=True)
class ModelDownload:
    """Where `./run.sh modelo` gets the default model and how it checks it."""

    file: str
    url: str
    size: int
    sha256: str


@dataclass(frozen=True)
class VoiceConfig:
    min_confidence: float
    wake_word: str
    initial_mode: str
    push_seconds: float
    toast_seconds: float
    trailing_silence_ms: int
    stop_phrases: tuple[str, ...]
    listen_phrases: tuple[str, ...]
    prompt_only: frozenset[str]
    prompt_only_spoken: frozenset[str]
    value_only_with_prompt: frozenset[str]
    chat_only: frozenset[str]
    not_names: frozenset[str]
    answer_words: frozenset[str]
    numbers: tuple[int, ...]
    avoid: tuple[str, ...]
    filler_phrases: int  # how many phrases each filler of frases.yaml is said in
    filler_anchors: tuple[str, ...]  # the commands fillers are said around (as spoken)
    names_per_template: int  # a long list of names, after its first template: names per template
    free_lists: Mapping[str, tuple[str, ...]]
    learn: Mapping[str, Mapping[str, tuple[str, ...]]]  # command → argument → voice lists
    accents: Mapping[str, str]
    accents_folded_grammar: frozenset[str]  # grammar words that carry an accent when said
    default_model: str
    larger_models: tuple[str, ...]
    download: ModelDownload


_CACHE: dict[int, tuple[Tables, VoiceConfig]] = {}


def _folded(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(" ".join(fold(w).split()) for w in words if fold(w).strip()))


def _free_lists(data: VoiceData) -> dict[str, tuple[str, ...]]:
    """The voice lists, folded; a joined list (`listas_juntas`) is its parts, in order."""
    lists = {name: _folded(words) for name, words in data.listas.items()}
    for name, parts in data.listas_juntas.items():
        lists[name] = tuple(dict.fromkeys(word for part in parts for word in lists[part]))
    return lists


def voice_config(tables: Tables) -> VoiceConfig:
    """The voice settings of these tables (read once per Tables object)."""
    cached = _CACHE.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    data = tables.piece(VoiceData)
    accents = {fold(key): str(value) for key, value in data.acentos.items()}
    written = grammar(tables).accents  # the accents written in frases.yaml's lists, fillers
    for folded, word in written.items():
        accents.setdefault(folded, word)
    for words in data.listas.values():  # the lists are written as said, accents and all
        for word in " ".join(str(w) for w in words).lower().split():
            accents.setdefault(fold(word), word)
    wrong = [k for k, v in accents.items() if fold(v) != k]
    if wrong:
        raise TableError(f"tables/voz.yaml: acentos que não batem com a palavra: {wrong}")
    download = data.modelos.baixar
    config = VoiceConfig(
        min_confidence=float(data.confianca_minima),
        wake_word=" ".join(fold(data.palavra_de_ativacao).split()),
        initial_mode=data.modo_inicial,
        push_seconds=float(data.apertar_segundos),
        toast_seconds=float(data.aviso_segundos),
        trailing_silence_ms=data.silencio_final_ms,
        stop_phrases=_folded(data.comandos_de_escuta.parar),
        listen_phrases=_folded(data.comandos_de_escuta.ouvir),
        prompt_only=frozenset(_folded(data.so_com_pedido)),
        prompt_only_spoken=frozenset(" ".join(str(w).lower().split())
                                     for w in data.so_com_pedido),
        value_only_with_prompt=frozenset(_folded(data.valor_so_com_pedido)),
        chat_only=frozenset(_folded(data.so_pelo_chat)),
        not_names=frozenset(_folded(data.nao_sao_nomes)),
        answer_words=frozenset(_folded(data.palavras_de_responder)),
        numbers=tuple(sorted(set(data.numeros))),
        avoid=tuple(f" {phrase} " for phrase in _folded(data.frases_evitar)),
        filler_phrases=data.enchimentos.por_palavra,
        names_per_template=data.nomes_por_modelo,
        filler_anchors=tuple(" ".join(str(c).lower().split()) for c in data.enchimentos.comandos),
        free_lists=_free_lists(data),
        learn=data.aprender,
        accents=accents,
        accents_folded_grammar=frozenset(fold(str(k)) for k in [*data.acentos, *written]
                                         if " " not in str(k)),
        default_model=data.modelos.padrao,
        larger_models=data.modelos.maiores,
        download=ModelDownload(download.arquivo, download.url, download.tamanho,
                               download.sha256),
    )
    _CACHE[id(tables)] = (tables, config)
    return config
