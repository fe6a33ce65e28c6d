"""Socket.IO against a real server on loopback, with real python-socketio clients.

Each test starts its own server (a real Session on a tmp SQLite file) on a free port and stops
it at the end. Waits poll in small steps; nothing sleeps for long.
"""
from __future__ import annotations

import json
import time
from typing import Any

import pytest
import socketio

from companion.rules.pages import page_data
from companion.server import access, qr
from companion.server.app import RunningServer, start_in_thread
from companion.session import Session

from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, gm_ok, numbered, wait_until
from tests.server.server_socket_helpers import (  # noqa: F401
    settle,
)


# ---------------------------------------------------------------------------- connecting

def test_gm_and_players_are_welcomed_with_state(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    assert gm.welcome() == {"papel": "mestre", "token": GM_TOKEN, "jogador": None,
                            "paginas": page_data(session.tables), "lugares": [],
                            "entradas": [],
                            "comandos_de_aviso": ["regras_mudaram", "aviso_historico"]}
    ana = peers({"nome": "Ana"})
    welcome = ana.welcome()
    assert welcome["papel"] == "jogador"
    assert welcome["jogador"] == {"id": "ana", "nome": "Ana"}
    assert session.player_by_token(welcome["token"]).character_id == "ana"
    # boas_vindas first, estado last, and Ana's character exists for the GM
    ana.wait_states(1)
    assert ana.received[0][0] == "boas_vindas"
    gm_state = gm.wait_states(1)
    assert isinstance(gm_state, dict)
    assert any(c.id == "ana" for c in session.state.party)


def test_returning_player_keeps_character(peers, session: Session) -> None:
    first = peers({"nome": "Bia"})
    token = first.welcome()["token"]
    first.close()
    again = peers({"token": token})
    assert again.welcome() == {"papel": "jogador", "token": token,
                               "jogador": {"id": "bia", "nome": "Bia"},
                               "paginas": page_data(session.tables)}


def test_table_screen_is_a_public_viewer(peers) -> None:
    mesa = peers({"papel": "mesa"})
    assert mesa.welcome()["papel"] == "mesa"
    mesa.wait_states(1)
    refused = mesa.cmd("rolar 1d6")
    assert refused["ok"] is False and "mesa" in refused["error"]


def test_table_screen_is_told_the_player_url(server: RunningServer, peers) -> None:
    """Without a configured LAN base the screen gets the address it connected to…"""
    assert peers({"papel": "mesa"}).welcome()["url_jogador"] == f"{server.url}/jogador"
    assert "url_jogador" not in peers({"token": GM_TOKEN}).welcome()


def test_table_screen_gets_the_lan_player_url_even_on_loopback(session: Session) -> None:
    """…and under `companion serve` the LAN address the QR code encodes, though it connected
    to 127.0.0.1."""
    running = start_in_thread(session, base_url="http://192.168.0.42:5000")
    mesa = Peer(running.url, {"papel": "mesa"})
    try:
        assert running.url.startswith("http://127.0.0.1:")
        assert mesa.welcome()["url_jogador"] == "http://192.168.0.42:5000/jogador"
    finally:
        mesa.close()
        running.stop()


def test_the_table_screen_is_shown_the_laptops_new_address(session: Session) -> None:
    """The laptop changed networks mid-evening: a table screen that connects after the
    address is read again gets the new link, not the one printed at start."""
    addresses = ["192.168.0.42"]
    live = qr.LiveBase("0.0.0.0", 5000, address=lambda: addresses[-1])
    live.REFRESH = 0.0  # read on every ask (the real laptop: at most every few seconds)
    running = start_in_thread(session, base_url=live)
    first = Peer(running.url, {"papel": "mesa"})
    try:
        assert first.welcome()["url_jogador"] == "http://192.168.0.42:5000/jogador"
        addresses.append("10.1.2.3")
        second = Peer(running.url, {"papel": "mesa"})
        try:
            assert second.welcome()["url_jogador"] == "http://10.1.2.3:5000/jogador"
        finally:
            second.close()
    finally:
        first.close()
        running.stop()


@pytest.mark.parametrize("auth, words", [
    ({"token": "token-errado"}, "token inválido"),
    ({"token": ""}, "token inválido"),
    ({}, "falta o nome"),
    ({"nome": "   "}, "nome está vazio"),
    ({"nome": "x" * 41}, "nome longo demais"),
    ({"nome": 42}, "nome deve ser um texto"),
    ({"token": GM_TOKEN, "desde": "ontem"}, "desde"),
])
def test_refused_connections_say_why(server: RunningServer, session: Session, auth, words) -> None:
    client = socketio.Client(reconnection=False)
    reasons: list[Any] = []
    client.on("connect_error", lambda data=None: reasons.append(data))
    before = len(session.events_since(0))
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=5)
    wait_until(lambda: reasons, what="connect_error")
    assert words in json.dumps(reasons, ensure_ascii=False)
    assert len(session.events_since(0)) == before  # a refused join creates nobody
    client.disconnect()


