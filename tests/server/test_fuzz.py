"""Fuzz suite: malformed input of every kind against a real `companion serve`, through HTTP and
Socket.IO, driven by Hypothesis.

The server runs as its own process (`--sem-limites`, so the rate limits do not hide what the
parser and the engine would do; a second test floods a server with the limits on). Every answer
must be a refusal with a readable Portuguese message — never a 500, never a traceback, never
"erro interno" (a bug caught at the boundary) — and afterwards the process is still up, its
standard error has no traceback, and the session's state and log are exactly as before.

The number of examples per strategy comes from MESA_FUZZ_EXAMPLES (the total; 300 by default
in the suite's own run). `./run.sh fuzz [N]` runs N in all (10,000 by default).
"""
from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.server import access
from tests.socket_client import ordered_client

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "mestre-fuzz-token-1"
TOTAL = int(os.environ.get("MESA_FUZZ_EXAMPLES", "300"))
# Shares of TOTAL: the cheap channels get more, a Socket.IO connection per example gets less.
SHARES = {"http_body": 0.2, "http_text": 0.19, "socket_payload": 0.2, "socket_text": 0.18,
          "player_text": 0.1, "auth": 0.05, "frames": 0.05, "seat": 0.03}
ENGLISH = ("Traceback", "Exception", "Internal Server Error", "erro interno", "Bad Request",
           "NoneType", "KeyError", "TypeError")


def examples(kind: str) -> settings:
    return settings(max_examples=max(10, int(TOTAL * SHARES[kind])), deadline=None,
                    suppress_health_check=list(HealthCheck), database=None)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ---------------------------------------------------------------------------- strategies

CONTROL = st.sampled_from(["\x00", "\x07", "\x1b[31m", "\u200b", "\u200d", "\ufeff", "\u202e",
                           "\r", "\n\n", "\t", "\x7f", "\ud800", "\udfff", "\U0010ffff"])
# Where a clause of table talk ends (the parser reads the last clause after it as a command).
TABLE_TALK_END = re.compile(r"[.!?;,…]+(?=\s|$)")
WORDS = st.sampled_from(["rolar", "avançar", "fuga", "turno", "pânico", "responder",
                         "personagem", "tesouro", "desfazer", "masmorra", "d", "1d6", "999",
                         "-1", "ana", "Ana", "de", "dano", "toma", "pedido", "opção", "🐉"])
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


def nested(depth: int) -> Any:
    value: Any = "fundo"
    for index in range(depth):
        value = [value] if index % 2 else {"text": value}
    return value


# Texts that are not commands at all, or commands that must be refused where they are run:
# wrong mode (no chase, no dungeon, no prompt), dice bombs, unknown names, broken numbers.
REFUSED_TEXTS = st.one_of(
    st.text(max_size=60).map(lambda t: "zq" + t),  # never a command's first word
    st.lists(st.one_of(WORDS, CONTROL, st.text(max_size=6)), min_size=1, max_size=8)
    .map(lambda parts: "xyzzy " + " ".join(parts))
    # table talk, then a command ("xyzzy . avançar") is that command (parse._last_clause)
    .filter(lambda text: not TABLE_TALK_END.search(text)),
    st.integers(101, 10**12).map(lambda n: f"rolar {n}d{n}"),
    st.integers(1001, 10**30).map(lambda n: f"rolar 1d{n}"),
    st.sampled_from(["turno", "fuga sucesso", "fuga falha", "distância", "ataque à distância",
                     "responder 14", "responder rolar", "cancelar Zé", "pânico Ninguém",
                     "viagem", "acender tocha", "rolar 0d6", "rolar d0", "rolar 1d6" * 80,
                     "desfazer desfazer", "rolar 1d", "rolar 1d6 com", "tabela Z",
                     "personagem", "curar", "Zé toma 3 de dano"]),
    st.tuples(CONTROL, st.sampled_from(["turno", "fuga sucesso", "responder 3"]))
    .map(lambda pair: pair[0] + pair[1]),
)
BAD_BODIES = st.one_of(
    st.binary(max_size=200),
    JSONISH.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(["texto", "Text", "cmd", "text "]), JSONISH, min_size=1,
                    max_size=3).map(lambda d: json.dumps(d).encode()),
    JSONISH.filter(lambda v: not isinstance(v, str))
    .map(lambda v: json.dumps({"text": v}).encode()),
    st.integers(5, 400).map(lambda d: json.dumps(nested(d)).encode()),
    # nested deeper than the JSON decoder's recursion, still under the size limit (a 500 once)
    st.integers(900, 2000).map(lambda d: b"[" * d + b"]" * d),
    st.integers(900, 1300).map(lambda d: b'{"text": ' + b"[" * d + b"]" * d + b"}"),
    st.integers(600, 800).map(lambda d: b'{"a":' * d + b"1" + b"}" * d),
    st.integers(1, 3).map(lambda k: b'{"text": "' + b"a" * (4096 * k) + b'"}'),
    st.sampled_from([b"\xff\xfe{", b'{"text": "\xc3\x28"}', b"", b"   ", b"null", b"[]",
                     b'{"text": ""}', b'{"text": "   "}', b'{"text": "' + b"x" * 600 + b'"}']),
)
BAD_AUTHS = st.one_of(
    st.sampled_from([{"token": 5}, {"desde": "abc"}, {"desde": -1}, {"token": None},
                     {"token": ""}, {"token": "falso"}, {"token": ["x"]}, {"desde": 1.5},
                     {"desde": True}, {"nome": ""}, {"nome": "   "}, {"nome": 5},
                     {"nome": "!!!"}, {"nome": "\u200b\u200b"}, {"papel": "mestre"},
                     {"papel": 3}, {}, {"nome": "A" * 41}, {"nome": "Ana" * 1000},
                     {"token": TOKEN, "desde": -5}, {"token": TOKEN + "x"}]),
    st.dictionaries(st.sampled_from(["token", "desde", "papel", "nome"]),
                    JSONISH.filter(lambda v: not isinstance(v, (str, int))
                                   or isinstance(v, bool)), min_size=1, max_size=3),
)


