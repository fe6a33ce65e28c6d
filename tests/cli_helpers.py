"""A command line run in this process: `companion.cli.main(argv)` with its own stdin, stdout and
stderr (UTF-8 text, as a pipe gives them) and the program folder as the working one, answering
what `subprocess.run(…, capture_output=True, text=True)` answers. For the tests where the
process boundary is not the point (a fresh interpreter, kill -9, the launchers and the install
keep real processes): starting Python and loading the rules again per call cost them minutes."""
from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from companion import cli

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Ran:
    """What a run left: its exit status and what it wrote."""

    returncode: int
    stdout: str
    stderr: str


def _stream(text: str = "") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8", newline=None,
                            write_through=True)


def run_main(*args: str, stdin: str = "", main: Callable[[list[str]], int] = cli.main) -> Ran:
    """`main(list(args))` with `stdin` to read, in the program folder; SystemExit (argparse's
    usage errors, --help) is its status, as a process's would be."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    out, err = _stream(), _stream()
    sys.stdin, sys.stdout, sys.stderr = _stream(stdin), out, err
    where = os.getcwd()
    os.chdir(ROOT)
    try:
        status = main(list(args))
    except SystemExit as exited:
        status = exited.code if isinstance(exited.code, int) else (0 if exited.code is None
                                                                     else 1)
    finally:
        os.chdir(where)
        sys.stdin, sys.stdout, sys.stderr = streams
    return Ran(status, _written(out), _written(err))


def _written(stream: io.TextIOWrapper) -> str:
    stream.flush()
    raw = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return raw.decode("utf-8").replace("\r\n", "\n")
