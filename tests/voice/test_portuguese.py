"""Portuguese end to end, whenever a Portuguese model is in the GM's models folder or models/:
espeak-ng pt-br → WAV → Vosk → strict reading → a command run in the session."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.rules.loader import load_rules
from companion.voice.config import voice_config
from companion.voice.models import find_model
from tests.voice_helpers import NARRATION, speak

ROOT = Path(__file__).resolve().parents[2]
MODEL = find_model(voice_config(load_rules()))

pytestmark = pytest.mark.skipif(
    MODEL is None, reason="sem modelo de português na pasta de modelos nem em models/ (mesa "
                          "modelo o baixa): o teste de ponta a ponta em português só roda com ele")


def test_spoken_portuguese_runs_the_command(tmp_path: Path) -> None:
    from companion.session import Session
    from companion.store.utterances import Utterances

    db = tmp_path / "mesa.db"
    Session.open(db, 4, load_rules()).close()
    wav = speak("avançar", "pt-br", tmp_path / "avancar.wav")
    done = subprocess.run([sys.executable, "-m", "companion", "ouvir", str(wav), "--db",
                           str(db), "--json"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    heard = [json.loads(line) for line in done.stdout.splitlines()]
    assert [h["comando"]["command"] for h in heard if h["comando"]] == ["avancar"]
    session = Session.open(db, None, load_rules())
    assert [c.name for c in session.commands()] == ["avancar"]
    session.close()
    log = Utterances(db)
    assert [r.command_name for r in log.all() if r.accepted] == ["avancar"]
    log.close()


def _voice_server(session: Any) -> Any:
    from companion.server.app import start_in_thread
    from companion.voice.service import start_voice

    tables = load_rules()
    return start_in_thread(session, voice=lambda heard, status: start_voice(
        session, tables, heard, status, model_dir=MODEL))


def test_spoken_portuguese_streamed_reaches_a_players_phone(session: Any,
                                                            tmp_path: Path) -> None:
    from companion.voice.sources import wav_chunks
    from tests.socket_helpers import SERVER_GM_TOKEN
    from tests.socket_helpers import Peer, wait_until

    wav = speak("mestre, avançar", "pt-br", tmp_path / "mestre-avancar.wav")
    running = _voice_server(session)
    gm = Peer(running.url, {"token": SERVER_GM_TOKEN})
    player = Peer(running.url, {"nome": "Ana"})
    try:
        gm.welcome(), player.welcome()
        before = len(player.events)
        for chunk in wav_chunks(wav, NARRATION):
            gm.sio.emit("voz_audio", chunk)
        gm.sio.call("voz_fim", None, timeout=10)
        wait_until(lambda: gm.of("voz"), timeout=30, what="a fala ouvida")
        assert gm.of("voz")[0]["comando"]["command"] == "avancar", gm.of("voz")
        wait_until(lambda: any(e["command"] == "avancar" for e in player.events[before:]),
                   timeout=30, what="o evento no celular do jogador")
        assert player.of("voz") == []
    finally:
        gm.close(), player.close()
        running.stop()


def test_spoken_portuguese_shows_the_toast_on_the_gm_page(session: Any,
                                                          tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser_helpers import CHROMIUM, CHROMIUM_ARGS, LiveTable
    from tests.socket_helpers import SERVER_GM_TOKEN

    wav = speak("avançar", "pt-br", tmp_path / "avancar.wav", pad=(0.5, 2.0))
    running = _voice_server(session)
    args = [*CHROMIUM_ARGS, "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-audio-capture={wav}%noloop"]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
            live = LiveTable(session, running, browser)
            try:
                gm = live.page("mestre", f"/mestre?token={SERVER_GM_TOKEN}",
                               live.context(permissions=["microphone"]))
                gm.locator("#status.on").wait_for()
                gm.locator("#voice-mode").select_option("apertar")
                gm.locator("#voice-talk").click()
                toast = gm.locator("#voice-toast:not([hidden])")
                toast.wait_for(timeout=30_000)
                assert "Ouvi: 'avançar' (" in toast.inner_text()
                assert [c.name for c in session.commands()] == ["avancar"]
                assert live.errors == []
            finally:
                live.close()
                browser.close()
    finally:
        running.stop()
