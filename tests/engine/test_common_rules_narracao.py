"""test_common_rules.py, continued: the narracao tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine import Command, initial_state
from companion.engine.core import StartRules
from companion.engine.model import Lasting, State
from companion.engine.procedures.conditions import (
    Slowed,
    TimedCondition,
    slowed_text,
    timed_text,
)
from companion.engine.prompting import edge_text
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from companion.voice.config import VoiceData, voice_config
from tests.play_helpers import Play
from tests.rules_helpers import changed_rules, new_character
from tests.engine.common_rules_helpers import (  # noqa: F401
    run,
    with_ana,
    held,
)


def test_the_form_is_said_from_narracao(tables: Tables) -> None:
    state, _ = run(tables, Command("tesouro", {"quantidade": 50, "tipo": "moedas"}))
    _, events = run(tables, Command("registro"), state=state)
    assert events[0].code == "registro.registro"
    assert events[0].text.splitlines()[:4] == ["Registro da sessão", "Derrotados por região:",
                                               "  nenhuma criatura", "Tesouro: 50 moedas"]


def test_a_bad_tally_limit_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/registro\.yaml: 'quantidade_maxima' "
                                         r"deveria ser número inteiro"):
        changed_rules(tmp_path, "registro.yaml", "quantidade_maxima: 100000",
                      "quantidade_maxima: muitas")


# ---------------------------------------------------------------- campaign

def test_a_new_session_is_said_from_narracao(tables: Tables, tmp_path: Path) -> None:
    _, events = run(tables, Command("nova_sessao"))
    assert [e.code for e in events] == ["campanha.ficha", "campanha.nova_sessao"]
    assert events[1].text == ("Fim da sessão 1. Começa a sessão 2: o grupo continua de onde "
                              "parou — dia 1, Planície.")
    assert events[1].data == {"encerrada": 1, "sessao": 2, "dia": 1, "lugar": "Planície"}
    rules = changed_rules(tmp_path, "narracao/campanha.yaml", "Fim da sessão {{ encerrada }}.",
                          "A sessão {{ encerrada }} acabou.")
    _, events = run(rules, Command("nova_sessao"))
    assert events[1].text.startswith("A sessão 1 acabou. Começa a sessão 2")


def test_a_new_session_waits_for_the_prompts(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("nova_sessao"), state=held(tables))
    assert refused.value.code == "campanha.pedidos_pendentes"
    assert refused.value.message.startswith(  # issue 26: the prompt named, not a bare id
        "ainda há pedidos esperando resposta: pedido 1 (Ana: Tabela B: Forçando o Avanço)")


def test_the_starting_region_is_data_for_the_new_session(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "planicie: Planície", "planicie: Campina")
    _, events = run(rules, Command("nova_sessao"))
    assert events[1].data["lugar"] == "Campina"


# ---------------------------------------------------------------- dice and tables

def test_the_free_roll_name_is_data(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "dados.yaml", 'nome: "Rolagem"', 'nome: "Dados"')
    _, events = run(rules, Command("rolar", {"expressao": "1d6"}))
    assert events[0].data["tabela"] == "Dados" and events[0].text.startswith("Dados — 1d6 = ")


def test_a_table_explained_is_said_from_narracao(tables: Tables, tmp_path: Path) -> None:
    _, events = run(tables, Command("tabela", {"tabela": "a"}))
    assert events[0].code == "dados.consulta"
    assert events[0].data["linhas"][0].endswith(" hex por rodada ◀ agora")
    rules = changed_rules(tmp_path, "narracao/dados.yaml", " hex por rodada{% if agora %}",
                          " hex a cada rodada{% if agora %}")
    _, events = run(rules, Command("tabela", {"tabela": "a"}))
    assert events[0].data["linhas"][0].endswith(" hex a cada rodada ◀ agora")


def test_an_unknown_table_is_refused_by_its_code(tables: Tables) -> None:
    with pytest.raises(CommandRejected) as refused:
        run(tables, Command("tabela", {"tabela": "zz"}))
    assert refused.value.code == "dados.tabela_desconhecida"
    assert refused.value.message.startswith("tabela desconhecida: 'zz'; use A, B, C,")


# ---------------------------------------------------------------- ajuda, estado

def test_the_help_lists_the_data(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "comandos.yaml", "clima — rola o clima inicial da estação",
                          "clima — o tempo que faz")
    _, events = run(rules, Command("ajuda"))
    assert events[0].code == "comandos.ajuda" and "• clima — o tempo que faz" in events[0].text
    assert {"nome": "clima", "ajuda": "clima — o tempo que faz"} in events[0].data["comandos"]


def test_the_help_heading_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/comandos.yaml", 'ajuda: "Comandos (modo ',
                          'ajuda: "O que dizer (modo ')
    _, events = run(rules, Command("ajuda"))
    assert events[0].text.startswith("O que dizer (modo viagem (hexcrawl)):\n• ")


def test_the_state_lines_come_from_narracao(tables: Tables, tmp_path: Path) -> None:
    _, events = run(tables, Command("estado"), state=held(tables))
    assert [e.code for e in events] == ["comandos.estado", "comandos.estado_mestre"]
    assert "\nGrupo: Ana PV " in events[0].text
    assert "pedidos pendentes: 1 " in events[1].text and events[1].text.endswith(
        "últimas rolagens secretas: nenhuma")
    rules = changed_rules(tmp_path, "narracao/comandos.yaml", "\\nGrupo: {% for c in",
                          "\\nPersonagens: {% for c in")
    _, events = run(rules, Command("estado"), state=held(rules))
    assert "\nPersonagens: Ana PV " in events[0].text


# ---------------------------------------------------------------- the session's start

def test_the_starting_values_are_a_typed_piece(tables: Tables, tmp_path: Path) -> None:
    assert tables.piece(StartRules).terreno.valor == "planicie"
    rules = changed_rules(tmp_path, "inicio.yaml", "valor: inseguro", "valor: mortal")
    assert initial_state(rules).dungeon.danger == "mortal"


def test_a_bad_starting_season_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/inicio\.yaml: 'estacao\.valor' deveria ser "
                                         r"um destes: primavera"):
        changed_rules(tmp_path, "inicio.yaml", "valor: primavera", "valor: monção")


def test_the_clock_text_of_the_state_comes_from_narracao(tables: Tables, tmp_path: Path) -> None:
    _, events = run(tables, Command("estado"))
    assert events[0].data["estado"]["relogio"] == "Dia 1 · rodada 1 de 6 (0h–4h)"
    rules = changed_rules(tmp_path, "narracao/relogio.yaml", 'na_viagem: "Dia {{ dia }} · ',
                          'na_viagem: "{{ dia }}º dia · ')
    _, events = run(rules, Command("estado"))
    assert events[0].data["estado"]["relogio"] == "1º dia · rodada 1 de 6 (0h–4h)"
    assert events[0].text.startswith("1º dia · rodada 1 de 6 (0h–4h) · ")


# ---------------------------------------------------------------- the last raw reads (issue 8)

def test_a_typo_in_the_roll_names_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/dados\.yaml: chave desconhecida em "
                                         r"'rolagens': nome_secret$"):
        changed_rules(tmp_path, "dados.yaml", 'nome_secreta: "Rolagem secreta"',
                      'nome_secreta: "Rolagem secreta"\n  nome_secret: "x"')


def test_the_secret_roll_default_is_data(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "dados.yaml", 'secreta_padrao: "1d20"',
                          'secreta_padrao: "1d4"')
    _, events = run(rules, Command("segredo"))
    assert events[0].data["dados"] == "1d4" and events[0].data["tabela"] == "Rolagem secreta"


def test_a_typo_in_tabela_h_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: chave desconhecida em "
                                         r"'tabela_h': visibilidad$"):
        changed_rules(tmp_path, "viagem.yaml", 'nome: "Tabela H: Percalços"',
                      'nome: "Tabela H: Percalços"\n  visibilidad: mestre')


def test_the_travel_mishap_can_be_the_gms(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", 'nome: "Tabela H: Percalços"',
                          'nome: "Tabela H: Percalços"\n  visibilidade: mestre')
    state = with_ana(rules)
    _, events = run(rules, Command("descansar"), state=state)
    mishap = [e for e in events if e.data.get("tabela") == "Tabela H: Percalços"]
    assert mishap and all(e.visibility == "gm" for e in mishap)


def test_the_dungeon_turn_length_is_data_for_the_clock(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "turno_minutos: 10", "turno_minutos: 5")
    state, _ = run(rules, Command("masmorra"), Command("luz", {"fonte": "tocha"}))
    start = state.dungeon.lights[0].turns_left
    state, _ = run(rules, Command("turno"), state=state)
    assert state.minutes % 60 == 5 and state.dungeon.lights[0].turns_left == start - 1


# ---------------------------------------------------------------- texts moved out of Python

def test_the_edge_of_a_prompt_is_said_from_narracao(tables: Tables, tmp_path: Path) -> None:
    assert edge_text(tables.narration, "desvantagem", "1d20", False) == (
        "Com DESV: role 1d20 duas vezes e fique com o pior (o menor); diga os dois valores ou "
        "só o que ficou.")
    assert "fique com o pior (o maior)" in edge_text(tables.narration, "desvantagem", "1d20",
                                                       True)
    assert edge_text(tables.narration, "vantagem", "1d20", False).startswith(
        "Com vantagem: role 1d20 duas vezes e fique com o melhor (o maior)")
    rules = changed_rules(tmp_path, "narracao/pedidos.yaml", "diga os dois valores ou só",
                          "diga os dois ou só")
    assert edge_text(rules.narration, "desvantagem", "1d20", False).endswith(
        "diga os dois ou só o que ficou.")


def test_a_lasting_condition_is_said_from_narracao(tables: Tables, tmp_path: Path) -> None:
    bitten = Lasting(text="Mosquitos", since=240, until=720, edge="desvantagem")
    assert timed_text(tables.narration, bitten, TimedCondition("Mosquitos", rodadas=2)) == (
        "Mosquitos: DESV em todas as rolagens nas próximas 2 rodadas")
    fever = Lasting(text="Febre", since=1440, until=4320)
    one, two = TimedCondition("Febre", dias=1), TimedCondition("Febre", dias=2)
    assert timed_text(tables.narration, fever, one) == "Febre durante o dia 2"
    assert timed_text(tables.narration, fever, two) == "Febre do dia 2 ao dia 3"
    rules = changed_rules(tmp_path, "narracao/condicoes.yaml", "nas próximas {{",
                          "pelas próximas {{")
    assert timed_text(rules.narration, bitten, TimedCondition("Mosquitos", rodadas=2)).endswith(
        "pelas próximas 2 rodadas")


def test_who_slows_the_party_is_said_from_narracao(tables: Tables, tmp_path: Path) -> None:
    slowed = Slowed(factor=0.5, effect="meio movimento",
                    who=(("Ana", "com o tornozelo torcido"), ("Bia", "com o tornozelo torcido"),
                         ("Caio", "doente")))
    assert slowed_text(tables.narration, slowed) == (
        "meio movimento: Ana e Bia estão com o tornozelo torcido; Caio está doente")
    rules = changed_rules(tmp_path, "narracao/condicoes.yaml", "{{ g.como }}{{ '; '",
                          "{{ g.como }}{{ ' / '")
    assert slowed_text(rules.narration, slowed).endswith("torcido / Caio está doente")


def test_the_voice_settings_are_a_typed_piece(tables: Tables, tmp_path: Path) -> None:
    assert tables.piece(VoiceData).palavra_de_ativacao == "mestre"
    rules = changed_rules(tmp_path, "voz.yaml", "palavra_de_ativacao: mestre",
                          "palavra_de_ativacao: companheiro")
    assert voice_config(rules).wake_word == "companheiro"
    with pytest.raises(TableError, match=r"^tables/voz\.yaml: chave desconhecida em "
                                         r"'\(raiz\)': palavra_de_ativacoa$"):
        changed_rules(tmp_path, "voz.yaml", "palavra_de_ativacao: companheiro",
                      "palavra_de_ativacao: mestre\npalavra_de_ativacoa: x").piece(VoiceData)


def test_pending_prompts_are_named_not_numbered_alone(tables: Tables) -> None:
    play = Play(tables, State(party=(new_character(id="ana", name="Ana"),)))
    play("panico", personagem="Ana")
    with pytest.raises(Exception) as refused:
        play("nova_sessao")
    message = str(refused.value)
    assert "(1)" not in message and "Ana" in message and "pânico" in message.lower(), message
