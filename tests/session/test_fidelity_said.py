"""test_fidelity.py, continued: the said tests."""
from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Command
from companion.session import Session
from tests.history_helpers import differences
from tests.session.fidelity_helpers import (  # noqa: F401
    table,
    rolls,
)


def test_5_disease_is_said_and_stays_until_cured(table) -> None:
    mesa = table(7)  # Tabela H row 10 on this rest
    events = mesa.run("personagem Ana", "descansar")
    warned = [e for e in events if e["kind"] == "aviso" and "Doença" in e["text"]]
    assert warned and warned[0]["visibility"] == "public" and "curada" in warned[0]["text"]
    # how to cure it is said to the GM alone (issue 17, 14)
    assert any(e["visibility"] == "gm" and "curar" in e["text"] and "Doença" in e["text"]
               for e in events)
    mesa.run(*["explorar"] * 8)
    assert "Doença (roedores/pestes)" in mesa.char("Ana").conditions
    assert "Doença (roedores/pestes)" in mesa.run("estado")[0]["text"]
    mesa.run("curar Ana")
    assert mesa.char("Ana").conditions == ()


def test_5_estado_lists_every_condition_and_affliction(table) -> None:
    mesa = table(8)  # Tabela F row 8: the sprained ankle
    mesa.run("personagem Ana sanidade 1", "terreno montanha", "forragear Ana", "pânico Ana",
             "responder 20", "personagem Bia sanidade 3", "pânico Bia", "responder 20")
    public, gm = (e["text"] for e in mesa.run("estado"))
    assert "Tornozelo torcido" in public
    # the panic's effect is Ana's and the GM's (default): so is the Insanidade it left
    assert "Insanidade" not in public and "Insanidade" in gm
    affliction = mesa.char("Bia").afflictions[0].name  # only Bia's and the GM's (default)
    assert "aflição: " + affliction not in public
    assert f"aflições que só o jogador vê: Bia: {affliction}" in gm


# ---------------------------------------------------------------- also fix: small things

def test_insanity_is_said_in_a_neutral_form_and_does_not_stop_the_travel(table) -> None:
    mesa = table(2)
    events = mesa.run("personagem Ana sanidade 1", "pânico Ana", "responder 20")
    assert any(e["text"] == "Ana agora sofre de insanidade." for e in events)
    assert not any("está insano" in e["text"] for e in events)
    mesa.run("avançar")  # the condition's row is Tabela J's: no travel effect to look up
    assert mesa.char("Ana").conditions == ("Insanidade",)


def test_the_forced_march_test_comes_before_the_third_advance(table) -> None:
    mesa = table(3)
    mesa.run("personagem Ana", "avançar", "avançar")
    asked = mesa.run("avançar")
    assert [e["kind"] for e in asked].count("pedido") == 1
    assert not any(e["text"].startswith("O grupo avança") for e in asked)
    assert not rolls(asked, "Tabela D: Eventos")
    answered = mesa.run("responder 20")
    texts = [e["text"] for e in answered]
    assert any(t.startswith("Ana aguenta") for t in texts)
    assert texts.index(next(t for t in texts if t.startswith("Ana aguenta"))) < texts.index(
        next(t for t in texts if t.startswith("O grupo avança")))
    assert mesa.state.minutes == 3 * 240


def test_the_turn_header_comes_after_the_encounter_check(table) -> None:
    mesa = table(3)
    events = mesa.run("personagem Ana", "masmorra mortal", "acender tocha", "turno")
    check = rolls(events, "Encontro aleatório")[0]
    header = next(e for e in events if e["text"].startswith("Turno de exploração 1"))
    assert events.index(check) < events.index(header)


def test_undo_after_the_session_form_undoes_the_last_real_command(table) -> None:
    mesa = table(2)
    mesa.run("personagem Ana", "tesouro 50 moedas de ouro", "registro", "ficha da sessão")
    undone = mesa.run("desfazer")
    assert undone[0]["data"]["comando"] == "tesouro"
    assert mesa.state.tally.treasure == {}


