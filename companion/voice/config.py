"""tables/voz.yaml, typed: thresholds, wake word, listening modes, voice lists, accents, models."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from companion.commands.grammar import grammar
from companion.commands.normalize import fold, normalize
from companion.commands.sentences import SentenceFile, Wildcard
from companion.tables.errors import TableError
from companion.tables.rulebook import InvalidValue, piece, require_at_least, require_filled
from companion.tables.files import Tables
from companion.tables.narration import Narrator

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
        require_at_least(self, 1, "por_palavra")


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
    nomes_da_voz: Mapping[str, tuple[str, ...]]
    acentos: Mapping[str, str]
    modelos: Models

    def validate(self) -> None:
        require_filled(self, *_NON_EMPTY, "listas")
        lists = {*self.listas, *self.listas_juntas}
        for command, arguments in self.aprender.items():
            unknown = [name for names in arguments.values() for name in names
                       if name not in lists]
            if unknown:
                raise InvalidValue(f"aprender.{command}", "validacao.nomes_de_listas",
                                   {"faltam": unknown})
        for name, joins in self.nomes_da_voz.items():
            unknown = [part for part in joins if part not in self.listas]
            if unknown or not joins:
                raise InvalidValue(f"nomes_da_voz.{name}", "validacao.nomes_de_listas",
                                   {"faltam": unknown})
        for name, parts in self.listas_juntas.items():
            unknown = [part for part in parts if part not in self.listas]
            if unknown:
                raise InvalidValue(f"listas_juntas.{name}", "validacao.nomes_de_listas",
                                   {"faltam": unknown})
        if self.modo_inicial not in MODES:
            raise InvalidValue("modo_inicial", "validacao.um_destes", {"opcoes": MODES})
        require_at_least(self, 1, "nomes_por_modelo")
        if not 0 <= self.confianca_minima <= 1:
            raise InvalidValue("confianca_minima", "validacao.numero_entre_0_e_1")


def said_name(text: str) -> str:
    """A name as the recogniser writes it and the voice reading reads it back (folded, numbers
    said as digits: 'três lobos' is '3 lobos')."""
    return normalize(text).text


def fits_slot(said: str, spec: Wildcard, fillers: frozenset[str],
              not_names: Iterable[str]) -> bool:
    """Can this name (said_name) be read back in a slot read by `spec`? No number, no filler
    of frases.yaml inside (fillers are dropped before reading), within the slot's word limit,
    and not starting with a word that is not a name where the slot refuses those."""
    words = said.split()
    return bool(words) and len(words) <= spec.palavras \
        and not any(w.isdigit() for w in words) \
        and not any(f" {f} " in f" {said} " for f in fillers) \
        and not (spec.filtra_inicio and words[0] in set(not_names))


def fillers_of(sentences: SentenceFile) -> frozenset[str]:
    """frases.yaml's fillers (`skip_words`), folded."""
    return frozenset(" ".join(fold(w).split()) for w in sentences.skip_words)


@piece("nomes_da_voz")
@dataclass(frozen=True)
class CampaignNames:
    """tables/nomes_da_voz.yaml: the names a campaign adds to the voice lists (spells,
    creatures, treasure and items), empty as shipped; voz.yaml `nomes_da_voz` says which
    voice lists each joins. A name must be one the voice can hear in one of them at least."""

    magia: tuple[str, ...]
    criatura: tuple[str, ...]
    tipo: tuple[str, ...]

    def of(self) -> dict[str, tuple[str, ...]]:
        return {"magia": self.magia, "criatura": self.criatura, "tipo": self.tipo}

    def check_against(self, rules: Callable[[type[Any]], Any]) -> None:
        joins = rules(VoiceData).nomes_da_voz
        sentences = rules(SentenceFile)
        fillers = fillers_of(sentences)
        for key, names in self.of().items():
            if key not in joins:
                raise InvalidValue(key, "validacao.lista_da_voz")
            specs = [sentences.mesa.wildcard(name) for name in joins[key]]
            most = max(spec.palavras for spec in specs)
            for index, name in enumerate(names):
                said = said_name(str(name))
                if not any(fits_slot(said, spec, fillers, sentences.mesa.nao_sao_nomes)
                           for spec in specs):
                    raise InvalidValue(f"{key}[{index}]", "validacao.nome_que_a_voz_ouve",
                                       {"nome": str(name), "maximo": most})


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
    # what the voice says when it refuses (tables/narracao/voz_erros.yaml)
    narration: Narrator = field(compare=False, repr=False)


_CACHE: dict[int, tuple[Tables, VoiceConfig]] = {}


def _folded(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(" ".join(fold(w).split()) for w in words if fold(w).strip()))


def _free_lists(data: VoiceData, tables: Tables) -> dict[str, tuple[str, ...]]:
    """The voice lists, folded, with the names the campaign added to them (nomes_da_voz.yaml,
    each in the lists whose slot can read it back); a joined list (`listas_juntas`) is its
    parts, in order."""
    lists = {name: _folded(words) for name, words in data.listas.items()}
    added = campaign_names(tables)
    for name, words in added.items():
        lists[name] = tuple(dict.fromkeys([*lists[name], *words]))
    rules = grammar(tables).rules
    fillers = frozenset(" ".join(fold(w).split()) for w in grammar(tables).intents.skip_words)
    for name, parts in data.listas_juntas.items():
        shipped = [word for part in parts for word in _folded(data.listas[part])]
        own = [word for part in parts for word in added.get(part, ())
               if fits_slot(word, rules.wildcard(name), fillers, rules.nao_sao_nomes)]
        lists[name] = tuple(dict.fromkeys([*shipped, *own]))
    return lists


def campaign_names(tables: Tables) -> dict[str, tuple[str, ...]]:
    """{voice list: the names the campaign added to it} (nomes_da_voz.yaml, said as the
    recogniser writes them), each only in the lists whose slot can read it back."""
    data = tables.piece(VoiceData)
    rules = grammar(tables).rules
    fillers = frozenset(" ".join(fold(w).split()) for w in grammar(tables).intents.skip_words)
    found: dict[str, list[str]] = {}
    for key, names in tables.piece(CampaignNames).of().items():
        for list_name in data.nomes_da_voz.get(key, ()):
            spec = rules.wildcard(list_name)
            found.setdefault(list_name, []).extend(
                said for said in (said_name(str(n)) for n in names)
                if fits_slot(said, spec, fillers, rules.nao_sao_nomes))
    return {name: tuple(dict.fromkeys(words)) for name, words in found.items() if words}


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
    for words in tables.piece(CampaignNames).of().values():  # the GM's too, as typed (words
        for word in " ".join(str(w) for w in words).lower().split():  # of 4 letters or more:
            if len(word) >= 4 and fold(word).isalpha():  # a short "é" must not turn every "e")
                accents.setdefault(fold(word), word)
    wrong = [k for k, v in accents.items() if fold(v) != k]
    if wrong:
        raise TableError(tables.narration.render("conferencia.acentos", {"errados": wrong}))
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
        free_lists=_free_lists(data, tables),
        learn=data.aprender,
        accents=accents,
        accents_folded_grammar=frozenset(fold(str(k)) for k in [*data.acentos, *written]
                                         if " " not in str(k)),
        default_model=data.modelos.padrao,
        larger_models=data.modelos.maiores,
        download=ModelDownload(download.arquivo, download.url, download.tamanho,
                               download.sha256),
        narration=tables.narration,
    )
    _CACHE[id(tables)] = (tables, config)
    return config
