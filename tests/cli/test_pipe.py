"""`companion voz frases | head`: a reader that stops early ends the command quietly (no
traceback), with the status a shell gives a command whose pipe closed (128 + SIGPIPE)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_closed_pipe_ends_the_phrase_list_quietly() -> None:
    listing = subprocess.Popen([sys.executable, "-m", "companion", "voz", "frases"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert listing.stdout is not None and listing.stderr is not None
    first = listing.stdout.readline().decode("utf-8")
    listing.stdout.close()  # `head -1`: the reader has what it wanted
    errors = listing.stderr.read().decode("utf-8")
    assert listing.wait(timeout=60) == 141, errors
    assert first.strip() and "Traceback" not in errors and errors == ""
