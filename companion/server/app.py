"""The live server: Flask pages and API plus Flask-SocketIO (threading mode, simple-websocket).

`create_app(session)` builds the app for one session (tests use it with `start_in_thread`);
`serve(host, port, session)` prints the links and QR code and serves until Ctrl+C.
"""
from __future__ import annotations

import errno
import gc
import html
import logging
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import jinja2
from flask import Flask, Response, jsonify, render_template, request
from flask_socketio import SocketIO
from markupsafe import Markup
from werkzeug.exceptions import HTTPException
from werkzeug.serving import WSGIRequestHandler

from companion.tables import protocol
from companion.engine.view import view_state, view_states
from companion.rules import labels
from companion.tables.errors import CompanionError
from companion.server import access, api, door, guard, hosts, http_limits, ports, qr
from companion.server import report_pages, sockets, speech_socket, wrong_tokens
from companion.server.voice_names_screen import VoiceNames
from companion.server import voice_socket
from companion.server.served import ServedSession
from companion.server.wire_packet import WirePacket
from companion.store.lock import ServerLock, holder
from companion.store.log import MEMORY
from companion.tables import places
from companion.tables.files import Tables


class ServerError(CompanionError):
    """The server cannot start (a port in use, an address that is not this machine's)."""


WEB_DIR = places.program_folder("web")
TEMPLATES = WEB_DIR / "templates"  # the server's own pages (Jinja), words from tables/narracao
# the three pages, web/templates/ too, words from tables/rotulos_paginas.yaml
PAGES = {"mestre": "mestre.html", "jogador": "jogador.html", "mesa": "mesa.html"}
NO_STORE = {"Cache-Control": "no-store"}


def create_app(session: ServedSession, tables: Tables | None = None, web_dir: Path = WEB_DIR,
               base_url: qr.BaseUrl = None,
               rate_limiter: access.RateLimiter | None = None,
               gm_rate_limiter: access.RateLimiter | None = None,
               voice: Callable[..., Any] | None = None,
               limits: bool = True,
               speech_output: Any = None,
               open_joins: bool = False) -> tuple[Flask, SocketIO]:
    """The Flask app and its SocketIO for one session. `base_url` is what phones open (an
    address, or a qr.LiveBase that reads the LAN address again; None: what each client used);
    the rate limiters (players', GM's) are for tests that need a frozen clock; `voice` makes
    the session's Voice from (on_heard, on_status) (companion.voice.service.start_voice);
    `limits=False` turns off the join and command limits (`--sem-limites`, loopback only);
    `speech_output` is where the laptop's speech goes (None: its speakers, when it has any);
    `open_joins=True` lets a name join without the GM's yes (the tests' harness; the real
    server asks the GM: companion.server.doorway)."""
    tables = tables if tables is not None else session.tables
    app = Flask(__name__, static_folder=str(web_dir / "static"), static_url_path="/static",
                template_folder=str(TEMPLATES))
    app.jinja_env.filters["html"] = lambda value: Markup(html.escape(str(value)))
    app.config.update(MAX_CONTENT_LENGTH=access.MAX_HTTP_BODY, MESA_BASE_URL=base_url)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # async_handlers=False: a connection's messages are handled in its own reader thread, in
    # the order it sent them (two commands typed quickly run in that order), and no thread
    # is started per message (issue 33: the GM's command reaches the rules ~0.2 ms sooner).
    # Every handler is short (audio is queued for the listener's thread): one that waits
    # holds back only the connection that sent it.
    socketio = SocketIO(app, async_mode="threading", cors_allowed_origins=hosts.same_origin,
                        max_http_buffer_size=access.MAX_SOCKET_MESSAGE, manage_session=False,
                        logger=False, engineio_logger=False, serializer=WirePacket,
                        async_handlers=False)
    def foreign_host(host: str) -> str:
        """The page for a Host that is not the table's (outside Flask: its own context)."""
        with app.app_context():
            return _message_page(tables, tables.narration.render("seguranca.host_titulo", {}),
                                 tables.narration.render("seguranca.host_desconhecido", {
                                     "host": host, "exemplo": qr.current_base(base_url) or
                                     f"http://127.0.0.1:{ports.DEFAULT_PORT}"}))

    app.wsgi_app = hosts.HostGuard(  # type: ignore[method-assign]
        app.wsgi_app, lambda: hosts.allowed_hosts(qr.current_base(base_url), qr.own_addresses()), foreign_host)
    guard.guard_messages(socketio.server, tables.narration, voice_socket.BINARY_EVENTS)
    guard.guard_transport(socketio.server, tables.narration)
    hub = sockets.Hub(socketio, session, tables, view_state, protocol.may_see,
                      rate_limiter, gm_rate_limiter, base_url=base_url, limits=limits,
                      view_states=view_states, open_joins=open_joins)
    sockets.register(socketio, hub)
    app.extensions["mesa_hub"] = hub
    app.extensions["mesa_limits"] = limits  # the server's door follows them (_make_server)
    app.extensions["mesa_voice"] = _voice(socketio, hub, voice)
    voice_hub = app.extensions["mesa_voice"]
    hub.names = voice_names = VoiceNames(session, lambda: voice_hub.voice)
    app.extensions["mesa_speech"] = _speech(socketio, hub, tables, app.extensions["mesa_voice"],
                                            speech_output)
    if limits:  # wrong tokens throttled per address (companion.server.wrong_tokens)
        app.extensions[wrong_tokens.EXTENSION] = wrong_tokens.TokenThrottle(
            tables.narration.render("seguranca.token_devagar", {}))
    app.register_blueprint(api.blueprint(session, tables, view_state, voice_names,
                                         hub.gate.budgets["mestre"]))
    app.register_blueprint(report_pages.blueprint(
        session, tables, lambda title, text: _message_page(tables, title, text)))
    _pages(app, session, tables, web_dir)
    _errors(app, tables)
    app.after_request(_secure)
    hub.start()
    # after the fan-out's: a command's events reach the phones before anything is said
    session.subscribe(app.extensions["mesa_speech"].on_events)
    return app, socketio


