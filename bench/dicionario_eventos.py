"""The preset dictionary an event's data and words are packed with (companion/store/event_json.py),
made once from evenings the tests already play, and what it saves, measured.

A dictionary is frozen the day it ships: every campaign packed with it needs the same bytes to
be read again, so this never overwrites one. Run with `--novo` to write the next number
(companion/store/eventos-N.zdict) and give it to event_json.DICTIONARIES with its SHA-256.
Without `--novo` it only measures: the events of bench/historia.py's typical evening (a script
the dictionary was not made from) as JSON, as zlib alone, and with each shipped dictionary.

The corpus: every script of tests/golden/scripts/ played with seeds 1 to SEEDS, each event's data
and words as stored. The dictionary holds the most used whole values (count × length), the most
used last (zlib finds the nearest match cheapest), up to zlib's 32 KB window.

    .venv/bin/python bench/dicionario_eventos.py [--novo]
"""
from __future__ import annotations

import argparse
import hashlib
import io
import sqlite3
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.cli.shell import run_shell  # noqa: E402
from companion.rules.loader import load_rules  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import event_json  # noqa: E402

SEEDS = 40
WINDOW = 32 * 1024  # zlib's largest window: what a preset dictionary can reach
SCRIPTS = ROOT / "tests" / "golden" / "scripts"
FOLDER = ROOT / "companion" / "store"


def script_lines(path: Path) -> list[str]:
    """A golden script's commands (its `#` lines, the seed's among them, are not)."""
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")]


def stored_values(path: Path) -> list[str]:
    """Every event's data and words in the log at path, as JSON text."""
    raw = sqlite3.connect(path)
    try:
        rows = raw.execute("SELECT data, words FROM events ORDER BY seq").fetchall()
    finally:
        raw.close()
    return [event_json.text(value) for row in rows for value in row if value is not None]


def corpus(folder: Path) -> list[str]:
    """The data and words of every golden script played with seeds 1..SEEDS."""
    tables = load_rules()
    found: list[str] = []
    for seed in range(1, SEEDS + 1):
        for script in sorted(SCRIPTS.glob("*.txt")):
            path = folder / f"{script.stem}-{seed}.db"
            session = Session.open(path, seed, tables)
            run_shell(session, script_lines(script), io.StringIO(), as_json=True)
            session.close()
            found += stored_values(path)
    return found


def dictionary(values: list[str]) -> bytes:
    """The most used whole values, by count × length, the most used at the end."""
    counted = Counter(values)
    chosen: list[bytes] = []
    size = 0
    for value, count in sorted(counted.items(), key=lambda item: -item[1] * len(item[0])):
        raw = value.encode()
        if size + len(raw) <= WINDOW:
            chosen.append(raw)
            size += len(raw)
    return b"".join(reversed(chosen))


def typical_evening(folder: Path) -> list[str]:
    """The data and words of bench/historia.py's typical evening, 2,000 commands."""
    import historia
    path = folder / "tipica.db"
    historia.task_build(str(path), 2000, "tipica", 1000, 0)
    return stored_values(path)


def packed_size(values: list[str], number: int | None) -> int:
    """Bytes the values take as stored: JSON, zlib alone (None) or packed with a dictionary."""
    total = 0
    for value in values:
        raw = value.encode()
        if number is None:
            total += min(len(raw), len(zlib.compress(raw, 9)) + 1)
        else:
            packed = event_json.pack(value, number)
            total += len(packed.encode() if isinstance(packed, str) else packed)
    return total


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--novo", action="store_true",
                         help="escreve o próximo dicionário (companion/store/eventos-N.zdict)")
    args = options.parse_args()
    with tempfile.TemporaryDirectory(prefix="mesa-dicionario-") as tmp:
        if args.novo:
            number = max(event_json.DICTIONARIES, default=0) + 1
            made = dictionary(corpus(Path(tmp)))
            target = FOLDER / f"eventos-{number}.zdict"
            if target.exists():
                sys.exit(f"{target} já existe: um dicionário entregue nunca é reescrito")
            target.write_bytes(made)
            print(f"{target.name}: {len(made)} bytes, sha256 {hashlib.sha256(made).hexdigest()}")
            print(f"acrescente a event_json.DICTIONARIES: {number}: "
                  f"(\"{target.name}\", \"{hashlib.sha256(made).hexdigest()}\")")
            return
        values = typical_evening(Path(tmp))
    plain = packed_size(values, None) if values else 0
    raw = sum(len(value.encode()) for value in values)
    print(f"dados e palavras dos eventos de uma noite típica (bench/historia.py, 2.000 comandos, "
          f"{len(values)} valores)")
    print(f"  JSON como antes            {raw / 2000:7.1f} bytes por comando")
    print(f"  zlib sozinho               {plain / 2000:7.1f} bytes por comando")
    for number in sorted(event_json.DICTIONARIES):
        size = packed_size(values, number)
        print(f"  com o dicionário {number}         {size / 2000:7.1f} bytes por comando "
              f"({size / raw:.0%} do JSON)")


if __name__ == "__main__":
    main()
