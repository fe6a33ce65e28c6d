"""Seats in real Chromium on phones (390×844), against a real server (issue 17): the player's
second device joins from the link and QR code the first one shows; a phone typing a seated name
is refused; the GM's list of seats says who is on the air and since when, and "Liberar" frees a
seat (its phones go back to the join form with the reason, the next phone by that name takes the
character); "Sair" asks in the page before it frees the seat."""
from __future__ import annotations

import logging
from typing import Any

from companion.rules.pages import page_data
from tests.browser_helpers import GM_TOKEN, screenshot, wait_until
from tests.pages.page_helpers import Table, body_text, live_table

PHONE = {"width": 390, "height": 844}


def phone(table: Table, path: str = "/jogador") -> Any:
    return table.open(path, table.context(PHONE))


def join(page: Any, name: str) -> None:
    page.get_by_label("Nome").fill(name)
    page.get_by_role("button", name="Entrar").click()


def joined(table: Table, name: str) -> Any:
    page = phone(table)
    join(page, name)
    page.locator("#who", has_text=name).wait_for()
    page.locator("#status.on").wait_for()
    return page


def token_of(page: Any) -> str | None:
    return page.evaluate("localStorage.getItem('mesa.jogador.token')")


def texts(table: Table) -> dict[str, str]:
    return page_data(table.session.tables)["lugares"]


def seat_line(gm: Any, character: str) -> Any:
    return gm.locator(f"#seats li.seat[data-personagem='{character}']")


def test_a_second_device_joins_from_the_link_and_the_gm_frees_the_seat(
        table: Table, caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="werkzeug")
    words = texts(table)
    gm = table.open(f"/mestre?token={GM_TOKEN}", table.context(PHONE))
    gm.locator("#status.on").wait_for()
    ana = joined(table, "Ana")
    bia = joined(table, "Bia")
    token = token_of(ana)

    # Ana's second device: the link (and its QR code) on her first phone
    ana.get_by_role("button", name=words["outro_aparelho"]).click()
    qr = ana.locator("#device img.device-qr")
    qr.wait_for()
    wait_until(lambda: ana.evaluate("document.querySelector('#device img').naturalWidth") > 0,
               message="o QR code do outro aparelho não carregou")
    link = ana.locator("#device a.device-url").inner_text()
    assert link.endswith(f"/jogador#token={token}") and "?" not in link
    assert qr.bounding_box()["width"] <= PHONE["width"]
    screenshot(ana, "lugar-outro-aparelho", full_page=False)
    second = phone(table, link.replace(link.split("/jogador")[0], ""))
    second.locator("#who", has_text="Ana").wait_for()
    second.locator("#status.on").wait_for()
    assert token_of(second) == token
    assert second.evaluate("window.location.hash") == ""  # the token leaves the address bar
    assert [p.token for p in table.session.players() if p.character_id == "ana"] == [token]
    assert token not in caplog.text  # the server's request log never saw it

    # the GM's list: who, on the air on how many phones, since when
    line = seat_line(gm, "ana")
    wait_until(lambda: "2 aparelhos" in line.inner_text(),
               message="os dois aparelhos de Ana no quadro do Mestre")
    # how long ago, never a wall-clock hour beside the game's hours (issue 31 item 6)
    assert "agora há pouco" in line.inner_text() and "desde" not in line.inner_text()
    ago = gm.evaluate("""async () => {
        const { sinceText } = await import('/static/js/lugares.js');
        const now = new Date('2026-12-06T21:42:00');
        return ['2026-12-06T21:30:00', '2026-12-06T20:20:00', '2026-12-06T19:42:00',
                '2026-12-06T21:41:30'].map((iso) => sinceText(iso, now));
    }""")
    assert ago == ["há 12 min", "há 1 h 22 min", "há 2 h", "agora há pouco"], ago
    assert "no ar" in seat_line(gm, "bia").inner_text()
    seat_line(gm, "bia").scroll_into_view_if_needed()
    screenshot(gm, "lugares-mestre", full_page=False)

    # a third phone typing "ana" is told the seat is taken, and gets nothing of Ana's
    other = phone(table)
    join(other, "ana")
    refusal = other.locator("#join-error")
    refusal.wait_for()
    assert "ocupado" in refusal.inner_text() and "Mestre" in refusal.inner_text()
    assert token_of(other) is None
    assert len(table.session.players()) == 2  # Ana's and Bia's

    # the GM frees Ana's seat, asked once more first
    undo_before = gm.locator("#undo").inner_text()
    free = line.get_by_role("button", name=f"{words['liberar']}: Ana")
    free.click()
    confirm = line.get_by_role("button", name=words["confirmar_liberar"].replace("{nome}", "Ana"))
    confirm.wait_for()
    assert table.session.player_by_token(token) is not None  # not yet
    confirm.click()
    reason = table.session.tables.narration.render("entrada.aparelho_saiu",
                                                   {"nome": "Ana", "por": "gm"})
    for page in (ana, second):
        page.locator("#join-error", has_text=reason[:40]).wait_for()
        assert page.get_by_label("Nome").is_visible()
        assert token_of(page) is None
    screenshot(second, "lugar-liberado-jogador", full_page=False)
    assert table.session.player_by_token(token) is None
    wait_until(lambda: words["livre"] in line.inner_text(), message="Ana livre no quadro")
    freed = next(e for e in table.events() if e["command"] == "lugar_liberado")
    gm.locator(f"#log li[data-seq='{freed['seq']}']").wait_for()
    assert gm.locator("#undo").inner_text() == undo_before  # the freeing is not undone
    assert freed["text"] not in body_text(bia)

    # the next phone to join as Ana takes the character
    join(other, "Ana")
    other.locator("#who", has_text="Ana").wait_for()
    other.locator("#status.on").wait_for()
    assert token_of(other) not in (None, token)
    wait_until(lambda: "no ar" in line.inner_text() and words["livre"] not in line.inner_text(),
               message="Ana ocupada de novo")


