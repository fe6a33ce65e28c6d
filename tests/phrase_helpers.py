"""The voice's whole phrase list read once, by voice and by chat, for every test that checks it
(the list has thousands of lines: reading it is the slow part, so it is read a single time, and
kept between runs in pytest's cache folder, named by a fingerprint of everything the reading
depends on: the tables, the program's code and this file)."""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from companion.commands.context import Known
from companion.commands.parse import parse
from companion.commands.text_readings import ParseResult
from companion.tables.files import Tables
from companion.voice.phrases import Phrase, voice_phrases
from companion.voice.strict_reading import prompt_options, read_voice

ROOT = Path(__file__).resolve().parents[1]
READING_LIBRARIES = ("hassil", "PyYAML", "Jinja2")  # what the reading runs on


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


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


def fingerprint(tables: Tables) -> str:
    """What the reading of the phrase list depends on, hashed: every file under the tables'
    folder and every Python file of companion/ (the code that lists and reads), this file, the
    Python that runs it and the libraries that read."""
    libraries = "|".join(f"{name}={_version(name)}" for name in READING_LIBRARIES)
    digest = hashlib.sha256(f"{sys.version}|{libraries}|{tables.directory.resolve()}".encode())
    paths = sorted(tables.directory.rglob("*")) + sorted((ROOT / "companion").rglob("*.py"))
    for path in [*paths, Path(__file__).resolve()]:
        if path.is_file():
            digest.update(f"\0{path}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cached_phrase_list(cache: Any, tables: Tables) -> list[PhraseReading]:
    """`read_phrase_list(tables)`, kept in pytest's cache folder (`cache`: the run's
    config.cache, None when the cache plugin is off) under the fingerprint of what it reads;
    a changed table or line of code reads it again."""
    if cache is None:
        return read_phrase_list(tables)
    kept = Path(cache.mkdir("phrase_readings")) / f"{fingerprint(tables)}.pickle"
    try:
        return pickle.loads(kept.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
        pass  # not read with this code and these tables yet
    readings = read_phrase_list(tables)
    for old in kept.parent.glob("*.pickle"):
        old.unlink(missing_ok=True)
    partial = kept.with_name(f"{kept.stem}.{os.getpid()}.partial")
    partial.write_bytes(pickle.dumps(readings, protocol=pickle.HIGHEST_PROTOCOL))
    partial.replace(kept)
    return readings
