"""Joining is the GM's (issue 25, item 3), against a real server on loopback with real
clients: a name waits at the door until the GM accepts it, a flood of names creates nobody,
and a free seat — the GM's own character too — is taken only with the GM's yes."""
from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
import socketio

from companion.server import doorway
from companion.server.app import RunningServer, start_in_thread
from companion.session import Session
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, call, wait_until


@pytest.fixture
def door(session: Session) -> Iterator[RunningServer]:
    """The real server with the real rule: the GM admits every name."""
    running = start_in_thread(session, open_joins=False)
    yield running
    running.stop()


@pytest.fixture
def gm(door: RunningServer) -> Iterator[Peer]:
    peer = Peer(door.url, {"token": GM_TOKEN})
    peer.welcome()
    yield peer
    peer.close()


def requests(gm: Peer) -> list[dict[str, Any]]:
    """The GM's latest list of requests to join."""
    lists = gm.of("entradas")
    return lists[-1]["pedidos"] if lists else gm.welcome()["entradas"]


def refusal(url: str, auth: dict[str, Any]) -> str:
    """The reason a connection is refused, as the client reads it."""
    client = socketio.Client(reconnection=False)
    reasons: list[Any] = []
    client.on("connect_error", lambda data=None: reasons.append(data))
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(url, auth=auth, transports=["websocket"], wait_timeout=5)
    wait_until(lambda: reasons, what="connect_error")
    client.disconnect()
    return json.dumps(reasons, ensure_ascii=False)


def test_a_new_name_waits_for_the_gm_and_joins_when_accepted(door: RunningServer, gm: Peer,
                                                             session: Session) -> None:
    eva = Peer(door.url, {"nome": "Eva"})
    try:
        waiting = wait_until(lambda: eva.of("entrada_pendente"), what="entrada_pendente")
        assert "aguarde o Mestre" in waiting[0]["mensagem"]
        assert not eva.of("boas_vindas") and not eva.events
        assert all(c.id != "eva" for c in session.state.party) and session.players() == []
        assert eva.cmd("rolar 1d6")["ok"] is False  # no power while it waits
        listed = wait_until(lambda: requests(gm), what="o pedido no Mestre")
        assert listed == [{"id": listed[0]["id"], "nome": "Eva", "novo": True}]
        ack = gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": True}, timeout=10)
        assert ack == {"ok": True}
        welcome = eva.welcome()
        assert welcome["papel"] == "jogador" and welcome["jogador"] == {"id": "eva",
                                                                        "nome": "Eva"}
        assert session.player_by_token(welcome["token"]).character_id == "eva"
        eva.wait_states(1)
        assert eva.cmd("rolar 1d6")["ok"] is True
        wait_until(lambda: requests(gm) == [], what="a lista vazia")
    finally:
        eva.close()


def test_the_gm_may_turn_a_name_away(door: RunningServer, gm: Peer, session: Session) -> None:
    bia = Peer(door.url, {"nome": "Bia"})
    try:
        listed = wait_until(lambda: requests(gm), what="o pedido no Mestre")
        assert gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": False},
                           timeout=10) == {"ok": True}
        told = wait_until(lambda: bia.of("entrada_recusada"), what="entrada_recusada")
        assert "não aceitou a entrada de Bia" in told[0]["motivo"]
        wait_until(lambda: not bia.sio.connected, what="Bia desconectada")
        assert all(c.id != "bia" for c in session.state.party) and session.players() == []
        again = gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": True},
                            timeout=10)
        assert again["ok"] is False and "não há pedido" in again["error"]
    finally:
        bia.close()


def test_a_join_flood_creates_no_character_without_the_gm(door: RunningServer, gm: Peer,
                                                          session: Session) -> None:
    """One address sends twenty names: a few wait at the door, the rest are refused; nobody
    joins and no character is made until the GM says so."""
    party = [c.id for c in session.state.party]
    waiting = []
    refused = []
    try:
        for n in range(20):
            if len(waiting) < doorway.PENDING_PER_ADDRESS:
                waiting.append(Peer(door.url, {"nome": f"Intruso {n}"}))
            else:
                refused.append(refusal(door.url, {"nome": f"Intruso {n}"}))
        assert all("pedidos de entrada deste aparelho" in r for r in refused)
        wait_until(lambda: len(requests(gm)) == doorway.PENDING_PER_ADDRESS,
                   what="os pedidos no Mestre")
        assert [c.id for c in session.state.party] == party
        assert session.players() == [] and session.seats() == []
        for peer in waiting:
            peer.close()
        wait_until(lambda: requests(gm) == [], what="pedidos esquecidos ao sair")
    finally:
        for peer in waiting:
            peer.close()


