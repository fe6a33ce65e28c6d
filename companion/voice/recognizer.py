"""The Vosk adapter: 16 kHz PCM in, utterances with per-word confidence out.

Language-independent: it knows a model and a phrase list, nothing about commands. Vosk is
imported here and only here; without it (or without a model) `VoiceUnavailable` says, in
Portuguese (tables/narracao/voz_erros.yaml), how to turn voice on.
"""
from __future__ import annotations

import ctypes
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from companion.tables.errors import CompanionError
from companion.tables.narration import Narrator

SAMPLE_RATE = 16000
UNK = "[unk]"


class VoiceUnavailable(CompanionError):
    """Voice cannot run here: no vosk installed, no model, a broken model."""


@dataclass(frozen=True)
class Word:
    text: str
    confidence: float
    start: float
    end: float


@dataclass(frozen=True)
class Utterance:
    """One stretch of speech the recogniser closed (its endpointer heard the silence)."""

    text: str
    words: tuple[Word, ...]

    @property
    def confidence(self) -> float:
        """The least sure word: a command is only as sure as its weakest word."""
        return min((w.confidence for w in self.words), default=0.0)

    @property
    def end(self) -> float:
        return self.words[-1].end if self.words else 0.0


def _how_to(narration: Narrator) -> str:
    return narration.render("voz_erros.como_instalar", {})


def _vosk() -> Any:
    import vosk
    vosk.SetLogLevel(-2)  # Kaldi's own log is noise at the table; we report what matters
    return vosk


def _vosk_or_why(narration: Narrator) -> Any:
    """The vosk package, or VoiceUnavailable saying how to install it."""
    try:
        return _vosk()
    except (ImportError, OSError) as error:
        raise VoiceUnavailable(narration.render("voz_erros.sem_vosk", {
            "erro": str(error), "como": _how_to(narration)})) from None


def missing_vosk(narration: Narrator) -> str | None:
    """Why voice is off when the vosk package is not installed (looked for, not imported: no
    start-up cost), said before a missing model; None when it is there."""
    if importlib.util.find_spec("vosk") is not None:
        return None
    return narration.render("voz_erros.sem_vosk", {"erro": "vosk", "como": _how_to(narration)})


def _short_path(path: str) -> str:
    """Windows' short (8.3) form of an existing path, ASCII when the volume keeps 8.3 names;
    the path itself when there is none."""
    get = ctypes.windll.kernel32.GetShortPathNameW  # type: ignore[attr-defined]
    get.argtypes = [ctypes.c_wchar_p, ctypes.c_wchar_p, ctypes.c_uint32]
    get.restype = ctypes.c_uint32
    size = get(path, None, 0)
    if size == 0:
        return path
    buffer = ctypes.create_unicode_buffer(size)
    return buffer.value if get(path, buffer, size) else path


def vosk_path(folder: Path, narration: Narrator, windows: bool = os.name == "nt",
              short: Callable[[str], str] = _short_path) -> str:
    """The model folder as Vosk can open it. On Windows Vosk (Kaldi) cannot open a path with
    accents (C:\\Users\\João\\...): its short 8.3 form is used, and when the disk keeps none
    the folder is refused with a message naming an ASCII folder to move it to."""
    text = str(folder)
    if not windows or text.isascii():
        return text
    shortened = short(text)
    if shortened.isascii():
        return shortened
    ascii_place = f"C:\\MesaModelos\\{folder.name if folder.name.isascii() else 'modelo'}"
    raise VoiceUnavailable(narration.render("voz_erros.pasta_com_acentos", {
        "pasta": str(folder), "sugerida": ascii_place}))


def load_model(path: str | Path, narration: Narrator) -> Any:
    """A Vosk model from its folder (the one with am/, conf/, graph/); VoiceUnavailable says
    why not (`narration`: tables/narracao/voz_erros.yaml)."""
    folder = Path(path)
    if not (folder / "am").is_dir() or not (folder / "conf").is_dir():
        raise VoiceUnavailable(narration.render("voz_erros.nao_e_modelo", {
            "pasta": str(folder), "como": _how_to(narration)}))
    where = vosk_path(folder.resolve(), narration)
    vosk = _vosk_or_why(narration)
    try:
        return vosk.Model(where)
    except Exception as error:  # Vosk raises a bare Exception on a broken model
        raise VoiceUnavailable(narration.render("voz_erros.modelo_nao_abriu", {
            "pasta": str(folder), "erro": str(error), "como": _how_to(narration)})) from None


def unknown_words(model: Any, words: Iterable[str]) -> list[str]:
    """The phrase-list words the model's vocabulary lacks (Vosk would drop them silently)."""
    return sorted({w for w in words if w != UNK and model.vosk_model_find_word(w) < 0})


SHOWN_UNKNOWN = 20  # words of the phrase list the model lacks, named one by one


def unknown_line(unknown: Sequence[str], narration: Narrator) -> str | None:
    """One readable line for the start banner (None when every word is known)."""
    if not unknown:
        return None
    return narration.render("voz_erros.palavras_fora_do_modelo", {
        "total": len(unknown), "mostradas": ", ".join(unknown[:SHOWN_UNKNOWN]),
        "mais": max(0, len(unknown) - SHOWN_UNKNOWN)})


class Recognizer:
    """One recognition stream over a phrase list (plus [unk] for everything else)."""

    def __init__(self, model: Any, phrases: Sequence[str], sample_rate: int = SAMPLE_RATE):
        vosk = _vosk()  # the model came from load_model: the package is there
        known = [p for p in phrases if p]
        grammar = json.dumps([*known, UNK], ensure_ascii=False)
        self._recognizer = vosk.KaldiRecognizer(model, sample_rate, grammar)
        self._recognizer.SetWords(True)
        self._fed = False  # audio given since the last utterance closed

    def feed(self, pcm: bytes) -> list[Utterance]:
        """Give it audio (16-bit little-endian mono); the utterances it closed meanwhile."""
        if not pcm:
            return []
        self._fed = True
        if self._recognizer.AcceptWaveform(pcm):
            self._fed = False
            return _utterances(self._recognizer.Result())
        return []

    def idle(self) -> bool:
        """Between utterances: no audio given since the last one closed (a result, the end
        of the audio, a reset), so its grammar may change without cutting anyone off. In a
        long silence Vosk's endpointer closes an empty utterance every few seconds."""
        return not self._fed

    def finish(self) -> list[Utterance]:
        """End of the audio: whatever was still being heard."""
        self._fed = False
        return _utterances(self._recognizer.FinalResult())

    def reset(self) -> None:
        self._fed = False
        self._recognizer.Reset()


def _utterances(result: str) -> list[Utterance]:
    data = json.loads(result)
    text = " ".join(str(data.get("text", "")).split())
    if not text:
        return []
    words = tuple(Word(str(w["word"]), float(w.get("conf", 0.0)), float(w.get("start", 0.0)),
                       float(w.get("end", 0.0))) for w in data.get("result", []))
    return [Utterance(text, words)]