# ---------------------------------------------------------------------------- the server

class Served:
    """A real `companion serve` process and what it wrote to standard error."""

    def __init__(self, folder: Path, limits: bool) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = folder / f"fuzz-{self.port}.db"
        self.errors = folder / f"stderr-{self.port}.txt"
        extra = [] if limits else ["--sem-limites"]
        with self.errors.open("w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "serve", *extra, "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", str(self.db), "--seed", "5",
                 "--gm-token", TOKEN], stdout=subprocess.DEVNULL, stderr=stderr, cwd=ROOT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.url}/jogador", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                time.sleep(0.05)
        raise AssertionError("o servidor do fuzz não subiu")

    def command(self, text: str) -> requests.Response:
        return requests.post(f"{self.url}/api/command", json={"text": text}, timeout=10,
                             headers={"Authorization": f"Bearer {TOKEN}"})

    def log(self) -> tuple[list[Any], list[Any], list[Any]]:
        with sqlite3.connect(self.db) as raw:
            return (raw.execute("SELECT * FROM commands ORDER BY n").fetchall(),
                    raw.execute("SELECT * FROM events ORDER BY seq").fetchall(),
                    raw.execute("SELECT * FROM players ORDER BY rowid").fetchall())

    def state(self) -> Any:
        return requests.get(f"{self.url}/api/state", timeout=10,
                            headers={"Authorization": f"Bearer {TOKEN}"}).json()

    def stop(self) -> str:
        alive = self.process.poll() is None
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert alive, "o servidor caiu durante o fuzz"
        return self.errors.read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    server = Served(tmp_path_factory.mktemp("fuzz"), limits=False)
    for text in ("personagem Ana con 1", "personagem Bia", "estação outono", "rolar 1d6"):
        assert server.command(text).status_code == 200, text
    player = ordered_client(reconnection=False)
    welcome: dict[str, Any] = {}
    player.on("boas_vindas", lambda data: welcome.update(data))
    player.connect(server.url, auth={"nome": "Ana"}, transports=["websocket"])
    gm = ordered_client(reconnection=False)
    gm.connect(server.url, auth={"token": TOKEN}, transports=["websocket"])
    deadline = time.monotonic() + 10
    while not welcome and time.monotonic() < deadline:
        time.sleep(0.02)
    before = {"log": server.log(), "state": server.state()}
    context = {"server": server, "gm": gm, "player": player, "before": before,
               "answers": 0}
    yield context
    for client in (gm, player):
        client.disconnect()
    after = {"log": server.log(), "state": server.state()}
    errors = server.stop()
    assert "Traceback" not in errors, errors[-3000:]
    assert after == before, "o fuzz mudou a sessão"


def readable_refusal(message: Any) -> None:
    """A refusal a person can read: a non-empty Portuguese text with no internals in it."""
    assert isinstance(message, str) and message.strip(), message
    for word in ENGLISH:
        assert word not in message, message


def socket_refused(ack: Any) -> None:
    assert isinstance(ack, dict) and ack.get("ok") is False, ack
    readable_refusal(ack.get("error"))


