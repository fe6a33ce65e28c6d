"""Socket.IO test plumbing: a real client that records everything it receives, waits that
poll, and the log as each viewer receives it (numbered 1, 2, 3, … for a player)."""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable

import pytest
import socketio

from companion.session import Session

from tests.socket_client import ordered_client

SERVER_GM_TOKEN = "token-secreto-do-mestre"  # the GM token of the tests' server session
WAIT = 8.0


def wait_until(predicate: Callable[[], Any], timeout: float = WAIT, what: str = "") -> Any:
    """Poll predicate every 20 ms until it is truthy; fail with `what` after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"esperou {timeout}s sem sucesso: {what}")


class Peer:
    """A real Socket.IO client that records everything it receives, in order."""

    def __init__(self, url: str, auth: dict[str, Any] | None, headers: dict[str, str] | None = None,
                 transports: list[str] | None = None) -> None:
        self.url = url
        self.received: list[tuple[str, Any]] = []
        self.acks: list[Any] = []
        self.refusals: list[Any] = []
        self.lock = threading.Lock()
        self.sio = ordered_client(reconnection=False)
        self.sio.on("*", self._record)
        self.sio.on("connect_error", self._refused)
        self.sio.connect(url, auth=auth, headers=headers or {},
                         transports=transports or ["websocket"], wait_timeout=5)

    def _record(self, event: str, data: Any = None) -> None:
        with self.lock:
            self.received.append((event, data))

    def _refused(self, data: Any = None) -> None:
        with self.lock:
            self.refusals.append(data)

    # what was received
    def of(self, name: str) -> list[Any]:
        with self.lock:
            return [data for event, data in self.received if event == name]

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event received, live (`evento`) or in a welcome's list (`eventos`), in order."""
        with self.lock:
            return [event for name, data in self.received
                    for event in ([data] if name == "evento" else data if name == "eventos"
                                  else [])]

    @property
    def seqs(self) -> list[int]:
        return [e["seq"] for e in self.events]

    def welcome(self) -> dict[str, Any]:
        return wait_until(lambda: (self.of("boas_vindas") or [None])[0], what="boas_vindas")

    def wait_seq(self, seq: int) -> None:
        wait_until(lambda: seq in self.seqs, what=f"evento {seq}")

    def views(self) -> list[dict[str, Any]]:
        """The view after each `estado` or `estado_mudou`, as the pages rebuild it."""
        with self.lock:
            received = list(self.received)
        views: list[dict[str, Any]] = []
        for event, data in received:
            if event == "estado":
                views.append(dict(data))
            elif event == "estado_mudou":
                views.append({**(views[-1] if views else {}), **data})
        return views

    def wait_states(self, count: int) -> dict[str, Any]:
        wait_until(lambda: len(self.views()) >= count, what=f"{count} estados")
        return self.views()[-1]

    def everything(self) -> str:
        """All that reached this connection (events, states, acks) as one JSON text."""
        with self.lock:
            return json.dumps([self.received, self.acks], ensure_ascii=False)

    def send(self, payload: Any) -> dict[str, Any]:
        ack = self.sio.call("comando", payload, timeout=10)
        with self.lock:
            self.acks.append(ack)
        return ack

    def cmd(self, text: str) -> dict[str, Any]:
        return self.send({"text": text})

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()


def gm_ok(gm: Peer, text: str) -> list[dict[str, Any]]:
    ack = gm.cmd(text)
    assert ack["ok"], f"{text!r} recusado: {ack.get('error')}"
    return ack["events"]


def rules(peer: Peer, payload: Any) -> dict[str, Any]:
    """The GM's rules over Socket.IO (`regras` {"validar"|"alterar"}), its ack."""
    return peer.sio.call("regras", payload, timeout=10)


def sees(viewer: str) -> Callable[[str], bool]:
    if viewer == "gm":
        return lambda visibility: True
    return lambda visibility: visibility in ("public", viewer)


def numbered(session: Session, viewer: str) -> list[dict[str, Any]]:
    """The log as `viewer` receives it: only what it may see, numbered 1, 2, 3, … (the GM
    keeps the log's own numbers)."""
    visible = [e for e in session.events_since(0) if sees(viewer)(e["visibility"])]
    if viewer == "gm":
        return visible
    return [{**event, "seq": n} for n, event in enumerate(visible, start=1)]


def refused_join(server: Any, auth: dict[str, Any]) -> str:
    """Connect with `auth`, expecting a refusal; the reason as received."""
    client = socketio.Client(reconnection=False)
    reasons: list[Any] = []
    client.on("connect_error", lambda data=None: reasons.append(data))
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=5)
    wait_until(lambda: reasons, what="connect_error")
    client.disconnect()
    reason = reasons[0]
    return reason.get("message", "") if isinstance(reason, dict) else str(reason)


def call(peer: Peer, name: str, payload: Any = None) -> dict[str, Any]:
    return peer.sio.call(name, payload, timeout=10)


def pending_panic(gm: Peer, ana: Peer) -> dict[str, Any]:
    asked = gm_ok(gm, "pânico Ana")
    prompt = next(e for e in asked if e["kind"] == "pedido")
    assert prompt["visibility"] == "player:ana"
    wait_until(lambda: any(e["kind"] == "pedido" for e in ana.events), what="pedido da Ana")
    return prompt
