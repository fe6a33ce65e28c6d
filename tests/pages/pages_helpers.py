"""Helpers shared by the test_pages test modules."""
from __future__ import annotations

from typing import Any

from tests.browser_helpers import (
    GM_TOKEN,
    readme_screenshot,
    screenshot,
)
from tests.pages.page_helpers import (Table)


EVENING_SO_FAR = (
    "personagem Ana nível 2 pv máximo 12 pv 10 sanidade 9 comida 3 água 3 munição 12",
    "personagem Bia nível 2 pv máximo 10 pv 4 sanidade 5 comida 2 água 2 exaustão 1",
    "personagem Caio nível 3 pv 14 pv máximo 18 sanidade 11 comida 1 água 1",
    "estação outono", "terreno floresta", "avançar", "explorar", "forragear",
    "masmorra arriscado", "marcha Ana, Bia e Caio", "acender tocha",
    "magia Escudo arcano 3 turnos", "monstro Goblin na sala 2", "monstro Ogro Zarolho na sala 7",
    "turno", "turno", "pânico Ana", "responder valor 20", "o monstro Ogro Zarolho foi alertado",
    "segredo 1d20 procurar portas secretas", "derrotados 3 goblins",
    "tesouro 50 moedas de ouro", "item 1 corda élfica", "pânico Ana", "pânico Ana", "surpresa",
)


def play_the_evening_and_shoot(table: Table) -> None:
    ana, bia, _caio = table.player("Ana"), table.player("Bia"), table.player("Caio")
    gm = table.gm()
    mesa = table.mesa()
    laptop = table.open(f"/mestre?token={GM_TOKEN}", viewport={"width": 1366, "height": 900})
    for text in EVENING_SO_FAR:
        table.command(gm, text)
    ana.locator(".prompt.current").wait_for()
    assert ana.locator(".prompt.compact").count() == 1  # the older one, compact above it
    gm.locator("#prompts .prompt.current").wait_for()
    ana.locator("#me .stat.damage", has_text="Dano de SAB 2").wait_for()
    gm.locator("#last-result .line").first.wait_for()  # the last command's outcome, at hand
    assert "surpres" in gm.locator("#last-result").inner_text().lower()  # one line, on a phone
    mesa.locator("#latest li").first.wait_for()
    laptop.locator("#gm-only", has_text="Ogro Zarolho").wait_for()
    screenshot(gm, "mestre", full_page=False)
    screenshot(ana, "jogador", full_page=False)
    screenshot(mesa, "mesa", full_page=False)
    screenshot(gm, "mestre-inteiro")
    screenshot(bia, "jogador-bia")
    screenshot(laptop, "mestre-notebook", full_page=False)
    assert gm.locator("#log li").count() >= 5
    tally = gm.locator("#tally").inner_text()
    assert "3 goblins" in tally and "50 moedas de ouro" in tally and "d20" in tally
    assert "Ana" in ana.locator("#me").inner_text() and "Bia" in ana.locator("#party").inner_text()
    assert "Escudo arcano" in mesa.locator("#glance").inner_text()
    mesa.locator("#url", has_text="192.168.0.12:8765").wait_for()
    # on a laptop the log sits beside the actions, not below them
    log, actions = laptop.locator("#log").bounding_box(), laptop.locator("#quick").bounding_box()
    assert log["x"] > actions["x"] + actions["width"] and log["y"] < 300
    readme_screenshot(gm, "mestre", height=2000)
    readme_screenshot(ana, "jogador", height=1100)
    readme_screenshot(mesa, "mesa")
    readme_screenshot(laptop, "mestre-notebook")


# ---------------------------------------------------------------------------- an evening's complaints


LONG_NONSENSE = ("voar até a lua " + "e voltar pela estrada velha do norte " * 7).strip()  # < 300


FULL_STATE = {
    "modo": "viagem", "relogio": "Dia 2 · rodada 5 de 6 (16h–20h)", "clima": "Frio e ventoso",
    "viagem": {"modo_nome": "Andando", "hexes": 2, "acampamento_seguro": True, "vigia": "bia"},
    "grupo": [{"id": "ana", "nome": "Ana", "pv": 5, "pv_max": 8, "proprio": True,
               "dano_atributos": {"con": 1, "sab": 2, "for": 0}},
              {"id": "bia", "nome": "Bia", "pv": 6, "pv_max": 6}],
    "pedidos": [],
}
BARE_STATES = [
    {},
    {"grupo": [{"nome": "Ana"}], "viagem": {}},
    {"grupo": [{"id": "ana", "dano_atributos": None, "dano_atributo": {}}],
     "viagem": {"vigia": None}, "masmorra": None, "pedidos": [{"id": 1}]},
    {"grupo": [{"id": "ana", "dano_atributos": [{"atributo": "des", "dano": 1}, "Doença"]}],
     "viagem": {"vigia": {"id": "ana", "nome": "Ana"}}},
]


def inject_state(page: Any, state: dict) -> None:
    """Hand the page an `estado` as if the server had sent it (its own listeners render it)."""
    page.evaluate("s => window.mesa.conn.socket.listeners('estado').forEach(f => f(s))", state)
