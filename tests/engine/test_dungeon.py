"""The dungeon turn (seed 000, second half) as docs/regras.md reads it, through the engine."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine.model import GM, PUBLIC, Character, Dungeon, Monster, State, Timer, Travel
from companion.engine.procedures.dungeon import DungeonRules
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from companion.tables.light_sources import LightRules
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

SEED_TABELA_B = {
    1: "Nada",
    6: "Dormir na Dungeon não é nada confortável. Teste de CON DC 12 para ter os benefícios do "
       "Descanso.",
    7: "Atacados por carrapatos/sanguessugas. 2 de dano e Teste de CON DC 12 para ter os "
       "benefícios do Descanso.",
    8: "Um Encontro Aleatório acontece.",
    9: "O ambiente da Dungeon é muito opressor. Teste de Pânico e Teste de CON DC 12 para ter os "
       "benefícios do Descanso.",
    10: "As criaturas perceberam o cheiro do grupo. Estarão preparadas quando acordarem ou "
        "tentarão emboscá-los.",
}


SAME_ROOM = "Os monstros chegam na sala onde os personagens estão."


NEXT_ROOM = "Os monstros chegam em uma sala adjacente."


LANTERN = Timer(name="lanterna", turns_left=24, kind="luz")


def party(*names: str, **fields: int) -> tuple[Character, ...]:
    """Characters with the sheet's defaults but no rations unless `fields` give them."""
    fields = {"food": 0, "water": 0, **fields}
    return tuple(new_character(id=name.lower(), name=name, **fields) for name in names)


def in_dungeon(tables: Tables, danger: str = "inseguro", lit: bool = True,
               characters: tuple[Character, ...] = (), **dungeon: object) -> Play:
    """A Play already inside a dungeon (with a full lantern unless lit=False)."""
    settings: dict[str, object] = {"lights": (LANTERN,) if lit else (), **dungeon}
    state = State(dungeon=Dungeon(active=True, danger=danger, **settings),  # type: ignore[arg-type]
                  party=characters, travel=Travel(weather_row=4))  # the session's weather
    return Play(tables, state)


def rolls(events: list, tabela: str) -> list:
    return [e for e in events if e.kind == "rolagem" and e.data["tabela"] == tabela]


def check_turns(play: Play, turns: int) -> list[int]:
    """Run `turns` turns with no encounter; the turn numbers that had an encounter check."""
    checked = []
    for _ in range(turns):
        dice = FixedDice(*[6] * 10)
        events = play("turno", rng=dice)
        if rolls(events, "Encontro aleatório"):
            checked.append(play.state.dungeon.turn)
    return checked


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


# ---------------------------------------------------------------- sleeping

LONG_LIGHT = Timer(name="lanterna", turns_left=100, kind="luz")  # outlasts the 8 hours

# A travel round that begins during the sleep has its weather and encounter check (docs/regras.md:
# every round gets them, even when a dungeon fills it): weather unchanged, no encounter.
ROUND = (6, 6)


def night(hours: dict[int, tuple[int, ...]], until: int = 8,
          rounds: tuple[int, ...] = (4, 8)) -> list[int]:
    """The faces of a sleep from 0h after its mishap, hour by hour up to `until`: the travel
    round's rolls when a round begins at that hour (4h and 8h), then that hour's own faces
    (Tabela C, an arrival, the surprise)."""
    faces: list[int] = []
    for hour in range(1, until + 1):
        faces += ROUND if hour in rounds else ()
        faces += hours.get(hour, ())
    return faces


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


