"""Benchmarks: how fast and how small the companion is, as ratios to a baseline in the same run.

The baseline is one durable SQLite commit (WAL, synchronous=FULL) of a small row: the one cost
every accepted command must pay to be safe from `kill -9`. Everything else is printed both in
microseconds and as a multiple of that baseline, because these machines are shared and noisy.

    .venv/bin/python bench/bench.py [--commands 300]
"""
from __future__ import annotations

import argparse
import gc
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.commands.parse import parse  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.rules.loader import load_rules  # noqa: E402

SETUP = ["personagem Ana nível 2 pv 12 con 1 des 2", "personagem Bia pv 10 des 1",
         "estação outono", "terreno floresta"]
TRAVEL = ["explorar", "forragear", "acampar", "descansar", "avançar", "rolar 2d6+1",
          "derrotados 2 goblins", "caçar"]
SENTENCES = ["avançar", "vamos descansar", "rolar dois d seis mais um", "teste de pânico pra Ana",
             "o goblin fugiu pra floresta", "acender uma tocha", "3 goblins derrotados",
             "acho que devíamos descansar depois", "estação inverno", "fuga dificuldade 12"]


def timed(action: Callable[[], object], repeat: int) -> float:
    """Median seconds of one call over `repeat` runs."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def baseline_commit(folder: Path, repeat: int) -> float:
    connection = sqlite3.connect(folder / "baseline.db", isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, text TEXT)")

    def commit() -> None:
        connection.execute("BEGIN")
        connection.execute("INSERT INTO t (text) VALUES (?)", ("avançar",))
        connection.execute("COMMIT")

    result = timed(commit, repeat)
    connection.close()
    return result


def socket_delivery(session: Session, repeat: int) -> tuple[float, float]:
    """Median seconds from the GM's `comando` to both players' `evento`, and the GM's ack alone
    for `ajuda` (a command no player sees) as this layer's own baseline."""
    import socketio

    from companion.server.app import start_in_thread

    server = start_in_thread(session)
    arrived = {"Ana": threading.Event(), "Bia": threading.Event()}
    clients = []
    for name in arrived:
        client = socketio.Client()
        client.on("evento", lambda event, who=name: arrived[who].set())
        client.connect(server.url, auth={"nome": name},
                       transports=["websocket"])
        clients.append(client)
    gm = socketio.Client()
    gm.connect(server.url, auth={"token": session.gm_token},
               transports=["websocket"])
    time.sleep(0.5)

    def broadcast() -> None:
        for flag in arrived.values():
            flag.clear()
        gm.call("comando", {"text": "rolar 1d20"}, timeout=10)
        for flag in arrived.values():
            flag.wait(10)

    def ack_only() -> None:
        gm.call("comando", {"text": "ajuda"}, timeout=10)

    try:
        return timed(broadcast, repeat), timed(ack_only, repeat)
    finally:
        for client in clients + [gm]:
            client.disconnect()
        server.stop()


def answer_prompts(session: Session) -> None:
    """Answer whatever the rules asked, as the players would, so the group is never held."""
    for _ in range(20):
        if not session.state.prompts:
            return
        prompt = session.state.prompts[0]
        how = f"opcao {prompt.options[0]}" if prompt.options else "rolar"
        session.run(f"responder pedido {prompt.id} {how}")


def play(session: Session, count: int) -> None:
    """Run `count` accepted travel commands after the setup (refusals are not counted)."""
    for line in SETUP:
        session.run(line)
    done = index = 0
    while done < count and index < count * 3:
        done += session.run(TRAVEL[index % len(TRAVEL)]).ok
        index += 1
        answer_prompts(session)
    assert done == count, f"só {done} de {count} comandos foram aceitos"


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--commands", type=int, default=300)
    count = options.parse_args().commands
    tables = load_rules()
    rows: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = baseline_commit(folder, 200)
        parse_each = timed(lambda: [parse(s, tables) for s in SENTENCES], 30) / len(SENTENCES)
        rows.append(("parse de uma frase", parse_each))

        session = Session.open(folder / "live.db", 1, tables)
        play(session, 20)
        answer_prompts(session)
        rows.append(("comando completo (parse, regras, SQLite, aviso)",
                     timed(lambda: (session.run("rolar 2d6+1"), session.run("explorar"),
                                    answer_prompts(session)), 25) / 2))
        rows.append(("desfazer (volta ao estado anterior)",
                     timed(lambda: (session.run("rolar 1d6"), session.run("desfazer")), 10) / 2))
        delivered, acked = socket_delivery(session, 30)
        rows.append(("do comando do Mestre ao evento nos 2 celulares", delivered))
        rows.append(("só a resposta ao Mestre ('ajuda', ninguém mais vê)", acked))
        session.close()

        session = Session.open(folder / "long.db", 2, tables)
        gc.collect()
        tracemalloc.start()
        play(session, count)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        session.close()
        reopen = timed(lambda: Session.open(folder / "long.db", None, tables).close(), 3)
        rows.append((f"reabrir uma sessão de {count} comandos (replay)", reopen))

    print(f"linha de base: um commit durável no SQLite = {base * 1e6:.0f} µs")
    for name, seconds in rows:
        print(f"{name:55s} {seconds * 1e6:10.0f} µs  = {seconds / base:7.2f}× a linha de base")
    print(f"memória de pico (tracemalloc) jogando {count} comandos: {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
