"""Descansar: the shared rest procedure (travel with Tabela H, dungeon with its Tabela B)."""
from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import pytest

from companion.engine import Command, State
from companion.engine.procedures import dungeon as dungeon_module
from companion.engine.characters import edge_for
from companion.engine.scratch import Scratch
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected, TableError
from companion.engine.model import Character, Dungeon, Travel
from companion.engine.procedures.rest import TravelMishaps, rest_party
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.engine.travel_helpers import QUIET, ana, bia, camp, fed, one_roll, rolls, run
from tests.rules_helpers import changed_rules, new_character

H = "Tabela H: Percalços"
SEED_H = {
    5: "Um personagem perde 1 item aleatório.",
    6: "Comida devorada por animais. Perca 1d4 rações entre o grupo.",
    7: "Ataque de mosquitos/insetos hematófagos. DESV nas próximas duas rodadas.",
    8: "Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. 3:6 | "
       "Encontro Aleatório.",
    9: "O fogo espalhou. Teste de DES DC 12 ou perde 1 item aleatório.",
    10: "Roedores/pestes infestam. Doença.",
}


# ---------------------------------------------------------------- a safe rest

def test_safe_rest_skips_mishaps_and_gives_every_benefit(play: Play) -> None:
    tired = fed(ana(level=2, hp=2, hp_max=20, sanity=7, exhaustion=2,
                    attribute_damage={"for": 2, "con": 1}))
    camp(play, tired)
    events = run(play, "descansar", *QUIET, 3, 4, 5, 6)  # 2d8, twice for DESV
    assert not rolls(events, H)
    hit = one_roll(events, "Dados de vida")
    assert (hit.data["dados"], hit.data["total"]) == ("2d8", 7)
    (rested,) = play.state.party
    assert (rested.food, rested.water) == (2, 2)
    assert rested.hp == 2 + hit.data["total"]
    assert (rested.sanity, rested.exhaustion) == (8, 1)
    assert rested.attribute_damage == {"for": 1}
    assert play.state.travel.rested_today is True
    assert play.state.travel.camp_safe is False


def test_the_rest_line_says_what_it_consumed(play: Play) -> None:
    """Issue 31 item 4: "Ana descansa: PV 10 → 10, sanidade 6, exaustão 1." did not say the
    ration and the water it had just taken."""
    camp(play, fed(ana(hp=3, hp_max=8)))
    events = run(play, "descansar", *QUIET, 2)
    line = next(e for e in events if e.code == "descanso.descansa")
    assert line.data["consumiu"] == {"comida": 1, "agua": 1}
    assert line.text.startswith("Ana descansa: 1 ração e 1 água; PV 3 → 5"), line.text


def test_hp_never_above_max(play: Play) -> None:
    camp(play, fed(ana(hp=7, hp_max=8)))
    run(play, "descansar", *QUIET, 8)
    assert play.state.party[0].hp == 8


def test_rest_without_food_or_water_warns_and_stays_at_zero(play: Play) -> None:
    camp(play, ana(food=0, water=1, hp=3), bia(food=1, water=0, hp=3))
    events = run(play, "descansar", *QUIET)  # nobody rolls hit dice: no benefits
    assert [(c.food, c.water) for c in play.state.party] == [(0, 0), (0, 0)]
    assert [c.hp for c in play.state.party] == [3, 3]
    warnings = [e.text for e in events if e.kind == "aviso"]
    assert "Ana está sem comida: não recebe os benefícios do descanso." in warnings
    assert "Bia está sem água: não recebe os benefícios do descanso." in warnings


@pytest.mark.parametrize("before,top,after", [
    (10, 10, 10), (9, 10, 10), (0, 10, 1), (13, 14, 14), (19, 20, 20), (12, 10, 12)])
def test_sanity_recovers_only_up_to_the_characters_own_sanity(play: Play, before: int,
                                                              top: int, after: int) -> None:
    camp(play, fed(ana(sanity=before, sanity_max=top)))
    run(play, "descansar", *QUIET, 1)
    assert play.state.party[0].sanity == after


def test_resting_every_day_never_raises_sanity_above_the_characters_own(play: Play) -> None:
    camp(play, replace(ana(), food=9, water=9))  # Sanity 10 of 10
    for _ in range(3):
        run(play, "acampar", *QUIET, 1)
        run(play, "descansar", *QUIET, 1)
    assert play.state.party[0].sanity == 10


