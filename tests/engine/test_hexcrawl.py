"""The hexcrawl travel day (seed 000) through the engine, with forced dice."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Command, State, apply, initial_state
from companion.engine.characters import edge_for, modifier
from companion.engine.clock import day_of
from companion.engine.core import StartRules
from companion.engine.handlers import PromptAnswer
from companion.engine.model import Travel
from companion.engine.procedures.advance import GettingLost
from companion.engine.procedures.encounters import EncounterSettings, EncounterTables
from companion.engine.procedures.foraging import (
    AccidentTable,
    AmmoTable,
    GatheringTable,
    Yields,
)
from companion.engine.procedures.forced_march import (
    ForcedMarch,
    forced_dc,
    march_choice_answered,
)
from companion.engine.procedures.travel import (
    AdvanceTable,
    Camp,
    EventsTable,
    TerrainNames,
    TravelModes,
    TravelRound,
    round_of,
)
from companion.engine.scratch import Scratch
from companion.rules.loader import load_rules
from companion.session import Session
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import DEFAULT_DIR, Tables
from tests.engine.travel_helpers import QUIET, ana, bia, one_roll, rolls, run, start
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

TERRAINS = ["planicie", "estepe", "colinas", "floresta", "pantano", "montanha"]


SEED_WEATHER = {
    "primavera": ["Frio, chuvoso e ventoso", "Frio e com neblina", "Ameno, ventoso e chuvoso",
                  "Ameno e nublado", "Quente e chuvoso", "Quente e ensolarado"],
    "verao": ["Ameno e tempestuoso", "Quente e chuvoso", "Quente e com brisa",
              "Quente e ensolarado", "Quente e ensolarado", "Sufocante e ensolarado"],
    "outono": ["Frio e tempestuoso", "Frio e ventoso", "Frio e nevoeiro", "Ameno e ventoso",
               "Ameno e chuvoso", "Quente e ventoso"],
    "inverno": ["Congelante e com granizo", "Congelante e com neve", "Frio e com neve",
                "Frio e ventoso", "Frio e ensolarado", "Ameno e ensolarado"],
}


_PI, _EV, _PE, _NA = "Ponto de Interesse", "Evento", "Peregrinos", "Nada"


_D_PLAINS = [_PI, _PI, _EV, _PE, _NA, _NA, _PI, _PI]


_D_HILLS = [_PI, _EV, _PE, _NA, _NA, _NA, _PI, _PI]


_D_WOODS = [_PI, _EV, _NA, _NA, _NA, _NA, _PE, _PI]


SEED_D = {"planicie": _D_PLAINS, "estepe": _D_PLAINS, "colinas": _D_HILLS,
          "montanha": _D_HILLS, "floresta": _D_WOODS, "pantano": _D_WOODS}


SEED_C = {"estepe": 1, "planicie": 2, "colinas": 2, "floresta": 2, "pantano": 3, "montanha": 3}


SEED_ENCOUNTER = {"estepe": 1, "planicie": 1, "colinas": 2, "floresta": 2, "montanha": 2,
                  "pantano": 3}


SEED_E = {  # terrain: (forragear, cacar, pescar)
    "planicie": (2, 3, 1), "colinas": (2, 3, 1), "estepe": (3, 4, 4), "floresta": (5, 5, 5),
    "pantano": (5, 2, 4), "montanha": (1, 2, 2)}


SEED_G = {"planicie": -6, "colinas": -6, "estepe": -4, "floresta": 0, "pantano": 0,
          "montanha": -10}


SEED_F = {
    6: "Encontra comida, mas venenosa/doente. Quem a ingerir tem DESV pelo próximo dia.",
    7: "Sofre por carrapatos ou sanguessugas. 1 de dano por rodada até se livrar.",
    8: "Cai e torce o tornozelo. Sofre 2 de dano e 1/2 do movimento até ser curado.",
    9: "É emboscado por 1 predador (lobo, urso, pantera etc)",
    10: "O barulho atrai um encontro aleatório",
}


# ---------------------------------------------------------------- clock

def test_day_and_round_come_from_the_clock(tables) -> None:
    minutes = tables.get("viagem", "rodada", "minutos")
    assert minutes == 240
    for at, expected in ((0, (1, 1)), (5 * 240, (1, 6)), (6 * 240, (2, 1))):
        state = State(minutes=at)
        assert (day_of(state), round_of(state, minutes)) == expected


def test_a_group_activity_is_one_round_of_four_hours(play: Play) -> None:
    start(play)
    run(play, "explorar", *QUIET, 5)
    assert play.state.minutes == 240
    assert round_of(play.state, 240) == 2


def test_six_rounds_make_a_day(play: Play) -> None:
    start(play, terrain="floresta", day_start_terrain="planicie")
    for _ in range(5):
        run(play, "explorar", *QUIET, 5)
    assert day_of(play.state) == 1
    events = run(play, "explorar", *QUIET, 5)
    assert day_of(play.state) == 2
    assert any("Fim do dia 1" in e.text for e in events)
    assert play.state.travel.day_start_terrain == "floresta"


def test_after_a_dungeon_the_next_travel_round_starts_on_the_grid(play: Play,
                                                                   tables: Tables) -> None:
    """A dungeon entered in the middle of round 6 (20h05, no travel round open) and left at
    22h10: the rest of round 6 was the dungeon's; the next travel round starts at 0h00 of day
    2 (the day ends first), and every later round stays on the grid of 4-hour rounds. (Entered
    at the start of a round, the dungeon opens that round: see test_rules_travel.)"""
    from companion.engine.view import view_state

    start(play, party=(ana(),), terrain="estepe", day_start_terrain="estepe")
    play.state = replace(play.state, minutes=20 * 60 + 5)
    play("masmorra", rng=FixedDice())
    play.state = replace(play.state, minutes=22 * 60 + 10)  # 13 turns later
    play("viagem", rng=FixedDice())
    shown = view_state(play.state, "gm", tables)
    assert (shown["rodada"], shown["hora"]) == (6, "22h10")
    events = run(play, "explorar", *QUIET, 5)
    codes = [e.code for e in events]
    assert codes.index("viagem.resto_da_rodada") < codes.index("viagem.fim_do_dia") \
        < codes.index("viagem.rodada")
    (said,) = [e for e in events if e.code == "viagem.resto_da_rodada"]
    assert said.text == ("O grupo voltou à viagem às 22h10, no meio da rodada 6: o resto dela "
                         "passa, e a rodada seguinte começa às 0h00.")
    assert said.data == {"minutos": 110}
    assert "Dia 2, rodada 1 de 6." in [e.text for e in events]
    assert play.state.minutes == 24 * 60 + 4 * 60
    run(play, "explorar", *QUIET, 5)
    shown = view_state(play.state, "gm", tables)
    assert (shown["dia"], shown["rodada"], shown["hora"]) == (2, 3, "8h00")
    assert shown["relogio"] == "Dia 2 · rodada 3 de 6 (8h–12h)"


def test_a_named_activity_after_a_chase_starts_its_round_on_the_grid(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="floresta")
    play.state = replace(play.state, minutes=8 * 60 + 30)  # a chase took half an hour
    events = run(play, "cacar", 1, personagem="Ana")
    assert [e.data for e in events if e.code == "viagem.resto_da_rodada"] == [{"minutos": 210}]
    assert "Dia 1, rodada 4 de 6." in [e.text for e in events]
    assert play.state.minutes == 12 * 60  # Bia has not acted: the round goes on
    run(play, "explorar", 5)
    assert play.state.minutes == 16 * 60


def test_a_round_on_the_grid_passes_no_remainder(play: Play) -> None:
    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, minutes=16 * 60)  # a dungeon left on the hour
    events = run(play, "explorar", *QUIET, 5)
    assert not any(e.code == "viagem.resto_da_rodada" for e in events)
    assert play.state.minutes == 20 * 60


# ---------------------------------------------------------------- weather

@pytest.mark.parametrize("season", list(SEED_WEATHER))
@pytest.mark.parametrize("row", range(1, 7))
def test_initial_weather_every_row_of_every_season(play: Play, season: str, row: int) -> None:
    start(play, season=season)
    events = run(play, "clima", row)  # the GM's `clima`: the season's column rolled again
    event = one_roll(events, "Clima rolado de novo")
    assert event.data["resultado"] == SEED_WEATHER[season][row - 1]
    assert play.state.travel.weather_row == row


@pytest.mark.parametrize("face,before,after", [
    (1, 4, 3), (2, 4, 5), (3, 4, 4), (4, 4, 4), (5, 4, 4), (6, 4, 4),
    (1, 1, 1), (2, 6, 6),  # clamps
])
def test_weather_drift_each_round(play: Play, face: int, before: int, after: int) -> None:
    start(play, weather_row=before)
    events = run(play, "explorar", face, 6, 5)
    expected = {1: "Diminua em 1 o clima", 2: "Aumente em 1 o clima"}.get(face, "Sem mudança")
    assert one_roll(events, "Clima").data["resultado"] == expected
    assert play.state.travel.weather_row == after


def test_first_round_rolls_the_initial_weather_before_drifting(play: Play) -> None:
    start(play, weather_row=None, season="inverno")
    events = run(play, "explorar", 4, 2, 6, 5)
    tables = [e.data["tabela"] for e in events if e.kind == "rolagem"]
    assert tables[:3] == ["Clima inicial", "Clima", "Encontro aleatório"]
    assert play.state.travel.weather_row == 5
    assert any(e.text == "Clima: Frio e ensolarado." for e in events)


def test_estacao_sets_the_season_and_rolls_its_weather(play: Play) -> None:
    start(play)
    events = run(play, "estacao", 6, estacao="outono")
    assert play.state.travel.season == "outono"
    assert one_roll(events, "Clima inicial").data["resultado"] == "Quente e ventoso"


def test_estacao_accepts_accents(play: Play) -> None:
    start(play)
    run(play, "estacao", 1, estacao="Verão")
    assert play.state.travel.season == "verao"


# ---------------------------------------------------------------- encounters

@pytest.mark.parametrize("terrain", TERRAINS)
def test_encounter_chance_by_start_of_day_terrain(play: Play, tables, terrain: str) -> None:
    chance = SEED_ENCOUNTER[terrain]
    start(play, terrain=terrain, day_start_terrain=terrain)
    row = tables.get("encontros", "regioes", terrain, "linhas", 2)
    events = run(play, "explorar", 3, chance, 2, *(1,) * _dice_count(row), 5)
    assert one_roll(events, "Encontro aleatório").data["resultado"] == "Encontro"
    assert len([e for e in events if e.kind == "rolagem"
                and e.data["tabela"].startswith("Encontros:")]) == 1
    events = run(play, "explorar", 3, chance + 1, 5)
    assert one_roll(events, "Encontro aleatório").data["resultado"] == "Nenhum encontro"


def test_encounter_uses_the_terrain_where_the_day_started(play: Play) -> None:
    start(play, terrain="pantano", day_start_terrain="estepe")
    events = run(play, "explorar", 3, 2, 5)  # 2 would be an encounter in a swamp (3:6)
    assert one_roll(events, "Encontro aleatório").data["resultado"] == "Nenhum encontro"
    start(play, terrain="estepe", day_start_terrain="pantano")
    events = run(play, "explorar", 3, 3, 4, 5)
    assert one_roll(events, "Encontros: Pântano").data["resultado"] == "Bruxa do brejo"


@pytest.mark.parametrize("terrain", TERRAINS)
def test_every_row_of_every_example_encounter_table(play: Play, tables, terrain: str) -> None:
    table = tables.get("encontros", "regioes", terrain)
    start(play, day_start_terrain=terrain, terrain="montanha")
    for row, text in table["linhas"].items():
        how_many = (1,) * _dice_count(text)
        event = one_roll(run(play, "encontro", int(row), *how_many), table["nome"])
        assert event.data["resultado"] == (text["texto"] if how_many else text)
        assert event.visibility == "gm"  # house default: the GM narrates it


def _dice_count(row: object) -> int:
    """How many dice an encounter row's number appearing rolls (0: none)."""
    if not isinstance(row, dict):
        return 0
    return int(str(row["quantidade"]).split("d")[0] or 1)


