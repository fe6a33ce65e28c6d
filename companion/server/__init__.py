"""The live server: pages, HTTP API and Socket.IO for phones at the table."""
from __future__ import annotations

from companion.server.app import create_app, serve, start_in_thread

__all__ = ["create_app", "serve", "start_in_thread"]
