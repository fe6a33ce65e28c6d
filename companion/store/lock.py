"""Who has a campaign open to serve it: a lock file beside the campaign's SQLite file.

`companion serve` holds an exclusive lock (flock) on `<campaign>.servidor` while it runs, with
the GM page's address written in it; the lock goes with the process, however it ends. A tool
that must not write a campaign a server has open (`companion regras importar`) asks `holder`.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

SUFFIX = ".servidor"


def _path(db: str | Path) -> Path:
    return Path(f"{Path(db).resolve()}{SUFFIX}")


class ServerLock:
    """The lock a running server holds on its campaign (release it when the server stops)."""

    def __init__(self, db: str | Path) -> None:
        self.path = _path(db)
        self._fd: int | None = None

    def acquire(self, address: str) -> bool:
        """Hold the lock, writing `address` in it; False when another process holds it (or
        the file cannot be made: the campaign is then served unlocked)."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, address.encode())
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def holder(db: str | Path) -> str | None:
    """The address written by the server that has the campaign open (None: no server has)."""
    path = _path(db)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return os.read(fd, 4096).decode(errors="replace") or "?"
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