@pytest.mark.parametrize("terrain", TERRAINS)
def test_rows_with_dice_roll_how_many_appear(play: Play, tables, terrain: str) -> None:
    """'Homens-lagarto (2d4)': the count is its own rolagem and is said, GM-only."""
    table = tables.get("encontros", "regioes", terrain)
    start(play, day_start_terrain=terrain)
    counted = {int(k): row for k, row in table["linhas"].items() if isinstance(row, dict)}
    assert counted, "every example table has a row with a number appearing"
    for number, row in counted.items():
        highest = int(row["quantidade"].split("d")[1])
        count = _dice_count(row)
        events = run(play, "encontro", number, *([highest] * count))
        (how_many,) = rolls(events, "Quantos aparecem")
        assert how_many.data["dados"] == row["quantidade"]
        assert how_many.data["total"] == highest * count
        assert how_many.visibility == "gm"
        said = events[-1]
        assert said.text == f"Aparecem {highest * count}: {row['texto'].rsplit(' (', 1)[0]}."
        assert said.visibility == "gm" and said.data["quantidade"] == highest * count
    plain = next(int(k) for k, row in table["linhas"].items() if isinstance(row, str))
    events = run(play, "encontro", plain)
    assert not rolls(events, "Quantos aparecem")


def test_the_swamp_lizardmen_come_in_2d4(play: Play) -> None:
    start(play, day_start_terrain="pantano")
    events = run(play, "encontro", 1, 3, 2)
    assert one_roll(events, "Encontros: Pântano").data["resultado"] == \
        "Homens-lagarto (2d4)"
    assert events[-1].text == "Aparecem 5: Homens-lagarto."


def test_one_appears_in_the_singular_without_the_seeds_dice(play: Play) -> None:
    """Issue 31 item 6: "Aparecem 1: Patrulha de cavaleiros (1d4)" once the count is rolled:
    the singular, and no dice left in the name (the data keep the row's text)."""
    start(play, day_start_terrain="planicie")
    events = run(play, "encontro", 4, 1)
    assert events[-1].text == "Aparece 1: Patrulha de cavaleiros.", events[-1].text
    assert events[-1].data["encontro"] == "Patrulha de cavaleiros (1d4)"


def test_an_encounter_row_with_bad_dice_is_refused_at_load(tables) -> None:
    from companion.engine.procedures.encounters import EncounterTables
    from companion.tables.errors import TableError
    from companion.tables.rulebook import build_piece

    files = dict(tables.files)
    regions = dict(files["encontros"]["regioes"])
    regions["pantano"] = {**regions["pantano"], "linhas": {
        **regions["pantano"]["linhas"], 1: {"texto": "Homens-lagarto", "quantidade": "dois"}}}
    files["encontros"] = {**files["encontros"], "regioes": regions}
    with pytest.raises(TableError, match="encontros.*regioes.pantano.linhas.1"):
        build_piece(EncounterTables, files, tables.narration)


def test_encounter_tables_are_marked_as_house_defaults(tables) -> None:
    assert tables.get("encontros", "padrao_da_casa") is True


# ---------------------------------------------------------------- terrain, mode, rejections

def test_terreno_before_the_first_round_sets_where_the_day_started(play: Play) -> None:
    start(play)
    run(play, "terreno", terreno="Pântano")
    assert play.state.travel.terrain == play.state.travel.day_start_terrain == "pantano"
    run(play, "explorar", *QUIET, 5)
    run(play, "terreno", terreno="colinas")
    assert play.state.travel.terrain == "colinas"
    assert play.state.travel.day_start_terrain == "pantano"


@pytest.mark.parametrize("name,args,message", [
    ("terreno", {"terreno": "deserto"},
     "terreno desconhecido: 'deserto'; use planície, estepe, colinas, floresta, pântano ou "
     "montanha"),
    ("terreno", {}, "terreno desconhecido: ''"),
    ("estacao", {"estacao": "monção"},
     "estação desconhecida: 'monção'; use primavera, verão, outono ou inverno"),
    ("modo", {"modo": "voando"},
     "modo de viagem desconhecido: 'voando'; use andando, montado ou navegando"),
])
def test_unknown_values_are_rejected_and_change_nothing(play: Play, name: str, args: dict,
                                                        message: str) -> None:
    start(play)
    before = play.state
    with pytest.raises(CommandRejected) as error:
        play(name, **args)
    assert message in error.value.message
    assert play.state == before


@pytest.mark.parametrize("mode,hexes", [("andando", 0.5), ("montado", 1.0), ("navegando", 2.0)])
def test_progress_per_travel_mode(play: Play, mode: str, hexes: float) -> None:
    start(play, terrain="estepe")
    run(play, "modo", modo=mode)
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == hexes
    assert any("avança" in e.text and e.data.get("hexes") == hexes for e in events)


# ---------------------------------------------------------------- Avançar: lost, events

@pytest.mark.parametrize("terrain", TERRAINS)
def test_getting_lost_is_gm_only(play: Play, terrain: str) -> None:
    chance = SEED_C[terrain]
    start(play, terrain=terrain, day_start_terrain="estepe")
    events = run(play, "avancar", *QUIET, chance, 5)
    lost = one_roll(events, "Tabela C: Perdendo a direção")
    assert lost.visibility == "gm" and lost.data["resultado"] == "Perdidos"
    assert play.state.travel.lost is True
    assert any(e.kind == "relato" and e.visibility == "gm" and "perdido" in e.text
               for e in events)
    public = [e.text.lower() for e in events if e.visibility == "public"]
    assert public and not any("perd" in text or "Tabela C" in text for text in public)
    events = run(play, "avancar", *QUIET, 5)  # lost stays lost: Tabela C is not rolled
    assert not rolls(events, "Tabela C: Perdendo a direção")
    assert play.state.travel.lost is True
    assert any(e.visibility == "gm" and "continua perdido" in e.text for e in events)
    (found,) = run(play, "caminho")
    assert found.visibility == "gm" and play.state.travel.lost is False
    events = run(play, "avancar", *QUIET, chance + 1, 5)
    assert one_roll(events, "Tabela C: Perdendo a direção").data["resultado"] == \
        "Na direção certa"


@pytest.mark.parametrize("terrain", TERRAINS)
@pytest.mark.parametrize("face", range(1, 7))
def test_advancing_rolls_1d6_on_tabela_d(play: Play, terrain: str, face: int) -> None:
    start(play, terrain=terrain, day_start_terrain="estepe")
    event = one_roll(run(play, "avancar", *QUIET, 6, face), "Tabela D: Eventos")
    assert event.data["dados"] == "1d6"
    assert event.data["resultado"] == SEED_D[terrain][face - 1]


@pytest.mark.parametrize("terrain", TERRAINS)
@pytest.mark.parametrize("face", range(1, 9))
def test_exploring_rolls_1d8_on_tabela_d(play: Play, terrain: str, face: int) -> None:
    start(play, terrain=terrain, day_start_terrain="estepe")
    event = one_roll(run(play, "explorar", *QUIET, face), "Tabela D: Eventos")
    assert event.data["dados"] == "1d8"
    assert event.data["resultado"] == SEED_D[terrain][face - 1]


def test_rows_7_and_8_only_by_exploring(play: Play) -> None:
    start(play, terrain="floresta", day_start_terrain="estepe")
    with pytest.raises(AssertionError, match="outside 1..6"):
        play("avancar", rng=FixedDice(*QUIET, 6, 7))
    event = one_roll(run(play, "explorar", *QUIET, 7), "Tabela D: Eventos")
    assert event.data["resultado"] == "Peregrinos"


# ---------------------------------------------------------------- forced march

def _march(play: Play) -> list:
    """One avançar. Past the free rounds the test comes first: the round opens (weather,
    encounter) and the advance (Tabela C, D) waits for the answers."""
    free = play.tables.get("viagem", "tabela_b", "rodadas_sem_penalidade")
    if play.state.travel.consecutive_advances >= free and play.state.party:
        return run(play, "avancar", *QUIET)
    return run(play, "avancar", *QUIET, 6, 5)


ADVANCE = (6, 5)  # the advance after the forced-march tests: Tabela C, Tabela D


def test_two_consecutive_advances_are_free(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="estepe")
    _march(play)
    _march(play)
    assert play.state.prompts == ()
    assert play.state.travel.consecutive_advances == 2