def test_new_players_from_one_address_are_limited(server: RunningServer, peers,
                                                  session: Session) -> None:
    server.app.extensions["mesa_hub"].joins = access.RateLimiter(2, 60.0, clock=lambda: 1.0)
    first, second = peers({"nome": "Ana"}), peers({"nome": "Bia"})
    first.welcome(), second.welcome()
    party = len(session.state.party)
    client = socketio.Client(reconnection=False)
    reasons: list[Any] = []
    client.on("connect_error", lambda data=None: reasons.append(data))
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(server.url, auth={"nome": "Caio"}, transports=["websocket"],
                       wait_timeout=5)
    wait_until(lambda: reasons, what="connect_error")
    assert "muitas entradas" in json.dumps(reasons, ensure_ascii=False)
    assert len(session.state.party) == party
    # a returning player (token) is not a new join
    again = peers({"token": first.welcome()["token"]})
    assert again.welcome()["jogador"]["id"] == "ana"


def test_foreign_origin_is_refused(server: RunningServer, peers) -> None:
    for transports in (["websocket"], ["polling"]):
        client = socketio.Client(reconnection=False)
        with pytest.raises(socketio.exceptions.ConnectionError):
            client.connect(server.url, auth={"token": GM_TOKEN}, transports=transports,
                           headers={"Origin": "http://intruso.example"}, wait_timeout=5)
        client.disconnect()
    # the same Origin as the page is accepted
    same = peers({"token": GM_TOKEN}, headers={"Origin": server.url}, transports=["polling"])
    assert same.welcome()["papel"] == "mestre"


# ---------------------------------------------------------------------------- visibility

