"""`estado`: the table's summary, the GM's secret line, a player's own sheet."""
from __future__ import annotations

from dataclasses import replace

from companion.engine.model import Dungeon, Monster, Prompt, State, Travel
from companion.tables.files import Tables
from tests.play_helpers import Play
from tests.rules_helpers import new_character

# ---------------------------------------------------------------- estado

def secret_state() -> State:
    return State(party=(new_character(id="ana", name="Ana"),), travel=Travel(lost=True), secrets=("porta: 1d20 = 3",),
                 dungeon=Dungeon(monsters=(Monster(name="Ogro", room="3"),)),
                 prompts=(Prompt(id=1, kind="panico", character="ana", text="teste"),))


def test_estado_gives_the_table_a_summary_and_the_gm_a_secret_line(tables):
    play = Play(tables, secret_state())
    events = play("estado")
    public = [e for e in events if e.visibility == "public"]
    gm = [e for e in events if e.visibility == "gm"]
    assert len(public) == 1 and len(gm) == 1
    assert all(e.kind == "estado" for e in events)
    assert "Ana PV 8/8" in public[0].text and "Dia 1" in public[0].text
    assert "Ogro" not in public[0].text and "porta" not in public[0].text
    assert "mestre" not in public[0].data["estado"]
    assert "perdidos: sim" in gm[0].text and "Ogro (sala 3)" in gm[0].text
    assert "porta: 1d20 = 3" in gm[0].text and "1 Teste de pânico (Ana)" in gm[0].text


def test_estado_says_which_monsters_are_alerted(tables):
    monsters = (Monster(name="Ogro", room="3", alerted=True), Monster(name="Rato", alerted=True),
                Monster(name="Goblin"))
    play = Play(tables, replace(secret_state(), dungeon=Dungeon(active=True, monsters=monsters)))
    gm = [e for e in play("estado") if e.visibility == "gm"]
    assert "monstros: Ogro (sala 3, alertado), Rato (alertado), Goblin;" in gm[0].text


def test_estado_shows_the_time_of_day_in_the_dungeon(tables):
    state = State(minutes=3 * 24 * 60 + 14 * 60 + 20, dungeon=Dungeon(active=True, turn=9))
    events = Play(tables, state)("estado")
    assert events[0].text.startswith("Dia 4 · 14h20 · turno 9 na masmorra")


def test_estado_for_a_player_goes_only_to_them(tables):
    play = Play(tables, secret_state())
    events = play("estado", actor="player:ana")
    assert [e.visibility for e in events] == ["player:ana"]
    assert "Ogro" not in str(events[0].data) and "porta" not in str(events[0].data)


def test_estado_shows_attribute_damage_and_hexes_with_a_comma(tables):
    hurt = new_character(id="ana", name="Ana", attribute_damage={"sab": 2, "con": 1}, food=0,
                         water=0)
    play = Play(tables, State(party=(hurt,), travel=Travel(hexes=1.5)))
    (public, _) = play("estado")
    assert "1,5 hex" in public.text
    assert "Ana PV 8/8 San 10 Exa 0 Com 0 Água 0 Mun 0 Dano SAB 2, CON 1" in public.text


def test_estado_in_a_dungeon_still_says_lost(tables):
    """The party lost in the hexcrawl is still lost inside a dungeon: never 'perdidos: não'."""
    play = Play(tables, replace(secret_state(), dungeon=Dungeon(active=True)))
    (_, gm) = play("estado")
    assert "perdidos: sim" in gm.text


def test_a_sheet_lists_exhaustion_effects_in_one_sentence(tables: Tables) -> None:
    ana = new_character(id="ana", name="Ana", exhaustion=2)
    play = Play(tables, State(party=(ana,)))
    (said,) = [e.text for e in play("estado", personagem="Ana")]
    assert "DESV em todas as rolagens e não adiciona modificadores" in said, said
