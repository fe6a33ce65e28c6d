"""`companion serve` as a real process: the start banner, the pages, Ctrl+C; a busy port."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from companion.server.app import ServerError, serve, start_in_thread
from companion.session import Session
from companion.tables.files import Tables
from tests.process_helpers import free_port, read_until


def test_serve_prints_links_and_qr_then_stops_on_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(tmp_path / "mesa.db"), "--seed", "3",
               "--gm-token", "segredo-123-do-mestre"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        banner = read_until(process, "Ctrl+C")
        base = f"http://127.0.0.1:{port}"
        assert f"{base}/jogador" in banner
        assert f"{base}/mesa" in banner
        assert f"{base}/mestre#token=segredo-123-do-mestre" in banner  # never sent
        assert "?token=" not in banner
        assert "▀" not in banner and "█" not in banner  # the QR code: on the pages
        opened = requests.post(f"{base}/mestre", data={"token": "segredo-123-do-mestre"},
                               timeout=5)  # as the page posts the fragment's token
        assert opened.status_code == 200
        assert requests.get(f"{base}/mestre", timeout=5).status_code == 403
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=10)
        assert process.returncode == 0
        assert "Servidor encerrado." in rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_busy_port_is_a_clear_error(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "mesa.db", 1, tables)
    running = start_in_thread(session)
    try:
        with pytest.raises(ServerError, match="porta já está em uso"):
            serve("127.0.0.1", running.port, session)
    finally:
        running.stop()
        session.close()


def test_no_limits_refuses_any_host_but_loopback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--sem-limites", "--host", "0.0.0.0",
         "--port", str(free_port()), "--db", str(tmp_path / "mesa.db")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "--sem-limites" in result.stderr and "127.0.0.1" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "mesa.db").exists()  # refused before the session was opened


def test_no_limits_on_loopback_lets_more_players_join_than_the_default(tmp_path: Path) -> None:
    import socketio

    from companion.server import access

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--sem-limites", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(tmp_path / "mesa.db"), "--gm-token", "token-do-mestre-t"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    clients = []
    try:
        read_until(process, "Ctrl+C")
        for index in range(access.JOINS_PER_MINUTE + 5):
            client = socketio.Client(reconnection=False)
            client.connect(f"http://127.0.0.1:{port}", auth={"nome": f"J{index}"},
                           transports=["websocket"], wait_timeout=5)
            clients.append(client)
        gm = socketio.Client(reconnection=False)
        gm.connect(f"http://127.0.0.1:{port}", auth={"token": "token-do-mestre-t"},
                   transports=["websocket"])
        clients.append(gm)
        acks = [gm.call("comando", {"text": "rolar 1d6"}, timeout=10)
                for _ in range(access.GM_COMMANDS_PER_WINDOW + 5)]
        assert all(ack["ok"] for ack in acks), [a for a in acks if not a["ok"]][:1]
    finally:
        for client in clients:
            client.disconnect()
        process.kill()
        process.wait()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl_c", "sigterm"])
def test_a_stop_signal_closes_the_session_and_leaves_no_wal_behind(
        tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl+C and a service manager's SIGTERM stop the server the same clean way: the session
    closes its SQLite file (the WAL checkpointed into it and removed), exit status 0."""
    db, port = tmp_path / "mesa.db", free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(db), "--seed", "3", "--gm-token", "token-do-mestre-t"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        read_until(process, "Ctrl+C")
        answer = requests.post(f"http://127.0.0.1:{port}/api/command", timeout=5,
                               json={"text": "rolar 1d20"},
                               headers={"Authorization": "Bearer token-do-mestre-t"})
        assert answer.status_code == 200 and answer.json()["ok"] is True
        assert Path(f"{db}-wal").exists()  # the open session's WAL
        process.send_signal(stop)
        rest, _ = process.communicate(timeout=20)
        assert process.returncode == 0, rest
        assert "Servidor encerrado." in rest and "Traceback" not in rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    stored = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        texts = [text for (text,) in stored.execute("SELECT text FROM commands ORDER BY n")]
    finally:
        stored.close()
    assert texts[-1] == "rolar 1d20"


def test_regras_importar_is_refused_while_serve_has_the_campaign_open(tmp_path: Path) -> None:
    """A running `companion serve` holds its campaign: `regras importar` points to the GM
    page, and works again once the server stopped (even after a kill -9)."""
    port = free_port()
    db = tmp_path / "mesa.db"
    rules = tmp_path / "regras.yaml"
    rules.write_text("casa: {luz: {tocha: {turnos: 2}}}\n", encoding="utf-8")
    importing = [sys.executable, "-m", "companion", "regras", "importar", "--db", str(db),
                 str(rules)]
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", str(db), "--seed", "3"], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        read_until(process, "Ctrl+C")
        refused = subprocess.run(importing, capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2
        assert "aberta num servidor" in refused.stderr
        assert f"http://127.0.0.1:{port}/mestre" in refused.stderr
        # a second server on the same campaign is refused too, before it opens the file
        commands = sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute(
            "SELECT count(*) FROM commands").fetchone()[0]
        second = subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
             str(free_port()), "--db", str(db)], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "já está aberta em outro servidor" in second.stderr
        assert f"http://127.0.0.1:{port}/mestre" in second.stderr
        assert sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute(
            "SELECT count(*) FROM commands").fetchone()[0] == commands
    finally:
        process.kill()
        process.wait()
    done = subprocess.run(importing, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "luz.tocha.turnos 6 → 2" in done.stdout
