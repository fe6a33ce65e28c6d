"""`ajuda`: the commands of the current mode, and only the asker's own for a player."""
from __future__ import annotations

from companion.engine.model import Chase, Dungeon
from tests.play_helpers import ana_and_tired_bia

# ---------------------------------------------------------------- ajuda

def help_names(events) -> set[str]:
    (event,) = events
    assert event.kind == "ajuda"
    return {c["nome"] for c in event.data["comandos"]}


def test_ajuda_in_travel(tables):
    play = ana_and_tired_bia(tables)
    events = play("ajuda")
    names = help_names(events)
    assert events[0].visibility == "gm"
    assert {"avancar", "explorar", "acampar", "rolar", "panico", "dormir"} <= names
    assert not {"turno", "fuga"} & names
    assert "avançar — o grupo segue" in events[0].text


def test_ajuda_in_the_dungeon(tables):
    play = ana_and_tired_bia(tables, dungeon=Dungeon(active=True))
    names = help_names(play("ajuda"))
    assert {"turno", "dormir", "luz", "descansar", "rolar"} <= names
    assert not {"avancar", "explorar", "fuga"} & names


def test_ajuda_in_a_chase(tables):
    play = ana_and_tired_bia(tables, chase=Chase(phase="ativa"))
    names = help_names(play("ajuda"))
    assert {"fuga", "distancia", "rolar", "avancar"} <= names  # core lets travel go on
    assert "turno" not in names
    in_dungeon = ana_and_tired_bia(tables, chase=Chase(phase="ativa"), dungeon=Dungeon(active=True))
    names = help_names(in_dungeon("ajuda"))
    assert {"fuga", "turno"} <= names and "avancar" not in names


def test_ajuda_for_a_player_lists_only_their_commands(tables):
    play = ana_and_tired_bia(tables)
    events = play("ajuda", actor="player:ana")
    assert events[0].visibility == "player:ana"
    specs = tables.get("comandos", "comandos")
    names = help_names(events)
    assert names == {n for n, spec in specs.items() if spec.get("jogador")}
    assert "avancar" not in names and "rolar" in names
