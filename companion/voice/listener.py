"""The listening thread: audio chunks in, commands run and utterances reported out.

Recognition runs here, on its own thread, never on a request thread: the Socket.IO handler
that receives the GM page's audio only queues it, so a command typed meanwhile never waits for
Vosk. Each closed utterance goes through the gate (wake word, mode, push-to-talk), the judge
(per-word confidence, strict reading), the session (an accepted command runs as the GM, through
the same path as the chat), and the utterance log; then `on_heard` tells the GM page.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from companion.tables.vocabulary import Command
from companion.voice.config import VoiceConfig
from companion.voice.gate import Listening, deaf, gate, push, set_mode, speaking
from companion.voice.judge import Heard, Reader, judge
from companion.voice.recognizer import Recognizer

log = logging.getLogger(__name__)

Runner = Callable[[Command, str], Any]  # session.run_command-like: (command, text) → RunResult
Notify = Callable[[dict[str, Any]], None]
PhraseSource = Callable[[], Sequence[str]]
ReaderSource = Callable[[], Reader]

_STOP = object()
_FLUSH = object()
_RESET = object()  # audio was dropped while deaf: what the recogniser holds is stale


@dataclass(frozen=True)
class VoiceStatus:
    """What the GM page and the table screen show about listening."""

    on: bool
    mode: str
    wake_word: str
    push_until: float
    notice: str
    push_seconds: float = 5.0
    toast_seconds: float = 8.0

    def to_json(self, now: float) -> dict[str, Any]:
        return {"ligada": self.on, "modo": self.mode, "palavra": self.wake_word,
                "apertar_restante": max(0.0, round(self.push_until - now, 1)),
                "aviso": self.notice, "segundos_apertar": self.push_seconds,
                "segundos_aviso": self.toast_seconds}


class Listener:
    """One recognition stream for a session, fed from any audio source."""

    def __init__(self, model: Any, config: VoiceConfig, phrases: PhraseSource,
                 reader: ReaderSource, runner: Runner | None, on_heard: Notify,
                 on_status: Notify | None = None, remember: Callable[[Heard, Any], None] |
                 None = None, clock: Callable[[], float] = time.monotonic,
                 notice: str = "", wake_phrases: bool = True) -> None:
        self._model = model
        self.config = config
        self._phrases = phrases
        self._reader = reader
        self._runner = runner
        self._on_heard = on_heard
        self._on_status = on_status
        self._remember = remember
        self._clock = clock
        self.notice = notice
        self._wake_phrases = wake_phrases  # also give Vosk each phrase after the wake word
        mode = config.initial_mode
        self._state = Listening(mode, mode if mode != "desligado" else "ativacao")  # type: ignore[arg-type]
        self._lock = threading.Lock()
        self._queue: queue.Queue[Any] = queue.Queue()
        self._grammar: tuple[str, ...] = ()
        self._source: Sequence[str] | None = None  # the list the grammar was last checked on
        self.rebuilds = 0  # how many times the recogniser's grammar was built (tests, bench)
        self._recognizer: Recognizer | None = None
        self._thread = threading.Thread(target=self._run, name="mesa-voz", daemon=True)
        self.busy = threading.Event()  # set while audio waits or is being recognised
        self._dropped = False  # audio dropped while deaf, since the last reset
        # the events of each command said by voice (its answer), for whoever says it aloud
        # (events, the command's name)
        self.on_answer: Callable[[list[dict[str, Any]], str], None] | None = None
        # a spoken command not understood or refused: why, and whether the table may hear it
        self.on_refusal: Callable[[str, bool], None] | None = None

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=5)

    def feed(self, pcm: bytes) -> None:
        """Queue audio (16 kHz mono 16-bit); never blocks the caller. While the companion
        speaks (and its echo's tail) the audio is dropped: the microphone hears the speakers."""
        if not pcm:
            return
        with self._lock:
            if deaf(self._state, self._clock()):
                self._dropped = True
                return
            dropped, self._dropped = self._dropped, False
        self.busy.set()
        if dropped:
            self._queue.put(_RESET)
        self._queue.put(bytes(pcm))

    def set_speaking(self, who: str, on: bool, tail: float = 0.0) -> None:
        """The companion started (on) or stopped speaking through `who` (the laptop, a page on
        the laptop); listening stays deaf meanwhile and `tail` seconds after."""
        with self._lock:
            self._state = speaking(self._state, who, on, self._clock(), tail)

    def deaf(self) -> bool:
        with self._lock:
            return deaf(self._state, self._clock())

    def flush(self) -> None:
        """The source ended (push-to-talk closed, a file ended): close the utterance now."""
        self.busy.set()
        self._queue.put(_FLUSH)

    def status(self) -> VoiceStatus:
        with self._lock:
            state = self._state
        return VoiceStatus(True, state.mode, self.config.wake_word, state.push_until,
                           self.notice, self.config.push_seconds, self.config.toast_seconds)

    def set_mode(self, mode: str) -> VoiceStatus:
        with self._lock:
            self._state = set_mode(self._state, mode, self.config)
        return self._changed()

    def push(self) -> VoiceStatus:
        with self._lock:
            self._state = push(self._state, self._clock(), self.config)
        return self._changed()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """For tests and benchmarks: wait until every queued chunk has been recognised."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.busy.is_set() and self._queue.empty():
                return True
            time.sleep(0.005)
        return False

    def _changed(self) -> VoiceStatus:
        status = self.status()
        if self._on_status is not None:
            self._on_status(status.to_json(self._clock()))
        return status

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            try:
                heard = self._recognise(item)
                for utterance in heard:
                    self._handle(utterance)
            except Exception:  # the listener must survive any one failure
                log.exception(self.config.narration.render("voz_erros.falha_no_reconhecimento",
                                                          {}))
            finally:
                if self._queue.empty():
                    self.busy.clear()

    def _current(self) -> Recognizer:
        """The recogniser, its phrase list brought up to date only between utterances: while
        someone speaks, the list stays (a name typed meanwhile joins it after they stop)."""
        if self._recognizer is not None and not self._recognizer.idle():
            return self._recognizer
        phrases = self._phrases()
        if self._recognizer is None or (phrases is not self._source
                                        and tuple(phrases) != self._grammar):
            self._recognizer = Recognizer(self._model, self._with_wake_word(phrases))
            self._grammar = tuple(phrases)
            self.rebuilds += 1
        self._source = phrases
        return self._recognizer

    def _with_wake_word(self, phrases: Sequence[str]) -> list[str]:
        """The phrases, each also after the wake word, and the listening commands."""
        if not self._wake_phrases:
            return list(phrases)
        wake = self.config.wake_word
        extra = [f"{wake} {p}" for p in (*self.config.stop_phrases,
                                          *self.config.listen_phrases)]
        return [*phrases, *(f"{wake} {p}" for p in phrases), *extra]

    def _recognise(self, item: Any) -> list[Any]:
        recognizer = self._current()
        if item is _RESET:
            recognizer.reset()
            return []
        if item is _FLUSH:
            heard = recognizer.finish()
            recognizer.reset()
            return heard
        return recognizer.feed(item)

    def _handle(self, utterance: Any) -> None:
        with self._lock:
            decided = gate(self._state, utterance.text, self._clock(), self.config)
            self._state = decided.state
        if decided.action in ("parar", "ouvir"):
            self._changed()
            return
        if decided.action == "ignorar":
            return
        said = replace(utterance, text=decided.text)
        verdict = judge(said, self._reader(), self.config.min_confidence,
                        self.config.narration)
        result = None
        if verdict.command is not None and self._runner is not None:
            result = self._runner(verdict.command, verdict.text)
            if not getattr(result, "ok", False):
                verdict = verdict.refused(getattr(result, "error", None) or "recusado")
            elif self.on_answer is not None:
                self.on_answer(list(getattr(result, "events", [])), verdict.command.name)
        if self._remember is not None:
            self._remember(verdict, result)
        report = verdict.to_json()
        report["aceito"] = verdict.command is not None
        report["codigo"] = verdict.outcome
        self._on_heard(report)
        self._say_refusal(verdict)

    def _say_refusal(self, verdict: Any) -> None:
        """The GM hears why a spoken command did nothing: a command the rules refused (its
        reason is the GM's: it may name what the table does not know), or one not understood
        when it was said to the companion (the wake word, push-to-talk), never table chatter
        heard in "sempre"."""
        if self.on_refusal is None or verdict.command is not None or not verdict.reason:
            return
        if verdict.outcome == "recusado":
            self.on_refusal(verdict.reason, False)
        elif self._state.mode != "sempre":
            self.on_refusal(verdict.reason, True)