def test_players_never_receive_gm_or_other_players_things(peers, session: Session) -> None:
    """A whole scripted session; Bia's and Caio's connections must stay clean."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana = peers({"nome": "Ana"})
    bia = peers({"nome": "Bia"})
    caio = peers({"nome": "Caio"}, transports=["polling", "websocket"])
    mesa = peers({"papel": "mesa"})
    for peer in (ana, bia, caio, mesa):
        peer.welcome()
    script = [
        "personagem Ana sanidade 12 comida 3 agua 3",
        "personagem Bia sanidade 9 comida 3 agua 3",
        "personagem Caio sanidade 15 comida 3 agua 3",
        "estação outono", "terreno pântano",
        "avançar", "avançar", "explorar", "acampar", "descansar",
        "masmorra mortal", "monstro Orc Sorrateiro na sala 7", "acender tocha",
        "segredo 1d20 alçapão escondido", "turno", "turno", "turno",
        "pânico Ana",
    ]
    for text in script:
        gm_ok(gm, text)
    ana_prompt = wait_until(lambda: [e for e in ana.events if e["kind"] == "pedido"],
                            what="pedido de pânico da Ana")[0]
    assert ana_prompt["visibility"] == "player:ana"
    answer = ana.cmd("responder rolar")
    assert answer["ok"], answer
    for text in ["fugir", "fuga sucesso", "distância", "fuga falha"]:
        gm_ok(gm, text)
    viewers = {gm: "gm", ana: "player:ana", bia: "player:bia", caio: "player:caio",
               mesa: "public"}
    settle(session, gm, ana, bia, caio, mesa, viewers=viewers)
    gm_text = gm.everything()
    secrets = ["Orc Sorrateiro", "alçapão escondido", "Perdendo a direção"]
    for secret in secrets:  # the GM did get them: the check below can fail
        assert secret in gm_text, secret
    for peer, me in ((ana, "player:ana"), (bia, "player:bia"), (caio, "player:caio"),
                     (mesa, None)):
        visibilities = {e["visibility"] for e in peer.events}
        assert visibilities <= {"public", me}, visibilities
        everything = peer.everything()
        for secret in secrets:
            assert secret not in everything, (me, secret)
        for other in ("player:ana", "player:bia", "player:caio"):
            if other != me:
                assert f'"visibility": "{other}"' not in everything
        for ack in peer.acks:
            for event in ack.get("events", []):
                assert event["visibility"] in ("public", me)
        assert peer.seqs == sorted(set(peer.seqs)), "fora de ordem ou repetido"
        states = peer.of("estado")
        assert states and all("mestre" not in state for state in states)
        assert {state["visao"] for state in states} == {me or "public"}
    assert all("mestre" in state for state in gm.of("estado"))
    assert gm.seqs == [e["seq"] for e in session.events_since(0)]
    assert any(e["visibility"] == "gm" for e in gm.events)
    assert any(e["visibility"] == "player:ana" for e in ana.events)
    assert any(e["visibility"] == "public" for e in bia.events)


def test_panic_prompt_round_trip(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana, bia = peers({"nome": "Ana"}), peers({"nome": "Bia"})
    ana.welcome(), bia.welcome()
    asked = gm_ok(gm, "pânico Ana")
    prompt = next(e for e in asked if e["kind"] == "pedido")
    assert prompt["visibility"] == "player:ana"
    gm.wait_seq(prompt["seq"])
    wait_until(lambda: any(e["kind"] == "pedido" for e in ana.events), what="pedido da Ana")
    states_before = len(bia.of("estado"))
    answer = ana.cmd("responder rolar")
    assert answer["ok"], answer
    public = [e for e in answer["events"] if e["visibility"] == "public"]
    assert public, "o resultado do teste de pânico deve ser público"
    ana.wait_seq(public[-1]["seq"])  # the ack speaks Ana's numbering
    for peer, viewer in ((gm, "gm"), (ana, "player:ana"), (bia, "player:bia")):
        wait_until(lambda: peer.events == numbered(session, viewer),
                   what=f"os eventos de {viewer} na sua numeração")
    assert public[-1] in ana.events
    assert not any(e["kind"] == "pedido" for e in bia.events)
    bia.wait_states(states_before + 1)
    # the prompt is gone: answering again is refused and changes nothing
    count = len(session.events_since(0))
    again = ana.cmd("responder rolar")
    assert again["ok"] is False and again["error"]
    assert len(session.events_since(0)) == count


def test_player_cannot_run_gm_commands(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    gm_ok(gm, "rolar 1d6")
    ana = peers({"nome": "Ana"})
    ana.welcome()
    count = len(session.events_since(0))
    for text in ("avançar", "desfazer", "masmorra", "pânico Ana"):
        refused = ana.cmd(text)
        assert refused["ok"] is False, text
        assert "Mestre" in refused["error"], refused
    assert len(session.events_since(0)) == count
    rolled = ana.cmd("rolar 2d6")
    assert rolled["ok"] and rolled["events"][0]["kind"] == "rolagem"


# ---------------------------------------------------------------------------- reconnecting

def test_reconnect_with_desde_gets_exactly_the_missed_events(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    bia = peers({"nome": "Bia"})
    token = bia.welcome()["token"]
    gm_ok(gm, "rolar 1d20")
    gm_ok(gm, "pânico Bia")
    settle(session, bia, viewers={bia: "player:bia"})
    seen = max(bia.seqs)
    bia.close()
    for text in ("rolar 1d6", "segredo 1d20 armadilha no corredor", "pânico Bia",
                 "estação inverno"):
        gm_ok(gm, text)
    missed = numbered(session, "player:bia")[seen:]
    assert [e["seq"] for e in missed] == list(range(seen + 1, seen + 1 + len(missed)))
    assert any(e["kind"] == "pedido" for e in missed)
    plain = peers({"token": token, "desde": seen})  # docs/design.md's contract: one evento each
    plain.welcome()
    plain.wait_states(1)
    back = peers({"token": token, "desde": seen, "lote": True})  # as the pages ask
    back.welcome()
    back.wait_states(1)
    time.sleep(0.2)  # nothing more may arrive
    assert plain.events == back.events == missed
    assert [name for name, _ in plain.received] == \
        ["boas_vindas", *["evento"] * len(missed), "estado"]
    names = [name for name, _ in back.received]
    # asked with lote, the replay is ONE message, however many events it carries (a storm of
    # reconnections used to cost one message per event each)
    assert names == ["boas_vindas", "eventos", "estado"], names
    plain.close()
    assert "armadilha no corredor" not in back.everything()
    # then it is live again, each event once
    new = gm_ok(gm, "rolar 1d8")
    back.wait_seq(missed[-1]["seq"] + 1)
    assert back.events[-1]["text"] == new[0]["text"]
    assert back.seqs == sorted(set(back.seqs))


def test_reconnect_without_desde_replays_everything_visible(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    gm_ok(gm, "rolar 1d4")
    gm_ok(gm, "segredo 1d20")
    later = peers({"token": GM_TOKEN})
    later.welcome()
    later.wait_states(1)
    assert later.seqs == [e["seq"] for e in session.events_since(0)]
    player = peers({"nome": "Caio"})
    player.welcome()
    player.wait_states(1)
    expected = [e["seq"] for e in numbered(session, "player:caio")]
    assert expected == list(range(1, len(expected) + 1))
    wait_until(lambda: player.seqs == expected, what=f"{expected} != {player.seqs}")
