"""What one device may cost the table (issue 25, item 4), against a real server on loopback
with real clients: a welcome does not grow with the campaign and does not hold the GM's
commands back, commands are limited per token and per address, connections per address,
half-sent HTTP requests time out, and report requests are limited per token."""
from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from typing import Iterator

import pytest
import requests
import socketio

from companion.rules.loader import load_rules
from companion.server import access, budget, http_limits, projections, welcome
from companion.server.app import RunningServer, start_in_thread
from companion.server.report_pages import REPORTS_PER_WINDOW
from companion.session import Session
from companion.tables.protocol import may_see as access_sees
from companion.tables.files import Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, wait_until

STORM = 100  # /mesa connections at once
LONG_CAMPAIGN = 5_200  # public events before the storm


def frozen(capacity: int) -> access.RateLimiter:
    """A limiter whose clock never moves: nothing refills during the test."""
    return access.RateLimiter(capacity, access.WINDOW_SECONDS, clock=lambda: 100.0)


def rolls(session: Session, count: int) -> None:
    for _ in range(count):
        assert session.run("rolar 1d6").ok


@pytest.fixture(scope="module")
def long_campaign() -> Iterator[Session]:
    """A campaign of LONG_CAMPAIGN public rolls (in memory: it is made quickly), shared by the
    module's tests that only read it."""
    opened = Session.open(None, 7, load_rules(), gm_token=GM_TOKEN)
    rolls(opened, LONG_CAMPAIGN)
    yield opened
    opened.close()


# ---------------------------------------------------------------------------- the welcome

def test_the_gms_command_is_answered_before_a_storm_of_welcomes_ends(
        long_campaign: Session) -> None:
    """100 table screens connect at once to a campaign of 5,200 public events; the GM's
    command sent as the storm begins is acknowledged before the storm's welcomes are all
    done (each welcome used to replay the whole log holding the fan-out's lock)."""
    public = sum(1 for e in long_campaign.events_since(0) if e["visibility"] == "public")
    assert public >= 5_000
    running = start_in_thread(long_campaign)
    running.app.extensions["mesa_hub"].reception.connection_cap = STORM + 10
    gm = Peer(running.url, {"token": GM_TOKEN})
    order: list[str] = []  # "bem-vindo" per finished welcome, "ack" for the GM's command
    lock = threading.Lock()
    screens: list[socketio.Client] = []

    def note(what: str) -> None:
        with lock:
            order.append(what)

    def screen() -> None:
        client = socketio.Client(reconnection=False)
        client.on("estado", lambda _view: note("bem-vindo"))  # the welcome's last message
        with lock:
            screens.append(client)
        client.connect(running.url, auth={"papel": "mesa"}, transports=["websocket"],
                       wait_timeout=30)

    try:
        gm.welcome()
        gm.wait_states(1)
        starting = [threading.Thread(target=screen, daemon=True) for _ in range(STORM)]
        for thread in starting:
            thread.start()
        wait_until(lambda: running.app.extensions["mesa_hub"].connections.pending
                   or "bem-vindo" in order, timeout=30, what="a tempestade começou")
        ack = gm.cmd("rolar 1d20")
        note("ack")
        assert ack["ok"] is True
        for thread in starting:
            thread.join(timeout=60)
        wait_until(lambda: order.count("bem-vindo") == STORM, timeout=120,
                   what="todas as boas-vindas")
        assert order.index("ack") < len(order) - 1, order  # before the last welcome ended
        assert order.count("bem-vindo") == STORM
    finally:
        for client in screens:
            if client.connected:
                client.disconnect()
        gm.close()
        running.stop()


