"""The dungeon turn, light and spells read tables/masmorra.yaml (and casa.yaml `luz`) through
their typed pieces and say their texts from tables/narracao/masmorra.yaml: a change in the data
changes what happens and what is said."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine.model import GM, PUBLIC, Dungeon, State, Timer
from companion.engine.procedures.dungeon import DungeonRules
from companion.tables.errors import CommandRejected, TableError
from companion.tables.light_sources import LightRules
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

LANTERN = Timer(name="lanterna", turns_left=24, kind="luz")
INSEGURO = 'inseguro: {nome: Inseguro, chance: 1, a_cada_turnos: 3,'


def in_dungeon(tables: Tables, lit: bool = True, light: Timer = LANTERN,
               **dungeon: object) -> Play:
    state = State(dungeon=Dungeon(active=True, danger="inseguro",  # type: ignore[arg-type]
                                  lights=(light,) if lit else (), **dungeon),
                  party=(new_character(id="ana", name="Ana", food=3, water=3),))
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
    shipped = in_dungeon(tables)
    events = shipped("turno", rng=FixedDice(*[6] * 10))
    assert [e.data["turno"] for e in said(events, "masmorra.turno")] == [1]
    assert said(events, "masmorra.sem_checagem")
    changed = in_dungeon(every_turn)
    events = changed("turno", rng=FixedDice(*[6] * 10))
    assert not said(events, "masmorra.sem_checagem")
    assert [e.data["tabela"] for e in events if e.kind == "rolagem"] == ["Encontro aleatório"]


def test_the_turn_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          'sem_checagem: "Sem checagem de encontro neste turno',
                          'sem_checagem: "Nada a checar neste turno')
    events = in_dungeon(rules)("turno", rng=FixedDice(*[6] * 10))
    (quiet,) = said(events, "masmorra.sem_checagem")
    assert quiet.text.startswith("Nada a checar neste turno (perigo Inseguro: próxima no turno 3")
    assert quiet.visibility == GM


def test_an_arrival_row_seen_by_everyone_in_the_data_is_public(tables: Tables,
                                                                tmp_path: Path) -> None:
    shown = changed_rules(tmp_path, "masmorra.yaml", 'adjacente.", visibilidade: mestre',
                          'adjacente.", visibilidade: publico')
    for rules, public in ((tables, False), (shown, True)):
        play = in_dungeon(rules, pending_encounter=True)
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
    play = in_dungeon(rules)
    warned = [said(play("turno", rng=FixedDice(*[6] * 10)), "masmorra.hora_de_descansar")
              for _ in range(2)]
    assert [bool(w) for w in warned] == [False, True]
    events = play("turno", rng=FixedDice(*[6] * 10))
    (tired,) = said(events, "masmorra.sem_descanso")
    assert tired.data == {"exaustao": 1} and play.state.party[0].exhaustion == 1
    shipped = in_dungeon(tables)
    for _ in range(3):
        assert not said(shipped("turno", rng=FixedDice(*[6] * 10)), "masmorra.hora_de_descansar")


def test_the_hour_rest_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          'descansou: "O grupo descansou um turno."',
                          'descansou: "Pausa de um turno."')
    events = in_dungeon(rules)("descansar", rng=FixedDice(*[6] * 10))
    assert [e.text for e in said(events, "masmorra.descansou")] == ["Pausa de um turno."]


# ---------------------------------------------------------------- sleeping

def test_the_hours_of_sleep_and_their_checks_come_from_the_data(tables: Tables,
                                                                 tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "  horas: 8\n  chance: 3",
                          "  horas: 2\n  chance: 3")
    for data, hours in ((tables, 8), (rules, 2)):
        play = in_dungeon(data, light=replace(LANTERN, turns_left=100))  # lit all night
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
    events = in_dungeon(rules)("dormir", rng=FixedDice(1, *[6] * 10))
    assert [e.text for e in said(events, "masmorra.dorme")] == ["Boa noite: 8 horas."]


# ---------------------------------------------------------------- light and spells

def test_a_torch_duration_changed_in_the_data_is_how_long_it_burns(tables: Tables,
                                                                    tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "    nome: Tocha\n    turnos: 6",
                          "    nome: Tocha\n    turnos: 2")
    play = in_dungeon(rules, lit=False)
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
    (lit,) = said(in_dungeon(rules)("luz", fonte="tocha"), "masmorra.luz_acesa")
    assert lit.text == "Tocha brilhando: dura 6 turnos."


def test_the_spell_limit_comes_from_the_data(tables: Tables, tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "magia_maximo_turnos: 1440",
                          "magia_maximo_turnos: 5")
    (cast,) = said(in_dungeon(tables)("magia", nome="Escudo", turnos=6), "masmorra.magia")
    assert cast.data == {"magia": "Escudo", "turnos": 6}
    with pytest.raises(CommandRejected, match="diga de 1 a 5 turnos") as refused:
        in_dungeon(rules)("magia", nome="Escudo", turnos=6)
    assert refused.value.code == "masmorra.magia_duracao_invalida"


def test_the_spell_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          'magia_terminou: "A magia {{ magia }} terminou."',
                          'magia_terminou: "Fim da magia {{ magia }}."')
    play = in_dungeon(rules)
    play("magia", nome="Escudo", turnos=1)
    events = play("turno", rng=FixedDice(*[6] * 10))
    assert [e.text for e in said(events, "masmorra.magia_terminou")] == ["Fim da magia Escudo."]


def test_a_refusal_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/masmorra.yaml",
                          "luz_desconhecida: \"fonte de luz desconhecida:",
                          "luz_desconhecida: \"não conheço a luz")
    with pytest.raises(CommandRejected) as refused:
        in_dungeon(rules)("luz", fonte="vela")
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
