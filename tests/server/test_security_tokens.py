"""Tokens (issue 25, item 6): wrong tokens throttled per address, on a real server over
loopback, whichever door they knock on; a GM token chosen with --gm-token is long enough."""
from __future__ import annotations

import pytest
import requests
import socketio

from companion.cli import main
from companion.server import access, wrong_tokens
from companion.server.app import RunningServer
from companion.tables.files import Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import refused_join
from tests.clock_helpers import Clock


def test_wrong_tokens_are_throttled_per_address_at_every_door(server: RunningServer) -> None:
    clock = Clock()
    throttle: wrong_tokens.TokenThrottle = server.app.extensions[wrong_tokens.EXTENSION]
    throttle.clock = clock
    api = f"{server.url}/api/state"
    for attempt in range(wrong_tokens.FAILED_PER_WINDOW):
        wrong = requests.get(api, timeout=10, headers={"Authorization": f"Bearer x{attempt}"})
        assert wrong.status_code == 401
    # spent: even the right token is not checked now, at any door
    right = requests.get(api, timeout=10, headers={"Authorization": f"Bearer {GM_TOKEN}"})
    assert right.status_code == 429 and "espere um minuto" in right.json()["error"]
    page = requests.get(f"{server.url}/mestre?token={GM_TOKEN}", timeout=10)
    assert page.status_code == 429 and "espere um minuto" in page.text
    report = requests.post(f"{server.url}/relatorio", data={"token": GM_TOKEN}, timeout=10)
    assert report.status_code == 429
    assert "espere um minuto" in refused_join(server, {"token": GM_TOKEN})
    # joining by name checks no token: still open
    player = socketio.Client(reconnection=False)
    player.connect(server.url, auth={"nome": "Ana"}, transports=["websocket"], wait_timeout=5)
    player.disconnect()
    clock.now += wrong_tokens.WINDOW_SECONDS  # a minute later the address may try again
    again = requests.get(api, timeout=10, headers={"Authorization": f"Bearer {GM_TOKEN}"})
    assert again.status_code == 200


def test_the_throttle_counts_only_wrong_tokens_given() -> None:
    clock = Clock()
    throttle = wrong_tokens.TokenThrottle("devagar", capacity=2, window=60, clock=clock)
    for _ in range(5):
        assert throttle.check("a", None, lambda: False) is False  # nothing given: free
        assert throttle.check("a", "certo", lambda: True) is True
    assert throttle.check("a", "x", lambda: False) is False
    assert throttle.check("a", "y", lambda: False) is False
    with pytest.raises(wrong_tokens.TokenThrottled):
        throttle.check("a", "certo", lambda: True)
    assert throttle.check("b", "certo", lambda: True) is True  # another address
    clock.now += 30  # one attempt back
    assert throttle.check("a", "certo", lambda: True) is True


@pytest.mark.parametrize("token", ["7", "curto-demais", "x" * 15, " " + "y" * 16])
def test_a_short_gm_token_is_refused_at_start(token: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--gm-token", token, "--port", "1"])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert f"pelo menos {access.MIN_GM_TOKEN} caracteres" in said and "Traceback" not in said


def test_a_long_enough_gm_token_will_do(tables: Tables) -> None:
    assert access.gm_token_problem("token-do-mestre-1", tables.narration) is None