def test_small_things_the_gm_caught(table) -> None:
    mesa = table(2)
    mesa.run("personagem Ana con 1")
    said = mesa.run("vigia")[0]  # alone: who watches now
    assert said["text"].startswith("Vigia: Ana") and said["data"]["vigia"] == "ana"
    mesa.run("Ana toma 1000 de dano")
    assert mesa.char("Ana").hp == 0
    message = mesa.refuse("personagem Zé pv -5")
    assert "ainda não está no grupo" in message and "personagem Zé pv 8" in message
    mesa.run("pânico Ana")
    rolled = rolls(mesa.run("responder rolar"), "Teste de pânico")[0]
    assert rolled["data"]["resultado"] == f"total {rolled['data']['total']}"


# ---------------------------------------------------------------- also fix: the chase's speeds

def test_the_chase_shows_both_speeds_and_a_long_chase_slows_the_party(table) -> None:
    mesa = table(2)
    mesa.run("personagem Ana", "fugir", "fuga sucesso")
    said = mesa.run("velocidade 120 contra 90")[0]
    assert said["text"] == ("Velocidades: o grupo 120, os perseguidores 90 — o grupo é 30 mais "
                            "rápido.")
    shown = mesa.run("estado")[0]
    assert shown["data"]["estado"]["perseguicao"]["velocidade_diferenca"] == \
        "o grupo é 30 mais rápido"
    assert "velocidade 120 × 90" in shown["text"]
    mesa.run("fuga falha", "fuga sucesso", "fuga falha")  # turn 4 begins: past the limit
    prompt = mesa.state.prompts[-1]
    assert prompt.kind == "confirmar_perseguicao" and "privação" in prompt.text
    water = mesa.char("Ana").water
    mesa.run("sim")
    assert mesa.state.chase.party_speed < 120
    assert mesa.char("Ana").water == water - 1 and mesa.char("Ana").exhaustion == 1
    assert "velocidade inválida" in mesa.refuse("velocidade 120 contra 500000")


# ---------------------------------------------------------------- also fix: the seed's own words

@pytest.mark.parametrize("said,command,args", [
    ("escutar atrás da porta", "segredo", {"motivo": "escutar atrás da porta"}),
    ("procurar portas secretas", "segredo", {"motivo": "procurar portas secretas"}),
    ("investigar as runas", "segredo", {"motivo": "investigar as runas"}),
    ("forrageiam", "forragear", {}),
    ("responder 12 Ana", "responder", {"valor": 12, "personagem": "Ana"}),
    ("avançar duas vezes", "avancar", {"vezes": 2}),
    ("2 turnos", "turno", {"vezes": 2}),
    ("magia escudo por uma hora", "magia", {"nome": "escudo", "horas": 1}),
])
def test_natural_phrasings_of_the_seed(tables, said: str, command: str,
                                       args: dict[str, Any]) -> None:
    from companion.commands.parse import parse

    result = parse(said, tables)
    assert result.command is not None, result.error
    assert (result.command.name, dict(result.command.args)) == (command, args)


def test_said_twice_runs_twice_as_one_command(table) -> None:
    mesa = table(3)
    mesa.run("personagem Ana", "avançar duas vezes")
    assert mesa.state.minutes == 2 * 240 and mesa.state.travel.consecutive_advances == 2
    assert len(mesa.session.commands()) == 2  # one command: one undo
    mesa.run("desfazer")
    assert mesa.state.minutes == 0
    mesa.run("masmorra", "acender tocha", "2 turnos")
    assert mesa.state.dungeon.turn == 2
    mesa.run("magia escudo por uma hora")
    assert mesa.state.dungeon.spells[0].turns_left == 6  # one hour of 10-minute turns
    assert mesa.refuse("turno 9 vezes") == ("número de vezes inválido: '9'; diga de 1 a 6, "
                                            "como em 'turno duas vezes'")


def test_only_commands_marked_to_repeat_repeat(tables) -> None:
    import random

    from companion.engine import Command, apply, initial_state
    from companion.tables.errors import CommandRejected

    with pytest.raises(CommandRejected, match="não se repete"):
        apply(initial_state(tables), Command("acampar", {"vezes": 2}), random.Random(0), tables)