def test_a_welcome_sends_the_recent_events_and_the_older_come_on_request(
        long_campaign: Session) -> None:
    """Whatever the campaign's length, a new screen gets its last WELCOME_EVENTS events (the
    pages' log), in its numbering; `anteriores` pages back through the older ones."""
    running = start_in_thread(long_campaign)
    try:
        count = sum(1 for e in long_campaign.events_since(0) if e["visibility"] == "public")
        screen = Peer(running.url, {"papel": "mesa"})
        screen.wait_states(1)
        assert screen.seqs == list(range(count - welcome.WELCOME_EVENTS + 1, count + 1))
        first = screen.seqs[0]
        page = screen.sio.call("anteriores", {"antes": first}, timeout=10)
        assert page["ok"] is True and page["mais"] is True
        assert [e["seq"] for e in page["eventos"]] == list(
            range(first - welcome.OLDER_PAGE, first))
        texts = [e["text"] for e in long_campaign.events_since(0)
                 if e["visibility"] == "public"]
        assert [e["text"] for e in page["eventos"]] == texts[first - 1 - welcome.OLDER_PAGE:
                                                            first - 1]
        start = screen.sio.call("anteriores", {"antes": 3}, timeout=10)
        assert [e["seq"] for e in start["eventos"]] == [1, 2] and start["mais"] is False
        bad = screen.sio.call("anteriores", {"antes": "ontem"}, timeout=10)
        assert bad["ok"] is False and "antes" in bad["error"]
        # a returning screen with desde gets exactly what it missed
        back = Peer(running.url, {"papel": "mesa", "desde": count - 5})
        back.wait_states(1)
        assert back.seqs == list(range(count - 4, count + 1))
        screen.close()
        back.close()
    finally:
        running.stop()


# ---------------------------------------------------------------------------- commands

def test_one_token_over_many_connections_has_one_budget(session: Session) -> None:
    """A token's commands are counted together, however many connections it opens (one
    token over 50 connections used to get 50 budgets); the refusal is in Portuguese."""
    running = start_in_thread(session, gm_rate_limiter=frozen(access.GM_COMMANDS_PER_WINDOW))
    connections = [Peer(running.url, {"token": GM_TOKEN}) for _ in range(4)]
    try:
        for peer in connections:
            peer.welcome()
        before = len(session.commands())
        tries = access.GM_COMMANDS_PER_WINDOW + 8
        acks = [connections[n % len(connections)].cmd("rolar 1d4") for n in range(tries)]
        accepted = [a for a in acks if a["ok"]]
        assert len(accepted) == access.GM_COMMANDS_PER_WINDOW
        assert all("devagar" in a["error"] for a in acks if not a["ok"])
        assert len(session.commands()) == before + access.GM_COMMANDS_PER_WINDOW
    finally:
        for peer in connections:
            peer.close()
        running.stop()


def test_many_tokens_from_one_address_share_its_budget(session: Session) -> None:
    """Players from one address (here, every one of them: loopback) may send together at
    most ADDRESS_FACTOR times one player's budget."""
    running = start_in_thread(session, rate_limiter=frozen(access.COMMANDS_PER_WINDOW))
    names = [f"Jogador {n}" for n in range(budget.ADDRESS_FACTOR + 2)]
    players = [Peer(running.url, {"nome": name}) for name in names]
    try:
        for peer in players:
            peer.welcome()
        acks = [peer.cmd("rolar 1d6") for peer in players
                for _ in range(access.COMMANDS_PER_WINDOW)]
        accepted = [a for a in acks if a["ok"]]
        assert len(accepted) == access.COMMANDS_PER_WINDOW * budget.ADDRESS_FACTOR
        refusals = {a["error"] for a in acks if not a["ok"]}
        assert refusals and all("deste aparelho" in r for r in refusals), refusals
    finally:
        for peer in players:
            peer.close()
        running.stop()


