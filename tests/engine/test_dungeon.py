"""The dungeon turn (seed 000, second half) as docs/regras.md reads it, through the engine."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine.model import Dungeon, Monster, Timer
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.engine.dungeon_helpers import (  # noqa: F401
    SEED_TABELA_B,
    SAME_ROOM,
    NEXT_ROOM,
    LANTERN,
    party,
    in_dungeon,
    rolls,
    check_turns,
    LONG_LIGHT,
    night,
)


# ---------------------------------------------------------------- entering, leaving, danger

def test_entering_uses_the_house_default_danger_and_turn_zero(play: Play,
                                                              tables: Tables) -> None:
    events = play("masmorra")
    assert play.state.dungeon.active and play.state.dungeon.turn == 0
    assert play.state.dungeon.danger == tables.get("masmorra", "perigo_padrao")
    assert play.state.mode == "masmorra"
    (entered,) = [e for e in events if e.code == "masmorra.entrou"]
    assert "Inseguro" in entered.text


def test_entering_with_a_level_and_changing_it(play: Play) -> None:
    play("masmorra", perigo="mortal")
    assert play.state.dungeon.danger == "mortal"
    play("perigo", perigo="arriscado")
    assert play.state.dungeon.danger == "arriscado"


def test_unknown_danger_is_rejected_and_changes_nothing(play: Play) -> None:
    play("masmorra")
    before = play.state
    with pytest.raises(CommandRejected, match="'terrivel'.*inseguro, arriscado, mortal"):
        play("perigo", perigo="terrivel")
    assert play.state == before


def test_leaving_goes_back_to_travel(play: Play) -> None:
    play("masmorra")
    play("luz", fonte="tocha")
    play("viagem")
    assert play.state.mode == "viagem"
    assert play.state.dungeon == Dungeon()
    with pytest.raises(CommandRejected):
        play("turno")


def test_leaving_keeps_the_monster_list_for_the_way_back(play: Play) -> None:
    play("masmorra")
    play("monstro", nome="Ogro", sala="3")
    play("monstro", nome="Ogro", acao="alertar")
    play("luz", fonte="tocha")
    play("viagem")
    ogre = Monster(name="Ogro", room="3", alerted=True)
    assert play.state.dungeon.monsters == (ogre,) and play.state.dungeon.lights == ()
    assert view_state(play.state, "gm", play.tables)["mestre"]["monstros"] == [
        {"nome": "Ogro", "sala": "3", "alertado": True}]
    play("masmorra", perigo="mortal")
    assert play.state.dungeon.monsters == (ogre,) and play.state.dungeon.danger == "mortal"


def test_masmorra_inside_the_dungeon_changes_the_danger(play: Play) -> None:
    play("masmorra")
    play("turno")
    before = play.state.dungeon
    events = play("masmorra", perigo="arriscado")
    assert events[0].text.startswith("Nível de perigo: Arriscado")
    assert play.state.dungeon == replace(before, danger="arriscado")
    with pytest.raises(CommandRejected, match="já está na masmorra.*'masmorra arriscado'"):
        play("masmorra")


# ---------------------------------------------------------------- encounter checks

@pytest.mark.parametrize("danger,expected", [
    ("inseguro", [3, 6]), ("arriscado", [2, 4, 6]), ("mortal", [1, 2, 3, 4, 5, 6])])
def test_encounter_check_every_3_2_1_turns(tables: Tables, danger: str,
                                           expected: list[int]) -> None:
    play = in_dungeon(tables, danger)
    assert check_turns(play, 6) == expected


def test_total_darkness_makes_the_level_mortal_and_says_so(tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro", lit=False)
    events = play("turno", rng=FixedDice(6))
    check = rolls(events, "Encontro aleatório")
    assert len(check) == 1 and check[0].data["perigo"] == "mortal"
    assert any(e.kind == "aviso" and "Escuridão total" in e.text and "Mortal" in e.text
               for e in events)
    assert play.state.dungeon.danger == "inseguro"  # the set level stays; only the effect changes


def test_a_light_going_out_makes_the_next_turns_mortal(tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro", lights=(Timer(name="tocha", turns_left=1),))
    events = play("turno", rng=FixedDice())  # lit: turn 1 has no check at Inseguro
    assert not rolls(events, "Encontro aleatório")
    assert any(e.text == "A tocha se apagou." for e in events)
    events = play("turno", rng=FixedDice(6))
    assert len(rolls(events, "Encontro aleatório")) == 1


@pytest.mark.parametrize("face,happens", [(1, True), (2, False)])
def test_encounter_is_1_in_6(tables: Tables, face: int, happens: bool) -> None:
    play = in_dungeon(tables, "mortal")
    dice = FixedDice(face, 6, 6, 6) if happens else FixedDice(face)
    events = play("turno", rng=dice)
    assert rolls(events, "Encontro aleatório")[0].data["chance"] == "1:6"
    assert bool(rolls(events, "Fim do Turno")) is happens
    assert dice.faces == []
    assert play.state.dungeon.pending_encounter is False


@pytest.mark.parametrize("face,row", [(1, SAME_ROOM), (3, SAME_ROOM), (4, NEXT_ROOM),
                                      (6, NEXT_ROOM)])
def test_arrival_is_one_d6_in_two_ranges(tables: Tables, face: int, row: str) -> None:
    play = in_dungeon(tables, "mortal")
    events = play("turno", rng=FixedDice(1, face, 6, 6))
    arrival = rolls(events, "Fim do Turno")
    assert [a.data["resultado"] for a in arrival] == [row]
    assert arrival[0].data["dados"] == "1d6" and arrival[0].visibility == "gm"
    public = [e.text for e in events if e.visibility == "public"]
    assert any(row in text for text in public) is (row == SAME_ROOM)
    surprise = rolls(events, "Surpresa")
    assert len(surprise) == 2  # the encounter arrives with automatic surprise
    assert {s.visibility for s in surprise} == {"public" if row == SAME_ROOM else "gm"}


def test_turn_order_check_monsters_timers_then_arrival(tables: Tables) -> None:
    play = in_dungeon(tables, "mortal", lights=(Timer(name="tocha", turns_left=1),),
                      monsters=(Monster(name="Ogro", room="3"),))
    minutes = play.state.minutes
    events = play("turno", rng=FixedDice(1, 2, 6, 6))
    texts = [e.text for e in events]
    check = next(i for i, e in enumerate(events) if e.data.get("tabela") == "Encontro aleatório")
    monsters = next(i for i, t in enumerate(texts) if t.startswith("Movimento dos monstros"))
    light = texts.index("A tocha se apagou.")
    arrival = next(i for i, e in enumerate(events) if e.data.get("tabela") == "Fim do Turno")
    assert check < monsters < light < arrival
    assert events[monsters].visibility == "gm" and "Ogro" in texts[monsters]
    assert play.state.minutes == minutes + tables.get("masmorra", "turno_minutos")
    assert play.state.dungeon.turn == 1


# ---------------------------------------------------------------- surprise

@pytest.mark.parametrize("faces,party_surprised,monsters_surprised,text", [
    ((1, 3), True, False, "O grupo está surpreso"),
    ((3, 2), False, True, "Os monstros estão surpresos"),
    ((2, 1), False, False, "Os dois lados estão surpresos: ninguém tem um turno de surpresa."),
    ((3, 6), False, False, "Nenhum lado está surpreso."),
])
def test_surprise_each_side_2_in_6_and_both_means_nobody(
        play: Play, faces: tuple[int, int], party_surprised: bool, monsters_surprised: bool,
        text: str) -> None:
    events = play("surpresa", rng=FixedDice(*faces))
    sides = rolls(events, "Surpresa")
    assert [s.data["lado"] for s in sides] == ["grupo", "monstros"]
    assert all(s.data["chance"] == "2:6" for s in sides)
    outcome = events[-1]
    assert outcome.text.startswith(text)
    assert outcome.data["grupo_surpreso"] is party_surprised
    assert outcome.data["monstros_surpresos"] is monsters_surprised


# ---------------------------------------------------------------- the hour rest

def test_after_six_turns_the_party_must_rest_or_take_exhaustion(tables: Tables) -> None:
    play = in_dungeon(tables, characters=party("Ana", "Bia"))
    for _ in range(5):
        play("turno")
    events = play("turno")
    assert play.state.dungeon.turns_since_rest == 6
    assert any(e.kind == "aviso" and "precisa descansar" in e.text for e in events)
    assert [c.exhaustion for c in play.state.party] == [0, 0]
    events = play("turno")
    assert [c.exhaustion for c in play.state.party] == [1, 1]
    assert any(e.kind == "aviso" and "exaustão" in e.text for e in events)
    for _ in range(5):
        play("turno")
    assert [c.exhaustion for c in play.state.party] == [1, 1]
    play("turno")  # another full hour without rest
    assert [c.exhaustion for c in play.state.party] == [2, 2]


def test_resting_a_turn_resets_the_hour(tables: Tables) -> None:
    play = in_dungeon(tables, characters=party("Ana"))
    for _ in range(6):
        play("turno")
    minutes = play.state.minutes
    events = play("descansar")
    assert play.state.dungeon.turns_since_rest == 0
    assert play.state.dungeon.turn == 7  # resting takes a turn
    assert play.state.minutes == minutes + 10
    assert any("descansa" in e.text for e in events)
    for _ in range(6):
        play("turno")
    assert play.state.party[0].exhaustion == 0


def test_the_hour_warning_says_the_amount_from_the_table(tables: Tables) -> None:
    files = dict(tables.files)
    files["masmorra"] = {**files["masmorra"], "descanso": {**files["masmorra"]["descanso"],
                                                          "exaustao": 2}}
    play = in_dungeon(Tables(files=files, directory=tables.directory), characters=party("Ana"),
                      turns_since_rest=5)
    events = play("turno")
    (warning,) = [e for e in events if e.kind == "aviso" and "precisa descansar" in e.text]
    assert "sofre 2 pontos de exaustão" in warning.text
    play("turno")
    assert play.state.party[0].exhaustion == 2


def test_one_turn_burns_one_turn_of_light_and_spell(tables: Tables) -> None:
    play = in_dungeon(tables, spells=(Timer(name="Luz", turns_left=5, kind="magia"),))
    play("turno")
    assert play.state.dungeon.lights[0].turns_left == LANTERN.turns_left - 1
    assert play.state.dungeon.spells[0].turns_left == 4
    play("descansar")
    assert play.state.dungeon.lights[0].turns_left == LANTERN.turns_left - 2


def test_a_rest_turn_still_checks_for_encounters(tables: Tables) -> None:
    play = in_dungeon(tables, "mortal")
    events = play("descansar", rng=FixedDice(6))
    assert len(rolls(events, "Encontro aleatório")) == 1


# ---------------------------------------------------------------- timers

def test_light_burn_times_are_house_defaults(tables: Tables) -> None:
    assert tables.get("casa", "luz", "tocha", "turnos") == 6
    assert tables.get("casa", "luz", "lanterna", "turnos") == 24


@pytest.mark.parametrize("source,message", [("tocha", "A tocha se apagou."),
                                            ("lanterna", "A lanterna se apagou.")])
def test_a_light_burns_its_turns_then_goes_out(tables: Tables, source: str,
                                               message: str) -> None:
    play = in_dungeon(tables, "inseguro", lit=False)
    play("luz", fonte=source, acao="acender")
    burn = tables.get("casa", "luz", source, "turnos")
    assert play.state.dungeon.lights[0].turns_left == burn
    for number in range(1, burn):
        events = play("turno")
        assert not any(e.text == message for e in events), number
    events = play("turno")
    assert any(e.text == message and e.kind == "aviso" for e in events)
    assert play.state.dungeon.lights == ()
    assert any("escuridão total" in e.text for e in events)


def test_a_spell_timer_expires(tables: Tables) -> None:
    play = in_dungeon(tables)
    play("magia", nome="Escudo", turnos=2)
    assert [(t.name, t.turns_left) for t in play.state.dungeon.spells] == [("Escudo", 2)]
    assert not any("terminou" in e.text for e in play("turno"))
    events = play("turno")
    assert any(e.text == "A magia Escudo terminou." for e in events)
    assert play.state.dungeon.spells == ()


def test_a_second_torch_lit_is_numbered_as_agora_numbers_it(tables: Tables) -> None:
    """Issue 31 item 6: two lit torches both said "Tocha acesa: queima por…"."""
    play = in_dungeon(tables, lit=False)
    (first,) = play("luz", fonte="tocha")
    (second,) = play("luz", fonte="tocha")
    assert first.text.startswith("Tocha acesa:"), first.text
    assert second.text.startswith("Tocha 2 acesa:"), second.text


def test_putting_a_light_out(tables: Tables) -> None:
    play = in_dungeon(tables, lit=False)
    play("luz", fonte="tocha")
    play("luz", fonte="lanterna")
    play("luz", fonte="tocha", acao="apagar")
    assert [t.name for t in play.state.dungeon.lights] == ["lanterna"]
    with pytest.raises(CommandRejected, match="não há tocha acesa"):
        play("luz", fonte="tocha", acao="apagar")


@pytest.mark.parametrize("args,message", [
    ({"fonte": "vela"}, "fonte de luz desconhecida: 'vela'; use tocha, lanterna"),
    ({"fonte": "tocha", "acao": "soprar"}, "use acender ou apagar"),
])
def test_bad_light_commands_are_rejected(tables: Tables, args: dict, message: str) -> None:
    play = in_dungeon(tables)
    before = play.state
    with pytest.raises(CommandRejected, match=message):
        play("luz", **args)
    assert play.state == before


@pytest.mark.parametrize("turnos", [0, -3, "seis", True, 100000])
def test_bad_spell_durations_are_rejected(tables: Tables, turnos: object) -> None:
    play = in_dungeon(tables)
    with pytest.raises(CommandRejected, match="duração da magia inválida"):
        play("magia", nome="Escudo", turnos=turnos)
    assert play.state.dungeon.spells == ()


@pytest.mark.parametrize("danger,lit,checks", [("inseguro", True, 2), ("arriscado", True, 4),
                                               ("mortal", True, 8), ("inseguro", False, 8)])
def test_sleeping_checks_for_encounters_2_4_8_times(tables: Tables, danger: str, lit: bool,
                                                    checks: int) -> None:
    play = in_dungeon(tables, danger, lit=lit, lights=(LONG_LIGHT,) if lit else ())
    step = 8 // checks  # Tabela B row 1 (Nada) first; 4 fails 3:6
    dice = FixedDice(1, *night({hour: (4,) for hour in range(step, 9, step)}))
    minutes = play.state.minutes
    events = play("dormir", rng=dice)
    table_c = rolls(events, "Tabela C: Descansando na Dungeon")
    assert len(table_c) == checks and dice.faces == []
    assert all(r.data["chance"] == "3:6" for r in table_c)
    assert [r.data["hora"] for r in table_c] == list(range(8 // checks, 9, 8 // checks))
    assert play.state.minutes == minutes + 480
    mishap = rolls(events, "Tabela B: Percalços da Dungeon")
    assert mishap[0].data["resultado"] == "Nada"
    assert events.index(mishap[0]) < events.index(table_c[0])  # the mishap comes first


def test_the_level_of_each_hour_counts_a_torch_out_makes_it_mortal(tables: Tables) -> None:
    torch = Timer(name="tocha", turns_left=6, kind="luz")
    play = in_dungeon(tables, "arriscado", lights=(torch,))
    dice = FixedDice(1, *night({hour: (4,) for hour in range(1, 9)}))  # the torch is out
    # after hour 1: every hour is Mortal
    events = play("dormir", rng=dice)
    checks = rolls(events, "Tabela C: Descansando na Dungeon")
    assert [(r.data["hora"], r.data["perigo"]) for r in checks] == [
        (hour, "mortal") for hour in range(1, 9)]
    out = next(e for e in events if e.text == "A tocha se apagou.")
    assert events.index(out) < events.index(checks[0])  # it burns out during the sleep


def test_a_lantern_out_at_hour_4_turns_the_rest_of_the_night_mortal(tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro")  # the house lantern: 24 turns = 4 hours
    events = play("dormir", rng=FixedDice(1, *night({hour: (4,) for hour in range(4, 9)})))
    checks = rolls(events, "Tabela C: Descansando na Dungeon")
    assert [(r.data["hora"], r.data["perigo"]) for r in checks] == [
        (4, "mortal"), (5, "mortal"), (6, "mortal"), (7, "mortal"), (8, "mortal")]


def test_a_sleep_encounter_in_the_next_room_is_the_gms_alone(tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro", characters=party("Ana", food=1, water=1),
                      lights=(LONG_LIGHT,))
    # B row 1; hour 4: 3 ≤ 3 → encounter, next room (4), surprise 6 6; hour 8 quiet; hit die 5
    dice = FixedDice(1, *night({4: (3, 4, 6, 6), 8: (4,)}), 5)
    events = play("dormir", rng=dice)
    assert dice.faces == []
    assert [r.data["resultado"] for r in rolls(events, "Tabela C: Descansando na Dungeon")] == [
        "Um encontro acontece durante o descanso.", "Nenhum encontro."]
    assert rolls(events, "Fim do Turno")[0].data["resultado"] == NEXT_ROOM
    assert play.state.prompts == ()  # it interrupts nothing
    shown = [e for e in events if e.visibility != "gm"]
    assert not any("encontro" in e.text.lower() or "monstro" in e.text.lower() for e in shown)
    assert play.state.minutes == 480


@pytest.mark.parametrize("face", [1, 5, 6, 7, 8, 9, 10])
def test_every_row_of_tabela_b(tables: Tables, face: int) -> None:
    play = in_dungeon(tables, "inseguro", characters=party("Ana", hp=8, food=1, water=1),
                      lights=(LONG_LIGHT,))
    extra = {8: (6, 6, 6)}.get(face, ())  # row 8: it arrives after the sleep (next room)
    hit_die = (4,) if face in (1, 5, 8, 10) else ()  # undisturbed rest: 1d8 of hit dice
    dice = FixedDice(face, *night({4: (6,), 8: (6,)}), *extra, *hit_die)
    events = play("dormir", rng=dice)
    mishap = rolls(events, "Tabela B: Percalços da Dungeon")
    assert len(mishap) == 1 and mishap[0].data["dados"] == "1d10"
    assert mishap[0].data["resultado"] == SEED_TABELA_B.get(face, "Nada")
    assert mishap[0].visibility == "gm"  # row 10 is the GM's to know; so is every result
    kinds = sorted(p.kind for p in play.state.prompts)
    expected = {6: ["interrupcao"], 7: ["interrupcao"], 9: ["interrupcao", "panico"]}.get(
        face, [])
    assert kinds == expected
    assert play.state.party[0].hp == (6 if face == 7 else 8)
    assert dice.faces == []