@pytest.mark.parametrize("danger,faces,hour", [
    ("inseguro", {4: (3, 2, 6, 6)}, 4),              # hour 4 (lantern out: Mortal): same room (2)
    ("mortal", {1: (4,), 2: (4,), 3: (1, 3, 6, 6)}, 3),  # hours 1, 2 quiet; hour 3: same room
])
def test_monsters_in_the_room_end_the_sleep(tables: Tables, danger: str, faces: dict,
                                            hour: int) -> None:
    spell = Timer(name="Escudo", turns_left=50, kind="magia")
    play = in_dungeon(tables, danger, characters=party("Ana", hp=4, food=1, water=1),
                      spells=(spell,), turns_since_rest=5)
    dice = FixedDice(1, *night(faces, until=hour))  # Tabela B row 1 (Nada) first
    minutes = play.state.minutes
    events = play("dormir", rng=dice)
    assert dice.faces == []
    checks = rolls(events, "Tabela C: Descansando na Dungeon")
    assert [r.data["hora"] for r in checks][-1] == hour  # no check after the interruption
    assert rolls(events, "Fim do Turno")[0].data["resultado"] == SAME_ROOM
    assert any(e.kind == "aviso" and "interrompe o sono" in e.text and e.visibility == "public"
               for e in events)
    assert len(rolls(events, "Tabela B: Percalços da Dungeon")) == 1
    assert [(p.kind, p.dc) for p in play.state.prompts] == [("interrupcao", 12)]
    assert play.state.party[0].food == 0  # the rest still happened (they ate)
    assert play.state.minutes == minutes + hour * 60  # only the hours slept
    turns = hour * 60 // tables.get("masmorra", "turno_minutos")
    assert play.state.dungeon.spells[0].turns_left == 50 - turns
    left = LANTERN.turns_left - turns
    assert [t.turns_left for t in play.state.dungeon.lights] == ([left] if left > 0 else [])
    assert play.state.dungeon.turns_since_rest == 0


def test_monsters_in_the_room_at_the_last_hour_do_not_cut_the_sleep_short(
        tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro", characters=party("Ana", food=1, water=1),
                      lights=(LONG_LIGHT,))
    events = play("dormir", rng=FixedDice(1, *night({4: (4,), 8: (3, 1, 6, 6)})))  # hour 8:
    # same room
    said = [e.text for e in events if e.kind == "aviso" and e.visibility == "public"]
    assert ("Os monstros chegam à sala do grupo na hora 8, no fim do sono: isso interrompe o "
            "descanso.") in said
    assert not any("vale só" in text for text in said)
    assert [p.kind for p in play.state.prompts] == ["interrupcao"]


def test_monsters_in_the_next_room_do_not_end_the_sleep(tables: Tables) -> None:
    play = in_dungeon(tables, "arriscado", characters=party("Ana"), lights=(LONG_LIGHT,))
    dice = FixedDice(1, *night({2: (1, 5, 6, 6), 4: (4,), 6: (4,), 8: (4,)}))  # hour 2: next
    # room; hours 4, 6, 8 quiet
    minutes = play.state.minutes
    events = play("dormir", rng=dice)
    assert dice.faces == []
    assert [r.data["hora"] for r in rolls(events, "Tabela C: Descansando na Dungeon")] == [
        2, 4, 6, 8]
    assert play.state.minutes == minutes + 480
    assert play.state.prompts == ()


def test_sleep_resets_the_hour_and_burns_the_lights(tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro", turns_since_rest=5,
                      spells=(Timer(name="Luz", turns_left=3, kind="magia"),))
    events = play("dormir", rng=FixedDice(1, *night({hour: (6,) for hour in range(4, 9)})))
    # dark from hour 4: 5 checks
    assert play.state.dungeon.turns_since_rest == 0
    assert play.state.dungeon.lights == () and play.state.dungeon.spells == ()
    assert any(e.text == "A lanterna se apagou." for e in events)


# ---------------------------------------------------------------- marching order, monsters

def test_marching_order_by_names(tables: Tables) -> None:
    play = in_dungeon(tables, characters=party("Ana", "Bia", "Caio"))
    play("marcha", ordem=["caio", "Ana", "BIA"])
    assert play.state.dungeon.marching_order == ("caio", "ana", "bia")
    with pytest.raises(CommandRejected, match="personagem desconhecido: 'Zé'"):
        play("marcha", ordem=["Ana", "Zé"])
    with pytest.raises(CommandRejected, match="repetido"):
        play("marcha", ordem=["Ana", "ana"])
    assert play.state.dungeon.marching_order == ("caio", "ana", "bia")