def test_no_global_sanity_cap_is_left_in_the_house_table(tables: Tables) -> None:
    assert "sanidade_maxima" not in tables.get("casa", "descanso")


def test_the_interruption_test_reads_its_die_and_attribute_from_the_table(tables) -> None:
    files = dict(tables.files)
    files["viagem"] = {**files["viagem"], "descanso": {**files["viagem"]["descanso"],
                                                      "dados_teste": "1d12", "atributo": "des"}}
    play = Play(Tables(files=files, directory=tables.directory))
    camp(play, fed(ana()), safe=True)
    events = run(play, "descansar", 3, 1, 4)  # an encounter in the rest round interrupts
    events += run(play, "responder", opcao="sim")  # the GM reveals it (it was the GM's)
    (prompt,) = play.state.prompts
    assert (prompt.kind, prompt.dice, prompt.modifier) == ("interrupcao", "1d12", 2)
    assert "Teste de DES DC 12" in prompt.text
    assert not any("CON" in e.text for e in events)


def test_schemas_shared_by_several_modules_keep_every_part() -> None:
    from companion.tables.rulebook import PIECES

    def checked(file: str) -> set[str]:  # by a typed piece (issue 8)
        return {key for cls, place in PIECES.items() if place.file == file
                for key in (place.path[:1] or [item.name for item in fields(cls)])}

    assert {"descanso", "tabela_b", "tabela_h", "rodada"} <= checked("viagem")
    assert {"colheita", "descanso", "encontros", "luz"} <= checked("casa")


def test_hit_die_per_character_from_casa(tables: Tables) -> None:
    files = dict(tables.files)
    files["casa"] = {**files["casa"], "descanso": {**files["casa"]["descanso"],
                                                  "dados_de_vida": {"bia": "d4"}}}
    play = Play(Tables(files=files, directory=tables.directory))
    camp(play, fed(ana(level=1, hp=1)), fed(bia(level=3, hp=1)))
    events = run(play, "descansar", *QUIET, 8, 4, 4, 4)
    assert [e.data["dados"] for e in rolls(events, "Dados de vida")] == ["1d8", "3d4"]


def test_exhausted_character_rolls_hit_dice_with_disadvantage(play: Play) -> None:
    camp(play, fed(ana(hp=1, exhaustion=1)))
    events = run(play, "descansar", *QUIET, 7, 2)
    assert one_roll(events, "Dados de vida").data["total"] == 2
    assert play.state.party[0].hp == 3


# ---------------------------------------------------------------- Tabela H

@pytest.mark.parametrize("face", range(1, 5))
def test_tabela_h_rows_1_to_4_nothing(play: Play, face: int) -> None:
    camp(play, fed(ana()), safe=False)
    events = run(play, "descansar", *QUIET, face, 5)
    assert one_roll(events, H).data["resultado"] == "Nada"
    assert play.state.party[0].conditions == ()


def test_tabela_h_item_row_5_is_told(play: Play) -> None:
    camp(play, fed(ana()), safe=False)
    events = run(play, "descansar", *QUIET, 5, 5)  # alone: Ana loses it, no roll for who
    assert one_roll(events, H).data["resultado"] == SEED_H[5]
    assert not rolls(events, "Percalço: quem perde o item")
    assert "Ana perde 1 item aleatório (o Mestre sorteia qual)." in [e.text for e in events]


@pytest.mark.parametrize("face, loser", [(1, "Ana"), (2, "Bia"), (3, "Caio")])
def test_tabela_h_row_5_rolls_who_loses_the_item(play: Play, face: int, loser: str) -> None:
    caio = new_character(id="caio", name="Caio")
    camp(play, fed(ana()), fed(bia()), fed(caio), safe=False)
    events = run(play, "descansar", *QUIET, 5, face, 5, 5, 5)
    who = one_roll(events, "Percalço: quem perde o item")
    assert (who.data["dados"], who.data["total"], who.data["resultado"]) == ("1d3", face, loser)
    said = next(e for e in events if e.text.endswith("perde 1 item aleatório (o Mestre sorteia "
                                                      "qual)."))
    assert said.text.startswith(loser) and said.kind == "aviso"
    assert said.data["personagem"] == loser.lower()


