"""Pages and the HTTP API, over real HTTP against a real server on loopback."""
from __future__ import annotations

import re

import pytest
import requests

from companion.server import access
from companion.server.app import RunningServer, start_in_thread
from companion.session import Session
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN

AUTH = {"Authorization": f"Bearer {GM_TOKEN}"}


@pytest.fixture
def server_seed() -> int:
    return 11


def get(server: RunningServer, path: str, **options) -> requests.Response:
    return requests.get(server.url + path, timeout=5, **options)


def post(server: RunningServer, path: str, **options) -> requests.Response:
    return requests.post(server.url + path, timeout=5, **options)


# ---------------------------------------------------------------------------- pages

@pytest.mark.parametrize("path", ["/", "/jogador", "/mesa", f"/mestre?token={GM_TOKEN}"])
def test_pages_are_served_with_strict_headers(server: RunningServer, path: str) -> None:
    answer = get(server, path)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/html")
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "*" not in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_pages_link_only_to_this_server(server: RunningServer) -> None:
    for path in ("/jogador", "/mesa", f"/mestre?token={GM_TOKEN}"):
        html = get(server, path).text
        assert not re.search(r"""(src|href|action)\s*=\s*["']?(https?:)?//""", html), path


@pytest.mark.parametrize("query", ["", "?token=", "?token=errado", "?outra=1"])
def test_gm_page_needs_the_token(server: RunningServer, query: str) -> None:
    answer = get(server, "/mestre" + query)
    assert answer.status_code == 403
    assert "Só o Mestre" in answer.text and "link" in answer.text
    assert GM_TOKEN not in answer.text
    # the page explains where the link is and loads (never inlines) the script that reuses a
    # token this browser kept
    assert "mestre#token=" in answer.text and "Mesa foi ligado" in answer.text
    assert "companion serve" not in answer.text
    assert re.findall(r"<script\b[^>]*>", answer.text) == [
        '<script src="/static/js/mestre-link.js" defer>']
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    wrong = "não é o desta sessão"
    assert (wrong in answer.text) == ("token=" in query and query != "?token=")


def test_gm_link_script_is_served(server: RunningServer) -> None:
    script = get(server, "/static/js/mestre-link.js")
    assert script.status_code == 200 and "javascript" in script.headers["Content-Type"]
    assert "mesa.mestre.token" in script.text  # the key mestre.js stores the token under
    assert "mesa.mestre.token" in get(server, "/static/js/mestre.js").text


def test_static_files_and_qr(server: RunningServer) -> None:
    script = get(server, "/static/js/common.js")
    assert script.status_code == 200 and "javascript" in script.headers["Content-Type"]
    vendor = get(server, "/static/vendor/socket.io.min.js")
    assert vendor.status_code == 200
    assert get(server, "/static/../companion/server/app.py").status_code == 404
    qr_code = get(server, "/qr.svg")
    assert qr_code.status_code == 200
    assert qr_code.headers["Content-Type"].startswith("image/svg+xml")
    assert qr_code.text.lstrip().startswith("<svg") and "<path" in qr_code.text


def test_qr_encodes_the_configured_lan_address(session: Session) -> None:
    running = start_in_thread(session, base_url="http://192.168.0.42:5000")
    try:
        from companion.server import qr
        title = session.tables.narration.render("servidor_no_ar.qr_titulo", {})
        assert get(running, "/qr.svg").content == qr.svg("http://192.168.0.42:5000/jogador",
                                                         title)
        assert qr.svg("http://192.168.0.42:5000/jogador", title) != \
            qr.svg("http://10.0.0.1:5000/jogador", title)
    finally:
        running.stop()


def test_unknown_page_is_a_portuguese_404(server: RunningServer) -> None:
    answer = get(server, "/nada-aqui")
    assert answer.status_code == 404 and "não encontrada" in answer.text


# ---------------------------------------------------------------------------- API

