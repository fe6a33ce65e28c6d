"""bench/live.py's log measurements: bare commits, a long session, reopening, reading rows."""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from servers import LONG_MIX  # also puts the checkout on sys.path

from companion.rules.loader import load_rules  # noqa: E402
from companion.session import Session  # noqa: E402


# ---------------------------------------------------------------------------- the log

def bare_commits(folder: Path, count: int, size: int) -> list[float]:
    connection = sqlite3.connect(folder / "chao.db", isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, text TEXT)")
    samples = []
    for _ in range(count):
        began = time.perf_counter()
        connection.execute("BEGIN")
        connection.execute("INSERT INTO t (text) VALUES (?)", ("x" * size,))
        connection.execute("COMMIT")
        samples.append(time.perf_counter() - began)
    connection.close()
    return samples


def long_session(db: Path, commands: int) -> list[float]:
    """Store `commands` commands through Session.run; the seconds of each durable commit."""
    tables = load_rules()
    session = Session.open(db, 4, tables)
    log = session._log
    commits: list[float] = []
    append = log.append

    def timed_append(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return append(*args, **kwargs)
        finally:
            commits.append(time.perf_counter() - began)

    log.append = timed_append  # type: ignore[method-assign]
    session.run("personagem Ana")
    index = 0
    while log.next_number() <= commands:
        session.run(LONG_MIX[index % len(LONG_MIX)])
        index += 1
    session.close()
    return commits


def reopen(db: Path, tables: Any) -> float:
    began = time.perf_counter()
    Session.open(db, None, tables).close()
    return time.perf_counter() - began


def read_rows(db: Path) -> float:
    """The floor of reopening: read every command row back and decode its args."""
    began = time.perf_counter()
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT n, text, name, args, actor, undone, at FROM commands "
                           "ORDER BY n").fetchall()
    [json.loads(row[3]) for row in rows]
    return time.perf_counter() - began
