"""The Regras screen's voice names and its lists, maps and choices (issue 19 item 2), on the
GM's phone in Chromium at 390×844: a spell added to the voice's list (a name the voice cannot
hear refused in place, as it is typed) reaches `companion voz frases --db`; a name the
campaign learned from a typed command is forgotten from the phone; a [mínimo, máximo] pair, a
map and a closed choice edited and checked by the server's own loader; no accessibility
violation."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from companion.voice.learned import campaign_learned
from tests.browser_helpers import README_SHOTS, TABLE_PHONE, wait_until
from tests.pages.page_helpers import Table

ROOT = Path(__file__).resolve().parents[2]


def phrases(db: str) -> list[str]:
    """`companion voz frases --db` of the campaign the server has open."""
    done = subprocess.run([sys.executable, "-m", "companion", "voz", "frases", "--db", db],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def open_rules(gm: Any) -> None:
    gm.get_by_role("button", name="Regras").click()
    gm.locator("#nomes-magia").wait_for()


def test_the_gm_edits_the_voice_names_from_the_phone(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "masmorra")
    table.command(gm, "monstro Górgona Anciã na sala 2")
    db = str(table.session.db_path)
    open_rules(gm)

    # a spell: one the voice cannot hear is refused as it is typed; a good one is a rule
    spells = gm.locator("#nomes-magia")
    new = spells.get_by_label("Nome novo (magias)")
    new.fill("bola de fogo 3")
    message = spells.locator(".rule-msg")
    wait_until(lambda: "um nome que a voz possa ouvir" in message.inner_text(),
               message="o nome com número passou")
    assert "magia[0]" in message.inner_text() and new.get_attribute("aria-invalid") == "true"
    assert table.session.overrides == {}  # typing is a dry run
    new.fill("Raio do Trovão")
    wait_until(lambda: message.inner_text().strip() == "", message="o aviso não saiu")
    spells.get_by_role("button", name="Acrescentar").click()
    wait_until(lambda: table.session.overrides.get("nomes_da_voz") == {
        "magia": ["Raio do Trovão"]}, message="a magia não foi acrescentada")
    gm.locator("#nomes-magia .voice-name", has_text="Raio do Trovão").wait_for()
    assert any("raio do trovão" in p for p in phrases(db))
    width = "document.documentElement.scrollWidth"
    assert gm.evaluate(width) <= TABLE_PHONE["width"]

    # a learned name, forgotten from the phone (no command: nothing to undo)
    learned = gm.locator("#nomes-aprendidos")
    learned.locator(".voice-name", has_text="Górgona Anciã").wait_for()
    assert "monstro" in learned.inner_text()
    assert any("górgona anciã" in p for p in phrases(db))
    last = table.session.last_seq()
    if os.environ.get("SCREENSHOTS") == "1":  # the README's picture of the section
        README_SHOTS.mkdir(parents=True, exist_ok=True)
        gm.set_viewport_size({"width": TABLE_PHONE["width"], "height": 1340})
        gm.locator("#h-nomes").evaluate(
            "h => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 64)")
        gm.screenshot(path=str(README_SHOTS / "regras-nomes.png"))
        gm.set_viewport_size(TABLE_PHONE)
    learned.get_by_role("button", name="Esquecer Górgona Anciã").click()
    wait_until(lambda: campaign_learned(db, table.session.tables) == [],
               message="o nome não foi esquecido")
    wait_until(lambda: "Górgona Anciã" not in learned.inner_text(),
               message="a tela ainda mostra o nome")
    assert "a voz não ouve mais" in gm.locator("#rules-status").inner_text()
    assert not any("górgona" in p for p in phrases(db))
    assert table.session.last_seq() == last

    # a [mínimo, máximo] pair: refused in place when the minimum passes the maximum
    level = gm.locator("fieldset.rule-field", has=gm.locator("#regra-personagem-limites_personagem-nivel-0"))
    low = level.get_by_label("mínimo")
    low.fill("30")
    level_message = level.locator(".rule-msg")
    wait_until(lambda: "[mínimo, máximo]" in level_message.inner_text(),
               message="o par invertido passou")
    assert low.get_attribute("aria-invalid") == "true"
    low.fill("2")
    low.press("Tab")
    wait_until(lambda: table.session.tables.get("personagem", "limites_personagem", "nivel")
               == [2, 20], message="o limite não mudou")
    changed = gm.locator("fieldset.rule-field.changed",
                         has=gm.locator("#regra-personagem-limites_personagem-nivel-0"))
    changed.wait_for()  # the screen shows the rules in force again

    # a map: each character's hit die (a bad die refused, then a good one saved)
    dice = gm.locator("fieldset.rule-field", has=gm.locator("#regra-casa-descanso-dados_de_vida-msg"))
    dice.get_by_role("button", name="Acrescentar personagem").click()
    dice.get_by_role("textbox", name="personagem (id)").fill("ana")
    die = dice.get_by_role("textbox", name="dado de vida")
    die.fill("d0")
    wait_until(lambda: "dados_de_vida.ana" in dice.locator(".rule-msg").inner_text(),
               message="o dado ruim passou")
    die.fill("d6")
    die.press("Tab")
    wait_until(lambda: table.session.tables.get("casa", "descanso", "dados_de_vida")
               == {"ana": "d6"}, message="o dado da Ana não foi salvo")

    # a closed choice is a list to pick from, shown in words
    season = gm.locator("#regra-inicio-estacao-valor")
    assert season.evaluate("s => s.tagName") == "SELECT"
    season.select_option(label="verão")
    wait_until(lambda: table.session.tables.get("inicio", "estacao", "valor") == "verao",
               message="a estação não mudou")
    assert gm.evaluate(width) <= TABLE_PHONE["width"]

    # the campaign's spell taken away again: a rules change like its adding
    gm.get_by_role("button", name="Tirar Raio do Trovão (Magias)").click()
    wait_until(lambda: "nomes_da_voz" not in table.session.overrides,
               message="a magia não saiu")
    assert not any("raio do trovão" in p for p in phrases(db))
    gm.locator("#nomes-magia .voice-name").wait_for(state="detached")

    found = Axe().run(gm).response["violations"]
    assert [f"{v['id']}: {[n['target'] for n in v['nodes'][:3]]}" for v in found] == []