def test_forced_march_dc_12_then_15_then_18(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="estepe")
    _march(play)
    _march(play)
    for dc in (12, 15, 18):
        _march(play)
        prompts = play.state.prompts
        assert [(p.kind, p.character, p.dc, p.modifier) for p in prompts] == [
            ("marcha_forcada", "ana", dc, 1), ("marcha_forcada", "bia", dc, -1)]
        for prompt in prompts:
            last = prompt is prompts[-1]
            run(play, "responder", *(ADVANCE if last else ()), pedido=prompt.id, valor=20)
        assert play.state.prompts == () and play.state.travel.consecutive_advances == dc // 3 - 1


def test_any_other_activity_resets_the_advance_count(play: Play) -> None:
    start(play, party=(ana(),), terrain="estepe")
    _march(play)
    _march(play)
    run(play, "acampar", *QUIET, 6)
    assert play.state.travel.consecutive_advances == 0
    _march(play)
    _march(play)
    assert play.state.prompts == ()


@pytest.mark.parametrize("between", [
    [("masmorra", {}), ("viagem", {})],
    [("masmorra", {}), ("turno", {}), ("dormir", {}), ("viagem", {})],
    [("fugir", {}), ("fuga", {"resultado": "sucesso"}), ("fuga", {"resultado": "sucesso"}),
     ("fuga", {"resultado": "sucesso"})],
])
def test_time_without_advancing_resets_the_forced_march(play: Play, between: list) -> None:
    """avançar ×2, a dungeon stay (or a chase), avançar: not a 3rd round in a row (the stay
    opened round 3, with its weather and encounter check; the advance is in what is left of
    it, or in the next round when the stay filled it)."""
    start(play, party=(ana(),), terrain="estepe")
    _march(play)
    _march(play)
    for name, args in between:
        play(name, **args)
    assert play.state.travel.consecutive_advances == 0
    play.state = replace(play.state, prompts=())  # whatever the stay asked is not the point
    events = run(play, "avancar", *(() if play.state.travel.round_open else QUIET), 6, 5)
    assert play.state.travel.consecutive_advances == 1
    assert not any(p.kind == "marcha_forcada" for p in play.state.prompts)
    assert not any("Marcha forçada" in e.text for e in events)


def test_the_forced_march_test_reads_its_die_and_attribute_from_the_table(tables) -> None:
    files = dict(tables.files)
    files["viagem"] = {**files["viagem"], "tabela_b": {**files["viagem"]["tabela_b"],
                                                      "dados": "1d12", "atributo": "des"}}
    play = Play(Tables(files=files, directory=tables.directory))
    start(play, party=(ana(),), terrain="estepe")
    for _ in range(3):
        events = _march(play)
    (prompt,) = play.state.prompts
    assert (prompt.dice, prompt.modifier) == ("1d12", 2)  # Ana DES +2
    assert "teste de DES DC 12" in prompt.text
    assert any("teste de DES DC 12" in e.text for e in events if e.kind == "relato")
    assert not any("CON" in e.text for e in events)


def _forced(play: Play) -> None:
    start(play, party=(ana(),), terrain="estepe")
    for _ in range(3):
        _march(play)


def test_forced_march_passed(play: Play) -> None:
    _forced(play)
    hexes = play.state.travel.hexes
    events = run(play, "responder", *ADVANCE, valor=11)  # 11 + CON 1 = 12: now the advance
    assert any("aguenta" in e.text for e in events)
    texts = [e.text for e in events]
    aguenta = next(i for i, t in enumerate(texts) if "aguenta" in t)
    avanca = next(i for i, t in enumerate(texts) if t.startswith("O grupo avança"))
    assert aguenta < avanca  # the test before the advance
    assert play.state.prompts == () and play.state.travel.hexes == hexes + 0.5
    assert play.state.minutes == 3 * 240


def test_forced_march_advance_waits_for_the_test(play: Play) -> None:
    start(play, party=(ana(),), terrain="estepe")
    _march(play)
    _march(play)
    hexes = play.state.travel.hexes
    events = _march(play)  # the 3rd: the test comes first
    assert not rolls(events, "Tabela C: Perdendo a direção")
    assert not any(e.text.startswith("O grupo avança") for e in events)
    assert play.state.travel.hexes == hexes and play.state.minutes == 2 * 240


def test_forced_march_failed_then_rest_two_rounds(play: Play) -> None:
    """Only THAT character rests: the group does not advance without her (that round is the
    first of her rest); any other travel round pays the rest; only advancing waits."""
    _forced(play)
    run(play, "responder", valor=10)  # 11 < 12
    (choice,) = play.state.prompts
    assert choice.kind == "escolha_marcha" and choice.options == ("descansar", "exaustao")
    hexes = play.state.travel.hexes
    events = run(play, "responder", opcao="descansar")
    assert "O grupo não avança nesta rodada: espera Ana, que descansa pela marcha forçada." \
        in [e.text for e in events]
    assert play.state.travel.hexes == hexes and play.state.minutes == 3 * 240
    assert play.state.party[0].rest_rounds_owed == 1  # that round paid one
    assert play.state.party[0].exhaustion == 0
    before = play.state
    with pytest.raises(CommandRejected, match=r"Ana ainda descansa pela marcha forçada "
                                              r"\(falta 1 rodada\): o grupo só avança "
                                              r"depois.*'cancelar Ana'"):
        play("avancar", rng=FixedDice())
    assert play.state == before
    events = run(play, "explorar", *QUIET, 5)  # the group explores; Ana sits it out
    assert "Ana descansa nesta rodada pela marcha forçada: pode voltar às atividades." in \
        [e.text for e in events]
    assert play.state.party[0].rest_rounds_owed == 0
    assert play.state.party[0].food == before.party[0].food  # no rest was forced on anyone
    _march(play)  # free again


def _forced_pair(play: Play, *party) -> None:
    """Three advances with this party: every character is asked the forced-march test."""
    start(play, party=party or (ana(), bia()), terrain="estepe")
    for _ in range(3):
        _march(play)


def test_only_the_characters_who_owe_rest_sit_the_round_out(play: Play) -> None:
    """docs/regras.md: only they sit out. Advancing waits for Ana, but Bia still chooses her
    activity this round; the round closes when everyone who may act has acted."""
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)  # Ana fails: the choice waits
    run(play, "responder", pedido=2, valor=15)  # Bia passes
    events = run(play, "responder", opcao="descansar")
    said = [e for e in events if e.code == "viagem.sem_avanco"]
    assert [e.text for e in said] == [
        "O grupo não avança nesta rodada: espera Ana, que descansa pela marcha forçada. "
        "Ainda falta agir nesta rodada: Bia (uma atividade, ou uma do grupo)."]
    assert said[0].data == {"sem_avanco": True, "faltam": ["bia"]}
    # players read no command; the GM's own line says which (issue 31 item 6)
    (hint,) = [e for e in events if e.code == "viagem.sem_avanco_dica"]
    assert hint.visibility == "gm"
    assert hint.text == "Diga a atividade com o nome, como 'caçar Bia', ou uma do grupo, como 'explorar'."
    assert play.state.minutes == 2 * 240 and play.state.travel.round_open  # not over yet
    assert play.state.party[0].rest_rounds_owed == 2
    with pytest.raises(CommandRejected, match="Ana ainda descansa pela marcha forçada"):
        play("avancar", rng=FixedDice())
    with pytest.raises(CommandRejected, match="Ana ainda descansa pela marcha forçada"):
        play("cacar", rng=FixedDice(), personagem="Ana")
    events = run(play, "cacar", 1, personagem="Bia")  # this round's: no new weather roll
    assert not rolls(events, "Clima")
    assert play.state.party[1].food > 0 and play.state.party[0].food == 0
    assert "Ana descansa nesta rodada pela marcha forçada: falta 1 rodada." in [
        e.text for e in events]
    assert play.state.minutes == 3 * 240 and not play.state.travel.round_open
    assert play.state.party[0].rest_rounds_owed == 1


def test_a_group_activity_in_the_waiting_round_is_everyone_elses(play: Play) -> None:
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=15)
    run(play, "responder", opcao="descansar")
    events = run(play, "explorar", 5)  # the round is open: no weather, no encounter check
    assert not rolls(events, "Clima") and not rolls(events, "Encontro aleatório")
    group = [e for e in events if e.code == "viagem.atividade_do_grupo"]
    assert [e.text for e in group] == ["Bia: explorar nesta rodada."]
    assert one_roll(events, "Tabela D: Eventos").data["total"] == 5
    assert play.state.minutes == 3 * 240
    assert play.state.party[0].rest_rounds_owed == 1


def test_the_waiting_round_does_not_advance_after_a_release(play: Play) -> None:
    """Released from the rest in the round whose advance waited, Ana may act in it, but the
    party advances next round: the tests of this round were taken."""
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=15)
    run(play, "responder", opcao="descansar")
    run(play, "cancelar", personagem="Ana")
    with pytest.raises(CommandRejected, match="'avançar' leva o grupo todo, mas nesta rodada o "
                                              "grupo já esperou quem descansa pela marcha "
                                              "forçada; Ana e Bia ainda podem agir"):
        play("avancar", rng=FixedDice())
    run(play, "explorar", 5)
    assert play.state.minutes == 3 * 240


def test_several_who_rest_are_said_in_the_plural(play: Play) -> None:
    carla = replace(new_character(id="carla", name="Carla"), food=0, water=0)
    _forced_pair(play, ana(), bia(), carla)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=1)
    run(play, "responder", pedido=3, valor=15)
    run(play, "responder", pedido=4, opcao="descansar")
    events = run(play, "responder", pedido=5, opcao="descansar")
    said = [e.text for e in events if e.code == "viagem.sem_avanco"]
    assert said == ["O grupo não avança nesta rodada: espera Ana e Bia, que descansam pela "
                    "marcha forçada. Ainda falta agir nesta rodada: Carla (uma atividade, "
                    "ou uma do grupo)."]


def test_when_everyone_rests_the_waiting_round_closes_at_once(play: Play) -> None:
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=1)
    run(play, "responder", pedido=3, opcao="descansar")
    events = run(play, "responder", pedido=4, opcao="descansar")
    assert "O grupo não avança nesta rodada: espera Ana e Bia, que descansam pela marcha " \
        "forçada." in [e.text for e in events]
    assert play.state.minutes == 3 * 240
    assert [c.rest_rounds_owed for c in play.state.party] == [1, 1]


