"""Issue 7: what a GM catches at the table — each reproduction of the play-test, seeded, through
the public command path (Session.run, the path of the shell, the server and the voice)."""
from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Command
from companion.session import Session
from companion.tables.files import Tables
from tests.history_helpers import differences


class Table:
    """A session in memory with a seed; `run` says the lines as the GM, one at a time."""

    def __init__(self, tables: Tables, seed: int) -> None:
        self.session = Session.open(None, seed, tables)
        self.events: list[dict[str, Any]] = []

    def run(self, *lines: str) -> list[dict[str, Any]]:
        """Run the lines; every one must be accepted. Returns their events."""
        out: list[dict[str, Any]] = []
        for line in lines:
            result = self.session.run(line)
            assert result.ok, (line, result.error)
            out += result.events
        self.events += out
        return out

    def refuse(self, line: str) -> str:
        """Run a line that must be refused, changing nothing; returns the message."""
        before = self.session.state
        result = self.session.run(line)
        assert not result.ok, line
        assert self.session.state == before
        return str(result.error)

    @property
    def state(self) -> Any:
        return self.session.state

    def char(self, name: str) -> Any:
        return next(c for c in self.state.party if c.name == name)


@pytest.fixture
def table(tables: Tables):
    opened: list[Table] = []

    def make(seed: int) -> Table:
        opened.append(Table(tables, seed))
        return opened[-1]
    yield make
    for each in opened:
        each.session.close()


def rolls(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == "rolagem" and e["data"]["tabela"] == name]


# ---------------------------------------------------------------- 1. one activity per round

def test_1_a_second_activity_for_the_same_character_is_refused(table) -> None:
    mesa = table(5)
    mesa.run("personagem Ana", "personagem Bia", "terreno floresta", "caçar Ana")
    food, ammo = mesa.char("Ana").food, mesa.char("Ana").ammo
    for line in ("caçar Ana", "pescar Ana", "forragear Ana", "criar munição Ana"):
        message = mesa.refuse(line)
        assert message.startswith("Ana já fez a atividade desta rodada (caçar)")
        assert "Bia" in message  # who may still act
    assert (mesa.char("Ana").food, mesa.char("Ana").ammo) == (food, ammo)
    assert mesa.state.minutes == 0  # Bia has not acted: still round 1
    mesa.run("pescar Bia")  # everyone has acted: the round closes by itself
    assert mesa.state.minutes == 240 and mesa.state.travel.acted == ()
    mesa.run("caçar Ana")  # a new round, a new activity
    assert mesa.state.minutes == 240


def test_1_a_group_activity_covers_only_who_has_not_acted(table) -> None:
    mesa = table(11)
    mesa.run("personagem Ana", "personagem Bia", "caçar Ana")
    events = mesa.run("acampar")
    said = next(e for e in events if "participantes" in e["data"])
    assert said["data"]["participantes"] == ["bia"]
    assert mesa.state.minutes == 240  # the group activity closed the round
    # the round's weather and encounter check were rolled once, when Ana hunted
    assert len(rolls(mesa.events, "Clima")) == 1


def test_1_resting_after_a_named_activity_feeds_only_who_rests(table) -> None:
    mesa = table(11)
    mesa.run("personagem Ana", "personagem Bia", "caçar Ana")
    food = mesa.char("Ana").food
    mesa.run("descansar")
    assert mesa.char("Ana").food == food  # Ana hunted: she did not rest this round
    assert mesa.char("Bia").food == 2


def test_1_advancing_waits_for_a_whole_group(table) -> None:
    mesa = table(11)
    mesa.run("personagem Ana", "personagem Bia", "caçar Ana")
    message = mesa.refuse("avançar")
    assert "leva o grupo todo" in message and "Ana (caçar)" in message


# ---------------------------------------------------------------- 2. the sleep, hour by hour

def test_2_a_torch_out_after_hour_1_makes_every_later_hour_mortal(table) -> None:
    mesa = table(3)
    events = mesa.run("personagem Ana", "masmorra arriscado", "acender tocha", "dormir")
    checks = rolls(events, "Tabela C: Descansando na Dungeon")
    assert [c["data"]["perigo"] for c in checks] == ["mortal"] * len(checks)
    hours = [c["data"]["hora"] for c in checks]
    assert hours == list(range(1, hours[-1] + 1)) and hours[0] == 1
    out = next(i for i, e in enumerate(events) if e["text"] == "A tocha se apagou.")
    first_check = events.index(checks[0])
    assert out < first_check  # the torch dies in the first hour, not after the sleep


