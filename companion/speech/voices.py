"""The laptop's voices: Piper (a pt_BR voice in models/, the optional `fala` extra) or espeak-ng.

A voice turns a text into 16-bit mono PCM, a piece at a time (`stream`), so playing can start
before the whole text is synthesised: espeak-ng writes as it goes, Piper one sentence at a time.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol

from companion.tables import places
from companion.tables.errors import CompanionError
from companion.tables.narration import Narrator
from companion.speech.speech_config import SpeechConfig

MODELS_DIR = places.models_folder()
WAV_HEADER = 44  # espeak-ng --stdout: a canonical RIFF header, then the samples
READ_BYTES = 2048  # ~46 ms of 22 kHz audio per piece read from espeak-ng


class SpeechUnavailable(CompanionError):
    """No voice can speak here (message in Portuguese: what is missing and how to get it)."""


@dataclass(frozen=True)
class Audio:
    """A piece of speech: 16-bit mono PCM at `rate` samples per second."""

    rate: int
    pcm: bytes


class Voice(Protocol):
    name: str

    def stream(self, text: str) -> Iterator[Audio]:
        """The text's speech, piece by piece (closing the iterator stops the synthesis)."""
        ...


# Where espeak-ng's installers put it when it is not on PATH (the Windows .msi never adds it).
ESPEAK_FOLDERS: dict[str, tuple[str, ...]] = {
    "win32": ("{ProgramFiles}\\eSpeak NG", "{ProgramFiles(x86)}\\eSpeak NG",
              "{ProgramW6432}\\eSpeak NG"),
    "darwin": ("/opt/homebrew/bin", "/usr/local/bin", "/opt/local/bin"),
}


def find_espeak(platform: str = sys.platform, env: Mapping[str, str] = os.environ,
                which: Callable[[str], str | None] = shutil.which,
                is_file: Callable[[str], bool] = os.path.isfile) -> str | None:
    """espeak-ng's program: on PATH, else in its installers' standard folders."""
    found = which("espeak-ng")
    if found:
        return found
    program = "espeak-ng.exe" if platform == "win32" else "espeak-ng"
    for folder in ESPEAK_FOLDERS.get(platform, ()):
        try:
            place = folder.format_map(env)
        except KeyError:  # that variable is not set on this machine
            continue
        separator = "\\" if platform == "win32" else "/"
        candidate = f"{place}{separator}{program}"
        if is_file(candidate):
            return candidate
    return None


class Espeak:
    """espeak-ng's voice, run once per text."""

    def __init__(self, voice: str, rate: int, narration: Narrator,
                 binary: str | None = None) -> None:
        found = binary or find_espeak()
        if not found:
            how = narration.render("fala_erros.instalar_espeak", {"plataforma": sys.platform})
            raise SpeechUnavailable(narration.render("fala_erros.sem_espeak", {"como": how}))
        self.narration = narration
        self.binary = found
        self.voice = voice
        self.rate = rate
        self.name = f"espeak-ng {voice}"

    def stream(self, text: str) -> Iterator[Audio]:
        process = subprocess.Popen(
            [self.binary, "-v", self.voice, "-s", str(self.rate), "--stdout"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(text.encode("utf-8"))
            process.stdin.close()
            header = _read_exactly(process.stdout, WAV_HEADER)
            if len(header) < WAV_HEADER:
                problem = process.stderr.read().decode("utf-8", "replace").strip() \
                    if process.stderr else ""
                raise SpeechUnavailable(self.narration.render(
                    "fala_erros.espeak_calado", {"problema": problem, "voz": self.voice}))
            rate = int.from_bytes(header[24:28], "little")
            while True:
                piece = process.stdout.read1(READ_BYTES)  # type: ignore[attr-defined]
                if not piece:
                    break
                yield Audio(rate, piece)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()


def _read_exactly(stream: Any, size: int) -> bytes:
    data = b""
    while len(data) < size:
        piece = stream.read(size - len(data))
        if not piece:
            break
        data += piece
    return data


class Piper:
    """A Piper voice (`piper-tts`): an .onnx model and its .onnx.json beside it."""

    def __init__(self, model: Path, narration: Narrator) -> None:
        try:
            from piper import PiperVoice  # the optional `fala` extra
        except ImportError:
            raise SpeechUnavailable(narration.render("fala_erros.sem_piper", {})) from None
        self.name = f"Piper {model.stem}"
        self._voice = PiperVoice.load(str(model))

    def stream(self, text: str) -> Iterator[Audio]:
        for chunk in self._voice.synthesize(text):
            yield Audio(chunk.sample_rate, chunk.audio_int16_bytes)


def piper_model(config: SpeechConfig, folder: Path = MODELS_DIR) -> Path | None:
    """The Piper voice in the GM's models folder (or a checkout's models/), when both of its
    files are there."""
    for place in dict.fromkeys((folder, places.checkout_models_folder())):
        model = place / f"{config.piper_voice}.onnx"
        if model.is_file() and Path(f"{model}.json").is_file():
            return model
    return None


def choose_voice(config: SpeechConfig, folder: Path = MODELS_DIR) -> tuple[Voice, str]:
    """The configured voice and a line saying which it is (and, with espeak-ng, how to get
    Piper's). Raises SpeechUnavailable when not even espeak-ng is there."""
    model = piper_model(config, folder)
    said = config.narration
    why = said.render("fala_erros.sem_voz_piper", {"voz": config.piper_voice})
    if model is not None:
        try:
            voice = Piper(model, said)
            return voice, f"fala: {voice.name}"
        except SpeechUnavailable as error:
            why = error.message
        except Exception as error:  # a broken model file: say so, speak with espeak-ng
            why = said.render("fala_erros.piper_nao_abriu", {
                "modelo": str(model), "tipo": type(error).__name__, "erro": str(error)})
    espeak = Espeak(config.espeak_voice, config.espeak_rate, said)
    return espeak, f"fala: {espeak.name} ({why})"


def write_wav(path: str | Path, pieces: Iterable[Audio], narration: Narrator) -> float:
    """Write the speech to a WAV file; its length in seconds."""
    frames = 0
    writer: wave.Wave_write | None = None
    try:
        for piece in pieces:
            if writer is None:
                writer = wave.open(str(path), "wb")
                writer.setnchannels(1)
                writer.setsampwidth(2)
                writer.setframerate(piece.rate)
                rate = piece.rate
            writer.writeframes(piece.pcm)
            frames += len(piece.pcm) // 2
    except OSError as error:
        raise CompanionError(narration.render("fala_erros.nao_escreveu", {
            "arquivo": str(path), "erro": error.strerror})) from None
    finally:
        if writer is not None:
            writer.close()
    if writer is None:
        raise SpeechUnavailable(narration.render("fala_erros.sem_som", {}))
    return frames / rate
