"""The table screen and the laptop (issue 25, item 5), against a real server on loopback.

"Another device" is a client whose connection leaves from 127.0.0.2 to the server's 127.0.0.1:
the two ends differ, as they do for a phone on the Wi-Fi; a page on the laptop connects from
the address it connects to. Only such a page may make the listener deaf (`fala_estado`) or
speak for the table, only the GM chooses speech, and the voice status is the GM's. The server
answers only to its own names (DNS rebinding) and opens sockets only for its own origin.
"""
from __future__ import annotations

import socket
import threading
from typing import Any, Iterator

import pytest
import requests

from companion.server.app import RunningServer, start_in_thread
from companion.server.hosts import REFRESH_SECONDS, HostGuard, host_of, on_laptop, same_origin
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_client import ordered_client
from tests.socket_helpers import Peer, wait_until
from tests.clock_helpers import Clock

ELSEWHERE = "127.0.0.2"  # loopback too, but not the address the server listens on


class Remote(Peer):
    """A Peer whose connection leaves from another address than the server's."""

    def __init__(self, url: str, port: int, auth: dict[str, Any], source: str) -> None:
        self.url = url
        self.received: list[tuple[str, Any]] = []
        self.acks: list[Any] = []
        self.refusals: list[Any] = []
        self.lock = threading.Lock()
        raw = socket.create_connection(("127.0.0.1", port), timeout=5,
                                       source_address=(source, 0))
        self.sio = ordered_client(reconnection=False, websocket_extra_options={"socket": raw})
        self.sio.on("*", self._record)
        self.sio.connect(url, auth=auth, transports=["websocket"], wait_timeout=5)


@pytest.fixture
def deafened(server: RunningServer) -> Iterator[list[tuple[str, bool]]]:
    """What the listener was told of pages speaking (who, speaking)."""
    calls: list[tuple[str, bool]] = []
    speech = server.app.extensions["mesa_speech"]
    speech.deafen = lambda who, on, _tail: calls.append((who, on))
    yield calls
    speech.deafen = None


def test_a_rogue_table_screen_cannot_deafen_the_listener_nor_take_the_speech(
        server: RunningServer, deafened: list[tuple[str, bool]]) -> None:
    rogue = Remote(server.url, server.port, {"papel": "mesa"}, ELSEWHERE)
    try:
        rogue.welcome()
        said = rogue.sio.call("fala_estado", {"falando": True}, timeout=10)
        assert said["ok"] is False and "notebook" in said["error"]
        chosen = rogue.sio.call("fala_preferencias", {"pagina": True}, timeout=10)
        assert chosen["ok"] is False and "Mestre" in chosen["error"]
        status = rogue.sio.call("voz_estado", None, timeout=10)
        assert status["ok"] is False and "ligada" not in status
        assert deafened == []
        # the table screen on the laptop itself still may
        local = Peer(server.url, {"papel": "mesa"})
        local.welcome()
        assert local.sio.call("fala_estado", {"falando": True}, timeout=10) == {"ok": True}
        assert local.sio.call("fala_preferencias", {"pagina": True}, timeout=10)["ok"]
        assert "ligada" in local.sio.call("voz_estado", None, timeout=10)
        assert [on for _who, on in deafened] == [True]
        local.close()
    finally:
        rogue.close()


def test_voice_status_reaches_the_gm_not_a_screen_elsewhere(server: RunningServer) -> None:
    gm = Peer(server.url, {"token": GM_TOKEN})
    rogue = Remote(server.url, server.port, {"papel": "mesa"}, ELSEWHERE)
    try:
        gm.welcome(), rogue.welcome()
        rogue.wait_states(1)
        server.app.extensions["mesa_voice"].status_changed({"modo": "desligado", "x": 1})
        wait_until(lambda: gm.of("voz_estado"), what="o estado da voz no Mestre")
        assert gm.sio.call("voz_estado", None, timeout=10)["ligada"] is False
        assert rogue.sio.call("voz_estado", None, timeout=10)["ok"] is False  # after the push
        assert rogue.of("voz_estado") == []
    finally:
        gm.close()
        rogue.close()


def test_a_foreign_host_header_is_refused(server: RunningServer) -> None:
    port = server.port
    for path in ("/jogador", "/mesa", "/api/state", "/socket.io/?EIO=4&transport=polling"):
        answer = requests.get(f"{server.url}{path}", timeout=10,
                              headers={"Host": f"rebind.test:{port}"})
        assert answer.status_code == 403, path
        assert "Endereço desconhecido (rebind.test" in answer.text
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"):
        answer = requests.get(f"{server.url}/jogador", timeout=10, headers={"Host": host})
        assert answer.status_code == 200, host


