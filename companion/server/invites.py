"""One-time seat invitations: the GM hands a free seat to one phone (issue 25, item 3).

The GM asks `convite` {"personagem": id} for a free seat of the party
(companion.server.seat_sockets) and shows the answer on their phone: the player page's address
with a one-time code in the fragment (`/jogador#convite=…`, which the browser never sends) and
its QR code. A phone that connects with {"convite": code} takes that seat at once, with no
request at the door: the GM's hand is the yes. A code works once and only while its seat is free;
a new code for the seat, or the seat taken or freed by any means, ends it.
"""
from __future__ import annotations

import secrets
import threading

CODE_BYTES = 16  # 128 bits: a code is as hard to guess as a token


class Invites:
    """The live codes of one session, by code. Thread-safe."""

    def __init__(self) -> None:
        self._seats: dict[str, str] = {}  # code → character id
        self._lock = threading.Lock()

    def mint(self, character_id: str) -> str:
        """A new code for the seat; the seat's earlier code stops working."""
        code = secrets.token_urlsafe(CODE_BYTES)
        with self._lock:
            self._forget(character_id)
            self._seats[code] = character_id
        return code

    def take(self, code: object) -> str | None:
        """The seat a code was for, spending it (None: no such code, or spent)."""
        if not isinstance(code, str) or not code:
            return None
        with self._lock:
            return self._seats.pop(code, None)

    def drop(self, character_id: str) -> None:
        """The seat was taken or freed: its code, if any, stops working."""
        with self._lock:
            self._forget(character_id)

    def keep(self, character_ids: set[str]) -> None:
        """The party changed: codes for characters no longer in it stop working."""
        with self._lock:
            for code in [c for c, seat in self._seats.items() if seat not in character_ids]:
                del self._seats[code]

    def _forget(self, character_id: str) -> None:
        for code in [c for c, seat in self._seats.items() if seat == character_id]:
            del self._seats[code]