def test_leaving_asks_in_the_page_and_frees_the_seat(table: Table) -> None:
    words = texts(table)
    ana = joined(table, "Ana")
    token = token_of(ana)
    ana.get_by_role("button", name="Sair").click()
    dialog = ana.get_by_role("dialog")
    dialog.wait_for()
    assert words["sair_pergunta"].replace("{nome}", "Ana") in dialog.inner_text()
    screenshot(ana, "sair-confirmar", full_page=False)
    dialog.get_by_role("button", name=words["sair_cancelar"]).click()
    dialog.wait_for(state="hidden")
    assert ana.locator("#who").inner_text() == "· Ana" and token_of(ana) == token
    assert table.session.player_by_token(token) is not None

    ana.get_by_role("button", name="Sair").click()
    dialog.get_by_role("button", name=words["sair_confirmar"]).click()
    note = ana.locator("#join-note")
    note.wait_for()
    assert note.inner_text() == words["saiu"].replace("{nome}", "Ana")
    assert ana.get_by_label("Nome").is_visible() and token_of(ana) is None
    assert table.session.player_by_token(token) is None
    assert any(e["command"] == "lugar_liberado" for e in table.events())
    back = joined(table, "Ana")  # the character stays in the game for the next phone
    assert [c.id for c in table.session.state.party] == ["ana"]
    assert token_of(back) != token