# ---------------------------------------------------------------------------- HTTP

@examples("http_body")
@given(body=BAD_BODIES, kind=st.sampled_from(["application/json", "text/plain", None]))
def test_http_bad_bodies_are_refused(served: dict[str, Any], body: bytes, kind: str | None
                                     ) -> None:
    server = served["server"]
    headers = {"Authorization": f"Bearer {TOKEN}"}
    if kind:
        headers["Content-Type"] = kind
    answer = requests.post(f"{server.url}/api/command", data=body, headers=headers, timeout=10)
    assert answer.status_code in (400, 413, 422), (answer.status_code, body[:80])
    refusal = answer.json()
    assert refusal["ok"] is False
    readable_refusal(refusal["error"])


@examples("http_text")
@given(text=REFUSED_TEXTS)
def test_http_texts_that_are_not_commands_here_are_refused(served: dict[str, Any],
                                                           text: str) -> None:
    answer = served["server"].command(text)
    assert answer.status_code in (400, 422), (answer.status_code, text, answer.text[:200])
    readable_refusal(answer.json()["error"])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(token=st.one_of(st.text(max_size=40), st.just(TOKEN + " "), st.just("Bearer")),
       scheme=st.sampled_from(["Bearer ", "bearer ", "Basic ", "", "Bearer  "]),
       path=st.sampled_from(["/api/command", "/api/state", "/api/../api/state",
                             "/api/command?token=" + TOKEN]),
       origin=st.sampled_from(["http://malvado.example", "null", None]))
def test_http_forged_tokens_and_origins_are_refused(served: dict[str, Any], token: str,
                                                    scheme: str, path: str,
                                                    origin: str | None) -> None:
    if access.bearer_token(scheme + token) == TOKEN:
        return  # that is the real token
    headers = {"Authorization": scheme + token}
    if origin:
        headers["Origin"] = origin
    url = served["server"].url + path
    try:
        answer = requests.post(url, json={"text": "rolar 1d6"}, headers=headers, timeout=10)
    except ValueError:
        return  # requests itself refuses a header with a line break: nothing was sent
    assert answer.status_code in (401, 404, 405), (answer.status_code, headers)
    if answer.headers.get("Content-Type", "").startswith("application/json"):
        readable_refusal(answer.json()["error"])


# ---------------------------------------------------------------------------- Socket.IO

@examples("socket_payload")
@given(payload=st.one_of(JSONISH.filter(lambda v: not (isinstance(v, dict) and "text" in v
                                                       and isinstance(v["text"], str))),
                         st.integers(5, 200).map(nested),
                         st.dictionaries(st.sampled_from(["texto", "cmd"]), JSONISH,
                                         min_size=1)))
def test_socket_bad_payloads_are_refused(served: dict[str, Any], payload: Any) -> None:
    socket_refused(served["gm"].call("comando", payload, timeout=10))


@examples("socket_text")
@given(text=REFUSED_TEXTS)
def test_socket_texts_that_are_not_commands_here_are_refused(served: dict[str, Any],
                                                             text: str) -> None:
    socket_refused(served["gm"].call("comando", {"text": text}, timeout=10))


@examples("player_text")
@given(text=st.one_of(REFUSED_TEXTS, st.sampled_from([
    "avançar", "desfazer", "personagem Bia pv 1", "masmorra", "tesouro 10 moedas de ouro",
    "pânico Bia", "Bia toma 5 de dano", "segredo", "cancelar Ana", "estação inverno",
    "responder Bia 12", "responder pedido 1 14"])))
def test_a_player_cannot_run_what_is_not_theirs(served: dict[str, Any], text: str) -> None:
    socket_refused(served["player"].call("comando", {"text": text}, timeout=10))


def frees_anas_seat(who: str, payload: Any) -> bool:
    """The one request that is not bad: the GM freeing the seat the fuzz's player holds."""
    return who == "gm" and isinstance(payload, dict) and payload.get("personagem") == "ana"


@examples("seat")
@given(who=st.sampled_from(["gm", "player"]),
       payload=st.one_of(JSONISH, st.dictionaries(st.just("personagem"), JSONISH, min_size=1),
                         st.sampled_from([{"personagem": "ana"}, {"personagem": "bia"},
                                          {"personagem": "Ana"}, {"personagem": " ana"},
                                          {"personagem": "zeca"}, {"personagem": "a" * 41}])))
