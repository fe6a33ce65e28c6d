"""The session form: defeated per region, treasure, items and dice per type."""
from __future__ import annotations

import copy

import pytest

from companion.engine.model import Dungeon, Monster, State, Travel
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play


def test_defeated_default_to_the_current_terrain(tables):
    play = Play(tables, State(travel=Travel(terrain="pantano")))
    events = play("derrotados", quantidade=3, criatura="goblins")
    assert play.state.tally.defeated == {"Pântano": {"goblins": 3}}
    assert events[0].visibility == "public" and "3 goblins no Pântano" in events[0].text


def test_defeated_say_the_regions_own_preposition(tmp_path, tables):
    """Issue 31 item 6: 'Derrotados: 2 goblins na Floresta Sombria', with the preposition the
    GM saved on Regras, and 'no Pântano' for a terrain's region; never 'em Floresta'."""
    from companion.session import Session
    session = Session.open(tmp_path / "r.db", 3, tables)
    region = {"regiao": "Floresta Sombria", "terreno": "floresta", "dados": "1d2",
              "preposicao": "na", "linhas": {1: "Ent furioso", 2: "Corvos"}}
    assert session.change_rules({"encontros": {"regioes": {"floresta_sombria": region}}},
                                "gm").ok
    said = [e["text"] for e in session.run("região Floresta Sombria").events]
    said = [e["text"] for e in session.run("derrotados 2 goblins").events]
    assert "Derrotados: 2 goblins na Floresta Sombria (total: 2)." in said, said
    said = [e["text"] for e in session.run("derrotados 1 ogro no Pântano").events]
    assert "Derrotados: 1 ogro no Pântano (total: 1)." in said, said
    said = [e["text"] for e in session.run("derrotados 1 lobo na floresta").events]
    assert "Derrotados: 1 lobo na Floresta (total: 1)." in said, said
    session.close()


def test_defeated_inside_a_dungeon_count_as_masmorra(tables):
    play = Play(tables, State(dungeon=Dungeon(active=True)))
    events = play("derrotados", quantidade=2, criatura="esqueletos")
    assert play.state.tally.defeated == {"Masmorra": {"esqueletos": 2}}
    assert events[0].text == "Derrotados: 2 esqueletos na Masmorra (total: 2)."


@pytest.mark.parametrize("said", ["goblins", "Goblin", "GOBLINS", "góblins"])
def test_defeated_takes_the_monster_off_the_gm_list(tables, said):
    monsters = (Monster("Ogro", "2"), Monster("Goblin", "3", alerted=True), Monster("Goblin"))
    play = Play(tables, State(dungeon=Dungeon(active=True, monsters=monsters)))
    events = play("derrotados", quantidade=3, criatura=said)
    assert play.state.dungeon.monsters == (Monster("Ogro", "2"), Monster("Goblin"))
    (gone,) = [e for e in events if e.visibility == "gm"]
    assert gone.text == "Goblin (sala 3) sai da lista de monstros da masmorra."
    assert not any("lista de monstros" in e.text for e in events if e.visibility == "public")


def test_defeated_without_a_matching_monster_leaves_the_list(tables):
    monsters = (Monster("Ogro Cinzento", "2"),)
    play = Play(tables, State(dungeon=Dungeon(active=True, monsters=monsters)))
    events = play("derrotados", quantidade=1, criatura="ogro")
    assert play.state.dungeon.monsters == monsters
    assert [e.visibility for e in events] == ["public"]


def test_monstro_remover_still_works(tables):
    play = Play(tables, State(dungeon=Dungeon(active=True, monsters=(Monster("Ogro"),))))
    play("monstro", nome="ogro", acao="remover")
    assert play.state.dungeon.monsters == ()
    assert play.state.tally.defeated == {}


def test_defeated_add_up_per_region_and_creature(play):
    play("derrotados", quantidade=3, criatura="goblins")
    play("derrotados", quantidade=2, criatura="Goblins")
    play("derrotados", quantidade=1, criatura="ogro", regiao="floresta")
    play("derrotados", quantidade=4, criatura="lobos", regiao="Vale Sombrio")
    play("derrotados", quantidade=1, criatura="ogro", regiao="Floresta")
    assert play.state.tally.defeated == {
        "Planície": {"goblins": 5},
        "Floresta": {"ogro": 2},
        "Vale Sombrio": {"lobos": 4},
    }


def test_treasure_and_items_add_up(play):
    play("tesouro", quantidade=50, tipo="moedas de ouro")
    play("tesouro", quantidade=25, tipo="Moedas de Ouro")
    play("item", quantidade=2, tipo="poções")
    events = play("item", quantidade=1, tipo="pocoes")
    assert play.state.tally.treasure == {"moedas de ouro": 75}
    assert play.state.tally.items == {"poções": 3}
    assert "total: 3" in events[0].text


