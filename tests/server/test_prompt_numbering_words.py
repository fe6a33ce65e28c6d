"""A player's prompt numbers do not depend on how the sentences are worded: with the answer's
and the cancel's sentences reworded only in a copy of tables/narracao ("chamada" instead of
"pedido"), each player still reads their own numbers — the server renders those texts again
from the code and words the log keeps, it does not look for "pedido N" in them. Real
Socket.IO clients on a real loopback server; the report and the exports read the same."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.rules.loader import load_rules
from companion.report.source import open_campaign
from companion.report import build
from companion.session import Session
from companion.store import Log
from companion.tables.files import DEFAULT_DIR, Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer, gm_ok, wait_until


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path.name, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    copy = tmp_path_factory.mktemp("tabelas") / "tabelas"
    shutil.copytree(DEFAULT_DIR, copy)
    said = copy / "narracao" / "pedidos.yaml"
    _rewrite(said, " respondeu: {{ valor }}", " atendeu à chamada {{ pedido }}: {{ valor }}")
    _rewrite(said, '"Pedido {{ pedido }} ({{ dono }}: {{ nome_tipo }}) cancelado."',
             '"Chamada {{ pedido }} ({{ dono }}: {{ nome_tipo }}) cancelada."')
    return load_rules(copy)


def _texts(peer: Peer, kind: str | None = None, command: str | None = None) -> list[str]:
    return [e["text"] for e in peer.events
            if (kind is None or e["kind"] == kind) and (command is None or e["command"] == command)]


def test_reworded_answers_and_cancels_use_each_players_numbers(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana, bia = peers({"nome": "Ana"}), peers({"nome": "Bia"})
    ana.welcome(), bia.welcome()
    for name in ("Ana", "Ana", "Bia", "Bia"):  # the log's 1, 2 (Ana's 1, 2); 3, 4 (Bia's 1, 2)
        gm_ok(gm, f"pânico {name}")
    wait_until(lambda: len([e for e in bia.events if e["kind"] == "pedido"]) == 2,
               what="os pedidos de Bia")
    assert bia.cmd("responder pedido 2 rolar")["ok"]  # the log's 4
    gm_ok(gm, "cancelar pedido 3")  # Bia's 1
    wait_until(lambda: len(_texts(bia, command="cancelar")) == 2,
               what="o cancelamento chegou a Bia")
    (answered,) = _texts(bia, kind="resposta")
    assert "atendeu à chamada 2:" in answered, answered
    (cancelled, everyone) = _texts(bia, command="cancelar")  # hers; everyone's (issue 26)
    assert "pedido" not in everyone.lower() and "chamada" not in everyone.lower(), everyone
    assert cancelled.startswith("Chamada 1 (Bia:"), cancelled
    # the GM reads the log's numbers; Ana hears nothing of Bia's prompts
    wait_until(lambda: _texts(gm, command="cancelar"), what="o cancelamento chegou ao Mestre")
    assert "atendeu à chamada 4:" in _texts(gm, kind="resposta")[0]
    assert _texts(gm, command="cancelar")[0].startswith("Chamada 3 (Bia:")
    assert not [t for t in _texts(ana) if "chamada" in t.lower()]
    # the log keeps the GM's text, and how it was rendered
    stored = [e for e in session.events_since(0) if e["kind"] == "resposta"]
    assert "chamada 4" in stored[0]["text"]
    (kept,) = [e for e in session.history_since(0) if e.seq == stored[0]["seq"]]
    assert kept.code == "pedidos.respondeu" and kept.words["pelo_mestre"] is False


def test_a_players_report_renders_the_reworded_texts_in_their_numbers(
        peers, session: Session, tables: Tables) -> None:
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    ana, bia = peers({"nome": "Ana"}), peers({"nome": "Bia"})
    ana.welcome(), bia.welcome()
    gm_ok(gm, "pânico Ana")
    gm_ok(gm, "pânico Bia")
    wait_until(lambda: [e for e in bia.events if e["kind"] == "pedido"], what="o pedido de Bia")
    assert bia.cmd("responder pedido 1 rolar")["ok"]  # the log's 2
    campaign = open_campaign(session.db_path)
    exported = json.loads(build.export(campaign, tables, "json", None, "player:bia"))
    texts = [e["texto"] for e in exported["eventos"]]
    assert any("atendeu à chamada 1:" in t for t in texts), texts
    assert not any("chamada 2" in t for t in texts), texts
    page = build.html(campaign, tables, viewer="player:bia")
    assert "atendeu à chamada 1:" in page and "chamada 2" not in page
    gm_page = build.html(campaign, tables)
    assert "atendeu à chamada 2:" in gm_page


def test_a_log_written_before_narrations_were_kept_still_opens(tmp_path: Path,
                                                                tables: Tables) -> None:
    path = tmp_path / "velho.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE events (seq INTEGER PRIMARY KEY, command_n INTEGER NOT NULL,
            command TEXT NOT NULL, kind TEXT NOT NULL, visibility TEXT NOT NULL,
            text TEXT NOT NULL, data TEXT NOT NULL);
    """)
    db.close()
    log = Log.open(path)
    try:
        columns = {row[1] for row in log._db.execute("PRAGMA table_info(events)")}
        assert {"code", "words"} <= columns
        assert log.narrations([1, 2]) == {}
    finally:
        log.close()
