"""The voice's whole phrase list read once, by voice and by chat, for every test that checks it
(the list has thousands of lines: reading it is the slow part, so it is read a single time)."""
from __future__ import annotations

from dataclasses import dataclass

from companion.commands.context import Known
from companion.commands.parse import parse
from companion.commands.reading import ParseResult
from companion.tables.files import Tables
from companion.voice.phrases import Phrase, voice_phrases
from companion.voice.reading import prompt_options, read_voice


@dataclass(frozen=True)
class PhraseReading:
    """One line of the recogniser's list and how it is read.

    A line of `voz frases` (`listed`) is read by voice and by chat with nothing waiting, as at
    any moment of the evening. A line the listener adds only while a prompt waits ("sim",
    "deu doze") is read by chat with every prompt and a roll waiting, and not by voice alone.
    The chat's context only ever admits a bare answer (companion/commands/matching.py), so a
    listed line reads the same with a prompt waiting or not."""

    phrase: Phrase
    listed: bool
    chat: ParseResult
    voice: ParseResult | None


def read_phrase_list(tables: Tables) -> list[PhraseReading]:
    """Every phrase of `voice_phrases(tables, with_prompts=True)`, read: `voz frases`'s lines
    first, in their order, then the lines said only while a prompt waits."""
    listed = voice_phrases(tables)
    said = {phrase.text for phrase in listed}
    waiting = Known.of(waiting=prompt_options(tables), roll_waiting=True)
    readings = [PhraseReading(phrase, True, parse(phrase.text, tables),
                              read_voice(phrase.text, tables)) for phrase in listed]
    readings += [PhraseReading(phrase, False, parse(phrase.text, tables, waiting), None)
                 for phrase in voice_phrases(tables, with_prompts=True)
                 if phrase.text not in said]
    return readings
