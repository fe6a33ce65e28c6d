"""/relatorio: the session report for the GM (everything) or a player (what they saw), the
list of the campaign's sessions, and the downloads (events as CSV/JSON, the standalone HTML).

The token says whose report it is: the GM's token gives the GM's report, a player's token that
player's version. It never rides in the address (the history, the address bar, the Referer and
the logs would keep it): the pages POST it in a form field `token` (their "Relatório" link, and
the report's own links to other sessions and downloads), tools send `Authorization: Bearer`.
A `?token=` in the address is not read. The report is read from the session's SQLite file (a
second, read-only use of the same log), never from the live state.

A report costs the laptop a read of the whole log and a build: one is built at a time (the
others wait, then find it made), each page and download is kept per viewer and session span
until the log grows (the log is read again only then), and each token may ask for at most
REPORTS_PER_WINDOW of them per REPORT_WINDOW seconds (a loop of reloads on one phone slowed
every command of the table).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable

from flask import Blueprint, Response, request

from companion.tables import protocol
from companion.tables.errors import CompanionError
from companion.report import build
from companion.report.export import SEPARATORS
from companion.report.report_model import Post
from companion.report.source import ReportError, read_log, session_number
from companion.server import access, wrong_tokens
from companion.server.served import ServedSession
from companion.store.log import MEMORY, Log
from companion.tables.narration import Narrator

NO_STORE = {"Cache-Control": "no-store"}
EXPORTS = {"eventos.csv": ("csv", "text/csv"), "eventos.json": ("json", "application/json")}
REPORTS_PER_WINDOW = 12  # report pages and downloads one token may ask for…
REPORT_WINDOW = 60.0  # …per this many seconds


def _campaign(session: ServedSession) -> Any:
    if session.db_path == MEMORY:
        raise ReportError(session.tables.narration.render("paginas_relatorio.so_na_memoria", {}))
    log = Log.read(session.db_path)  # a copy: the report never holds the live file
    try:
        return read_log(log, session.tables)
    finally:
        log.close()


class _Memo:
    """The last pages made, by what they were made from. The log only grows (an undo is a new
    command too), so the same viewer, session and last command number give the same page:
    phones reloading /relatorio do not replay the campaign each time."""

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._items: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], str]) -> str:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        made = make()
        with self._lock:
            self._items[key] = made
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return made


class _Campaign:
    """The campaign as the report reads it, read again only when the log has grown."""

    def __init__(self, session: ServedSession) -> None:
        self._session = session
        self._read: tuple[int, Any] | None = None  # (the log's last seq then, the campaign)

    def get(self) -> tuple[Any, int]:
        """The campaign and the log's last seq it covers (hold the building lock)."""
        last = self._session.last_seq()
        if self._read is None or self._read[0] != last:
            self._read = (last, _campaign(self._session))
        return self._read[1], last


def _viewer(session: ServedSession, token: str | None) -> tuple[str, str | None] | None:
    if access.same_token(token, session.gm_token):
        return build.GM, None
    player = session.player_by_token(token) if token else None
    if player is None:
        return None
    return protocol.player_key(player.character_id), player.name


