"""Seats: a character's place at the table belongs to the devices holding its tokens.

Client → server (each with an acknowledgement):
- `liberar` {"personagem": <character id>} — the GM frees a seat → {"ok": true} or a refusal;
- `sair` — a player frees their own seat ("Sair") → {"ok": true} or a refusal;
- `aparelho` — a player asks for the link of a second device → {"ok": true, "url", "qr"}: the
  player page's address with the player's token in the fragment (`/jogador#token=…`, which
  the browser never sends: no server log holds it) and its QR code as SVG text;
- `convite` {"personagem": <character id>} — the GM asks for a free seat's one-time link
  (`/jogador#convite=…`) and its QR code → {"ok": true, "url", "qr"} (companion.server.invites).
Server → client:
- `lugar_liberado` {"personagem", "motivo", "por"} to every phone of a freed seat, which is
  then disconnected (its token no longer exists: reconnecting with it is refused);
- `lugares` {"lugares": [{"id", "nome", "ocupado", "online", "desde"}]} to the GM room when
  the seats change (a join, a phone connecting or leaving, a freeing, the party changing);
  the GM's `boas_vindas` carries the same list as `lugares`.

Freeing (companion.session.Session.free_seat) deletes the seat's tokens and records the
GM-only system command `lugar_liberado` in one transaction. It holds `Connections.seating`,
as authentication does, so no connection is admitted with a token being deleted.
"""
from __future__ import annotations

import threading
from typing import Any

from flask import request
from flask_socketio import SocketIO

from companion.tables import protocol
from companion.tables.errors import CommandRejected, CompanionError
from companion.server import access, qr
from companion.server.budget import Budget
from companion.server.fanout import Dispatcher
from companion.server.invites import Invites
from companion.server.rooms import GM_ROOM, NAMESPACE, Client, Connections
from companion.server.served import ServedSession
from companion.history.replay import SEAT_FREED, UNDO
from companion.tables.files import Tables

LEAVE_GRACE = 0.5  # seconds the phone that left has to read its acknowledgement


