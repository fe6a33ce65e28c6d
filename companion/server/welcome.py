"""Connecting: who a new connection is, and its welcome (`boas_vindas`, the events it missed,
`estado`), after which it is in its rooms and live.

Connecting (default namespace, `auth` dict):
- `{"token": <gm token>}` → the GM (rooms "gm" and "public");
- `{"nome": "Ana"}` → a new player: it waits at the door until the GM accepts it
  (companion.server.doorway), then joins (session.join_player), rooms "public" and
  "player:<id>"; a name whose seat is held (its character has tokens) is refused
  (companion.server.seat_sockets);
- `{"token": <player token>}` → a returning player, or a player's second device;
- `{"papel": "mesa"}` → the shared table screen, a read-only public viewer (room "public");
  its `boas_vindas` carries `url_jogador`, the address phones open (the same the QR code shows,
  the LAN address under `companion serve` even when the screen itself opened 127.0.0.1);
- any of them may add `"desde": <last seq seen>`, in the connection's own numbering
  (companion.history.projection).

`boas_vindas` also carries `paginas` (companion.rules.pages: the pages' buttons, mode names, prompt
titles, option labels), and the GM's carries `lugares` (the seats: companion.server.seat_sockets).

After a connection is accepted the client gets `boas_vindas`, then the events it may see with
seq > desde — at most the WELCOME_EVENTS last, what the pages' log shows — in seq order, one
`evento` each (docs/design.md's contract), or, for a client that asked with `"lote": true` (the
pages do), as lists (`eventos`: one message for the replay, one more for the events that went
out while it was read, if any; 300 messages of one event each cost a storm of a hundred
reconnections seconds of the GIL); then `estado`; from then on each new event is one
`evento`. Older ones come on request: `anteriores` {"antes": N} is acknowledged
{"ok": true, "eventos": [… at most OLDER_PAGE, numbered below N, oldest first], "mais": bool}.
The welcome runs on the dispatcher thread; it reads and sends the replay while the client is in
no room yet, and takes the live fan-out's lock (companion.server.fanout) only for the events
that went out meanwhile and to enter the rooms, so the client never gets one twice nor misses
one, and a storm of reconnections costs the GM's commands little, however long the campaign.
One address may hold at most budget.CONNECTIONS_PER_ADDRESS connections, and open at most
budget.RECONNECTS_PER_ADDRESS per budget.RECONNECT_WINDOW seconds (a device reconnecting in a
loop slows only itself; the laptop's own connections are the GM's machine and not counted).
The GM's welcome goes before every other viewer's (companion.server.fanout.Dispatcher: its
own queue), so a storm of table screens never keeps the GM waiting for more than the one
welcome being sent.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from flask import request
from flask_socketio import ConnectionRefusedError, SocketIO

from companion.history.replay import HISTORY_NOTICE, RULES_CHANGED
from companion.tables import protocol
from companion.tables.errors import AccessDenied, CompanionError
from companion.server import access, budget, hosts, qr, wrong_tokens
from companion.server.doorway import Doorway, Knock
from companion.server.fanout import Dispatcher, FanOut
from companion.server.projections import Projections
from companion.server.rooms import NAMESPACE, Client, Connections
from companion.server.seat_sockets import SeatSockets
from companion.server.served import ServedSession
from companion.session import Player
from companion.tables.narration import Narrator

log = logging.getLogger(__name__)
# The system commands whose GM-only events are notices of the campaign's opening (the rules
# changed since it was last played, an update, a repaired file): the GM page keeps them on top.
NOTICE_COMMANDS = (RULES_CHANGED, HISTORY_NOTICE)

WELCOME_WAIT = 5.0  # seconds to wait for the connection to be accepted before welcoming
# A welcome replays at most this many of the viewer's events: what the pages' log keeps
# (web/static/js/common.js eventLog's limit); older ones come on request (`anteriores`).
WELCOME_EVENTS = 300
REPLAY = "eventos"  # a welcome's events, in one message: a list of `evento` objects, seq order


def batched(auth: Any) -> bool:
    """Whether the client asked for its welcome's replay as one `eventos` list (`"lote": true`
    in its auth, as the pages do); otherwise it gets one `evento` per event, as docs/design.md's
    contract says."""
    return isinstance(auth, dict) and auth.get("lote") is True
OLDER_PAGE = 100  # events per `anteriores` answer
OLDER_PER_WINDOW = 10  # `anteriores` requests per address per access.WINDOW_SECONDS


class Reception:
    """Authenticates connections and welcomes them, one at a time, from the dispatcher."""

    def __init__(self, socketio: SocketIO, session: ServedSession, connections: Connections,
                 fanout: FanOut, projections: Projections, dispatcher: Dispatcher,
                 pages: dict[str, Any], joins: access.Limiter,
                 visible_to: Callable[[str, str], bool], seats: SeatSockets,
                 base_url: qr.BaseUrl = None, limits: bool = True,
                 doorway: Doorway | None = None, open_joins: bool = False) -> None:
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
        self.open_joins = open_joins  # names join without the GM (tests' harness, load tests)
        self.doorway = doorway or Doorway(socketio, session, connections, dispatcher)
        self.doorway.admit = self.let_in
        # connections per address (None: no cap, `--sem-limites`); a test may raise it
        self.connection_cap: int | None = budget.CONNECTIONS_PER_ADDRESS if limits else None
        # welcomes per address (a device reconnecting in a loop slows only itself)
        self.reconnects: access.Limiter = (
            access.RateLimiter(budget.RECONNECTS_PER_ADDRESS, budget.RECONNECT_WINDOW)
            if limits else access.NoLimit())
        self.older_pages: access.Limiter = (
            access.RateLimiter(OLDER_PER_WINDOW, access.WINDOW_SECONDS) if limits
            else access.NoLimit())

    @property
    def words(self) -> Narrator:
        """The session's narration: its refusals (tables/narracao/acesso.yaml) and log lines."""
        return self.session.tables.narration

    # ------------------------------------------------------------------ who is it

    def connect(self, auth: Any) -> None:
        """The connect handler: authenticate, then queue the welcome. Refusals raise."""
        try:
            with self.connections.seating:  # not while a seat is being freed
                address = request.remote_addr or "?"
                on_laptop = hosts.on_laptop(request.environ)
                self._check_cap(address)
                self._check_rate(address, on_laptop)
                client = self._authenticate(auth if auth is not None else {}, address)
                if client is None:  # at the door, waiting for the GM (companion.server.doorway)
                    return
                client.address = address
                client.on_laptop = on_laptop
                client.batched = batched(auth)
                self.connections.admit(client)
        except (AccessDenied, CompanionError) as refused:
            raise ConnectionRefusedError(refused.message) from None
        # the GM's welcome goes before every other viewer's (companion.server.fanout.Dispatcher)
        self.dispatcher.put("welcome", lambda: self.welcome(client.sid),
                            behind=client.role != "mestre")

    def let_in(self, knock: Knock) -> None:
        """The GM accepted a request: its name joins (the character made the first time), and
        its phone is welcomed as that player. A refusal (the seat taken meanwhile) raises."""
        with self.connections.seating:
            player = self.session.join_player(knock.name)
            client = self._player_client(knock.sid, player, knock.since)
            client.address = knock.address
            client.batched = knock.batched
            self.connections.admit(client)
        self.dispatcher.put("welcome", lambda: self.welcome(knock.sid), behind=True)

    def _check_cap(self, address: str) -> None:
        """Refuse a connection past the per-address cap (the sockets of one device: its
        threads and file descriptors are the laptop's)."""
        cap = self.connection_cap
        held = self.connections.from_address(address) + self.doorway.waiting_from(address)
        if cap is not None and held >= cap:
            raise AccessDenied(budget.too_many_connections(self.session.tables, cap))

    def _check_rate(self, address: str, on_laptop: bool) -> None:
        """Refuse a connection past its address's reconnection rate (each one is a welcome);
        the laptop's own are the GM's machine and never counted."""
        if not on_laptop and not self.reconnects.allow(f"addr:{address}"):
            raise AccessDenied(budget.too_many_reconnects(
                self.session.tables, self.reconnects.capacity, budget.RECONNECT_WINDOW))

    def _authenticate(self, auth: Any, address: str) -> Client | None:
        if not isinstance(auth, dict):
            raise AccessDenied(self.words.render("acesso.conexao_invalida", {}))
        since = access.since_value(auth.get("desde"), self.words)
        sid = request.sid  # type: ignore[attr-defined]
        if "token" in auth:
            return self._by_token(sid, auth["token"], since)
        if "convite" in auth:
            return self._by_invite(sid, auth["convite"], since)
        if "nome" in auth:
            return self._new_player(sid, auth["nome"], since, address, batched(auth))
        if auth.get("papel") == "mesa":
            return Client(sid, "mesa", protocol.viewer_for_role("mesa"), None, None, since,
                          welcome={"url_jogador": self._player_url()})
        raise AccessDenied(self.words.render("acesso.falta_nome", {}))

    def _by_token(self, sid: str, token: Any, since: int) -> Client:
        found: list[Client] = []

        def right() -> bool:
            client = self._token_client(sid, token, since)
            found.extend([client] if client is not None else [])
            return client is not None

        if not wrong_tokens.checked(token, right):
            raise AccessDenied(self.words.render("acesso.token_invalido", {}))
        return found[0]

    def _by_invite(self, sid: str, code: Any, since: int) -> Client:
        """A phone with the GM's one-time link to a free seat (companion.server.invites):
        it takes the seat at once; a spent or stale code is refused (and throttled as a
        wrong token is)."""
        found: list[Client] = []

        def right() -> bool:
            wanted = self.seats.invites.take(code)
            party = {c.id for c in self.session.state.party}
            seat = next((s for s in self.session.seats() if s.character_id == wanted
                         and wanted in party and not s.occupied), None)
            if seat is not None:
                player = self.session.join_player(seat.name)
                found.append(self._player_client(sid, player, since))
            return seat is not None

        if not wrong_tokens.checked(code, right):
            raise AccessDenied(self.session.tables.narration.render("convite.invalido", {}))
        return found[0]

    def _token_client(self, sid: str, token: Any, since: int) -> Client | None:
        """The GM's or a player's connection for this token (None: no such token)."""
        if access.same_token(token, self.session.gm_token):
            return Client(sid, "mestre", protocol.viewer_for_role("mestre"), token, None, since)
        player = self.session.player_by_token(token) if isinstance(token, str) else None
        return None if player is None else self._player_client(sid, player, since)

    def _new_player(self, sid: str, name: Any, since: int, address: str,
                    in_one: bool = False) -> Client | None:
        """A phone by name: at the door until the GM answers (None), or in at once when
        joins are open (the tests' harness, `--sem-limites`)."""
        clean = access.player_name(name, self.words)
        if not self.joins.allow(address):
            raise AccessDenied(self.words.render("acesso.entradas_demais", {}))
        if not self.open_joins:
            self.doorway.knock(sid, clean, address, since, in_one)
            return None
        player = self.session.join_player(clean)
        return self._player_client(sid, player, since)

    def _player_url(self) -> str:
        """What phones open: the configured LAN base, else the address this client used."""
        base = qr.current_base(self.base_url) or request.host_url  # type: ignore[attr-defined]
        return qr.player_url(base)

    @staticmethod
    def _player_client(sid: str, player: Player, since: int) -> Client:
        viewer = protocol.viewer_for_role("jogador", player.character_id)
        info = {"id": player.character_id, "nome": player.name}
        return Client(sid, "jogador", viewer, player.token, info, since)

    # ------------------------------------------------------------------ the welcome

    def welcome(self, sid: str) -> None:
        """Greet one client: boas_vindas, the recent events it missed, estado; then it is live.

        What it costs does not grow with the campaign: at most WELCOME_EVENTS of its events
        (what the pages' log shows; older ones come on request, `anteriores`), read and sent
        before taking the fan-out's lock, while the client is in no room yet; under the lock
        only the events that went out to the rooms meanwhile, then its rooms."""
        if not self._wait_accepted(sid):
            self.connections.drop_pending(sid)
            return
        # it stays pending (its commands are taken) until it is live
        client = self.connections.waiting(sid)
        if client is None:  # gone, or its seat was freed while it was being admitted
            self.socketio.server.disconnect(sid, namespace=NAMESPACE)
            return
        self.projections.prepare(client.viewer)  # a new viewer's, read without the locks
        sio = self.socketio.server
        fanout = self.fanout
        # the GM's page keeps the history notices (the rules changed, an update) on top
        extra = {"lugares": self.seats.listing(), "entradas": self.doorway.listing(),
                 "comandos_de_aviso": list(NOTICE_COMMANDS)} if client.role == "mestre" else {}
        sio.emit("boas_vindas", {"papel": client.role, "token": client.token,
                                 "jogador": client.player, "paginas": self.pages,
                                 **client.welcome, **extra},
                 to=sid, namespace=NAMESPACE)
        upto = fanout.cursor  # the rooms have every event through here (the client: none)
        start = self._replay_from(client)
        self._send(client, start, upto)
        with fanout.sending:  # no live event goes out between the rest and its rooms
            state = fanout.caught_up()  # the others of its kind have every event of it
            last = self._send(client, max(start, upto))
            client.last_sent = max(last, fanout.cursor)
            view = fanout.sync_view(client.viewer, view=fanout.view(client.viewer, state))
            try:
                for room in client.rooms:
                    sio.enter_room(sid, room, namespace=NAMESPACE)
            except (ValueError, KeyError):  # it left during the welcome (connected, then gone)
                log.info(self.words.render("log_do_servidor.saiu_nas_boas_vindas",
                                           {"conexao": sid}))
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

    def _send(self, client: Client, after: int, through: int | None = None) -> int:
        """Send the client its events with a global seq in (after, through] (None: to the
        log's end); return the last global seq read (`after` when none)."""
        read = [event for event in self.session.history_since(after)
                if through is None or event.seq <= through]
        mine = [event for event in read if self.visible_to(event.visibility, client.viewer)]
        shown = self.projections.show_all(mine, client.viewer) if mine else []
        if shown and client.batched:  # one message: one encoding, one frame, one wake-up
            self.socketio.server.emit(REPLAY, shown, to=client.sid, namespace=NAMESPACE)
        else:  # the contract's default (docs/design.md): one `evento` each
            for event in shown:
                self.socketio.server.emit("evento", event, to=client.sid, namespace=NAMESPACE)
        return read[-1].seq if read else after

    def _replay_from(self, client: Client) -> int:
        """The global seq after which the client's missed events come: after its `desde`, at
        most the WELCOME_EVENTS last it may see. A stale desde (past the end of what this
        viewer may see: another session's phone) counts as none."""
        if client.viewer == protocol.GM:
            latest = self._last_seq(self.fanout.cursor)
            since = client.since if client.since <= latest else 0
            return max(since, latest - WELCOME_EVENTS)
        count = self.projections.count(client.viewer)
        seen = client.since if client.since <= count else 0
        return self.projections.global_after(max(seen, count - WELCOME_EVENTS), client.viewer)

    def older(self, payload: Any) -> dict[str, Any]:
        """`anteriores` {"antes": N}: at most OLDER_PAGE of the connection's events numbered
        below N (its own numbering), oldest first, and whether there are more before them."""
        client = self.connections.find(request.sid)  # type: ignore[attr-defined]
        if client is None:
            return {"ok": False,
                    "error": self.words.render("servidor.conexao_nao_aceita", {})}
        before = payload.get("antes") if isinstance(payload, dict) else None
        if isinstance(before, bool) or not isinstance(before, int) or before < 1:
            return {"ok": False, "error": self.session.tables.narration.render(
                "limites.anteriores_invalido", {"recebido": repr(before)[:40]})}
        if not self.older_pages.allow(f"addr:{client.address}"):
            return {"ok": False,
                    "error": access.rate_limited(int(self.older_pages.capacity), self.words)}
        before = min(before, self.projections.count(client.viewer) + 1)
        first = max(0, before - 1 - OLDER_PAGE)
        start = self.projections.global_after(first, client.viewer)
        end = self.projections.global_after(max(0, before - 1), client.viewer)
        events = [self.projections.show(event, client.viewer)
                  for event in self.session.history_since(start, limit=max(0, end - start))
                  if self.visible_to(event.visibility, client.viewer)]
        return {"ok": True, "eventos": events, "mais": first > 0}

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