def _voice(socketio: SocketIO, hub: sockets.Hub,
           factory: Callable[..., Any] | None) -> voice_socket.VoiceHub:
    voice_hub = voice_socket.VoiceHub(socketio, hub, None)
    if factory is not None:
        voice_hub.voice = factory(voice_hub.heard, voice_hub.status_changed)
        voice_hub.follow_mode(voice_hub.state()["modo"])
    voice_socket.register(socketio, voice_hub)
    return voice_hub


def _speech(socketio: SocketIO, hub: sockets.Hub, tables: Tables,
            voice_hub: voice_socket.VoiceHub, output: Any) -> speech_socket.SpeechHub:
    """The laptop's speaker and the pages that speak; listening is deaf while they speak."""
    holder: list[speech_socket.SpeechHub] = []
    speaker, line = speech_socket.laptop_speaker(
        speech_socket.speech_config(tables), tables.narration,
        lambda on: holder[0].laptop_speaking(on) if holder else None, output)
    speech_hub = speech_socket.SpeechHub(socketio, hub, tables, speaker, line)
    holder.append(speech_hub)
    listener = voice_hub.voice.listener if voice_hub.voice is not None else None
    if listener is not None:
        speech_hub.deafen = listener.set_speaking
        listener.on_answer = speech_hub.answered
        listener.on_refusal = speech_hub.refused
    hub.on_disconnect.append(speech_hub.forget)
    speech_socket.register(socketio, speech_hub)
    return speech_hub


# ---------------------------------------------------------------------------- pages

