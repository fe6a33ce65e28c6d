"""Descansar: the shared rest procedure (travel with Tabela H, dungeon with its Tabela B)."""
from __future__ import annotations

from dataclasses import fields, replace

import pytest

from companion.engine.characters import edge_for
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import Play
from tests.engine.travel_helpers import QUIET, ana, bia, camp, fed, one_roll, rolls, run
from tests.rules_helpers import new_character
from tests.engine.rest_helpers import (  # noqa: F401
    H,
    SEED_H,
)


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
