"""The campaign across real processes: a session boundary survives kill -9, `companion serve`
goes on with the last session and serves its report, `companion relatorio` lists them."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import requests

from companion.report import build
from companion.report.source import open_campaign, sessions
from companion.session import Session
from companion.tables.files import Tables
from tests.cli_helpers import run_main
from tests.history_helpers import differences
from tests.process_helpers import ACKED, ROOT, Shell, free_port, read_until


def test_a_session_boundary_survives_kill_9(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    shell = Shell(db)
    for text in [*ACKED, "encerrar sessão", "rolar 1d6"]:
        answer = shell.run(text)
        assert answer and not any("error" in e for e in answer), (text, answer)
    shell.kill9()

    reopened = Session.open(db, None, tables)
    assert differences(db, tables) == []
    assert reopened.state.session == 2 and reopened.state.tally.dice == {"d6": 1}
    assert [c.name for c in reopened.commands()][-2:] == ["nova_sessao", "rolar"]
    reopened.close()
    campaign = open_campaign(db)
    first = build.report(campaign, tables, 1)
    assert [(f.region, [(c.name, c.amount) for c in f.defeated]) for f in first.forms] == \
        [("Colinas", [("lobos", 2)])]

    listed = run_main("relatorio", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["sessão 1", "sessão 2"]
    assert "em jogo" in lines[1] and "em jogo" not in lines[0]


def test_serve_goes_on_with_the_last_session(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 4, tables, gm_token="segredo-123")
    for text in ["personagem Ana", "Ana ganha 2 rações", "avançar", "encerrar sessão"]:
        assert session.run(text).ok, text
    party = session.state.party
    session.close()

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        banner = read_until(process, "Ctrl+C")
        assert f"campanha em {db}: sessão 2" in banner
        base = f"http://127.0.0.1:{port}"
        state = requests.get(f"{base}/api/state", timeout=5,
                             headers={"Authorization": "Bearer segredo-123"}).json()
        assert [(c["nome"], c["comida"]) for c in state["grupo"]] == \
            [(c.name, c.food) for c in party]
        page = requests.get(f"{base}/relatorio", timeout=5,
                            headers={"Authorization": "Bearer segredo-123"}).text
        # just after "encerrar sessão": the session just closed, the new one a click away
        assert "Relatório da sessão 1" in page and 'data-sessao="2"' in page
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert [s.number for s in sessions(open_campaign(db))] == [1, 2]