def test_a_free_seat_the_gm_made_is_taken_only_with_the_gms_yes(
        door: RunningServer, gm: Peer, session: Session) -> None:
    assert gm.cmd("personagem Caio")["ok"] is True
    caio = Peer(door.url, {"nome": "Caio"})
    try:
        listed = wait_until(lambda: requests(gm), what="o pedido no Mestre")
        assert listed[0]["nome"] == "Caio" and listed[0]["novo"] is False
        assert session.players() == []  # the seat is still free
        player = Peer(door.url, {"nome": "Dora"})
        dora = wait_until(lambda: [r for r in requests(gm) if r["nome"] == "Dora"])
        ack = player.sio.call("entrada", {"pedido": dora[0]["id"], "aceitar": True},
                              timeout=10)
        assert ack["ok"] is False and "só o Mestre" in ack["error"]
        assert gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": True},
                           timeout=10)["ok"] is True
        assert caio.welcome()["jogador"]["id"] == "caio"
        assert "ocupado" in refusal(door.url, {"nome": "Caio"})  # held now: not even asked
        player.close()
    finally:
        caio.close()


@pytest.mark.parametrize("payload", [None, {}, {"pedido": "1", "aceitar": True},
                                     {"pedido": 1, "aceitar": "sim"}])
def test_a_bad_answer_is_refused_in_portuguese(gm: Peer, payload: Any) -> None:
    ack = gm.sio.call("entrada", payload, timeout=10)
    assert ack["ok"] is False and "pedido" in ack["error"]


def rooms_of(door: RunningServer, peer: Peer) -> set[Any]:
    """The server's rooms a client's connection is in, besides its own."""
    sid = peer.sio.get_sid()
    return set(door.socketio.server.manager.get_rooms(sid, "/")) - {sid, None}


def test_a_seat_the_gm_made_is_not_taken_by_saying_its_name(door: RunningServer, gm: Peer,
                                                           session: Session) -> None:
    """The GM made Eva and nobody joined: a phone that says "Eva" (in any case) waits at the
    door — no seat, no token, no room, no power over her prompt — and the GM's no sends it
    away with Eva still free; only the GM's yes seats a phone there."""
    assert gm.cmd("personagem Eva")["ok"] is True
    assert gm.cmd("pânico Eva")["ok"] is True  # a prompt waits for Eva's phone
    squatter = Peer(door.url, {"nome": "EVA"})
    try:
        wait_until(lambda: squatter.of("entrada_pendente"), what="entrada_pendente")
        assert rooms_of(door, squatter) == set()  # not "public", not "player:eva"
        assert session.players() == [] and not any(s.occupied for s in session.seats())
        assert squatter.cmd("responder pedido 1 rolar")["ok"] is False
        assert [p.character for p in session.state.prompts] == ["eva"]
        listed = wait_until(lambda: requests(gm), what="o pedido no Mestre")
        assert listed[0]["nome"] == "EVA" and listed[0]["novo"] is False
        assert gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": False},
                           timeout=10) == {"ok": True}
        wait_until(lambda: not squatter.sio.connected, what="o intruso desconectado")
        assert not squatter.of("boas_vindas") and squatter.events == []
        assert not squatter.of("estado")
        assert session.players() == [] and [p.character for p in session.state.prompts] \
            == ["eva"]
    finally:
        squatter.close()
    eva = Peer(door.url, {"nome": "Eva"})
    try:
        listed = wait_until(lambda: requests(gm), what="o pedido de Eva")
        assert gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": True},
                           timeout=10) == {"ok": True}
        assert eva.welcome()["jogador"] == {"id": "eva", "nome": "Eva"}
        assert [p["id"] for p in eva.wait_states(1)["pedidos"]] == [1]  # her prompt, hers
    finally:
        eva.close()


def test_a_seat_the_gm_freed_is_not_retaken_without_the_gms_yes(door: RunningServer,
                                                               gm: Peer,
                                                               session: Session) -> None:
    """The GM frees Eva's seat ("Liberar"): her old token stops working, and a phone that
    says "Eva" right after — hers or anyone's — waits at the door until the GM answers."""
    first = Peer(door.url, {"nome": "Eva"})
    try:
        listed = wait_until(lambda: requests(gm), what="o pedido de Eva")
        assert gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": True},
                           timeout=10) == {"ok": True}
        token = first.welcome()["token"]
        assert call(gm, "liberar", {"personagem": "eva"}) == {"ok": True}
        wait_until(lambda: not first.sio.connected, what="o aparelho de Eva desconectado")
    finally:
        first.close()
    assert "token inválido" in refusal(door.url, {"token": token})
    again = Peer(door.url, {"nome": "Eva"})
    try:
        wait_until(lambda: again.of("entrada_pendente"), what="entrada_pendente")
        assert rooms_of(door, again) == set() and not again.of("boas_vindas")
        assert session.players() == [] and not any(s.occupied for s in session.seats())
        assert again.cmd("rolar 1d6")["ok"] is False
        listed = wait_until(lambda: requests(gm), what="o novo pedido de Eva")
        assert listed[0]["nome"] == "Eva" and listed[0]["novo"] is False
        assert gm.sio.call("entrada", {"pedido": listed[0]["id"], "aceitar": True},
                           timeout=10) == {"ok": True}
        welcome = again.welcome()
        assert welcome["jogador"] == {"id": "eva", "nome": "Eva"} and welcome["token"] != token
        again.wait_states(1)  # live: now in her rooms (what the empty sets above meant)
        assert {"public", "player:eva"} <= rooms_of(door, again)
    finally:
        again.close()