def test_the_monster_list_is_gm_only(tables: Tables) -> None:
    play = in_dungeon(tables, "inseguro")
    events = play("monstro", nome="Ogro", sala="3")
    events += play("monstro", nome="Goblins", sala="5")
    events += play("monstro", nome="ogro", acao="alertar")
    events += play("monstro", nome="Goblins", acao="remover")
    events += play("monstro")
    assert events and all(e.visibility == "gm" for e in events)
    assert play.state.dungeon.monsters == (Monster(name="Ogro", room="3", alerted=True),)
    turn_events = play("turno")
    reminder = [e for e in turn_events if "Ogro" in e.text]
    assert reminder and all(e.visibility == "gm" for e in reminder)
    assert not any("Ogro" in e.text for e in turn_events if e.visibility != "gm")
    with pytest.raises(CommandRejected, match="monstro desconhecido: 'Dragão'"):
        play("monstro", nome="Dragão", acao="remover")


def test_dungeon_turns_wait_while_a_chase_runs(tables: Tables) -> None:
    play = in_dungeon(tables)
    play("fugir")
    for name in ("turno", "descansar", "dormir"):
        with pytest.raises(CommandRejected, match="perseguição"):
            play(name)


def test_exhaustion_from_the_hour_rest_uses_the_table_amount(tables: Tables) -> None:
    play = in_dungeon(tables, characters=party("Ana"), turns_since_rest=6)
    play("turno")
    amount = tables.get("masmorra", "descanso", "exaustao")
    assert play.state.party[0].exhaustion == amount
    assert replace(play.state.party[0], exhaustion=0) == party("Ana")[0]


def test_a_day_ending_in_the_dungeon_without_rest_gives_exhaustion(tables: Tables) -> None:
    play = in_dungeon(tables, characters=party("Ana", "Bia"))
    play.state = replace(play.state, minutes=24 * 60 - 10)
    play("turno")
    assert play.state.minutes == 24 * 60
    assert all(c.exhaustion == 1 for c in play.state.party)
    assert any("Um dia sem descansar" in e.text for e in play.events)


def test_leaving_counts_the_time_spent_not_only_the_turns(tables: Tables) -> None:
    play = Play(tables, State(minutes=100, travel=Travel(weather_row=4)))
    play("masmorra")
    play("luz", fonte="lanterna")
    assert play.state.dungeon.entered_at == 100
    play("turno", rng=FixedDice())
    play("dormir", rng=FixedDice(1, *[6] * 5, *ROUND * 2))  # the lantern is out in hour 4;
    # the rounds of 4h and 8h begin during the sleep
    (event,) = play("viagem")
    assert event.text == ("O grupo sai da masmorra depois de 8 horas e 10 minutos lá dentro "
                          "(1 turno de exploração). De volta à viagem.")
    assert event.data["minutos"] == 490


def test_lights_and_spells_count_turns_in_good_portuguese(tables: Tables) -> None:
    play = in_dungeon(tables, lit=False)
    (event,) = play("magia", nome="Escudo", turnos=1)
    assert event.text == "Magia Escudo: dura 1 turno."
    events = play("luz", fonte="tocha")
    assert events[0].text == "Tocha acesa: queima por 6 turnos."


INSEGURO = 'inseguro: {nome: Inseguro, chance: 1, a_cada_turnos: 3,'


def ana_in_dungeon(tables: Tables, lit: bool = True, light: Timer = LANTERN,
               **dungeon: object) -> Play:
    state = State(dungeon=Dungeon(active=True, danger="inseguro",  # type: ignore[arg-type]
                                  lights=(light,) if lit else (), **dungeon),
                  party=(new_character(id="ana", name="Ana", food=3, water=3),),
                  travel=Travel(weather_row=4))  # the session's weather
    return Play(tables, state)


