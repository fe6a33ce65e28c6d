"""Socket.IO against a real server on loopback, with real python-socketio clients.

Each test starts its own server (a real Session on a tmp SQLite file) on a free port and stops
it at the end. Waits poll in small steps; nothing sleeps for long.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
import socketio

from companion.rules.pages import page_data
from companion.server import access, qr
from companion.tables.protocol import may_see as visible_to
from companion.server.app import RunningServer, start_in_thread
from companion.session import Session

from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
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


def test_stale_desde_replays_everything(peers, session: Session) -> None:
    """A desde past the end of this session's log (another session's phone) replays all."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    gm_ok(gm, "rolar 1d6")
    gm_ok(gm, "rolar 1d8")
    stale = peers({"token": GM_TOKEN, "desde": 10_000})
    stale.welcome()
    stale.wait_states(1)
    assert stale.seqs == [e["seq"] for e in session.events_since(0)]
    upto = peers({"token": GM_TOKEN, "desde": stale.seqs[-1]})
    upto.welcome()
    upto.wait_states(1)
    assert upto.seqs == []
    later = gm_ok(gm, "rolar 1d4")
    upto.wait_seq(later[0]["seq"])
    assert upto.seqs == [later[0]["seq"]]


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


def test_event_committed_during_replay_is_sent_once(server: RunningServer,
                                                    session: Session) -> None:
    hub = server.app.extensions["mesa_hub"]
    proxy = CommitDuringWelcome(session)
    hub.session = proxy
    gm = Peer(server.url, {"token": GM_TOKEN})
    try:
        gm.welcome()
        gm.wait_states(1)
        gm_ok(gm, "rolar 1d6")
        proxy.armed = True
        late = Peer(server.url, {"token": GM_TOKEN, "desde": 0})
        late.welcome()  # boas_vindas goes out first; the replay reads the log after it
        wait_until(lambda: proxy.committed, what="the proxy's commit during the welcome")
        seq = proxy.committed[0]["seq"]
        gm.wait_seq(seq)
        late.wait_seq(seq)
        follow = gm_ok(gm, "rolar 1d4")
        late.wait_seq(follow[0]["seq"])
        assert late.seqs == [e["seq"] for e in session.events_since(0)]
        assert late.seqs.count(seq) == 1
    finally:
        gm.close()
        if "late" in locals():
            late.close()


def test_a_command_sent_during_its_own_welcome_is_taken(server: RunningServer) -> None:
    """A connection whose welcome waits behind a long fan-out (100 phones at a busy table)
    may already send commands: they are run, not refused as "not accepted yet"."""
    hub = server.app.extensions["mesa_hub"]
    hub.sending.acquire()  # a fan-out in progress: the welcome's replay must wait for it
    try:
        gm = Peer(server.url, {"token": GM_TOKEN})
        wait_until(lambda: hub.pending, what="the welcome waiting")
        time.sleep(0.1)  # the dispatcher has taken the welcome and waits for the fan-out
        acks: list[Any] = []
        gm.sio.emit("comando", {"text": "rolar 1d6"}, callback=acks.append)
        time.sleep(0.3)
    finally:
        hub.sending.release()
    try:
        wait_until(lambda: acks, what="the acknowledgement")
        assert acks[0]["ok"], acks[0]
        gm.wait_seq(acks[0]["events"][0]["seq"])  # and its event too, once
        assert gm.seqs.count(acks[0]["events"][0]["seq"]) == 1
    finally:
        gm.close()


def test_events_during_welcome_are_not_duplicated(peers, session: Session) -> None:
    """Players join while the GM keeps rolling: every connection gets each seq once."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    stop = threading.Event()

    def roll() -> None:
        while not stop.is_set():
            gm.cmd("rolar 1d6")
            time.sleep(0.05)  # stay under the rate limit

    roller = threading.Thread(target=roll)
    roller.start()
    try:
        joined = [peers({"nome": f"Jogador {n}"}) for n in range(4)]
        for peer in joined:
            peer.welcome()
    finally:
        stop.set()
        roller.join()
    viewers = {p: f"player:jogador-{n}" for n, p in enumerate(joined)}
    settle(session, *joined, viewers=viewers)
    for peer in joined:
        assert peer.seqs == sorted(set(peer.seqs))


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


def test_players_and_the_table_count_only_what_they_see(peers, session: Session) -> None:
    """No gap, no repeat: a player's (and the table's) seqs are 1..N, so the number of GM-only
    events in between (which depends on secret outcomes) cannot be read from them."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana, bia, mesa = peers({"nome": "Ana"}), peers({"nome": "Bia"}), peers({"papel": "mesa"})
    for peer in (ana, bia, mesa):
        peer.welcome()
    acked = run_secret_script(gm, ana, bia)
    log = session.events_since(0)
    kinds = [e["visibility"] for e in log]
    first_gm = kinds.index("gm")
    assert "public" in kinds[:first_gm] and "public" in kinds[first_gm:], \
        "o roteiro deve intercalar eventos do Mestre entre eventos públicos"
    assert "player:bia" in kinds, "o roteiro deve ter eventos só da Bia"
    viewers = {gm: "gm", ana: "player:ana", bia: "player:bia", mesa: "public"}
    for peer, viewer in viewers.items():
        wait_until(lambda: len(peer.events) >= len(numbered(session, viewer)),
                   what=f"todos os eventos de {viewer}")
        time.sleep(0.1)  # nothing more may arrive
        assert peer.events == numbered(session, viewer), viewer
    for peer in (ana, bia, mesa):
        assert peer.seqs == list(range(1, len(peer.seqs) + 1))
        assert len(peer.seqs) < len(log)  # there was something to hide
    assert gm.seqs == [e["seq"] for e in log]
    # Ana's acknowledgements use the numbers her evento messages carried
    assert acked and all(event in ana.events for event in acked)
    assert [e["seq"] for e in acked] == sorted({e["seq"] for e in acked})


