"""The live server: pages, HTTP API and Socket.IO for phones at the table."""
from __future__ import annotations

__all__ = ["create_app", "serve", "start_in_thread"]


def __getattr__(name: str):  # lazy: `companion shell` must not import Flask
    if name in __all__:
        from companion.server import app
        return getattr(app, name)
    raise AttributeError(name)
