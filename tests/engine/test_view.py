"""view_state and visible_to: what each viewer may see."""
from __future__ import annotations

import copy
import json
from dataclasses import replace
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import Command, apply
from companion.engine.model import (
    Chase,
    Dungeon,
    Monster,
    Prompt,
    State,
    Timer,
    Travel,
)
from companion.engine.view import view_state
from companion.tables.protocol import may_see as visible_to
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.play_helpers import Play
from tests.engine.view_helpers import COMMANDS, MARK, names
from tests.rules_helpers import new_character
from tests.rules_helpers import changed_rules

GM_ONLY_KEYS = {"mestre", "perdido", "monstros", "segredos", "encontro_pendente", "context"}


def keys_of(node) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for value in node.values() for k in keys_of(value)}
    if isinstance(node, list):
        return {k for value in node for k in keys_of(value)}
    return set()


def secret_state() -> State:
    party = (new_character(id="ana", name="Ana", mods={"con": 1}, attribute_damage={"sab": 2}),
             new_character(id="bia", name="Bia", exhaustion=2))
    prompts = (Prompt(id=1, kind="panico", character="ana", text="pânico da Ana"),
               Prompt(id=2, kind="fuga", character="bia", text=f"fuga da Bia {MARK}"),
               Prompt(id=3, kind="confirmar_perseguicao", character=None, text=f"GM {MARK}",
                      context={"nota": MARK}))
    return State(party=party, prompts=prompts, next_prompt_id=4, travel=Travel(lost=True),
                 secrets=(f"porta {MARK}",),
                 dungeon=Dungeon(monsters=(Monster(name=f"Ogro {MARK}", room=f"sala {MARK}"),),
                                 pending_encounter=True))


# ---------------------------------------------------------------- visible_to

@pytest.mark.parametrize("visibility,viewer,expected", [
    ("public", "gm", True), ("gm", "gm", True), ("player:ana", "gm", True),
    ("public", "public", True), ("gm", "public", False), ("player:ana", "public", False),
    ("public", "player:ana", True), ("player:ana", "player:ana", True),
    ("player:bia", "player:ana", False), ("gm", "player:ana", False),
    ("player:ana", "player:ana-maria", False),
])
def test_visible_to(visibility, viewer, expected):
    assert visible_to(visibility, viewer) is expected


# ---------------------------------------------------------------- views of a fixed state

def test_gm_sees_everything(tables):
    view = view_state(secret_state(), "gm", tables)
    assert view["mestre"]["perdido"] is True and view["mestre"]["encontro_pendente"] is True
    assert view["mestre"]["monstros"][0]["nome"] == f"Ogro {MARK}"
    assert view["mestre"]["segredos"] == [f"porta {MARK}"]
    assert [p["id"] for p in view["pedidos"]] == [1, 2, 3]
    assert all("atributos" in c for c in view["grupo"])
    json.dumps(view)  # JSON-able


@pytest.mark.parametrize("viewer", ["public", "player:ana", "player:bia", "nonsense", ""])
def test_no_gm_only_field_or_text_reaches_other_viewers(tables, viewer):
    view = view_state(secret_state(), viewer, tables)
    dumped = json.dumps(view, ensure_ascii=False)
    assert not GM_ONLY_KEYS & keys_of(view)
    if viewer != "player:bia":
        assert MARK not in dumped
    assert "Ogro" not in dumped and "porta" not in dumped


def test_player_sees_own_details_and_own_prompts_only(tables):
    view = view_state(secret_state(), "player:ana", tables)
    assert view["visao"] == "player:ana"
    assert [p["id"] for p in view["pedidos"]] == [1]
    ana, bia = view["grupo"]
    assert ana["proprio"] is True and ana["atributos"] == {"con": 1}
    assert ana["dano_atributos"] == {"sab": 2}
    assert "atributos" not in bia and "proprio" not in bia
    assert bia["exaustao"] == 2  # the party's public fields are shown for everyone


