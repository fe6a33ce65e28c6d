"""Who is connected, and the Socket.IO rooms an event reaches.

Rooms (default namespace): "gm" (the GM), "public" (everyone), "player:<id>" (one player's
phones), "mesa" (the table screens) and "mesa_notebook" (the table screens on the laptop). An event goes to the rooms of its visibility
(`rooms_for`); the fan-out sends it to one room per numbering (`targets`), so each viewer gets
its own seqs (companion.history.projection).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.tables import protocol

NAMESPACE = "/"
GM_ROOM = "gm"
PUBLIC_ROOM = "public"
TABLE_ROOM = "mesa"  # shared screens: they get the public estado
LAPTOP_TABLE_ROOM = "mesa_notebook"  # the shared screens on the laptop itself (voice status)


def rooms_for(visibility: str) -> list[str]:
    """The rooms an event of this visibility goes to (the GM room always sees player events)."""
    if visibility == protocol.PUBLIC:
        return [PUBLIC_ROOM]
    if protocol.is_player(visibility):
        return [visibility, GM_ROOM]
    return [GM_ROOM]


@dataclass
class Client:
    """One accepted connection."""

    sid: str
    role: str  # "mestre", "jogador" or "mesa"
    viewer: str  # "gm", "public" or "player:<id>"
    token: str | None
    player: dict[str, str] | None
    since: int  # desde, in this client's own numbering
    last_sent: int = 0  # the last GLOBAL seq this client was sent (or had no need of)
    welcome: dict[str, Any] = field(default_factory=dict)  # extra boas_vindas keys
    on_laptop: bool = False  # a page on the GM's laptop itself (companion.server.hosts)
    address: str = ""  # where it came from (the remote address): its caps are counted there
    batched: bool = False  # asked (`"lote": true`) for a welcome's replay as one `eventos` list

    @property
    def rooms(self) -> list[str]:
        if self.role == "mestre":
            return [GM_ROOM, PUBLIC_ROOM]
        if self.role == "jogador":
            return [PUBLIC_ROOM, self.viewer]
        return [PUBLIC_ROOM, TABLE_ROOM] + ([LAPTOP_TABLE_ROOM] if self.on_laptop else [])


def targets(visibility: str, live: list[Client]) -> list[tuple[str, str]]:
    """(room, viewer key) pairs an event goes to: one room per numbering, so each viewer
    gets its own seq. The public room is split into the table screens', each connected
    player's own room and the GM's, the GM last: its own commands' events already reach it
    in the acknowledgement."""
    players = sorted({c.viewer for c in live if c.role == "jogador"})
    found: list[tuple[str, str]] = []
    for room in rooms_for(visibility):
        if room == PUBLIC_ROOM:
            found.append((TABLE_ROOM, "public"))
            found += [(player, player) for player in players]
            found.append((GM_ROOM, protocol.GM))
        elif room == GM_ROOM:
            found.append((GM_ROOM, protocol.GM))
        elif room in players:
            found.append((room, room))
    return found


class Connections:
    """The live connections and those still being welcomed (pending: their commands are
    taken already), by sid, under one lock. `seating` is held while a connection is
    authenticated and admitted, and while a seat is freed (companion.server.seat_sockets): no
    connection gets in with a token being deleted."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seating = threading.Lock()
        self.clients: dict[str, Client] = {}
        self.pending: dict[str, Client] = {}

    def find(self, sid: str) -> Client | None:
        """The connection of `sid`, live or being welcomed."""
        with self.lock:
            return self.clients.get(sid) or self.pending.get(sid)

    def live(self) -> list[Client]:
        with self.lock:
            return list(self.clients.values())

    def of_viewer(self, viewer: str) -> list[Client]:
        """Every connection of `viewer`, live or being welcomed."""
        with self.lock:
            return [c for c in (*self.clients.values(), *self.pending.values())
                    if c.viewer == viewer]

    def viewers(self) -> list[str]:
        """The viewer keys of the live connections, each once."""
        with self.lock:
            return sorted({c.viewer for c in self.clients.values()})

    def from_address(self, address: str) -> int:
        """How many connections, live or being welcomed, came from `address`."""
        with self.lock:
            return sum(1 for c in (*self.clients.values(), *self.pending.values())
                       if c.address == address)

    def admit(self, client: Client) -> None:
        """Accepted: pending until its welcome makes it live."""
        with self.lock:
            self.pending[client.sid] = client

    def waiting(self, sid: str) -> Client | None:
        with self.lock:
            return self.pending.get(sid)

    def go_live(self, client: Client) -> None:
        with self.lock:
            self.clients[client.sid] = client
            self.pending.pop(client.sid, None)

    def drop(self, sid: str) -> None:
        """Gone, live or pending."""
        with self.lock:
            self.clients.pop(sid, None)
            self.pending.pop(sid, None)

    def drop_live(self, sid: str) -> None:
        with self.lock:
            self.clients.pop(sid, None)

    def drop_pending(self, sid: str) -> None:
        with self.lock:
            self.pending.pop(sid, None)