def test_singular_and_plural_are_one_line_of_the_form(play):
    """'1 tocha' and '2 tochas' are the same thing found (they were two lines of the form)."""
    play("item", quantidade=2, tipo="tochas")
    play("item", quantidade=1, tipo="Tocha")
    play("item", quantidade=1, tipo="poção de cura")
    play("item", quantidade=2, tipo="poções de cura")
    play("tesouro", quantidade=1, tipo="gema")
    play("tesouro", quantidade=3, tipo="gemas")
    play("derrotados", quantidade=1, criatura="goblin")
    play("derrotados", quantidade=2, criatura="goblins")
    assert play.state.tally.items == {"tochas": 3, "poção de cura": 3}
    assert play.state.tally.treasure == {"gema": 4}
    assert play.state.tally.defeated == {"Planície": {"goblin": 3}}


@pytest.mark.parametrize("command,extra", [("derrotados", {"criatura": "goblins"}),
                                           ("tesouro", {"tipo": "ouro"}),
                                           ("item", {"tipo": "poções"})])
@pytest.mark.parametrize("amount", [0, -2, "três", 2.5, True, None, 10**9])
def test_amount_must_be_a_positive_int(play, command, extra, amount):
    before = play.state
    with pytest.raises(CommandRejected, match="quantidade inválida"):
        play(command, quantidade=amount, **extra)
    assert play.state == before


def test_what_was_found_must_be_said(play):
    with pytest.raises(CommandRejected, match="falta dizer"):
        play("tesouro", quantidade=3, tipo="  ")
    with pytest.raises(CommandRejected, match="falta dizer"):
        play("derrotados", quantidade=3)


def test_the_name_limit_comes_from_the_data(tables):
    longest = int(tables.get("registro", "nome_maximo"))
    play = Play(tables)
    play("item", quantidade=1, tipo="x" * longest)
    before = play.state
    with pytest.raises(CommandRejected, match=f"use até {longest} letras"):
        play("item", quantidade=1, tipo="y" * (longest + 1))
    assert play.state == before
    files = copy.deepcopy(dict(tables.files))
    files["registro"] = {**files["registro"], "nome_maximo": 5}
    short = Play(Tables(files=files, directory=tables.directory))
    with pytest.raises(CommandRejected, match="'gobli…'; use até 5 letras"):
        short("derrotados", quantidade=1, criatura="goblins")
    short("derrotados", quantidade=1, criatura="orcs")
    assert short.state.tally.defeated == {"Planície": {"orcs": 1}}


def test_tally_is_for_the_gm(play):
    with pytest.raises(CommandRejected, match="só o Mestre"):
        play("tesouro", actor="player:ana", quantidade=3, tipo="ouro")


def test_dice_are_counted_per_type(play):
    play("rolar", expressao="2d6+1", rng=FixedDice(3, 4))
    play("rolar", expressao="1d20", vantagem="vantagem", rng=FixedDice(5, 11))
    play("rolar", expressao="d8+d6", rng=FixedDice(2, 6))
    play("segredo", expressao="1d4", rng=FixedDice(1))
    assert play.state.tally.dice == {"d6": 3, "d20": 2, "d8": 1, "d4": 1}


def test_a_rejected_roll_counts_no_dice(play):
    play("rolar", expressao="1d6")
    with pytest.raises(CommandRejected):
        play("rolar", expressao="1000d6")
    assert play.state.tally.dice == {"d6": 1}


# ---------------------------------------------------------------- registro

def _filled(play: Play) -> Play:
    play("derrotados", quantidade=3, criatura="goblins")
    play("tesouro", quantidade=50, tipo="moedas de ouro")
    play("item", quantidade=1, tipo="poção")
    play("segredo", rng=FixedDice(7))
    play("rolar", rng=FixedDice(2, 3, 4), expressao="3d6")
    return play


def test_registro_for_the_gm_has_the_dice_per_type(play):
    _filled(play)
    (event,) = play("registro")
    assert event.visibility == "gm"
    assert event.text == ("Registro da sessão\nDerrotados por região:\n  Planície: 3 goblins\n"
                          "Tesouro: 50 moedas de ouro\nItens: 1 poção\n"
                          "Dados rolados: d6 × 3, d20 × 1")
    assert event.data["registro"]["dados"] == {"d20": 1, "d6": 3}


def test_registro_for_a_player_goes_only_to_them_without_dice(play):
    _filled(play)
    play("personagem", nome="Ana")
    (event,) = play("registro", actor="player:ana")
    assert event.visibility == "player:ana"
    assert "Dados rolados" not in event.text and "dados" not in event.data["registro"]
    assert "Planície: 3 goblins" in event.text


def test_registro_of_an_empty_session(play):
    (event,) = play("registro")
    assert "nenhuma criatura" in event.text and "Tesouro: nada" in event.text
    assert event.text.endswith("Dados rolados: nenhum")