@pytest.mark.parametrize("viewer", ["player:ana", "public"])
def test_reconnect_with_desde_counts_in_the_viewers_numbers(peers, session: Session,
                                                            viewer: str) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana, bia = peers({"nome": "Ana"}), peers({"nome": "Bia"})
    token = ana.welcome()["token"]
    bia.welcome()
    run_secret_script(gm, ana, bia)
    mine = numbered(session, viewer)
    total = len(mine)
    assert total < len(session.events_since(0))
    auth = {"token": token} if viewer == "player:ana" else {"papel": "mesa"}
    for seen in sorted({0, 1, 2, total // 2, total - 1, total}):
        back = peers({**auth, "desde": seen})
        back.welcome()
        back.wait_states(1)
        time.sleep(0.1)  # nothing more may arrive
        names = [name for name, _ in back.received]
        assert names[0] == "boas_vindas" and names[-1] == "estado", names
        assert names.count("estado") == 1
        assert back.events == mine[seen:], f"desde {seen}"
        back.close()
    # a desde past this viewer's count (another session's phone) replays everything
    stale = peers({**auth, "desde": total + 1})
    stale.wait_states(1)
    assert stale.events == mine
    # and then it is live in the same numbering
    more = gm_ok(gm, "rolar 1d10")
    stale.wait_seq(total + 1)
    assert stale.events[-1]["seq"] == total + 1
    assert stale.events[-1]["text"] == more[0]["text"]


def test_flood_is_rate_limited_and_changes_nothing_extra(session: Session) -> None:
    frozen = access.RateLimiter(access.COMMANDS_PER_WINDOW, access.WINDOW_SECONDS,
                                clock=lambda: 100.0)
    running = start_in_thread(session, rate_limiter=frozen)
    peer = Peer(running.url, {"nome": "Ana"})
    try:
        peer.welcome()
        before = len(session.commands())
        acks = [peer.cmd("rolar 1d6") for _ in range(access.COMMANDS_PER_WINDOW + 5)]
        accepted = [a for a in acks if a["ok"]]
        refused = [a for a in acks if not a["ok"]]
        assert len(accepted) == access.COMMANDS_PER_WINDOW
        assert len(refused) == 5
        said = access.rate_limited(access.COMMANDS_PER_WINDOW, session.tables.narration)
        assert all(a["error"] == said for a in refused)
        assert said.startswith(f"devagar: no máximo {access.COMMANDS_PER_WINDOW} comandos a cada")
        assert len(session.commands()) == before + access.COMMANDS_PER_WINDOW
    finally:
        peer.close()
        running.stop()


def test_gm_has_a_larger_but_finite_budget(session: Session) -> None:
    frozen = access.RateLimiter(access.GM_COMMANDS_PER_WINDOW, access.WINDOW_SECONDS,
                                clock=lambda: 100.0)
    running = start_in_thread(session, gm_rate_limiter=frozen)
    gm = Peer(running.url, {"token": GM_TOKEN})
    try:
        gm.welcome()
        before = len(session.commands())
        acks = [gm.cmd("rolar 1d4") for _ in range(access.GM_COMMANDS_PER_WINDOW + 2)]
        assert [a["ok"] for a in acks] == [True] * access.GM_COMMANDS_PER_WINDOW + [False] * 2
        assert "devagar" in acks[-1]["error"]
        assert len(session.commands()) == before + access.GM_COMMANDS_PER_WINDOW
    finally:
        gm.close()
        running.stop()


@pytest.mark.parametrize("payload, words", [
    ("rolar 1d6", "objeto JSON"),
    (["rolar 1d6"], "objeto JSON"),
    ({"text": 12}, '"text" deve ser um texto'),
    ({}, '"text" deve ser um texto'),
    ({"text": "   "}, "vazio"),
    ({"text": "rolar 1d6 " + "x" * access.MAX_TEXT}, "longo demais"),
])
def test_bad_payloads_get_a_refusal(peers, session: Session, payload, words) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    before = len(session.events_since(0))
    ack = gm.send(payload)
    assert ack["ok"] is False and words in ack["error"]
    assert len(session.events_since(0)) == before


def test_oversized_message_drops_the_connection(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    before = len(session.events_since(0))
    huge = {"text": "rolar 1d6 " + "x" * (access.MAX_SOCKET_MESSAGE * 2)}
    gm.sio.emit("comando", huge)
    wait_until(lambda: not gm.sio.connected, what="o servidor fechar a conexão")
    assert len(session.events_since(0)) == before
    # the server is still fine for everyone else
    other = peers({"token": GM_TOKEN})
    other.welcome()
    assert other.cmd("rolar 1d6")["ok"]


def test_unknown_command_is_refused_in_portuguese(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    before = len(session.events_since(0))
    ack = gm.cmd("xyzzy plugh")
    assert ack["ok"] is False and "xyzzy" in ack["error"]
    assert len(session.events_since(0)) == before


def test_a_gm_only_command_sends_players_nothing_at_all(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    ana = peers({"nome": "Ana"})
    table = peers({"papel": "mesa"})
    for peer in (ana, table):  # welcomed (live) before the roll, so its views reach them
        peer.wait_states(1)
    gm_ok(gm, "rolar 1d6")
    settle(session, ana, table, viewers={ana: "player:ana", table: "public"})
    ana.wait_states(2)
    table.wait_states(2)
    for peer in (ana, table):  # the views of 'rolar 1d6' (and of Ana's join) are in, too
        quiet(peer)
    before = (len(ana.received), len(table.received))
    gm_states = len(gm.of("estado"))
    gm_ok(gm, "segredo escutar a porta")
    gm.wait_states(gm_states + 1)  # the GM's estado went out after the secret roll
    gm_ok(gm, "rolar 1d8")  # a public event afterwards: now everyone hears again
    settle(session, ana, table, viewers={ana: "player:ana", table: "public"})
    for peer, count in zip((ana, table), before):
        after_secret = [name for name, _ in peer.received[count:]]
        assert after_secret[0] == "evento", after_secret  # no bare estado came first
        assert "escutar" not in peer.everything()


def test_players_get_only_what_changed_in_their_view(peers, session: Session) -> None:
    from companion.engine.view import view_state

    gm = peers({"token": GM_TOKEN})
    ana = peers({"nome": "Ana"})
    table = peers({"papel": "mesa"})
    gm.welcome(), ana.welcome(), table.welcome()
    ana.wait_states(1), table.wait_states(1)
    gm_ok(gm, "tesouro 50 moedas de ouro")
    for peer, viewer in ((ana, "player:ana"), (table, "public")):
        wait_until(lambda: peer.of("estado_mudou"), what=f"estado_mudou de {viewer}")
        (changed,) = peer.of("estado_mudou")
        assert set(changed) == {"registro"}, changed  # the clock, the party… did not move
        assert peer.views()[-1] == view_state(session.state, viewer, session.tables)
    gm_ok(gm, "terreno floresta")
    wait_until(lambda: len(ana.of("estado_mudou")) == 2, what="segundo estado_mudou")
    assert "registro" not in ana.of("estado_mudou")[1]
    assert ana.views()[-1] == view_state(session.state, "player:ana", session.tables)
    assert len(ana.of("estado")) == 1 and len(gm.of("estado")) >= 3


def test_an_undo_names_the_undone_command_in_each_viewers_own_numbers(
        peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    ana = peers({"nome": "Ana"})
    table = peers({"papel": "mesa"})
    gm.welcome(), ana.welcome(), table.welcome()
    for text in ("segredo escutar a porta", "segredo", "masmorra", "monstro ogro na sala 2",
                 "segredo 1d4"):
        gm_ok(gm, text)  # commands (and events) the players never see
    rolled = gm_ok(gm, "rolar 2d6")
    undo = gm_ok(gm, "desfazer")
    (gm_undo,) = [e for e in undo if "desfeito" in e["data"]]
    assert gm_undo["data"]["desfeito"] == session.commands()[-2].n  # the GM: the log's number
    for peer, viewer in ((ana, "player:ana"), (table, "public")):
        settle(session, peer, viewers={peer: viewer})
        mine = numbered(session, viewer)
        (local,) = [e for e in peer.events if e["command"] == "desfazer"]
        roll = next(e for e in mine if e["text"] == rolled[0]["text"])
        assert local["data"]["desfeito"] == roll["seq"]  # the undone roll, in its numbers
        assert local["data"]["desfeito"] != gm_undo["data"]["desfeito"]
    assert local["data"]["comando"] == "rolar"
