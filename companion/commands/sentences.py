"""The typed pieces of tables/frases.yaml: hassil's intents and the house's rules (`mesa`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.tables.rulebook import InvalidValue, piece, require_filled


@dataclass(frozen=True)
class Wildcard:
    """A free slot (mesa.curingas): how many words it takes, and how they are cleaned."""

    palavras: int
    nome_de_pessoa: bool
    filtra_inicio: bool


@dataclass(frozen=True)
class OutOfList:
    """mesa.fora_da_lista: how a value said outside its list is refused — the engine's own
    narration code, and the names of its parameters for the value said and the list's values."""

    recusa: str
    valor: str
    valores: str


_WORD_LISTS = ("nao_sao_nomes", "particulas", "artigos", "varios_personagens",
               "separadores_de_nomes", "palavras_de_rolar", "separadores_de_marcha",
               "atributos_com_sinal", "palavras_de_tesouro")


@dataclass(frozen=True)
class HouseRules:
    """frases.yaml `mesa`: the house's rules for reading a sentence's slots."""

    max_caracteres: int
    max_palavras: int
    curingas: Mapping[str, Wildcard]
    curinga_padrao: Wildcard  # a free slot `curingas` does not name
    nao_sao_nomes: tuple[str, ...]
    particulas: tuple[str, ...]
    artigos: tuple[str, ...]
    varios_personagens: tuple[str, ...]
    separadores_de_nomes: tuple[str, ...]
    palavras_de_rolar: tuple[str, ...]
    separadores_de_marcha: tuple[str, ...]
    atributos_com_sinal: tuple[str, ...]
    palavras_de_tesouro: tuple[str, ...]
    atributos: Mapping[str, tuple[str, ...]]
    fora_da_lista: Mapping[str, OutOfList]
    padrao_da_casa: bool = False

    def wildcard(self, slot: str) -> Wildcard:
        """How a free slot is read: its own entry of `curingas`, else `curinga_padrao`."""
        return self.curingas.get(slot, self.curinga_padrao)

    def validate(self) -> None:
        require_filled(self, *_WORD_LISTS, "atributos")


@dataclass(frozen=True)
class IntentSpec:
    """One intent of hassil's format: its `data` blocks, each with its `sentences` (the rest
    of a block, slots and metadata, is hassil's to read)."""

    data: tuple[Mapping[str, Any], ...]

    def validate(self) -> None:
        if not self.data:
            raise InvalidValue("data", "validacao.lista_nao_vazia")
        for index, block in enumerate(self.data):
            sentences = block.get("sentences")
            if not isinstance(sentences, list) or not sentences \
                    or not all(isinstance(sentence, str) for sentence in sentences):
                raise InvalidValue(f"data[{index}].sentences", "validacao.lista_de_frases")


@piece("frases")
@dataclass(frozen=True)
class SentenceFile:
    """tables/frases.yaml: hassil's templates (language, intents, lists, expansion rules,
    skip words) and the house's rules (`mesa`)."""

    language: str
    intents: Mapping[str, IntentSpec]
    lists: Mapping[str, Any]
    expansion_rules: Mapping[str, Any]
    skip_words: tuple[str, ...]
    mesa: HouseRules

    def validate(self) -> None:
        require_filled(self, "skip_words")