def test_a_resting_character_takes_no_part_in_the_group_activity(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=2), bia()), terrain="floresta")
    events = run(play, "forragear", *QUIET, 1)  # Tabela E: found
    ana_now, bia_now = play.state.party
    assert (ana_now.food, bia_now.food) == (0, 1)
    assert "Bia: +1 comida e +1 água." in [e.text for e in events]
    run(play, "criar_municao", *QUIET, 20)  # only Bia rolls Tabela G
    assert (play.state.party[0].ammo, play.state.party[1].ammo) == (0, 20)
    assert play.state.party[0].rest_rounds_owed == 0


def test_a_resting_character_is_never_the_accident_victim(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=1), bia()), terrain="floresta")
    events = run(play, "forragear", *QUIET, 6, 8)  # failed; Tabela F 8: Bia alone, no 1dN
    assert not rolls(events, "Acidente: quem sofre")
    assert play.state.party[1].hp == 6 and play.state.party[0].hp == 8


def test_the_whole_group_resting_off_a_march_does_nothing(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=1),), terrain="floresta")
    events = run(play, "forragear", *QUIET)
    assert any(e.text.startswith("Ninguém participa") for e in events)
    assert not rolls(events, "Tabela E: Forragear/Caçar/Pescar")
    assert play.state.party[0].rest_rounds_owed == 0


def test_owed_rest_refuses_an_activity_named_for_that_character(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=2), bia()), terrain="estepe")
    for activity in ("forragear", "cacar", "pescar", "criar_municao"):
        with pytest.raises(CommandRejected, match=r"Ana ainda descansa pela marcha forçada "
                                                  r"\(faltam 2 rodadas\): nenhuma outra "
                                                  "atividade"):
            play(activity, rng=FixedDice(), personagem="Ana")
    run(play, "forragear", 6, 1, personagem="Bia")  # Bia owes nothing: Tabela E fails, F 1


def test_the_gm_releases_a_character_from_owed_rest(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=2),), terrain="estepe")
    events = run(play, "cancelar", personagem="Ana")
    assert play.state.party[0].rest_rounds_owed == 0
    assert "dispensa Ana do descanso da marcha forçada (faltavam 2 rodadas)" in events[0].text
    run(play, "explorar", *QUIET, 5)


@pytest.mark.parametrize("answered", [0, 1])
def test_unanswered_forced_march_prompts_block_the_next_activity(play: Play,
                                                                 answered: int) -> None:
    _forced(play)
    if answered:
        run(play, "responder", valor=1)  # failed: now the choice waits
    (waiting,) = play.state.prompts
    what = ("Tabela B: Forçando o Avanço" if not answered
            else "Escolha depois da marcha forçada")
    for activity in ("avancar", "explorar", "descansar", "acampar", "dormir", "masmorra"):
        before = play.state
        with pytest.raises(CommandRejected, match=f"Ana ainda não respondeu ao pedido "
                                                  rf"{waiting.id} \({what}\): responda "
                                                  rf"\('responder pedido {waiting.id}'\) ou "
                                                  rf"cancele \('cancelar pedido {waiting.id}'"
                                                  r"\) antes de seguir"):
            play(activity, rng=FixedDice())
        assert play.state == before
    with pytest.raises(CommandRejected, match="Ana ainda não respondeu"):
        play("forragear", rng=FixedDice(), personagem="Ana")
    run(play, "cancelar", *ADVANCE)  # cancelled: the advance goes on
    run(play, "explorar", *QUIET, 5)


@pytest.mark.parametrize("phase", ["declarada", "ativa"])
def test_no_travel_round_during_a_flight_or_chase(play: Play, phase: str) -> None:
    from companion.engine.model import Chase

    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, chase=Chase(phase=phase))  # type: ignore[arg-type]
    for activity, said in (("avancar", "avançar"), ("dormir", "dormir"),
                           ("descansar", "descansar"), ("explorar", "explorar")):
        with pytest.raises(CommandRejected, match=f"'{said}' não vale durante a fuga"):
            play(activity, rng=FixedDice())


@pytest.mark.parametrize("kind", ["interrupcao", "teste_percalco"])
def test_rest_tests_hold_the_group_too(play: Play, kind: str) -> None:
    from companion.engine.model import Dungeon, Prompt

    start(play, party=(ana(), bia()), terrain="estepe")
    play.state = replace(play.state, prompts=(Prompt(4, kind, "bia", "teste"),),
                         next_prompt_id=5)
    name = play.tables.get("pedidos", "nomes_pedidos", kind)
    for activity in ("avancar", "explorar", "descansar", "dormir", "masmorra"):
        with pytest.raises(CommandRejected, match=rf"Bia ainda não respondeu ao pedido 4 "
                                                  rf"\({name}\)"):
            play(activity, rng=FixedDice())
    play.state = replace(play.state, dungeon=Dungeon(active=True))
    for activity in ("turno", "descansar", "dormir"):
        with pytest.raises(CommandRejected, match="Bia ainda não respondeu ao pedido 4"):
            play(activity, rng=FixedDice())
    run(play, "perigo", perigo="mortal")  # not a group activity


def test_a_panic_test_does_not_hold_the_group(play: Play) -> None:
    from companion.engine.model import Prompt

    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, prompts=(Prompt(1, "panico", "ana", "pânico"),),
                         next_prompt_id=2)
    run(play, "explorar", *QUIET, 5)


def test_the_kinds_that_hold_the_group_are_data(tables) -> None:
    files = dict(tables.files)
    files["comandos"] = {**files["comandos"], "pedidos_que_seguram": ["panico"]}
    play = Play(Tables(files=files, directory=tables.directory))
    from companion.engine.model import Prompt

    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, prompts=(Prompt(1, "panico", "ana", "pânico"),),
                         next_prompt_id=2)
    with pytest.raises(CommandRejected, match=r"pedido 1 \(Teste de pânico\)"):
        play("explorar", rng=FixedDice())
    play.state = replace(play.state, prompts=(Prompt(1, "interrupcao", "ana", "CON"),))
    run(play, "explorar", *QUIET, 5)


def test_forced_march_failed_then_exhaustion(play: Play) -> None:
    _forced(play)
    run(play, "responder", valor=1)
    (choice,) = play.state.prompts
    assert choice.labels == ("descansar", "exaustão")
    events = run(play, "responder", *ADVANCE, opcao="exaustão")
    assert "respondeu: exaustão (escolha depois da marcha forçada)." in events[0].text
    assert "recebe 1 ponto de exaustão" in events[1].text
    assert play.state.party[0].exhaustion == 1
    assert play.state.party[0].rest_rounds_owed == 0


# ---------------------------------------------------------------- Forragear / Caçar / Pescar

ACTIVITIES = ["forragear", "cacar", "pescar"]


@pytest.mark.parametrize("terrain", TERRAINS)
@pytest.mark.parametrize("column", range(3))
def test_tabela_e_success_and_failure(play: Play, tables, terrain: str, column: int) -> None:
    activity = ACTIVITIES[column]
    chance = SEED_E[terrain][column]
    gain = tables.get("casa", "colheita", activity)
    start(play, party=(ana(), bia()), terrain=terrain, day_start_terrain="estepe")
    events = run(play, activity, *QUIET, chance, chance)  # one Tabela E roll each
    found = rolls(events, "Tabela E: Forragear/Caçar/Pescar")
    assert [(e.data["personagem"], e.data["resultado"], e.data["chance"]) for e in found] == [
        ("ana", "Sucesso", f"{chance}:6"), ("bia", "Sucesso", f"{chance}:6")]
    assert [(c.food, c.water) for c in play.state.party] == [(gain["comida"], gain["agua"])] * 2
    events = run(play, activity, *QUIET, chance + 1, 3, chance + 1, 3)
    assert [e.data["resultado"] for e in rolls(events, "Tabela E: Forragear/Caçar/Pescar")] \
        == ["Falha", "Falha"]
    assert [e.data["resultado"] for e in rolls(events, "Tabela F: Acidentes")] == ["Nada"] * 2
    assert [(c.food, c.water) for c in play.state.party] == [(gain["comida"], gain["agua"])] * 2


def test_named_forager_gets_the_food_and_the_round_waits_for_the_others(play: Play,
                                                                        tables) -> None:
    start(play, party=(ana(), bia()), terrain="floresta")
    events = run(play, "cacar", 1, personagem="Bia")
    assert [c.food for c in play.state.party] == [0, tables.get("casa", "colheita", "cacar",
                                                                "comida")]
    assert play.state.minutes == 0  # Ana has not acted yet: the round goes on
    assert rolls(events, "Clima")  # the round's weather comes first
    assert events[-1].data["faltam"] == ["ana"]


def test_forage_yields_are_house_defaults(tables) -> None:
    assert tables.get("casa", "padrao_da_casa") is True
    assert set(tables.get("casa", "colheita")) == set(ACTIVITIES)


@pytest.mark.parametrize("face", range(1, 6))
def test_tabela_f_rows_1_to_5_nothing(play: Play, face: int) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "forragear", 2, face, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == "Nada"
    assert play.state.party == (ana(),)


