"""Listening modes and the wake word, as a pure step: (mode, text, now) → what to do.

Modes: "ativacao" (a command must start with the wake word: "mestre, avançar"), "apertar"
(only while the push-to-talk window is open), "sempre" (a quiet table: everything heard is
read), "desligado" (nothing is read except the wake word followed by "ouvir").
"mestre, pare de ouvir" switches listening off, "mestre, ouvir" switches it back on (to the
mode it had), in every mode.

While the companion speaks (the laptop's speakers, or a page on the laptop) and for a short
tail after it (the room's echo), listening is deaf: nothing heard is read, so the recogniser
never takes the companion's own voice for a command (`speaking`, `deaf`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from companion.commands.normalize import fold
from companion.voice.config import VoiceConfig

Mode = Literal["ativacao", "apertar", "sempre", "desligado"]
Action = Literal["ler", "ignorar", "parar", "ouvir"]


@dataclass(frozen=True)
class Listening:
    """The listener's state: its mode, the mode to go back to, the push-to-talk window."""

    mode: Mode = "ativacao"
    resume: Mode = "ativacao"
    push_until: float = 0.0
    speakers: frozenset[str] = frozenset()  # who is speaking now (the laptop, a page)
    deaf_until: float = 0.0  # the echo's tail after the last of them stopped


@dataclass(frozen=True)
class Gate:
    """What to do with one utterance, and the text left to read (wake word removed)."""

    action: Action
    text: str
    state: Listening


def _words(text: str) -> list[str]:
    return " ".join(fold(text).replace(",", " ").split()).split()


def _strip_wake(words: list[str], wake: str) -> list[str] | None:
    size = len(wake.split())
    if words[:size] == wake.split():
        return words[size:]
    return None


def speaking(state: Listening, who: str, on: bool, now: float, tail: float) -> Listening:
    """`who` started (on) or stopped speaking at `now`; stopping leaves `tail` seconds deaf."""
    if on:
        return replace(state, speakers=state.speakers | {who})
    if who not in state.speakers:
        return state
    return replace(state, speakers=state.speakers - {who},
                   deaf_until=max(state.deaf_until, now + tail))


def deaf(state: Listening, now: float) -> bool:
    """Whether listening is deaf at `now`: the companion speaks, or its echo has not died."""
    return bool(state.speakers) or now < state.deaf_until


def gate(state: Listening, text: str, now: float, config: VoiceConfig) -> Gate:
    """Decide for one utterance heard at `now` (seconds, any monotonic clock)."""
    if deaf(state, now):
        return Gate("ignorar", "", state)  # the companion's own voice, or its echo
    words = _words(text)
    rest = _strip_wake(words, config.wake_word)
    said = " ".join(rest) if rest is not None else ""
    if rest is not None and said in config.stop_phrases:
        resume = state.mode if state.mode != "desligado" else state.resume
        return Gate("parar", "", Listening("desligado", resume, 0.0))
    if rest is not None and said in config.listen_phrases:
        mode = state.resume if state.mode == "desligado" else state.mode
        return Gate("ouvir", "", replace(state, mode=mode))
    original = " ".join(text.replace(",", " ").split())
    kept = " ".join(original.split()[len(config.wake_word.split()):]) if rest is not None \
        else ""
    if state.mode == "desligado":
        return Gate("ignorar", "", state)
    if state.mode == "apertar":
        if now <= state.push_until:
            return Gate("ler", kept or original, state)
        return Gate("ignorar", "", state)
    if state.mode == "sempre":
        return Gate("ler", kept or original, state)
    if rest is None or not rest:
        return Gate("ignorar", "", state)  # no wake word: table talk
    return Gate("ler", kept, state)


def push(state: Listening, now: float, config: VoiceConfig) -> Listening:
    """The GM pressed "Falar": the microphone is read for the next few seconds."""
    return replace(state, push_until=now + config.push_seconds)


def set_mode(state: Listening, mode: str, config: VoiceConfig) -> Listening:
    """Listen in another mode; an unknown one is a ValueError saying which are accepted."""
    modes = ("ativacao", "apertar", "sempre", "desligado")
    if mode not in modes:
        raise ValueError(config.narration.render("voz_erros.modo_desconhecido",
                                                 {"modo": mode, "modos": modes}))
    resume = state.resume if mode == "desligado" else mode  # type: ignore[assignment]
    return replace(state, mode=mode, resume=resume)  # type: ignore[arg-type]