def test_tabela_h_row_6_animals_eat_rations_from_whoever_has_most(play: Play) -> None:
    camp(play, replace(ana(), food=4, water=2), replace(bia(), food=2, water=2), safe=False)
    events = run(play, "descansar", *QUIET, 6, 3, 1, 1)
    assert one_roll(events, H).data["resultado"] == SEED_H[6]
    assert one_roll(events, "Rações perdidas").data["total"] == 3
    # 4/2 → one at a time from the richest (ties: party order) → 1/2 → each eats 1 → 0/1
    assert [c.food for c in play.state.party] == [0, 1]


def test_tabela_h_row_6_never_below_zero(play: Play) -> None:
    camp(play, replace(ana(), food=1, water=1), safe=False)
    events = run(play, "descansar", *QUIET, 6, 4)  # the ration is gone: no benefits
    assert play.state.party[0].food == 0
    assert any(e.kind == "aviso" and "só tinha 1 ração:" in e.text for e in events)


def test_one_lost_ration_is_said_in_the_singular(play: Play) -> None:
    camp(play, fed(ana()), safe=False)
    events = run(play, "descansar", *QUIET, 6, 1, 1)
    assert one_roll(events, "Rações perdidas").data["resultado"] == "1 ração devorada"
    assert any(e.text == "O grupo perde 1 ração." for e in events)


def test_tabela_h_row_10_condition_on_everyone(play: Play) -> None:
    camp(play, fed(ana()), fed(bia()), safe=False)
    events = run(play, "descansar", *QUIET, 10, 5, 5)
    assert one_roll(events, H).data["resultado"] == SEED_H[10]
    condition = "Doença (roedores/pestes)"
    assert [c.conditions for c in play.state.party] == [(condition,), (condition,)]


def test_tabela_h_row_7_gives_desv_for_the_next_two_rounds_then_ends(play: Play) -> None:
    camp(play, fed(ana()), fed(bia()), safe=False)
    # the DESV starts with the next round: this rest's hit dice roll plainly
    events = run(play, "descansar", *QUIET, 7, 5, 6)
    assert [e.data.get("vantagem") for e in rolls(events, "Dados de vida")] == [None, None]
    assert one_roll(events, H).data["resultado"] == SEED_H[7]
    assert any(e.kind == "aviso" and "Mosquitos: DESV em todas as rolagens nas próximas "
               "2 rodadas" in e.text for e in events)
    for _ in range(2):  # the next two rounds: DESV on every roll
        assert [edge_for(c, play.tables, play.state.minutes) for c in play.state.party] == ["desvantagem"] * 2
        events = run(play, "criar_municao", 10, 4, personagem="Ana")  # opens the round
        made = one_roll(events, "Tabela G: Criar Munição")  # 1d20+2 (DES; Floresta +0)
        assert (made.data["total"], made.data["descartado"]) == (6, 12)
        events = run(play, "explorar", 5)  # Bia explores: the round closes
    assert any(e.text == "Acabou: Mosquitos (Ana e Bia)." for e in events)
    assert [c.lasting for c in play.state.party] == [(), ()]
    assert [edge_for(c, play.tables, play.state.minutes) for c in play.state.party] == [None, None]


def test_a_timed_condition_shows_its_rounds_in_the_view(play: Play) -> None:
    camp(play, fed(ana()), safe=False)
    run(play, "descansar", *QUIET, 7, 5)
    (shown,) = view_state(play.state, "public", play.tables)["grupo"]
    assert shown["condicoes_temporarias"] == [
        {"texto": "Mosquitos", "rodadas": 2, "desvantagem": True}]
    assert "Mosquitos (DESV, mais 2 rodadas)" in shown["condicoes"]
    run(play, "explorar", *QUIET, 5)
    (shown,) = view_state(play.state, "public", play.tables)["grupo"]
    assert "Mosquitos (DESV, mais 1 rodada)" in shown["condicoes"]