def _pages(app: Flask, session: ServedSession, tables: Tables, web_dir: Path) -> None:
    @app.get("/")
    def index() -> Response:
        return _html(_index_page(tables))

    @app.route("/mestre", methods=["GET", "POST"])
    def gm_page() -> Response | tuple[Response, int]:
        # POSTed by the 403 page's script (mestre-link.js: never in an address), or an old link
        given = request.form.get("token") if request.method == "POST" else request.args.get("token")
        if not wrong_tokens.checked(given, lambda: access.same_token(given, session.gm_token)):
            return _html(_gm_only_page(tables, wrong_token=bool(given))), 403
        return _page(session.tables, web_dir, "mestre")

    @app.get("/jogador")
    def player_page() -> Response | tuple[Response, int]:
        return _page(session.tables, web_dir, "jogador")

    @app.get("/mesa")
    def table_page() -> Response | tuple[Response, int]:
        return _page(session.tables, web_dir, "mesa")

    @app.get("/qr.svg")
    def qr_code() -> Response:
        base = qr.current_base(app.config.get("MESA_BASE_URL")) or request.host_url.rstrip("/")
        title = tables.narration.render("servidor_no_ar.qr_titulo", {})
        return Response(qr.svg(f"{base}/jogador", title), mimetype="image/svg+xml",
                        headers=NO_STORE)

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)


def _page(tables: Tables, web_dir: Path, name: str) -> Response | tuple[Response, int]:
    """A page of web/templates/ (a Jinja template) with its words, tables/rotulos_paginas.yaml:
    the ones written in it, each said by name (`rotulo("section.key")`), and the scripts' own
    as a JSON data block (`textos`), there before any script runs and any socket opens."""
    if not (web_dir / "templates" / PAGES[name]).is_file():
        words = tables.narration
        return _html(_message_page(tables, words.render("servidor.indisponivel_titulo", {}),
                                   words.render("servidor.indisponivel", {"pagina": name}))), 503
    page = _web_pages(web_dir).get_template(PAGES[name])
    return _html(page.render(textos=labels.page_labels(tables),
                             rotulo=_label_of(labels.page_words(tables))))


def _label_of(words: dict[str, str]) -> Callable[[str], str]:
    """A template's `rotulo("section.key")`: the word, or an error naming the missing key."""
    def rotulo(key: str) -> str:
        try:
            return words[key]
        except KeyError:
            raise KeyError(f"a page template says {key!r}, which tables/rotulos_paginas.yaml "
                           "does not have") from None
    return rotulo


@lru_cache(maxsize=None)
def _web_pages(web_dir: Path) -> jinja2.Environment:
    """The pages of web/templates/ (autoescaped; `tojson` makes a data block safe)."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(str(web_dir / "templates")),
                                     autoescape=True, auto_reload=True)
    environment.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": False}
    return environment


def _html(body: str) -> Response:
    return Response(body, mimetype="text/html", headers=NO_STORE)


def _message_page(tables: Tables, title: str, text: str, template: str = "mensagem.html",
                  **extra: Any) -> str:
    """A small page in the pages' dark theme (web/templates/), inside a request."""
    page_title = tables.narration.render("servidor.titulo_pagina", {"titulo": title})
    return render_template(template, title=title, page_title=page_title, text=text, **extra)


def _index_page(tables: Tables) -> str:
    words = tables.narration
    links = [
        {"href": "/jogador", "name": words.render("servidor.inicio_jogador", {}),
         "what": words.render("servidor.inicio_jogador_para", {})},
        {"href": "/mesa", "name": words.render("servidor.inicio_mesa", {}),
         "what": words.render("servidor.inicio_mesa_para", {})},
        {"href": "/mestre", "name": words.render("servidor.inicio_mestre", {}),
         "what": words.render("servidor.inicio_mestre_para", {})},
    ]
    return _message_page(tables, words.render("servidor.inicio_titulo", {}),
                         words.render("servidor.inicio_texto", {}), "inicio.html", links=links)


GM_LINK_SCRIPT = "/static/js/mestre-link.js"  # reuses the token this browser kept, if any


def _gm_only_page(tables: Tables, wrong_token: bool) -> str:
    words = tables.narration
    text = words.render("servidor.token_errado", {}) if wrong_token \
        else words.render("servidor.so_mestre", {})
    return _message_page(tables, words.render("servidor.so_mestre_titulo", {}), text,
                         "so_mestre.html", script=GM_LINK_SCRIPT, refused=wrong_token,
                         help=words.render("servidor.ajuda_link", {}),
                         player_button=words.render("servidor.sou_jogador", {}),
                         opening=words.render("servidor.abrindo_mestre", {}))


# ---------------------------------------------------------------------------- errors, headers