def test_a_name_joins_when_the_gm_accepts_it_and_not_when_refused(
        tmp_path: Any, tables: Any, browser: Any) -> None:
    """The real rule (issue 25): a phone by name waits, the GM's page asks "Eva quer entrar —
    aceitar?"; Aceitar lets it in, Recusar sends it back to the form saying why."""
    with live_table(tmp_path, tables, browser, open_joins=False) as door:
        words = texts(door)
        gm = door.open(f"/mestre?token={GM_TOKEN}", door.context(PHONE))
        gm.locator("#status.on").wait_for()
        eva = phone(door)
        join(eva, "Eva")
        eva.locator("#join-note", has_text="aguarde o Mestre").wait_for()
        assert eva.get_by_label("Nome").is_visible() and token_of(eva) is None
        asked = gm.locator("#entries li.entry", has_text=words["pedido_novo"].replace(
            "{nome}", "Eva"))
        asked.wait_for()
        # on top of the GM's phone, seen without scrolling (not down in "Lugares")
        assert asked.evaluate("e => e.getBoundingClientRect().bottom <= innerHeight"), \
            "o pedido de entrada fica abaixo da dobra no celular do Mestre"
        assert door.session.players() == []
        screenshot(gm, "entrada-pedido-mestre", full_page=False)
        asked.get_by_role("button", name=f"{words['aceitar']}: Eva").click()
        eva.locator("#who", has_text="Eva").wait_for()
        eva.locator("#status.on").wait_for()
        assert token_of(eva) is not None
        asked.wait_for(state="detached")
        wait_until(lambda: "no ar" in seat_line(gm, "eva").inner_text(),
                   message="Eva no quadro de lugares")

        bia = phone(door)
        join(bia, "Bia")
        refused = gm.locator("#entries li.entry", has_text="Bia")
        refused.get_by_role("button", name=f"{words['recusar']}: Bia").click()
        bia.locator("#join-error", has_text="não aceitou a entrada de Bia").wait_for()
        assert bia.get_by_role("button", name="Entrar").is_enabled()
        assert all(c.id != "bia" for c in door.session.state.party)


def test_the_gm_hands_a_free_seat_with_a_one_time_qr_code(table: Table) -> None:
    """The GM made Eva: "Convite" on her line shows a QR code and link (made by the server);
    the phone that opens it is Eva at once, with no request at the door and no code left in
    its address; the GM's line says Eva is on the air and the invitation is gone."""
    words = texts(table)
    gm = table.open(f"/mestre#token={GM_TOKEN}", table.context(PHONE))
    gm.locator("#status.on").wait_for()
    table.command(gm, "personagem Eva")
    line = seat_line(gm, "eva")
    line.get_by_role("button", name=f"{words['convidar']}: Eva").click()
    qr = line.locator(".seat-invite img.device-qr")
    qr.wait_for()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
    link = line.locator(".seat-invite a.device-url").get_attribute("href") or ""
    assert link.startswith(f"{table.server.url}/jogador#convite=")
    screenshot(gm, "lugares-convite")
    eva = table.open(link.removeprefix(table.server.url), table.context(PHONE))
    eva.locator("#who", has_text="Eva").wait_for()
    eva.locator("#status.on").wait_for()
    assert eva.url == f"{table.server.url}/jogador"  # the code left the address bar
    assert token_of(eva)
    assert gm.locator("#entries li.entry").count() == 0  # nobody asked at the door
    line.locator(".seat-invite").wait_for(state="detached")  # taken: the invitation is gone
    wait_until(lambda: "no ar" in line.inner_text(), message="Eva no ar no quadro do Mestre")
    again = table.open(link.removeprefix(table.server.url), table.context(PHONE))
    again.locator("#join-error").wait_for()
    assert "não vale mais" in body_text(again)  # used once


def test_the_gm_page_runs_a_minute_of_its_timers_without_an_error(table: Table) -> None:
    """The GM page's clocks ("há N min" of the seats, the requests to join) tick every 30 s:
    a minute of them on a faked clock raises no JavaScript error (the table's check after the
    test fails on any)."""
    context = table.context()
    context.clock.install()
    gm = table.page("mestre", f"/mestre?token={GM_TOKEN}", context)
    gm.locator("#status.on").wait_for()
    table.player("Ana")
    line = seat_line(gm, "ana")
    wait_until(lambda: "no ar" in line.inner_text(), message="Ana no ar no quadro do Mestre")
    gm.clock.run_for(61_000)
    assert table.errors == [], table.errors
