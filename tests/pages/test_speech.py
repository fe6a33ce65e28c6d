"""Speech in real Chromium: a page with its switch on says what the server gives it through
the browser's synthesis (the calls recorded by an init script that stands in for
speechSynthesis, with one Portuguese voice), the table screen never a GM-only fact, "silêncio"
stops it, a page on the laptop makes listening deaf while it speaks, and the "Voz" settings
pass axe-core at the phone's size."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.speech.speaker import Recorder
from tests.browser_helpers import GM_TOKEN, TABLE_PHONE, TV, gm_only_texts, wait_until
from tests.pages.page_helpers import Table, live_table, violations

SYNTH = """
(() => {
  const voices = %s;
  const calls = [];
  window.__spoken = calls;
  class Utterance {
    constructor(text) { this.text = text; this.lang = ""; this.voice = null; }
  }
  window.SpeechSynthesisUtterance = Utterance;
  Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
    getVoices: () => voices,
    addEventListener: () => {},
    onvoiceschanged: null,
    speak(u) {
      calls.push({ text: u.text, lang: u.lang, voice: u.voice && u.voice.name });
      setTimeout(() => { u.onstart && u.onstart(); setTimeout(() => u.onend && u.onend(), 30); }, 0);
    },
    cancel() { calls.push({ cancel: true }); },
  } });
})();
"""
PORTUGUESE = '[{"name": "Voz de teste", "lang": "pt-BR", "default": true}]'
TORCH_OUT = "A tocha se apagou."
DARK = ["personagem Ana", "masmorra", "acender tocha", "6 turnos"]


@pytest.fixture
def table(tmp_path: Path, tables: Any, browser: Any) -> Iterator[Table]:
    with live_table(tmp_path, tables, browser, speech_output=Recorder()) as live:
        yield live


def _open(table: Table, path: str, viewport: dict[str, int], voices: str = PORTUGUESE) -> Any:
    context = table.context(viewport)
    context.add_init_script(SYNTH % voices)
    page = table.page(path, path, context)
    page.locator("#status.on").wait_for()
    return page


def _gm(table: Table, voices: str = PORTUGUESE) -> Any:
    return _open(table, f"/mestre?token={GM_TOKEN}", TABLE_PHONE, voices)


def _settings(gm: Any) -> None:
    gm.get_by_text("O que o companheiro diz em voz alta, e onde").click()
    gm.get_by_label("Alto-falantes do notebook").wait_for()


def _spoken(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__spoken")


def _speech(table: Table) -> Any:
    return table.server.app.extensions["mesa_speech"]


def test_the_gm_page_says_the_answer_and_the_table_screen_no_secret(table: Table) -> None:
    gm = _gm(table)
    mesa = _open(table, "/mesa", TV)
    mesa.get_by_label("Falar nesta tela").check()
    _settings(gm)
    gm.get_by_label("Alto-falantes do notebook").uncheck()  # the pages speak, not the laptop
    gm.get_by_label("Este aparelho (esta página)").check()
    wait_until(lambda: _speech(table).choice.laptop is False)
    wait_until(lambda: len(_speech(table)._pages) == 2)
    for text in DARK:
        table.command(gm, text)
    # a public announcement: the table screen says it (it comes first), the GM page does not
    wait_until(lambda: TORCH_OUT in [c.get("text") for c in _spoken(mesa)])
    # the answer to a question said by voice goes to the GM page, in the GM's words
    events = table.command(gm, "segredo")
    _speech(table).answered(events)  # what the listener does after running a spoken command
    secret = _speech(table).config.spoken(  # said in words (tables/fala.yaml pronuncia)
        [e["text"] for e in events if e["visibility"] == "gm"][0])
    wait_until(lambda: secret in [c.get("text") for c in _spoken(gm)])
    said_by_gm = [c for c in _spoken(gm) if "text" in c]
    assert all(c["lang"] == "pt-BR" and c["voice"] == "Voz de teste" for c in said_by_gm)
    assert TORCH_OUT not in [c["text"] for c in said_by_gm]  # said once, by one speaker
    # the table screen never says a GM-only fact
    hidden = gm_only_texts(table.events())
    assert hidden and not hidden & {c.get("text") for c in _spoken(mesa)}
    # "mestre, silêncio": both pages stop
    table.command(gm, "silêncio")
    wait_until(lambda: {"cancel": True} in _spoken(mesa) and {"cancel": True} in _spoken(gm))


def test_a_page_on_the_laptop_makes_listening_deaf_while_it_speaks(table: Table) -> None:
    calls: list[tuple[str, bool, float]] = []
    _speech(table).deafen = lambda who, on, tail: calls.append((who, on, tail))
    mesa = _open(table, "/mesa", TV)
    mesa.get_by_label("Falar nesta tela").check()
    gm = _gm(table)
    _settings(gm)
    gm.get_by_label("Alto-falantes do notebook").uncheck()
    wait_until(lambda: _speech(table).choice.laptop is False)
    for text in DARK:
        table.command(gm, text)
    wait_until(lambda: TORCH_OUT in [c.get("text") for c in _spoken(mesa)])
    # the page says the queue aloud in real time first (slower on a loaded machine)
    wait_until(lambda: calls and calls[-1][1] is False, timeout=30)
    assert calls[0][1] is True and calls[0][0].startswith("pagina:")
    assert calls[0][2] == _speech(table).config.deaf_after


def test_without_a_portuguese_voice_the_switch_says_why(table: Table) -> None:
    mesa = _open(table, "/mesa", TV, voices="[]")
    switch = mesa.get_by_label("Falar nesta tela")
    switch.wait_for()
    assert switch.is_disabled()
    assert "não tem voz em português" in mesa.locator("#fala").inner_text()


def test_the_speech_settings_are_accessible_on_the_phone(table: Table) -> None:
    gm = _gm(table)
    _settings(gm)
    gm.get_by_label("Um encontro").wait_for()
    assert violations(gm) == []
    # the choice is this device's: it is kept across a reload
    gm.get_by_label("Um encontro").uncheck()
    wait_until(lambda: "encontro" not in _speech(table).choice.kinds)
    gm.reload()
    gm.locator("#status.on").wait_for()
    _settings(gm)
    assert not gm.get_by_label("Um encontro").is_checked()
    mesa = _open(table, "/mesa", TV)
    mesa.get_by_label("Falar nesta tela").wait_for()
    assert violations(mesa) == []
