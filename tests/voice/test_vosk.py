"""Real Vosk with a real model: the language-independent adapter on the Korean test model."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.voice.judge import ACCEPTED, judge, phrase_reader
from companion.voice.recognizer import (Recognizer, VoiceUnavailable, load_model,
                                        unknown_line, unknown_words)
from companion.voice.sources import AudioError, wav_chunks
from tests.voice_helpers import (NARRATION, KOREAN_LIST, KOREAN_PHRASES, join_wavs, korean_model,
                                 same_hearing, speak)

ROOT = Path(__file__).resolve().parents[2]


def _threshold() -> float:
    from companion.rules.loader import load_rules
    from companion.voice.config import voice_config

    return voice_config(load_rules()).min_confidence


THRESHOLD = _threshold()  # the configured one (tables/voz.yaml), as `companion ouvir` uses


@pytest.fixture(scope="module")
def audio(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ko")
    said = {text: speak(text, "ko", folder / f"{i}.wav") for i, text in
            enumerate([*KOREAN_PHRASES, "사랑해요", "맛있어요"])}
    said["ambas"] = join_wavs([said[t] for t in KOREAN_PHRASES], folder / "ambas.wav")
    return said


def _hear(model: object, path: Path, phrases: list[str] = KOREAN_LIST) -> list[dict]:
    recognizer = Recognizer(model, phrases)
    reader = phrase_reader(phrases, NARRATION)
    out = []
    for chunk in [*wav_chunks(path, NARRATION), b""]:
        for utterance in (recognizer.feed(chunk) if chunk else recognizer.finish()):
            out.append(judge(utterance, reader, THRESHOLD, NARRATION).to_json())
    return out


@pytest.mark.parametrize("index", range(len(KOREAN_PHRASES)))
def test_each_phrase_is_heard(ko_model: object, audio: dict[str, Path], index: int) -> None:
    text = KOREAN_PHRASES[index]
    heard = _hear(ko_model, audio[text])
    assert [h["ouvi"] for h in heard] == [text]
    assert heard[0]["motivo"] == ACCEPTED and heard[0]["confianca"] >= THRESHOLD
    assert heard[0]["comando"] == {"command": "frase", "args": {"texto": text}}


def test_two_utterances_in_one_file(ko_model: object, audio: dict[str, Path]) -> None:
    assert [h["ouvi"] for h in _hear(ko_model, audio["ambas"])] == KOREAN_PHRASES


def test_speech_outside_the_list_runs_nothing(ko_model: object, audio: dict[str, Path]) -> None:
    heard = _hear(ko_model, audio["맛있어요"])  # "delicious": heard as some words of the list
    assert heard and all(h["comando"] is None for h in heard)
    assert all(h["ouvi"] not in KOREAN_LIST for h in heard)


def test_low_confidence_is_refused(ko_model: object, audio: dict[str, Path]) -> None:
    # a word the list lacks is forced onto the nearest phrase, with a low confidence
    heard = _hear(ko_model, audio["사랑해요"])
    assert heard and all(h["comando"] is None for h in heard)
    assert any("confiança baixa" in h["motivo"] for h in heard)


def test_unknown_words_are_reported(ko_model: object) -> None:
    missing = unknown_words(ko_model, ["안녕하세요", "palavrainexistente", "[unk]"])
    assert missing == ["palavrainexistente"]
    line = unknown_line(missing, NARRATION)
    assert line and "palavrainexistente" in line
    assert unknown_line([], NARRATION) is None


def test_a_long_list_of_unknown_words_names_twenty_and_counts_the_rest() -> None:
    words = [f"palavra{index:02d}" for index in range(23)]
    assert unknown_line(words, NARRATION) == (
        "voz: 23 palavra(s) das frases não existem no modelo e não serão ouvidas: "
        + ", ".join(words[:20]) + " e mais 3")
    assert unknown_line(words[:2], NARRATION) == (
        "voz: 2 palavra(s) das frases não existem no modelo e não serão ouvidas: "
        "palavra00, palavra01")


def test_not_a_model_folder(tmp_path: Path) -> None:
    with pytest.raises(VoiceUnavailable) as error:
        load_model(tmp_path, NARRATION)
    assert "faltam am/ e conf/" in error.value.message and "mesa modelo" in error.value.message


def test_wav_must_be_16k_mono(tmp_path: Path, audio: dict[str, Path]) -> None:
    wrong = tmp_path / "44k.wav"
    subprocess.run(["sox", str(audio[KOREAN_PHRASES[0]]), "-r", "44100", str(wrong)],
                   check=True)
    with pytest.raises(AudioError) as error:
        list(wav_chunks(wrong, NARRATION))
    assert "16000 Hz" in str(error.value)
    with pytest.raises(AudioError):
        list(wav_chunks(tmp_path / "nada.wav", NARRATION))


def _ouvir(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", "ouvir", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_ouvir_gives_what_the_adapter_gives(ko_model: object, audio: dict[str, Path],
                                            tmp_path: Path) -> None:
    phrases = tmp_path / "frases.txt"
    phrases.write_text("\n".join(KOREAN_LIST) + "\n", encoding="utf-8")
    for key in ("ambas", "맛있어요", "사랑해요"):
        done = _ouvir(str(audio[key]), "--modelo", str(korean_model()), "--frases",
                      str(phrases), "--json")
        assert done.returncode == 0, done.stderr
        assert same_hearing([json.loads(line) for line in done.stdout.splitlines()],
                            _hear(ko_model, audio[key]))


def test_ouvir_without_a_model_says_how(tmp_path: Path, audio: dict[str, Path]) -> None:
    done = _ouvir(str(audio[KOREAN_PHRASES[0]]), "--modelo", str(tmp_path), "--json")
    assert done.returncode == 2
    assert "faltam am/ e conf/" in done.stderr and "mesa modelo" in done.stderr
    assert done.stdout == ""
