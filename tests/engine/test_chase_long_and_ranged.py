"""The chase past its third turn (the long chase's confirmation, exhaustion and kept speeds), what
a chase turn burns, the ranged check, and the chase's rules, texts and limits as data
(declaring, escape tests and the score: test_chase.py)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import apply
from companion.engine.model import (
    Chase,
    Command,
    Dungeon,
    State,
    Timer,
)
from companion.engine.procedures.chase import ChaseRules, distance_of
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character
from tests.engine.chase_helpers import (  # noqa: F401
    RANGED,
    chase_play,
    ana_and_bia,
    _three_turns,
    _past_the_limit,
    COMMANDS,
    SCORE_THRESHOLDS,
    running,
    said,
)


def test_the_escape_test_waits_for_the_long_chase_confirmation(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    _three_turns(play)
    before = play.state
    for args in ({"resultado": "sucesso"}, {"dc": 12}):
        with pytest.raises(CommandRejected, match="responda antes") as refused:
            play("fuga", **args)
        assert refused.value.code == "perseguicao.confirme_antes"
        assert play.state == before
    play("responder", opcao="sim")
    play("fuga", resultado="sucesso")  # the fourth test: escaped
    assert play.state.chase is None


def test_the_gm_may_decline_the_exhaustion(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    _three_turns(play)
    events = play("responder", opcao="não")
    assert events[0].text.endswith("respondeu: não (confirmar a exaustão da perseguição).")
    assert [c.exhaustion for c in play.state.party] == [0, 0]
    assert play.state.chase is not None and play.state.prompts == ()


def test_the_long_chase_exhaustion_comes_from_the_table(tables: Tables) -> None:
    from companion.engine.model import Prompt

    files = dict(tables.files)
    files["perseguicao"] = {**files["perseguicao"], "exaustao_apos_limite": 2}
    asked = Prompt(id=1, kind="confirmar_perseguicao", character=None, text="?",
                   options=("sim", "nao"))  # a prompt that carries no amount of its own
    play = Play(Tables(files=files, directory=tables.directory),
                State(party=ana_and_bia(), prompts=(asked,), next_prompt_id=2))
    play("responder", opcao="sim")
    assert [c.exhaustion for c in play.state.party] == [2, 2]


def test_each_turn_past_the_limit_is_warned_as_it_begins(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    _three_turns(play)
    play("responder", opcao="sim")
    events = play("fuga", resultado="falha")  # the fourth turn ends at 0: the fifth begins
    warning = next(e for e in events if e.code == "perseguicao.limite")
    assert warning.data["turno"] == 5
    (prompt,) = play.state.prompts
    assert prompt.context["turnos_extras"] == 1
    play("responder", opcao="sim")
    assert [c.exhaustion for c in play.state.party] == [2, 2]


def test_speeds_said_when_flight_is_declared_are_kept_for_the_whole_chase(
        tables: Tables) -> None:
    play = chase_play(tables, None, ana_and_bia())
    play("velocidade", grupo=120, perseguidores=90)
    play("fuga", resultado="sucesso")  # the chase starts: the speeds stay
    assert play.state.chase is not None and play.state.chase.phase == "ativa"
    assert (play.state.chase.party_speed, play.state.chase.foe_speed) == (120, 90)
    play("fuga", resultado="sucesso")
    play("fuga", resultado="falha")
    assert (play.state.chase.party_speed, play.state.chase.foe_speed) == (120, 90)


def test_speeds_given_with_a_flight_that_failed_are_kept_for_the_next_flight(
        tables: Tables) -> None:
    """Issue 26, 11: the escape test at the end of the combat round fails (combat goes on);
    the next `fugir` of that combat keeps the speeds the GM gave; time passing ends them."""
    play = chase_play(tables, None, ana_and_bia())
    play("velocidade", grupo=120, perseguidores=90)
    play("fuga", resultado="falha")
    assert play.state.chase is None
    play("fugir")
    assert (play.state.chase.party_speed, play.state.chase.foe_speed) == (120, 90)
    assert view_state(play.state, "player:ana", tables)["perseguicao"]["velocidade_grupo"] == 120
    play("fuga", resultado="falha")
    play("explorar", rng=FixedDice(3, 6, 6, 5))  # the combat is over: time passes
    play("fugir")
    assert play.state.chase.party_speed is None


@pytest.mark.parametrize("started", [False, True])
def test_every_view_shows_both_speeds_and_the_difference(tables: Tables,
                                                         started: bool) -> None:
    play = chase_play(tables, None, ana_and_bia())
    play("velocidade", grupo=120, perseguidores=90)
    if started:
        play("fuga", resultado="sucesso")
    for viewer in ("gm", "public", "player:ana", "player:bia"):
        shown = view_state(play.state, viewer, tables)["perseguicao"]
        assert (shown["velocidade_grupo"], shown["velocidade_perseguidores"]) == (120, 90)
        assert shown["velocidade_diferenca"] == "o grupo é 30 mais rápido"
        assert shown["velocidades"] == "grupo 120 × perseguidores 90 (o grupo é 30 mais rápido)"


def test_a_long_chase_lowers_the_partys_kept_speed_by_the_house_fraction(
        tables: Tables) -> None:
    loss = tables.piece(ChaseRules).perda_de_velocidade
    play = chase_play(tables, None, ana_and_bia())
    play("velocidade", grupo=120, perseguidores=90)
    play("fuga", resultado="sucesso")
    _past_the_limit(play)
    events = play("responder", opcao="sim")
    slower = round(120 * (1 - loss))
    assert play.state.chase is not None
    assert (play.state.chase.party_speed, play.state.chase.foe_speed) == (slower, 90)
    (said,) = [e for e in events if e.code == "perseguicao.velocidade_reduzida"]
    assert said.data["velocidade_grupo"] == slower
    assert not [e for e in events if e.code == "perseguicao.mais_lento"]  # never asked again
    shown = view_state(play.state, "public", tables)["perseguicao"]
    assert shown["velocidade_grupo"] == slower


# ---------------------------------------------------------------- time in a dungeon

def test_chase_turns_in_a_dungeon_burn_torches_and_spells(tables: Tables) -> None:
    torch = Timer(name="tocha", turns_left=6, kind="luz")
    spell = Timer(name="Escudo", turns_left=3, kind="magia")
    dungeon = Dungeon(active=True, lights=(torch,), spells=(spell,))
    play = Play(tables, State(dungeon=dungeon, chase=Chase(phase="ativa")))
    events = []
    for result in ("sucesso", "falha", "sucesso", "falha", "sucesso"):
        if play.state.prompts:  # a turn past the limit begins: the GM declines its exhaustion
            play("responder", opcao="nao")
        events += play("fuga", resultado=result)
    assert play.state.chase is not None and play.state.chase.turn == 5
    assert [t.turns_left for t in play.state.dungeon.lights] == [1]
    assert play.state.dungeon.spells == ()
    assert any(e.text == "A magia Escudo terminou." for e in events)
    assert play.state.minutes == 5 * tables.get("perseguicao", "turno_minutos")


def test_chase_turns_outside_a_dungeon_burn_nothing(tables: Tables) -> None:
    torch = Timer(name="tocha", turns_left=6, kind="luz")
    play = Play(tables, State(dungeon=Dungeon(active=False, lights=(torch,)),
                              chase=Chase(phase="ativa")))
    play("fuga", resultado="sucesso")
    assert play.state.dungeon.lights == (torch,)


# ---------------------------------------------------------------- ranged actions

def test_menor_always_reaches_without_a_roll(tables: Tables) -> None:
    play = chase_play(tables, -1)
    for _ in range(2):
        events = play("distancia", rng=FixedDice())
        assert not [e for e in events if e.kind == "rolagem"]
        assert "Qualquer ação à distância funciona normalmente." in events[0].text


@pytest.mark.parametrize("score,face,reaches", [(0, 4, True), (0, 5, False),
                                                (1, 2, True), (1, 3, False)])
def test_neutra_4_in_6_and_maior_2_in_6(tables: Tables, score: int, face: int,
                                        reaches: bool) -> None:
    play = chase_play(tables, score)
    events = play("distancia", rng=FixedDice(face))
    (rolled,) = [e for e in events if e.kind == "rolagem"]
    assert rolled.data["tabela"] == RANGED
    assert rolled.data["chance"] == ("4:6" if score == 0 else "2:6")
    assert rolled.data["resultado"].startswith(
        "A ação alcança" if reaches else "A ação não alcança")


def test_the_ranged_check_is_once_per_turn_unless_greater_range(tables: Tables) -> None:
    play = chase_play(tables, 0)
    play("distancia", rng=FixedDice(3))
    before = play.state
    with pytest.raises(CommandRejected, match="já foi feito neste turno"):
        play("distancia", rng=FixedDice())
    assert play.state == before
    events = play("distancia", alcance_maior=True, rng=FixedDice(5))
    assert [e.data["alcance_maior"] for e in events if e.kind == "rolagem"] == [True]
    play("fuga", resultado="falha")  # the chase turn ends: the check is available again
    play("fuga", resultado="sucesso")
    events = play("distancia", rng=FixedDice(1))
    assert len([e for e in events if e.kind == "rolagem"]) == 1


def test_no_ranged_check_before_the_chase_starts(tables: Tables) -> None:
    with pytest.raises(CommandRejected, match="ainda não começou"):
        chase_play(tables)("distancia")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(st.tuples(COMMANDS, st.integers(0, 2 ** 32)), max_size=40))
def test_random_dungeon_and_chase_commands_stay_sane(tables: Tables, script: list) -> None:
    state = State(party=(new_character(id="ana", name="Ana", food=2, water=2),
                         new_character(id="bia", name="Bia", exhaustion=1)),
                  dungeon=Dungeon(lights=(Timer(name="tocha", turns_left=1),)))
    for (name, args), seed in script:
        try:
            state, _ = apply(state, Command(name, args), random.Random(seed), tables)
        except CommandRejected:
            continue
        timers = state.dungeon.lights + state.dungeon.spells
        assert all(t.turns_left > 0 for t in timers)
        assert all(c.exhaustion >= 0 for c in state.party)
        assert state.dungeon.turns_since_rest >= 0
        if state.chase is not None:
            assert abs(state.chase.score) < tables.get("perseguicao", "pontos_para_fim")


def test_a_long_chase_without_speeds_asks_them_of_the_gm_alone(tables: Tables) -> None:
    """Issue 17, 14: the players see the fact (the party is slower); how to give the speeds
    is the GM's instruction, a GM-only event."""
    play = chase_play(tables, None, ana_and_bia())
    play("fuga", resultado="sucesso")
    _past_the_limit(play)
    events = play("responder", opcao="sim")
    (fact,) = [e for e in events if e.code == "perseguicao.mais_lento"]
    (how,) = [e for e in events if e.code == "perseguicao.mais_lento_dica"]
    assert fact.visibility == "public" and "velocidade" not in fact.text.split(":", 1)[1]
    assert how.visibility == "gm" and "velocidade 120 contra 90" in how.text


