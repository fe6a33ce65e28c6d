"""`./run.sh bench`: the companion beside a bare Flask-SocketIO floor, measured in one run.

Every figure is measured twice in the same run on loopback: once for the companion (a real
`companion serve --sem-limites` process on a fresh SQLite file) and once for its floor, the
least the same work could cost on this machine:

- command → event on every phone, at 10, 50 and 100 phones: three servers at once, their
  commands interleaved: the floor (`bench/floor_server.py`, a bare Flask-SocketIO server, same
  stack, same settings, that re-broadcasts one event of the same size), the durable floor (the
  same, committing each command to SQLite in WAL with synchronous=FULL before the broadcast:
  the least a server that keeps every acknowledged command pays) and Mesa; Mesa's row is a
  multiple of the durable floor (issue 33: ≤ 1.15× at the median, ≤ 1.3× at p99);
- the storm: on a campaign of 5,000 public events, 100 table screens connect at once while 4
  more reconnect in a loop; the GM's command round trip and the GM's own reconnection
  (connect → its `estado`) meanwhile, against the same storm on the floor;
- the sustained run: the same floor, the GM sending 20 commands/s with 100 phones connected;
- start-up to the first served page: the floor server's start-up;
- server memory with 10 phones: the floor server's resident memory, same phones;
- reopening a 10,000-command session: reading those rows back from SQLite (no rules run);
- a table screen's reconnection (connect → its `estado`) on campaigns of 1,000, 10,000 and
  50,000 public events: the floor server sending a welcome's worth of events
  (companion.server.welcome.WELCOME_EVENTS) in one `eventos` message, as the companion does for the pages (`"lote": true`),
  and an `estado`; it should be flat;
- durable commit p99: one bare `INSERT` + `COMMIT` in WAL with synchronous=FULL.

With `--antes PATH` the latency rows also run the code of another checkout (e.g. the commit
before a change) as a third server, its own phones, its commands interleaved with the other two:
each row gets a line for it, as a multiple of the same floor.

Then it runs bench/historia.py (stored history: a command, the file per 1,000 commands,
reopening, the report), `--curto` when this run is; `--antes PATH` puts the code of another
checkout beside it there, `--sem-historia` skips it.

    .venv/bin/python bench/live.py [--curto] [--sustentado 60] [--comandos 10000]
                                   [--antes CAMINHO] [--sem-historia] [--so-servidor]

`--so-servidor`: only the latency rows and the storm.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import logging

import requests
import socketio

logging.getLogger("engineio.client").setLevel(logging.CRITICAL)  # "packet queue is empty"

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.rules.loader import load_rules  # noqa: E402

from phones import GM, Fleet, Phone, Table, wait_quiet  # noqa: E402
from durable_log import bare_commits, long_session, read_rows, reopen  # noqa: E402
from storm import LOOPERS, STORM, STORM_EVENTS, reconnect_costs, storms  # noqa: E402
from servers import (  # noqa: E402  (bench/servers.py: shared with storm and durable_log)
    COMMAND, LATENCY_MIX, SUSTAINED_MIX, TOKEN, Server, companion, floor, running,
    pct, wait_for,
)

def latency_once(table: Table, text: str) -> list[float]:
    """Seconds from the GM's `comando` to its event on each phone, for one command."""
    marks = [len(p.events) for p in table.phones]
    began = time.perf_counter()
    table.gm.sio.emit("comando", {"text": text})
    if not wait_for(lambda: all(len(p.events) > m for p, m in zip(table.phones, marks))):
        raise RuntimeError("um celular não recebeu o evento em 15 s")
    return [p.events[m][0] - began for p, m in zip(table.phones, marks)]


def latencies(tables: list[Table], commands: int, mix: list[str] = LATENCY_MIX
              ) -> list[list[float]]:
    """Samples for each table, their commands interleaved so that a busy moment of a shared
    machine falls on all alike: the order rotates (0 1 2, 1 2 0, 2 0 1, …), so every server
    takes every place in turn and, with three or more, none runs two commands in a row (the
    old back-and-forth order gave the last server two in a row every other round: its
    second command met the views of its first)."""
    samples: list[list[float]] = [[] for _ in tables]
    count = len(tables)
    for index in range(commands):
        for which in [(index + place) % count for place in range(count)]:
            samples[which] += latency_once(tables[which], mix[index % len(mix)])
            time.sleep(0.01)
    return samples


