"""The hexcrawl travel day (seed 000) through the engine, with forced dice."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import State
from companion.engine.clock import day_of
from companion.engine.procedures.travel import (
    round_of,
)
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.engine.travel_helpers import QUIET, ana, bia, one_roll, rolls, run, start
from tests.play_helpers import FixedDice, Play
from tests.engine.hexcrawl_helpers import (  # noqa: F401
    TERRAINS,
    SEED_WEATHER,
    SEED_D,
    SEED_C,
    SEED_ENCOUNTER,
    _dice_count,
    _march,
    ADVANCE,
    _forced,
)


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