def test_tabela_f_row_6_poisoned_food(play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "forragear", 2, 6, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[6]
    (poisoned,) = play.state.party[0].lasting  # DESV for the whole next day, then it ends
    assert (poisoned.text, poisoned.since, poisoned.until, poisoned.edge) == (
        "Comida venenosa/doente", 24 * 60, 48 * 60, "desvantagem")


def test_tabela_f_row_7_ticks(play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "pescar", 3, 7, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[7]
    assert play.state.party[0].conditions == (
        "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar",)


def test_tabela_f_row_8_sprained_ankle(play: Play) -> None:
    start(play, party=(ana(hp=5),), terrain="montanha")
    events = run(play, "cacar", 3, 8, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[8]
    assert play.state.party[0].hp == 3
    assert play.state.party[0].conditions == (
        "Tornozelo torcido: 1/2 do movimento até ser curado",)


ANKLE = "Tornozelo torcido: 1/2 do movimento até ser curado"


def advance_text(events: list) -> str:
    (said,) = [e for e in events if e.kind == "relato" and "avança" in e.text]
    return said.text


def test_tabela_f_row_8_marks_the_condition_until_cured_and_says_how_to_cure(
        play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "cacar", 3, 8, personagem="ana")
    (warning,) = [e for e in events if e.kind == "aviso"]
    assert warning.text == f"Ana: {ANKLE}. Dura até ser curado."
    assert warning.visibility == "public"
    (how,) = [e for e in events if "curar" in e.text]  # the instruction is the GM's alone
    assert how.visibility == "gm" and how.text == "Quando Ana se curar, diga 'curar Ana'."


def test_tabela_f_row_8_halves_the_next_advance(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    run(play, "explorar", 5)  # Bia explores: the round closes
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25
    assert "meio movimento: Ana está com o tornozelo torcido" in advance_text(events)
    assert "0,25 hex" in advance_text(events)
    said = [e for e in events if "avança" in e.text][0]
    assert said.data["hexes"] == 0.25 and said.data["fator"] == 0.5
    assert said.data["lentos"] == ["Ana"]


def test_two_characters_hurt_still_halve_once(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    run(play, "pescar", 3, 8, personagem="bia")
    assert all(c.conditions == (ANKLE,) for c in play.state.party)
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25
    assert "meio movimento: Ana e Bia estão com o tornozelo torcido" in advance_text(events)


@pytest.mark.parametrize("mode,full", [("andando", 0.5), ("montado", 1.0), ("navegando", 2.0)])
def test_the_sprained_ankle_halves_every_travel_mode(play: Play, mode: str, full: float) -> None:
    start(play, party=(ana(conditions=(ANKLE,)),), terrain="estepe", mode=mode)
    run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == full / 2


def test_curar_restores_full_progress(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    run(play, "explorar", 5)
    run(play, "avancar", *QUIET, 6, 5)
    events = run(play, "curar", personagem="Ana")
    assert play.state.party[0].conditions == ()
    assert events[0].text == f"Cura — Ana não tem mais “{ANKLE}”."
    assert events[-1].text == "O grupo volta a avançar no passo normal."
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25 + 0.5
    assert "meio movimento" not in advance_text(events)


def test_curing_one_of_two_hurt_keeps_the_group_slow(play: Play) -> None:
    start(play, party=(ana(conditions=(ANKLE,)), bia(conditions=(ANKLE,))), terrain="estepe")
    events = run(play, "curar", personagem="bia")
    assert not any("passo normal" in e.text for e in events)
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25
    assert "meio movimento: Ana está com o tornozelo torcido" in advance_text(events)


def test_conditions_without_an_effect_do_not_slow_the_group(play: Play) -> None:
    ticks = "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar"
    start(play, party=(ana(conditions=(ticks,)),), terrain="estepe")
    run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.5


def test_the_advance_factor_lives_in_data(tables: Tables) -> None:
    import copy

    files = copy.deepcopy(dict(tables.files))
    files["viagem"]["efeitos_de_condicao"]["meio_movimento"]["fator_avanco"] = 0.25
    files["viagem"]["efeitos_de_condicao"]["meio_movimento"]["nome"] = "passo lento"
    changed = Play(Tables(files=files, directory=tables.directory))
    start(changed, party=(ana(conditions=(ANKLE,)),), terrain="estepe", mode="montado")
    events = run(changed, "avancar", *QUIET, 6, 5)
    assert changed.state.travel.hexes == 0.25
    assert "passo lento: Ana está com o tornozelo torcido" in advance_text(events)


def test_the_sprained_ankle_shows_on_the_character(play: Play, tables: Tables) -> None:
    from companion.engine.view import view_state

    start(play, party=(ana(),), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    for viewer in ("gm", "public", "player:ana"):
        (shown,) = view_state(play.state, viewer, tables)["grupo"]
        assert shown["condicoes"] == [ANKLE]
    run(play, "curar", personagem="ana")
    assert view_state(play.state, "public", tables)["grupo"][0]["condicoes"] == []


def test_tabela_f_row_8_never_below_zero_hp(play: Play) -> None:
    start(play, party=(ana(hp=1),), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    assert play.state.party[0].hp == 0


def test_tabela_f_row_9_ambush(play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "cacar", 3, 9, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[9]
    assert play.state.party == (ana(),)


def test_tabela_f_row_10_rolls_an_encounter_of_the_start_region(play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha", day_start_terrain="colinas")
    events = run(play, "cacar", 3, 10, 1, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[10]
    assert one_roll(events, "Encontros: Colinas").data["resultado"] == "Ogro solitário"


def test_a_group_forage_is_one_roll_per_character_and_tabela_f_on_their_own_failure(
        play: Play) -> None:
    """docs/regras.md: each character who has not acted rolls their own Tabela E, and Tabela F on
    their own failure (no die picks a victim); the yield is per character."""
    start(play, party=(ana(), bia(hp=8)), terrain="montanha", day_start_terrain="estepe")
    events = run(play, "forragear", *QUIET, 1, 2, 8)  # Ana finds food; Bia fails: F 8
    found = rolls(events, "Tabela E: Forragear/Caçar/Pescar")
    assert [(e.data["personagem"], e.data["resultado"]) for e in found] == [
        ("ana", "Sucesso"), ("bia", "Falha")]
    assert [e.text.split(" — ")[0] for e in found] == [
        "Tabela E: Forragear/Caçar/Pescar (Ana)", "Tabela E: Forragear/Caçar/Pescar (Bia)"]
    (accident,) = rolls(events, "Tabela F: Acidentes")
    assert accident.data["personagem"] == "bia"
    assert accident.text.startswith("Tabela F: Acidentes (Bia) — 1d10 = 8")
    assert not rolls(events, "Acidente: quem sofre")
    assert [c.hp for c in play.state.party] == [8, 6]
    assert [(c.food, c.water) for c in play.state.party] == [(1, 1), (0, 0)]
    assert "Ana: +1 comida e +1 água." in [e.text for e in events]


@pytest.mark.parametrize("named", [True, False])
def test_an_exhausted_character_rolls_tabela_e_with_desv(play: Play, named: bool) -> None:
    """DESV on every die of that character, X-in-6 included: roll twice, keep the worse (for
    X-in-6 the higher), and say so like the other DESV rolls."""
    start(play, party=(ana(), bia(exhaustion=1)), terrain="floresta")
    if named:
        events = run(play, "cacar", 3, 6, 1, personagem="Bia")  # 3 and 6: the 6 stays
    else:
        events = run(play, "cacar", *QUIET, 2, 3, 6, 1)  # Ana 2; Bia 3 and 6; Tabela F 1
    bia_roll = [e for e in rolls(events, "Tabela E: Forragear/Caçar/Pescar")
                if e.data["personagem"] == "bia"]
    (event,) = bia_roll
    assert (event.data["total"], event.data["vantagem"], event.data["descartado"]) == (
        6, "desvantagem", 3)
    assert event.data["resultado"] == "Falha"
    assert event.data["faces"] == [["d6", [6]], ["d6", [3]]]
    assert "= 6 (desvantagem, descartado 3): Falha" in event.text
    assert one_roll(events, "Tabela F: Acidentes").data["personagem"] == "bia"
    assert play.state.party[1].food == 0


def test_a_roll_without_desv_keeps_one_die(play: Play) -> None:
    start(play, party=(ana(),), terrain="floresta")
    event = one_roll(run(play, "pescar", 5, personagem="Ana"), "Tabela E: Forragear/Caçar/Pescar")
    assert "vantagem" not in event.data and event.data["faces"] == [["d6", [5]]]


# ---------------------------------------------------------------- Criar munição

@pytest.mark.parametrize("terrain", TERRAINS)
def test_ammo_with_tabela_g(play: Play, terrain: str) -> None:
    start(play, party=(ana(),), terrain=terrain)
    events = run(play, "criar_municao", 15, personagem="Ana")
    expected = max(0, 15 + 2 + SEED_G[terrain])
    event = one_roll(events, "Tabela G: Criar Munição")
    assert event.data["total"] == 15 + 2 + SEED_G[terrain]
    assert play.state.party[0].ammo == expected


def test_ammo_never_below_zero(play: Play) -> None:
    start(play, party=(ana(ammo=3),), terrain="montanha")
    events = run(play, "criar_municao", 1, personagem="Ana")  # 1 + 2 - 10 = -7
    assert one_roll(events, "Tabela G: Criar Munição").data["total"] == -7
    assert play.state.party[0].ammo == 3


def test_ammo_for_the_whole_group_is_a_round(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="floresta", day_start_terrain="estepe")
    run(play, "criar_municao", *QUIET, 10, 7)
    assert [c.ammo for c in play.state.party] == [12, 7]
    assert play.state.minutes == 240


# ---------------------------------------------------------------- exhaustion (Tabela I)

def test_exhaustion_level_1_gives_disadvantage(play: Play) -> None:
    start(play, party=(ana(exhaustion=1),), terrain="floresta")
    events = run(play, "criar_municao", 18, 4, personagem="Ana")
    event = one_roll(events, "Tabela G: Criar Munição")
    assert event.data["vantagem"] == "desvantagem" and event.data["total"] == 4 + 2
    assert play.state.party[0].ammo == 6


def test_exhaustion_level_2_also_drops_modifiers(play: Play) -> None:
    start(play, party=(ana(exhaustion=2),), terrain="floresta")
    events = run(play, "criar_municao", 18, 4, personagem="Ana")
    assert one_roll(events, "Tabela G: Criar Munição").data["total"] == 4
    tired = ana(exhaustion=2)
    assert (modifier(tired, "des", play.tables), edge_for(tired, play.tables, 0)) == (0, "desvantagem")


def test_exhaustion_level_3_keeps_1_and_2_and_hurts_con_each_day(play: Play) -> None:
    start(play, party=(ana(exhaustion=3),), terrain="floresta", day_start_terrain="estepe")
    tired = ana(exhaustion=3)
    assert (modifier(tired, "con", play.tables), edge_for(tired, play.tables, 0)) == (0, "desvantagem")
    play.state = replace(play.state, minutes=5 * 240, travel=replace(play.state.travel,
                                                                     rested_today=True))
    events = run(play, "explorar", *QUIET, 5, 3)
    assert any(e.kind == "rolagem" and e.data["tabela"] == "Tabela I: Exaustão" for e in events)
    assert play.state.party[0].attribute_damage == {"con": 3}


# ---------------------------------------------------------------- the day without rest

def test_a_day_without_rest_gives_one_exhaustion(play: Play) -> None:
    start(play, party=(ana(), bia(exhaustion=1)), terrain="estepe")
    play.state = replace(play.state, minutes=5 * 240)
    events = run(play, "explorar", *QUIET, 5)
    assert [c.exhaustion for c in play.state.party] == [1, 2]
    assert any(e.kind == "aviso" and "sem descansar" in e.text for e in events)
    assert play.state.travel.rested_today is False


def test_a_day_with_rest_gives_no_exhaustion(play: Play) -> None:
    start(play, party=(ana(food=1, water=1),), terrain="estepe", camp_safe=True)
    play.state = replace(play.state, minutes=5 * 240)
    events = run(play, "descansar", *QUIET, 4)
    assert play.state.party[0].exhaustion == 0
    assert not any("sem descansar" in e.text for e in events)
    assert play.state.travel.rested_today is False  # a new day began


@pytest.mark.parametrize("rested", [False, True])
def test_the_gm_is_warned_when_the_last_round_starts_without_rest(play: Play,
                                                                  rested: bool) -> None:
    """At the start of the day's last round the GM learns the party has not rested today
    (the day's exhaustion is the rule; not knowing it is the bug)."""
    start(play, party=(ana(), bia()), terrain="estepe", rested_today=rested)
    play.state = replace(play.state, minutes=3 * 240)
    events = run(play, "explorar", *QUIET, 5)  # round 4 → round 5: no warning yet
    assert not any(e.code == "viagem.sem_descanso_hoje" for e in events)
    events = run(play, "explorar", *QUIET, 5)  # round 5 → round 6, the day's last
    warned = [e for e in events if e.code == "viagem.sem_descanso_hoje"]
    if rested:
        assert warned == []
        return
    (warning,) = warned
    assert (warning.kind, warning.visibility) == ("aviso", "gm")
    assert warning.data == {"dia": 1, "pontos": 1}
    assert warning.text == ("Começa a última rodada do dia 1 e o grupo ainda não descansou "
                            "hoje: se não descansar, à meia-noite cada personagem recebe "
                            "1 ponto de exaustão.")


def test_no_rest_warning_without_a_party(play: Play) -> None:
    start(play)
    play.state = replace(play.state, minutes=4 * 240)
    events = run(play, "explorar", *QUIET, 5)
    assert not any(e.code == "viagem.sem_descanso_hoje" for e in events)


def test_the_rest_warning_comes_in_a_dungeon_too(play: Play) -> None:
    """The clock reaching the day's last round inside a dungeon warns the GM as well."""
    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, minutes=5 * 240 - 10)
    play("masmorra", rng=FixedDice())
    events = play("turno", rng=FixedDice(6, 6, 6, 6))
    assert [e.visibility for e in events if e.code == "viagem.sem_descanso_hoje"] == ["gm"]


# ---------------------------------------------------------------- Levantar acampamento

@pytest.mark.parametrize("face,safe", [(1, True), (2, True), (3, True), (4, True), (5, True),
                                       (6, False)])
def test_camp_is_safe_on_5_in_6(play: Play, face: int, safe: bool) -> None:
    start(play)
    event = one_roll(run(play, "acampar", *QUIET, face), "Levantar Acampamento")
    assert event.data["chance"] == "5:6"
    assert play.state.travel.camp_safe is safe


def test_a_safe_camp_lasts_until_the_party_rests_or_moves_on(play: Play) -> None:
    """docs/regras.md: a safe camp lasts until the party rests or moves on (advances, enters a
    dungeon); exploring, foraging or crafting from the camp does not end it."""
    start(play, party=(ana(food=3, water=3),), terrain="estepe", day_start_terrain="estepe")
    run(play, "acampar", *QUIET, 1)
    run(play, "forragear", 6, 1, personagem="Ana")  # one character's activity: camp stays
    assert play.state.travel.camp_safe is True
    run(play, "explorar", *QUIET, 5)  # the group explores the hex around its camp
    assert play.state.travel.camp_safe is True
    run(play, "avancar", *QUIET, 6, 5)  # the party moves on: the camp stays behind
    assert play.state.travel.camp_safe is False
    events = run(play, "descansar", *QUIET, 1, 4)  # not safe any more: Tabela H, then 1d8
    assert one_roll(events, "Tabela H: Percalços").data["resultado"] == "Nada"


def test_resting_uses_up_the_safe_camp(play: Play) -> None:
    start(play, party=(ana(food=3, water=3),), terrain="estepe", camp_safe=True)
    events = run(play, "descansar", *QUIET, 4)
    assert not rolls(events, "Tabela H: Percalços")
    assert play.state.travel.camp_safe is False


def test_a_safe_camp_lasts_across_midnight(play: Play) -> None:
    """Camping in the day's last round protects the rest in the next day's first round."""
    start(play, party=(ana(food=3, water=3),), terrain="estepe")
    play.state = replace(play.state, minutes=5 * 240)  # the day's last round
    events = run(play, "acampar", *QUIET, 1)
    assert any("Fim do dia 1" in e.text for e in events)
    assert play.state.travel.camp_safe is True
    events = run(play, "descansar", *QUIET, 4, 4)  # day 2, round 1: no Tabela H (the hit
    # die twice: day 1 passed without rest, exhaustion 1 gives DESV)
    assert not rolls(events, "Tabela H: Percalços")
    assert any(e.code == "descanso.seguro" for e in events)


def test_entering_a_dungeon_leaves_the_camp(play: Play) -> None:
    start(play, terrain="estepe", camp_safe=True, consecutive_advances=2)
    play("masmorra")
    assert play.state.travel.camp_safe is False
    assert play.state.travel.consecutive_advances == 0


# ---------------------------------------------------------------- property

COMMANDS = st.one_of(
    st.sampled_from([("avancar", {}), ("explorar", {}), ("forragear", {}), ("cacar", {}),
                     ("pescar", {}), ("criar_municao", {}), ("acampar", {}),
                     ("descansar", {}), ("clima", {}), ("encontro", {})]),
    st.tuples(st.sampled_from(["forragear", "cacar", "pescar", "criar_municao"]),
              st.fixed_dictionaries({"personagem": st.sampled_from(["Ana", "bia", "Zé"])})),
    st.tuples(st.just("terreno"), st.fixed_dictionaries(
        {"terreno": st.sampled_from(TERRAINS + ["Pântano", "deserto", ""])})),
    st.tuples(st.just("modo"), st.fixed_dictionaries(
        {"modo": st.sampled_from(["andando", "montado", "navegando", "voando"])})),
    st.tuples(st.just("estacao"), st.fixed_dictionaries(
        {"estacao": st.sampled_from(["primavera", "verão", "outono", "inverno", "x"])})),
    st.tuples(st.just("responder"), st.one_of(
        st.fixed_dictionaries({"valor": st.integers(-3, 25)}),
        st.fixed_dictionaries({"opcao": st.sampled_from(["descansar", "exaustao", "x"])}),
        st.just({}))),
)


SMALL = st.integers(0, 3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(COMMANDS, max_size=30), seed=st.integers(0, 10_000),
       food=SMALL, water=SMALL, ammo=SMALL, hp=st.integers(0, 8), exhaustion=SMALL)
def test_travel_never_makes_anything_negative(tables, steps, seed, food, water, ammo, hp,
                                              exhaustion) -> None:
    party = (ana(food=food, water=water, ammo=ammo, hp=hp, exhaustion=exhaustion),
             bia(food=water, water=food, hp=1))
    state = State(party=party)
    for number, (name, args) in enumerate(steps):
        try:
            state, _ = apply(state, Command(name, args), __import__("random").Random(
                f"{seed}:{number}"), tables)
        except CommandRejected:
            continue
        for c in state.party:
            assert min(c.food, c.water, c.ammo, c.hp, c.exhaustion, c.rest_rounds_owed) >= 0
            assert c.hp <= c.hp_max
            assert all(value >= 0 for value in c.attribute_damage.values())
        assert state.travel.weather_row is None or 1 <= state.travel.weather_row <= 6


# ---------------------------------------------------------------- wording

@pytest.mark.parametrize("mode,said", [("andando", "0,5 hex"), ("montado", "1 hex"),
                                       ("navegando", "2 hexes")])
def test_hexes_are_said_with_a_decimal_comma(play: Play, mode: str, said: str) -> None:
    start(play, terrain="estepe", mode=mode)
    events = run(play, "avancar", *QUIET, 6, 5)
    assert any(e.text.startswith(f"O grupo avança {said} (") for e in events)


@pytest.mark.parametrize("named,said", [
    ({"personagem": "Bia"}, "Bia: +1 comida e +1 água."),
    ({}, "Ana e Bia: +1 comida e +1 água cada.")])
def test_the_harvest_says_cada_only_for_several(play: Play, named: dict, said: str) -> None:
    start(play, party=(ana(), bia()), terrain="floresta")
    faces = (1,) if named else (*QUIET, 1, 1)
    events = run(play, "forragear", *faces, **named)
    assert any(e.text == said for e in events)


# ---------------------------------------------------------------- encounters

def test_the_encounter_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(EncounterSettings).visibilidade == "mestre"
    assert tables.piece(EncounterTables).regioes["pantano"].linhas[1].quantidade == "2d4"


def test_an_encounter_chance_changed_in_the_data_changes_the_check(tables: Tables,
                                                                    tmp_path: Path) -> None:
    old = '{nome: "Estepe e Planície", chance: 1, terrenos: [estepe, planicie]}'
    rules = changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 1", "chance: 4"))
    for source, happened in ((tables, False), (rules, True)):
        play = start(Play(source), terrain="planicie", day_start_terrain="planicie")
        faces = (3, 4, 3) if happened else (3, 4)
        events = run(play, "explorar", *faces, 5)
        check = [e for e in events if e.data.get("tabela") == "Encontro aleatório"][0]
        assert check.data["chance"] == ("4:6" if happened else "1:6")
        assert check.data["resultado"] == ("Encontro" if happened else "Nenhum encontro")


def test_the_encounter_visibility_changed_in_the_data_shows_the_roll(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "visibilidade: mestre", "visibilidade: publico")
    play = start(Play(rules), day_start_terrain="pantano")
    events = run(play, "encontro", 1, 3, 2)
    assert {e.visibility for e in events} == {"public"}


def test_the_encounter_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/encontros.yaml",
                          'aparecem: "{{ \'Aparece\' if quantidade == 1 else \'Aparecem\' }} {{ quantidade }}: {{ encontro | replace(\' (\' ~ dados ~ \')\', \'\') if dados is defined else encontro }}."',
                          'aparecem: "Surgem {{ quantidade }} ({{ encontro }})!"')
    play = start(Play(rules), day_start_terrain="pantano")
    events = run(play, "encontro", 1, 3, 2)
    assert events[-1].code == "encontros.aparecem"
    assert events[-1].text == "Surgem 5 (Homens-lagarto (2d4))!"
    assert events[-1].data == {"quantidade": 5, "encontro": "Homens-lagarto (2d4)"}


def test_a_bad_encounter_visibility_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: 'encontros\.visibilidade' "
                                         r"deveria ser um destes: mestre, publico"):
        changed_rules(tmp_path, "casa.yaml", "visibilidade: mestre", "visibilidade: gm")


def test_a_bad_encounter_chance_names_the_file_and_key(tmp_path: Path) -> None:
    old = '{nome: "Pântano", chance: 3, terrenos: [pantano]}'
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'encontro\.grupos\[2\]\.chance'"
                                         r" deveria ser uma chance em 6, de 0 a 6"):
        changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 3", "chance: 9"))


# ---------------------------------------------------------------- forced march (Tabela B)

def _three_advances(play: Play) -> list:
    start(play, party=(ana(),), terrain="estepe")
    run(play, "avancar", *QUIET, 6, 5)
    run(play, "avancar", *QUIET, 6, 5)
    return run(play, "avancar", *QUIET)


def test_the_forced_march_piece_is_typed(tables: Tables) -> None:
    rules = tables.piece(ForcedMarch)
    assert (rules.dc, rules.dc_por_rodada, rules.atributo) == (12, 3, "con")
    assert forced_dc(rules, 2) is None and forced_dc(rules, 4) == 15


def test_a_forced_march_dc_changed_in_the_data_is_the_test_asked(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  dc: 12               # 1 rodada extra",
                          "  dc: 14")
    play = Play(rules)
    events = _three_advances(play)
    (prompt,) = play.state.prompts
    assert prompt.dc == 14 and "DC 14" in prompt.text
    said = [e for e in events if e.code == "viagem.marcha_forcada"]
    assert said and said[0].data == {"tabela": "Tabela B: Forçando o Avanço", "dc": 14}


def test_the_rest_rounds_changed_in_the_data_are_owed(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "rodadas_de_descanso: 2",
                          "rodadas_de_descanso: 3")
    play = Play(rules)
    _three_advances(play)
    run(play, "responder", valor=1)
    events = run(play, "responder", opcao="descansar")
    said = [e for e in events if e.code == "viagem.vai_descansar"]
    assert said[0].text == "Ana vai descansar 3 rodadas antes de outra atividade."


def test_the_forced_march_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          'aguenta_marcha: "{{ nome }} aguenta',
                          'aguenta_marcha: "Firme! {{ nome }} aguenta')
    play = Play(rules)
    _three_advances(play)
    events = run(play, "responder", 6, 5, valor=15)
    said = [e for e in events if e.code == "viagem.aguenta_marcha"]
    assert said[0].text == "Firme! Ana aguenta a marcha forçada (16 contra DC 12)."
    assert said[0].data == {"personagem": "ana"}


def test_an_unknown_march_choice_is_refused_from_narracao(tables: Tables) -> None:
    play = Play(tables)
    _three_advances(play)
    run(play, "responder", valor=1)
    (prompt,) = play.state.prompts
    scratch = Scratch(rng=FixedDice(), tables=tables, command=Command("responder"))
    with pytest.raises(CommandRejected) as refusal:
        march_choice_answered(play.state, prompt, PromptAnswer(option="voar"), scratch)
    assert refusal.value.code == "viagem.escolha_desconhecida"
    assert tables.narration.render(refusal.value.code, refusal.value.params) == \
        "escolha desconhecida: 'voar'; use descansar ou exaustão"


def test_a_bad_forced_march_die_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'tabela_b\.dados' deveria ser "
                                         r"uma expressão de dados"):
        changed_rules(tmp_path, "viagem.yaml", "  dados: 1d20          # o teste de CON",
                      "  dados: vinte  # o teste de CON")


# ---------------------------------------------------------------- advance (Tabelas A and C)

def test_the_advance_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(AdvanceTable).hexes["navegando"] == 2
    assert tables.piece(TravelModes).name("montado") == "Montado / Dirigindo"
    assert [g.chance for g in tables.piece(GettingLost).grupos] == [1, 2, 3]


def test_hexes_changed_in_the_data_are_the_advance(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "hexes: {andando: 0.5,", "hexes: {andando: 1.5,")
    play = start(Play(rules), terrain="estepe")
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 1.5
    said = [e for e in events if e.code == "viagem.avanca"][0]
    assert said.text.startswith("O grupo avança 1,5 hex (Andando).")
    assert said.data == {"hexes": 1.5, "tabela": "Tabela A: Avançar"}


def test_a_lost_chance_changed_in_the_data_changes_the_check(tables: Tables,
                                                              tmp_path: Path) -> None:
    old = "{nome: Estepes, chance: 1, terrenos: [estepe]}"
    rules = changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 1", "chance: 5"))
    for source, lost in ((tables, False), (rules, True)):
        play = start(Play(source), terrain="estepe")
        events = run(play, "avancar", *QUIET, 4, 5)
        assert play.state.travel.lost is lost
        assert any(e.code == "viagem.perdido" for e in events) is lost


def test_the_advance_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          "modo: \"O grupo viaja {{ nome }}:", "modo: \"Agora {{ nome }}:")
    play = start(Play(rules))
    (said,) = run(play, "modo", modo="montado")
    assert said.code == "viagem.modo" and said.data == {"modo": "montado"}
    assert said.text == "Agora Montado / Dirigindo: 1 hex por rodada."


def test_found_the_way_refused_from_narracao(tables: Tables) -> None:
    play = start(Play(tables))
    with pytest.raises(CommandRejected) as refusal:
        run(play, "caminho")
    assert refusal.value.code == "viagem.nao_esta_perdido"
    assert refusal.value.message.startswith("o grupo não está perdido: ")


def test_hexes_missing_a_mode_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'tabela_a\.hexes' deveria ser "
                                         r"um número de hexes para cada modo \(falta navegando\)"):
        changed_rules(tmp_path, "viagem.yaml", "montado: 1, navegando: 2}", "montado: 1}")


# ---------------------------------------------------------------- the travel round (travel.py)

def test_the_travel_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(TravelRound).minutos == 240
    assert tables.piece(TerrainNames).names()["pantano"] == "Pântano"
    assert tables.piece(EventsTable).column("montanha", tables.narration).linhas[2] == "Evento"
    assert tables.piece(Camp).chance == 5


def test_a_camp_chance_changed_in_the_data_changes_the_camp(tables: Tables,
                                                             tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  chance: 5            # 5:6",
                          "  chance: 2            # 5:6")
    for source, safe in ((tables, True), (rules, False)):
        play = start(Play(source))
        events = run(play, "acampar", *QUIET, 4)
        said = [e for e in events if e.code == "viagem.acampamento"][0]
        assert said.data == {"seguro": safe} and play.state.travel.camp_safe is safe


def test_a_round_length_changed_in_the_data_is_the_clock(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  minutos: 240", "  minutos: 120")
    play = start(Play(rules))
    events = run(play, "explorar", *QUIET, 5)
    assert play.state.minutes == 120
    said = [e for e in events if e.code == "viagem.rodada"][0]
    assert said.data == {"dia": 1, "rodada": 1} and said.text == "Dia 1, rodada 1 de 6."


def test_an_events_row_changed_in_the_data_is_the_row_rolled(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "4: Peregrinos,\n", "4: Mercadores,\n")
    play = start(Play(rules), terrain="planicie")
    events = run(play, "explorar", *QUIET, 4)
    assert [e.data["resultado"] for e in events if e.data.get("tabela") == "Tabela D: Eventos"] \
        == ["Mercadores"]


def test_the_travel_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          'explora: "O grupo explora o hex atual, procurando PdIs e rastros."',
                          'explora: "Vasculham o hex."')
    play = start(Play(rules))
    events = run(play, "explorar", *QUIET, 5)
    said = [e for e in events if e.code == "viagem.explora"]
    assert [e.text for e in said] == ["Vasculham o hex."] and said[0].data == {}


def test_an_unknown_terrain_is_refused_from_narracao(tables: Tables) -> None:
    play = start(Play(tables))
    with pytest.raises(CommandRejected) as refusal:
        run(play, "terreno", terreno="lua")
    assert refusal.value.code == "viagem.terreno_desconhecido"
    assert refusal.value.message == ("terreno desconhecido: 'lua'; use planície, estepe, "
                                     "colinas, floresta, pântano ou montanha")


def test_a_bad_camp_chance_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'acampamento\.chance' deveria "
                                         r"ser uma chance em 6, de 0 a 6"):
        changed_rules(tmp_path, "viagem.yaml", "  chance: 5            # 5:6", "  chance: 7  #")


# ---------------------------------------------------------------- foraging (Tabelas E, F, G)

def test_the_foraging_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(Yields).of("cacar").comida == 2
    assert tables.piece(GatheringTable).linhas[2].chance("pescar") == 5
    assert tables.piece(AccidentTable).linhas[8].dano == 2
    assert tables.piece(AmmoTable).linhas[4].modificador == -10


def test_a_yield_changed_in_the_data_is_the_harvest(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "cacar: {comida: 2, agua: 0}",
                          "cacar: {comida: 4, agua: 1}")
    play = start(Play(rules), party=(ana(),), terrain="floresta")
    events = run(play, "cacar", 1, personagem="Ana")
    assert (play.state.party[0].food, play.state.party[0].water) == (4, 1)
    said = [e for e in events if e.code == "viagem.colheita"][0]
    assert said.data == {"comida": 4, "agua": 1} and said.text == "Ana: +4 comida e +1 água."


def test_a_gathering_chance_changed_in_the_data_changes_the_check(tmp_path: Path) -> None:
    old = "{nome: Montanha, terrenos: [montanha], forragear: 1, cacar: 2, pescar: 2}"
    rules = changed_rules(tmp_path, "viagem.yaml", old, old.replace("cacar: 2", "cacar: 4"))
    play = start(Play(rules), party=(ana(),), terrain="montanha")
    events = run(play, "cacar", 4, personagem="Ana")
    check = [e for e in events if e.data.get("tabela") == "Tabela E: Forragear/Caçar/Pescar"][0]
    assert check.data["chance"] == "4:6" and check.data["resultado"] == "Sucesso"


def test_an_accident_damage_changed_in_the_data_is_the_harm(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "      dano: 2\n", "      dano: 4\n")
    play = start(Play(rules), party=(ana(hp=5),), terrain="montanha")
    events = run(play, "cacar", 3, 8, personagem="ana")
    assert play.state.party[0].hp == 1
    said = [e for e in events if e.code == "viagem.dano"][0]
    assert said.text == "Ana sofre 4 de dano (PV 1)." and said.data == {"personagem": "ana"}


def test_an_ammo_modifier_changed_in_the_data_is_the_roll(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "terrenos: [montanha], modificador: -10",
                          "terrenos: [montanha], modificador: -1")
    play = start(Play(rules), party=(ana(),), terrain="montanha")
    events = run(play, "criar_municao", 15, personagem="Ana")
    assert play.state.party[0].ammo == 16  # 15 + DES 2 - 1
    roll = [e for e in events if e.data.get("tabela") == "Tabela G: Criar Munição"][0]
    assert roll.data["resultado"] == "Ana: 16 munições"


def test_the_foraging_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          "municoes: \"{{ nome }}: {{ municoes | contagem('munição', 'munições') }}\"",
                          'municoes: "{{ nome }} faz {{ municoes }} flechas"')
    play = start(Play(rules), party=(ana(),), terrain="floresta")
    events = run(play, "criar_municao", 10, personagem="Ana")
    roll = [e for e in events if e.data.get("tabela") == "Tabela G: Criar Munição"][0]
    assert roll.data["resultado"] == "Ana faz 12 flechas"


def test_a_bad_yield_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: 'colheita\.pescar\.comida' "
                                         r"deveria ser número inteiro"):
        changed_rules(tmp_path, "casa.yaml", "pescar: {comida: 1,", "pescar: {comida: muita,")


