"""test_pages.py, continued: the result tests."""
from __future__ import annotations

import re

from tests.browser_helpers import (
    GM_TOKEN,
    PHONE,
    TV,
    screenshot,
    wait_until,
)
from tests.pages.page_helpers import (Table, answered, body_text, covered_by_something_else)
from tests.pages.pages_helpers import (  # noqa: F401
    LONG_NONSENSE,
    FULL_STATE,
    BARE_STATES,
    inject_state,
)


def test_gm_page_without_token_explains_where_the_link_is(table: Table) -> None:
    page = table.open("/mestre")
    page.get_by_role("heading", name="Só o Mestre").wait_for()
    page.wait_for_timeout(300)  # a redirect, if any, would have happened by now
    assert page.url == table.server.url + "/mestre"
    text = body_text(page)  # the GM link as the window that started Mesa shows it
    assert "mestre#token=" in text and "Mesa foi ligado" in text and "companion serve" not in text
    assert page.get_by_role("link", name="Sou jogador: entrar na mesa").count() == 1
    screenshot(page, "mestre-sem-token")


def test_stale_stored_gm_token_is_forgotten_without_a_loop(table: Table) -> None:
    page = table.open("/jogador")
    page.evaluate("localStorage.setItem('mesa.mestre.token', 'token-de-outra-sessao')")
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.goto(table.server.url + "/mestre")
    page.get_by_text("não é o desta sessão").wait_for()  # tried once (POSTed), refused
    wait_until(lambda: page.evaluate("localStorage.getItem('mesa.mestre.token')") is None,
               message="o token velho continuou guardado")
    page.wait_for_timeout(500)
    assert len(navigations) == 2, navigations  # /mestre, then one POST, then it stops
    assert page.url == table.server.url + "/mestre"
    assert "Mesa foi ligado" in body_text(page)


def test_gm_sees_lost_in_agora_and_players_never_do(table: Table) -> None:
    """Tabela C is GM-only: "lost" shows in the GM's "Agora" (and goes away once found)."""
    ana = table.player("Ana")
    gm = table.gm()
    table.get_lost(gm)
    gm.locator("#gm-alerts .gm-alert", has_text="PERDIDO").wait_for()
    wait_until(lambda: ana.evaluate("window.mesa.state.mestre") is None)
    assert "PERDIDO" not in body_text(ana) and ana.locator("#gm-alerts").count() == 0
    table.command(gm, "desfazer")
    gm.locator("#gm-alerts .gm-alert").wait_for(state="detached")


def test_a_long_refusal_stays_compact_closable_and_off_the_undo_button(table: Table) -> None:
    gm = table.gm()
    table.command(gm, "rolar 1d20")
    gm.get_by_label("Comando").fill(LONG_NONSENSE)
    gm.get_by_label("Comando").press("Enter")
    error, text = gm.locator("#command-error"), gm.locator("#command-error-text")
    error.wait_for()
    assert "voar até a lua" in text.inner_text()
    line = gm.eval_on_selector("#command-error-text", "n => parseFloat(getComputedStyle(n).lineHeight)")
    closed = text.bounding_box()
    assert closed["height"] <= 3.2 * line, "o erro deveria ocupar no máximo 3 linhas"
    assert error.bounding_box()["height"] < 0.2 * PHONE["height"]
    assert gm.locator("#command-error.long").count() == 1  # the page says there is more
    screenshot(gm, "mestre-erro-compacto", full_page=False)

    text.click()  # tap to read it all
    gm.locator("#command-error.open").wait_for()
    assert text.bounding_box()["height"] > closed["height"]
    assert error.bounding_box()["height"] <= 0.45 * PHONE["height"]
    text.click()
    gm.locator("#command-error.open").wait_for(state="detached")

    assert not covered_by_something_else(gm, "#undo"), "o erro/barra cobre o botão Desfazer"
    before = len(table.events())
    gm.get_by_role("button", name="Desfazer").click()
    undone = wait_until(lambda: table.events()[before:], message="Desfazer não fez nada")
    assert undone[0]["command"] == "desfazer"
    error.wait_for(state="hidden")  # an accepted command clears the refusal

    gm.get_by_label("Comando").fill("voar até a lua")
    gm.get_by_label("Comando").press("Enter")
    error.wait_for()
    assert gm.locator("#command-error.long").count() == 0  # a short one needs no expanding
    gm.get_by_role("button", name="Fechar o aviso").click()
    error.wait_for(state="hidden")


