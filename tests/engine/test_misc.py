"""`rolar`, `tabela`, `segredo`, `ajuda` and `estado`."""
from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from companion.engine.model import Chase, Dungeon, Monster, Prompt, State, Travel
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character

ANA = new_character(id="ana", name="Ana")


def party_play(tables, **state) -> Play:
    return Play(tables, State(party=(ANA, new_character(id="bia", name="Bia", exhaustion=1)),
                              **state))


# ---------------------------------------------------------------- rolar

def test_rolar_is_a_public_rolagem(play):
    (event,) = play("rolar", expressao="2d6+1", rng=FixedDice(3, 5))
    assert event.kind == "rolagem" and event.visibility == "public"
    assert (event.data["tabela"], event.data["dados"], event.data["total"]) == ("Rolagem", "2d6+1", 9)


@pytest.mark.parametrize("edge,kept,dropped", [("vantagem", 17, 4), ("desvantagem", 4, 17)])
def test_rolar_with_advantage_or_disadvantage(play, edge, kept, dropped):
    (event,) = play("rolar", expressao="1d20", vantagem=edge, rng=FixedDice(4, 17))
    assert event.data["total"] == kept and event.data["descartado"] == dropped
    assert event.data["vantagem"] == edge


def test_unknown_edge_is_rejected(play):
    with pytest.raises(CommandRejected, match="vantagem desconhecida"):
        play("rolar", expressao="1d20", vantagem="sorte")


@pytest.mark.parametrize("expression", ["1000d1000000", "1000d6", "1d1", "abc", "2d6+", ""])
def test_absurd_or_bad_dice_are_rejected_and_change_nothing(tables, expression):
    play = party_play(tables)
    before = play.state
    with pytest.raises(CommandRejected):
        play("rolar", expressao=expression)
    assert play.state == before and play.events == []


def test_player_roll_names_the_character(tables):
    play = party_play(tables)
    (event,) = play("rolar", actor="player:ana", expressao="1d6", rng=FixedDice(6))
    assert event.text.startswith("Ana: Rolagem") and event.visibility == "public"
    assert event.data["personagem"] == "ana"


def test_exhausted_player_rolls_with_disadvantage(tables):
    play = party_play(tables)
    (event,) = play("rolar", actor="player:bia", expressao="1d20", rng=FixedDice(15, 3))
    assert event.data["total"] == 3 and "DESV da exaustão" in event.text


def test_exhaustion_cancels_said_advantage(tables):
    play = party_play(tables)
    (event,) = play("rolar", actor="player:bia", expressao="1d20", vantagem="vantagem",
                    rng=FixedDice(15))
    assert event.data["total"] == 15 and "vantagem" not in event.data
    assert "se anulam" in event.text


# ---------------------------------------------------------------- segredo

def test_segredo_is_gm_only_and_kept(tables):
    play = party_play(tables)
    (event,) = play("segredo", expressao="1d20+2", motivo="escutar a porta", rng=FixedDice(9))
    assert event.kind == "rolagem" and event.visibility == "gm"
    assert event.data["total"] == 11 and "escutar a porta" in event.data["tabela"]
    assert play.state.secrets == ("escutar a porta: 1d20+2 = 11",)


def test_segredo_defaults_to_1d20(play):
    (event,) = play("segredo", rng=FixedDice(20))
    assert event.data["dados"] == "1d20" and event.visibility == "gm"
    assert len(play.state.secrets) == 1


def test_players_cannot_roll_secrets(tables):
    play = party_play(tables)
    with pytest.raises(CommandRejected, match="só o Mestre"):
        play("segredo", actor="player:ana")
    assert play.state.secrets == ()


# ---------------------------------------------------------------- ajuda

def help_names(events) -> set[str]:
    (event,) = events
    assert event.kind == "ajuda"
    return {c["nome"] for c in event.data["comandos"]}


def test_ajuda_in_travel(tables):
    play = party_play(tables)
    events = play("ajuda")
    names = help_names(events)
    assert events[0].visibility == "gm"
    assert {"avancar", "explorar", "acampar", "rolar", "panico", "dormir"} <= names
    assert not {"turno", "fuga"} & names
    assert "avançar — o grupo segue" in events[0].text


def test_ajuda_in_the_dungeon(tables):
    play = party_play(tables, dungeon=Dungeon(active=True))
    names = help_names(play("ajuda"))
    assert {"turno", "dormir", "luz", "descansar", "rolar"} <= names
    assert not {"avancar", "explorar", "fuga"} & names


def test_ajuda_in_a_chase(tables):
    play = party_play(tables, chase=Chase(phase="ativa"))
    names = help_names(play("ajuda"))
    assert {"fuga", "distancia", "rolar", "avancar"} <= names  # core lets travel go on
    assert "turno" not in names
    in_dungeon = party_play(tables, chase=Chase(phase="ativa"), dungeon=Dungeon(active=True))
    names = help_names(in_dungeon("ajuda"))
    assert {"fuga", "turno"} <= names and "avancar" not in names