def event_size(url: str) -> int:
    """The JSON size of the companion's event for COMMAND, as a phone receives it."""
    reply = requests.post(f"{url}/api/command", json={"text": COMMAND},
                          headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10).json()
    return len(json.dumps(reply["events"][0], ensure_ascii=False).encode())


def latency_pair(folder: Path, players: int, commands: int, size: int,
                 before: Path | None = None) -> tuple[list[list[float]], list[float]]:
    """([floor samples, durable floor samples, companion samples (, before's samples)],
    [their MB]) at `players` phones. The servers run at once, each with its own phones, and
    take turns."""
    servers = [floor(size), floor(size, folder / f"chao-duravel-{players}.db"),
               companion(folder)]
    if before is not None:
        servers.append(companion(folder, before))
    tables: list[Table] = []
    try:
        for server in servers:
            server.start()
            tables.append(Table(server.url, players, TOKEN))
        latencies(tables, 5)  # warm-up
        samples = latencies(tables, commands)
        for table in tables:
            table.quiet(0.1)
        memory = [server.memory_mb() for server in servers]
    finally:
        for table in tables:
            table.close()
        for server in servers:
            server.stop()
    return samples, memory


# ---------------------------------------------------------------------------- sustained

@dataclass
class Sustained:
    sent: int
    acked: int
    lost: int
    duplicated: int
    out_of_order: int
    seconds: float


def check_stream(numbers: list[int], expected: int) -> tuple[int, int, int]:
    """(lost, duplicated, out of order) for a stream that should be exactly 1..expected."""
    unique = set(numbers)
    lost = len(set(range(1, expected + 1)) - unique)
    duplicated = len(numbers) - len(unique)
    out_of_order = sum(1 for a, b in zip(numbers, numbers[1:]) if b <= a)
    return lost, duplicated, out_of_order


def sustained(server: Server, players: int, seconds: float, rate: float,
              expected_for: Callable[[dict[str, list[int]], int], dict[str, int]]
              ) -> Sustained:
    """The GM sends `rate` commands/s for `seconds` with `players` phones connected (in worker
    processes: bench/phones.py says why). If the GM's connection drops, the commands it could
    not send count as sent and never acknowledged (the row says the goal was not met)
    instead of ending the bench."""
    fleet = Fleet(server.url, players)
    gm = Phone(server.url, {"token": TOKEN})
    acks: list[Any] = []
    sent = 0
    began = time.perf_counter()
    try:
        while time.perf_counter() - began < seconds:
            due = began + sent / rate
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            try:
                gm.sio.emit("comando", {"text": SUSTAINED_MIX[sent % len(SUSTAINED_MIX)]},
                            callback=acks.append)
            except socketio.exceptions.BadNamespaceError:  # dropped: the rest never go
                sent = math.ceil(seconds * rate)
                break
            sent += 1
        wait_for(lambda: len(acks) == sent, 30)
        streams = fleet.streams()
        wait_quiet([gm], 0.5)
        elapsed = time.perf_counter() - began
        streams[GM] = [seq for _, seq in gm.events]
        expected = expected_for(streams, len(acks))
        lost = duplicated = disorder = 0
        for name, numbers in streams.items():
            a, b, c = check_stream(numbers, expected[name])
            lost, duplicated, disorder = lost + a, duplicated + b, disorder + c
        refused = sum(1 for ack in acks if not ack.get("ok"))
        return Sustained(sent, len(acks) - refused, lost, duplicated, disorder, elapsed)
    finally:
        gm.close()
        fleet.close()


def floor_expected(streams: dict[str, list[int]], acked: int) -> dict[str, int]:
    """The floor numbers events globally and sends every one to everybody."""
    first = min(numbers[0] for name, numbers in streams.items() if name != GM and numbers)
    return {name: first - 1 + acked for name in streams}


