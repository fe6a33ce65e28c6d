"""Joining is the GM's: a phone that comes by name waits at the door until the GM says yes.

A connection with `{"nome": "Eva"}` (a name never seen, or a free seat, the GM's own or one
freed) is accepted as a request, in no room and with no power: it gets `entrada_pendente`
{"nome", "mensagem"}, and the GM room gets `entradas` {"pedidos": [{"id", "nome", "novo"}]}
(the GM's `boas_vindas` carries the same list as `entradas`). The GM answers `entrada`
{"pedido": id, "aceitar": true|false} (acknowledged): accepted, the name joins
(session.join_player: the character is made the first time) and the phone is welcomed as that
player (`boas_vindas` with its token, …); refused, the phone gets `entrada_recusada`
{"motivo"} and is let go. A request ends too when its phone leaves. One address may have at
most PENDING_PER_ADDRESS requests waiting (and JOINS_PER_MINUTE new ones a minute: the
reception's limiter): a flood of names creates nothing and hides nobody's request for long.

`open_joins` (tests' harness, `--sem-limites` on loopback) lets every name in at once, as
before.
"""
from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from flask import request
from flask_socketio import SocketIO

from companion.engine.characters import slug
from companion.tables.errors import AccessDenied, CompanionError
from companion.server.fanout import Dispatcher
from companion.server.rooms import GM_ROOM, NAMESPACE, Connections
from companion.server.served import ServedSession

PENDING_PER_ADDRESS = 3  # requests one address may have waiting for the GM
ACCEPT_WAIT = 5.0  # seconds a request's connection has to be accepted before it is told so


@dataclass(frozen=True)
class Knock:
    """A phone waiting at the door."""

    id: int
    sid: str
    name: str
    address: str
    since: int
    new: bool  # no character of that name yet (False: a free seat)
    batched: bool = False  # its welcome's replay as one `eventos` list (companion.server.welcome)

    def listed(self) -> dict[str, Any]:
        return {"id": self.id, "nome": self.name, "novo": self.new}


class Doorway:
    """The requests to join of one session, and the GM's answers."""

    def __init__(self, socketio: SocketIO, session: ServedSession, connections: Connections,
                 dispatcher: Dispatcher) -> None:
        self.socketio = socketio
        self.session = session
        self.connections = connections
        self.dispatcher = dispatcher
        self.lock = threading.Lock()
        self.knocks: dict[int, Knock] = {}
        self.numbers = itertools.count(1)
        # set by the reception: an accepted request's phone joins and is welcomed
        self.admit: Callable[[Knock], None] | None = None

    def render(self, code: str, **values: Any) -> str:
        return self.session.tables.narration.render(code, values)

    # ------------------------------------------------------------------ knocking

    def knock(self, sid: str, name: str, address: str, since: int,
              batched: bool = False) -> None:
        """A phone asks to join as `name` (checked already); AccessDenied when its address
        has too many requests waiting or the seat is held."""
        held = {seat.character_id: seat for seat in self.session.seats() if seat.occupied}
        if slug(name) in held:
            raise AccessDenied(self.render("entrada.lugar_ocupado",
                                          nome=held[slug(name)].name))
        new = not any(c.id == slug(name) for c in self.session.state.party)
        with self.lock:
            if sum(1 for k in self.knocks.values() if k.address == address) \
                    >= PENDING_PER_ADDRESS:
                raise AccessDenied(self.render("pedidos_entrada.muitos",
                                              limite=PENDING_PER_ADDRESS))
            knock = Knock(next(self.numbers), sid, name, address, since, new, batched)
            self.knocks[knock.id] = knock
        self.dispatcher.put("entrada", lambda: self._waiting(knock))

    def _waiting(self, knock: Knock) -> None:
        """Once its connection is accepted: the phone hears it waits, the GM hears who."""
        if self._accepted(knock.sid):
            self.socketio.server.emit("entrada_pendente", {
                "nome": knock.name,
                "mensagem": self.render("pedidos_entrada.aguarde", nome=knock.name)},
                to=knock.sid, namespace=NAMESPACE)
        self._push()

    def _accepted(self, sid: str) -> bool:
        manager = self.socketio.server.manager
        deadline = time.monotonic() + ACCEPT_WAIT
        while time.monotonic() < deadline:
            if manager.is_connected(sid, NAMESPACE):
                return True
            if self.find(sid) is None:  # it left before it was accepted
                return False
            time.sleep(0.005)
        return False

    def find(self, sid: str) -> Knock | None:
        with self.lock:
            return next((k for k in self.knocks.values() if k.sid == sid), None)

    def waiting_from(self, address: str) -> int:
        with self.lock:
            return sum(1 for k in self.knocks.values() if k.address == address)

    def forget(self, sid: str) -> None:
        """Its phone left: the request ends."""
        with self.lock:
            gone = [k.id for k in self.knocks.values() if k.sid == sid]
            for number in gone:
                del self.knocks[number]
        if gone:
            self.dispatcher.put("entradas", self._push)

    # ------------------------------------------------------------------ the GM's list

    def listing(self) -> list[dict[str, Any]]:
        with self.lock:
            return [k.listed() for k in sorted(self.knocks.values(), key=lambda k: k.id)]

    def _push(self) -> None:
        self.socketio.server.emit("entradas", {"pedidos": self.listing()}, to=GM_ROOM,
                                  namespace=NAMESPACE)

    # ------------------------------------------------------------------ the GM's answer

    def answer(self, payload: Any) -> dict[str, Any]:
        """`entrada` from the GM: {"pedido": id, "aceitar": bool}."""
        client = self.connections.find(request.sid)  # type: ignore[attr-defined]
        if client is None or client.role != "mestre":
            return {"ok": False, "error": self.render("pedidos_entrada.so_mestre")}
        number = payload.get("pedido") if isinstance(payload, dict) else None
        accept = payload.get("aceitar") if isinstance(payload, dict) else None
        if isinstance(number, bool) or not isinstance(number, int) \
                or not isinstance(accept, bool):
            return {"ok": False, "error": self.render("pedidos_entrada.pedido_invalido")}
        with self.lock:
            knock = self.knocks.pop(number, None)
        if knock is None:
            return {"ok": False, "error": self.render("pedidos_entrada.sem_pedido",
                                                     pedido=number)}
        self.dispatcher.put("entradas", self._push)
        if not accept:
            self._turn_away(knock, self.render("pedidos_entrada.recusada", nome=knock.name))
            return {"ok": True}
        try:
            if self.admit is None:
                raise AccessDenied(self.render("pedidos_entrada.pedido_invalido"))
            self.admit(knock)
        except (AccessDenied, CompanionError) as refused:
            self._turn_away(knock, refused.message)
            return {"ok": False, "error": refused.message}
        return {"ok": True}

    def _turn_away(self, knock: Knock, reason: str) -> None:
        sio = self.socketio.server
        sio.emit("entrada_recusada", {"motivo": reason}, to=knock.sid, namespace=NAMESPACE)
        sio.disconnect(knock.sid, namespace=NAMESPACE)

