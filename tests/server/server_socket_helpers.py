"""Helpers shared by the test_socket test modules."""
from __future__ import annotations

import time
from typing import Any


from companion.session import Session

from tests.socket_helpers import WAIT, Peer, gm_ok, numbered, wait_until


# ---------------------------------------------------------------------------- harness

def settle(session: Session, *peers: Peer, viewers: dict[Peer, str]) -> None:
    """Wait until every peer has received every event of the log it may see."""
    for peer in peers:
        wanted = [e["seq"] for e in numbered(session, viewers[peer])]
        wait_until(lambda: set(wanted) <= set(peer.seqs),
                   what=f"eventos {wanted} (recebidos {peer.seqs})")


def quiet(peer: Peer, still: float = 0.3) -> None:
    """Wait until the peer's last message is a view and nothing more arrived for `still`
    seconds (a command's views follow its events by a few milliseconds)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        count = len(peer.received)
        time.sleep(still)
        if count == len(peer.received) and peer.received and \
                peer.received[-1][0] in ("estado", "estado_mudou"):
            return
    raise AssertionError(f"mensagens não pararam de chegar: {peer.received[-3:]}")


class CommitDuringWelcome:
    """A session proxy: while a client is being welcomed, a new command is committed just
    before the replay reads the log (so the replay already holds an event that will also be
    announced live a moment later)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.armed = False
        self.committed: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def events_since(self, seq: int = 0) -> list[dict[str, Any]]:
        if self.armed:
            self.armed = False
            self.committed = self.session.run("rolar 1d12").events
        return self.session.events_since(seq)


# ---------------------------------------------------------------------------- per-viewer numbers

SECRET_SCRIPT = [
    "personagem Ana sanidade 12 comida 5 agua 5",
    "personagem Bia sanidade 9 comida 5 agua 5",
    "terreno pântano",
    "avançar", "rolar 1d6", "avançar", "segredo 1d20 alçapão escondido",
    "explorar", "masmorra mortal", "monstro Ogro Zarolho na sala 3", "rolar 1d8",
    "turno", "segredo 1d12", "turno", "pânico Bia", "rolar 1d4",
]


def run_secret_script(gm: Peer, ana: Peer, bia: Peer) -> list[dict[str, Any]]:
    """The GM's script with GM-only events between public ones; the players roll too. Returns
    Ana's acknowledgements' events."""
    acked: list[dict[str, Any]] = []
    for n, text in enumerate(SECRET_SCRIPT):
        gm_ok(gm, text)
        if n % 3 == 0:
            ack = ana.cmd("rolar 1d20")
            assert ack["ok"], ack
            acked += ack["events"]
            assert bia.cmd("rolar 1d6")["ok"]
    return acked
