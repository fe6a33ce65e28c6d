"""Seats over Socket.IO (issue 17), with real python-socketio clients against a real server on
loopback: a seat belongs to the devices holding its tokens. A join by a seated name is refused
and gets nothing of that player; the GM frees a seat (`liberar`), its phones are told why and
let go, and the next join by that name takes the character with its history; a player leaves
(`sair`); a player's second device joins from the link the first one shows (`aparelho`); the
GM's page lists the seats (`lugares`)."""
from __future__ import annotations

from typing import Any

import pytest

from companion.server.app import RunningServer
from companion.session import Session
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import (Peer, call, gm_ok, numbered, pending_panic, refused_join,
                                  wait_until)


def seats(data: Any) -> dict[str, dict[str, Any]]:
    """A `lugares` list by character id."""
    return {seat["id"]: seat for seat in data}


def last_seats(gm: Peer) -> dict[str, dict[str, Any]]:
    pushed = gm.of("lugares")
    return seats(pushed[-1]["lugares"] if pushed else gm.welcome()["lugares"])


# ---------------------------------------------------------------------------- a taken seat

def test_a_second_phone_by_a_seated_name_gets_no_token_no_event_and_no_prompt(
        server: RunningServer, session: Session, peers) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana = peers({"nome": "Ana"})
    token = ana.welcome()["token"]
    pending_panic(gm, ana)
    private = [e for e in session.events_since(0) if e["visibility"] == "player:ana"]
    assert private, "Ana deveria ter um evento só dela"
    events, players = len(session.events_since(0)), session.players()

    for typed in ("Ana", "ana", "  ANA "):
        reason = refused_join(server, {"nome": typed})
        assert reason == session.tables.narration.render("entrada.lugar_ocupado",
                                                         {"nome": "Ana"})
        assert "ocupado" in reason and "Mestre" in reason
    assert session.players() == players  # no token handed out
    assert len(session.events_since(0)) == events  # nothing created, nothing told
    assert [c.id for c in session.state.party] == ["ana"]

    # the same person joins under another name: nothing of Ana's reaches them, and Ana's
    # prompt is not theirs to answer
    zeca = peers({"nome": "Zeca"})
    assert zeca.welcome()["token"] != token
    zeca.wait_states(1)
    for text in ("responder rolar", "responder pedido 1 rolar", "responder pedido 1 10",
                 "responder 10 Ana"):
        assert zeca.cmd(text)["ok"] is False, text
    assert [p.character for p in session.state.prompts] == ["ana"]
    wait_until(lambda: zeca.events == numbered(session, "player:zeca"),
               what="os eventos de Zeca")
    everything = zeca.everything()
    assert all(e["text"] not in everything for e in private if e["text"].strip())
    assert not any(e["kind"] == "pedido" for e in zeca.events)
    assert zeca.views()[-1].get("pedidos") in (None, [])
    assert ana.cmd("responder rolar")["ok"] is True  # still Ana's, on Ana's phone


# ---------------------------------------------------------------------------- freeing

def test_the_gm_frees_a_seat_and_the_next_join_by_that_name_takes_the_character(
        server: RunningServer, session: Session, peers) -> None:
    gm = peers({"token": GM_TOKEN})
    assert gm.welcome()["lugares"] == []
    ana = peers({"nome": "Ana"})
    token = ana.welcome()["token"]
    second = peers({"token": token})  # Ana's second device, from her link
    assert second.welcome()["jogador"] == {"id": "ana", "nome": "Ana"}
    bia = peers({"nome": "Bia"})
    bia.welcome()
    wait_until(lambda: last_seats(gm).get("ana", {}).get("online") == 2,
               what="os dois aparelhos de Ana no quadro de lugares")
    prompt = pending_panic(gm, ana)
    mine = [e for e in numbered(session, "player:ana") if e["visibility"] == "player:ana"]

    # only the GM frees seats
    for peer in (ana, bia, peers({"papel": "mesa"})):
        refused = call(peer, "liberar", {"personagem": "ana"})
        assert refused["ok"] is False and refused["error"], refused
    assert session.player_by_token(token) is not None

    assert call(gm, "liberar", {"personagem": "ana"}) == {"ok": True}
    reason = session.tables.narration.render("entrada.aparelho_saiu",
                                             {"nome": "Ana", "por": "gm"})
    for phone in (ana, second):
        told = wait_until(lambda: phone.of("lugar_liberado"), what="o aviso ao aparelho")
        assert told == [{"personagem": "ana", "motivo": reason, "por": "gm"}]
        wait_until(lambda: not phone.sio.connected, what="o aparelho desconectado")
    assert "token inválido" in refused_join(server, {"token": token})
    assert session.player_by_token(token) is None

    # the GM's log shows it (only the GM's); Bia's phone hears nothing of it
    freed = wait_until(lambda: [e for e in gm.events if e["command"] == "lugar_liberado"],
                       what="o evento no registro do Mestre")
    assert freed[0]["visibility"] == "gm" and "Ana" in freed[0]["text"]
    wait_until(lambda: bia.events == numbered(session, "player:bia"), what="eventos da Bia")
    assert "lugar_liberado" not in bia.everything()
    wait_until(lambda: last_seats(gm)["ana"]["ocupado"] is False, what="Ana livre no quadro")
    assert last_seats(gm)["ana"]["online"] == 0 and last_seats(gm)["ana"]["desde"] is None

    # the next phone to join as Ana takes the character, her history and her prompt
    back = peers({"nome": "ana"})
    welcome = back.welcome()
    assert welcome["jogador"] == {"id": "ana", "nome": "Ana"} and welcome["token"] != token
    assert [c.id for c in session.state.party] == ["ana", "bia"]
    wait_until(lambda: back.events == numbered(session, "player:ana"),
               what="a história de Ana no aparelho novo")
    assert [e for e in back.events if e["visibility"] == "player:ana"][:len(mine)] == mine
    view = back.wait_states(1)
    assert [p["id"] for p in view["pedidos"]] == [1]
    answered = back.cmd("responder pedido 1 rolar")
    assert answered["ok"] is True, answered
    assert not any(p.id == prompt["data"]["pedido"]["id"] for p in session.state.prompts)
    assert refused_join(server, {"nome": "Ana"})  # seated again
    wait_until(lambda: last_seats(gm)["ana"]["ocupado"] is True, what="Ana ocupada de novo")