@pytest.mark.parametrize("viewer", ["gm", "public", "player:bia"])
def test_attribute_damage_is_shown_to_everyone(tables, viewer):
    ana, bia = view_state(secret_state(), viewer, tables)["grupo"]
    assert (ana["dano_atributos"], bia["dano_atributos"]) == ({"sab": 2}, {})


def test_lost_stays_true_in_a_dungeon_and_after_it(tables):
    """Lost is a fact of the hexcrawl: the GM's view keeps it in a dungeon (the page shows the
    banner in travel only; the "Só o Mestre" card, estado and the report keep telling it)."""
    travel = view_state(secret_state(), "gm", tables)
    inside = replace(secret_state(), dungeon=Dungeon(active=True))
    assert travel["mestre"]["perdido"] is True
    assert view_state(inside, "gm", tables)["mestre"]["perdido"] is True
    assert inside.travel.lost is True
    out = Play(tables, inside)
    out("viagem")
    assert view_state(out.state, "gm", tables)["mestre"]["perdido"] is True


def test_the_hexes_are_written_with_a_decimal_comma(tables):
    view = view_state(State(travel=Travel(hexes=1.5)), "public", tables)
    assert view["viagem"]["hexes_texto"] == "1,5 hex"


def test_public_view_has_no_prompts_and_no_details(tables):
    view = view_state(secret_state(), "public", tables)
    assert view["pedidos"] == [] and view["visao"] == "public"
    assert all("atributos" not in c for c in view["grupo"])
    assert {"id", "nome", "nivel", "pv", "pv_max", "sanidade", "exaustao", "comida", "agua",
            "municao", "aflicoes", "condicoes"} <= set(view["grupo"][0])


def test_own_view_lists_cumulative_exhaustion_effects(tables):
    view = view_state(secret_state(), "player:bia", tables)
    bia = view["grupo"][1]
    assert bia["exaustao_efeitos"] == ["DESV em todas as rolagens",
                                       "Não adiciona modificadores de atributos às rolagens"]


def test_travel_fields_and_weather_text(tables):
    state = State(minutes=1440 + 2 * 240, travel=Travel(season="inverno", weather_row=2,
                                                         terrain="pantano", mode="montado",
                                                         hexes=2.5))
    view = view_state(state, "public", tables)
    assert (view["modo"], view["dia"], view["rodada"]) == ("viagem", 2, 3)
    assert view["relogio"] == "Dia 2 · rodada 3 de 6 (8h–12h)"
    assert view["estacao_nome"] == "Inverno" and view["clima"] == "Congelante e com neve"
    assert view["terreno_nome"] == "Pântano" and view["viagem"]["hexes"] == 2.5
    assert view["viagem"]["modo_nome"] == "Montado / Dirigindo"
    assert view["masmorra"] is None and view["perseguicao"] is None


@pytest.mark.parametrize("state, hour", [
    (State(), "0h00"),
    (State(minutes=1440 + 2 * 240 + 70), "9h10"),
    (State(minutes=3 * 1440 + 14 * 60 + 20, dungeon=Dungeon(active=True, turn=9)), "14h20"),
    (State(minutes=615, chase=Chase(phase="ativa")), "10h15"),
])
def test_every_mode_has_the_time_of_day(tables, state, hour):
    view = view_state(state, "public", tables)
    assert view["hora"] == hour


def test_the_dungeon_clock_shows_the_time_of_day(tables):
    state = State(minutes=3 * 1440 + 14 * 60 + 20, dungeon=Dungeon(active=True, turn=9))
    assert view_state(state, "gm", tables)["relogio"] == "Dia 4 · 14h20 · turno 9 na masmorra"


def test_weather_not_rolled_yet_is_none(tables):
    assert view_state(State(), "public", tables)["clima"] is None


def changed(tables: Tables, file: str, *path: str, value) -> Tables:
    files = copy.deepcopy(dict(tables.files))
    node = files[file]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return Tables(files=files, directory=tables.directory)


def test_the_darkness_level_comes_from_the_dungeon_data(tables):
    dark = State(dungeon=Dungeon(active=True, danger="inseguro"))
    softer = changed(tables, "masmorra", "escuridao", "nivel", value="arriscado")
    view = view_state(dark, "public", softer)["masmorra"]
    assert (view["escuro"], view["perigo_efetivo"], view["perigo_efetivo_nome"]) == (
        True, "arriscado", "Arriscado")