def test_the_piece_is_typed(tables: Tables) -> None:
    rules = tables.piece(ChaseRules)
    assert rules.distancias.menor.chance == "sempre" and rules.distancias.neutra.chance == 4
    assert rules.distancia_pelo_placar.maior_desde == 1 and rules.teste_de_fuga.atributo == "des"
    assert distance_of(Chase(phase="ativa", score=1), rules.distancia_pelo_placar) == "maior"


def test_the_score_thresholds_in_the_data_decide_the_distance(tables: Tables,
                                                               tmp_path: Path) -> None:
    wider = changed_rules(tmp_path, "perseguicao.yaml", SCORE_THRESHOLDS,
                          SCORE_THRESHOLDS.replace("maior_desde: 1", "maior_desde: 2"))
    for rules, distance, name in ((tables, "maior", "Maior"), (wider, "neutra", "Neutra")):
        play = running(rules)
        (turn,) = said(play("fuga", resultado="sucesso"), "perseguicao.turno")
        assert turn.data == {"distancia": distance, "placar": 1}
        assert turn.text == f"Turno de perseguição 1: distância {name} (placar +1)."
        # the phones' view reads the same thresholds as the chase's events
        shown = view_state(play.state, "public", rules)["perseguicao"]
        assert (shown["distancia"], shown["distancia_nome"]) == (distance, name)