class SeatSockets:
    """The seats of one session's table over Socket.IO, as the GM's page and the players' phones
    see them (the session's own book of seats: companion.session.seats)."""

    def __init__(self, socketio: SocketIO, session: ServedSession, tables: Tables,
                 connections: Connections, dispatcher: Dispatcher,
                 budgets: dict[str, Budget], base_url: qr.BaseUrl = None) -> None:
        self.socketio = socketio
        self.session = session
        self.tables = tables
        self.connections = connections
        self.dispatcher = dispatcher
        self.budgets = budgets  # role → its requests' budget (the gate's)
        self.base_url = base_url  # what phones open (None: the address this client used)
        self._shown: list[dict[str, Any]] | None = None  # the list the GM room last got
        self._party: tuple[tuple[str, str], ...] | None = None
        self.invites = Invites()  # the GM's one-time links to free seats

    # ------------------------------------------------------------------ the GM's list

    def listing(self) -> list[dict[str, Any]]:
        """Every seat: who, whether someone holds it, how many phones are on it now, since
        when (the first token's time, ISO 8601; None when free)."""
        online: dict[str, int] = {}
        for client in self.connections.live():
            if client.role == "jogador":
                online[client.viewer] = online.get(client.viewer, 0) + 1
        return [{"id": seat.character_id, "nome": seat.name, "ocupado": seat.occupied,
                 "online": online.get(protocol.viewer_for_role("jogador", seat.character_id),
                                      0),
                 "desde": seat.since if seat.occupied else None}
                for seat in self.session.seats()]

    def changed(self) -> None:
        """The seats may have changed: the GM room hears the new list (from the dispatcher,
        in order with the welcomes)."""
        self.dispatcher.put("lugares", self._push)

    def on_events(self, events: list[dict]) -> None:
        """Session callback: a change of the party (a character made or undone) changes the
        list; a seat an undo freed (its character undone) lets its phones go."""
        for event in events:
            data = event.get("data") or {}
            if event.get("command") == SEAT_FREED and data.get("por") == UNDO:
                self._let_go_of(str(data.get("personagem")), str(data.get("nome")), UNDO)
        party = tuple((c.id, c.name) for c in self.session.state.party)
        if party != self._party:
            self._party = party
            self.invites.keep({character_id for character_id, _ in party})
            self.changed()

    def _push(self) -> None:
        shown = self.listing()
        if shown == self._shown:
            return
        self._shown = shown
        self.socketio.server.emit("lugares", {"lugares": shown}, to=GM_ROOM,
                                  namespace=NAMESPACE)

    # ------------------------------------------------------------------ the handlers

    def free(self, payload: Any) -> dict[str, Any]:
        """`liberar`: the GM frees a seat."""
        refusal = self._gm_refusal()
        if refusal is not None:
            return refusal
        wanted = payload.get("personagem") if isinstance(payload, dict) else None
        if not isinstance(wanted, str) or not wanted or len(wanted) > access.MAX_NAME:
            return self._refused(CommandRejected.because("entrada.liberar_invalido"))
        return self._release(wanted, protocol.GM)

    def leave(self, _payload: Any = None) -> dict[str, Any]:
        """`sair`: a player frees their own seat. This phone reads the acknowledgement, then
        is let go with the others."""
        client = self._client()
        if client is None or client.role != "jogador":
            return self._refused(CommandRejected.because("entrada.so_jogador"))
        too_fast = self._too_fast(client)
        if too_fast is not None:
            return {"ok": False, "error": too_fast}
        actor = protocol.actor_for_viewer(client.viewer) or ""
        return self._release(protocol.character_of(client.viewer) or "", actor, client.sid)

    def device_link(self, _payload: Any = None) -> dict[str, Any]:
        """`aparelho`: the link (and its QR code) a player's second device opens."""
        client = self._client()
        if client is None or client.role != "jogador" or not client.token:
            return self._refused(CommandRejected.because("entrada.so_jogador"))
        too_fast = self._too_fast(client)
        if too_fast is not None:
            return {"ok": False, "error": too_fast}
        name = (client.player or {}).get("nome", "")
        return self._link(f"token={client.token}",
                          self.tables.narration.render("entrada.qr_aparelho", {"nome": name}))

    def invite(self, payload: Any) -> dict[str, Any]:
        """`convite`: the GM asks for a free seat's one-time link and its QR code."""
        refusal = self._gm_refusal()
        if refusal is not None:
            return refusal
        wanted = payload.get("personagem") if isinstance(payload, dict) else None
        party = {c.id for c in self.session.state.party}
        seats = [seat for seat in self.session.seats() if seat.character_id in party]
        seat = next((s for s in seats if s.character_id == wanted), None)
        if seat is None:
            return self._refused(CommandRejected.because(
                "convite.sem_lugar",
                personagem=wanted[:access.MAX_NAME] if isinstance(wanted, str) else "",
                livres=[s.name for s in seats if not s.occupied]))
        if seat.occupied:
            return self._refused(CommandRejected.because("convite.ocupado", nome=seat.name))
        code = self.invites.mint(seat.character_id)
        return self._link(f"convite={code}",
                          self.tables.narration.render("convite.qr", {"nome": seat.name}))

    def _gm_refusal(self) -> dict[str, Any] | None:
        """Why a GM's seat action is refused now (not the GM, or too fast); None: it may go."""
        client = self._client()
        if client is None or client.role != "mestre":
            return self._refused(CommandRejected.because("entrada.lugar_alheio"), "so_mestre")
        too_fast = self._too_fast(client)
        return None if too_fast is None else {"ok": False, "error": too_fast}

    def _link(self, fragment: str, title: str) -> dict[str, Any]:
        """A link to the player page with `fragment` (never sent to the server) and its QR
        code, under the address phones are shown now."""
        base = qr.current_base(self.base_url) or request.host_url  # type: ignore[attr-defined]
        url = f"{qr.player_url(base)}#{fragment}"
        return {"ok": True, "url": url, "qr": qr.svg(url, title).decode("utf-8")}

    # ------------------------------------------------------------------ freeing

    def _release(self, character_id: str, actor: str, asker: str | None = None
                 ) -> dict[str, Any]:
        """Free the seat, then tell its phones why and let them go (the asker, if it is one
        of them, after its acknowledgement)."""
        viewer = protocol.viewer_for_role("jogador", character_id)
        with self.connections.seating:
            try:
                told = self.session.free_seat(character_id, actor)
            except CompanionError as refused:
                return protocol.refusal(refused.message, getattr(refused, "code", None))
            phones = self.connections.of_viewer(viewer)
        by = told[0]["data"]["por"] if told else actor
        name = told[0]["data"]["nome"] if told else character_id
        self._let_go_of(character_id, name, by, asker, phones)
        return {"ok": True}

    def _let_go_of(self, character_id: str, name: str, by: str, asker: str | None = None,
                   phones: list[Client] | None = None) -> None:
        """Tell the phones of a freed seat why, and let them go (the asker, if one of them,
        after its acknowledgement)."""
        viewer = protocol.viewer_for_role("jogador", character_id)
        self.invites.drop(character_id)  # a code handed out before no longer opens it
        if phones is None:
            phones = self.connections.of_viewer(viewer)
        notice = {"personagem": character_id, "por": by,
                  "motivo": self.tables.narration.render("entrada.aparelho_saiu",
                                                         {"nome": name, "por": by})}
        sio = self.socketio.server
        for phone in phones:
            self.connections.drop(phone.sid)  # nothing more reaches it, nothing it sends runs
            for room in phone.rooms:
                sio.leave_room(phone.sid, room, namespace=NAMESPACE)
            if phone.sid == asker:
                self._later(LEAVE_GRACE, phone.sid)
                continue
            sio.emit("lugar_liberado", notice, to=phone.sid, namespace=NAMESPACE)
            sio.disconnect(phone.sid, namespace=NAMESPACE)
        self._empty_room(viewer, {phone.sid for phone in phones})
        self.changed()

    def _empty_room(self, room: str, known: set[str]) -> None:
        """Disconnect every socket still in the seat's room that is not one of its known
        phones: a room is what an event reaches, whatever the connection list says."""
        sio = self.socketio.server
        try:
            inside = [sid for sid, _eio in sio.manager.get_participants(NAMESPACE, room)]
        except (KeyError, RuntimeError):  # nobody in it, or it changed while read
            inside = []
        for sid in inside:
            if sid not in known:
                sio.leave_room(sid, room, namespace=NAMESPACE)
                sio.disconnect(sid, namespace=NAMESPACE)

    def _later(self, seconds: float, sid: str) -> None:
        timer = threading.Timer(seconds, self._let_go, args=(sid,))
        timer.daemon = True
        timer.start()

    def _let_go(self, sid: str) -> None:
        sio = self.socketio.server
        if sio.manager.is_connected(sid, NAMESPACE):
            sio.disconnect(sid, namespace=NAMESPACE)

    # ------------------------------------------------------------------ helpers

    def _client(self) -> Client | None:
        return self.connections.find(request.sid)  # type: ignore[attr-defined]

    def _too_fast(self, client: Client) -> str | None:
        budget = self.budgets.get(client.role)
        return None if budget is None else budget.refusal(client, self.session.tables)

    def _refused(self, refusal: CommandRejected, page_code: str | None = None
                 ) -> dict[str, Any]:
        """The server's own refusal, said by its code (tables/narracao/entrada.yaml)."""
        text = self.tables.narration.render(str(refusal.code), refusal.params)
        return protocol.refusal(text, page_code)
