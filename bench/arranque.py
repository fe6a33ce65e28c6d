"""Process start: how long `python -m companion --help`, a command that loads the rules
(`companion parse ajuda`) and `mesa` to its first served page take, beside the interpreter's
own start (`python -c pass`) measured in the same run, the runs interleaved.

With `--antes PATH` every figure also runs the code of another checkout (e.g. the commit before
a change, `git archive 18448ed | tar -x -C /tmp/antes`), interleaved with this one's: each row
then says this checkout's median as a multiple of that one's.

    .venv/bin/python bench/arranque.py [--vezes 7] [--antes CAMINHO]
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
WAIT = 60.0  # seconds a server has to serve its first page


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(checkout: Path) -> dict[str, str]:
    """The code of `checkout` first on the path (its tables with it)."""
    return dict(os.environ, PYTHONPATH=str(checkout), PYTHONDONTWRITEBYTECODE="",
                COMPANION_TABLES=str(checkout / "tables"))


def timed_run(argv: list[str], checkout: Path) -> float:
    """Seconds from start to exit of a process running `checkout`'s code."""
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=checkout, env=environment(checkout), stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
    took = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{argv} saiu com {done.returncode}: {done.stderr[-500:]!r}")
    return took


def first_page(checkout: Path, folder: Path) -> float:
    """Seconds from starting `mesa` (a fresh campaign file) to its first page served."""
    import urllib.error
    import urllib.request

    port = free_port()
    db = folder / f"mesa-{port}.db"
    argv = [sys.executable, "-m", "companion.cli.mesa", "--db", str(db), "--host", "127.0.0.1",
            "--port", str(port), "--seed", "1", "--sem-limites"]
    began = time.perf_counter()
    process = subprocess.Popen(argv, cwd=checkout, env=environment(checkout),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/jogador", timeout=1) as page:
                    if page.status == 200:
                        return time.perf_counter() - began
            except (urllib.error.URLError, ConnectionError, OSError):
                if process.poll() is not None:
                    raise RuntimeError(f"mesa saiu com {process.returncode}") from None
                time.sleep(0.005)
        raise RuntimeError(f"mesa não serviu a primeira página em {WAIT:.0f} s")
    finally:
        process.kill()
        process.wait(timeout=10)


def rows(folder: Path) -> dict[str, Callable[[Path], float]]:
    python = sys.executable
    return {
        "python -c pass (o chão)": lambda c: timed_run([python, "-c", "pass"], c),
        "companion --help": lambda c: timed_run([python, "-m", "companion", "--help"], c),
        "companion parse ajuda (carrega as regras)":
            lambda c: timed_run([python, "-m", "companion", "parse", "ajuda"], c),
        "mesa até a primeira página": lambda c: first_page(c, folder),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vezes", type=int, default=7, help="medições de cada linha")
    parser.add_argument("--antes", type=Path, default=None, help="outra cópia do código")
    args = parser.parse_args()
    checkouts = [ROOT] + ([args.antes.resolve()] if args.antes else [])
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'':44} {'mediana':>9} {'mín':>8} {'máx':>8}"
              + (f" {'÷ antes':>8}" if args.antes else ""))
        for name, measure in rows(Path(folder)).items():
            for checkout in checkouts:  # a warm-up each (bytecode, the tables' cache)
                measure(checkout)
            times: dict[Path, list[float]] = {c: [] for c in checkouts}
            for _ in range(args.vezes):
                for checkout in checkouts:
                    times[checkout].append(measure(checkout))
            ours = times[ROOT]
            line = (f"{name:44} {statistics.median(ours):8.3f}s {min(ours):7.3f}s "
                    f"{max(ours):7.3f}s")
            if args.antes:
                before = times[checkouts[1]]
                ratios = [a / b for a, b in zip(ours, before)]
                line += f" {statistics.median(ratios):7.2f}×"
                line += (f"   (antes: mediana {statistics.median(before):.3f}s)")
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