NEW_ADDRESS = "127.0.0.5"  # an address of this machine the server did not list at start


def test_an_address_the_laptop_got_after_start_is_served(session: Any) -> None:
    """A Wi-Fi reconnect gives the laptop another address: a phone that opens it reaches the
    server at that very address, and is served without a restart (a real connection to an
    address the start-time list does not hold); a foreign name on it is still refused."""
    running = start_in_thread(session, host=NEW_ADDRESS)
    try:
        guard = running.app.wsgi_app
        assert isinstance(guard, HostGuard) and NEW_ADDRESS not in guard.allowed
        base = f"http://{NEW_ADDRESS}:{running.port}"
        answer = requests.get(f"{base}/jogador", timeout=10)
        assert answer.status_code == 200
        for host in (f"rebind.test:{running.port}", f":{running.port}"):
            foreign = requests.get(f"{base}/jogador", timeout=10, headers={"Host": host})
            assert foreign.status_code == 403, host
    finally:
        running.stop()


def test_a_miss_reads_the_machines_names_again_at_most_once_per_interval(
        server: RunningServer) -> None:
    """The names the machine has now (its LAN address changed) are read again on a miss —
    once per REFRESH_SECONDS however many foreign Hosts knock, and foreign ones stay out."""
    guard: HostGuard = server.app.wsgi_app
    clock = Clock()
    reads: list[float] = []
    before = guard.allowed

    def names_now() -> frozenset[str]:
        reads.append(clock.now)
        return before | {"192.168.77.5"}  # the laptop's new LAN address

    guard.names, guard.clock, guard._read_at = names_now, clock, 0.0

    def status(host: str) -> int:
        return requests.get(f"{server.url}/jogador", timeout=10,
                            headers={"Host": f"{host}:{server.port}"}).status_code

    assert [status("rebind.test") for _ in range(10)] == [403] * 10
    assert status("192.168.77.5") == 403 and reads == []  # read at start, too recently
    clock.now = REFRESH_SECONDS
    assert status("192.168.77.5") == 200 and reads == [REFRESH_SECONDS]
    assert [status("rebind.test") for _ in range(10)] == [403] * 10
    assert reads == [REFRESH_SECONDS]
    clock.now = 2 * REFRESH_SECONDS
    assert status("rebind.test") == 403 and reads == [REFRESH_SECONDS, 2 * REFRESH_SECONDS]


def test_no_version_banner_in_the_server_header(server: RunningServer) -> None:
    answer = requests.get(f"{server.url}/jogador", timeout=10)
    assert answer.headers["Server"] == "Mesa"


def test_a_forwarded_host_does_not_make_a_foreign_origin_ours(server: RunningServer) -> None:
    handshake = f"{server.url}/socket.io/?EIO=4&transport=polling"
    forged = requests.get(handshake, timeout=10, headers={
        "Origin": "http://malvado.test", "X-Forwarded-Host": "malvado.test"})
    assert forged.status_code == 400
    ours = requests.get(handshake, timeout=10, headers={"Origin": server.url})
    assert ours.status_code == 200


def test_the_pieces_of_the_host_and_laptop_rules() -> None:
    assert [host_of(h) for h in ("Mesa.local:5000", "[::1]:80", "192.168.0.5", "x.test.")] \
        == ["mesa.local", "::1", "192.168.0.5", "x.test"]
    assert on_laptop({"REMOTE_ADDR": "192.168.0.5", "mesa.local_addr": "192.168.0.5"})
    assert not on_laptop({"REMOTE_ADDR": "192.168.0.9", "mesa.local_addr": "192.168.0.5"})
    assert not on_laptop({"REMOTE_ADDR": "127.0.0.2", "mesa.local_addr": "127.0.0.1"})
    assert on_laptop({"REMOTE_ADDR": "::1"}) and not on_laptop({"REMOTE_ADDR": "10.0.0.2"})
    environ = {"HTTP_HOST": "192.168.0.5:5000", "wsgi.url_scheme": "http"}
    assert same_origin("http://192.168.0.5:5000", environ)
    assert not same_origin("https://192.168.0.5:5000", environ)
    assert not same_origin("http://rebind.test:5000", environ)


def test_an_empty_host_name_is_never_ours() -> None:
    """`Host: :5000` names nothing: refused, even where the handler did not say the local end."""
    answered: list[str] = []
    guard = HostGuard(lambda environ, start: [b"ok"], lambda: frozenset({"localhost"}),
                      lambda host: "fora")
    body = guard({"HTTP_HOST": ":5000"}, lambda status, headers: answered.append(status))
    assert answered == ["403 FORBIDDEN"] and b"fora" in b"".join(body)
