"""Connecting: who a new connection is, and its welcome (`boas_vindas`, the events it missed,
`estado`), after which it is in its rooms and live.

Connecting (default namespace, `auth` dict):
- `{"token": <gm token>}` → the GM (rooms "gm" and "public");
- `{"nome": "Ana"}` → a new player (session.join_player), rooms "public" and "player:<id>";
  a name whose seat is held (its character has tokens) is refused (companion.server.seats);
- `{"token": <player token>}` → a returning player, or a player's second device;
- `{"papel": "mesa"}` → the shared table screen, a read-only public viewer (room "public");
  its `boas_vindas` carries `url_jogador`, the address phones open (the same the QR code shows,
  the LAN address under `companion serve` even when the screen itself opened 127.0.0.1);
- any of them may add `"desde": <last seq seen>`, in the connection's own numbering
  (companion.history.projection).

`boas_vindas` also carries `paginas` (companion.rules.pages: the pages' buttons, mode names, prompt
titles, option labels), and the GM's carries `lugares` (the seats: companion.server.seats).

After a connection is accepted the client gets `boas_vindas`, then every event it may see with
seq > desde (`evento`, in seq order), then `estado`. The welcome runs on the dispatcher thread
and replays the missed events under the same lock as the live fan-out
(companion.server.fanout), so the client never gets one twice nor misses one.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from flask import request
from flask_socketio import ConnectionRefusedError, SocketIO

from companion.tables import protocol
from companion.tables.errors import AccessDenied, CompanionError
from companion.server import access, hosts, tokens
from companion.server.fanout import Dispatcher, FanOut
from companion.server.projections import Projections
from companion.server.qr import player_url
from companion.server.rooms import NAMESPACE, Client, Connections
from companion.server.seats import Seats
from companion.server.served import ServedSession
from companion.session import Player

log = logging.getLogger(__name__)

WELCOME_WAIT = 5.0  # seconds to wait for the connection to be accepted before welcoming


class Reception:
    """Authenticates connections and welcomes them, one at a time, from the dispatcher."""

    def __init__(self, socketio: SocketIO, session: ServedSession, connections: Connections,
                 fanout: FanOut, projections: Projections, dispatcher: Dispatcher,
                 pages: dict[str, Any], joins: access.Limiter,
                 visible_to: Callable[[str, str], bool], seats: Seats,
                 base_url: str | None = None) -> None:
        self.socketio = socketio
        self.session = session
        self.connections = connections
        self.fanout = fanout
        self.projections = projections
        self.dispatcher = dispatcher
        self.pages = pages
        self.joins = joins  # new players per address
        self.visible_to = visible_to
        self.seats = seats
        self.base_url = base_url

    # ------------------------------------------------------------------ who is it

    def connect(self, auth: Any) -> None:
        """The connect handler: authenticate, then queue the welcome. Refusals raise."""
        try:
            with self.connections.seating:  # not while a seat is being freed
                client = self._authenticate(auth if auth is not None else {})
                client.on_laptop = hosts.on_laptop(request.environ)
                self.connections.admit(client)
        except (AccessDenied, CompanionError) as refused:
            raise ConnectionRefusedError(refused.message) from None
        self.dispatcher.put("welcome", lambda: self.welcome(client.sid))

    def _authenticate(self, auth: Any) -> Client:
        if not isinstance(auth, dict):
            raise AccessDenied(
                'dados de conexão inválidos; envie {"token": …} ou {"nome": …}')
        since = access.since_value(auth.get("desde"))
        sid = request.sid  # type: ignore[attr-defined]
        if "token" in auth:
            return self._by_token(sid, auth["token"], since)
        if "nome" in auth:
            return self._new_player(sid, auth["nome"], since)
        if auth.get("papel") == "mesa":
            return Client(sid, "mesa", protocol.viewer_for_role("mesa"), None, None, since,
                          welcome={"url_jogador": self._player_url()})
        raise AccessDenied(
            "falta o nome: para entrar como jogador informe seu nome; o Mestre usa o link "
            "com o token secreto"
        )

    def _by_token(self, sid: str, token: Any, since: int) -> Client:
        found: list[Client] = []

        def right() -> bool:
            client = self._token_client(sid, token, since)
            found.extend([client] if client is not None else [])
            return client is not None

        if not tokens.checked(token, right):
            raise AccessDenied(
                "token inválido ou expirado: o Mestre deve usar o link que o servidor "
                "mostrou; jogadores entram de novo informando o nome"
            )
        return found[0]

    def _token_client(self, sid: str, token: Any, since: int) -> Client | None:
        """The GM's or a player's connection for this token (None: no such token)."""
        if access.same_token(token, self.session.gm_token):
            return Client(sid, "mestre", protocol.viewer_for_role("mestre"), token, None, since)
        player = self.session.player_by_token(token) if isinstance(token, str) else None
        return None if player is None else self._player_client(sid, player, since)

    def _new_player(self, sid: str, name: Any, since: int) -> Client:
        clean = access.player_name(name)
        if not self.joins.allow(request.remote_addr or "?"):
            raise AccessDenied("muitas entradas seguidas deste aparelho; espere um minuto")
        player = self.session.join_player(clean)
        return self._player_client(sid, player, since)

    def _player_url(self) -> str:
        """What phones open: the configured LAN base, else the address this client used."""
        return player_url(self.base_url or request.host_url)  # type: ignore[attr-defined]

    @staticmethod
    def _player_client(sid: str, player: Player, since: int) -> Client:
        viewer = protocol.viewer_for_role("jogador", player.character_id)
        info = {"id": player.character_id, "nome": player.name}
        return Client(sid, "jogador", viewer, player.token, info, since)

    # ------------------------------------------------------------------ the welcome

    def welcome(self, sid: str) -> None:
        """Greet one client: boas_vindas, the events it missed, estado; then it is live."""
        if not self._wait_accepted(sid):
            self.connections.drop_pending(sid)
            return
        # it stays pending (its commands are taken) until it is live
        client = self.connections.waiting(sid)
        if client is None:  # gone, or its seat was freed while it was being admitted
            self.socketio.server.disconnect(sid, namespace=NAMESPACE)
            return
        sio = self.socketio.server
        fanout = self.fanout
        extra = {"lugares": self.seats.listing()} if client.role == "mestre" else {}
        with fanout.sending:  # no live event goes out between its replay and its rooms
            since = self._replay_from(client)
            sio.emit("boas_vindas", {"papel": client.role, "token": client.token,
                                     "jogador": client.player, "paginas": self.pages,
                                     **client.welcome, **extra},
                     to=sid, namespace=NAMESPACE)
            state = fanout.caught_up()  # the others of its kind have every event of it
            missed = self.session.history_since(since)
            for event in missed:
                if self.visible_to(event.visibility, client.viewer):
                    sio.emit("evento", self.projections.show(event, client.viewer), to=sid,
                             namespace=NAMESPACE)
            client.last_sent = missed[-1].seq if missed else max(since, fanout.cursor)
            view = fanout.sync_view(client.viewer, view=fanout.view(client.viewer, state))
            try:
                for room in client.rooms:
                    sio.enter_room(sid, room, namespace=NAMESPACE)
            except (ValueError, KeyError):  # it left during the welcome (connected, then gone)
                log.info("conexão %s encerrada durante as boas-vindas", sid)
                self._forget(client)
                self.connections.drop(sid)
                return
            self.connections.go_live(client)
        if client.role == "jogador":
            self.seats.changed()  # one more phone on that seat
        if not sio.manager.is_connected(sid, NAMESPACE):  # it left during the welcome
            self._forget(client)
            return
        sio.emit("estado", view, to=sid, namespace=NAMESPACE)

    def _replay_from(self, client: Client) -> int:
        """The global seq after which the client's missed events come. A stale desde (past
        the end of what this viewer may see: another session's phone) replays everything."""
        if client.viewer == protocol.GM:
            latest = self._last_seq(self.fanout.cursor)
            return client.since if client.since <= latest else 0
        seen = client.since if client.since <= self.projections.count(client.viewer) else 0
        return self.projections.global_after(seen, client.viewer)

    def _last_seq(self, after: int) -> int:
        newer = self.session.events_since(after)
        return newer[-1]["seq"] if newer else after

    def _forget(self, client: Client) -> None:
        self.connections.drop_live(client.sid)
        for room in client.rooms:
            self.socketio.server.leave_room(client.sid, room, namespace=NAMESPACE)

    def _wait_accepted(self, sid: str) -> bool:
        """The connect packet goes out after the handler returns; wait for it (briefly)."""
        manager = self.socketio.server.manager
        deadline = time.monotonic() + WELCOME_WAIT
        while time.monotonic() < deadline:
            if manager.is_connected(sid, NAMESPACE):
                return True
            if self.connections.waiting(sid) is None:
                return False
            time.sleep(0.002)
        return False