def test_2_a_lantern_out_at_hour_4_checks_every_hour_from_there(table) -> None:
    mesa = table(20)
    events = mesa.run("personagem Ana", "masmorra inseguro", "acender lanterna", "dormir")
    checks = [(c["data"]["hora"], c["data"]["perigo"])
              for c in rolls(events, "Tabela C: Descansando na Dungeon")]
    assert checks[0] == (4, "mortal")
    assert [hour for hour, _ in checks] == list(range(4, 4 + len(checks)))


def test_2_the_dungeon_mishap_comes_before_the_encounter_checks(table) -> None:
    mesa = table(3)
    events = mesa.run("personagem Ana", "masmorra", "acender lanterna", "dormir")
    mishap = rolls(events, "Tabela B: Percalços da Dungeon")[0]
    checks = rolls(events, "Tabela C: Descansando na Dungeon")
    assert events.index(mishap) < events.index(checks[0])


# ---------------------------------------------------------------- 3. DESV on physical dice

def test_3_a_prompt_under_desv_says_so_and_takes_the_worse_of_two_values(table) -> None:
    mesa = table(3)
    events = mesa.run("personagem Bia con 2 exaustão 1", "avançar", "avançar", "avançar")
    prompt = next(e for e in events if e["kind"] == "pedido")
    assert "DESV" in prompt["text"] and "duas vezes" in prompt["text"]
    assert prompt["data"]["pedido"]["vantagem"] == "desvantagem"
    answer = mesa.run("responder 15 9")
    said = next(e for e in answer if e["kind"] == "resposta")
    assert said["data"]["natural"] == 9 and said["data"]["total"] == 11
    assert "descartado 15" in said["text"]
    assert any("falha na marcha forçada (11 contra DC 12)" in e["text"] for e in answer)


def test_3_two_values_are_refused_without_an_edge(table) -> None:
    mesa = table(2)
    mesa.run("personagem Ana", "pânico Ana")
    assert "não é com DESV" in mesa.refuse("responder 3 12")


# ---------------------------------------------------------------- 4. "nas próximas duas rodadas"

def test_4_the_mosquitos_desv_starts_with_the_next_round(table) -> None:
    mesa = table(1)
    events = mesa.run("personagem Ana", "personagem Bia", "vigia Bia", "descansar")
    assert any("Mosquitos" in e["text"] for e in events)  # Tabela H row 7 on this seed
    hit_dice = rolls(events, "Dados de vida")
    assert hit_dice and all("vantagem" not in e["data"] for e in hit_dice)
    later = mesa.run("criar munição Ana")  # the next round: DESV now
    assert rolls(later, "Tabela G: Criar Munição")[0]["data"]["vantagem"] == "desvantagem"


# ---------------------------------------------------------------- 8. physical dice in the tally

def test_8_a_physical_die_answered_counts_in_the_tally(table) -> None:
    mesa = table(2)
    mesa.run("personagem Ana", "pânico Ana", "responder 5")
    assert mesa.state.tally.dice == {"d6": 1, "d20": 1}  # the initial weather, the answer
    shown = mesa.run("registro")
    assert "d20 × 1" in shown[0]["text"] and "nenhum" not in shown[0]["text"].split("rolados:")[1]


def test_8_a_physical_answer_under_desv_counts_both_dice(table) -> None:
    mesa = table(3)
    mesa.run("personagem Bia con 2 exaustão 1", "avançar", "avançar", "avançar")
    before = mesa.state.tally.dice.get("d20", 0)
    mesa.run("responder 11")
    assert mesa.state.tally.dice["d20"] == before + 2


# ---------------------------------------------------------------- 7. secrets through side doors

SLEEP_HURT = ("personagem Ana pv 8", "masmorra inseguro", "acender lanterna",
              "Ana toma 5 de dano", "dormir")


