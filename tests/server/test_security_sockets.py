"""A connection is only what it was admitted as (issue 25, item 2), against a real server on
loopback: a client's `disconnect`/`connect` events are dropped (never acknowledged, never
handled), freeing a seat empties that player's room whatever the connection list says, and a
forged or racing frame leaves at most one log line — never a traceback."""
from __future__ import annotations

import logging
import threading
from typing import Any

import pytest
import simple_websocket

from companion.server.app import RunningServer
from companion.server.guard import reserved_event
from companion.session import Session
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, call, gm_ok, pending_panic, wait_until


def test_a_forged_disconnect_is_never_acked_and_the_ghost_hears_nothing_after_liberar(
        server: RunningServer, session: Session, peers) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ghost = peers({"nome": "Ana"})
    ghost.welcome()
    ghost.wait_states(1)
    acks: list[Any] = []
    ghost.sio.emit("disconnect", {"motivo": "forjado"}, callback=lambda *a: acks.append(a))
    assert gm_ok(gm, "rolar 1d6")  # round trips after the forged frame
    assert call(gm, "liberar", {"personagem": "ana"})["ok"]
    wait_until(lambda: not ghost.sio.connected, what="o fantasma desconectado")
    heard = len(ghost.received)
    ana = peers({"nome": "Ana"})  # the real player comes back
    ana.welcome()
    pending_panic(gm, ana)  # a prompt for player:ana: the new phone gets it…
    assert gm_ok(gm, "rolar 1d6")
    assert acks == []  # never acknowledged
    assert len(ghost.received) == heard
    assert "pedido" not in [event["kind"] for event in ghost.events]  # …the ghost does not


def test_freeing_a_seat_disconnects_every_socket_in_its_room(server: RunningServer,
                                                             session: Session, peers) -> None:
    """Even a socket the connection list lost (however it was lost) leaves with the seat."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    lost = peers({"nome": "Ana"})
    lost.welcome()
    lost.wait_states(1)
    hub = server.app.extensions["mesa_hub"]
    hub.connections.drop(lost.sio.get_sid())  # forgotten, still in the room player:ana
    assert call(gm, "liberar", {"personagem": "ana"})["ok"]
    wait_until(lambda: not lost.sio.connected, what="o socket esquecido desconectado")
    ana = peers({"nome": "Ana"})
    ana.welcome()
    heard = len(lost.received)
    pending_panic(gm, ana)
    assert len(lost.received) == heard


FORGED = ['40{"nome":"Ana"}', '421["disconnect"]', '422["connect",{"token":"x"}]',
          '423["connect_error",{}]', '40{"nome":"Bia"}', '41', '424["comando",{"text":"ajuda"}]']


def test_forged_and_racing_frames_print_no_traceback(server: RunningServer, session: Session,
                                                     caplog: pytest.LogCaptureFixture,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    crashed: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: crashed.append(args))
    caplog.set_level(logging.INFO)
    url = f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket"
    raw = simple_websocket.Client.connect(url)
    raw.receive(timeout=5)  # the engine.io open packet
    answers: list[str] = []
    for frame in FORGED:
        raw.send(frame)
    raw.send("2")  # a ping: its pong comes after everything above was read
    while (answer := raw.receive(timeout=5)) not in ("3", None):
        answers.append(str(answer))
    raw.close()
    for _ in range(20):  # connect and close at once, before the welcome runs
        quick = simple_websocket.Client.connect(url)
        quick.send('40{"papel":"mesa"}')
        quick.close()
    # the server still serves; the GM's welcome comes after the dispatcher's earlier jobs
    gm = Peer(server.url, {"token": GM_TOKEN})
    gm.welcome()
    gm.wait_states(1)
    gm.close()
    assert not [a for a in answers if a.startswith(("431", "432", "433"))]  # never acked
    assert crashed == []
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert [r for r in caplog.records if "Traceback" in r.getMessage()] == []


@pytest.mark.parametrize("frame, name", [  # Socket.IO packets, as the engine.io layer hands them
    ('2["disconnect"]', "disconnect"), ('21["connect",{"token":"x"}]', "connect"),
    ('2/outro,["connect_error",{}]', "connect_error"), ('2["comando",{"text":"connect"}]', None),
    ('2["desconectar"]', None), ("0", None), ('3["disconnect"]', None), ("x", None)])
def test_reserved_event_names_are_recognised_in_any_event_frame(frame: str,
                                                                name: str | None) -> None:
    assert reserved_event(frame) == name