def test_tabela_h_row_9_asks_everyone_for_a_dex_test(play: Play) -> None:
    camp(play, fed(ana(hp=1)), fed(bia(hp=1)), safe=False)
    events = run(play, "descansar", *QUIET, 9, 5, 5)
    assert one_roll(events, H).data["resultado"] == SEED_H[9]
    prompts = play.state.prompts
    assert [(p.kind, p.character, p.dc, p.modifier) for p in prompts] == [
        ("teste_percalco", "ana", 12, 2), ("teste_percalco", "bia", 12, 0)]
    assert prompts[0].text == ("Ana: O fogo espalhou. Teste de DES DC 12 ou perde 1 item "
                               "aleatório.")
    assert [c.hp for c in play.state.party] == [6, 6]  # the rest's benefits are not at stake
    events = run(play, "responder", personagem="Ana", valor=10)  # 10 + 2 = 12
    assert events[0].text == "O Mestre, por Ana, respondeu: 10 + 2 = 12 (teste de DES DC 12)."
    assert "Ana passa (12 contra DC 12): não perde nada." == events[1].text
    events = run(play, "responder", personagem="Bia", valor=11)
    assert events[1].kind == "aviso"
    assert events[1].text == "Bia falha (11 contra DC 12): perde 1 item aleatório."
    assert play.state.prompts == ()


def test_tabela_h_row_8_the_chosen_watcher_panics(play: Play) -> None:
    camp(play, fed(ana()), fed(bia()), safe=False)
    assert view_state(play.state, "public", play.tables)["viagem"]["vigia"] == "Ana"
    events = run(play, "vigia", personagem="bia")
    assert events[0].text == "Vigia: Bia (até o Mestre escolher outro)."
    view = view_state(play.state, "public", play.tables)["viagem"]
    assert (view["vigia"], view["vigia_escolhido"]) == ("Bia", True)
    run(play, "descansar", *QUIET, 8, 4, 6, 6)
    assert [(p.kind, p.character) for p in play.state.prompts] == [("panico", "bia")]


def test_vigia_without_a_name_says_who_watches(play: Play) -> None:
    camp(play, fed(ana()), fed(bia()))
    events = run(play, "vigia")
    assert events[0].text.startswith("Vigia: Ana (padrão da casa).")
    with pytest.raises(CommandRejected, match="personagem desconhecido: 'Caio'"):
        play("vigia", personagem="Caio")


def test_tabela_h_row_8_watcher_panics_and_an_encounter_interrupts(play: Play) -> None:
    camp(play, fed(ana()), fed(bia()), safe=False)
    events = run(play, "descansar", *QUIET, 8, 3, 2, 4)  # Hienas (1d6): 4 appear
    assert one_roll(events, H).data["resultado"] == SEED_H[8]
    round_check, fire_check = rolls(events, "Encontro aleatório")
    assert round_check.data["chance"] == "1:6"  # the day started in the steppe
    assert (fire_check.data["chance"], fire_check.data["resultado"]) == ("3:6", "Encontro")
    assert one_roll(events, "Encontros: Estepe").data["resultado"] == "Hienas (1d6)"
    kinds = [(p.kind, p.character) for p in play.state.prompts]
    assert kinds == [("panico", "ana"), ("interromper_descanso", None)]  # the GM's encounter
    run(play, "responder", pedido=play.state.prompts[1].id, opcao="sim")
    kinds = [(p.kind, p.character) for p in play.state.prompts]
    assert kinds == [("panico", "ana"), ("interrupcao", "ana"), ("interrupcao", "bia")]
    assert not rolls(events, "Dados de vida")  # benefits wait for the CON tests


def test_tabela_h_row_8_without_encounter_gives_benefits(play: Play) -> None:
    camp(play, fed(ana(hp=1)), safe=False)
    events = run(play, "descansar", *QUIET, 8, 4, 6)
    assert rolls(events, "Encontro aleatório")[-1].data["resultado"] == "Nenhum encontro"
    assert [p.kind for p in play.state.prompts] == ["panico"]
    assert play.state.party[0].hp == 7