def test_last_result_shows_what_the_activity_gave_in_full(table: Table) -> None:
    """On a laptop the strip shows up to three lines (a phone keeps to one:
    tests/pages/test_gm_phone.py)."""
    gm = table.open(f"/mestre?token={GM_TOKEN}", viewport=TV)
    gm.locator("#status.on").wait_for()
    table.command(gm, "personagem Ana")
    strip = gm.locator("#last-result")
    gathered = table.command(gm, "forragear")
    roll = next(e for e in gathered if e["data"].get("tabela") == "Tabela E: Forragear/Caçar/Pescar")
    strip.filter(has_text="Tabela E").wait_for()
    assert roll["data"]["resultado"] in strip.inner_text()
    rested = table.command(gm, "descansar")
    rest_line = next(e for e in reversed(rested) if e["kind"] == "relato")
    strip.filter(has_text=rest_line["text"]).wait_for()  # the rest itself, not the preamble
    shown = strip.inner_text()
    mishap = next((e for e in rested if e["data"].get("tabela") == "Tabela H: Percalços"), None)
    if mishap:  # a result table's row outweighs the rest line (docs/design.md: the news first)
        first = gm.locator("#last-result .line").first.inner_text()
        assert mishap["data"]["resultado"][:40] in first, shown
    clipped = gm.eval_on_selector_all("#last-result .line", """lines => lines.filter(
        l => l.scrollWidth > l.clientWidth + 1).map(l => l.textContent)""")
    assert clipped == [], f"linhas cortadas na largura: {clipped}"
    lines = gm.eval_on_selector_all("#last-result .line", """lines => lines.map(l => [
        l.getBoundingClientRect().height, parseFloat(getComputedStyle(l).lineHeight)])""")
    assert lines and all(height <= 3.2 * line for height, line in lines)
    more = len([e for e in rested if e["kind"] not in ("ajuda", "estado")]) - len(lines)
    if more > 0:
        assert f"+{more} no registro" in shown
    screenshot(gm, "mestre-resultado-descanso", full_page=False)
    strip.click()  # tap: the log comes into view
    wait_until(lambda: gm.eval_on_selector("#log", "n => n.getBoundingClientRect().top") < 200,
               message="tocar no resultado não levou ao registro")