def test_a_repetition_refused_midway_changes_nothing(table) -> None:
    mesa = table(3)
    mesa.run("personagem Ana", "avançar")
    # the 2nd advance runs, the 3rd asks the CON test, so a 4th cannot go on
    message = mesa.refuse("avançar 3 vezes")
    assert message.startswith("na 3ª vez: Ana ainda não respondeu ao pedido 1")


# ---------------------------------------------------------------- also fix: hit die, attribute damage

def test_the_hit_die_is_set_on_the_sheet(table) -> None:
    mesa = table(2)
    mesa.run("personagem Ana nível 2 dado de vida d6", "acampar")
    hit = rolls(mesa.run("descansar"), "Dados de vida")
    assert hit and hit[0]["data"]["dados"] == "2d6"
    assert "dado de vida d6" in mesa.run("personagem Ana")[0]["text"]


def test_attribute_damage_said_by_the_gm_lowers_the_modifier(table) -> None:
    mesa = table(3)
    mesa.run("personagem Ana con 2", "Ana perde 2 de CON")
    assert mesa.char("Ana").attribute_damage == {"con": 2}
    mesa.run("avançar", "avançar", "avançar")  # the forced-march CON test
    (prompt,) = mesa.state.prompts
    assert prompt.modifier == 1  # CON +2, 2 points of damage: +1 (house default: 2 per point)
    mesa.run("cancelar", "Ana recupera 2 de CON")
    assert mesa.char("Ana").attribute_damage == {}


def test_the_initial_weather_is_rolled_when_the_session_is_created(tables, tmp_path) -> None:
    """docs/regras.md: at the start of the session (when it is created, with the default season)
    roll 1d6 on the season's column. It is the session's command 0 with its own RNG: the
    table's commands keep their numbers and rolls; it is never undone nor run again."""
    path = tmp_path / "mesa.db"
    session = Session.open(path, 21, tables)
    started = session.started
    assert [e["kind"] for e in started] == ["relato", "rolagem"]
    roll = started[1]
    assert roll["visibility"] == "public" and roll["data"]["tabela"] == "Clima inicial"
    rows = tables["clima"]["estacoes"][tables["inicio"]["estacao"]["valor"]]["linhas"]
    assert roll["data"]["resultado"] == rows[roll["data"]["total"]]
    assert session.state.travel.weather_row == roll["data"]["total"]
    assert session.state.tally.dice == {"d6": 1}  # every die counts in the session tally
    # a session that starts in the dungeon already knows its weather
    entered = session.run("masmorra arriscado")
    assert entered.ok and session.run("estado").events[0]["data"]["estado"]["clima"] \
        == roll["data"]["resultado"]
    assert session.run("desfazer").ok  # undoes 'masmorra arriscado'
    assert not session.run("desfazer").ok  # only command 0 is left: nothing to undo
    assert session.state.travel.weather_row == roll["data"]["total"]
    refused = session.run_command(Command("inicio_sessao", {}))
    assert not refused.ok and "sozinha" in str(refused.error)
    session.close()
    reopened = Session.open(path, None, tables)
    assert reopened.started == [] and differences(path, tables) == []
    assert reopened.state.travel.weather_row == roll["data"]["total"]
    assert [e["seq"] for e in reopened.events_since(0)][:2] == [1, 2]
    reopened.close()


def test_the_first_round_drifts_the_initial_weather_without_rolling_it_again(table) -> None:
    t = table(21)
    first = t.session.started[1]["data"]["total"]
    events = t.run("personagem Ana", "acampar")
    names = [e["data"].get("tabela") for e in events if e["kind"] == "rolagem"]
    assert "Clima inicial" not in names and names[0] == "Clima"
    step = {1: -1, 2: 1}.get(next(e for e in events if e["kind"] == "rolagem")["data"]["total"], 0)
    assert t.state.travel.weather_row == max(1, min(6, first + step))