@pytest.mark.parametrize("headers", [
    {}, {"Authorization": "Bearer errado"}, {"Authorization": GM_TOKEN},
    {"Authorization": f"Basic {GM_TOKEN}"}, {"Authorization": "Bearer "},
])
def test_api_needs_the_gm_token(server: RunningServer, session: Session, headers) -> None:
    before = len(session.events_since(0))
    for answer in (get(server, "/api/state", headers=headers),
                   post(server, "/api/command", headers=headers, json={"text": "rolar 1d6"})):
        assert answer.status_code == 401
        body = answer.json()
        assert body["ok"] is False and "token do Mestre" in body["error"]
    assert len(session.events_since(0)) == before


def test_api_state_and_command(server: RunningServer, session: Session) -> None:
    state = get(server, "/api/state", headers=AUTH)
    assert state.status_code == 200 and isinstance(state.json(), dict)
    assert state.headers["Cache-Control"] == "no-store"
    answer = post(server, "/api/command", headers=AUTH, json={"text": "rolar 2d6+1"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is True
    assert body["events"] == session.events_since(0)[-len(body["events"]):]
    rolled = body["events"][0]
    assert rolled["kind"] == "rolagem" and rolled["data"]["dados"] == "2d6+1"
    assert set(rolled) == {"seq", "command", "kind", "visibility", "text", "data"}


def test_api_refused_command_changes_nothing(server: RunningServer, session: Session) -> None:
    before = len(session.events_since(0))
    answer = post(server, "/api/command", headers=AUTH, json={"text": "fuga sucesso"})
    assert answer.status_code == 422
    body = answer.json()
    assert body["ok"] is False and body["error"]
    assert len(session.events_since(0)) == before


@pytest.mark.parametrize("body, words", [
    (b"{text: avancar", "JSON inválido"),
    (b"", "corpo vazio"),
    (b"\xff\xfe", "JSON inválido"),
    (b'["rolar 1d6"]', "objeto JSON"),
    (b'{"texto": "rolar 1d6"}', '"text" deve ser um texto'),
    (b'{"text": null}', '"text" deve ser um texto'),
    (b'{"text": ""}', "vazio"),
])
def test_api_bad_requests(server: RunningServer, session: Session, body: bytes, words) -> None:
    before = len(session.events_since(0))
    answer = post(server, "/api/command", data=body,
                  headers={**AUTH, "Content-Type": "application/json"})
    assert answer.status_code == 400
    reply = answer.json()
    assert reply["ok"] is False and words in reply["error"]
    assert len(session.events_since(0)) == before


def test_api_oversized_body(server: RunningServer, session: Session) -> None:
    before = len(session.events_since(0))
    text = "rolar 1d6 " + "x" * access.MAX_HTTP_BODY
    answer = post(server, "/api/command", headers=AUTH, json={"text": text})
    assert answer.status_code == 413
    assert answer.json() == {"ok": False,
                             "error": f"conteúdo grande demais; o limite é "
                                      f"{access.MAX_HTTP_BODY} bytes"}
    long_text = post(server, "/api/command", headers=AUTH,
                     json={"text": "rolar 1d6 " + "x" * access.MAX_TEXT})
    assert long_text.status_code == 400 and "longo demais" in long_text.json()["error"]
    assert len(session.events_since(0)) == before


def test_api_wrong_method(server: RunningServer) -> None:
    answer = requests.get(server.url + "/api/command", headers=AUTH, timeout=5)
    assert answer.status_code == 405 and answer.json()["ok"] is False


def test_json_nested_a_thousand_deep_is_a_clear_400(tmp_path, tables) -> None:
    """A few KB of brackets (under the size limit) nested deeper than the decoder's recursion
    once answered 500: it is bad input like any other."""
    from companion.server.app import create_app
    from companion.session import Session

    session = Session.open(None, 1, tables, gm_token="t")
    app, _socketio = create_app(session)
    for body in (b"[" * 1500 + b"]" * 1500, b'{"text": ' + b"[" * 1200 + b"]" * 1200 + b"}"):
        answer = app.test_client().post("/api/command", data=body,
                                        headers={"Authorization": "Bearer t",
                                                 "Content-Type": "application/json"})
        assert answer.status_code == 400, answer.status_code
        assert answer.get_json() == {"ok": False, "error": 'JSON aninhado demais; envie algo '
                                     'simples como {"text": "avançar"}'}
    assert session.commands() == [] or all(c.name == "inicio_sessao" for c in session.commands())
