"""Issue 7: what a GM catches at the table — each reproduction of the play-test, seeded, through
the public command path (Session.run, the path of the shell, the server and the voice)."""
from __future__ import annotations



from tests.session.fidelity_helpers import (  # noqa: F401
    table,
    rolls,
    SLEEP_HURT,
)


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