def test_the_points_to_end_come_from_the_data(tables: Tables, tmp_path: Path) -> None:
    quick = changed_rules(tmp_path, "perseguicao.yaml", "pontos_para_fim: 2", "pontos_para_fim: 1")
    assert not said(running(tables)("fuga", resultado="sucesso"), "perseguicao.escaparam")
    play = running(quick)
    (end,) = said(play("fuga", resultado="sucesso"), "perseguicao.escaparam")
    assert end.data["fim"] == "escaparam" and play.state.chase is None
    assert end.text == tables.piece(ChaseRules).fim_escaparam


def test_the_range_chance_comes_from_the_data(tables: Tables, tmp_path: Path) -> None:
    always = changed_rules(tmp_path, "perseguicao.yaml",
                           'linha: "4 em 6 de chance padrão para o alcance de 18 metros.", '
                           'chance: 4', 'linha: "Sempre alcança.", chance: sempre')
    events = running(tables)("distancia", rng=FixedDice(4))
    assert [e.data["chance"] for e in events if e.kind == "rolagem"] == ["4:6"]
    events = running(always)("distancia")
    (shown,) = said(events, "perseguicao.alcance_sempre")
    assert not [e for e in events if e.kind == "rolagem"]
    assert shown.text == "Ataques, Arremessos e Magias — distância Neutra: Sempre alcança."