@pytest.mark.parametrize("payload", [None, "ana", 5, [], {}, {"personagem": 5},
                                     {"personagem": ""}, {"personagem": "x" * 500},
                                     {"personagem": "zeca"}, {"personagem": "bia"}])
def test_freeing_a_seat_that_is_not_held_is_refused_and_changes_nothing(
        session: Session, peers, payload: Any) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    gm_ok(gm, "personagem Bia")  # a free seat
    ana = peers({"nome": "Ana"})
    ana.welcome()
    commands, players = session.commands(), session.players()
    answer = call(gm, "liberar", payload)
    assert answer["ok"] is False and isinstance(answer["error"], str) and answer["error"]
    assert session.commands() == commands and session.players() == players
    assert ana.sio.connected


def test_a_player_leaves_and_every_device_of_the_seat_goes_with_it(
        server: RunningServer, session: Session, peers) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana = peers({"nome": "Ana"})
    token = ana.welcome()["token"]
    second = peers({"token": token})
    second.welcome()
    assert call(ana, "sair") == {"ok": True}
    told = wait_until(lambda: second.of("lugar_liberado"), what="o aviso ao outro aparelho")
    assert told[0]["motivo"] == session.tables.narration.render(
        "entrada.aparelho_saiu", {"nome": "Ana", "por": "player:ana"})
    for phone in (ana, second):
        wait_until(lambda: not phone.sio.connected, what="o aparelho desconectado")
    assert session.player_by_token(token) is None
    freed = wait_until(lambda: [e for e in gm.events if e["command"] == "lugar_liberado"],
                       what="o evento no registro do Mestre")
    assert freed[0]["data"]["por"] == "player:ana"
    assert peers({"nome": "Ana"}).welcome()["jogador"]["id"] == "ana"
    for who in (gm, peers({"papel": "mesa"})):  # only a player has a seat to leave
        assert call(who, "sair")["ok"] is False


# ---------------------------------------------------------------------------- a second device

def test_the_second_device_link_carries_the_token_in_the_fragment(
        server: RunningServer, session: Session, peers) -> None:
    ana = peers({"nome": "Ana"})
    token = ana.welcome()["token"]
    ana.wait_states(1)
    link = call(ana, "aparelho")
    assert link["ok"] is True
    assert link["url"] == f"{server.url}/jogador#token={token}"  # never in a query string
    assert link["qr"].startswith("<svg") and "</svg>" in link["qr"]
    second = peers({"token": token})
    assert second.welcome()["jogador"] == {"id": "ana", "nome": "Ana"}
    assert len(session.players()) == 1  # the same seat, the same token
    for who in (peers({"token": GM_TOKEN}), peers({"papel": "mesa"})):
        assert call(who, "aparelho")["ok"] is False


# ---------------------------------------------------------------------------- the GM's list

def test_the_gm_is_told_the_seats_as_they_change(session: Session, peers) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    gm_ok(gm, "personagem Carla")
    wait_until(lambda: "carla" in last_seats(gm), what="Carla no quadro")
    assert last_seats(gm)["carla"] == {"id": "carla", "nome": "Carla", "ocupado": False,
                                       "online": 0, "desde": None}
    ana = peers({"nome": "Ana"})
    ana.welcome()
    wait_until(lambda: last_seats(gm).get("ana", {}).get("online") == 1, what="Ana online")
    seat = last_seats(gm)["ana"]
    assert seat["ocupado"] is True and seat["nome"] == "Ana"
    (stored,) = [s for s in session.seats() if s.character_id == "ana"]
    assert seat["desde"] == stored.since
    ana.close()
    wait_until(lambda: last_seats(gm)["ana"]["online"] == 0, what="Ana offline")
    assert last_seats(gm)["ana"]["ocupado"] is True  # offline, still seated
    later = peers({"token": GM_TOKEN})
    assert list(seats(later.welcome()["lugares"])) == ["carla", "ana"]
    assert ana.of("lugares") == []  # never to a player


def test_undoing_the_character_a_player_joined_as_frees_their_seat(
        server: RunningServer, session: Session, peers) -> None:
    """Issue 26, 12: Caio joined by name (his character made by that join); the GM undoes it:
    Caio's phone is told and let go, his token stops working, the seat list drops him."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    caio = peers({"nome": "Caio"})
    token = caio.welcome()["token"]
    wait_until(lambda: "caio" in last_seats(gm), what="Caio no quadro de lugares")
    assert gm_ok(gm, "desfazer")
    assert [c.id for c in session.state.party] == []
    told = wait_until(lambda: caio.of("lugar_liberado"), what="o aviso ao aparelho de Caio")
    assert told[0]["personagem"] == "caio" and "desfez o personagem" in told[0]["motivo"]
    wait_until(lambda: not caio.sio.connected, what="o aparelho de Caio desconectado")
    assert session.player_by_token(token) is None
    assert "token inválido" in refused_join(server, {"token": token})
    wait_until(lambda: "caio" not in last_seats(gm), what="Caio fora do quadro")
    assert [s.character_id for s in session.seats()] == []