def said(events: list, code: str) -> list:
    return [e for e in events if e.code == code]


def test_the_pieces_are_typed(tables: Tables) -> None:
    rules = tables.piece(DungeonRules)
    assert rules.tabela_a.niveis["arriscado"].a_cada_turnos == 2
    assert rules.encontro.visibility == GM and rules.chegada.linhas["1-3"].visibility == PUBLIC
    assert rules.surpresa.lados.monstros.nome == "Os monstros"
    assert tables.piece(LightRules).luz["tocha"].turnos == 6


# ---------------------------------------------------------------- the exploration turn

def test_the_check_interval_changed_in_the_data_changes_when_it_is_checked(
        tables: Tables, tmp_path: Path) -> None:
    every_turn = changed_rules(tmp_path, "masmorra.yaml", INSEGURO,
                               INSEGURO.replace("a_cada_turnos: 3", "a_cada_turnos: 1"))
    shipped = ana_in_dungeon(tables)
    events = shipped("turno", rng=FixedDice(*[6] * 10))
    assert [e.data["turno"] for e in said(events, "masmorra.turno")] == [1]
    assert said(events, "masmorra.sem_checagem")
    changed = ana_in_dungeon(every_turn)
    events = changed("turno", rng=FixedDice(*[6] * 10))
    assert not said(events, "masmorra.sem_checagem")
    assert [e.data["tabela"] for e in events if e.kind == "rolagem"] == ["Encontro aleatório"]


def test_the_turn_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          'sem_checagem: "Sem checagem de encontro neste turno',
                          'sem_checagem: "Nada a checar neste turno')
    events = ana_in_dungeon(rules)("turno", rng=FixedDice(*[6] * 10))
    (quiet,) = said(events, "masmorra.sem_checagem")
    assert quiet.text.startswith("Nada a checar neste turno (perigo Inseguro: próxima no turno 3")
    assert quiet.visibility == GM


def test_an_arrival_row_seen_by_everyone_in_the_data_is_public(tables: Tables,
                                                                tmp_path: Path) -> None:
    shown = changed_rules(tmp_path, "masmorra.yaml", 'adjacente.", visibilidade: mestre',
                          'adjacente.", visibilidade: publico')
    for rules, public in ((tables, False), (shown, True)):
        play = ana_in_dungeon(rules, pending_encounter=True)
        events = play("turno", rng=FixedDice(5, 6, 6))  # arrival 5 (next room), no surprise
        warned = said(events, "masmorra.encontro")
        assert bool(warned) is public
        (outcome,) = said(events, "masmorra.surpresa")
        assert outcome.visibility == (PUBLIC if public else GM)


# ---------------------------------------------------------------- surprise

def test_the_surprise_chance_and_sentences_come_from_the_data(tables: Tables,
                                                               tmp_path: Path) -> None:
    play = Play(tables)
    (outcome,) = said(play("surpresa", rng=FixedDice(1, 6)), "masmorra.surpresa")
    assert outcome.text == "O grupo está surpreso: os monstros têm um turno de surpresa."
    assert outcome.data == {"grupo_surpreso": True, "monstros_surpresos": False}
    rules = changed_rules(tmp_path, "masmorra.yaml", "  chance: 2\n  lados:",
                          "  chance: 6\n  lados:")
    (outcome,) = said(Play(rules)("surpresa", rng=FixedDice(1, 6)), "masmorra.surpresa")
    assert outcome.data == {"grupo_surpreso": False, "monstros_surpresos": False}
    assert outcome.text == tables.piece(DungeonRules).surpresa.ambos


