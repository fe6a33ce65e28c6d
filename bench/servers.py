"""What bench/live.py, bench/storm.py and bench/durable_log.py share: the commands they send,
the real server processes on loopback (the companion, the floor), and small measures."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout first: the companion and tests.* of this tree

from companion.server.welcome import WELCOME_EVENTS  # noqa: E402

TOKEN = "bench-mestre-token-1"
COMMAND = "rolar 1d6"  # one public event: every phone must get it
# The latency runs alternate a roll (players' views do not change) and a treasure note (every
# view's session form changes): one public event each.
LATENCY_MIX = ["rolar 1d6", "tesouro 1 moeda de ouro"]
SUSTAINED_MIX = ["rolar 1d6", "segredo", "rolar 2d6", "tesouro 1 moeda de ouro"]
LONG_MIX = ["rolar 1d6", "rolar 2d6+1", "derrotados 1 goblin", "tesouro 5 moedas de ouro",
            "item 1 poção", "clima"]
WAIT = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[index]


def wait_for(predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return False


# ---------------------------------------------------------------------------- servers

@dataclass
class Server:
    """A real server process on loopback."""

    argv: list[str]
    port: int
    checkout: Path = ROOT  # the code it runs (first on PYTHONPATH, and its working folder)
    process: subprocess.Popen | None = None
    startup: float = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        began = time.perf_counter()
        env = None if self.checkout == ROOT else dict(os.environ, PYTHONPATH=str(self.checkout))
        self.process = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, cwd=self.checkout, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.url}/jogador", timeout=1).status_code == 200:
                    self.startup = time.perf_counter() - began
                    return self
            except requests.ConnectionError:
                time.sleep(0.005)
        raise RuntimeError(f"o servidor {self.argv} não respondeu em 30 s")

    def memory_mb(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def companion(folder: Path, checkout: Path = ROOT, db: Path | None = None) -> Server:
    """The companion of `checkout`, on a new campaign in `folder` (or on the file `db`)."""
    port = free_port()
    db = db if db is not None else folder / f"mesa-{port}.db"
    return Server([sys.executable, "-m", "companion", "serve", "--sem-limites", "--host",
                   "127.0.0.1", "--port", str(port), "--db", str(db), "--seed", "1",
                   "--gm-token", TOKEN], port, checkout.resolve())


@contextmanager
def running(servers: list[Server]) -> Iterator[list[Server]]:
    """The servers started one after the other, all stopped however the block ends."""
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def floor(size: int, durable: Path | None = None) -> Server:
    """The bare floor; with `durable` (a SQLite file) the durable floor: one WAL
    synchronous=FULL commit per command before its event goes out."""
    port = free_port()
    argv = [sys.executable, str(ROOT / "bench" / "floor_server.py"), "--port", str(port),
            "--size", str(size), "--boas-vindas", str(WELCOME_EVENTS)]
    return Server(argv + (["--duravel", str(durable)] if durable is not None else []), port)


# ---------------------------------------------------------------------------- phones