def blueprint(session: ServedSession, tables: Any,
              message_page: Callable[[str, str], str]) -> Blueprint:
    """The /relatorio routes bound to one session; `message_page(title, text)` is the pages'
    small message page (refusals and errors, in tables/narracao/paginas_relatorio.yaml)."""
    pages = Blueprint("relatorio", __name__)
    memo = _Memo()
    campaigns = _Campaign(session)
    building = threading.Lock()  # one report at a time
    asked = access.RateLimiter(REPORTS_PER_WINDOW, REPORT_WINDOW)  # per token

    def message(title: str, text: str, status: int) -> tuple[Response, int]:
        return Response(message_page(title, text), mimetype="text/html",
                        headers=NO_STORE), status

    def words() -> Narrator:
        return session.tables.narration

    def unavailable(text: str, status: int) -> tuple[Response, int]:
        return message(words().render("paginas_relatorio.indisponivel_titulo", {}), text, status)

    def refused() -> tuple[Response, int]:
        return message(words().render("paginas_relatorio.sem_link_titulo", {}),
                       words().render("paginas_relatorio.sem_link", {}), 403)

    def address(path: str, token: str, number: int) -> Post:
        return Post(path, (("token", token), ("sessao", str(number))))

    def given() -> str | None:
        """The viewer's token: a posted form's field, or `Authorization: Bearer`."""
        posted = request.form.get("token") if request.method == "POST" else None
        return posted or access.bearer_token(request.headers.get("Authorization"))

    def whose() -> tuple[str, str | None, str] | None:
        token = given()
        found: list[tuple[str, str | None]] = []

        def right() -> bool:
            viewer = _viewer(session, token)
            found.extend([viewer] if viewer is not None else [])
            return viewer is not None

        if not wrong_tokens.checked(token, right):
            return None
        return found[0][0], found[0][1], str(token)

    def too_many(token: str) -> tuple[Response, int] | None:
        if asked.allow(token):
            return None
        return unavailable(words().render(
            "limites.relatorio_devagar", {"capacidade": REPORTS_PER_WINDOW,
                                          "segundos": f"{REPORT_WINDOW:g}"}), 429)

    @pages.route("/relatorio", methods=["GET", "POST"])
    def report_page() -> Response | tuple[Response, int]:
        who = whose()
        if who is None:
            return refused()
        viewer, name, token = who
        slow = too_many(token)
        if slow is not None:
            return slow
        try:
            number = session_number(request.values.get("sessao"))
            with building:
                page = make_page(viewer, name, token, number)
        except CompanionError as error:
            return unavailable(error.message, 404)
        return Response(page, mimetype="text/html", headers=NO_STORE)

    def make_page(viewer: str, name: str | None, token: str, number: int | None) -> str:
        """The report page (hold `building`)."""
        campaign, last = campaigns.get()
        spans = build.all_sessions(campaign)
        links = {s.number: address("/relatorio", token, s.number) for s in spans}
        chosen = build.find_session(campaign, number).number
        downloads = {
            "baixar_csv": address("/relatorio/eventos.csv", token, chosen),
            "baixar_json": address("/relatorio/eventos.json", token, chosen),
            "baixar_html": address("/relatorio/relatorio.html", token, chosen)}
        return memo.get(("pagina", viewer, token, chosen, last),
                        lambda: build.html(campaign, tables, chosen, viewer, name,
                                           standalone=False, downloads=downloads,
                                           session_links=links))

    @pages.route("/relatorio/<name>", methods=["GET", "POST"])
    def download(name: str) -> Response | tuple[Response, int]:
        who = whose()
        if who is None:
            return refused()
        viewer, player_name, token = who
        if name not in EXPORTS and name != "relatorio.html":
            return message(words().render("servidor.erro_titulo", {"status": 404}),
                           words().render("paginas_relatorio.arquivo_desconhecido", {}), 404)
        separator = request.values.get("separador", ",")
        if separator not in SEPARATORS:
            return message(words().render("servidor.erro_titulo", {"status": 400}),
                           words().render("paginas_relatorio.separador_invalido",
                                          {"separador": separator}), 400)
        slow = too_many(token)
        if slow is not None:
            return slow
        mimetype = "text/html" if name == "relatorio.html" else EXPORTS[name][1]
        try:
            number = session_number(request.values.get("sessao"))
            with building:
                campaign, last = campaigns.get()
                span = build.find_session(campaign, number)
                key = (name, viewer, span.number, last, separator)
                if name == "relatorio.html":
                    body = memo.get(key, lambda: build.html(campaign, tables, span.number,
                                                            viewer, player_name))
                else:
                    kind = EXPORTS[name][0]
                    body = memo.get(key, lambda: build.export(campaign, tables, kind,
                                                              span.number, viewer, separator))
        except CompanionError as error:
            return unavailable(error.message, 404)
        filename = f"sessao-{span.number}-{name}"
        return Response(body, mimetype=mimetype, headers={
            **NO_STORE, "Content-Disposition": f"attachment; filename=\"{filename}\""})

    return pages