def test_names_and_the_clock_come_from_the_data(tables):
    renamed = changed(tables, "viagem", "terrenos", "pantano", value="Brejo")
    slower = changed(renamed, "viagem", "rodada", "minutos", value=120)
    state = State(minutes=1440 + 2 * 120, travel=Travel(terrain="pantano"))
    view = view_state(state, "public", slower)
    assert view["terreno_nome"] == "Brejo"
    assert (view["dia"], view["rodada"]) == (2, 3)
    assert view["relogio"] == "Dia 2 · rodada 3 de 6 (4h–6h)"


def test_a_missing_table_is_an_error_not_a_silent_default(tables):
    files = {name: data for name, data in tables.files.items() if name != "viagem"}
    with pytest.raises(TableError, match="tables/viagem.yaml"):
        view_state(State(), "public", Tables(files=files, directory=tables.directory))


def test_dungeon_lights_spells_and_darkness(tables):
    lit = State(dungeon=Dungeon(active=True, danger="arriscado", turn=4,
                                lights=(Timer("Tocha", 2),),
                                spells=(Timer("Escudo", 3, kind="magia"),)))
    view = view_state(lit, "public", tables)
    assert view["modo"] == "masmorra" and "turno 4" in view["relogio"]
    dungeon = view["masmorra"]
    assert dungeon["luzes"] == [{"nome": "Tocha", "turnos": 2}]
    assert dungeon["magias"] == [{"nome": "Escudo", "turnos": 3}]
    assert (dungeon["escuro"], dungeon["perigo_efetivo_nome"]) == (False, "Arriscado")
    dark = view_state(State(dungeon=Dungeon(active=True, danger="inseguro")), "public", tables)
    assert dark["masmorra"]["escuro"] is True
    assert dark["masmorra"]["perigo_efetivo"] == "mortal"
    assert dark["masmorra"]["perigo_nome"] == "Inseguro"


@pytest.mark.parametrize("score,distance", [(-1, "Menor"), (0, "Neutra"), (1, "Maior")])
def test_chase_distance_is_derived(tables, score, distance):
    view = view_state(State(chase=Chase(phase="ativa", score=score)), "public", tables)
    assert view["modo"] == "perseguicao"
    assert view["perseguicao"]["placar"] == score
    assert view["perseguicao"]["distancia_nome"] == distance


def test_tally_is_shown(play, tables):
    play("derrotados", quantidade=3, criatura="goblins")
    play("rolar", expressao="2d6")
    view = view_state(play.state, "public", tables)
    assert view["registro"]["derrotados"] == {"Planície": {"goblins": 3}}
    assert view_state(play.state, "gm", tables)["registro"]["dados"] == {"d6": 2}


def test_dice_counts_are_the_gms_because_they_count_secret_rolls(play, tables):
    play("segredo", expressao="1d20")
    assert "dados" not in view_state(play.state, "public", tables)["registro"]
    assert "dados" not in view_state(play.state, "player:ana", tables)["registro"]
    assert view_state(play.state, "gm", tables)["registro"]["dados"] == {"d20": 1}


# ---------------------------------------------------------------- Hypothesis: no leaks



@settings(max_examples=60, deadline=None)
@given(script=st.lists(COMMANDS, max_size=15), seed=st.integers(0, 10**6),
       lost=st.booleans(), characters=st.lists(names, min_size=1, max_size=3, unique=True))