def test_one_address_may_hold_only_so_many_connections(server: RunningServer,
                                                         tables: Tables) -> None:
    server.app.extensions["mesa_hub"].reception.connection_cap = 3
    held = [Peer(server.url, {"papel": "mesa"}) for _ in range(3)]
    try:
        for peer in held:
            peer.wait_states(1)
        refused = socketio.Client(reconnection=False)
        reasons: list[object] = []
        refused.on("connect_error", lambda data=None: reasons.append(data))
        with pytest.raises(socketio.exceptions.ConnectionError):
            refused.connect(server.url, auth={"papel": "mesa"}, transports=["websocket"],
                            wait_timeout=5)
        wait_until(lambda: reasons, what="connect_error")
        assert "conexões demais" in json.dumps(reasons, ensure_ascii=False)
        refused.disconnect()
        held[0].close()
        wait_until(lambda: len(server.app.extensions["mesa_hub"].connections.live()) == 2)
        again = Peer(server.url, {"papel": "mesa"})  # one left: room for one more
        again.wait_states(1)
        again.close()
    finally:
        for peer in held:
            peer.close()


# ---------------------------------------------------------------------------- HTTP

def test_half_sent_requests_time_out_and_pages_still_load(session: Session) -> None:
    """Connections whose request never finishes are closed after the request timeout (they
    used to hold a thread and a file descriptor each for ever); WebSockets are not."""
    running = start_in_thread(session, request_timeout=0.5)
    port = running.port
    half_open = []
    gm = Peer(running.url, {"token": GM_TOKEN})
    try:
        gm.welcome()
        for _ in range(20):
            raw = socket.create_connection(("127.0.0.1", port))
            raw.sendall(b"GET /jogador HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Meio: ")
            raw.settimeout(30)
            half_open.append(raw)
        for raw in half_open:
            assert raw.recv(1024) == b""  # the server closed it, having answered nothing
        with urllib.request.urlopen(f"{running.url}/jogador", timeout=10) as page:
            assert page.status == 200
        assert gm.cmd("rolar 1d6")["ok"] is True  # the WebSocket outlived the timeout
    finally:
        for raw in half_open:
            raw.close()
        gm.close()
        running.stop()


def test_the_open_files_limit_is_raised_where_the_os_has_one() -> None:
    resource = pytest.importorskip("resource")  # POSIX: Windows has no such limit
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    now = http_limits.raise_fd_limit()
    assert now is not None and now >= soft
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == now <= hard


# ---------------------------------------------------------------------------- reports

def test_report_requests_are_limited_per_token(server: RunningServer, session: Session) -> None:
    assert session.run("rolar 1d6").ok
    url = urllib.request.Request(f"{server.url}/relatorio", data=b"token=" + GM_TOKEN.encode())
    for _ in range(REPORTS_PER_WINDOW):
        with urllib.request.urlopen(url, timeout=30) as page:
            assert page.status == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=30)
    assert refused.value.code == 429
    assert "devagar" in refused.value.read().decode("utf-8")


def test_the_gm_tokens_http_commands_share_its_budget(session: Session) -> None:
    """POST /api/command with the GM's token counts against the same budget as its sockets
    (a second way around the limit, closed)."""
    running = start_in_thread(session, gm_rate_limiter=frozen(access.GM_COMMANDS_PER_WINDOW))
    gm = Peer(running.url, {"token": GM_TOKEN})
    try:
        gm.welcome()
        half = access.GM_COMMANDS_PER_WINDOW // 2
        assert all(gm.cmd("rolar 1d4")["ok"] for _ in range(half))
        answers = [requests.post(f"{running.url}/api/command", json={"text": "rolar 1d4"},
                                 headers={"Authorization": f"Bearer {GM_TOKEN}"}, timeout=10)
                   for _ in range(access.GM_COMMANDS_PER_WINDOW - half + 3)]
        assert [a.status_code for a in answers].count(200) == access.GM_COMMANDS_PER_WINDOW - half
        assert answers[-1].status_code == 429 and "devagar" in answers[-1].json()["error"]
    finally:
        gm.close()
        running.stop()


