"""Voice for a live session: the model found in models/, the listener, the utterance log.

`start_voice` never raises: without the voice extra or a model it returns no listener and the
one line that says how to turn voice on (printed at start and shown on the GM page).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.history.replay import REPEAT
from companion.tables.vocabulary import Command
from companion.session import reading_context
from companion.store.utterances import Utterances
from companion.tables.files import Tables
from companion.voice.config import voice_config
from companion.voice.judge import Heard, Reader
from companion.voice.learned import SessionNames, by_list
from companion.voice.listener import Listener, Notify
from companion.voice.models import find_model, no_model
from companion.voice.phrases import grammar_words, phrase_list
from companion.voice.strict_reading import read_voice
from companion.voice.recognizer import (VoiceUnavailable, load_model, missing_vosk,
                                        unknown_line, unknown_words)

log = logging.getLogger(__name__)


@dataclass
class Voice:
    """What the server holds: the listener (None when voice is off) and the start line."""

    listener: Listener | None
    line: str
    log: Utterances | None = None
    laptop_microphone: bool = False  # listen through the laptop's microphone when the mode says
    names: SessionNames | None = None  # what the campaign taught the voice lists

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        if self.log is not None:
            self.log.close()
        if self.names is not None:
            self.names.close()


def _rules(session: Any, tables: Tables) -> Tables:
    """The campaign's rules in force (its regions are said too), else `tables`."""
    return getattr(session, "tables", None) or tables


def session_phrases(session: Any, tables: Tables,
                    taught: SessionNames | None = None) -> Callable[[], list[str]]:
    """The phrase list for the party, the campaign's rules and the names the campaign taught
    as they are now (built again only when those change; the listener asks between
    utterances)."""
    cache: dict[tuple[Any, ...], list[str]] = {}

    def phrases() -> list[str]:
        rules = _rules(session, tables)
        learned = taught.current(rules) if taught is not None else []
        names = tuple(sorted(c.name for c in session.state.party))
        key = (names, id(rules), tuple((name.said, name.lists) for name in learned))
        if key not in cache:
            cache.clear()
            cache[key] = phrase_list(rules, names, with_prompts=True, learned=learned)
        return cache[key]
    return phrases


def session_reader(session: Any, tables: Tables,
                   taught: SessionNames | None = None) -> Callable[[], Reader]:
    def reader() -> Reader:
        rules = _rules(session, tables)
        known = reading_context(session.state)
        if taught is not None:
            known = known.with_learned(by_list(taught.current(rules)))
        return lambda text: read_voice(text, rules, known)
    return reader


def session_runner(session: Any) -> Callable[[Command, str], Any]:
    def run(command: Command, text: str) -> Any:
        return session.run_command(Command(command.name, dict(command.args), "gm"), text=text)
    return run


def remember_in(utterances: Utterances, session: Any) -> Callable[[Heard, Any], None]:
    def remember(verdict: Heard, result: Any) -> None:
        accepted = verdict.command is not None
        n = None
        stored = accepted and verdict.command.name != REPEAT  # `repetir` stores nothing
        if stored and result is not None and getattr(result, "events", None):
            commands = session.commands()
            n = commands[-1].n if commands else None
        utterances.add(verdict.text, verdict.confidence, accepted, verdict.reason,
                       command=verdict.text if accepted else None,
                       command_name=verdict.command.name if verdict.command else None, n=n)
    return remember


def start_voice(session: Any, tables: Tables, on_heard: Notify, on_status: Notify,
                model_dir: str | Path | None = None) -> Voice:
    """Load the model and start listening for this session, or say why voice is off."""
    config = voice_config(tables)
    folder = find_model(config, model_dir)
    if folder is None:
        return Voice(None, missing_vosk(tables.narration) or no_model(tables.narration))
    try:
        model = load_model(folder, tables.narration)
    except VoiceUnavailable as error:
        return Voice(None, error.message)
    taught = SessionNames(session, tables)
    phrases = session_phrases(session, tables, taught)
    missing = unknown_words(model, grammar_words(phrases()))
    notice = unknown_line(missing, tables.narration) or ""
    utterances = Utterances(session.db_path)
    listener = Listener(model, config, phrases, session_reader(session, tables, taught),
                        session_runner(session), on_heard, on_status,
                        remember_in(utterances, session), notice=notice)
    listener.start()
    line = tables.narration.render("voz.ligada", {"modelo": folder.name,
                                                  "palavra": config.wake_word})
    return Voice(listener, line + (f"\n{notice}" if notice else ""), utterances,
                 laptop_microphone=True, names=taught)
