"""test_hexcrawl.py, continued: the group tests."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.engine.travel_helpers import QUIET, ana, bia, one_roll, rolls, run, start
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character
from tests.engine.hexcrawl_helpers import (  # noqa: F401
    TERRAINS,
    SEED_E,
    SEED_F,
    _march,
    ADVANCE,
    _forced,
    _forced_pair,
    ACTIVITIES,
    ANKLE,
    advance_text,
)


def test_forced_march_failed_then_rest_two_rounds(play: Play) -> None:
    """Only THAT character rests: the group does not advance without her (that round is the
    first of her rest); any other travel round pays the rest; only advancing waits."""
    _forced(play)
    run(play, "responder", valor=10)  # 11 < 12
    (choice,) = play.state.prompts
    assert choice.kind == "escolha_marcha" and choice.options == ("descansar", "exaustao")
    hexes = play.state.travel.hexes
    events = run(play, "responder", opcao="descansar")
    assert "O grupo não avança nesta rodada: espera Ana, que descansa pela marcha forçada." \
        in [e.text for e in events]
    assert play.state.travel.hexes == hexes and play.state.minutes == 3 * 240
    assert play.state.party[0].rest_rounds_owed == 1  # that round paid one
    assert play.state.party[0].exhaustion == 0
    before = play.state
    with pytest.raises(CommandRejected, match=r"Ana ainda descansa pela marcha forçada "
                                              r"\(falta 1 rodada\): o grupo só avança "
                                              r"depois.*'cancelar Ana'"):
        play("avancar", rng=FixedDice())
    assert play.state == before
    events = run(play, "explorar", *QUIET, 5)  # the group explores; Ana sits it out
    assert "Ana descansa nesta rodada pela marcha forçada: pode voltar às atividades." in \
        [e.text for e in events]
    assert play.state.party[0].rest_rounds_owed == 0
    assert play.state.party[0].food == before.party[0].food  # no rest was forced on anyone
    _march(play)  # free again


def test_only_the_characters_who_owe_rest_sit_the_round_out(play: Play) -> None:
    """docs/regras.md: only they sit out. Advancing waits for Ana, but Bia still chooses her
    activity this round; the round closes when everyone who may act has acted."""
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)  # Ana fails: the choice waits
    run(play, "responder", pedido=2, valor=15)  # Bia passes
    events = run(play, "responder", opcao="descansar")
    said = [e for e in events if e.code == "viagem.sem_avanco"]
    assert [e.text for e in said] == [
        "O grupo não avança nesta rodada: espera Ana, que descansa pela marcha forçada. "
        "Ainda falta agir nesta rodada: Bia (uma atividade, ou uma do grupo)."]
    assert said[0].data == {"sem_avanco": True, "faltam": ["bia"]}
    # players read no command; the GM's own line says which (issue 31 item 6)
    (hint,) = [e for e in events if e.code == "viagem.sem_avanco_dica"]
    assert hint.visibility == "gm"
    assert hint.text == "Diga a atividade com o nome, como 'caçar Bia', ou uma do grupo, como 'explorar'."
    assert play.state.minutes == 2 * 240 and play.state.travel.round_open  # not over yet
    assert play.state.party[0].rest_rounds_owed == 2
    with pytest.raises(CommandRejected, match="Ana ainda descansa pela marcha forçada"):
        play("avancar", rng=FixedDice())
    with pytest.raises(CommandRejected, match="Ana ainda descansa pela marcha forçada"):
        play("cacar", rng=FixedDice(), personagem="Ana")
    events = run(play, "cacar", 1, personagem="Bia")  # this round's: no new weather roll
    assert not rolls(events, "Clima")
    assert play.state.party[1].food > 0 and play.state.party[0].food == 0
    assert "Ana descansa nesta rodada pela marcha forçada: falta 1 rodada." in [
        e.text for e in events]
    assert play.state.minutes == 3 * 240 and not play.state.travel.round_open
    assert play.state.party[0].rest_rounds_owed == 1


def test_a_group_activity_in_the_waiting_round_is_everyone_elses(play: Play) -> None:
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=15)
    run(play, "responder", opcao="descansar")
    events = run(play, "explorar", 5)  # the round is open: no weather, no encounter check
    assert not rolls(events, "Clima") and not rolls(events, "Encontro aleatório")
    group = [e for e in events if e.code == "viagem.atividade_do_grupo"]
    assert [e.text for e in group] == ["Bia: explorar nesta rodada."]
    assert one_roll(events, "Tabela D: Eventos").data["total"] == 5
    assert play.state.minutes == 3 * 240
    assert play.state.party[0].rest_rounds_owed == 1


def test_the_waiting_round_does_not_advance_after_a_release(play: Play) -> None:
    """Released from the rest in the round whose advance waited, Ana may act in it, but the
    party advances next round: the tests of this round were taken."""
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=15)
    run(play, "responder", opcao="descansar")
    run(play, "cancelar", personagem="Ana")
    with pytest.raises(CommandRejected, match="'avançar' leva o grupo todo, mas nesta rodada o "
                                              "grupo já esperou quem descansa pela marcha "
                                              "forçada; Ana e Bia ainda podem agir"):
        play("avancar", rng=FixedDice())
    run(play, "explorar", 5)
    assert play.state.minutes == 3 * 240


def test_several_who_rest_are_said_in_the_plural(play: Play) -> None:
    carla = replace(new_character(id="carla", name="Carla"), food=0, water=0)
    _forced_pair(play, ana(), bia(), carla)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=1)
    run(play, "responder", pedido=3, valor=15)
    run(play, "responder", pedido=4, opcao="descansar")
    events = run(play, "responder", pedido=5, opcao="descansar")
    said = [e.text for e in events if e.code == "viagem.sem_avanco"]
    assert said == ["O grupo não avança nesta rodada: espera Ana e Bia, que descansam pela "
                    "marcha forçada. Ainda falta agir nesta rodada: Carla (uma atividade, "
                    "ou uma do grupo)."]


def test_when_everyone_rests_the_waiting_round_closes_at_once(play: Play) -> None:
    _forced_pair(play)
    run(play, "responder", pedido=1, valor=1)
    run(play, "responder", pedido=2, valor=1)
    run(play, "responder", pedido=3, opcao="descansar")
    events = run(play, "responder", pedido=4, opcao="descansar")
    assert "O grupo não avança nesta rodada: espera Ana e Bia, que descansam pela marcha " \
        "forçada." in [e.text for e in events]
    assert play.state.minutes == 3 * 240
    assert [c.rest_rounds_owed for c in play.state.party] == [1, 1]


def test_a_resting_character_takes_no_part_in_the_group_activity(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=2), bia()), terrain="floresta")
    events = run(play, "forragear", *QUIET, 1)  # Tabela E: found
    ana_now, bia_now = play.state.party
    assert (ana_now.food, bia_now.food) == (0, 1)
    assert "Bia: +1 comida e +1 água." in [e.text for e in events]
    run(play, "criar_municao", *QUIET, 20)  # only Bia rolls Tabela G
    assert (play.state.party[0].ammo, play.state.party[1].ammo) == (0, 20)
    assert play.state.party[0].rest_rounds_owed == 0


def test_a_resting_character_is_never_the_accident_victim(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=1), bia()), terrain="floresta")
    events = run(play, "forragear", *QUIET, 6, 8)  # failed; Tabela F 8: Bia alone, no 1dN
    assert not rolls(events, "Acidente: quem sofre")
    assert play.state.party[1].hp == 6 and play.state.party[0].hp == 8


def test_the_whole_group_resting_off_a_march_does_nothing(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=1),), terrain="floresta")
    events = run(play, "forragear", *QUIET)
    assert any(e.text.startswith("Ninguém participa") for e in events)
    assert not rolls(events, "Tabela E: Forragear/Caçar/Pescar")
    assert play.state.party[0].rest_rounds_owed == 0


def test_owed_rest_refuses_an_activity_named_for_that_character(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=2), bia()), terrain="estepe")
    for activity in ("forragear", "cacar", "pescar", "criar_municao"):
        with pytest.raises(CommandRejected, match=r"Ana ainda descansa pela marcha forçada "
                                                  r"\(faltam 2 rodadas\): nenhuma outra "
                                                  "atividade"):
            play(activity, rng=FixedDice(), personagem="Ana")
    run(play, "forragear", 6, 1, personagem="Bia")  # Bia owes nothing: Tabela E fails, F 1


def test_the_gm_releases_a_character_from_owed_rest(play: Play) -> None:
    start(play, party=(ana(rest_rounds_owed=2),), terrain="estepe")
    events = run(play, "cancelar", personagem="Ana")
    assert play.state.party[0].rest_rounds_owed == 0
    assert "dispensa Ana do descanso da marcha forçada (faltavam 2 rodadas)" in events[0].text
    run(play, "explorar", *QUIET, 5)


@pytest.mark.parametrize("answered", [0, 1])
def test_unanswered_forced_march_prompts_block_the_next_activity(play: Play,
                                                                 answered: int) -> None:
    _forced(play)
    if answered:
        run(play, "responder", valor=1)  # failed: now the choice waits
    (waiting,) = play.state.prompts
    what = ("Tabela B: Forçando o Avanço" if not answered
            else "Escolha depois da marcha forçada")
    for activity in ("avancar", "explorar", "descansar", "acampar", "dormir", "masmorra"):
        before = play.state
        with pytest.raises(CommandRejected, match=f"Ana ainda não respondeu ao pedido "
                                                  rf"{waiting.id} \({what}\): responda "
                                                  rf"\('responder pedido {waiting.id}'\) ou "
                                                  rf"cancele \('cancelar pedido {waiting.id}'"
                                                  r"\) antes de seguir"):
            play(activity, rng=FixedDice())
        assert play.state == before
    with pytest.raises(CommandRejected, match="Ana ainda não respondeu"):
        play("forragear", rng=FixedDice(), personagem="Ana")
    run(play, "cancelar", *ADVANCE)  # cancelled: the advance goes on
    run(play, "explorar", *QUIET, 5)


@pytest.mark.parametrize("phase", ["declarada", "ativa"])
def test_no_travel_round_during_a_flight_or_chase(play: Play, phase: str) -> None:
    from companion.engine.model import Chase

    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, chase=Chase(phase=phase))  # type: ignore[arg-type]
    for activity, said in (("avancar", "avançar"), ("dormir", "dormir"),
                           ("descansar", "descansar"), ("explorar", "explorar")):
        with pytest.raises(CommandRejected, match=f"'{said}' não vale durante a fuga"):
            play(activity, rng=FixedDice())


@pytest.mark.parametrize("kind", ["interrupcao", "teste_percalco"])
def test_rest_tests_hold_the_group_too(play: Play, kind: str) -> None:
    from companion.engine.model import Dungeon, Prompt

    start(play, party=(ana(), bia()), terrain="estepe")
    play.state = replace(play.state, prompts=(Prompt(4, kind, "bia", "teste"),),
                         next_prompt_id=5)
    name = play.tables.get("pedidos", "nomes_pedidos", kind)
    for activity in ("avancar", "explorar", "descansar", "dormir", "masmorra"):
        with pytest.raises(CommandRejected, match=rf"Bia ainda não respondeu ao pedido 4 "
                                                  rf"\({name}\)"):
            play(activity, rng=FixedDice())
    play.state = replace(play.state, dungeon=Dungeon(active=True))
    for activity in ("turno", "descansar", "dormir"):
        with pytest.raises(CommandRejected, match="Bia ainda não respondeu ao pedido 4"):
            play(activity, rng=FixedDice())
    run(play, "perigo", perigo="mortal")  # not a group activity


def test_a_panic_test_does_not_hold_the_group(play: Play) -> None:
    from companion.engine.model import Prompt

    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, prompts=(Prompt(1, "panico", "ana", "pânico"),),
                         next_prompt_id=2)
    run(play, "explorar", *QUIET, 5)


def test_the_kinds_that_hold_the_group_are_data(tables) -> None:
    files = dict(tables.files)
    files["comandos"] = {**files["comandos"], "pedidos_que_seguram": ["panico"]}
    play = Play(Tables(files=files, directory=tables.directory))
    from companion.engine.model import Prompt

    start(play, party=(ana(),), terrain="estepe")
    play.state = replace(play.state, prompts=(Prompt(1, "panico", "ana", "pânico"),),
                         next_prompt_id=2)
    with pytest.raises(CommandRejected, match=r"pedido 1 \(Teste de pânico\)"):
        play("explorar", rng=FixedDice())
    play.state = replace(play.state, prompts=(Prompt(1, "interrupcao", "ana", "CON"),))
    run(play, "explorar", *QUIET, 5)


def test_forced_march_failed_then_exhaustion(play: Play) -> None:
    _forced(play)
    run(play, "responder", valor=1)
    (choice,) = play.state.prompts
    assert choice.labels == ("descansar", "exaustão")
    events = run(play, "responder", *ADVANCE, opcao="exaustão")
    assert "respondeu: exaustão (escolha depois da marcha forçada)." in events[0].text
    assert "recebe 1 ponto de exaustão" in events[1].text
    assert play.state.party[0].exhaustion == 1
    assert play.state.party[0].rest_rounds_owed == 0


@pytest.mark.parametrize("terrain", TERRAINS)
@pytest.mark.parametrize("column", range(3))
def test_tabela_e_success_and_failure(play: Play, tables, terrain: str, column: int) -> None:
    activity = ACTIVITIES[column]
    chance = SEED_E[terrain][column]
    gain = tables.get("casa", "colheita", activity)
    start(play, party=(ana(), bia()), terrain=terrain, day_start_terrain="estepe")
    events = run(play, activity, *QUIET, chance, chance)  # one Tabela E roll each
    found = rolls(events, "Tabela E: Forragear/Caçar/Pescar")
    assert [(e.data["personagem"], e.data["resultado"], e.data["chance"]) for e in found] == [
        ("ana", "Sucesso", f"{chance}:6"), ("bia", "Sucesso", f"{chance}:6")]
    assert [(c.food, c.water) for c in play.state.party] == [(gain["comida"], gain["agua"])] * 2
    events = run(play, activity, *QUIET, chance + 1, 3, chance + 1, 3)
    assert [e.data["resultado"] for e in rolls(events, "Tabela E: Forragear/Caçar/Pescar")] \
        == ["Falha", "Falha"]
    assert [e.data["resultado"] for e in rolls(events, "Tabela F: Acidentes")] == ["Nada"] * 2
    assert [(c.food, c.water) for c in play.state.party] == [(gain["comida"], gain["agua"])] * 2


def test_named_forager_gets_the_food_and_the_round_waits_for_the_others(play: Play,
                                                                        tables) -> None:
    start(play, party=(ana(), bia()), terrain="floresta")
    events = run(play, "cacar", 1, personagem="Bia")
    assert [c.food for c in play.state.party] == [0, tables.get("casa", "colheita", "cacar",
                                                                "comida")]
    assert play.state.minutes == 0  # Ana has not acted yet: the round goes on
    assert rolls(events, "Clima")  # the round's weather comes first
    assert events[-1].data["faltam"] == ["ana"]


def test_forage_yields_are_house_defaults(tables) -> None:
    assert tables.get("casa", "padrao_da_casa") is True
    assert set(tables.get("casa", "colheita")) == set(ACTIVITIES)


@pytest.mark.parametrize("face", range(1, 6))
def test_tabela_f_rows_1_to_5_nothing(play: Play, face: int) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "forragear", 2, face, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == "Nada"
    assert play.state.party == (ana(),)


def test_tabela_f_row_6_poisoned_food(play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "forragear", 2, 6, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[6]
    (poisoned,) = play.state.party[0].lasting  # DESV for the whole next day, then it ends
    assert (poisoned.text, poisoned.since, poisoned.until, poisoned.edge) == (
        "Comida venenosa/doente", 24 * 60, 48 * 60, "desvantagem")


def test_tabela_f_row_7_ticks(play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "pescar", 3, 7, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[7]
    assert play.state.party[0].conditions == (
        "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar",)


def test_tabela_f_row_8_sprained_ankle(play: Play) -> None:
    start(play, party=(ana(hp=5),), terrain="montanha")
    events = run(play, "cacar", 3, 8, personagem="ana")
    assert one_roll(events, "Tabela F: Acidentes").data["resultado"] == SEED_F[8]
    assert play.state.party[0].hp == 3
    assert play.state.party[0].conditions == (
        "Tornozelo torcido: 1/2 do movimento até ser curado",)


def test_tabela_f_row_8_marks_the_condition_until_cured_and_says_how_to_cure(
        play: Play) -> None:
    start(play, party=(ana(),), terrain="montanha")
    events = run(play, "cacar", 3, 8, personagem="ana")
    (warning,) = [e for e in events if e.kind == "aviso"]
    assert warning.text == f"Ana: {ANKLE}. Dura até ser curado."
    assert warning.visibility == "public"
    (how,) = [e for e in events if "curar" in e.text]  # the instruction is the GM's alone
    assert how.visibility == "gm" and how.text == "Quando Ana se curar, diga 'curar Ana'."


def test_tabela_f_row_8_halves_the_next_advance(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    run(play, "explorar", 5)  # Bia explores: the round closes
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25
    assert "meio movimento: Ana está com o tornozelo torcido" in advance_text(events)
    assert "0,25 hex" in advance_text(events)
    said = [e for e in events if "avança" in e.text][0]
    assert said.data["hexes"] == 0.25 and said.data["fator"] == 0.5
    assert said.data["lentos"] == ["Ana"]


def test_two_characters_hurt_still_halve_once(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    run(play, "pescar", 3, 8, personagem="bia")
    assert all(c.conditions == (ANKLE,) for c in play.state.party)
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25
    assert "meio movimento: Ana e Bia estão com o tornozelo torcido" in advance_text(events)


@pytest.mark.parametrize("mode,full", [("andando", 0.5), ("montado", 1.0), ("navegando", 2.0)])
def test_the_sprained_ankle_halves_every_travel_mode(play: Play, mode: str, full: float) -> None:
    start(play, party=(ana(conditions=(ANKLE,)),), terrain="estepe", mode=mode)
    run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == full / 2


def test_curar_restores_full_progress(play: Play) -> None:
    start(play, party=(ana(), bia()), terrain="montanha")
    run(play, "cacar", 3, 8, personagem="ana")
    run(play, "explorar", 5)
    run(play, "avancar", *QUIET, 6, 5)
    events = run(play, "curar", personagem="Ana")
    assert play.state.party[0].conditions == ()
    assert events[0].text == f"Cura — Ana não tem mais “{ANKLE}”."
    assert events[-1].text == "O grupo volta a avançar no passo normal."
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25 + 0.5
    assert "meio movimento" not in advance_text(events)


def test_curing_one_of_two_hurt_keeps_the_group_slow(play: Play) -> None:
    start(play, party=(ana(conditions=(ANKLE,)), bia(conditions=(ANKLE,))), terrain="estepe")
    events = run(play, "curar", personagem="bia")
    assert not any("passo normal" in e.text for e in events)
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.25
    assert "meio movimento: Ana está com o tornozelo torcido" in advance_text(events)


def test_conditions_without_an_effect_do_not_slow_the_group(play: Play) -> None:
    ticks = "Carrapatos/sanguessugas: 1 de dano por rodada até se livrar"
    start(play, party=(ana(conditions=(ticks,)),), terrain="estepe")
    run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 0.5


def test_the_advance_factor_lives_in_data(tables: Tables) -> None:
    import copy

    files = copy.deepcopy(dict(tables.files))
    files["viagem"]["efeitos_de_condicao"]["meio_movimento"]["fator_avanco"] = 0.25
    files["viagem"]["efeitos_de_condicao"]["meio_movimento"]["nome"] = "passo lento"
    changed = Play(Tables(files=files, directory=tables.directory))
    start(changed, party=(ana(conditions=(ANKLE,)),), terrain="estepe", mode="montado")
    events = run(changed, "avancar", *QUIET, 6, 5)
    assert changed.state.travel.hexes == 0.25
    assert "passo lento: Ana está com o tornozelo torcido" in advance_text(events)
