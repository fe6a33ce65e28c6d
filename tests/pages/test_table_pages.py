"""The second play-test evening's page points (issue 26: 2, 8, 9, 10) in real Chromium at
390×844, the phone the play-tests use. Each test failed before its fix:

- the GM phone's one-line last result showed "A tocha se apagou" after `dormir` with monsters
  arriving, and "O grupo explora o hex atual…" after Explorar instead of the Tabela D row;
- `ajuda` showed nothing where the GM looks (its list landed in the Registro, far below);
- layout at 390 px: /mesa wider than the screen, the report overflowing, the voice notice over
  the buttons, pending prompts below the fold, forced-march rest owed and who acted unseen;
- the Regras screen said "salvo" only at its top, and took a 1d4 over six rows silently.
"""
from __future__ import annotations

from typing import Any

from companion.engine.view import view_state
from companion.tables import protocol
from tests.browser_helpers import TABLE_PHONE, open_report, screenshot, wait_until
from tests.pages.page_helpers import Table


def _strip(gm: Any) -> Any:
    return gm.locator("#last-result .line")


def _in_view(page: Any, selector: str) -> bool:
    """The element's box lies inside the viewport (and is not under the sticky command bar)."""
    return page.eval_on_selector(selector, """node => {
        const box = node.getBoundingClientRect();
        const bar = document.querySelector('.commandbar');
        const shown = bar && bar.getBoundingClientRect().height > 0;
        const bottom = shown && !bar.contains(node) ? bar.getBoundingClientRect().top : window.innerHeight;
        return box.height > 0 && box.top >= 0 && box.bottom <= bottom + 1;
    }""")


def test_after_dormir_the_strip_shows_the_monsters_arriving(table: Table) -> None:
    """Seed 7: monsters arrive at the sleep's hour 3 while the torch goes out; the phone's one
    line is the arrival."""
    gm = table.gm(TABLE_PHONE)
    for text in ("personagem Ana", "personagem Bruno", "masmorra", "acender tocha", "turno",
                 "turno"):
        table.command(gm, text)
    events = table.command(gm, "dormir")
    assert any(e["text"].startswith("Os monstros chegam à sala do grupo na hora 3")
               for e in events), "a semente 7 deveria trazer os monstros na hora 3"
    arrival = next(e for e in events if e["text"].startswith("Encontro! Os monstros chegam"))
    wait_until(lambda: _strip(gm).count() == 1
               and _strip(gm).first.get_attribute("data-seq") == str(arrival["seq"]),
               message="a faixa do celular do Mestre não mostra a chegada dos monstros")
    assert "se apagou" not in gm.locator("#last-result").inner_text()
    screenshot(gm, "mesa26-dormir", full_page=False)