def test_7_arrivals_in_the_next_room_reach_no_player(table) -> None:
    mesa = table(27)  # on this seed both arrivals of the sleep are in an adjacent room
    events = mesa.run(*SLEEP_HURT)
    arrivals = rolls(events, "Fim do Turno")
    assert len(arrivals) == 2 and all(a["data"]["total"] >= 4 for a in arrivals)
    assert all(a["visibility"] == "gm" for a in arrivals)
    assert mesa.state.prompts == ()  # no "O descanso foi interrompido" for Ana
    seen = [e for e in events[-len(events):] if e["visibility"] != "gm"
            and e["command"] == "dormir"]
    assert not any("interromp" in e["text"] or "monstro" in e["text"].lower()
                   or "encontro" in e["text"].lower() for e in seen)
    assert mesa.char("Ana").hp > 3  # she slept: the rest's benefits


def test_7_dungeon_mishap_row_10_is_the_gms_alone(table) -> None:
    mesa = table(2)  # Tabela B: 10 on this seed
    events = mesa.run(*SLEEP_HURT)
    (mishap,) = rolls(events, "Tabela B: Percalços da Dungeon")
    assert mishap["data"]["total"] == 10 and mishap["visibility"] == "gm"
    assert not any("cheiro" in e["text"] or "emboscá" in e["text"]
                   for e in events if e["visibility"] != "gm")


# ---------------------------------------------------------------- 6. lost stays lost

def test_6_once_lost_the_party_stays_lost_until_the_gm_says_so(table) -> None:
    mesa = table(7)  # round 1: on course; round 2: lost
    mesa.run("personagem Ana", "avançar", "avançar")
    assert mesa.state.travel.lost
    # the 3rd advance: the forced-march test first, then the advance itself
    third = mesa.run("avançar", "responder 20")
    assert not rolls(third, "Tabela C: Perdendo a direção")  # not rolled while lost
    still = [e for e in third if e["data"].get("perdido") is True]
    assert still and all(e["visibility"] == "gm" for e in still)
    assert "continua perdido" in still[0]["text"]
    assert mesa.state.travel.lost
    gm_line = mesa.run("estado")[-1]
    assert gm_line["data"]["mestre"]["perdido"] is True
    found = mesa.run("o grupo achou o caminho")
    assert [e["visibility"] for e in found] == ["gm"]
    assert not mesa.state.travel.lost
    assert "não está perdido" in mesa.refuse("o grupo achou o caminho")
    mesa.run("descansar", "avançar")
    assert rolls(mesa.events[-12:], "Tabela C: Perdendo a direção")  # rolled again


def test_6_a_player_cannot_say_the_party_found_its_way(table) -> None:
    mesa = table(7)
    mesa.run("personagem Ana", "avançar", "avançar")
    refused = mesa.session.run("o grupo achou o caminho", actor="player:ana")
    assert not refused.ok and mesa.state.travel.lost


# ---------------------------------------------------------------- 5. conditions with an effect

def test_5_ticks_deal_a_damage_every_round_until_cured(table) -> None:
    mesa = table(15)  # Tabela F row 7 on Ana's forage
    mesa.run("personagem Ana", "terreno montanha", "forragear Ana")
    assert mesa.char("Ana").hp == 7  # the round of the accident ended
    mesa.run("avançar", "avançar")
    assert mesa.char("Ana").hp == 5
    shown = mesa.run("estado")[0]["text"]
    assert "Carrapatos/sanguessugas" in shown
    mesa.run("curar Ana carrapatos")  # the form the companion suggests
    assert mesa.char("Ana").conditions == ()
    mesa.run("explorar")
    assert mesa.char("Ana").hp == 5


def test_5_poisoned_food_gives_desv_the_next_day_then_ends(table) -> None:
    mesa = table(44)  # Tabela F row 6 on Ana's forage
    events = mesa.run("personagem Ana", "terreno montanha", "forragear Ana")
    assert any("Comida venenosa/doente: DESV em todas as rolagens durante o dia 2" in e["text"]
               for e in events)
    today = mesa.run("criar munição Ana")  # still day 1: no DESV
    assert "vantagem" not in rolls(today, "Tabela G: Criar Munição")[0]["data"]
    mesa.run(*["explorar"] * 4)  # to the start of day 2
    assert mesa.state.minutes == 24 * 60
    tomorrow = mesa.run("criar munição Ana")
    assert rolls(tomorrow, "Tabela G: Criar Munição")[0]["data"]["vantagem"] == "desvantagem"
    mesa.run(*["explorar"] * 5)  # the rest of day 2
    assert mesa.char("Ana").lasting == ()
    assert any(e["text"] == "Acabou: Comida venenosa/doente (Ana)." for e in mesa.events)


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
