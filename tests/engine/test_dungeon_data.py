"""test_dungeon.py, continued: the data tests."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine.model import GM, PUBLIC, Monster, State, Timer, Travel
from companion.engine.procedures.dungeon import DungeonRules
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from companion.tables.light_sources import LightRules
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character
from tests.engine.dungeon_helpers import (  # noqa: F401
    SAME_ROOM,
    LANTERN,
    party,
    in_dungeon,
    rolls,
    LONG_LIGHT,
    ROUND,
    night,
    INSEGURO,
    ana_in_dungeon,
    said,
)


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