def companion_expected(db: Path) -> Callable[[dict[str, list[int]], int], dict[str, int]]:
    """Counted from the SQLite log itself: the events each player may see (its numbering is
    1..that count), and the GM's global seqs."""
    def expected(streams: dict[str, list[int]], _acked: int) -> dict[str, int]:
        with sqlite3.connect(db) as raw:
            rows = raw.execute("SELECT visibility FROM events").fetchall()
            players = raw.execute("SELECT name, character_id FROM players").fetchall()
        counts = {}
        for name, character in players:
            mine = {"public", f"player:{character}"}
            counts[name] = sum(1 for (v,) in rows if v in mine)
        counts[GM] = len(rows)
        return counts
    return expected


# ---------------------------------------------------------------------------- table

def verdict(met: bool | None) -> str:
    """The target's verdict, as the table prints it after the target."""
    return "" if met is None else (": cumprida" if met else ": NÃO cumprida")


def row(name: str, floor_value: float, value: float, unit: str, target: str = "",
        met: bool | None = None) -> str:
    ratio = value / floor_value if floor_value else float("nan")
    return (f"{name:44s} {floor_value:10.1f} {value:10.1f} {unit:3s} {ratio:6.2f}×  "
            f"{target}{verdict(met)}")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--curto", action="store_true",
                         help="uma versão rápida (menos comandos, 10 s sustentados)")
    options.add_argument("--sustentado", type=float, default=None, metavar="S")
    options.add_argument("--comandos", type=int, default=None, metavar="N",
                         help="tamanho da sessão reaberta (padrão 10000)")
    options.add_argument("--celulares", default="10,50,100", metavar="LISTA",
                         help="quantos celulares em cada medida de latência (padrão 10,50,100)")
    options.add_argument("--antes", metavar="CAMINHO",
                         help="checkout do código de antes, para bench/historia.py")
    options.add_argument("--sem-historia", action="store_true",
                         help="não rodar bench/historia.py no fim")
    options.add_argument("--so-servidor", action="store_true",
                         help="só a latência (chão, chão durável, Mesa) e a tempestade")
    args = options.parse_args()
    server_only = args.so_servidor
    quick = args.curto
    per_run = 30 if quick else 200
    seconds = args.sustentado if args.sustentado is not None else (10 if quick else 60)
    long_count = args.comandos or 10_000
    before = Path(args.antes) if args.antes else None
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        probe = companion(folder).start()
        try:
            size = event_size(probe.url)
        finally:
            probe.stop()
        memory = (0.0, 0.0)
        for players in [int(n) for n in args.celulares.split(",")]:
            samples, megabytes = latency_pair(folder, players, per_run, size, before)
            low, durable, high = samples[0], samples[1], samples[2]
            for q in (50, 99):
                floor_ms, durable_ms = pct(low, q) * 1e3, pct(durable, q) * 1e3
                ms = pct(high, q) * 1e3
                target, met = "", None
                if players in (10, 50):  # issue 33: against the durable floor
                    limit = 1.15 if q == 50 else 1.3
                    target = f"meta ≤ {limit:g}× o durável".replace(".", ",")
                    met = ms <= limit * durable_ms
                lines.append(row(f"comando → evento, {players} celulares, p{q}",
                                 durable_ms, ms, "ms", target, met))
                lines.append(row("  chão sem disco, mesmo instante", durable_ms, floor_ms,
                                 "ms"))
                if before is not None:
                    lines.append(row("  código de antes (--antes), mesmo instante",
                                     durable_ms, pct(samples[3], q) * 1e3, "ms"))
            if players == 10:
                memory = (megabytes[0], megabytes[2])
            print(f"  … {players} celulares medidos", file=sys.stderr, flush=True)

        floor_storm, storm = storms(folder, size)
        lines.append(row(f"comando do Mestre durante {STORM} reconexões ({STORM_EVENTS})",
                         floor_storm.command * 1e3, storm.command * 1e3, "ms", "meta < 1 s",
                         storm.command < 1.0))
        lines.append(row("  reconexão do Mestre (conectar → estado), na mesma",
                         floor_storm.reconnect * 1e3, storm.reconnect * 1e3, "ms",
                         "meta < 1 s", storm.reconnect < 1.0))
        lines.append(row(f"  as {STORM} reconexões, do início ao fim", floor_storm.storm * 1e3,
                         storm.storm * 1e3, "ms"))
        lines.append(row(f"  boas-vindas de {LOOPERS} telas em laço, no meio", floor_storm.looped,
                         storm.looped, ""))
        print("  … tempestade medida", file=sys.stderr, flush=True)
        if server_only:
            _print_table(lines, size, "chão")
            return

        results = []
        mesa_db = folder / "sustentado.db"
        for server, expected in ((floor(size), floor_expected),
                                 (companion(folder, db=mesa_db), companion_expected(mesa_db))):
            with running([server]):
                results.append(sustained(server, 100, seconds, 20.0, expected))
        print("  … sustentado medido", file=sys.stderr, flush=True)

        start_samples: list[list[float]] = [[], []]
        for _ in range(3):  # interleaved, like everything else
            for which, make in enumerate((lambda: floor(size), lambda: companion(folder))):
                server = make().start()
                start_samples[which].append(server.startup)
                server.stop()
        starts = [statistics.median(samples) for samples in start_samples]

        reconnected = reconnect_costs(folder, size, 5 if quick else 15)

        db = folder / "longa.db"
        commits = long_session(db, long_count)
        bare = bare_commits(folder, len(commits), 400)
        tables = load_rules()
        reopened = statistics.median(reopen(db, tables) for _ in range(3))
        rows_read = statistics.median(read_rows(db) for _ in range(3))

    floor_run, run = results
    lines.append(row(f"sustentado {seconds:g} s, 20 comandos/s, 100 celulares: comandos",
                     floor_run.acked, run.acked, "", f"de {run.sent} enviados, meta todos",
                     run.acked == run.sent))
    for name in ("lost", "duplicated", "out_of_order"):
        label = {"lost": "perdidos", "duplicated": "duplicados",
                 "out_of_order": "fora de ordem"}[name]
        count = getattr(run, name)
        lines.append(f"{'  eventos ' + label:44s} {getattr(floor_run, name):10d} "
                     f"{count:10d}            meta 0{verdict(count == 0)}")
    lines.append(row("partida até a primeira página", starts[0] * 1e3, starts[1] * 1e3, "ms",
                     "meta < 2 s", starts[1] < 2.0))
    lines.append(row("memória do servidor com 10 celulares", memory[0], memory[1], "MB",
                     "meta < 120 MB", memory[1] < 120))
    lines.append(row(f"reabrir uma sessão de {long_count} comandos", rows_read * 1e3,
                     reopened * 1e3, "ms", "meta < 1 s", reopened < 1.0))
    first = reconnected[0][2]
    for events, floor_s, mesa_s in reconnected:
        flat = None if events == reconnected[0][0] else mesa_s <= 1.5 * first
        lines.append(row(f"reconexão da tela, {events} eventos públicos", floor_s * 1e3,
                         mesa_s * 1e3, "ms", "" if flat is None else
                         f"meta plana (≤ 1,5× a de {reconnected[0][0]})", flat))
    lines.append(row("commit durável, p99", pct(bare, 99) * 1e3, pct(commits, 99) * 1e3,
                     "ms"))
    _print_table(lines, size, "chão")
    if not args.sem_historia:
        history = [sys.executable, str(ROOT / "bench" / "historia.py")]
        history += ["--curto"] if quick else []
        history += ["--antes", args.antes] if args.antes else []
        subprocess.run(history, check=True)


def _print_table(lines: list[str], size: int, floor_name: str) -> None:
    print(f"\nMesa — medido nesta execução, em loopback ({os.cpu_count()} núcleos); "
          f"evento de {size} bytes; a latência contra o chão durável (um commit WAL "
          f"synchronous=FULL por comando), as outras linhas contra o {floor_name}; numa linha "
          f"recuada, a segunda coluna é o que ela nomeia")
    print(f"{'':44s} {'chão':>10s} {'Mesa':>10s}     {'razão':>6s}")
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
