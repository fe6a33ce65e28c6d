"""A phone never sees a view that runs ahead of the events it has: when the fan-out of a
command's events lags (here: a slow session subscriber before the server's own), a view sent
meanwhile (a second phone of the same player connecting) comes after those events, not before.
Real Socket.IO clients on a real loopback server."""
from __future__ import annotations

import threading
import time
from typing import Any

from companion.server.app import start_in_thread
from companion.session import Session
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, gm_ok, wait_until


def _pending(peer: Peer) -> list[int] | None:
    views = peer.views()
    return [p["id"] for p in views[-1]["pedidos"]] if views else None


def _first(peer: Peer, wanted: Any, after: int = -1) -> int | None:
    """Where the first message after index `after` for which `wanted(name, data, view)` holds
    is in what the phone received, in order (`view`: the page's view once it is read)."""
    with peer.lock:
        received = list(peer.received)
    views: dict[str, Any] = {}
    for index, (name, data) in enumerate(received):
        if name == "estado":
            views = dict(data)
        elif name == "estado_mudou":
            views = {**views, **data}
        if index > after and wanted(name, data, views):
            return index
    return None


def test_a_view_sent_while_events_lag_comes_after_them(session: Session) -> None:
    lagging = threading.Event()
    lag_started = threading.Event()

    def lag(batch: list[dict]) -> None:
        if lagging.is_set() and any(e["command"] == "cancelar" for e in batch):
            lag_started.set()
            time.sleep(1.0)
    session.subscribe(lag)  # before the server's own subscriber: it delays the fan-out
    running = start_in_thread(session)
    peers: list[Peer] = []
    try:
        gm = Peer(running.url, {"token": GM_TOKEN})
        bia = Peer(running.url, {"nome": "Bia"})
        peers += [gm, bia]
        gm.welcome()
        token = bia.welcome()["token"]
        gm_ok(gm, "pânico Bia")
        wait_until(lambda: _pending(bia) == [1], what="o pedido de Bia")
        lagging.set()
        cancel = threading.Thread(target=gm.cmd, args=("cancelar pedido 1",))
        cancel.start()
        assert lag_started.wait(5), "o cancelamento não chegou aos assinantes"
        second = Peer(running.url, {"token": token})  # Bia's other phone, during the lag
        peers.append(second)
        second.welcome()
        cancel.join(10)
        wait_until(lambda: any(e["data"].get("cancelado") for e in bia.events),
                   what="o cancelamento chegou ao celular de Bia")
        wait_until(lambda: _pending(bia) == [], what="a visão sem o pedido")
        event_at = _first(bia, lambda name, data, _v: name == "evento"
                          and data["data"].get("cancelado"))
        asked_at = _first(bia, lambda name, _d, views: name in ("estado", "estado_mudou")
                          and bool(views.get("pedidos")))
        assert asked_at is not None
        view_at = _first(bia, lambda name, _d, views: name in ("estado", "estado_mudou")
                         and views.get("pedidos") == [], after=asked_at)
        assert event_at is not None and view_at is not None
        assert event_at < view_at, "a visão sem o pedido chegou antes do evento que o cancela"
        for phone in (bia, second):  # each event once, in order
            assert phone.seqs == sorted(set(phone.seqs))
    finally:
        for peer in peers:
            peer.close()
        running.stop()
