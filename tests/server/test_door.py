"""The door decides who gets a thread (issue 33, items 1 and 2), on a real server on loopback:
one address (127.0.0.2, a curious player's laptop) opening 1,500 bare websockets, or 600
half-finished requests trickling one header line at a time, leaves the server's threads and
open files bounded, and the GM (127.0.0.1, the laptop) still connects and runs a command; 100
table screens at once on a 5,000-event campaign and one address reconnecting in a loop never
keep the GM out. Timings are the benchmark's (bench/live.py); these tests assert bounds and
that the GM got through."""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests

from companion.server import budget, door, http_limits
from companion.server.app import RunningServer, start_in_thread
from companion.session import Session
from companion.tables.files import Tables
from tests.socket_client import ordered_client
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, gm_ok, wait_until

ATTACKER = "127.0.0.2"
DEADLINE = 1.0  # the tests' whole-request deadline (the real one: http_limits.REQUEST_TIMEOUT)
# a websocket costs the server its connection's thread, simple-websocket's reader, Engine.IO's
# writer and its ping task: the bound on threads is that many per admitted socket
THREADS_PER_SOCKET = 4
SLACK_THREADS = 12  # the watch, the dispatcher, the GM's sockets and their client threads
SLACK_FILES = 24


def _other_loopback(address: str) -> bool:
    try:
        with socket.socket() as probe:
            probe.bind((address, 0))
        return True
    except OSError:
        return False


# macOS has only 127.0.0.1 on its loopback: there no second address can play the attacker
pytestmark = pytest.mark.skipif(not _other_loopback(ATTACKER),
                                reason="este sistema não tem 127.0.0.2 no loopback")


def _open_files() -> int:
    """This process's open file descriptors (Linux's /proc, else /dev/fd)."""
    return len(os.listdir("/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"))


@pytest.fixture(autouse=True)
def many_files() -> None:
    http_limits.raise_fd_limit()  # the attacker's 1,500 sockets live in this process too


@pytest.fixture
def guarded(session: Session) -> Iterator[RunningServer]:
    running = start_in_thread(session, request_timeout=DEADLINE)
    yield running
    running.stop()


def _connect_from(address: str, port: int) -> socket.socket | None:
    """A TCP connection from `address` to the server (None: refused before it connected)."""
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=10,
                                        source_address=(address, 0))
    except OSError:
        return None


def _send(sock: socket.socket, data: bytes) -> bool:
    try:
        sock.sendall(data)
        return True
    except OSError:  # closed at the door
        return False


def _server_files(before: int, ours: list[socket.socket]) -> int:
    """The server's open files now: the process's, less what it had before and the
    attacker's own sockets (this process holds them too)."""
    return _open_files() - before - sum(1 for s in ours if s.fileno() != -1)


def _gm_gets_through(running: RunningServer) -> None:
    page = requests.get(f"{running.url}/mestre", params={"token": GM_TOKEN}, timeout=5)
    assert page.status_code == 200
    gm = Peer(running.url, {"token": GM_TOKEN})
    try:
        gm.welcome()
        assert gm_ok(gm, "rolar 1d6")
    finally:
        gm.close()


