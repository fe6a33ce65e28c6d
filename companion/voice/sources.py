"""Audio sources: a WAV file (tests, recorded sessions) and the laptop's microphone."""
from __future__ import annotations

import threading
import wave
from pathlib import Path
from typing import Any, Callable, Iterator

from companion.tables.narration import Narrator
from companion.voice.recognizer import SAMPLE_RATE, VoiceUnavailable

CHUNK_FRAMES = 4000  # a quarter of a second at 16 kHz


class AudioError(Exception):
    """The audio cannot be read as 16 kHz mono 16-bit PCM (message in Portuguese)."""


def wav_chunks(path: str | Path, narration: Narrator,
               frames: int = CHUNK_FRAMES) -> Iterator[bytes]:
    """The PCM of a 16 kHz mono 16-bit WAV file, a chunk at a time; AudioError says why not
    (`narration`: tables/narracao/voz_erros.yaml)."""
    try:
        reader = wave.open(str(path), "rb")
    except FileNotFoundError:
        raise AudioError(narration.render("voz_erros.wav_nao_encontrado",
                                          {"arquivo": str(path)})) from None
    except (wave.Error, EOFError, OSError) as error:
        raise AudioError(narration.render("voz_erros.wav_ilegivel",
                                          {"arquivo": str(path), "erro": str(error)})) from None
    with reader:
        shape = (reader.getframerate(), reader.getnchannels(), reader.getsampwidth())
        if shape != (SAMPLE_RATE, 1, 2):
            raise AudioError(narration.render("voz_erros.wav_formato", {
                "arquivo": str(path), "hz": shape[0], "canais": shape[1], "bits": 8 * shape[2]}))
        while True:
            data = reader.readframes(frames)
            if not data:
                return
            yield data


class Microphone:
    """The laptop's microphone through PortAudio (sounddevice), chunks to a callback; its
    refusals are said with `narration` (tables/narracao/voz_erros.yaml)."""

    def __init__(self, on_chunk: Callable[[bytes], None], narration: Narrator,
                 frames: int = CHUNK_FRAMES) -> None:
        self._words = narration
        try:
            import sounddevice
        except (ImportError, OSError) as error:
            raise VoiceUnavailable(narration.render("voz_erros.sem_sounddevice", {
                "erro": str(error)})) from None
        self._sd = sounddevice
        self._on_chunk = on_chunk
        self._frames = frames
        self._stream: Any = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._stream is not None:
                return
            try:
                self._stream = self._sd.RawInputStream(
                    samplerate=SAMPLE_RATE, blocksize=self._frames, channels=1,
                    dtype="int16", callback=lambda data, *_: self._on_chunk(bytes(data)))
                self._stream.start()
            except Exception as error:  # PortAudio: no device, busy device
                self._stream = None
                raise VoiceUnavailable(self._words.render("voz_erros.microfone_nao_abriu", {
                    "erro": str(error)})) from None

    def stop(self) -> None:
        with self._lock:
            if self._stream is not None:
                self._stream.stop()
                self._stream.close()
                self._stream = None
