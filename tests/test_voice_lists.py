"""What the GM says at a Brazilian table, by voice as by chat: fillers around commands, the
free names of old-school games (spells, items, treasure, creatures), and the names a campaign
taught its voice lists."""
from __future__ import annotations

import pytest

from companion.commands.normalize import fold
from companion.commands.parse import parse
from companion.commands.grammar import grammar
from companion.tables import Tables
from companion.voice.config import voice_config
from companion.voice.phrases import filler_phrases, grammar_words, phrase_list
from companion.voice.reading import Known, read_voice
from companion.voice.spoken import say


def _fillers(tables: Tables) -> list[str]:
    config = voice_config(tables)
    return [say(f, config.accents) for f in dict.fromkeys(
        " ".join(fold(w).split()) for w in grammar(tables).intents.skip_words)
        if f != config.wake_word and not any(ch.isdigit() for ch in f)]


def test_every_filler_can_be_heard(tables: Tables) -> None:
    words = set(grammar_words(phrase_list(tables)))
    fillers = _fillers(tables)
    assert {"bora", "por favor", "então", "aí", "beleza", "tá bom", "vamos lá"} <= set(fillers)
    assert [f for f in fillers if not set(f.split()) <= words] == []


def test_fillers_do_not_multiply_the_list(tables: Tables) -> None:
    config = voice_config(tables)
    said = list(filler_phrases(tables))
    assert len(said) <= len(_fillers(tables)) * config.filler_phrases
    assert len(said) < 0.1 * len(phrase_list(tables))


@pytest.mark.parametrize("text, name", [
    ("bora avançar", "avancar"),
    ("avançar por favor", "avancar"),
    ("então vamos acampar", "acampar"),
    ("aí acende a tocha", "luz"),
    ("beleza, pode explorar", None),  # "pode" is not a filler: not a command
    ("beleza explorar", "explorar"),
    ("tá bom, descansar", "descansar"),
    ("simbora rolar um d vinte", "rolar"),
    ("e aí, próximo turno", "turno"),
    ("vamos nessa, fugir", "fugir"),
    ("olha, desfazer", "desfazer"),
    ("acender a lanterna, valeu", "luz"),
    ("então bora descansar por favor", "descansar"),
    ("mestre, bora entrar na masmorra", "masmorra"),
])
def test_fillers_around_a_command_by_chat_and_voice(text: str, name: str | None,
                                                    tables: Tables) -> None:
    chat = parse(text, tables)
    spoken = " ".join(fold(text).replace(",", " ").split())  # how the recogniser writes it
    voice = read_voice(say(spoken, voice_config(tables).accents), tables)
    assert (chat.command.name if chat.command else None) == name, chat.error
    assert (voice.command.name if voice.command else None) == name, voice.error
