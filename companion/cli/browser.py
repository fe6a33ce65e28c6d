"""The GM page opened in the laptop's browser when `mesa` starts (the standard library's
webbrowser: the system's browser, or the one the BROWSER variable names)."""
from __future__ import annotations

import os
import sys
import threading
import webbrowser
from typing import Callable, Mapping

Opener = Callable[[str], object]


def has_screen(environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> bool:
    """Whether a browser window can open: always on Windows and macOS; on Linux and the other
    Unixes only with a desktop (or a BROWSER named), never a text browser in the GM's
    terminal."""
    if platform in ("win32", "darwin") or environ.get("BROWSER"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def open_page(link: str, opener: Opener = webbrowser.open) -> threading.Thread | None:
    """Open `link` beside the server (a slow browser never holds the start); None when there is
    no screen to open it on."""
    if not has_screen():
        return None
    thread = threading.Thread(target=_quietly, args=(opener, link), name="mesa-navegador",
                              daemon=True)
    thread.start()
    return thread


def _quietly(opener: Opener, link: str) -> None:
    try:
        opener(link)
    except Exception:  # noqa: BLE001 (no browser: the terminal shows the link anyway)
        pass