def test_tabela_h_row_8_reaches_the_players_as_what_happened(play: Play) -> None:
    """Issue 31 item 4: the row the seed writes for the GM ("Vigia faz teste de pânico. Role
    1d6. 3:6 | Encontro Aleatório.") reaches the table as what happened; the data keeps the
    seed's row, the watch's panic test is the watch's prompt, the encounter roll the GM's."""
    camp(play, fed(ana()), fed(bia()), safe=False)
    events = run(play, "descansar", *QUIET, 8, 3, 2, 4)
    row = one_roll(events, H)
    assert row.data["resultado"] == SEED_H[8]  # the contract: the seed's row, exactly
    assert row.visibility == "public"
    assert row.text.endswith(": a lenha molhada apagou a fogueira."), row.text
    public = " ".join(e.text for e in events if e.visibility == "public")
    for gm_words in ("Role 1d6", "3:6", "|", "Vigia faz teste"):
        assert gm_words not in public, (gm_words, public)
    fire_check = rolls(events, "Encontro aleatório")[-1]
    assert fire_check.visibility == "gm"
    asked = next(e for e in events if e.kind == "pedido" and e.data["pedido"]["tipo"] == "panico")
    assert asked.visibility == "player:ana"


@pytest.mark.parametrize("faces,said", [
    ((6, 1, 6, 6), ": animais devoraram parte da comida do grupo."),
    ((9, 6, 6), ": o fogo se espalhou pelo acampamento."),
    ((10, 6, 6), ": roedores e pestes infestaram o acampamento e trouxeram uma doença.")])
def test_tabela_h_rows_written_for_the_gm_reach_the_table_as_facts(
        play: Play, faces: tuple[int, ...], said: str) -> None:
    face = faces[0]
    camp(play, fed(ana()), fed(bia()), safe=False)
    events = run(play, "descansar", *QUIET, *faces)
    row = one_roll(events, H)
    assert row.data["resultado"] == SEED_H[face] and row.text.endswith(said), row.text


# ---------------------------------------------------------------- interruptions

def _interrupted(play: Play) -> None:
    """An encounter in the rest round itself interrupts the rest (the GM reveals it)."""
    camp(play, fed(ana(hp=1, exhaustion=1)), fed(bia(hp=1)), safe=True)
    run(play, "descansar", 3, 1, 4)  # weather, encounter (estepe 1:6), encounter table row 4
    run(play, "responder", opcao="sim")


def test_an_encounter_during_the_rest_round_asks_con_dc_12(play: Play) -> None:
    _interrupted(play)
    prompts = play.state.prompts
    assert [(p.kind, p.character, p.dc, p.modifier) for p in prompts] == [
        ("interrupcao", "ana", 12, 1), ("interrupcao", "bia", 12, -1)]
    assert [c.hp for c in play.state.party] == [1, 1]
    assert [(c.food, c.water) for c in play.state.party] == [(2, 2), (2, 2)]  # they still ate


def test_passing_the_interruption_test_gives_the_benefits(play: Play) -> None:
    _interrupted(play)
    events = play("responder", rng=FixedDice(6, 2), valor=11, personagem="Ana")  # 11+1 = 12
    assert one_roll(events, "Dados de vida").data["total"] == 2  # DESV keeps the lower
    ana_now = play.state.party[0]
    assert (ana_now.hp, ana_now.exhaustion) == (3, 0)


def test_failing_the_interruption_test_gives_no_benefits(play: Play) -> None:
    _interrupted(play)
    events = run(play, "responder", valor=12, personagem="Bia")  # 12-1 = 11 < 12
    assert any("não recebe os benefícios" in e.text for e in events)
    assert play.state.party[1].hp == 1
    assert [p.character for p in play.state.prompts] == ["ana"]


def test_two_interruptions_need_two_passes(play: Play) -> None:
    camp(play, fed(bia(hp=1)), safe=False)
    # weather 3; round encounter 1 (estepe 1:6) → row 2; Tabela H 8 → 3:6 on 2 → row 3
    run(play, "descansar", 3, 1, 2, 1, 8, 2, 3)  # row 2 is Hienas (1d6): 1 appears
    run(play, "responder", pedido=play.state.prompts[1].id, opcao="sim")  # both the GM's
    panic, first = play.state.prompts
    assert (panic.kind, first.kind) == ("panico", "interrupcao")
    assert (first.dc, first.context["restantes"]) == (12, [[12, "O descanso foi interrompido."]])
    run(play, "responder", pedido=first.id, valor=20)
    (second,) = [p for p in play.state.prompts if p.kind == "interrupcao"]
    assert (second.dc, second.context["restantes"]) == (12, [])
    assert play.state.party[0].hp == 1
    run(play, "responder", 5, pedido=second.id, valor=20)
    assert play.state.party[0].hp == 6


