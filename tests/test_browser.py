"""The three pages in real Chromium against a real server on loopback with a real session.

Each test gets a fresh session (SQLite in tmp_path) and server on a free port. Every browser
context records its requests and page errors: a test fails if any page asked for a URL outside
the loopback server or raised a JavaScript error. Screenshots go to test-artifacts/; with
SCREENSHOTS=1 the README pictures in docs/screenshots/ are regenerated too.
"""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    GM_TOKEN,
    PHONE,
    TV,
    Recorder,
    gm_only_texts,
    log_seqs,
    missing_chromium_message,
    readme_screenshot,
    screenshot,
    wait_until,
)

WAIT_MS = 10_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(missing_chromium_message())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Table:
    """A live session and server, and the browser pages opened against it."""

    def __init__(self, session: Any, server: Any, browser: Any) -> None:
        self.session = session
        self.server = server
        self.browser = browser
        self.recorder = Recorder(server.url)
        self.contexts: list[Any] = []
        self.page_errors: list[str] = []

    # ------------------------------------------------------------------ pages

    def context(self, viewport: dict[str, int] = PHONE) -> Any:
        context = self.browser.new_context(viewport=viewport, locale="pt-BR")
        context.set_default_timeout(WAIT_MS)
        self.recorder.attach(context)
        self.contexts.append(context)
        return context

    def open(self, path: str, context: Any | None = None, viewport: dict[str, int] = PHONE) -> Any:
        page = (context or self.context(viewport)).new_page()
        page.on("pageerror", lambda error: self.page_errors.append(f"{path}: {error}"))
        page.goto(self.server.url + path)
        return page

    def gm(self) -> Any:
        page = self.open(f"/mestre?token={GM_TOKEN}")
        page.locator("#status.on").wait_for()
        return page

    def player(self, name: str) -> Any:
        page = self.open("/jogador")
        page.get_by_label("Nome").fill(name)
        page.get_by_role("button", name="Entrar").click()
        page.locator("#who", has_text=name).wait_for()
        page.locator("#status.on").wait_for()
        return page

    def mesa(self) -> Any:
        page = self.open("/mesa", viewport=TV)
        page.locator("#status.on").wait_for()
        return page

    # ------------------------------------------------------------------ acting

    def events(self) -> list[dict]:
        return self.session.events_since(0)

    def command(self, gm: Any, text: str) -> list[dict]:
        """Type a command on the GM page and press Enter; returns the events it produced."""
        before = len(self.events())
        gm.get_by_label("Comando").fill(text)
        gm.get_by_label("Comando").press("Enter")
        error = gm.locator("#command-error")
        try:
            wait_until(lambda: len(self.events()) > before)
        except AssertionError:
            shown = error.inner_text() if error.is_visible() else "(nenhum)"
            raise AssertionError(f"{text!r} não produziu eventos; erro na página: {shown}") from None
        fresh = self.events()[before:]
        gm.locator(f"#log li[data-seq='{fresh[-1]['seq']}']").wait_for()
        error.wait_for(state="hidden")  # an accepted command clears the last error
        return fresh

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def table(tmp_path: Any, tables: Any, browser: Any) -> Iterator[Table]:
    from companion.server.app import start_in_thread
    from companion.session import Session

    session = Session.open(tmp_path / "mesa.db", 7, tables, gm_token=GM_TOKEN)
    server = start_in_thread(session)
    live = Table(session, server, browser)
    try:
        yield live
        assert live.recorder.urls, "nenhuma requisição registrada"
        assert live.recorder.foreign() == [], f"requisições fora do servidor: {live.recorder.foreign()}"
        assert live.page_errors == [], f"erros de JavaScript: {live.page_errors}"
    finally:
        live.close()
        server.stop()
        session.close()


def body_text(page: Any) -> str:
    return page.locator("body").inner_text()


# ---------------------------------------------------------------------------- tests


