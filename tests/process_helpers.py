"""Real processes in tests: a free loopback port, a process's output read up to a marker, and
`companion shell --json` driven line by line (the kill -9 and campaign tests)."""
from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = 77
EMPTY_LINE_ERROR = "linha vazia"  # the session's answer to an empty line: our "done" marker

ACKED = ["personagem Ana con 1", "personagem Bruno", "terreno colinas", "rolar 3d6",
         "avançar", "explorar", "derrotados 2 lobos", "tesouro 30 moedas de prata",
         "item 1 corda", "acampar"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def read_until(process: subprocess.Popen, marker: str, timeout: float = 20.0) -> str:
    """Read the process's output line by line until marker appears."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                break
            continue
        seen.append(line)
        if marker in line:
            return "".join(seen)
    raise AssertionError(f"'{marker}' não apareceu; saída: {''.join(seen)!r}")


class Shell:
    """`companion shell --json --db X` as a real process, read line by line from a thread."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "shell", "--json", "--db", str(db),
             "--seed", str(SEED)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=ROOT, text=True, encoding="utf-8", bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def run(self, text: str) -> list[dict]:
        """Send a command and an empty line; everything before the empty line's error is its."""
        self.send(text)
        self.send("")
        output: list[dict] = []
        while True:
            try:
                line = self.lines.get(timeout=60)
            except queue.Empty:
                raise AssertionError(f"no answer to {text!r}; got {output}") from None
            item = json.loads(line)
            if EMPTY_LINE_ERROR in item.get("error", ""):
                return output
            output.append(item)

    def kill9(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        assert self.process.returncode == -signal.SIGKILL