def test_ajuda_for_a_player_lists_only_their_commands(tables):
    play = party_play(tables)
    events = play("ajuda", actor="player:ana")
    assert events[0].visibility == "player:ana"
    specs = tables.get("comandos", "comandos")
    names = help_names(events)
    assert names == {n for n, spec in specs.items() if spec.get("jogador")}
    assert "avancar" not in names and "rolar" in names


# ---------------------------------------------------------------- estado

def secret_state() -> State:
    return State(party=(ANA,), travel=Travel(lost=True), secrets=("porta: 1d20 = 3",),
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


# ---------------------------------------------------------------- tabela

def test_tabela_k_rolls_1d8_with_the_full_text(play, tables):
    (event,) = play("tabela", tabela="K", rng=FixedDice(6))
    assert event.kind == "rolagem" and event.data["tabela"] == "Tabela K: Aflição"
    assert event.data["dados"] == "1d8"
    assert event.data["resultado"] == tables.get("panico", "tabela_k", "linhas", "6", "texto")
    assert play.state.party == ()  # consulting a table applies nothing


def test_tabela_d_rolls_on_the_current_terrain_column(tables):
    play = Play(tables, State(travel=Travel(terrain="floresta")))
    (event,) = play("tabela", tabela="d", rng=FixedDice(2))
    assert event.data["tabela"] == "Tabela D: Eventos"
    assert event.data["resultado"] == "Evento" and event.data["coluna"] == "Florestas e Pântanos"


@pytest.mark.parametrize("key,name", [("f", "Tabela F: Acidentes"), ("h", "Tabela H: Percalços"),
                                      ("masmorra b", "Tabela B: Percalços da Dungeon")])
def test_mishap_tables_roll_1d10(play, key, name):
    (event,) = play("tabela", tabela=key, rng=FixedDice(1))
    assert (event.data["tabela"], event.data["dados"]) == (name, "1d10")
    assert event.data["resultado"] == "Nada"


def test_tabela_encontros_rolls_the_start_of_day_region_for_the_gm(tables):
    play = Play(tables, State(travel=Travel(terrain="floresta", day_start_terrain="colinas")))
    (event,) = play("tabela", tabela="encontros", rng=FixedDice(1))
    assert event.visibility == "gm"
    assert event.data["resultado"] == tables.get("encontros", "regioes", "colinas", "linhas", 1)


@pytest.mark.parametrize("key,expected", [
    ("a", "Andando: 1/2 hex por rodada ◀ agora"),
    ("b", "1 rodada extra: DC 12"),
    ("c", "Planície, Colinas, Floresta: 2:6 ◀ agora"),
    ("e", "Planície e Colinas: Forragear 2:6, Caçar 3:6, Pescar 1:6 ◀ agora"),
    ("g", "Planície / Colinas: -6 ◀ agora"),
    ("i", "3: 1d4 de dano de CON / dia"),
    ("J", "14+: Terror. Foge de todos os seres (até aliados) por 1d4 rodadas"),
    ("masmorra_a", "Mortal: 1:6 todo turno de exploração"),
    ("masmorra_c", "Arriscado: 3:6 a cada 2 horas."),
])
def test_tables_with_nothing_to_roll_are_explained(play, key, expected):
    (event,) = play("tabela", tabela=key)
    assert event.kind == "relato" and event.visibility == "public"
    assert expected in event.data["linhas"]
    assert play.state.tally.dice == {}


def test_unknown_table_is_rejected(play):
    with pytest.raises(CommandRejected, match="tabela desconhecida: 'Z'"):
        play("tabela", tabela="Z")


def test_tabela_d_without_a_column_for_the_terrain_is_rejected_naming_the_data(tables):
    files = copy.deepcopy(dict(tables.files))
    for column in files["viagem"]["tabela_d"]["colunas"]:
        column["terrenos"] = [t for t in column["terrenos"] if t != "floresta"]
    play = Play(Tables(files=files, directory=tables.directory),
                State(travel=Travel(terrain="floresta")))
    before = play.state
    with pytest.raises(CommandRejected, match="tabela_d.colunas.*'floresta'"):
        play("tabela", tabela="d", rng=FixedDice(2))
    assert play.state == before and play.events == []


def test_a_table_shown_only_to_the_gm_follows_its_entry(tables):
    files = copy.deepcopy(dict(tables.files))
    files["dados"]["tabelas"]["k"]["visibilidade"] = "gm"
    play = Play(Tables(files=files, directory=tables.directory))
    (event,) = play("tabela", tabela="k", rng=FixedDice(1))
    assert event.visibility == "gm" and event.data["tabela"] == "Tabela K: Aflição"


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