def _errors(app: Flask, tables: Tables) -> None:
    @app.errorhandler(wrong_tokens.TokenThrottled)
    def throttled(refused: wrong_tokens.TokenThrottled) -> tuple[Response, int]:
        if request.path.startswith("/api/"):
            return jsonify({"ok": False, "error": refused.message}), 429
        return _html(_message_page(tables, tables.narration.render("seguranca.devagar", {}),
                                   refused.message)), 429

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[Response, int]:
        status = exc.code or 500
        words = tables.narration
        text = words.render("servidor.erro_http", {"status": status, "nome": exc.name,
                                                   "limite": access.MAX_HTTP_BODY})
        if request.path.startswith("/api/"):
            return jsonify({"ok": False, "error": text}), status
        return _html(_message_page(tables, words.render("servidor.erro_titulo",
                                                        {"status": status}), text)), status


def _secure(response: Response) -> Response:
    for name, value in access.security_headers(request.host).items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/api/"):
        response.headers.update(NO_STORE)
    return response


# ---------------------------------------------------------------------------- running

class RequestHandler(http_limits.TimedRequests, WSGIRequestHandler):
    """Werkzeug's handler, closing the TCP connection once a WebSocket ends, and giving each
    request REQUEST_TIMEOUT seconds to arrive (companion.server.http_limits).

    simple-websocket ends a WebSocket by raising ConnectionError; without this, the handler
    would keep the connection alive and read the client's closing frame as a new HTTP request
    (answering it with a 400 and leaving the client waiting for its close handshake).
    """

    # Small WebSocket frames must leave at once: with Nagle's algorithm on, each one can wait
    # for the client's delayed ACK (~40 ms on loopback, more on Wi-Fi).
    disable_nagle_algorithm = True

    def connection_dropped(self, error: BaseException, environ: Any = None) -> None:
        self.close_connection = True

    def make_environ(self) -> Any:
        """Werkzeug's environ, with the connection's local address (companion.server.hosts:
        a page on the laptop is a connection whose two ends are the same address)."""
        environ = super().make_environ()
        try:
            environ[hosts.LOCAL_ADDRESS] = self.connection.getsockname()[0]
        except (OSError, IndexError, TypeError):
            pass
        return environ

    def version_string(self) -> str:
        """The `Server` header: no program or version for a visitor to look up."""
        return "Mesa"


def _make_server(host: str, port: int, app: Flask, tables: Tables,
                 ssl_context: tuple[str, str] | None = None,
                 request_timeout: float = http_limits.REQUEST_TIMEOUT) -> door.GuardedServer:
    """The HTTP server, with its door (companion.server.door: sockets per address, in all,
    new ones per address; none with `--sem-limites`); its handler gives each request
    `request_timeout` seconds (a test's may be shorter) and logs with the session's words."""
    handler = type("ServerRequestHandler", (RequestHandler,),
                   {"timeout": request_timeout, "words": tables.narration})
    if app.extensions.get("mesa_limits", True):
        gate = door.Door(total=door.total_for(http_limits.open_files_limit()))
    else:  # load benchmarks on loopback only
        gate = door.Door(per_address=None, total=None, new_per_window=access.NoLimit())
    return door.GuardedServer(host, port, app, handler, ssl_context=ssl_context, door=gate)


@dataclass
class RunningServer:
    """A server started in a background thread (tests, browser tests)."""

    server: door.GuardedServer
    thread: threading.Thread
    app: Flask
    socketio: SocketIO

    @property
    def port(self) -> int:
        return self.server.server_port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.app.extensions["mesa_speech"].stop()
        self.app.extensions["mesa_voice"].stop()
        self.app.extensions["mesa_hub"].stop()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def start_in_thread(session: ServedSession, host: str = "127.0.0.1", port: int = 0,
                    request_timeout: float = http_limits.REQUEST_TIMEOUT,
                    open_joins: bool = True, **options: Any) -> RunningServer:
    """Create the app and serve it from a daemon thread; port 0 picks a free port. This is
    the tests' harness: names join without the GM's yes unless `open_joins=False` (the real
    server, `serve`, always asks the GM)."""
    app, socketio = create_app(session, open_joins=open_joins, **options)
    server = _make_server(host, port, app, session.tables, request_timeout=request_timeout)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="mesa-http", daemon=True)
    thread.start()
    return RunningServer(server, thread, app, socketio)