def test_dormir_while_travelling_is_the_travel_rest(play: Play) -> None:
    camp(play, fed(ana()), safe=False)
    events = run(play, "dormir", *QUIET, 5, 4)  # Tabela H 5 (alone: Ana), 1d8 hit die
    assert one_roll(events, H).data["resultado"] == SEED_H[5]
    assert one_roll(events, "Dados de vida").data["total"] == 4
    assert play.state.minutes == 240 and play.state.travel.rested_today
    assert (play.state.party[0].food, play.state.party[0].water) == (2, 2)


# ---------------------------------------------------------------- dungeon

def test_descansar_in_the_dungeon_is_the_dungeon_rest_turn(play: Play, monkeypatch) -> None:
    calls: list[State] = []

    def fake_rest_turn(state: State, scratch: Scratch) -> State:
        calls.append(state)
        return replace(state, minutes=state.minutes + 10)

    monkeypatch.setattr(dungeon_module, "rest_turn", fake_rest_turn)
    play.state = State(dungeon=Dungeon(active=True), party=(fed(ana()),))
    play("descansar")
    assert len(calls) == 1 and play.state.minutes == 10
    assert play.state.party[0].food == 3  # no travel rest happened


def _dungeon_rest(tables: Tables, *faces: int, party: tuple[Character, ...]):
    state = State(dungeon=Dungeon(active=True), party=party,
                  travel=Travel(camp_safe=True))
    dice = FixedDice(*faces)
    scratch = Scratch(rng=dice, tables=tables, command=Command("dormir"))
    state = rest_party(state, scratch, tables.piece(dungeon_module.DungeonRules).tabela_b)
    assert dice.faces == []
    return state, scratch.events


def test_dungeon_rest_is_never_safe_and_row_6_asks_con(tables: Tables) -> None:
    state, events = _dungeon_rest(tables, 6, party=(fed(ana()),))
    assert one_roll(events, "Tabela B: Percalços da Dungeon").data["resultado"].startswith(
        "Dormir na Dungeon não é nada confortável.")
    assert [(p.kind, p.dc) for p in state.prompts] == [("interrupcao", 12)]


def test_dungeon_row_7_damage_and_con(tables: Tables) -> None:
    state, _ = _dungeon_rest(tables, 7, party=(fed(ana(hp=5)),))
    assert state.party[0].hp == 3
    assert [p.kind for p in state.prompts] == ["interrupcao"]


def test_dungeon_row_8_encounter_is_flagged_and_interrupts_only_in_the_room(
        tables: Tables) -> None:
    """The encounter is flagged; whether it interrupts depends on where it arrives (`dormir`
    rolls that): the mishap alone asks no test (4: the hit die)."""
    state, _ = _dungeon_rest(tables, 8, 4, party=(fed(ana()),))
    assert state.dungeon.pending_encounter is True
    assert state.prompts == ()


def test_dungeon_row_9_everyone_panics_and_tests_con(tables: Tables) -> None:
    state, _ = _dungeon_rest(tables, 9, party=(fed(ana()), fed(bia())))
    assert [(p.kind, p.character) for p in state.prompts] == [
        ("panico", "ana"), ("panico", "bia"), ("interrupcao", "ana"), ("interrupcao", "bia")]
    con = state.prompts[2]
    assert con.text == ("Ana: O ambiente da Dungeon é muito opressor. Teste de CON DC 12 para "
                        "ter os benefícios do descanso.")
    assert "interrompido" not in con.text


def test_dungeon_quiet_row_gives_benefits_and_marks_the_day_rested(tables: Tables) -> None:
    state, _ = _dungeon_rest(tables, 2, 5, party=(fed(ana(hp=1)),))
    assert state.party[0].hp == 6
    assert state.travel.rested_today is True
    assert state.prompts == ()


def test_the_companion_rolls_the_fire_test_naming_whose_it_is(play: Play) -> None:
    camp(play, fed(ana()), safe=False)
    run(play, "descansar", *QUIET, 9, 5)
    events = run(play, "responder", 3)
    rolled = one_roll(events, "Teste do percalço")
    assert rolled.text.startswith("Ana: teste de DES DC 12 — 1d20 = 3")
    assert events[-1].text == "Ana falha (5 contra DC 12): perde 1 item aleatório."


