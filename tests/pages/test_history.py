"""The GM's phone tells what changed in the rules since the last evening (issue 16): shown at
the top of the page, without scrolling, until the GM closes it; never on a player's phone."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.server.app import start_in_thread
from companion.session import Session
from tests.browser_helpers import GM_TOKEN, screenshot, wait_until
from tests.report_helpers import play
from tests.rules_helpers import changed_rules
from tests.pages.page_helpers import Table, body_text

PHONE = {"width": 390, "height": 844}


def test_the_gm_phone_shows_the_rules_that_changed_until_closed(tmp_path: Path, tables: Any,
                                                                browser: Any) -> None:
    db = tmp_path / "mesa.db"
    first = Session.open(db, 7, tables, gm_token=GM_TOKEN)
    ana_seat = first.join_player("Ana")
    play(first, ["personagem Ana", "masmorra", "acender tocha", "turno"])
    first.close()
    shorter = changed_rules(tmp_path, "casa.yaml", "turnos: 6", "turnos: 2")
    session = Session.open(db, None, shorter, gm_token=GM_TOKEN)
    server = start_in_thread(session)
    table = Table(session, server, browser)
    try:
        context = table.context(PHONE)
        gm = table.open(f"/mestre?token={GM_TOKEN}", context)
        notice = gm.locator("#gm-notices .gm-alert.notice")
        notice.wait_for()
        assert "As regras mudaram" in notice.inner_text()
        assert "casa.yaml: luz.tocha.turnos 6 → 2" in notice.inner_text()
        box = notice.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + 40 <= PHONE["height"], box
        screenshot(gm, "regras-mudaram-mestre", full_page=False)

        # Ana's phone of last evening: her seat, from her link (a join by name is refused)
        ana = table.open(f"/jogador#token={ana_seat.token}", table.context(PHONE))
        ana.locator("#status.on").wait_for()
        wait_until(lambda: "Tocha" in body_text(ana) or "tocha" in body_text(ana))
        assert "luz.tocha" not in body_text(ana) and "regras mudaram" not in body_text(ana)

        notice.get_by_role("button", name="Entendi").click()
        notice.wait_for(state="detached")
        gm.reload()
        gm.locator("#status.on").wait_for()
        gm.locator("#log li").first.wait_for()
        assert gm.locator("#gm-notices .gm-alert").count() == 0  # closed stays closed
        assert "luz.tocha.turnos" in gm.locator("#log").inner_text()  # still in the log
        assert table.errors == []
    finally:
        table.close()
        server.stop()
        session.close()
