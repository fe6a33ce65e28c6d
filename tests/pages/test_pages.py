"""The three pages in real Chromium against a real server on loopback with a real session.

Each test gets a fresh session (SQLite in tmp_path) and server on a free port. Every browser
context records its requests and page errors: a test fails if any page asked for a URL outside
the loopback server or raised a JavaScript error. Screenshots go to test-artifacts/; with
SCREENSHOTS=1 the README pictures in docs/screenshots/ are regenerated too.
"""
from __future__ import annotations

import re
from typing import Any

from tests.disk_helpers import Disk, command
from tests.browser_helpers import (
    GM_TOKEN,
    gm_only_texts,
    log_seqs,
    screenshot,
    seen_by,
    wait_until,
)
from tests.pages.page_helpers import (Table, answered, body_text, live_table)
from tests.pages.pages_helpers import (  # noqa: F401
    play_the_evening_and_shoot,
)


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
    wait_until(lambda: [e for e in table.events()[before:] if e["kind"] == "resposta"],
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
    ana.get_by_role("dialog").get_by_role("button", name="Sair e liberar o lugar").click()
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
    # "lost" is shown to the GM only while it is true: in travel, red in "Agora"; inside the
    # dungeon (the script went in), in the "Só o Mestre" card, as the party's state outside
    lost = gm.evaluate("window.mesa.state.mestre.perdido")
    assert gm.evaluate("window.mesa.state.modo") == "masmorra"
    assert "PERDIDO" not in gm.locator("#gm-alerts").inner_text()
    if lost:
        gm.locator("#gm-only", has_text="continua PERDIDO").wait_for()
    else:
        assert "PERDIDO" not in gm.locator("#gm-only").inner_text()
    wait_until(lambda: max(log_seqs(ana) or [0]) >= len(seen_by(table.events(), "player:ana")))
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
    mine = seen_by(table.events(), "player:ana")
    for event in mine[-len(missed):]:
        ana.locator(f"#log li[data-seq='{event['seq']}']").wait_for()
    seqs = log_seqs(ana)
    assert len(seqs) == len(set(seqs)), f"evento repetido: {seqs}"
    assert sorted(seqs) == [e["seq"] for e in mine]


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


def test_a_full_disk_is_said_on_the_gm_page_like_any_refusal(table: Table) -> None:
    gm = table.gm()
    disk = Disk(table.session)
    disk.fill(command(table.session, "rolar 1d20"))
    before = len(table.events())
    gm.get_by_label("Comando").fill("rolar 1d20")
    gm.get_by_role("button", name="Enviar").click()
    error = gm.locator("#command-error")
    error.wait_for()
    said = error.inner_text()
    assert "disco do notebook está cheio" in said and "libere espaço no notebook" in said
    assert len(table.events()) == before
    disk.free()
    table.command(gm, "rolar 1d20")  # by itself, no restart; the refusal is cleared
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


def test_screenshots_of_a_session_in_play(tmp_path: Any, tables: Any, browser: Any) -> None:
    """A scripted evening (travel, then a dungeon: torch, spell, monsters, a failed panic test
    that cost Ana 2 SAB, two more waiting for her), then the three pages as the README shows them (served as `companion serve` would,
    with a LAN address for the phones)."""
    with live_table(tmp_path, tables, browser, base_url="http://192.168.0.12:8765") as table:
        play_the_evening_and_shoot(table)


def test_chase_on_the_gm_buttons_and_the_shared_screen(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    mesa = table.mesa()
    table.command(gm, "fugir")
    table.command(gm, "velocidade 120 contra 90")  # said when flight is declared
    speeds = "grupo 120 × perseguidores 90 (o grupo é 30 mais rápido)"
    for page in (gm, ana, mesa):
        page.locator("#glance", has_text=speeds).wait_for()
    gm.get_by_role("button", name="Fuga sucesso").click()
    mesa.locator("#glance", has_text="Distância Neutra").wait_for()
    for page in (gm, ana, mesa):  # kept when the chase starts
        page.locator("#glance", has_text=speeds).wait_for()
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
    namespace = re.compile(r'xmlns(:\w+)?="http://www\.w3\.org/[\w/]+"')  # a name, never fetched
    found = {str(p.relative_to(ROOT)): outside.findall(namespace.sub("", p.read_text(encoding="utf-8")))
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


# ---------------------------------------------------------------------------- prompts in any order


def test_every_prompt_can_be_answered_in_any_order(table: Table) -> None:
    """Ana has a panic test and a forced-march CON test; Bia a CON test. Every card on both
    pages has its own buttons, and each answer reaches exactly the prompt it is on."""
    ana, bia = table.player("Ana"), table.player("Bia")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    for _ in range(3):
        table.command(gm, "avançar")
    pending = {(p.character, p.kind): p.id for p in table.session.state.prompts}
    panic, march, bia_march = (pending[("ana", "panico")], pending[("ana", "marcha_forcada")],
                               pending[("bia", "marcha_forcada")])
    ana.locator(".prompt").nth(1).wait_for()
    assert ana.locator(".prompt").count() == 2
    assert "2 pedidos para você" in ana.locator("#prompts").inner_text()
    gm.locator("#prompts .prompt").nth(2).wait_for()
    assert "Na fila" not in body_text(gm)
    for card in gm.locator("#prompts .prompt").all():  # every GM card: roll, value, cancel
        assert card.get_by_role("button", name="Rolar por").count() == 1
        assert card.get_by_role("button", name="Responder").count() == 1
        assert card.get_by_role("button", name="Cancelar pedido").count() == 1
    screenshot(ana, "jogador-dois-pedidos")
    screenshot(gm, "mestre-tres-pedidos")

    # the GM rolls for Bia, whose prompt is the newest
    before = len(table.events())
    gm.locator(f"#prompts .prompt[data-pedido='{bia_march}']").get_by_role(
        "button", name="Rolar por Bia").click()
    assert answered(table, before, "o Mestre não rolou por Bia")["data"]["pedido"] == bia_march
    bia.locator(f".prompt[data-pedido='{table.number('bia', bia_march)}']").wait_for(
        state="detached")

    # Ana types a failing value on her second card, then chooses on the choice it opens
    card = ana.locator(f".prompt[data-pedido='{table.number('ana', march)}']")
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("1")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    assert answered(table, before, "o valor de Ana não chegou")["data"]["pedido"] == march
    choice = wait_until(lambda: [p.id for p in table.session.state.prompts
                                 if (p.character, p.kind) == ("ana", "escolha_marcha")],
                        message="Ana não recebeu a escolha da marcha forçada")[0]
    card = ana.locator(f".prompt[data-pedido='{table.number('ana', choice)}']")
    before = len(table.events())
    card.get_by_role("button", name="Receber 1 de exaustão").click()
    chosen = answered(table, before, "a escolha de Ana não chegou")["data"]
    assert (chosen["pedido"], chosen["opcao"]) == (choice, "exaustao")
    ana.locator("#me .stat", has_text="Exaustão 1").wait_for()

    # the oldest prompt waited all along, and still works
    assert [p.id for p in table.session.state.prompts if p.character == "ana"] == [panic]
    before = len(table.events())
    ana.locator(f".prompt[data-pedido='{table.number('ana', panic)}']").get_by_role(
        "button", name="Rolar").click()
    assert answered(table, before, "o pânico de Ana não foi rolado")["data"]["pedido"] == panic
    ana.locator(".prompt").wait_for(state="detached")
    gm.locator(f"#prompts .prompt[data-pedido='{panic}']").wait_for(state="detached")


def test_gm_answers_a_later_prompt_with_a_typed_value(table: Table) -> None:
    table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    table.command(gm, "pânico Ana")
    first, second = (p.id for p in table.session.state.prompts)
    card = gm.locator(f"#prompts .prompt[data-pedido='{second}']")
    card.get_by_label(re.compile("Valor do 1d20")).fill("20")
    before = len(table.events())
    card.get_by_role("button", name="Responder").click()
    answer = answered(table, before, "o valor do Mestre não chegou")
    assert answer["data"]["pedido"] == second and answer["data"]["natural"] == 20
    card.wait_for(state="detached")
    assert [p.id for p in table.session.state.prompts] == [first]
    before = len(table.events())
    gm.locator(f"#prompts .prompt[data-pedido='{first}']").get_by_role(
        "button", name="Cancelar pedido").click()
    wait_until(lambda: not table.session.state.prompts, message="o pedido não foi cancelado")
    gm.locator("#prompts-card").wait_for(state="hidden")


# ---------------------------------------------------------------------------- addresses and links


def test_mesa_shows_the_lan_player_url_like_its_qr_code(tmp_path: Any, tables: Any,
                                                         browser: Any) -> None:
    """Under `companion serve` the laptop opens /mesa at 127.0.0.1, but phones need the LAN
    address: the text under the QR code says the same address the QR code encodes."""
    lan = "http://192.168.0.42:5000"
    with live_table(tmp_path, tables, browser, base_url=lan) as live:
        mesa = live.mesa()
        assert mesa.url.startswith("http://127.0.0.1:")
        url = mesa.locator("#url")
        url.filter(has_text="192.168.0.42").wait_for()
        assert url.inner_text().replace("\n", "") == f"{lan}/jogador"
        from companion.server import qr
        svg = mesa.request.get(live.server.url + "/qr.svg").body()
        assert svg == qr.svg(f"{lan}/jogador",
                             tables.narration.render("servidor_no_ar.qr_titulo", {}))


def test_gm_page_without_token_reuses_the_stored_one(table: Table) -> None:
    gm = table.gm()  # opening the full link once keeps the token in this browser
    bare = gm.context.new_page()
    bare.goto(table.server.url + "/mestre")
    bare.locator("#status.on").wait_for()  # reopened with the kept token…
    assert bare.url == table.server.url + "/mestre"  # …which left the address bar again
    assert bare.evaluate("localStorage.getItem('mesa.mestre.token')") == GM_TOKEN
    bare.get_by_role("button", name="Avançar").wait_for()