def test_a_surprise_sentence_changed_in_the_data_is_said(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml",
                          'so_monstros: "Os monstros estão surpresos: o grupo tem um turno de '
                          'surpresa."', 'so_monstros: "Os monstros cochilam."')
    (outcome,) = said(Play(rules)("surpresa", rng=FixedDice(6, 1)), "masmorra.surpresa")
    assert outcome.text == "Os monstros cochilam." and outcome.data["monstros_surpresos"]


def test_the_surprise_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml", 'surpresa: "{{ texto }}"',
                          'surpresa: "Surpresa! {{ texto }}"')
    (outcome,) = said(Play(rules)("surpresa", rng=FixedDice(6, 6)), "masmorra.surpresa")
    assert outcome.text == "Surpresa! Nenhum lado está surpreso."


# ---------------------------------------------------------------- the hour rest

def test_the_hour_of_turns_changed_in_the_data_changes_when_rest_is_due(
        tables: Tables, tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "turnos_por_hora: 6", "turnos_por_hora: 2")
    play = ana_in_dungeon(rules)
    warned = [said(play("turno", rng=FixedDice(*[6] * 10)), "masmorra.hora_de_descansar")
              for _ in range(2)]
    assert [bool(w) for w in warned] == [False, True]
    events = play("turno", rng=FixedDice(*[6] * 10))
    (tired,) = said(events, "masmorra.sem_descanso")
    assert tired.data == {"exaustao": 1} and play.state.party[0].exhaustion == 1
    shipped = ana_in_dungeon(tables)
    for _ in range(3):
        assert not said(shipped("turno", rng=FixedDice(*[6] * 10)), "masmorra.hora_de_descansar")


def test_the_hour_rest_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          'descansou: "O grupo descansou um turno."',
                          'descansou: "Pausa de um turno."')
    events = ana_in_dungeon(rules)("descansar", rng=FixedDice(*[6] * 10))
    assert [e.text for e in said(events, "masmorra.descansou")] == ["Pausa de um turno."]


# ---------------------------------------------------------------- sleeping

def test_the_hours_of_sleep_and_their_checks_come_from_the_data(tables: Tables,
                                                                 tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "  horas: 8\n  chance: 3",
                          "  horas: 2\n  chance: 3")
    for data, hours in ((tables, 8), (rules, 2)):
        play = ana_in_dungeon(data, light=replace(LANTERN, turns_left=100))  # lit all night
        before = play.state.minutes
        events = play("dormir", rng=FixedDice(1, *[6] * 10))  # Tabela B "Nada", no encounters
        (slept,) = said(events, "masmorra.dorme")
        assert slept.data == {"horas": hours}
        assert slept.text == f"O grupo dorme {hours} horas na masmorra."
        assert play.state.minutes - before == hours * 60
        checks = [e for e in events if e.kind == "rolagem"
                  and e.data["tabela"] == "Tabela C: Descansando na Dungeon"]
        assert len(checks) == hours // 4


def test_the_sleep_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          "dorme: \"O grupo dorme {{ horas | contagem('hora') }} na masmorra.\"",
                          "dorme: \"Boa noite: {{ horas | contagem('hora') }}.\"")
    events = ana_in_dungeon(rules)("dormir", rng=FixedDice(1, *[6] * 10))
    assert [e.text for e in said(events, "masmorra.dorme")] == ["Boa noite: 8 horas."]


# ---------------------------------------------------------------- light and spells

def test_a_torch_duration_changed_in_the_data_is_how_long_it_burns(tables: Tables,
                                                                    tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "    nome: Tocha\n    turnos: 6",
                          "    nome: Tocha\n    turnos: 2")
    play = ana_in_dungeon(rules, lit=False)
    (lit,) = said(play("luz", fonte="tocha"), "masmorra.luz_acesa")
    assert lit.data == {"luz": "tocha", "turnos": 2}
    assert lit.text == "Tocha acesa: queima por 2 turnos."
    play("turno", rng=FixedDice(*[6] * 10))
    events = play("turno", rng=FixedDice(*[6] * 10))
    assert [e.text for e in said(events, "masmorra.luz_apagou")] == ["A tocha se apagou."]
    assert said(events, "masmorra.escuridao_total")


