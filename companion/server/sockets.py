"""The Socket.IO side of the server: the hub that wires its parts, and the handlers.

- companion.server.rooms: who is connected, and the rooms an event reaches;
- companion.server.welcome: who a connection is (`auth`) and its welcome (`boas_vindas`, the
  events it missed, `estado`);
- companion.server.fanout: live events to their rooms, the views after them (`estado`,
  `estado_mudou`), the dispatcher thread — and the ordering guarantees;
- companion.server.command_gate: `comando`, what each connection may run, its acknowledgement;
- companion.server.seat_sockets: the seats (`liberar`, `sair`, `aparelho`; `lugares`,
  `lugar_liberado`);
- `regras` (here): the GM's rule edits, `{"validar": {…}}` (a dry run), `{"alterar": {…}}`
  or `{"criar": {…}}` (only adds: a region that exists is refused) in the export file's shape, acknowledged `{ok, erro}` (companion.server.api.rules_answer);
  and `{"esquecer": ["Nome", …]}`, a name the campaign learned taken out of the voice lists
  (companion.server.voice_names_screen: no game command, nothing to undo).

Event numbers are per viewer (companion.history.projection, kept live by companion.server.projections):
the GM gets the log's global seqs; a player and the table screen get 1, 2, 3, … counting only
the events they may see, so the gaps left by GM-only events (whose number depends on secret
outcomes) never show. `desde`, the `evento` messages and the `comando` acknowledgement all use
the connection's own numbering. So do a player's prompt ids, read back by the gate.

Who sees what and who may run what is companion.tables.protocol's.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from flask import request
from flask_socketio import SocketIO

from companion.rules import form, pages
from companion.tables import protocol
from companion.server import access, budget, qr
from companion.server.api import rules_answer
from companion.server.fanout import Dispatcher, FanOut, ViewState, ViewStates
from companion.server.command_gate import CommandGate
from companion.server.voice_names_screen import VoiceNames
from companion.server.projections import Projections
from companion.server.rooms import Client, Connections
from companion.server.seat_sockets import SeatSockets
from companion.server.served import ServedSession
from companion.server.welcome import Reception
from companion.tables.files import Tables


class Hub:
    """One session's connections: the welcome, the fan-out and the command gate, wired."""

    def __init__(self, socketio: SocketIO, session: ServedSession, tables: Tables,
                 view_state: ViewState, visible_to: Callable[[str, str], bool],
                 rate_limiter: access.RateLimiter | None = None,
                 gm_rate_limiter: access.RateLimiter | None = None,
                 base_url: qr.BaseUrl = None, limits: bool = True,
                 view_states: ViewStates | None = None, open_joins: bool = False) -> None:
        budgets = {
            "jogador": budget.budget(rate_limiter, access.COMMANDS_PER_WINDOW, limits),
            "mestre": budget.budget(gm_rate_limiter, access.GM_COMMANDS_PER_WINDOW, limits),
        }
        joins: access.Limiter = access.RateLimiter(access.JOINS_PER_MINUTE, 60.0)
        if not limits:  # --sem-limites: load benchmarks on loopback only
            joins = access.NoLimit()
        self.connections = Connections()
        self.dispatcher = Dispatcher(tables.narration)
        self.projections = Projections(session, tables)
        self.fanout = FanOut(socketio, session, tables, self.connections, self.projections,
                             self.dispatcher, view_state, view_states or _one_by_one(view_state),
                             visible_to)
        self.seats = SeatSockets(socketio, session, tables, self.connections, self.dispatcher,
                           budgets, base_url)
        self.reception = Reception(socketio, session, self.connections, self.fanout,
                                   self.projections, self.dispatcher, pages.page_data(tables),
                                   joins, visible_to, self.seats, base_url, limits,
                                   open_joins=open_joins or not limits)
        self.gate = CommandGate(session, tables, self.connections, self.projections, budgets,
                                visible_to)
        self.on_disconnect: list[Callable[[str], None]] = []  # other parts that forget a sid
        self.names: VoiceNames | None = None  # the voice's names (set once voice is wired)

    # ------------------------------------------------------------------ what the parts share

    @property
    def session(self) -> ServedSession:
        return self.fanout.session

    @session.setter
    def session(self, session: ServedSession) -> None:
        """Every part reads the new one (a test puts a proxy in its place)."""
        self.fanout.session = self.reception.session = self.gate.session = session
        self.seats.session = session
        self.reception.doorway.session = session

    @property
    def joins(self) -> access.Limiter:
        """New players per address (a test freezes its clock)."""
        return self.reception.joins

    @joins.setter
    def joins(self, joins: access.Limiter) -> None:
        self.reception.joins = joins

    @property
    def sending(self) -> threading.RLock:
        """Held while live events go out, and while a welcome replays (FanOut.sending)."""
        return self.fanout.sending

    @property
    def pending(self) -> dict[str, Client]:
        """The connections being welcomed, by sid."""
        return self.connections.pending

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Subscribe to the session and start the dispatcher thread."""
        self.session.subscribe(self.fanout.on_events)
        self.session.subscribe(self.seats.on_events)
        self.dispatcher.start()

    def stop(self) -> None:
        self.session.unsubscribe(self.fanout.on_events)
        self.session.unsubscribe(self.seats.on_events)
        self.dispatcher.stop()
        if self.names is not None:
            self.names.close()

    # ------------------------------------------------------------------ the handlers

    def connect(self, auth: Any) -> None:
        self.reception.connect(auth)

    def disconnect(self, sid: str) -> None:
        client = self.connections.find(sid)
        self.connections.drop(sid)
        self.gate.forget(sid)
        self.reception.doorway.forget(sid)
        for forget in self.on_disconnect:
            forget(sid)
        if client is not None and client.role == "jogador":
            self.seats.changed()  # one phone fewer on that seat

    def command(self, payload: Any) -> dict[str, Any]:
        return self.gate.command(payload)

    def rules(self, payload: Any) -> dict[str, Any]:
        """`regras`: the GM checks (`validar`) or changes (`alterar`) the campaign's rules."""
        sid = request.sid  # type: ignore[attr-defined]
        client = self.connections.find(sid)
        words = self.session.tables.narration
        if client is None or client.role != "mestre":
            return {"ok": False, "erro": words.render("regras.so_mestre", {})}
        too_fast = self.gate.budgets[client.role].refusal(client, self.session.tables)
        if too_fast is not None:
            return {"ok": False, "erro": too_fast}
        asked = [key for key in ("validar", "alterar", "criar", "esquecer")
                 if isinstance(payload, dict) and key in payload]
        if len(asked) != 1 or len(payload) != 1 or asked[0] == "esquecer" and self.names is None:
            return {"ok": False, "erro": words.render("regras.pedido_invalido", {})}
        if asked[0] == "esquecer" and self.names is not None:
            return self.names.forget(payload["esquecer"])
        dry_run = asked[0] == "validar"
        patch = payload[asked[0]]
        return rules_answer(self.session.change_rules(patch, protocol.GM, dry_run=dry_run,
                                                      create=asked[0] == "criar"),
                            dry_run, form.warnings(patch, self.session.tables))


