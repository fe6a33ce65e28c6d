"""One command's own cost in process, for this checkout ("novo") beside another ("antes"), in
one run (issue 33 item 4: what Mesa pays beyond the durable floor).

Each version runs in its own Python process (`PYTHONPATH` = its checkout) holding a Session on
a real SQLite file (WAL, synchronous=FULL) in a temporary folder, playing bench/historia.py's
typical evening (travel, a dungeon, free and secret rolls, the answers to the prompts). The
orchestrator asks them for rounds of commands in turn (antes, novo, then novo, antes…) so that
a busy moment of this shared machine falls on both alike, and prints each version's median and
p90 of `Session.run` per command, its CPU time (the thread's: what this machine's load and the
disk's fsync do not change much), the median of one bare durable commit timed right after each
command (the floor), the command minus that floor, and novo ÷ antes. Nothing asserts a time.

    .venv/bin/python bench/perfil.py --antes /tmp/perf-base [--rodadas 20] [--comandos 40]
                                     [--so "rolar 1d20"]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def worker(count: int, only: str | None) -> None:
    """Runs in a version's process: a Session, then `count` timed commands per line read."""
    sys.path.insert(0, str(ROOT / "bench"))
    import historia  # noqa: PLC0415 (bench/historia.py: the mix, the player, the floor)
    from companion.session import Session  # noqa: PLC0415
    where = Path(tempfile.mkdtemp(prefix="perfil-"))
    session = Session.open(where / "comandos.db", historia.SEED, historia._rules())
    player = historia.Player(session, "tipica")
    player.setup()
    for _ in range(len(historia.MIX)):
        player.step(False)
    player.floor = historia.Floor(where / "chao.db")
    cpu: list[float] = []
    run = session.run

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return run(*args, **kwargs)
        finally:
            cpu.append(time.thread_time() - began)

    session.run = timed  # type: ignore[method-assign]
    for _line in sys.stdin:
        player.times.clear()
        player.floor_times.clear()
        cpu.clear()
        for _ in range(count):
            if only:
                player.run(only, True)
            else:
                player.step(True)
        print(json.dumps({"run": player.times, "floor": player.floor_times, "cpu": cpu}),
              flush=True)
    session.close()
    player.floor.close()


def start(checkout: Path, count: int, only: str | None) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    return subprocess.Popen([sys.executable, __file__, "--trabalhador", str(count)]
                            + (["--so", only] if only else []),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                            cwd=checkout)


def ask(process: subprocess.Popen[str]) -> dict[str, list[float]]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--antes", type=Path, required=False)
    parser.add_argument("--rodadas", type=int, default=20)
    parser.add_argument("--comandos", type=int, default=40)
    parser.add_argument("--so", help="only this command, each time (e.g. 'rolar 1d20', the one "
                        "bench/live.py times), instead of the evening's mix")
    parser.add_argument("--trabalhador", type=int)
    options = parser.parse_args()
    if options.trabalhador:
        worker(options.trabalhador, options.so)
        return
    versions = {"novo": ROOT} | ({"antes": options.antes} if options.antes else {})
    processes = {name: start(path, options.comandos, options.so) for name, path in versions.items()}
    times: dict[str, dict[str, list[float]]] = {n: {"run": [], "floor": [], "cpu": []} for n in versions}
    order = list(versions)
    for round_ in range(options.rodadas):
        for name in (order if round_ % 2 else order[::-1]):
            got = ask(processes[name])
            times[name]["run"] += got["run"]
            times[name]["floor"] += got["floor"]
            times[name]["cpu"] += got["cpu"]
    for process in processes.values():
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=60)
    medians = {}
    for name, got in times.items():
        run = [t * 1e6 for t in got["run"]]
        floor = [t * 1e6 for t in got["floor"]]
        own = [r - f for r, f in zip(run, floor)]
        cpu = [t * 1e6 for t in got["cpu"]]
        medians[name] = (statistics.median(run), statistics.median(own), statistics.median(cpu),
                         statistics.mean(cpu))
        print(f"{name:6} n={len(run)} command p50 {statistics.median(run):8.0f} µs  "
              f"p90 {pct(run, 90):8.0f}  floor commit p50 {statistics.median(floor):7.0f}  "
              f"command − floor p50 {statistics.median(own):7.0f} µs  "
              f"CPU p50 {statistics.median(cpu):6.0f} mean {statistics.mean(cpu):6.0f} µs")
    if "antes" in medians:
        print(f"novo ÷ antes: command p50 {medians['novo'][0] / medians['antes'][0]:.3f}, "
              f"command − floor p50 {medians['novo'][1] / medians['antes'][1]:.3f}, "
              f"CPU p50 {medians['novo'][2] / medians['antes'][2]:.3f}, "
              f"CPU mean {medians['novo'][3] / medians['antes'][3]:.3f}")


if __name__ == "__main__":
    main()