def test_gm_command_appears_on_two_player_pages(table: Table) -> None:
    ana, bia = table.player("Ana"), table.player("Bia")
    gm = table.gm()
    events = table.command(gm, "explorar")
    roll = next(e for e in events if e["kind"] == "rolagem" and e["visibility"] == "public")
    for page in (gm, ana, bia):
        item = page.locator(f"#log li[data-seq='{roll['seq']}']")
        item.wait_for()
        shown = item.inner_text()
        assert roll["data"]["tabela"] in shown
        assert str(roll["data"]["total"]) in shown
        assert roll["data"]["resultado"] in shown
    screenshot(gm, "mestre-explorar")
    screenshot(ana, "jogador-explorar")


def test_player_answers_panic_prompt_from_the_phone(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    card = ana.locator(".prompt")
    card.wait_for()
    gm.locator("#prompts .prompt").wait_for()  # the GM sees the pending prompt too
    screenshot(ana, "jogador-panico")
    before = len(table.events())
    card.get_by_role("button", name="Rolar").click()
    answer = wait_until(lambda: [e for e in table.events()[before:] if e["kind"] == "resposta"],
                        message="a resposta de Ana não chegou ao servidor")
    outcome = table.events()[before:]
    for event in outcome:  # the answer and the panic outcome (Tabela J…) reach the GM page
        gm.locator(f"#log li[data-seq='{event['seq']}']").wait_for()
    assert any(e["kind"] == "rolagem" for e in outcome)
    card.wait_for(state="detached")  # answered: the card goes away
    gm.locator("#prompts .prompt").wait_for(state="detached")
    for event in outcome:
        if event["visibility"] == "public":
            ana.locator(f"#log li[data-seq='{event['seq']}']").wait_for()


def test_player_types_a_physical_die_value(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    card = ana.locator(".prompt")
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("1")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    answer = wait_until(lambda: [e for e in table.events()[before:] if e["kind"] == "resposta"],
                        message="o valor digitado por Ana não chegou ao servidor")
    assert "1" in answer[0]["text"]
    card.wait_for(state="detached")


def test_reload_rejoins_as_the_same_player(table: Table) -> None:
    ana = table.player("Ana")
    token = ana.evaluate("localStorage.getItem('mesa.jogador.token')")
    assert token and table.session.player_by_token(token).name == "Ana"
    ana.reload()
    ana.locator("#status.on").wait_for()
    assert ana.locator("#who").inner_text() == "· Ana"
    assert ana.locator("#join").is_hidden()
    assert ana.evaluate("localStorage.getItem('mesa.jogador.token')") == token
    assert len(table.session.players()) == 1  # no second join
    second_tab = ana.context.new_page()
    second_tab.goto(table.server.url + "/jogador")
    second_tab.locator("#status.on").wait_for()
    assert second_tab.locator("#who").inner_text() == "· Ana"
    assert len(table.session.players()) == 1


def test_leaving_forgets_the_token(table: Table) -> None:
    ana = table.player("Ana")
    ana.get_by_role("button", name="Sair").click()
    ana.get_by_label("Nome").wait_for()
    assert ana.evaluate("localStorage.getItem('mesa.jogador.token')") is None


def test_no_gm_only_text_reaches_a_player_page(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    for text in ("avançar", "avançar", "segredo 1d20 escutar atrás da porta",
                 "masmorra", "monstro Ogro Zarolho na sala 7", "segredo"):
        table.command(gm, text)
    hidden = gm_only_texts(table.events())
    assert hidden, "o roteiro deveria ter produzido eventos só do Mestre"
    gm.locator("#gm-only", has_text="Ogro Zarolho").wait_for()  # the GM does see them
    wait_until(lambda: max(log_seqs(ana) or [0]) >= max(
        e["seq"] for e in table.events() if e["visibility"] == "public"))
    ana.wait_for_timeout(300)  # let any stray estado land before reading the page
    shown = body_text(ana)
    leaked = [text for text in hidden if text in shown]
    assert leaked == [], f"textos do Mestre na página do jogador: {leaked}"
    for secret in ("Ogro Zarolho", "escutar atrás da porta", "Só o Mestre"):
        assert secret not in shown
    gm_shown = body_text(gm)
    assert all(text in gm_shown or text.split(" — ")[0] in gm_shown for text in hidden)
    screenshot(gm, "mestre-segredos")


def test_reconnect_gets_missed_events_once(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "rolar 1d6")
    ana.evaluate("window.mesa.conn.socket.disconnect()")
    ana.locator("#status.off").wait_for()
    missed = table.command(gm, "rolar 2d6") + table.command(gm, "rolar 1d8")
    ana.evaluate("window.mesa.conn.socket.connect()")
    ana.locator("#status.on").wait_for()
    for event in missed:
        ana.locator(f"#log li[data-seq='{event['seq']}']").wait_for()
    seqs = log_seqs(ana)
    assert len(seqs) == len(set(seqs)), f"evento repetido: {seqs}"
    public = [e["seq"] for e in table.events() if e["visibility"] in ("public", "player:ana")]
    assert sorted(seqs) == public


def test_command_error_and_undo_on_the_gm_page(table: Table) -> None:
    gm = table.gm()
    gm.get_by_label("Comando").fill("voar até a lua")
    gm.get_by_role("button", name="Enviar").click()
    error = gm.locator("#command-error")
    error.wait_for()
    assert "voar até a lua" in error.inner_text()
    table.command(gm, "rolar 1d20")
    before = len(table.events())
    gm.get_by_role("button", name="Desfazer").click()
    undone = wait_until(lambda: table.events()[before:], message="Desfazer não fez nada")
    gm.locator(f"#log li[data-seq='{undone[-1]['seq']}']").wait_for()
    assert error.is_hidden()


def test_quick_buttons_follow_the_mode(table: Table) -> None:
    gm = table.gm()
    gm.get_by_role("button", name="Avançar").wait_for()
    table.command(gm, "masmorra")
    gm.get_by_role("button", name="Turno").wait_for()
    before = len(table.events())
    gm.get_by_role("button", name="Acender tocha").click()
    wait_until(lambda: table.events()[before:], message="o botão não enviou o comando")
    gm.locator("#glance", has_text="Tocha").wait_for()
    assert gm.get_by_role("button", name="Avançar").count() == 0


def test_mesa_shows_the_qr_code_and_state(table: Table) -> None:
    table.player("Ana")
    gm = table.gm()
    mesa = table.mesa()
    qr = mesa.locator("img#qr")
    assert qr.get_attribute("src") == "/qr.svg"
    wait_until(lambda: mesa.evaluate("document.querySelector('#qr').naturalWidth") > 0,
               message="o QR code não carregou")
    assert "/jogador" in mesa.locator("#url").inner_text()
    events = table.command(gm, "explorar")
    roll = next(e for e in events if e["kind"] == "rolagem")
    mesa.locator(f"#latest li[data-seq='{roll['seq']}']").wait_for()
    screenshot(mesa, "mesa-explorar", full_page=False)


def test_screenshots_of_a_session_in_play(table: Table) -> None:
    """A small scripted session, then the three pages as the README shows them."""
    ana, bia = table.player("Ana"), table.player("Bia")
    gm = table.gm()
    mesa = table.mesa()
    for text in ("personagem Ana nível 2 pv máximo 12 pv 10 sanidade 9 comida 3 água 3 munição 12",
                 "personagem Bia pv 5 sanidade 12 comida 2 água 2", "avançar", "explorar",
                 "masmorra arriscado", "acender tocha", "monstro Goblin na sala 2", "turno",
                 "segredo 1d20 procurar portas secretas", "derrotados 3 goblins",
                 "tesouro 50 moedas de ouro", "pânico Ana", "surpresa"):
        table.command(gm, text)
    ana.locator(".prompt").wait_for()
    gm.locator("#prompts .prompt").wait_for()
    mesa.locator("#latest li").first.wait_for()
    screenshot(gm, "mestre", full_page=False)
    screenshot(ana, "jogador", full_page=False)
    screenshot(mesa, "mesa", full_page=False)
    screenshot(gm, "mestre-inteiro")
    screenshot(bia, "jogador-bia")
    assert gm.locator("#log li").count() >= 5
    tally = gm.locator("#tally").inner_text()
    assert "3 goblins" in tally and "50 moedas de ouro" in tally and "d20" in tally
    assert "Ana" in ana.locator("#me").inner_text() and "Bia" in ana.locator("#party").inner_text()
    readme_screenshot(gm, "mestre", height=2000)
    readme_screenshot(ana, "jogador", height=1100)
    readme_screenshot(mesa, "mesa")


def test_chase_on_the_gm_buttons_and_the_shared_screen(table: Table) -> None:
    table.player("Ana")
    gm = table.gm()
    mesa = table.mesa()
    table.command(gm, "fugir")
    gm.get_by_role("button", name="Fuga sucesso").click()
    mesa.locator("#glance", has_text="Distância Neutra").wait_for()
    gm.get_by_role("button", name="Fuga sucesso").click()
    mesa.locator("#glance", has_text="Distância Maior").wait_for()
    assert "placar +1" in mesa.locator("#glance").inner_text()
    assert mesa.locator(".chase-bar i.on").count() == 1
    gm.locator("#glance", has_text="Distância Maior").wait_for()
    screenshot(mesa, "mesa-perseguicao", full_page=False)


def test_forced_march_value_then_choice_on_the_phone(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    for _ in range(3):
        table.command(gm, "avançar")
    card = ana.locator(".prompt")
    card.wait_for()
    assert "CON" in card.inner_text()
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("1")  # 1 + CON < DC 12
    card.get_by_role("button", name="Enviar valor").click()
    choice = ana.get_by_role("button", name="Receber 1 de exaustão")
    choice.wait_for()
    ana.get_by_role("button", name="Descansar 2 rodadas").wait_for()
    screenshot(ana, "jogador-escolha")
    choice.click()
    ana.locator("#me .stat", has_text="Exaustão 1").wait_for()
    assert ana.locator(".prompt").count() == 0


def test_pages_name_no_outside_address() -> None:
    """No page, style or script of ours points outside the server (the vendored client only
    mentions a documentation address inside an error message)."""
    import re

    from tests.browser_helpers import ROOT

    web = ROOT / "web"
    ours = [p for p in web.rglob("*") if p.suffix in (".html", ".css", ".js") and "vendor" not in p.parts]
    assert {p.name for p in ours} >= {"mestre.html", "jogador.html", "mesa.html", "mesa.css"}
    outside = re.compile(r"(https?:)?//[\w.-]+\.\w{2,}|@import|url\(\s*['\"]?(https?:)?//")
    found = {str(p.relative_to(ROOT)): outside.findall(p.read_text(encoding="utf-8"))
             for p in ours}
    assert {k: v for k, v in found.items() if v} == {}
    vendor = web / "static" / "vendor"
    assert (vendor / "socket.io.min.js").read_text(encoding="utf-8").startswith("/*!\n * Socket.IO v4.")
    assert "MIT" in (vendor / "LICENSE").read_text(encoding="utf-8")


def test_unknown_player_token_asks_for_the_name_again(table: Table) -> None:
    page = table.open("/jogador")
    page.get_by_label("Nome").wait_for()
    page.evaluate("localStorage.setItem('mesa.jogador.token', 'token-de-outra-sessao')")
    page.reload()
    error = page.locator("#join-error")
    error.wait_for()
    assert "Token inválido" in error.inner_text()
    screenshot(page, "jogador-entrar")
    assert page.evaluate("localStorage.getItem('mesa.jogador.token')") is None
    page.get_by_label("Nome").fill("Caio")
    page.get_by_role("button", name="Entrar").click()
    page.locator("#who", has_text="Caio").wait_for()
    assert [p.name for p in table.session.players()] == ["Caio"]


def test_player_rolls_dice_from_the_phone(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    before = len(table.events())
    ana.get_by_role("button", name="d20", exact=True).click()
    rolled = wait_until(lambda: table.events()[before:], message="o d20 de Ana não rolou")
    assert rolled[0]["kind"] == "rolagem" and rolled[0]["data"]["dados"] == "1d20"
    for page in (ana, gm):
        page.locator(f"#log li[data-seq='{rolled[0]['seq']}']").wait_for()
    assert ana.locator("#command-error").is_hidden()
