"""`companion falar TEXTO [--saida ARQUIVO.wav]`: say a text with the configured voice (Piper
when its pt_BR voice is in models/, else espeak-ng), or write it to a WAV file."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import TextIO

from companion.speech.speech_config import speech_config
from companion.speech.speaker import Speakers
from companion.speech.voices import MODELS_DIR, SpeechUnavailable, choose_voice, write_wav
from companion.tables.files import Tables

NO_SPEAKERS = 2  # exit status: nothing could be played (no sound card, no PortAudio)


def say_text(text: str, tables: Tables, wav: str | None, out: TextIO, err: TextIO,
             folder: Path = MODELS_DIR) -> int:
    """Speak (or write) one text; 0 when done, 2 with one line saying what is missing."""
    text = " ".join(text.split())
    if not text:
        print(_error(tables, tables.narration.render("ferramentas.falar_sem_texto", {})),
              file=err)
        return NO_SPEAKERS
    config = speech_config(tables)
    text = config.spoken(text)
    try:
        voice, line = choose_voice(config, folder)
    except SpeechUnavailable as error:
        print(_error(tables, error.message), file=err)
        return NO_SPEAKERS
    print(line, file=err, flush=True)
    if wav:
        seconds = write_wav(wav, voice.stream(text), tables.narration)
        print(tables.narration.render("ferramentas.falar_escrita",
                                      {"arquivo": wav, "segundos": f"{seconds:.1f}"}), file=out)
        return 0
    try:
        speakers = Speakers(tables.narration)
    except (ImportError, OSError) as error:
        print(_error(tables, tables.narration.render("ferramentas.falar_sem_alto_falantes",
                                                     {"motivo": str(error)})), file=err)
        return NO_SPEAKERS
    try:
        speakers.play(voice.stream(text), threading.Event())
    except Exception as error:  # PortAudio: no output device, busy device
        print(_error(tables, tables.narration.render("ferramentas.falar_nao_tocou",
                                                     {"motivo": str(error)})), file=err)
        return NO_SPEAKERS
    return 0


def _error(tables: Tables, reason: str) -> str:
    return tables.narration.render("ferramentas.erro", {"motivo": reason})
