"""Voice on the pages, in real Chromium: the GM page's own microphone (Chromium's fake capture
device playing a real WAV) streamed to the real listener, the toast with Desfazer, the table
screen's microphone state, and the voice-off line.

The Korean test model stands in for Portuguese: the phrase "안녕하세요" is read as the command
'avançar' by the test's reader, so the whole path — page microphone → 16 kHz PCM over Socket.IO
→ Vosk → strict reading → session → every phone — runs for real."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.commands.parse import ParseResult
from companion.server.app import start_in_thread
from companion.rules.loader import load_rules
from companion.voice.config import voice_config
from companion.voice.listener import Listener
from companion.voice.strict_reading import read_voice
from companion.voice.service import Voice, remember_in, session_runner
from tests.browser_helpers import (CHROMIUM, CHROMIUM_ARGS, TV, LiveTable,
                                   readme_screenshot, screenshot, wait_until)
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.voice_helpers import KOREAN_LIST, speak

SAID_AS = {"안녕하세요": "avançar", "감사합니다": "acender tocha"}


@pytest.fixture(scope="module")
def spoken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fala")
    return speak("안녕하세요", "ko", folder / "fala.wav", pad=(0.5, 2.0))


@pytest.fixture(scope="module")
def mic_browser(spoken: Path) -> Iterator[Any]:
    """Chromium whose microphone plays the WAV once (its fake capture device)."""
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium não encontrado em {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    args = [*CHROMIUM_ARGS, "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-audio-capture={spoken}%noloop"]
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        yield launched
        launched.close()


def _reader(tables: Any) -> Any:
    def read(text: str) -> ParseResult:
        said = " ".join(text.split())
        if said not in SAID_AS:
            return ParseResult(error=f"não entendi '{said}' como comando por voz")
        return read_voice(SAID_AS[said], tables)
    return read


@pytest.fixture
def table(session: Any, mic_browser: Any, ko_model: Any) -> Iterator[LiveTable]:
    from companion.store.utterances import Utterances

    tables = load_rules()
    config = voice_config(tables)
    utterances = Utterances(session.db_path)

    def factory(on_heard: Any, on_status: Any) -> Voice:
        listener = Listener(ko_model, config, lambda: KOREAN_LIST,
                            lambda: _reader(tables), session_runner(session), on_heard,
                            on_status, remember_in(utterances, session), wake_phrases=False)
        listener.start()
        return Voice(listener, "voz ligada (modelo de teste)", utterances)

    running = start_in_thread(session, voice=factory)
    live = LiveTable(session, running, mic_browser)
    yield live
    live.close()
    running.stop()
    assert live.errors == []
    assert live.recorder.foreign() == []


def _gm(table: LiveTable) -> Any:
    context = table.context(permissions=["microphone"])
    page = table.page("mestre", f"/mestre?token={GM_TOKEN}", context)
    page.locator("#status.on").wait_for()
    return page


def test_push_to_talk_from_the_gm_page_runs_the_command(table: LiveTable) -> None:
    from companion.store.utterances import Utterances

    gm = _gm(table)
    screen = table.page("mesa", "/mesa", table.context(TV))
    screen.locator("#mic[data-mode='ativacao']").wait_for()
    gm.locator("#voice-mode").select_option("apertar")
    screen.locator("#mic[data-mode='apertar']").wait_for()
    gm.locator("#voice-talk").click()
    toast = gm.locator("#voice-toast:not([hidden])")
    toast.wait_for(timeout=30_000)
    assert "Ouvi: '안녕하세요' (" in toast.inner_text()
    wait_until(lambda: [c.name for c in table.session.commands()] == ["avancar"],
               message="o comando falado não rodou na sessão")
    screenshot(gm, "voz-mestre")
    # The README picture: the test model hears Korean (and this machine has no Korean font),
    # so the heard text is shown as the command it stands for; everything else is as it is.
    gm.evaluate("""() => { const t = document.querySelector('#voice-heard');
        t.textContent = t.textContent.replace(/'[^']*'/, "'avançar'"); }""")
    readme_screenshot(gm, "voz-mestre", height=740)
    gm.locator("#voice-undo").click()
    wait_until(lambda: [c.name for c in table.session.commands()] == ["avancar", "desfazer"],
               message="Desfazer não desfez o comando falado")
    assert table.session.commands()[0].undone
    rows = Utterances(table.session.db_path).all()
    assert [(r.text, r.accepted, r.command_name) for r in rows] == \
        [("안녕하세요", True, "avancar")]


def test_without_voice_the_gm_page_says_how_to_turn_it_on(session: Any, mic_browser: Any,
                                                          tmp_path: Path) -> None:
    from companion.voice.service import start_voice

    tables = load_rules()
    running = start_in_thread(session, voice=lambda heard, status: start_voice(
        session, tables, heard, status, model_dir=tmp_path))
    live = LiveTable(session, running, mic_browser)
    try:
        gm = live.page("mestre", f"/mestre?token={GM_TOKEN}", live.context())
        line = gm.locator("#voice-line")
        wait_until(lambda: "faltam am/ e conf/" in line.inner_text(),
                   message="a linha da voz desligada")
        assert "mesa modelo" in line.inner_text()
        assert gm.locator("#voice-talk").is_hidden()
        screen = live.page("mesa", "/mesa", live.context(TV))
        screen.locator("#mic[data-mode='off']").wait_for()
        assert live.errors == []
    finally:
        live.close()
        running.stop()