def invitation(gm: Peer, character: str) -> dict[str, Any]:
    return call(gm, "convite", {"personagem": character})


def code_of(ack: dict[str, Any]) -> str:
    return str(ack["url"]).split("#convite=", 1)[1]


def invited(door: RunningServer, code: str, name: str = "Eva") -> None:
    """A phone with the GM's link takes the seat."""
    phone = Peer(door.url, {"convite": code})
    try:
        assert phone.welcome()["jogador"]["nome"] == name
    finally:
        phone.close()


def test_the_gms_invitation_seats_one_phone_once(door: RunningServer, gm: Peer,
                                                 session: Session) -> None:
    """A free seat the GM made is handed with a one-time link (and its QR code): the phone
    that opens it is Eva at once, with no request at the door; the link then opens nothing,
    and an occupied seat gets no link."""
    assert gm.cmd("personagem Eva")["ok"] is True
    assert gm.cmd("pânico Eva")["ok"] is True
    ack = invitation(gm, "eva")
    assert ack["ok"] is True and ack["url"].startswith(f"{door.url}/jogador#convite=")
    assert "<svg" in ack["qr"] and "Eva" in ack["qr"]  # the QR code, made by the server
    eva = Peer(door.url, {"convite": code_of(ack)})
    try:
        welcome = eva.welcome()
        assert welcome["jogador"] == {"id": "eva", "nome": "Eva"} and welcome["token"]
        assert session.player_by_token(welcome["token"]).character_id == "eva"
        assert [p["id"] for p in eva.wait_states(1)["pedidos"]] == [1]  # her prompt
        assert requests(gm) == []  # nobody asked at the door
        assert "não vale mais" in refusal(door.url, {"convite": code_of(ack)})  # once
        taken = invitation(gm, "eva")
        assert taken["ok"] is False and "já está ocupado" in taken["error"]
    finally:
        eva.close()


def test_an_invitation_ends_with_a_newer_one_and_when_its_seat_is_freed(
        door: RunningServer, gm: Peer, session: Session) -> None:
    assert gm.cmd("personagem Eva")["ok"] is True
    older = code_of(invitation(gm, "eva"))
    newer = code_of(invitation(gm, "eva"))
    assert "não vale mais" in refusal(door.url, {"convite": older})
    # the seat taken another way (by name, the GM's yes), then freed: the link is dead
    knocking = Peer(door.url, {"nome": "Eva"})
    try:
        listed = wait_until(lambda: requests(gm), what="o pedido de Eva")
        assert call(gm, "entrada", {"pedido": listed[0]["id"], "aceitar": True})["ok"] is True
        knocking.welcome()
        assert call(gm, "liberar", {"personagem": "eva"}) == {"ok": True}
        wait_until(lambda: not knocking.sio.connected, what="o aparelho de Eva desconectado")
    finally:
        knocking.close()
    assert not any(s.occupied for s in session.seats())  # free again, and yet:
    assert "não vale mais" in refusal(door.url, {"convite": newer})
    invited(door, code_of(invitation(gm, "eva")))  # a new link works


def test_only_the_gm_invites_and_only_to_a_seat_of_the_party(door: RunningServer, gm: Peer,
                                                            session: Session) -> None:
    assert gm.cmd("personagem Eva")["ok"] is True
    table = Peer(door.url, {"papel": "mesa"})
    try:
        table.welcome()
        refused = call(table, "convite", {"personagem": "eva"})
        assert refused["ok"] is False and "url" not in refused
    finally:
        table.close()
    for payload in (None, {}, {"personagem": "zeca"}, {"personagem": 5}):
        unknown = call(gm, "convite", payload)
        assert unknown["ok"] is False and "lugares livres são de Eva" in unknown["error"]
        assert "None" not in unknown["error"] and "'5'" not in unknown["error"]
    assert call(gm, "convite", {"personagem": "zeca"})["error"].startswith(
        "não há personagem 'zeca' no grupo")
    assert "não vale mais" in refusal(door.url, {"convite": "inventado"})
    assert session.players() == []