# ---------------------------------------------------------------- the session's start (inicio)

def test_a_starting_terrain_changed_in_the_data_is_the_new_session(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "inicio.yaml", "  valor: planicie", "  valor: colinas")
    assert rules.piece(StartRules).terreno.valor == "colinas"
    state = initial_state(rules)
    assert state.travel.terrain == state.travel.day_start_terrain == "colinas"


def test_a_bad_starting_mode_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/inicio\.yaml: 'modo\.valor' deveria ser um "
                                         r"destes: andando, montado, navegando"):
        changed_rules(tmp_path, "inicio.yaml", "  valor: andando", "  valor: voando")


def test_the_exhaustion_of_a_day_without_rest_comes_from_the_data(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  dia_sem_descanso: 1 ",
                          "  dia_sem_descanso: 2 ")
    play = start(Play(rules), party=(ana(),))
    events = []
    for _ in range(6):
        events += run(play, "explorar", *QUIET, 5)
    assert play.state.party[0].exhaustion == 2
    said = [e for e in events if e.code == "viagem.dia_sem_descanso"]
    assert said[0].kind == "aviso" and "recebe 2 pontos de exaustão" in said[0].text


def test_an_encounter_table_missing_for_a_region_is_refused_at_load(tmp_path: Path) -> None:
    """Every terrain starts a day somewhere: encontros.yaml needs a table for each."""
    folder = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "encontros.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["regioes"]["pantano"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(TableError, match=r"tables/encontros\.yaml: 'regioes\.pantano' deveria "
                                         r"ser a tabela de encontros dessa região"):
        load_rules(folder)


