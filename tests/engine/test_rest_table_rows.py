"""The rest's table rows (Tabela H in camp, the dungeon rest rows), the interruption's CON
tests, secret encounters during a rest, and the rows' effects as data (the rest itself:
test_rest.py)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.engine import Command, State
from companion.engine.procedures import dungeon as dungeon_module
from companion.engine.scratch import Scratch
from companion.tables.errors import TableError
from companion.engine.model import Dungeon
from companion.engine.procedures.rest import TravelMishaps, rest_party
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.engine.travel_helpers import QUIET, ana, bia, camp, fed, one_roll, rolls, run
from tests.rules_helpers import changed_rules
from tests.engine.rest_helpers import (  # noqa: F401
    H,
    SEED_H,
    _interrupted,
    _dungeon_rest,
)


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