def test_freeing_a_seat_with_bad_data_or_as_a_player_is_refused(served: dict[str, Any],
                                                                who: str, payload: Any) -> None:
    """Bia's seat is free, Ana's is the player's own (only the GM frees seats)."""
    if frees_anas_seat(who, payload):
        return
    socket_refused(served[who].call("liberar", payload, timeout=10))
    if who == "gm":
        socket_refused(served[who].call("aparelho", payload, timeout=10))
        socket_refused(served[who].call("sair", payload, timeout=10))


@examples("auth")
@given(auth=BAD_AUTHS)
def test_bad_connection_data_is_refused_with_a_reason(served: dict[str, Any],
                                                      auth: dict[str, Any]) -> None:
    client = socketio.Client(reconnection=False)
    reasons: list[Any] = []
    client.on("connect_error", lambda data=None: reasons.append(data))
    try:
        client.connect(served["server"].url, auth=auth, transports=["websocket"],
                       wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        pass
    else:
        client.disconnect()
        raise AssertionError(f"conexão aceita com {auth!r}")
    deadline = time.monotonic() + 5
    while not reasons and time.monotonic() < deadline:
        time.sleep(0.01)
    assert reasons, auth
    message = reasons[0].get("message") if isinstance(reasons[0], dict) else reasons[0]
    readable_refusal(message)


def test_a_forged_origin_cannot_open_a_socket(served: dict[str, Any]) -> None:
    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(served["server"].url, auth={"token": TOKEN}, transports=["websocket"],
                       headers={"Origin": "http://malvado.example"}, wait_timeout=5)


def test_unknown_events_are_ignored(served: dict[str, Any]) -> None:
    gm = served["gm"]
    for name in ("desfazer", "evento", "estado", "x" * 300, "comando ", "boas_vindas"):
        gm.emit(name, {"text": "desfazer"})
    # the connection still answers, and nothing ran
    socket_refused(gm.call("comando", {"text": "turno"}, timeout=10))


@examples("frames")
@given(frames=st.lists(st.one_of(
    st.binary(max_size=64), st.text(max_size=64),
    st.sampled_from(["42", "4", "42[", '42["comando"', '42["comando",{"text":5}]',
                     '421["comando"]', "2probe", "5", "6", "1", "0{}", "40", "40/x,",
                     '42/nada,["comando",{"text":"rolar 1d6"}]', "451-[]", "9" * 100,
                     '42["comando",' + "[" * 5000 + "]" * 5000 + "]"])),
    min_size=1, max_size=6))
def test_garbage_websocket_frames_do_not_hurt_the_server(served: dict[str, Any],
                                                         frames: list[Any]) -> None:
    import simple_websocket

    server = served["server"]
    url = f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket"
    try:
        raw = simple_websocket.Client.connect(url)
    except Exception:
        return
    try:
        raw.receive(timeout=2)  # the engine.io open packet
        for frame in frames:
            raw.send(frame)
        time.sleep(0.01)
    except Exception:
        pass  # the server closed the connection: a refusal
    finally:
        try:
            raw.close()
        except Exception:
            pass
    assert requests.get(f"{server.url}/jogador", timeout=10).status_code == 200


def test_a_huge_message_closes_only_that_connection(served: dict[str, Any]) -> None:
    server = served["server"]
    client = socketio.Client(reconnection=False)
    client.connect(server.url, auth={"token": TOKEN}, transports=["websocket"])
    try:
        client.call("comando", {"text": "x" * 200_000}, timeout=3)
    except Exception:
        pass  # refused by closing the connection: the message was too big
    client.disconnect()
    socket_refused(served["gm"].call("comando", {"text": "turno"}, timeout=10))


# ---------------------------------------------------------------------------- floods

def test_a_flood_from_one_connection_is_slowed_and_changes_nothing(
        tmp_path: Path) -> None:
    server = Served(tmp_path, limits=True)
    try:
        assert server.command("personagem Ana").status_code == 200
        before = server.log()
        player = ordered_client(reconnection=False)
        player.connect(server.url, auth={"token": TOKEN}, transports=["websocket"])
        acks: list[Any] = []
        done = threading.Event()

        def answered(ack: Any = None) -> None:
            acks.append(ack)
            if len(acks) == 300:
                done.set()

        for index in range(300):
            player.emit("comando", {"text": f"zq flood {index}"}, callback=answered)
        assert done.wait(60), f"só {len(acks)} respostas"
        player.disconnect()
        for ack in acks:
            socket_refused(ack)
        slowed = [a for a in acks if "devagar" in a["error"]]
        assert len(slowed) >= 200, "o limite de comandos não segurou a enxurrada"
        assert server.log() == before
    finally:
        errors = server.stop()
    assert "Traceback" not in errors, errors[-3000:]