# why a port cannot be opened, as tables/narracao/servidor.yaml `porta` names it
BIND_ERRORS = {errno.EADDRINUSE: "em_uso", errno.EADDRNOTAVAIL: "nao_desta_maquina",
               errno.EACCES: "sem_permissao"}


def _check_port(host: str, port: int) -> None:
    """Raise OSError if host:port cannot be bound (same options as the real server)."""
    ports.check(host, port)


def _default_port(host: str, tables: Tables) -> int:
    """The default port, or a free one when another program has it (said on the terminal)."""
    try:
        port = ports.free_port(host, ports.DEFAULT_PORT)
    except OSError:
        return ports.DEFAULT_PORT  # the bind below says why
    if port != ports.DEFAULT_PORT:
        print(tables.narration.render("servidor_no_ar.porta_ocupada", {
            "padrao": ports.DEFAULT_PORT, "porta": port}), flush=True)
    return port


def serve(host: str, port: int | None, session: ServedSession,
          voice: Callable[..., Any] | None = None,
          tls: tuple[str, str] | None = None, limits: bool = True,
          ready: Callable[[str], Any] | None = None) -> None:
    """Serve the session on host:port until Ctrl+C, after printing the links (and calling
    `ready` with the GM's link: `mesa` opens it in the laptop's browser).
    `port` None is the default port, or a free one when it is busy (said). With `tls` (cert,
    key) it serves https (companion.server.tls makes them). Without limits (load benchmarks),
    only a loopback host is accepted."""
    if not limits and not access.is_loopback(host):
        raise ServerError(session.tables.narration.render("acesso.sem_limites_so_local", {}))
    port = _default_port(host, session.tables) if port is None else port
    live = qr.LiveBase(host, port, "https" if tls else "http")
    links = qr.Links(live(), session.gm_token)
    app, _socketio = create_app(session, base_url=live, voice=voice, limits=limits)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    http_limits.raise_fd_limit()  # many phones, each a few sockets (where the OS allows)
    try:
        _check_port(host, port)  # werkzeug would print English and exit on its own
        server = _make_server(host, port, app, session.tables, ssl_context=tls)
    except (OSError, SystemExit) as error:
        app.extensions["mesa_speech"].stop()
        app.extensions["mesa_voice"].stop()
        app.extensions["mesa_hub"].stop()
        reason = BIND_ERRORS.get(getattr(error, "errno", None), "outro")
        raise ServerError(session.tables.narration.render("servidor.porta", {
            "endereco": f"{host}:{port}", "erro": reason,
            "porta_padrao": ports.DEFAULT_PORT})) from None
    print(qr.banner(links, session.tables.narration), flush=True)
    lock = ServerLock(session.db_path)  # `regras importar` and a second `serve` are refused
    if session.db_path != MEMORY and not lock.acquire(f"{links.base}/mestre") \
            and holder(session.db_path) is not None:  # taken since cmd_serve asked: a race
        server.server_close()
        raise ServerError(session.tables.narration.render(
            "servidor.outro_servidor", {"quem": holder(session.db_path)}))
    voice_hub = app.extensions["mesa_voice"]
    if voice_hub.voice is not None:
        print(voice_hub.voice.line, flush=True)
    print(app.extensions["mesa_speech"].line, flush=True)
    if ready is not None:
        ready(links.gm)
    # Everything loaded so far (modules, tables, the session) lives as long as the server: out of
    # the collector's sight, a full collection no longer walks it in the middle of a command.
    gc.freeze()
    try:
        server.serve_forever()  # werkzeug's returns quietly on Ctrl+C
    finally:
        app.extensions["mesa_speech"].stop()
        voice_hub.stop()
        app.extensions["mesa_hub"].stop()
        server.server_close()
        lock.release()
        print(session.tables.narration.render("servidor.encerrado", {}), flush=True)
