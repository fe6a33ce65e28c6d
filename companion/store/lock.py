"""Who has a campaign open to serve it: a lock file beside the campaign's SQLite file.

`companion serve` holds an exclusive lock (filelock: flock on Linux and macOS, msvcrt on
Windows) on `<campaign>.servidor.lock` while it runs, and writes the GM page's address in
`<campaign>.servidor`; the lock goes with the process, however it ends. A tool that must not
write a campaign a server has open (`companion regras importar`) asks `holder`.

The address lives in a file of its own because Windows does not let another process read
the bytes of a locked file.
"""
from __future__ import annotations

import os
from pathlib import Path

from filelock import FileLock, Timeout

SUFFIX = ".servidor"
LOCK_SUFFIX = ".lock"


def _path(db: str | Path) -> Path:
    return Path(f"{Path(db).resolve()}{SUFFIX}")


def _lock(address_file: Path) -> FileLock:
    # thread_local=False: the server releases it from whichever thread stops it
    return FileLock(f"{address_file}{LOCK_SUFFIX}", timeout=0, thread_local=False,
                    is_singleton=False)


class ServerLock:
    """The lock a running server holds on its campaign (release it when the server stops)."""

    def __init__(self, db: str | Path) -> None:
        self.path = _path(db)
        self._lock: FileLock | None = None

    def acquire(self, address: str) -> bool:
        """Hold the lock, writing `address` beside it; False when another process holds it
        (or the file cannot be made: the campaign is then served unlocked)."""
        lock = _lock(self.path)
        try:
            lock.acquire(timeout=0)
        except (Timeout, OSError):
            return False
        try:
            self.path.write_text(address, encoding="utf-8")
        except OSError:
            lock.release()
            return False
        self._lock = lock
        return True

    def release(self) -> None:
        """Let the lock go, then delete both files (closed before deleted: Windows refuses to
        delete an open file)."""
        if self._lock is None:
            return
        self._lock.release()
        self._lock = None
        for stale in (self.path, Path(f"{self.path}{LOCK_SUFFIX}")):
            try:
                stale.unlink(missing_ok=True)
            except OSError:  # another server took the lock in between (Windows): its file
                pass


def holder(db: str | Path) -> str | None:
    """The address written by the server that has the campaign open (None: no server has)."""
    path = _path(db)
    if not os.path.exists(path):
        return None
    lock = _lock(path)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        try:
            return path.read_text(encoding="utf-8", errors="replace") or "?"
        except OSError:
            return "?"
    except OSError:
        return None
    lock.release()
    return None