# ---------------------------------------------------------------- a round a chase or dungeon fills (issue 26)

def _round_start_rolls(events: list) -> list[str]:
    return [e.data["tabela"] for e in events if e.kind == "rolagem"
            and e.data["tabela"] in ("Clima", "Encontro aleatório")]


def test_a_chase_at_the_start_of_a_round_keeps_its_weather_encounter_and_activities(
        tables) -> None:
    """docs/regras.md: every travel round gets its weather roll and encounter check once, at its
    start, even when a chase fills part of it; who did not act keeps their activity."""
    from tests.play_helpers import Play
    from tests.rules_helpers import new_character

    party = (new_character(id="ana", name="Ana", food=3, water=3),
             new_character(id="bia", name="Bia", food=3, water=3))
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party))
    events = play("fugir") + play("fuga", resultado="sucesso")  # the chase starts
    assert _round_start_rolls(events) == ["Clima", "Encontro aleatório"]
    events = play("fuga", resultado="sucesso") + play("fuga", resultado="sucesso")
    assert play.state.chase is None and play.state.minutes == 260
    events += play("cacar", personagem="Ana")
    assert _round_start_rolls(events) == []  # the round is the one the chase began
    assert play.state.minutes == 260 and play.state.travel.round_open
    events += play("forragear", personagem="Bia")  # the last one to act closes it
    assert _round_start_rolls(events) == []
    assert play.state.minutes == 480  # the round ends where it ends (8h), not 4 h later
    play("explorar")
    assert _round_start_rolls(play.events).count("Clima") == 2