def test_the_escape_dc_limits_come_from_the_data(tables: Tables, tmp_path: Path) -> None:
    narrow = changed_rules(tmp_path, "perseguicao.yaml", "dc_maxima: 40", "dc_maxima: 20")
    party = (new_character(id="ana", name="Ana", mods={"des": 1}),)
    Play(tables, State(chase=Chase(phase="ativa"), party=party))("fuga", dc=30)
    with pytest.raises(CommandRejected, match="diga um número de 1 a 20") as refused:
        Play(narrow, State(chase=Chase(phase="ativa"), party=party))("fuga", dc=30)
    assert refused.value.code == "perseguicao.dificuldade_invalida"


def test_the_chase_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                          'turno: "Turno de perseguição {{ turno }}: distância',
                          'turno: "Rodada {{ turno }} da fuga: distância')
    (turn,) = said(running(rules)("fuga", resultado="falha"), "perseguicao.turno")
    assert turn.text == "Rodada 1 da fuga: distância Menor (placar -1)."


def test_the_prompt_text_comes_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                          'pedido_teste: "{{ nome }}: teste de fuga — role',
                          'pedido_teste: "{{ nome }}, fuja! Role')
    party = (new_character(id="ana", name="Ana", mods={"des": 1}),)
    play = Play(rules, State(chase=Chase(phase="ativa"), party=party))
    play("fuga", dc=12, personagem="Ana")
    (prompt,) = play.state.prompts
    assert prompt.text == "Ana, fuja! Role 1d20+1 (DES), dificuldade 12."


def test_a_refusal_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/perseguicao.yaml",
                          "ainda_nao_comecou: \"a perseguição ainda não começou:",
                          "ainda_nao_comecou: \"calma, a fuga nem começou:")
    play = Play(rules, State(chase=Chase(phase="declarada")))
    with pytest.raises(CommandRejected) as refused:
        play("distancia")
    assert refused.value.code == "perseguicao.ainda_nao_comecou"
    assert refused.value.message.startswith("calma, a fuga nem começou: primeiro o teste")


def test_a_range_chance_outside_six_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/perseguicao\.yaml: 'distancias\.neutra\.chance'"
                                         r" deveria ser uma chance em 6"):
        changed_rules(tmp_path, "perseguicao.yaml",
                      'linha: "4 em 6 de chance padrão para o alcance de 18 metros.", chance: 4',
                      'linha: "4 em 6 de chance padrão para o alcance de 18 metros.", chance: 9')


def test_crossed_thresholds_name_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/perseguicao\.yaml: "
                                         r"'distancia_pelo_placar\.maior_desde' deveria ser"):
        changed_rules(tmp_path, "perseguicao.yaml", SCORE_THRESHOLDS,
                      SCORE_THRESHOLDS.replace("maior_desde: 1", "maior_desde: -2"))


def test_a_score_of_zero_has_no_sign(tables: Tables) -> None:
    said = tables.narration.render("perseguicao.turno", {"turno": 2, "nome": "Neutra",
                                                          "placar": 0})
    assert "(placar 0)" in said and "+0" not in said
