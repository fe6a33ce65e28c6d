"""`companion ouvir ARQUIVO.wav`: recognise a file, one JSON object per utterance.

With --db the accepted commands also run in that session (as the GM). With --frases FILE the
phrase list is that file's lines and a text is accepted when it is one of them (any language:
the adapter's own tests use it with the Korean model).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from companion.history.replay import REPEAT
from companion.session import Session, reading_context
from companion.store.utterances import Utterances
from companion.tables.files import Tables
from companion.tables.vocabulary import Command
from companion.voice.config import voice_config
from companion.voice.judge import Heard, judge, phrase_reader
from companion.voice.learned import Learned, SessionNames, by_list
from companion.voice.models import find_model, no_model
from companion.voice.phrases import grammar_words, phrase_list
from companion.voice.strict_reading import Known, read_voice
from companion.voice.recognizer import (Recognizer, VoiceUnavailable, load_model, missing_vosk,
                                        unknown_line, unknown_words)
from companion.voice.sources import AudioError, wav_chunks

NO_VOICE = 2


def listen_file(args: argparse.Namespace, tables: Tables, out: TextIO, err: TextIO) -> int:
    config = voice_config(tables)
    folder = find_model(config, args.modelo)
    if folder is None:
        err.write(tables.narration.render("ferramentas.erro",
                                          {"motivo": missing_vosk(tables.narration)
                                           or no_model(tables.narration)}) + "\n")
        return NO_VOICE
    try:
        model = load_model(folder, tables.narration)
        chunks = list(wav_chunks(args.wav, tables.narration))
    except (VoiceUnavailable, AudioError) as error:
        err.write(tables.narration.render("ferramentas.erro", {"motivo": str(error)}) + "\n")
        return NO_VOICE
    session = _session(args, tables)
    log = Utterances(session.db_path) if session is not None else None
    try:
        names = [c.name for c in session.state.party] if session else []
        taught = SessionNames(session, tables) if session is not None else None
        learned = taught.current() if taught is not None else []
        if taught is not None:
            taught.close()
        custom = getattr(args, "frases", None)
        phrases = _lines(custom) if custom else phrase_list(tables, names, with_prompts=True,
                                                            learned=learned)
        reader = phrase_reader(phrases, tables.narration) if custom else \
            (lambda text: read_voice(text, tables, _known(session, names, learned)))
        notice = unknown_line(unknown_words(model, grammar_words(phrases)), tables.narration)
        if notice:  # the same line `serve` prints: words of the list this model cannot say
            err.write(notice + "\n")
        recognizer = Recognizer(model, phrases)
        for chunk in [*chunks, b""]:
            heard = recognizer.feed(chunk) if chunk else recognizer.finish()
            for utterance in heard:
                verdict = _run(judge(utterance, reader, config.min_confidence, tables.narration),
                               session)
                if log is not None:
                    _remember(log, verdict, session)
                _print(verdict, args.json, out)
    finally:
        if log is not None:
            log.close()
        if session is not None:
            session.close()
    return 0


def _remember(log: Utterances, verdict: Heard, session: Any) -> None:
    """Every utterance goes to the session's utterance table, accepted or not."""
    accepted = verdict.command is not None
    stored = accepted and verdict.command.name != REPEAT  # `repetir` stores no command
    n = session.commands()[-1].n if stored and session.commands() else None
    log.add(verdict.text, verdict.confidence, accepted, verdict.reason,
            command=verdict.text if accepted else None,
            command_name=verdict.command.name if verdict.command else None, n=n)


def _lines(path: str) -> list[str]:
    return [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _session(args: argparse.Namespace, tables: Tables) -> Any:
    if not getattr(args, "db", None):
        return None
    return Session.open(args.db, getattr(args, "seed", None), tables)


def _known(session: Any, names: list[str], learned: list[Learned]) -> Known:
    if session is None:
        return Known.of(names)
    return reading_context(session.state).with_learned(by_list(learned))


def _run(verdict: Heard, session: Any) -> Heard:
    """With a session, an accepted command runs; the engine's refusal becomes the reason."""
    if session is None or verdict.command is None or verdict.command.name == "frase":
        return verdict
    result = session.run_command(Command(verdict.command.name, dict(verdict.command.args),
                                         "gm"), text=verdict.text)
    if result.ok:
        return verdict
    return verdict.refused(result.error or "recusado")


def _print(verdict: Heard, as_json: bool, out: TextIO) -> None:
    data = verdict.to_json()
    if as_json:
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        command = data["comando"]["command"] if data["comando"] else "nada"
        out.write(f"ouvi '{data['ouvi']}' ({str(data['confianca']).replace('.', ',')}): "
                  f"{command} — {data['motivo']}\n")
    out.flush()
