"""The laptop's speaker: one thread, one queue, each announcement said once.

`say(key, text)` only queues (it never blocks a command); the thread synthesises and plays one
text at a time, in order. A key already said or queued is refused: an announcement is spoken
once, never twice. `silence()` ("mestre, silêncio") empties the queue and stops what is being
said. `on_speaking(True/False)` tells the listener when the laptop starts and stops speaking, so
the recogniser does not hear the companion's own voice as a command.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict, deque
from typing import Any, Callable, Hashable, Iterable, Protocol

from companion.speech.voices import Audio, Voice
from companion.tables.narration import Narrator

log = logging.getLogger(__name__)
REMEMBERED = 4096  # keys kept to refuse a second saying
BLOCK_SECONDS = 0.1  # audio written at a time: how soon a silence takes effect


class Output(Protocol):
    """Where the laptop's speech goes (the speakers; a recorder in tests and benchmarks)."""

    def play(self, pieces: Iterable[Audio], stop: threading.Event) -> None:
        """Play the pieces in order; return early when `stop` is set."""
        ...


class Speakers:
    """The laptop's speakers through PortAudio (sounddevice, from the voice extra)."""

    def __init__(self, words: Narrator) -> None:
        """Raises OSError when there is nothing to play on (no PortAudio, no output device),
        its message in `words` (tables/narracao/fala_erros.yaml: the GM reads it in the Voz
        panel); the library's own words go to the log. ImportError: the voice extra is not
        installed."""
        try:
            import sounddevice
        except OSError as error:  # the PortAudio library itself is missing
            log.info("PortAudio: %s", error)
            raise OSError(words.render("fala_erros.sem_portaudio", {})) from None
        try:
            sounddevice.query_devices(kind="output")
        except Exception as error:  # PortAudioError: no default output device
            log.info(words.render("fala_erros.sem_saida_de_som_registro", {"erro": str(error)}))
            raise OSError(words.render("fala_erros.sem_saida_de_som", {})) from None
        self._sd = sounddevice

    def play(self, pieces: Iterable[Audio], stop: threading.Event) -> None:
        stream: Any = None
        try:
            for piece in pieces:
                if stop.is_set():
                    return
                if stream is None:
                    stream = self._sd.RawOutputStream(samplerate=piece.rate, channels=1,
                                                      dtype="int16")
                    stream.start()
                    block = int(piece.rate * BLOCK_SECONDS) * 2
                for start in range(0, len(piece.pcm), block):
                    if stop.is_set():
                        return
                    stream.write(piece.pcm[start:start + block])
        finally:
            if stream is not None:
                stream.stop()
                stream.close()


_STOP = object()


class Speaker:
    """The laptop's queue of things to say (its log lines in `words`,
    tables/narracao/fala_erros.yaml)."""

    def __init__(self, voice: Voice, output: Output, words: Narrator,
                 on_speaking: Callable[[bool], None] | None = None) -> None:
        self.voice = voice
        self._output = output
        self._words = words
        self._on_speaking = on_speaking
        self._queue: queue.Queue[Any] = queue.Queue()
        self._known: OrderedDict[Hashable, None] = OrderedDict()
        self.said: deque[str] = deque(maxlen=100)  # the latest texts begun (tests, benches)
        self._lock = threading.Lock()
        self._stop_now = threading.Event()
        self._generation = 0  # a silence makes everything queued before it stale
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._run, name="mesa-fala", daemon=True)
        self._thread.start()

    def say(self, key: Hashable, text: str) -> bool:
        """Queue a text under its key; False when that key was already said or queued."""
        text = " ".join(text.split())
        with self._lock:
            if key in self._known or not text:
                return False
            self._known[key] = None
            while len(self._known) > REMEMBERED:
                self._known.popitem(last=False)
            self._idle.clear()
            self._queue.put((self._generation, text))
        return True

    def silence(self) -> None:
        """Stop what is being said and drop what waits."""
        with self._lock:
            self._generation += 1
            self._stop_now.set()
            while True:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break
            self._queue.put(None)  # wakes the thread to notice it is idle

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """For tests and benchmarks: wait until nothing is queued or being said."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self.silence()
        self._queue.put(_STOP)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            if item is not None:
                generation, text = item
                self._speak(generation, text)
            with self._lock:
                if self._queue.empty():
                    self._idle.set()

    def _speak(self, generation: int, text: str) -> None:
        with self._lock:
            if generation != self._generation:
                return  # silenced after it was queued
            self._stop_now.clear()
            self.said.append(text)
        self._tell(True)
        try:
            self._output.play(self.voice.stream(text), self._stop_now)
        except Exception:  # the speaker must survive a bad text or a lost sound card
            log.exception(self._words.render("fala_erros.falha_ao_falar", {"texto": repr(text)}))
        finally:
            self._tell(False)

    def _tell(self, speaking: bool) -> None:
        if self._on_speaking is not None:
            try:
                self._on_speaking(speaking)
            except Exception:
                log.exception(self._words.render("fala_erros.falha_ao_avisar",
                                                 {"comecou": speaking}))


class Recorder:
    """An Output that keeps what it was given (tests, benchmarks, `serve` without speakers
    never uses it): each text's pieces and the time its first sample arrived."""

    def __init__(self, seconds_per_piece: float = 0.0) -> None:
        self.played: list[list[Audio]] = []
        self.first_sample_at: list[float] = []
        self._delay = seconds_per_piece

    def play(self, pieces: Iterable[Audio], stop: threading.Event) -> None:
        kept: list[Audio] = []
        self.played.append(kept)
        for piece in pieces:
            if not kept:
                self.first_sample_at.append(time.perf_counter())
            kept.append(piece)
            if self._delay and stop.wait(self._delay):
                return