def test_after_explorar_the_strip_shows_the_tabela_d_row(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    gm.locator("#quick").get_by_role("button", name="Explorar").click()
    wait_until(lambda: any(e["command"] == "explorar" for e in table.events()))
    row = next(e for e in table.events() if e["data"].get("tabela") == "Tabela D: Eventos")
    wait_until(lambda: _strip(gm).count() == 1
               and _strip(gm).first.get_attribute("data-seq") == str(row["seq"]),
               message="a faixa do celular do Mestre não mostra a linha da Tabela D")
    shown = _strip(gm).first.inner_text()
    assert "Tabela D" in shown
    assert shown.startswith(row["data"]["resultado"]), "a linha do celular começa pelo nome da tabela"
    screenshot(gm, "mesa26-explorar", full_page=False)


def test_ajuda_shows_the_command_list_where_the_gm_looks(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    gm.evaluate("window.scrollTo(0, 0)")
    table.command(gm, "ajuda")
    answer = gm.locator("#answer-text")
    wait_until(lambda: answer.is_visible() and "avançar" in answer.inner_text(),
               message="a lista de comandos não apareceu perto da caixa de comando")
    assert _in_view(gm, "#answer"), "a resposta de 'ajuda' está fora da tela"
    screenshot(gm, "mesa26-ajuda", full_page=False)
    gm.get_by_role("button", name="Fechar a resposta").click()
    wait_until(lambda: not gm.locator("#answer").is_visible())


def _width(page: Any) -> int:
    """The page's width; the widest elements are named on stderr (for the failure's log)."""
    import sys
    print(page.evaluate("""() => [...document.querySelectorAll('body *')]
        .map((n) => [n.tagName + '#' + n.id + '.' + n.className, Math.round(n.getBoundingClientRect().right)])
        .filter(([, right]) => right > innerWidth).slice(0, 12)"""), file=sys.stderr)
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_table_screen_fits_a_390_px_phone(table: Table) -> None:
    mesa = table.open("/mesa", viewport=TABLE_PHONE)
    mesa.locator("#status.on").wait_for()
    screenshot(mesa, "mesa26-mesa-390", full_page=False)
    assert _width(mesa) <= TABLE_PHONE["width"], "a tela da mesa é mais larga que o celular"
    pill = mesa.locator("#status").bounding_box()
    assert pill["x"] >= 0 and pill["x"] + pill["width"] <= TABLE_PHONE["width"]
    title = mesa.locator(".topbar h1").bounding_box()
    line = mesa.evaluate("parseFloat(getComputedStyle(document.querySelector('.topbar h1')).lineHeight)")
    assert title["height"] < 1.5 * line, "o título da tela da mesa quebra em várias linhas"
    assert abs((pill["y"] + pill["height"] / 2) - (title["y"] + title["height"] / 2)) < line, \
        "o 'Conectado' não está ao lado do título"
    assert mesa.locator("header.topbar").bounding_box()["height"] < 150


def test_the_report_fits_a_390_px_phone_for_the_gm_and_a_player(table: Table) -> None:
    """Two sessions (so "Sessões da campanha" lists both), seen by the GM and by Ana."""
    ana = table.player("Ana", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    for text in ("personagem Ana", "avançar", "explorar", "encerrar sessão", "avançar"):
        table.command(gm, text)
    for who, page in (("mestre", gm), ("jogador", ana)):
        report = open_report(page)  # the page POSTs its token
        report.locator("h1").wait_for()
        screenshot(report, f"mesa26-relatorio-{who}")
        report.locator("#sessoes").scroll_into_view_if_needed()
        screenshot(report, f"mesa26-relatorio-{who}-sessoes", full_page=False)
        assert report.locator("#sessoes").count() == 1, "o relatório deveria listar as sessões"
        assert _width(report) <= TABLE_PHONE["width"], f"o relatório ({who}) passa da tela"
    assert ana.locator("#status.on").count() == 1


def test_the_voice_off_notice_waits_in_its_card_not_over_the_buttons(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    line = gm.locator("#voice-line")
    wait_until(lambda: line.inner_text().strip() != "", message="o aviso da voz não apareceu")
    screenshot(gm, "mesa26-primeira-carga", full_page=False)
    assert gm.eval_on_selector("#voice", "n => !n.closest('.commandbar')"), \
        "o aviso da voz desligada fica na barra de comando, sobre os botões"
    assert gm.eval_on_selector("#voice", "n => Boolean(n.closest('.order-speech'))")
    bar = gm.eval_on_selector(".commandbar", "n => n.getBoundingClientRect().height")
    assert bar < 130, f"a barra de comando ocupa {bar}px na primeira carga"


def test_pending_prompts_show_whole_on_the_gm_phone(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    for text in ("personagem Ana", "personagem Bia", "personagem Caio", "pânico Ana",
                 "pânico Bia"):
        table.command(gm, text)
    gm.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    button = gm.locator(".prompt.for-gm").first.get_by_role("button", name="Rolar por Ana")
    button.wait_for()
    gm.wait_for_timeout(200)
    screenshot(gm, "mesa26-pedidos", full_page=False)
    assert _in_view(gm, ".prompt.for-gm .roll-for"), \
        "o pedido pendente fica abaixo da dobra no celular do Mestre"


def test_the_round_line_says_who_acted_and_who_owes_rest(table: Table) -> None:
    """As the golden `marcha` script: the third advance in a row asks CON; Bruno fails and
    rests 2 rounds. Then Ana hunts (Carla has yet to act): the GM's "Agora" says both, without
    scrolling; the day's last round without rest keeps its warning there too."""
    gm = table.gm(TABLE_PHONE)
    bruno_phone = table.player("Bruno", TABLE_PHONE)
    ana_phone = table.player("Ana", TABLE_PHONE)
    for text in ("personagem Ana con 1", "personagem Bruno con 0", "personagem Carla",
                 "terreno colinas", "modo montado", "avançar", "avançar", "avançar",
                 "Ana tirou 15", "Bruno tirou 3", "Carla tirou 16", "escolho descansar"):
        table.command(gm, text)
    bruno = next(c for c in table.session.state.party if c.name == "Bruno")
    assert bruno.rest_rounds_owed == 2, "Bruno deveria dever 2 rodadas de descanso"
    line = gm.locator("#glance .fact", has_text="Nesta rodada")
    wait_until(lambda: line.count() == 1 and "Bruno deve 2 rodadas de descanso" in line.inner_text(),
               message="o Agora não diz quem deve descanso")
    table.command(gm, "caçar Ana")
    wait_until(lambda: "Ana já agiu (caçar)" in line.inner_text(),
               message="o Agora não diz quem já agiu nesta rodada")
    gm.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(gm, "mesa26-nesta-rodada", full_page=False)
    assert _in_view(gm, "#glance .fact.round")
    # each player reads who acted; only Bruno reads his own rest owed (a detail of his sheet)
    for phone, owes in ((bruno_phone, True), (ana_phone, False)):
        fact = phone.locator("#glance .fact", has_text="Nesta rodada")
        wait_until(lambda fact=fact: "Ana já agiu (caçar)" in fact.inner_text())
        assert ("Bruno deve" in fact.inner_text()) is owes
    screenshot(bruno_phone, "mesa26-nesta-rodada-jogador", full_page=False)
    for _ in range(8):  # on to the day's last round (the GM waives any test on the way)
        if table.session.state.prompts:
            table.command(gm, "cancelar")
        elif _restless(table):  # read from the session: the page's view comes a moment later
            break
        else:
            table.command(gm, "explorar")  # a group activity: the rounds pass
    assert _restless(table), "o grupo não chegou à última rodada do dia sem descanso"
    alert = gm.locator("#gm-alerts .gm-alert", has_text="ainda não descansou hoje")
    alert.wait_for()
    gm.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    assert _in_view(gm, "#gm-alerts .gm-alert:last-child")
    screenshot(gm, "mesa26-sem-descanso", full_page=False)


def _restless(table: Table) -> bool:
    """The session's own GM view says the day's last round began without rest (the reminder
    the GM's page shows as an alert)."""
    view = view_state(table.session.state, protocol.GM, table.session.tables)
    return view["mestre"]["sem_descanso_hoje"] is not None


def _open_rules(gm: Any) -> None:
    gm.get_by_role("button", name="Regras").click()
    gm.locator("#rules-regions details.region").first.wait_for()


def test_the_rules_screen_says_salvo_next_to_the_field(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    _open_rules(gm)
    torch = gm.locator("#regra-casa-luz-tocha-turnos")
    torch.scroll_into_view_if_needed()
    torch.fill("4")
    torch.evaluate("n => n.blur()")  # the keyboard closed: the field's change, checked, saved
    wait_until(lambda: table.session.overrides.get("casa", {}).get("luz", {}).get("tocha"),
               message="a tocha não foi salva")
    near = gm.locator("#regra-casa-luz-tocha-turnos-msg")
    wait_until(lambda: "salvo" in near.inner_text(), message="'salvo' não apareceu junto do campo")
    screenshot(gm, "mesa26-regras-salvo", full_page=False)
    assert _in_view(gm, "#regra-casa-luz-tocha-turnos-msg")
    assert not _in_view(gm, "#rules-status"), "o teste quer o campo longe do aviso do topo"


def test_a_die_that_never_gives_some_rows_is_warned(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    _open_rules(gm)
    gm.get_by_label("Nome da região").last.fill("Floresta Sombria")
    gm.locator("#nova-regiao-terreno").select_option("floresta")
    gm.get_by_role("button", name="Criar região").click()
    region = gm.locator("#regiao-floresta-sombria")
    region.wait_for()
    wait_until(lambda: "salvo" in gm.locator("#regiao-floresta-sombria-salvo").inner_text())
    dice = gm.locator("#regiao-floresta-sombria-dados")
    dice.fill("1d4")
    message = gm.locator("#regiao-floresta-sombria-msg")
    wait_until(lambda: "as linhas 5 e 6 nunca saem" in message.inner_text(),
               message="o 1d4 com seis linhas não avisou")
    assert dice.get_attribute("aria-invalid") is None  # a warning, not a refusal
    screenshot(gm, "mesa26-regras-1d4", full_page=False)
    assert _in_view(gm, "#regiao-floresta-sombria-msg"), "o aviso não está junto do dado"
    region.get_by_role("button", name="Salvar região").click()
    wait_until(lambda: table.session.overrides["encontros"]["regioes"]["floresta-sombria"][
        "dados"] == "1d4", message="a região não foi salva")
    saved = gm.locator("#regiao-floresta-sombria-salvo")
    wait_until(lambda: "salvo" in saved.inner_text() and "nunca saem" in saved.inner_text())
    assert _in_view(gm, "#regiao-floresta-sombria-salvo"), "'salvo' longe do botão Salvar"


def test_a_player_sees_their_own_modifiers_and_not_the_others(table: Table) -> None:
    """Issue 26 point 11: the player's own card shows its attribute modifiers (CON +1, DES +2),
    as they roll with them; another player's card on their phone does not."""
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    bruno = table.player("Bruno", TABLE_PHONE)
    table.command(gm, "personagem Ana con 1 des 2")
    table.command(gm, "personagem Bruno con -1")
    mine = ana.locator("#me .pc")
    wait_until(lambda: "CON +1" in mine.inner_text() and "DES +2" in mine.inner_text(),
               message="Ana não vê os próprios modificadores")
    wait_until(lambda: "CON -1" in bruno.locator("#me .pc").inner_text(),
               message="Bruno não vê o próprio modificador")
    others = ana.locator('.pc[data-personagem="bruno"]')  # Bruno's card on Ana's phone
    assert all("CON" not in others.nth(i).inner_text() for i in range(others.count()))
    screenshot(ana, "mesa26-modificadores", full_page=False)