def test_random_sessions_never_leak_gm_only_things(tables, script, seed, lost, characters):
    state = State(travel=Travel(lost=lost), party=tuple(
        new_character(id=n, name=n) for n in characters))
    events = []
    for number, (name, args) in enumerate(script):
        try:
            state, produced = apply(state, Command(name, args), random.Random(f"{seed}:{number}"),
                                    tables)
        except CommandRejected:
            continue
        events.extend(produced)
    gm = view_state(state, "gm", tables)
    for viewer in ["public", *(f"player:{n}" for n in characters)]:
        view = view_state(state, viewer, tables)
        dumped = json.dumps(view, ensure_ascii=False)
        assert not GM_ONLY_KEYS & keys_of(view)
        assert MARK not in dumped
        mine = viewer.removeprefix("player:")
        assert all(p["personagem"] == mine for p in view["pedidos"])
        assert len(view["pedidos"]) == len([p for p in gm["pedidos"] if p["personagem"] == mine])
        seen = [e for e in events if visible_to(e.visibility, viewer)]
        assert all(MARK not in e.text and MARK not in json.dumps(e.data, ensure_ascii=False)
                   for e in seen)


def test_the_view_follows_a_played_panic(tables):
    play = Play(tables)
    play("personagem", nome="Ana", sanidade=3)
    play("personagem", nome="Bia")
    play("panico", personagem="Ana")
    assert [p["id"] for p in view_state(play.state, "player:ana", tables)["pedidos"]] == [1]
    assert view_state(play.state, "player:bia", tables)["pedidos"] == []
    play("responder", actor="player:ana", valor=20, rng=random.Random(1))
    for viewer, seen in (("public", 0), ("player:bia", 0), ("player:ana", 1), ("gm", 1)):
        ana = view_state(play.state, viewer, tables)["grupo"][0]
        assert len(ana["aflicoes"]) == seen, viewer  # by default hers and the GM's only


# ---------------------------------------------------------------- view texts from tables/narracao

@pytest.mark.parametrize("party, foes, said", [
    (None, None, None), (120, 90, "o grupo é 30 mais rápido"),
    (90, 120, "o grupo é 30 mais lento"), (90, 90, "mesma velocidade"),
])
def test_the_speed_gap_is_shown_as_people_say_it(tables, party, foes, said):
    chase = Chase(phase="ativa", party_speed=party, foe_speed=foes)
    shown = view_state(State(chase=chase), "public", tables)["perseguicao"]
    assert shown.get("velocidade_diferenca") == said


def test_the_view_texts_come_from_narracao(tmp_path):
    from_here = changed_rules(tmp_path, "narracao/relogio.yaml",
                              "hora: \"{{ horas }}h{{ '%02d' | format(minutos) }}\"",
                              "hora: \"{{ horas }}:{{ '%02d' | format(minutos) }}\"")
    from_here = changed_rules(tmp_path, "narracao/viagem.yaml",
                              "hexes: \"{{ hexes | contagem('hex', 'hexes') }}\"",
                              "hexes: \"{{ hexes | contagem('hexágono', 'hexágonos') }}\"")
    from_here = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                              "{% elif diferenca == 0 %}mesma velocidade",
                              "{% elif diferenca == 0 %}velocidades iguais")
    state = State(minutes=70, travel=Travel(hexes=2),
                  chase=Chase(phase="ativa", party_speed=90, foe_speed=90))
    view = view_state(state, "public", from_here)
    assert view["hora"] == "1:10" and view["viagem"]["hexes_texto"] == "2 hexágonos"
    assert view["perseguicao"]["velocidade_diferenca"] == "velocidades iguais"


def test_two_lights_of_one_kind_are_told_apart(tables):
    """Issue 26, 11: 'Tocha 1: 6 turnos · Tocha 2: 2 turnos', in the view, estado and tempo."""
    from tests.play_helpers import Play

    lit = State(dungeon=Dungeon(active=True, lights=(Timer("tocha", 2), Timer("tocha", 6),
                                                      Timer("lanterna", 24))))
    dungeon = view_state(lit, "public", tables)["masmorra"]
    assert dungeon["luzes"] == [{"nome": "Tocha 1", "turnos": 2}, {"nome": "Tocha 2", "turnos": 6},
                                {"nome": "Lanterna", "turnos": 24}]
    play = Play(tables, lit)
    said = " ".join(e.text for e in play("estado") + play("tempo"))
    assert "Tocha 1 (2 turnos)" in said and "Tocha 2 (6 turnos)" in said
    assert "Tocha 1: 2 turnos" in said and "Tocha 2: 6 turnos" in said