def test_a_bad_die_value_is_explained_inside_its_card(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    card = ana.locator(".prompt")
    before = len(table.events())
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("25")
    card.get_by_role("button", name="Enviar valor").click()
    error = card.locator(".error")
    error.wait_for()
    assert error.inner_text() == "Digite um número de 1 a 20."
    box, inside = card.bounding_box(), error.bounding_box()
    assert box["y"] <= inside["y"] and inside["y"] + inside["height"] <= box["y"] + box["height"]
    assert ana.locator("#command-error").is_hidden()  # not by the dice, far from the card
    screenshot(ana, "jogador-valor-errado", full_page=False)
    # the server's own refusal, should one get through, reads the same: the server sends the
    # card's words with it (`cartao`, tables/narracao/cartao.yaml); the page keeps no copy
    prompt_id = table.session.state.prompts[0].id
    cards = gm.evaluate("""async (id) => {
        const said = async (text) => (await window.mesa.conn.send(text)).cartao;
        return [await said(`responder pedido ${id} valor 25`),
                await said(`responder pedido ${id + 50} rolar`)];
    }""", prompt_id)
    assert cards == ["Digite um número de 1 a 20.", "Este pedido já foi respondido ou cancelado."]
    assert len(table.events()) == before  # nothing was sent
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("7")
    card.get_by_role("button", name="Enviar valor").click()
    assert answered(table, before, "o valor 7 não chegou")["data"]["natural"] == 7
    card.wait_for(state="detached")


def test_older_prompts_are_compact_and_the_newest_comes_first_to_the_eye(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    table.command(gm, "pânico Ana")
    table.command(gm, "pânico Ana")
    first, second, third = (p.id for p in table.session.state.prompts)
    ana.locator(".prompt").nth(2).wait_for()
    order = ana.eval_on_selector_all(".prompt", "cards => cards.map(c => Number(c.dataset.pedido))")
    assert order == [first, second, third]  # still in the order they were asked
    current = ana.locator(".prompt.current")
    assert current.get_attribute("data-pedido") == str(third)
    assert ana.locator(".prompt.compact").count() == 2
    big = current.bounding_box()["height"]
    for card in ana.locator(".prompt.compact").all():
        assert card.bounding_box()["height"] < big * 0.6
    assert current.bounding_box()["y"] + 120 < PHONE["height"], "o pedido atual fica fora da tela"
    assert "3 pedidos para você" in ana.locator("#prompts").inner_text()
    screenshot(ana, "jogador-pedidos-antigos", full_page=False)

    # an old one still answers from its compact card
    before = len(table.events())
    ana.locator(f".prompt[data-pedido='{first}']").get_by_role("button", name="Rolar").click()
    assert answered(table, before, "o pedido antigo não foi rolado")["data"]["pedido"] == first
    ana.locator(f".prompt[data-pedido='{first}']").wait_for(state="detached")

    # the GM: the newest in full, the old one tagged, and one button cancels the old ones
    gm.locator(f"#prompts .prompt[data-pedido='{first}']").wait_for(state="detached")
    old = gm.locator(f"#prompts .prompt.older[data-pedido='{second}']")
    assert "antigo" in old.inner_text().lower()
    assert gm.locator(f"#prompts .prompt.current[data-pedido='{third}']").count() == 1
    screenshot(gm, "mestre-pedidos-antigos")
    cancel_old = gm.locator("#cancel-old")
    assert cancel_old.inner_text() == "Cancelar o antigo"
    cancel_old.click()
    gm.locator("#cancel-old.armed").wait_for()  # a second tap confirms
    assert [p.id for p in table.session.state.prompts] == [second, third]
    cancel_old.click()
    wait_until(lambda: [p.id for p in table.session.state.prompts] == [third],
               message="o pedido antigo não foi cancelado")
    gm.locator(f"#prompts .prompt[data-pedido='{second}']").wait_for(state="detached")
    cancel_old.wait_for(state="hidden")
    ana.locator(f".prompt.current[data-pedido='{third}']").wait_for()
    assert ana.locator(".prompt").count() == 1


def test_attribute_damage_and_the_watcher_are_shown_and_optional(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    mesa = table.mesa()
    table.command(gm, "pânico Ana")  # Sanidade 10: a 20 fails, Tabela J at 10 → 2 SAB damage
    card = gm.locator("#prompts .prompt")
    card.get_by_label(re.compile("Valor do 1d20")).fill("20")
    card.get_by_role("button", name="Responder").click()
    ana.locator("#me .stat.damage", has_text="Dano de SAB 2").wait_for()
    gm.locator("#party .stat.damage", has_text="Dano de SAB 2").wait_for()
    assert ana.locator("#me .stat.damage").count() == 1
    real = gm.evaluate("window.mesa.state.viagem")
    if real.get("vigia"):  # the engine names the watcher: the page shows the same name
        fact = gm.locator("#glance .fact", has_text="Vigia").locator(".v")
        assert fact.text_content().startswith(real["vigia"])

    for page in (gm, ana, mesa):
        inject_state(page, FULL_STATE)
        watcher = page.locator("#glance .fact", has_text="Vigia")
        assert watcher.locator(".v").text_content() == "Bia"
    for page, where in ((gm, "#party"), (ana, "#me")):
        shown = page.locator(f"{where} .stat.damage").all_inner_texts()
        assert shown == ["Dano de CON 1", "Dano de SAB 2"], shown
    for state in BARE_STATES:
        for page in (gm, ana, mesa):
            inject_state(page, state)
    inject_state(gm, BARE_STATES[-1])
    assert gm.locator("#glance .fact", has_text="Vigia").locator(".v").text_content() == "Ana"
    assert gm.locator("#party .stat.damage").all_inner_texts() == ["Dano de DES 1", "Doença"]
    inject_state(gm, {"viagem": {"vigia": "Caio", "vigia_escolhido": False}})
    assert gm.locator("#glance .fact", has_text="Vigia").locator(".v").text_content() == "Caio (padrão)"
    inject_state(gm, BARE_STATES[1])
    assert "Vigia" not in gm.locator("#glance").text_content()
    assert gm.locator("#party .stat.damage").count() == 0
    # the fixture fails the test on any JavaScript error these states raised


# ---------------------------------------------------------------------------- second GM playtest


def test_own_answer_shows_its_result_where_the_card_was(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")
    card = ana.locator("#prompts .prompt")
    before = len(table.events())
    card.get_by_role("button", name="Rolar").click()
    answer = answered(table, before, "a rolagem de Ana não chegou ao servidor")
    outcome = [e for e in table.events()[before:] if e["seq"] > answer["seq"]]
    verdict = next(e["data"]["sucesso"] for e in outcome if "sucesso" in e["data"])
    result = ana.locator("#answer-result .answer-card")
    result.wait_for()
    card.wait_for(state="detached")
    headline = result.locator(".headline").inner_text()
    assert headline.startswith(f"Você tirou {answer['data']['total']} — "), headline
    assert ("passou" if verdict else "falhou") in headline
    assert result.get_attribute("class").split()[-1] == ("passed" if verdict else "failed")
    card = next((e["data"]["cartao"] for e in outcome if e["data"].get("cartao")), None)
    row = card or next((e["data"]["resultado"] for e in outcome if e["data"].get("tabela", "").startswith("Tabela J")), None)
    if row:  # the row as the card says it (issue 26: never "Role 1d8…", the rolled rounds)
        assert row.rstrip(".") in headline
    assert "Teste de pânico" in result.locator("h2").inner_text()
    screenshot(ana, "jogador-resultado")
    result.get_by_role("button", name="Fechar o resultado").click()
    ana.locator("#answer-result").wait_for(state="hidden")
    assert ana.locator("#answer-result .answer-card").count() == 0


def test_a_failed_panic_result_names_the_effect_and_the_next_prompt_replaces_it(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "pânico Ana")  # Sanidade 10: a 20 fails, Tabela J at 10
    card = ana.locator("#prompts .prompt")
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("20")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    answered(table, before, "o valor de Ana não chegou ao servidor")
    row = wait_until(lambda: next((e["data"].get("cartao") or e["data"]["resultado"]
                                   for e in table.events()[before:]
                                   if e["data"].get("tabela") == "Tabela J: Pânico"), None))
    result = ana.locator("#answer-result .answer-card.failed")
    result.wait_for()
    assert result.locator(".headline").inner_text() == f"Você tirou 20 — falhou: {row.rstrip('.')}."
    damage = [e["text"] for e in table.events()[before:] if e["data"].get("atributo")]
    for line in damage:  # the affliction, under the headline
        result.locator(".details li", has_text=line.rstrip(".")).wait_for()
    assert "Tabela J" not in result.inner_text()  # the effect is said once, in the headline
    # The GM rolls for her next time: said so; then a new prompt replaces the card.
    table.command(gm, "pânico Ana")
    ana.locator("#prompts .prompt").wait_for()
    ana.locator("#answer-result").wait_for(state="hidden")
    before = len(table.events())
    gm.locator("#prompts .prompt").get_by_role("button", name="Rolar por Ana").click()
    answered(table, before, "o Mestre não rolou por Ana")
    ana.locator("#answer-result .headline", has_text="O Mestre rolou por você").wait_for()
    # another player's answer never lands on Ana's card
    bia = table.player("Bia")
    table.command(gm, "pânico Bia")
    bia.locator("#prompts .prompt").get_by_role("button", name="Rolar").click()
    bia.locator("#answer-result .answer-card").wait_for()
    assert "Bia" not in ana.locator("#answer-result").inner_text()
    assert ana.locator("#answer-result .headline").inner_text().startswith("O Mestre rolou por você")


def test_a_choice_answer_is_named_on_the_result_card(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    for _ in range(3):
        table.command(gm, "avançar")
    card = ana.locator(".prompt")
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("1")  # 1 + CON < DC 12
    card.get_by_role("button", name="Enviar valor").click()
    ana.get_by_role("button", name="Receber 1 de exaustão").click()
    result = ana.locator("#answer-result .answer-card")
    result.locator(".headline", has_text="Você escolheu: Receber 1 de exaustão").wait_for()
    assert "exaustão" in result.locator(".details").inner_text()


def test_undo_names_its_target_and_greys_out_what_it_took_back(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    table.command(gm, "rolar 1d6")
    table.command(gm, "rolar 1d8")  # same command name: still two commands
    before = len(table.events())
    ana.get_by_role("button", name="d20", exact=True).click()
    roll = wait_until(lambda: table.events()[before:], message="o d20 de Ana não rolou")[0]
    gm.locator(f"#log li[data-seq='{roll['seq']}']").wait_for()
    undo = gm.locator("#undo")
    undo.locator("small", has_text=roll["text"]).wait_for()  # what "Desfazer" would take back
    before = len(table.events())
    undo.click()
    note = wait_until(lambda: table.events()[before:], message="Desfazer não fez nada")[-1]
    assert note["data"]["desfeito"]
    entry = gm.locator(f"#log li[data-seq='{note['seq']}']")
    entry.wait_for()
    assert "undo-note" in entry.get_attribute("class")
    assert "undone" in gm.locator(f"#log li[data-seq='{roll['seq']}']").get_attribute("class")
    ana.locator(f"#log li.undo-note[data-seq='{note['seq']}']").wait_for()  # styled for her too
    rolls = [e for e in table.events() if e["command"] == "rolar" and e["seq"] < roll["seq"]]
    assert len(rolls) == 2
    assert "undone" not in gm.locator(f"#log li[data-seq='{rolls[1]['seq']}']").get_attribute("class")
    undo.locator("small", has_text=rolls[1]["text"]).wait_for()  # next in line: the 1d8
    undo.click()
    gm.locator(f"#log li.undone[data-seq='{rolls[1]['seq']}']").wait_for()
    assert "undone" not in gm.locator(f"#log li[data-seq='{rolls[0]['seq']}']").get_attribute("class")
    screenshot(gm, "mestre-desfeito")
    # after a reload the history comes in one piece: nothing is greyed or named by guesswork
    gm.reload()
    gm.locator("#status.on").wait_for()
    gm.locator(f"#log li.undo-note[data-seq='{note['seq']}']").wait_for()
    assert gm.locator("#log li.undone").count() == 0
    assert undo.locator("small").count() == 0


def test_the_hour_sits_next_to_the_day_on_all_three_pages(table: Table) -> None:
    ana = table.player("Ana")
    gm = table.gm()
    mesa = table.mesa()
    table.command(gm, "avançar")
    real = gm.evaluate("window.mesa.state").get("hora")
    pages = {gm: "#glance", ana: "#glance", mesa: "#clock"}
    if real:  # the engine gives the hour: every page shows it as given
        for page, where in pages.items():
            page.locator(f"{where} .hora", has_text=real).wait_for()
    for page, where in pages.items():
        state = page.evaluate("window.mesa.state")
        inject_state(page, {**state, "hora": "14h20"})
        shown = page.locator(f"{where} .hora")
        assert shown.inner_text() == "14h20"
        day = page.locator(where).inner_text()
        assert re.search(r"Dia 1\b[^\n]*14h20", day), day  # on the day's line
        inject_state(page, {k: v for k, v in state.items() if k != "hora"})
        assert page.locator(f"{where} .hora").count() == 0


# ---------------------------------------------------------------------------- a phone on the table


def test_a_waiting_prompt_counts_in_the_tab_title_and_vibrates(table: Table) -> None:
    """A phone lying on the table: each new prompt vibrates it (where the browser allows) and
    the tab title counts the prompts waiting for that player."""
    context = table.context(PHONE)
    context.add_init_script("window.__vibrated = [];"
                            "navigator.vibrate = (pattern) => { window.__vibrated.push(pattern);"
                            " return true; };")
    ana = table.page("/jogador", "/jogador", context)
    ana.get_by_label("Nome").fill("Ana")
    ana.get_by_role("button", name="Entrar").click()
    ana.locator("#status.on").wait_for()
    gm = table.gm()
    wait_until(lambda: ana.title() == "Mesa — Ana", message=ana.title())
    table.command(gm, "pânico Ana")
    wait_until(lambda: ana.title() == "(1) Mesa — Ana", message=ana.title())
    assert ana.evaluate("window.__vibrated.length") == 1
    table.command(gm, "pânico Ana")
    wait_until(lambda: ana.title() == "(2) Mesa — Ana", message=ana.title())
    assert ana.evaluate("window.__vibrated.length") == 2
    table.command(gm, "responder pedido 1 5")
    wait_until(lambda: ana.title() == "(1) Mesa — Ana", message=ana.title())
    assert ana.evaluate("window.__vibrated.length") == 2  # an answer does not buzz
    table.command(gm, "cancelar Ana")
    wait_until(lambda: ana.title() == "Mesa — Ana", message=ana.title())