def test_bare_websockets_from_one_address_get_no_thread_past_the_cap(
        guarded: RunningServer) -> None:
    threads, files = threading.active_count(), _open_files()
    upgrade = (b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               b"Upgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    ours: list[socket.socket] = []
    try:
        for _ in range(1_500):
            sock = _connect_from(ATTACKER, guarded.port)
            if sock is not None:
                ours.append(sock)
                _send(sock, upgrade)
        gate = guarded.server.door
        wait_until(lambda: gate.refused >= 1_500 - door.SOCKETS_PER_ADDRESS,
                   what="os soquetes além do limite fechados na porta")
        assert gate.held(ATTACKER) <= door.SOCKETS_PER_ADDRESS
        bound = THREADS_PER_SOCKET * door.SOCKETS_PER_ADDRESS + SLACK_THREADS
        assert threading.active_count() - threads <= bound
        assert _server_files(files, ours) <= door.SOCKETS_PER_ADDRESS + SLACK_FILES
        _gm_gets_through(guarded)  # from 127.0.0.1, while the 1,500 are still open
        assert threading.active_count() - threads <= bound
    finally:
        for sock in ours:
            sock.close()


def test_slow_requests_from_one_address_are_capped_and_cut_at_their_deadline(
        guarded: RunningServer, session: Session, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=http_limits.log.name)
    threads, files = threading.active_count(), _open_files()
    ours: list[socket.socket] = []
    try:
        for _ in range(600):
            sock = _connect_from(ATTACKER, guarded.port)
            if sock is not None and _send(sock, b"GET /jogador HTTP/1.1\r\nHost: 127.0.0.1\r\n"):
                ours.append(sock)
        gate, watch = guarded.server.door, guarded.server.deadlines
        admitted = gate.held(ATTACKER)
        assert admitted <= door.SOCKETS_PER_ADDRESS
        # some got in (on a busy machine the 600 connections take longer than the tests' 1-s
        # deadline: the first admitted may be cut already)
        assert admitted + watch.expired > 0
        began = time.monotonic()
        while time.monotonic() - began < 2.5 * DEADLINE:  # one header line at a time
            for sock in ours:
                _send(sock, b"X-Devagar: 1\r\n")
            assert threading.active_count() - threads <= door.SOCKETS_PER_ADDRESS + SLACK_THREADS
            assert _server_files(files, ours) <= door.SOCKETS_PER_ADDRESS + SLACK_FILES
            time.sleep(0.3)
        # every admitted one was cut: at its whole deadline, however often it sent a line —
        # or, when this busy machine let more than the deadline pass between two of its lines,
        # by the same time limit on one read (the server's log says "pedido atrasado")
        wait_until(lambda: gate.held(ATTACKER) == 0, what="os pedidos lentos cortados")
        late = session.tables.narration.render("log_do_servidor.pedido_atrasado", {})
        read_late = sum(1 for record in caplog.records if record.getMessage() == late)
        assert watch.expired > 0
        assert watch.expired + read_late >= admitted, (watch.expired, read_late, admitted)
        _gm_gets_through(guarded)
    finally:
        for sock in ours:
            sock.close()


# ---------------------------------------------------------------------------- the storm

def _screen(url: str, port: int, address: str, welcomed: threading.Event | None = None
            ) -> Any:
    """A table screen's Socket.IO connection from `address` (None: refused)."""
    sock = _connect_from(address, port)
    if sock is None:
        return None
    client = ordered_client(reconnection=False, websocket_extra_options={"socket": sock})
    if welcomed is not None:
        client.on("estado", lambda *_: welcomed.set())
    try:
        client.connect(url, auth={"papel": "mesa", "lote": True}, transports=["websocket"],
                       wait_timeout=30)
    except Exception:  # refused (the cap, the rate): the loop just tries again
        sock.close()
        return None
    return client


@pytest.fixture
def big_campaign(tmp_path: Path, tables: Tables) -> Iterator[Session]:
    """A campaign of 5,000 public events (one roll each; no fsync while building it)."""
    session = Session.open(tmp_path / "grande.db", 1, tables, gm_token=GM_TOKEN)
    session._log._db.execute("PRAGMA synchronous=OFF")  # the test's own shortcut
    while session.last_seq() < 5_000:
        session.run("rolar 1d6")
    session._log._db.execute("PRAGMA synchronous=FULL")
    yield session
    session.close()


def test_the_gm_gets_through_a_storm_of_table_screens_and_a_reconnect_loop(
        big_campaign: Session) -> None:
    running = start_in_thread(big_campaign)
    url, port = running.url, running.port
    stop = threading.Event()
    clients: list[Any] = []
    lock = threading.Lock()

    def screen(address: str) -> None:
        client = _screen(url, port, address)
        if client is not None:
            with lock:
                clients.append(client)

    def loop() -> None:  # one address reconnecting a table screen, again and again
        while not stop.is_set():
            welcomed = threading.Event()
            client = _screen(url, port, "127.0.0.20", welcomed)
            if client is not None:
                welcomed.wait(2)
                client.disconnect()

    # 100 screens from four addresses (each within its budget.CONNECTIONS_PER_ADDRESS)
    addresses = [f"127.0.0.{10 + n % 4}" for n in range(100)]
    assert max(addresses.count(a) for a in set(addresses)) <= budget.CONNECTIONS_PER_ADDRESS
    storm = [threading.Thread(target=screen, args=(a,), daemon=True) for a in addresses]
    loopers = [threading.Thread(target=loop, daemon=True) for _ in range(4)]
    try:
        for thread in loopers + storm:
            thread.start()
        for _ in range(3):  # the GM reconnects, and runs a command, while all that goes on
            gm = Peer(url, {"token": GM_TOKEN, "lote": True})
            try:
                wait_until(lambda: gm.of("estado"), timeout=20, what="o estado do Mestre")
                assert gm_ok(gm, "rolar 1d6")
            finally:
                gm.close()
    finally:
        stop.set()
        for thread in storm + loopers:
            thread.join(timeout=30)
        for client in clients:
            if client.connected:
                client.disconnect()
        running.stop()


def test_an_address_reconnecting_in_a_loop_is_slowed_and_only_it(guarded: RunningServer
                                                                   ) -> None:
    refusals: list[Any] = []
    welcomed = 0
    began = time.monotonic()
    for _ in range(budget.RECONNECTS_PER_ADDRESS + 20):  # one screen, again and again,
        if refusals:  # until it is slowed
            break
        sock = _connect_from("127.0.0.30", guarded.port)
        assert sock is not None
        client = ordered_client(reconnection=False, websocket_extra_options={"socket": sock})
        client.on("connect_error", refusals.append)
        try:
            client.connect(guarded.url, auth={"papel": "mesa"}, transports=["websocket"],
                           wait_timeout=5)
            welcomed += 1
            client.disconnect()
        except Exception:
            sock.close()
    # all its budget at once, then only what the bucket refilled meanwhile (one connection
    # per RECONNECT_WINDOW / RECONNECTS_PER_ADDRESS seconds: on a busy machine the loop itself
    # may last that long)
    refilled = int((time.monotonic() - began) * budget.RECONNECTS_PER_ADDRESS
                   / budget.RECONNECT_WINDOW)
    assert budget.RECONNECTS_PER_ADDRESS <= welcomed <= budget.RECONNECTS_PER_ADDRESS + refilled
    assert any("se conectou mais de" in str(said) for said in refusals)
    other = _screen(guarded.url, guarded.port, "127.0.0.31")  # another device: not slowed
    assert other is not None
    other.disconnect()
    _gm_gets_through(guarded)


def test_a_silent_tls_client_does_not_hold_the_door(session: Session, tmp_path: Path) -> None:
    """Under `--tls` the handshake is made in the connection's own thread, under its deadline:
    a client that connects and says nothing no longer stops the accepting thread."""
    import urllib3

    from companion.server import tls
    from companion.server.app import _make_server, create_app

    urllib3.disable_warnings()
    cert, key = tls.certificate(tmp_path / "tls", ["127.0.0.1"], session.tables.narration)
    app, _socketio = create_app(session, open_joins=True)
    server = _make_server("127.0.0.1", 0, app, session.tables, ssl_context=(str(cert), str(key)),
                          request_timeout=DEADLINE)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    silent = [_connect_from(ATTACKER, server.server_port) for _ in range(3)]
    try:
        time.sleep(0.2)  # the silent ones are accepted first
        page = requests.get(f"https://127.0.0.1:{server.server_port}/jogador", verify=False,
                            timeout=5)
        assert page.status_code == 200
        wait_until(lambda: server.door.held(ATTACKER) == 0, what="os mudos cortados no prazo")
    finally:
        for sock in silent:
            if sock is not None:
                sock.close()
        for name in ("mesa_speech", "mesa_voice", "mesa_hub"):
            app.extensions[name].stop()
        server.shutdown()
        server.server_close()
