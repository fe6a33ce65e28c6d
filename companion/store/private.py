"""Files only their owner may read: the campaign (it holds the tokens and the dice secret), the
HTTPS key and certificate.

Where the OS has POSIX modes, such a file is created 0600 from its first byte (never written
first and narrowed after); a campaign file made world-readable by an older release is narrowed
when it is opened. Elsewhere (Windows) a file in the user's own folders is already the user's
alone, and nothing here changes it.
"""
from __future__ import annotations

import os
from pathlib import Path

OWNER_ONLY = 0o600
HAS_MODES = os.name == "posix"


def create_private(path: Path) -> None:
    """Create `path` empty and owner-only, unless it exists (then narrow it)."""
    if not HAS_MODES:
        return
    try:
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, OWNER_ONLY)
    except FileExistsError:
        narrow(path)
        return
    os.close(descriptor)


def narrow(path: Path) -> None:
    """Make an existing file owner-only (best effort: a file of another user stays as is)."""
    if not HAS_MODES:
        return
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(OWNER_ONLY)
    except OSError:
        pass


def write_private(path: Path, data: bytes) -> None:
    """Write `data` to `path`, owner-only from its creation where the OS has modes."""
    if HAS_MODES:
        create_private(path)
    path.write_bytes(data)
