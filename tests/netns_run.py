"""Run one command as the GM would, inside the network namespace this process is in (the
caller starts it with `unshare -n`: only loopback exists, so a server on 0.0.0.0 is reachable
from 127.0.0.1 alone and the laptop has no address a phone could open), open pages on the
server it starts, then press Ctrl+C. Prints one JSON object: the output, the exit status, the
pages' HTTP statuses and how long the start took.

    unshare -n python tests/netns_run.py '{"command": [...], "cwd": ..., "env": {...},
                                          "pages": ["/jogador"], "timeout": 120}'
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

READY = "Ctrl+C encerra"
LINK = re.compile(r"Tela da mesa: (http://\S+)/mesa")


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def main() -> int:
    asked = json.loads(sys.argv[1])
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    started = time.monotonic()
    process = subprocess.Popen(asked["command"], cwd=asked.get("cwd"), env=asked["env"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    assert process.stdout is not None
    lines: list[str] = []
    pages: dict[str, int] = {}
    ready_after = None
    deadline = started + asked.get("timeout", 120)
    os.set_blocking(process.stdout.fileno(), True)
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if READY in line:
            ready_after = time.monotonic() - started
            break
        if time.monotonic() > deadline:
            break
    if ready_after is not None:
        base = next((m.group(1) for m in map(LINK.search, lines) if m), None)
        time.sleep(asked.get("settle", 1.5))  # the voice and speech lines, the browser opened
        for page in asked.get("pages", []):
            pages[page] = _status(f"{base}{page}") if base else 0
    os.killpg(process.pid, signal.SIGINT)
    try:
        rest, _ = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        rest, _ = process.communicate()
    lines.extend(rest.splitlines())
    print(json.dumps({"output": lines, "status": process.returncode, "pages": pages,
                      "ready_after": ready_after}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