def test_a_dungeon_entered_at_the_start_of_a_round_had_its_weather_and_encounter(
        tables) -> None:
    from tests.play_helpers import Play
    from tests.rules_helpers import new_character

    party = (new_character(id="ana", name="Ana", food=3, water=3),)
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party))
    events = play("masmorra")
    assert _round_start_rolls(events) == ["Clima", "Encontro aleatório"]
    play("turno")
    play("turno")
    events = play("viagem") + play("explorar")
    assert _round_start_rolls(events) == []
    assert play.state.minutes == 480


def _travel_round_rolls(events: list) -> list[str]:
    """The rolls a travel round starts with: its weather drift and its encounter check (the
    travel one, by the day's region: not the dungeon's own check of the same name)."""
    return [e.data["tabela"] for e in events if e.kind == "rolagem"
            and (e.data["tabela"] == "Clima"
                 or (e.data["tabela"] == "Encontro aleatório" and "regiao" in e.data))]


def test_a_round_that_begins_inside_a_dungeon_gets_its_weather_and_encounter_once(
        tables) -> None:
    """docs/regras.md: every travel round of the day gets its weather and encounter check exactly
    once, at its start, even when a dungeon fills it: the round of 8h begins while the party
    is still below ground (a turn crosses 8h00), and it is the round they travel in after."""
    party = (new_character(id="ana", name="Ana", food=3, water=3),
             new_character(id="bia", name="Bia", food=3, water=3))
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party))
    assert _travel_round_rolls(play("masmorra")) == ["Clima", "Encontro aleatório"]
    play.state = replace(play.state, minutes=7 * 60 + 50)  # 19 turns later
    events = play("turno")
    assert play.state.minutes == 8 * 60
    assert _travel_round_rolls(events) == ["Clima", "Encontro aleatório"]
    assert "Dia 1, rodada 3 de 6." in [e.text.split(" Ela começa")[0] for e in events]
    assert play.state.travel.round_open
    events = play("turno") + play("turno") + play("viagem") + play("cacar", personagem="Ana")
    assert _travel_round_rolls(events) == []  # the round of 8h had them, once
    assert play.state.minutes == 8 * 60 + 20 and play.state.travel.round_open
    events = play("explorar")  # Bia's activity closes the round where it ends
    assert _travel_round_rolls(events) == [] and play.state.minutes == 12 * 60
    assert _travel_round_rolls(play("explorar")) == ["Clima", "Encontro aleatório"]


def test_the_rounds_a_dungeon_sleep_crosses_each_get_their_weather_and_encounter(
        tables) -> None:
    """Sleeping 8 hours in the dungeon from 6h: the rounds of 8h and 12h begin while the
    party sleeps, each with its weather and encounter check, once."""
    party = (new_character(id="ana", name="Ana", food=3, water=3),)
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party),
                seed=2)  # dice under which no monster reaches the room: all 8 hours pass
    play("masmorra")
    play.state = replace(play.state, minutes=6 * 60)
    events = play("dormir")
    assert play.state.minutes == 14 * 60
    assert _travel_round_rolls(events) == ["Clima", "Encontro aleatório"] * 2
    headers = [e.text for e in events if e.code == "viagem.rodada"]
    assert [h.split(".")[0] for h in headers] == ["Dia 1, rodada 3 de 6", "Dia 1, rodada 4 de 6"]


def test_a_round_that_begins_during_a_chase_gets_its_weather_and_encounter_once(
        tables) -> None:
    """A chase that starts at 3h50 (no round open: a dungeon was left at 3h50) runs past 4h00:
    the round of 4h begins during it and has its rolls then; the travel after it is in that
    round, with no second weather or encounter."""
    party = (new_character(id="ana", name="Ana", food=3, water=3),)
    play = Play(tables, State(minutes=230, travel=Travel(weather_row=3), party=party))
    events = play("fugir") + play("fuga", resultado="sucesso")
    assert _travel_round_rolls(events) == []  # 3h50: the round of 0h is not this chase's
    events = play("fuga", resultado="sucesso")
    assert play.state.minutes == 240
    assert _travel_round_rolls(events) == ["Clima", "Encontro aleatório"]
    events = play("fuga", resultado="sucesso")
    assert play.state.chase is None
    events += play("explorar")
    assert _travel_round_rolls(events) == [] and play.state.minutes == 480


def test_one_ammunition_is_singular(tables: Tables) -> None:
    said = tables.narration.render("viagem.municoes", {"nome": "Ana", "municoes": 1})
    assert said == "Ana: 1 munição"
    assert tables.narration.render("viagem.municoes", {"nome": "Ana", "municoes": 3}) \
        == "Ana: 3 munições"


def test_a_region_is_said_with_its_own_preposition(tmp_path: Path, tables: Tables) -> None:
    """'O grupo está na Floresta Sombria', 'no Pântano': the preposition is stored with the
    region (encontros.yaml `preposicao`), never 'em Floresta Sombria'."""
    session = Session.open(tmp_path / "r.db", 3, tables)
    region = {"regiao": "Floresta Sombria", "terreno": "floresta", "dados": "1d2",
              "preposicao": "na", "linhas": {1: "Ent furioso", 2: "Corvos"}}
    assert session.change_rules({"encontros": {"regioes": {"floresta_sombria": region}}},
                                "gm").ok
    said = [e["text"] for e in session.run("região Floresta Sombria").events]
    assert "O grupo está na Floresta Sombria (Floresta)." in said, said
    said = [e["text"] for e in session.run("região Pântano").events]
    assert any(t.startswith("O grupo está no Pântano") for t in said), said
    session.close()
