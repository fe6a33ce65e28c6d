"""test_socket.py, continued: the command tests."""
from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from companion.server import access
from companion.server.app import RunningServer, start_in_thread
from companion.session import Session

from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, gm_ok, numbered, wait_until
from tests.server.server_socket_helpers import (  # noqa: F401
    settle,
    quiet,
    CommitDuringWelcome,
    run_secret_script,
)


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


def test_commands_sent_at_once_run_in_the_order_they_were_sent(peers,
                                                              session: Session) -> None:
    """A GM who types faster than the acknowledgements come back: each connection's messages
    are handled one after the other in its own reader thread (async_handlers=False), so the
    log keeps them in the order they were sent — with a thread per message they raced for
    the session's lock."""
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    sides = [4, 6, 8, 10, 12, 20] * 4
    acks: list[Any] = []
    done = threading.Event()

    def got(ack: Any) -> None:
        acks.append(ack)
        if len(acks) == len(sides):
            done.set()

    for side in sides:
        gm.sio.emit("comando", {"text": f"rolar 1d{side}"}, callback=got)
    assert done.wait(15), f"{len(acks)} de {len(sides)} respostas"
    assert all(ack["ok"] for ack in acks)
    ran = [c.text for c in session.commands() if c.name == "rolar"]
    assert ran == [f"rolar 1d{side}" for side in sides]