def test_a_new_gm_connection_reads_nothing_of_a_long_past(
        long_campaign: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM's projection needs no past events (it sees them all, in the log's numbers):
    made at once, in a long campaign, without reading the log (reading 50,000 events under
    the projections' lock used to hold the GM's first command back for seconds)."""
    hub = projections.Projections(long_campaign, long_campaign.tables)
    hub.count("public")  # the log so far, as the others have it
    read: list[int] = []
    real = long_campaign.history_since
    monkeypatch.setattr(long_campaign, "history_since",
                        lambda seq=0, limit=-1: read.append(len(r := real(seq, limit))) or r)
    hub.prepare("gm")
    assert hub.count("gm") == long_campaign.last_seq()
    assert sum(read) == 0, read
    newest = long_campaign.events_since(long_campaign.last_seq() - 1)[0]
    assert hub.show(newest, "gm") == newest


def test_the_fan_out_renders_an_event_alike_for_all_once_and_each_copy_as_its_viewers(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new event goes to every viewer in its own numbering; one that reads the same for all
    but its number (no prompt, no undo in it) is rendered once, not once per phone (50 phones
    made 50 renderings and 50 JSON encodings per event); the copies are each viewer's own."""
    names = ["Ana", "Bia", "Cia", "Dora"]
    for name in names:
        assert session.run(f"personagem {name}").ok
    for text in ["rolar 1d6", "segredo 1d20", "pânico Bia", "pânico Ana", "desfazer",
                 "tesouro 3 moedas de ouro", "cancelar", "rolar 2d6"]:
        assert session.run(text).ok
    viewers = ["public", "gm"] + [f"player:{n.lower()}" for n in names]
    hub = projections.Projections(session, session.tables)
    one_by_one = projections.Projections(session, session.tables)
    for event in session.history_since(0):
        seeing = [v for v in viewers if access_sees(event.visibility, v)]
        copies = hub.copies(event, seeing)
        got = {viewer: local for local, group in copies for viewer in group}
        assert got == {viewer: one_by_one.show(event, viewer) for viewer in seeing}, event
        assert sum(len(group) for _, group in copies) == len(seeing)
    rendered: list[str] = []
    narration = session.tables.narration
    real = type(narration).render
    monkeypatch.setattr(type(narration), "render",
                        lambda self, code, data: rendered.append(code) or real(self, code, data))
    assert session.run("rolar 1d8").ok
    (roll,) = session.history_since(session.last_seq() - 1)
    hub.count("gm")  # the projections have the roll (not rendered: only counted)
    rendered.clear()
    copies = hub.copies(roll, viewers)
    assert len(rendered) == 1, rendered
    # one copy per distinct number (Ana's and Bia's prompts count in theirs; the GM's: the
    # log's), every viewer in one of them
    assert len({local["seq"] for local, _ in copies}) == len(copies) >= 2
    assert sorted(v for _, group in copies for v in group) == sorted(viewers)


def test_a_new_viewers_projection_is_read_in_chunks_and_numbers_alike(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A viewer's first connection reads the log in chunks without the locks; its numbers
    are the same as a projection made in one go, events committed meanwhile included."""
    monkeypatch.setattr(projections, "CHUNK", 7)
    assert session.run("personagem Ana").ok
    for text in ["rolar 1d6", "segredo 1d20", "panico Ana", "cancelar", "rolar 2d6"] * 5:
        assert session.run(text).ok
    chunked = projections.Projections(session, session.tables)
    chunked.count("gm")  # the others have read the log so far
    assert session.run("rolar 1d8").ok  # committed before the new viewer's first question
    chunked.prepare("public")
    chunked.prepare("player:ana")
    whole = projections.Projections(session, session.tables)
    for viewer in ("public", "player:ana"):
        assert chunked.count(viewer) == whole.count(viewer)
        shown = [chunked.show(e, viewer) for e in session.history_since(0)
                 if access_sees(e.visibility, viewer)]
        assert [e["seq"] for e in shown] == list(range(1, whole.count(viewer) + 1))
        assert shown == [whole.show(e, viewer) for e in session.history_since(0)
                         if access_sees(e.visibility, viewer)]
