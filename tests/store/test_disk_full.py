"""A full disk (issue 16): every write a table triggers is refused with one Portuguese message,
nothing acknowledged is lost, the operator's log says it once, the pages and the state keep
being served, and the session takes commands again by itself once there is space.

SQLite's `PRAGMA max_page_count` makes a file that may not grow give the same 'database or
disk is full' as a full filesystem (tests/disk_helpers.py).
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests
import socketio

from companion.tables.errors import CommandRejected
from companion.server.app import RunningServer, start_in_thread
from companion.session import RunResult, Session, SessionError
from companion.store import Log
from companion.tables.files import Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.disk_helpers import Disk, cap, command, join
from tests.socket_helpers import Peer, wait_until

SEED = 5
AUTH = {"Authorization": f"Bearer {GM_TOKEN}"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "mesa.db"


@pytest.fixture
def session(db: Path, tables: Tables) -> Iterator[Session]:
    opened = Session.open(db, SEED, tables, gm_token=GM_TOKEN)
    yield opened
    opened.close()


def said_full(result: RunResult, tables: Tables) -> None:
    """The one refusal of a full disk: Portuguese, what happened and what to do, its code."""
    assert not result.ok and result.events == []
    assert "disco do notebook está cheio" in (result.error or ""), result.error
    assert "nada foi gravado" in result.error and "libere espaço" in result.error
    assert result.error == tables.narration.render("gravacao.disco_cheio", {})
    assert result.code == "gravacao.disco_cheio"
    assert result.to_json() == {"ok": False, "error": result.error, "codigo": "disco_cheio"}


def disk_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


# ---------------------------------------------------------------------- the session

def test_a_full_disk_refuses_each_command_in_portuguese_and_changes_nothing(
        session: Session, db: Path, tables: Tables, caplog: pytest.LogCaptureFixture) -> None:
    ok(session.run("personagem Ana"))
    writes = (command(session, "rolar 1d20"), command(session, "clima"),
              command(session, "estado"), command(session, "rolar 2d6", "player:ana"),
              command(session, "desfazer"))
    disk = Disk(session)
    with caplog.at_level(logging.INFO):
        results = disk.fill(*writes)
        for refused in (r for r in results if not r.ok):
            said_full(refused, tables)
        state, events, commands = session.state, session.events_since(0), session.commands()
        # (while filling, a smaller write still fit between refusals: the disk had room
        # again, so it may have been said more than once; test_a_full_disk_is_logged_once… counts)
        warned = disk_warnings(caplog)
        for write in writes:
            said_full(write(), tables)
        assert session.state is state
        assert session.events_since(0) == events and session.commands() == commands
        assert disk_warnings(caplog) == warned  # not again while it stays full
        assert all(r.levelno == logging.WARNING and r.exc_info is None for r in warned)
        assert "disco cheio" in warned[-1].getMessage() and str(db) in warned[-1].getMessage()

        disk.free()  # space is back: the same session takes commands again
        again = ok(session.run("rolar 1d20"))
        assert again[0]["seq"] == events[-1]["seq"] + 1
        assert disk_warnings(caplog) == warned
    acknowledged = [e for r in results if r.ok for e in r.events] + again
    session.close()
    reopened = Session.open(db, None, tables)
    try:
        stored = reopened.events_since(0)
        assert [e for e in stored if e["seq"] > events[0]["seq"] - 1][-len(acknowledged):] \
            == acknowledged
        assert all(event in stored for event in acknowledged)
    finally:
        reopened.close()


def test_a_full_disk_is_logged_once_and_again_only_when_it_fills_up_again(
        session: Session, tables: Tables, caplog: pytest.LogCaptureFixture) -> None:
    roll = command(session, "rolar 1d20")
    disk = Disk(session)
    with caplog.at_level(logging.INFO):
        said_full(disk.fill(roll)[-1], tables)
        for _ in range(5):
            said_full(roll(), tables)
        (warned,) = disk_warnings(caplog)
        assert warned.levelno == logging.WARNING and warned.exc_info is None
        disk.free()
        ok(roll())
        said_full(disk.fill(roll)[-1], tables)
        said_full(roll(), tables)
    assert len(disk_warnings(caplog)) == 2


def test_a_player_joining_on_a_full_disk_is_refused_and_joins_once_there_is_space(
        session: Session, tables: Tables) -> None:
    session.join_player("Ana")
    disk = Disk(session)
    joins = join(session, "Bia")
    disk.fill(command(session, "rolar 1d20"), joins)
    state, players = session.state, session.players()
    with pytest.raises(CommandRejected) as refused:
        session.join_player(joins.name)
    assert "disco do notebook" in refused.value.message and "cheio" in refused.value.message
    assert refused.value.message == tables.narration.render("entrada.disco_cheio",
                                                            {"nome": joins.name})
    assert refused.value.code == "entrada.disco_cheio"
    assert session.state is state and session.players() == players
    disk.free()
    player = session.join_player(joins.name)
    assert session.player_by_token(player.token) == player
    assert session.players() == players + [player]


def test_a_new_gm_token_on_a_full_disk_is_refused_and_the_stored_one_kept(
        db: Path, tables: Tables) -> None:
    Session.open(db, SEED, tables, gm_token="velho").close()
    log = Log.open(db)
    cap(log._db, None)  # the file may not grow; a token longer than a page needs a new page
    with pytest.raises(SessionError) as refused:
        Session.open_log(log, None, tables, gm_token="n" * 5000)
    assert "disco do notebook está cheio" in refused.value.message
    assert refused.value.message == tables.narration.render("gravacao.disco_cheio_ao_abrir",
                                                            {"banco": str(db)})
    kept = Log.open(db)
    try:
        meta = kept.meta()
        assert meta is not None and (meta.seed, meta.gm_token) == (str(SEED), "velho")
    finally:
        kept.close()


def ok(result: RunResult) -> list[dict[str, Any]]:
    assert result.ok, result.error
    return result.events


# ---------------------------------------------------------------------- a real server

@pytest.fixture
def server(session: Session) -> Iterator[RunningServer]:
    running = start_in_thread(session)
    yield running
    running.stop()


def test_through_a_real_server_commands_are_refused_and_the_state_still_served(
        server: RunningServer, session: Session, tables: Tables) -> None:
    session.join_player("Ana")
    disk = Disk(session)
    disk.fill(command(session, "rolar 1d20"), join(session, "Bia"))

    answer = requests.post(server.url + "/api/command", json={"text": "rolar 1d20"},
                           headers=AUTH, timeout=5)
    assert answer.status_code == 422
    assert answer.json()["ok"] is False and "disco do notebook está cheio" in answer.json()["error"]
    message = tables.narration.render("gravacao.disco_cheio", {})
    assert answer.json()["error"] == message
    state = requests.get(server.url + "/api/state", headers=AUTH, timeout=5)
    assert state.status_code == 200 and "relogio" in state.json()
    assert requests.get(server.url + f"/mestre?token={GM_TOKEN}", timeout=5).status_code == 200

    gm = Peer(server.url, {"token": GM_TOKEN})
    try:
        assert gm.welcome()["papel"] == "mestre"
        gm.wait_states(1)
        ack = gm.cmd("rolar 1d20")
        assert ack == {"ok": False, "error": message, "codigo": "disco_cheio"}

        joining = socketio.Client(reconnection=False)
        reasons: list[Any] = []
        joining.on("connect_error", lambda data=None: reasons.append(data))
        with pytest.raises(socketio.exceptions.ConnectionError):
            joining.connect(server.url, auth={"nome": "Zeca"}, transports=["websocket"],
                            wait_timeout=5)
        wait_until(lambda: reasons, what="connect_error")
        assert "disco do notebook" in json.dumps(reasons, ensure_ascii=False)
        joining.disconnect()

        disk.free()
        assert gm.cmd("rolar 1d20")["ok"] is True
    finally:
        gm.close()
    answer = requests.post(server.url + "/api/command", json={"text": "rolar 1d20"},
                           headers=AUTH, timeout=5)
    assert answer.status_code == 200 and answer.json()["ok"] is True