# ---------------------------------------------------------------- typed mishap rows

def test_a_mishap_effect_changed_in_the_data_changes_the_rest(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", "dano: 2", "dano: 4")
    state, _ = _dungeon_rest(rules, 7, party=(fed(ana(hp=5)),))
    assert state.party[0].hp == 1
    rules = changed_rules(tmp_path, "viagem.yaml", "des, dc: 12", "sab, dc: 15")
    scratch = Scratch(rng=FixedDice(9, 5), tables=rules, command=Command("descansar"))
    state = rest_party(State(party=(fed(ana()),)), scratch, rules.piece(TravelMishaps))
    assert [(p.kind, p.dc) for p in state.prompts] == [("teste_percalco", 15)]
    assert "SAB DC 15" in state.prompts[0].context["rotulo"]


@pytest.mark.parametrize("old, new, message", [
    ("      perde_racoes: 1d4", "      perde_racoes: 1d4\n      perde_racao: 2",
     r"chave desconhecida em 'tabela_h\.linhas\.6': perde_racao$"),
    ("      encontro_chance: 3", "      encontro_chance: tres",
     r"'tabela_h\.linhas\.8\.encontro_chance' deveria ser número inteiro$"),
    ("des, dc: 12", "des, dc: 12, motiv: x",
     r"chave desconhecida em 'tabela_h\.linhas\.9\.teste_atributo': motiv$"),
    ("des, dc: 12", "sorte, dc: 12",
     r"'tabela_h\.linhas\.9\.teste_atributo\.atributo' deveria ser um destes: "),
])
def test_a_bad_mishap_effect_is_refused_at_load(tmp_path: Path, old: str, new: str,
                                                message: str) -> None:
    with pytest.raises(TableError, match=r"^tables/viagem\.yaml: " + message):
        changed_rules(tmp_path, "viagem.yaml", old, new)


# ---------------------------------------------------------------- a secret interruption (issue 26)

def test_a_secret_encounter_during_the_rest_waits_for_the_gm_to_reveal_it(play: Play) -> None:
    """The round's encounter is the GM's (casa.yaml encontros.visibilidade: mestre): the
    players are asked nothing until the GM says to interrupt the rest."""
    camp(play, fed(ana(hp=1)), fed(bia(hp=1)), safe=True)
    events = run(play, "descansar", 3, 1, 4)  # weather, encounter (estepe 1:6), row 4
    (asked,) = play.state.prompts
    assert (asked.kind, asked.character, asked.options) == (
        "interromper_descanso", None, ("sim", "nao"))
    assert "interromper o descanso agora?" in asked.text.lower()
    assert "Ana" in asked.text and "DC 12" in asked.text
    assert not [e for e in events if e.visibility != "gm" and "interromp" in e.text.lower()]
    assert all(e.visibility == "gm" for e in events if e.kind == "pedido")
    run(play, "responder", opcao="sim")
    assert [(p.kind, p.character, p.dc) for p in play.state.prompts] == [
        ("interrupcao", "ana", 12), ("interrupcao", "bia", 12)]


def test_the_gm_may_let_the_rest_go_on_after_a_secret_encounter(play: Play) -> None:
    camp(play, fed(ana(hp=1)), safe=True)
    run(play, "descansar", 3, 1, 4)
    events = run(play, "responder", 5, opcao="nao")  # 1d8 hit die: the rest's benefits
    assert play.state.prompts == ()
    assert one_roll(events, "Dados de vida").data["total"] == 5
    assert play.state.party[0].hp == 6
    assert not [e for e in events if e.visibility != "gm" and "interromp" in e.text.lower()]


def test_a_public_encounter_still_interrupts_the_rest_at_once(tmp_path: Path) -> None:
    play = Play(changed_rules(tmp_path, "casa.yaml", "  visibilidade: mestre",
                              "  visibilidade: publico"))
    camp(play, fed(ana(hp=1)), safe=True)
    run(play, "descansar", 3, 1, 4)
    assert [(p.kind, p.character) for p in play.state.prompts] == [("interrupcao", "ana")]
