"""test_hexcrawl.py, continued: the encounter tests."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Command, State, apply
from companion.engine.characters import edge_for, modifier
from companion.engine.handlers import PromptAnswer
from companion.engine.procedures.advance import GettingLost
from companion.engine.procedures.encounters import EncounterSettings, EncounterTables
from companion.engine.procedures.forced_march import (
    ForcedMarch,
    forced_dc,
    march_choice_answered,
)
from companion.engine.procedures.travel import (
    AdvanceTable,
    TravelModes,
)
from companion.engine.scratch import Scratch
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.engine.travel_helpers import QUIET, ana, bia, one_roll, rolls, run, start
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules
from tests.engine.hexcrawl_helpers import (  # noqa: F401
    TERRAINS,
    SEED_G,
    SEED_F,
    ANKLE,
    COMMANDS,
    SMALL,
    _three_advances,
)


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