def _one_by_one(view_state: ViewState) -> ViewStates:
    """view_states from view_state: each viewer's view built on its own."""
    return lambda state, viewers, tables: {v: view_state(state, v, tables) for v in viewers}


def register(socketio: SocketIO, hub: Hub) -> None:
    """Wire the Socket.IO events to the hub."""

    @socketio.on("connect")
    def on_connect(auth: Any = None) -> None:
        hub.connect(auth)

    @socketio.on("disconnect")
    def on_disconnect(*_reason: Any) -> None:
        hub.disconnect(request.sid)  # type: ignore[attr-defined]

    @socketio.on("comando")
    def on_command(payload: Any = None) -> dict[str, Any]:
        return hub.command(payload)

    @socketio.on("regras")
    def on_rules(payload: Any = None) -> dict[str, Any]:
        return hub.rules(payload)

    @socketio.on("anteriores")
    def on_older(payload: Any = None) -> dict[str, Any]:
        return hub.reception.older(payload)

    @socketio.on("entrada")
    def on_entry(payload: Any = None) -> dict[str, Any]:
        return hub.reception.doorway.answer(payload)

    @socketio.on("liberar")
    def on_free(payload: Any = None) -> dict[str, Any]:
        return hub.seats.free(payload)

    @socketio.on("sair")
    def on_leave(payload: Any = None) -> dict[str, Any]:
        return hub.seats.leave(payload)

    @socketio.on("aparelho")
    def on_device(payload: Any = None) -> dict[str, Any]:
        return hub.seats.device_link(payload)

    @socketio.on("convite")
    def on_invite(payload: Any = None) -> dict[str, Any]:
        return hub.seats.invite(payload)
