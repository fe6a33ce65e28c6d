"""A python-socketio client that handles messages in the order they arrive.

engine.io's client runs each incoming message's handler in a new thread, so two events sent in
order can reach the handlers out of order. Tests and benchmarks that check order need them
handled one after another, in the reading thread: this client does that. Its handlers must not
block waiting for another message (no `call` inside a handler).
"""
from __future__ import annotations

from typing import Any

import socketio


def ordered_client(**options: Any) -> socketio.Client:
    """A socketio.Client whose message handlers run in arrival order."""
    client = socketio.Client(**options)
    trigger = client.eio._trigger_event

    def in_order(event: str, *args: Any, **kwargs: Any) -> Any:
        if event == "message":
            kwargs["run_async"] = False
        return trigger(event, *args, **kwargs)

    client.eio._trigger_event = in_order  # type: ignore[method-assign]
    return client
