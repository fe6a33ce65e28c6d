"""The HTTP API for scripts and the GM's tools: GET /api/state, POST /api/command, and the
campaign's own rules, GET and POST /api/regras (and POST /api/regras/esquecer: a name the
campaign learned taken out of the voice lists, companion.server.voice_names_screen).

All need `Authorization: Bearer <gm token>`. Answers are JSON; errors are
`{"ok": false, "error": "<Portuguese message>"}` with 400 (bad request), 401 (no or wrong
token), 413 (body too large), 429 (the GM token's commands, socket and HTTP together, over
their limit) or 422 (the command was understood as text but refused). The rules
answer `{"ok", "erro"}` like the Socket.IO `regras` acknowledgement (companion.rules.form:
what GET shows; POST takes the export file's shape, `?validar=1` for a dry run, `?criar=1`
to only add, as the Regras screen's "Nova região").
"""
from __future__ import annotations

import json
from typing import Any, Callable

from flask import Blueprint, Response, jsonify, request

from companion.rules import overlay
from companion.rules import form
from companion.tables.errors import AccessDenied, TableError
from companion.server import access, wrong_tokens
from companion.server.budget import Budget
from companion.server.voice_names_screen import VoiceNames
from companion.server.rooms import Client
from companion.server.served import ServedSession
from companion.tables.files import Tables


def error(message: str, status: int) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": message}), status


def blueprint(session: ServedSession, tables: Tables,
              view_state: Callable[..., dict], names: VoiceNames,
              gm_budget: Budget | None = None) -> Blueprint:
    """The /api routes bound to one session; `gm_budget`: the GM token's commands, shared
    with its Socket.IO connections (companion.server.budget; 429 when spent)."""
    api = Blueprint("api", __name__, url_prefix="/api")

    @api.before_request
    def require_gm() -> tuple[Response, int] | None:
        token = access.bearer_token(request.headers.get("Authorization"))
        if not wrong_tokens.checked(token, lambda: access.same_token(token, session.gm_token)):
            return error(tables.narration.render("servidor.api_sem_token", {}), 401)
        return None

    @api.get("/state")
    def state() -> Response:
        return jsonify(view_state(session.state, "gm", session.tables))

    @api.get("/regras")
    def rules() -> Response:
        view = form.view(session.shipped, session.tables, session.overrides)
        return jsonify({**view, "nomes_da_voz": names.view()})

    @api.post("/regras/esquecer")
    def forget_names() -> tuple[Response, int]:
        """`{"nomes": ["Nome", …]}`: learned names out of the voice lists (not a command)."""
        try:
            body = _json_body(tables)
        except AccessDenied as refused:
            return jsonify({"ok": False, "erro": refused.message}), 400
        answer = names.forget(body.get("nomes") if isinstance(body, dict) else None)
        return jsonify(answer), 200 if answer["ok"] else 422

    @api.get("/regras.yaml")
    def rules_file() -> Response:
        """The campaign's rules as `companion regras exportar` writes them (a download)."""
        return Response(overlay.export_text(session.overrides, tables.narration),
                        mimetype="application/yaml",
                        headers={"Content-Disposition": 'attachment; filename="regras.yaml"'})

    @api.post("/regras")
    def change_rules() -> tuple[Response, int]:
        try:
            body = _rules_body(tables)
        except AccessDenied as refused:
            return jsonify({"ok": False, "erro": refused.message}), 400
        dry_run = request.args.get("validar") in ("1", "sim", "true")
        create = request.args.get("criar") in ("1", "sim", "true")
        answer = rules_answer(session.change_rules(body, "gm", dry_run=dry_run, create=create),
                              dry_run)
        return jsonify(answer), 200 if answer["ok"] else 422

    @api.post("/command")
    def command() -> tuple[Response, int]:
        try:
            text = access.command_text(_json_body(tables), tables.narration)
        except AccessDenied as refused:
            return error(refused.message, 400)
        if gm_budget is not None:
            asker = Client("http", "mestre", "gm", session.gm_token, None, 0,
                           address=request.remote_addr or "?")
            too_fast = gm_budget.refusal(asker, session.tables)
            if too_fast is not None:
                return error(too_fast, 429)
        result = session.run(text, actor="gm")
        if not result.ok:
            return error(result.error or tables.narration.render("servidor.api_recusado", {}),
                         422)
        return jsonify({"ok": True, "events": result.events}), 200

    return api


def rules_answer(result: Any, dry_run: bool, warnings: list[str] | None = None
                 ) -> dict[str, Any]:
    """A rules change's answer (HTTP and the Socket.IO `regras` acknowledgement): `ok`,
    `erro`, and what would change (`mudancas`, a dry run) or the GM's events (`eventos`);
    with `avisos` (companion.rules.form.warnings) when an accepted change has some."""
    if not result.ok:
        return {"ok": False, "erro": result.error}
    key = "mudancas" if dry_run else "eventos"
    return {"ok": True, "erro": None, key: result.events,
            **({"avisos": warnings} if warnings else {})}


def _rules_body(tables: Tables) -> Any:
    """A rules change: JSON, or the exported YAML file itself (Content-Type …yaml: an
    upload from the GM page)."""
    if "yaml" not in (request.content_type or ""):
        return _json_body(tables)
    try:
        return overlay.load_import(request.get_data(cache=False).decode("utf-8"),
                                   tables.narration, "arquivo")
    except UnicodeDecodeError:
        raise AccessDenied(tables.narration.render("servidor.api_regras_nao_utf8", {})) from None
    except TableError as error:
        raise AccessDenied(error.message) from None


def _json_body(tables: Tables) -> Any:
    """The request body as JSON, or AccessDenied saying what is expected."""
    raw = request.get_data(cache=False)
    if not raw.strip():
        raise AccessDenied(tables.narration.render("servidor.api_corpo_vazio", {}))
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise AccessDenied(tables.narration.render("servidor.api_json_invalido", {})) from None
    except RecursionError:  # a few KB of brackets nested ~1,000 deep
        raise AccessDenied(tables.narration.render("servidor.api_json_aninhado", {})) from None