def test_the_light_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          "luz_acesa: \"{{ nome }} acesa: queima por",
                          "luz_acesa: \"{{ nome }} brilhando: dura")
    (lit,) = said(ana_in_dungeon(rules)("luz", fonte="tocha"), "masmorra.luz_acesa")
    assert lit.text == "Tocha brilhando: dura 6 turnos."


def test_the_spell_limit_comes_from_the_data(tables: Tables, tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "magia_maximo_turnos: 1440",
                          "magia_maximo_turnos: 5")
    (cast,) = said(ana_in_dungeon(tables)("magia", nome="Escudo", turnos=6), "masmorra.magia")
    assert cast.data == {"magia": "Escudo", "turnos": 6}
    with pytest.raises(CommandRejected, match="diga de 1 a 5 turnos") as refused:
        ana_in_dungeon(rules)("magia", nome="Escudo", turnos=6)
    assert refused.value.code == "masmorra.magia_duracao_invalida"


def test_the_spell_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          'magia_terminou: "A magia {{ magia }} terminou."',
                          'magia_terminou: "Fim da magia {{ magia }}."')
    play = ana_in_dungeon(rules)
    play("magia", nome="Escudo", turnos=1)
    events = play("turno", rng=FixedDice(*[6] * 10))
    assert [e.text for e in said(events, "masmorra.magia_terminou")] == ["Fim da magia Escudo."]


def test_a_refusal_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          "luz_desconhecida: \"fonte de luz desconhecida:",
                          "luz_desconhecida: \"não conheço a luz")
    with pytest.raises(CommandRejected) as refused:
        ana_in_dungeon(rules)("luz", fonte="vela")
    assert refused.value.code == "masmorra.luz_desconhecida"
    assert refused.value.message == "não conheço a luz 'vela'; use tocha, lanterna"


# ---------------------------------------------------------------- load errors

def test_a_visibility_outside_the_vocabulary_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/masmorra\.yaml: 'encontro\.visibilidade' "
                                         r"deveria ser um destes: mestre, publico"):
        changed_rules(tmp_path, "masmorra.yaml",
                      "  visibilidade: mestre\n  visibilidade_padrao_da_casa",
                      "  visibilidade: gm\n  visibilidade_padrao_da_casa")


def test_a_chance_outside_six_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/masmorra\.yaml: 'tabela_a\.niveis\.inseguro"
                                         r"\.chance' deveria ser uma chance em 6"):
        changed_rules(tmp_path, "masmorra.yaml", INSEGURO,
                      INSEGURO.replace("chance: 1", "chance: 7"))


def test_a_light_without_its_duration_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: .*luz\.tocha\.turnos"):
        changed_rules(tmp_path, "casa.yaml", "    nome: Tocha\n    turnos: 6\n",
                      "    nome: Tocha\n")


def test_an_interrupted_sleep_does_not_promise_a_partial_rest(tables: Tables) -> None:
    """Those who pass the CON test get the whole rest: the warning says the sleep (the clock)
    stops, not that the rest counts only for the hours slept."""
    said = tables.narration.render("masmorra.acordados", {"hora": 3, "horas": 8})
    assert "vale só" not in said and "3 horas" in said and "teste" in said, said


def test_the_players_read_no_command_words_at_the_hour_rest(tables: Tables) -> None:
    """The hour-rest warning is everyone's: the command to say is the GM's hint only."""
    from companion.engine.model import Dungeon

    play = Play(tables, State(dungeon=Dungeon(active=True, turns_since_rest=5),
                              party=(new_character(id="ana", name="Ana"),)))
    events = play("turno")
    public = [e.text for e in events if e.visibility != "gm"]
    hour = [t for t in public if "Uma hora de exploração" in t]
    assert hour and not any("'descansar'" in t for t in public), public
    assert any("'descansar'" in e.text for e in events if e.visibility == "gm")
