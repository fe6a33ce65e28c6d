"""The chase (seed 004, experimental) as docs/regras.md reads it, through the engine."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import apply
from companion.engine.model import (
    Character,
    Chase,
    Command,
    Dungeon,
    Prompt,
    State,
    Timer,
)
from companion.engine.procedures.chase import ChaseRules, distance_of
from companion.engine.view import view_state
from companion.rules.loader import load_rules
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

RANGED = "Ataques, Arremessos e Magias"


THRESHOLDS = load_rules().piece(ChaseRules).distancia_pelo_placar


def chase_play(tables: Tables, score: int | None = None, characters: tuple = (),
               **chase: object) -> Play:
    """A Play with flight declared (score None) or a chase running at `score`."""
    if score is None:
        running = Chase(phase="declarada", **chase)  # type: ignore[arg-type]
    else:
        running = Chase(phase="ativa", score=score, **chase)  # type: ignore[arg-type]
    return Play(tables, State(chase=running, party=characters))


def ana_and_bia(**fields: object) -> tuple[Character, ...]:
    return (new_character(id="ana", name="Ana", mods={"des": 1}),
            new_character(id="bia", name="Bia", mods={"des": 3}, **fields))  # type: ignore[arg-type]


# ---------------------------------------------------------------- declaring flight

def test_fleeing_declares_the_chase(play: Play) -> None:
    events = play("fugir")
    assert play.state.chase == Chase(phase="declarada")
    assert play.state.mode == "perseguicao"
    assert "fuga" in events[0].text
    with pytest.raises(CommandRejected, match="já está em fuga"):
        play("fugir")


def test_fleeing_names_who_rolls(tables: Tables) -> None:
    play = Play(tables, State(party=ana_and_bia()))
    play("fugir", personagem="bia")
    assert play.state.chase is not None and play.state.chase.roller == "bia"
    with pytest.raises(CommandRejected, match="personagem desconhecido"):
        Play(tables, State(party=ana_and_bia()))("fugir", personagem="Zé")


def test_declared_failure_and_combat_goes_on(tables: Tables) -> None:
    play = chase_play(tables)
    minutes = play.state.minutes
    events = play("fuga", resultado="falha")
    assert play.state.chase is None
    assert events[-1].text == "O grupo não consegue abrir espaço. O combate continua normalmente."
    assert play.state.minutes == minutes  # the end of a combat round, not a chase turn


def test_declared_success_starts_the_chase_at_neutral(tables: Tables) -> None:
    play = chase_play(tables)
    events = play("fuga", resultado="sucesso")
    assert play.state.chase == Chase(phase="ativa", score=0, turn=0)
    assert distance_of(play.state.chase, THRESHOLDS) == "neutra"
    assert "A Perseguição se inicia" in events[-1].text.replace("a Perseguição", "A Perseguição")
    assert "Neutra" in events[-1].text


# ---------------------------------------------------------------- no difficulty invented

@pytest.mark.parametrize("phase_score", [None, 0])
def test_an_escape_test_without_outcome_or_dc_is_rejected(tables: Tables,
                                                          phase_score: int | None) -> None:
    play = chase_play(tables, phase_score, ana_and_bia())
    before = play.state
    with pytest.raises(CommandRejected, match="dificuldade .* é do Mestre.*sucesso.*falha.*"
                                              "dificuldade 12"):
        play("fuga", rng=FixedDice())  # no die may be rolled
    assert play.state == before


@pytest.mark.parametrize("args,message", [
    ({"resultado": "talvez"}, "resultado de fuga desconhecido: 'talvez'; use sucesso ou falha"),
    ({"dc": 0}, "dificuldade de fuga inválida: '0'"),
    ({"dc": "doze"}, "dificuldade de fuga inválida: 'doze'"),
    ({"dc": 12, "resultado": "sucesso"}, "não os dois"),
])
def test_bad_escape_tests_are_rejected(tables: Tables, args: dict, message: str) -> None:
    play = chase_play(tables, 0)
    before = play.state
    with pytest.raises(CommandRejected, match=message):
        play("fuga", rng=FixedDice(), **args)
    assert play.state == before


def test_escape_test_outside_a_chase_is_rejected(play: Play) -> None:
    with pytest.raises(CommandRejected):
        play("fuga", resultado="sucesso")


# ---------------------------------------------------------------- the escape test with a DC

def test_dc_asks_the_named_roller_with_the_dex_modifier(tables: Tables) -> None:
    play = Play(tables, State(party=ana_and_bia()))
    play("fugir", personagem="Bia")
    events = play("fuga", dc=14)
    (prompt,) = play.state.prompts
    attribute = tables.get("perseguicao", "teste_de_fuga", "atributo")
    assert attribute == "des"
    assert (prompt.kind, prompt.character, prompt.dc, prompt.modifier, prompt.dice) == (
        "fuga", "bia", 14, 3, "1d20")
    assert any(e.kind == "pedido" and e.visibility == "player:bia" for e in events)
    with pytest.raises(CommandRejected, match="já há um teste de fuga"):
        play("fuga", dc=10)


def test_a_dc_with_no_name_asks_the_whole_party(tables: Tables) -> None:
    """Issue 17: the escape test is the party's; with nobody named it no longer goes silently
    to the first character: one public prompt, any player answers, the first answer counts."""
    play = chase_play(tables, 0, ana_and_bia())
    (asked,) = play("fuga", dc=12)
    (prompt,) = play.state.prompts
    assert prompt.party and prompt.character is None and prompt.dc == 12
    assert asked.kind == "pedido" and asked.visibility == "public"
    assert asked.data["pedido"]["grupo"] is True
    assert "qualquer um de vocês" in asked.text and "vale para todos" in asked.text


def test_the_party_test_card_says_each_roll_and_who_rolls_under_desv(tables: Tables) -> None:
    """Issue 31 item 3: the party's escape card says the die and each one's modifier, and
    names who is under DESV and how their roll works (Bia, exhaustion 1, lost a natural 20
    on a card that said only "qualquer um de vocês pode rolar 1d20 + DES")."""
    play = chase_play(tables, 0, ana_and_bia(exhaustion=1))
    (asked,) = play("fuga", dc=12)
    assert "Ana 1d20+1" in asked.text and "Bia 1d20+3" in asked.text, asked.text
    desv = asked.text[asked.text.index("DESV") - 40:]
    assert "Bia" in desv and "Ana" not in desv, asked.text
    assert "role 1d20 duas vezes e fique com o pior" in asked.text, asked.text
    calm = chase_play(tables, 0, ana_and_bia())
    (plain,) = calm("fuga", dc=12)
    assert "DESV" not in plain.text and "dificuldade 12" in plain.text, plain.text


def test_the_party_test_rolls_with_the_answering_players_modifier(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    play("fuga", dc=12)
    events = play("responder", actor="player:bia", valor=9)  # Bia DES +3
    answer = next(e for e in events if e.kind == "resposta")
    assert answer.visibility == "public" and answer.data["personagem"] == "bia"
    assert answer.data["total"] == 12 and "pelo grupo" in answer.text
    assert play.state.prompts == () and play.state.chase is not None
    assert play.state.chase.score == 1


def test_the_first_answer_closes_the_party_test_for_everyone(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    play("fuga", dc=12)
    play("responder", actor="player:ana", valor=3)
    with pytest.raises(CommandRejected, match="nenhum pedido pendente"):
        play("responder", actor="player:bia", valor=20)
    assert play.state.chase is not None and play.state.chase.score == -1


def test_a_player_sees_the_party_test_with_their_own_modifier_and_edge(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia(exhaustion=1))  # Bia: DESV (Tabela I 1)
    play("fuga", dc=12)
    (ana,) = view_state(play.state, "player:ana", tables)["pedidos"]
    (bia,) = view_state(play.state, "player:bia", tables)["pedidos"]
    (gm,) = view_state(play.state, "gm", tables)["pedidos"]
    assert (ana["modificador"], ana.get("vantagem"), ana["grupo"]) == (1, None, True)
    assert (bia["modificador"], bia["vantagem"]) == (3, "desvantagem")
    assert gm["personagem"] is None and gm["grupo"] is True
    assert view_state(play.state, "mesa", tables)["pedidos"] == []


def test_the_gm_answers_the_party_test_for_one_or_for_the_group(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    play("fuga", dc=12)
    named = next(e for e in play("responder", valor=9, personagem="Bia") if e.kind == "resposta")
    assert (named.data["total"], named.data["personagem"]) == (12, "bia")
    play("fuga", dc=12)
    bare = next(e for e in play("responder", valor=9) if e.kind == "resposta")
    assert (bare.data["total"], bare.data["personagem"]) == (9, None)
    # issue 31 item 6: everyone (the table screen too) reads the party's answer, with no
    # prompt number, which is jargon to them
    assert bare.text == "O Mestre rolou: 9 — pelo grupo, vale para todos."
    assert named.text == "O Mestre, por Bia, rolou: 9 + 3 = 12 — pelo grupo, vale para todos."


def test_a_named_roller_still_gets_the_test_alone(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    play("fuga", dc=12, personagem="Bia")
    (prompt,) = play.state.prompts
    assert (prompt.character, prompt.modifier, prompt.party) == ("bia", 3, False)
    with pytest.raises(CommandRejected, match="não há pedido pendente para 'ana'"):
        play("responder", actor="player:ana", valor=10)


def test_exhaustion_level_2_drops_the_modifier(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia(exhaustion=2), roller="bia")
    play("fuga", dc=12)
    assert play.state.prompts[0].modifier == 0


@pytest.mark.parametrize("value,success", [(11, True), (10, False)])
def test_answering_the_escape_prompt(tables: Tables, value: int, success: bool) -> None:
    play = chase_play(tables, 0, ana_and_bia(), roller="bia")  # Bia DES +3
    play("fuga", dc=14)
    events = play("responder", valor=value)
    assert play.state.prompts == ()
    assert play.state.chase is not None
    assert play.state.chase.score == (1 if success else -1)
    outcome = next(e for e in events if e.text.startswith("Teste de Fuga:"))
    assert outcome.data["total"] == value + 3 and outcome.data["sucesso"] is success


@pytest.mark.parametrize("face,success", [(12, True), (11, False)])
def test_with_no_party_the_companion_rolls_the_d20_in_public(tables: Tables, face: int,
                                                             success: bool) -> None:
    play = chase_play(tables)
    quiet = (3, 3, 6) if success else ()  # the chase opens the travel round: initial weather,
    # its drift, the encounter check
    events = play("fuga", dc=12, rng=FixedDice(face, *quiet))
    (rolled,) = [e for e in events if e.kind == "rolagem" and e.data["dados"] == "1d20"]
    assert rolled.visibility == "public" and rolled.data["dados"] == "1d20"
    assert rolled.data["resultado"] == ("Sucesso" if success else "Falha")
    assert (play.state.chase is not None) is success


# ---------------------------------------------------------------- the tug of war

def test_two_escape_points_escape(tables: Tables) -> None:
    play = chase_play(tables, 0)
    minutes = play.state.minutes
    events = play("fuga", resultado="sucesso")
    assert "Ponto de Fuga" in events[0].text
    assert distance_of(play.state.chase, THRESHOLDS) == "maior"
    events = play("fuga", resultado="sucesso")
    assert play.state.chase is None
    end = next(e for e in events if e.data.get("fim") == "escaparam")
    assert "escapa" in end.text and "despistam os inimigos e escapam" in end.data["regra"]
    assert play.state.minutes == minutes + 2 * tables.get("perseguicao", "turno_minutos")


def test_two_danger_points_and_combat_resumes(tables: Tables) -> None:
    play = chase_play(tables, 0)
    events = play("fuga", resultado="falha")
    assert "Ponto de Perigo" in events[0].text
    assert distance_of(play.state.chase, THRESHOLDS) == "menor"
    events = play("fuga", resultado="falha")
    assert play.state.chase is None
    end = next(e for e in events if e.data.get("fim") == "alcancados")
    assert "combate recomeça" in end.text
    assert "encurralados/alcançados e o combate recomeça" in end.data["regra"]


def test_points_cancel_on_one_signed_score(tables: Tables) -> None:
    play = chase_play(tables, 0)
    seen = []
    for result in ("sucesso", "falha", "falha", "sucesso"):
        if play.state.prompts:  # the fourth turn begins: the GM answers the confirmation first
            play("responder", opcao="nao")
        play("fuga", resultado=result)
        seen.append((play.state.chase.score, distance_of(play.state.chase, THRESHOLDS)))
    assert seen == [(1, "maior"), (0, "neutra"), (-1, "menor"), (0, "neutra")]


def test_declining_the_long_chase_says_all_it_skipped(tables: Tables) -> None:
    """Issue 31 item 6: "Não" said only "não aplicou a exaustão"; it skips the privation and
    the lost speed too."""
    play = chase_play(tables, 0, ana_and_bia())
    for result in ("sucesso", "falha", "falha"):
        play("fuga", resultado=result)
    assert play.state.prompts, "the fourth turn begins with the GM's confirmation"
    (said,) = [e for e in play("responder", opcao="nao") if e.kind != "resposta"]
    for part in ("exaustão", "privação", "velocidade"):
        assert part in said.text, said.text


def test_no_capital_after_a_colon_in_the_chase_lines(tables: Tables) -> None:
    """Issue 31 item 6: "Sucesso: A distância…", "Passou de 3 turnos: Os personagens…": the
    seed's sentences keep their words, said with no capital after the colon."""
    play = chase_play(tables, 0, ana_and_bia())
    said = [e.text for result in ("sucesso", "falha", "falha") for e in
            play("fuga", resultado=result)]
    assert any(t.startswith("Sucesso: a distância muda") for t in said), said
    assert any(t.startswith("Passou de 3 turnos: os personagens") for t in said), said


@pytest.mark.parametrize("score,distance", [(-1, "menor"), (0, "neutra"), (1, "maior")])
def test_distance_is_derived_from_the_score(score: int, distance: str) -> None:
    assert distance_of(Chase(phase="ativa", score=score), THRESHOLDS) == distance


# ---------------------------------------------------------------- the 3-turn limit

def _three_turns(play: Play, results: tuple[str, ...] = ("sucesso", "falha", "sucesso")) -> list:
    events: list = []
    for result in results:
        events = play("fuga", resultado=result)
    return events


def test_the_long_chase_warning_comes_when_the_fourth_turn_begins(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    for result in ("sucesso", "falha"):
        play("fuga", resultado=result)
        assert not play.state.prompts
    events = play("fuga", resultado="sucesso")  # the third turn ends; the chase goes on
    assert play.state.chase is not None and play.state.chase.turn == 3
    limit = tables.get("perseguicao", "limite_texto")
    warning = next(e for e in events if e.kind == "aviso" and e.code == "perseguicao.limite")
    assert warning.words["texto"] == limit  # the seed's sentence (said with no capital)
    assert warning.data["turno"] == 4  # the turn that begins, before its escape test
    codes = [e.code for e in events]
    assert codes.index("perseguicao.turno") < codes.index("perseguicao.limite")
    (prompt,) = play.state.prompts
    assert (prompt.kind, prompt.character, prompt.options) == (
        "confirmar_perseguicao", None, ("sim", "nao"))
    asked = next(e for e in events if e.kind == "pedido")
    assert asked.visibility == "gm"
    assert asked.data["pedido"]["opcoes_nomes"] == ["sim", "não"]
    assert asked.text.startswith("O turno 4 da perseguição começa")
    assert ("aplicar 1 ponto de exaustão, a privação e a redução na velocidade a todos os "
            "personagens? (sim ou não)") in asked.text


def test_what_the_gm_confirms_applies_to_the_chase_still_running(tables: Tables) -> None:
    play = chase_play(tables, 0, ana_and_bia())
    _three_turns(play, ("sucesso", "falha", "falha"))  # placar -1 after the third turn
    play("responder", opcao="sim")
    assert play.state.chase is not None and play.state.chase.turn == 3
    assert [c.exhaustion for c in play.state.party] == [1, 1]
    assert play.state.prompts == ()
    events = play("fuga", resultado="falha")  # the fourth test: caught
    assert play.state.chase is None
    assert any(e.data.get("fim") == "alcancados" for e in events)
    assert not [e for e in events if e.code in ("perseguicao.limite", None)]
    assert play.state.prompts == ()  # nothing asked of a chase already over


def test_a_chase_over_by_its_third_turn_asks_nothing(tables: Tables) -> None:
    play = chase_play(tables, 1, ana_and_bia(), turn=2)
    events = play("fuga", resultado="sucesso")  # the third turn: escaped
    assert play.state.chase is None and play.state.prompts == ()
    assert not [e for e in events if e.code == "perseguicao.limite"]


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


# ---------------------------------------------------------------- the sides' speeds

def _past_the_limit(play: Play) -> Prompt:
    """Escape tests that keep the chase running until the long-chase confirmation is asked."""
    for result in ("sucesso", "falha") * 4:
        play("fuga", resultado=result)
        asked = [p for p in play.state.prompts if p.kind == "confirmar_perseguicao"]
        if asked:
            return asked[0]
    raise AssertionError("a perseguição longa não pediu confirmação")


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


# ---------------------------------------------------------------- property

COMMANDS = st.sampled_from([
    ("masmorra", {}), ("masmorra", {"perigo": "mortal"}), ("viagem", {}),
    ("perigo", {"perigo": "arriscado"}), ("perigo", {"perigo": "??"}),
    ("turno", {}), ("turno", {}), ("turno", {}), ("descansar", {}), ("dormir", {}),
    ("luz", {"fonte": "tocha"}), ("luz", {"fonte": "lanterna"}),
    ("luz", {"fonte": "tocha", "acao": "apagar"}), ("luz", {"fonte": "sol"}),
    ("magia", {"nome": "Escudo", "turnos": 2}), ("magia", {"nome": "x", "turnos": -1}),
    ("marcha", {"ordem": ["Bia", "Ana"]}), ("marcha", {"ordem": []}),
    ("monstro", {"nome": "Ogro", "sala": "2"}), ("monstro", {"nome": "Ogro", "acao": "remover"}),
    ("surpresa", {}), ("fugir", {}), ("fugir", {"personagem": "Bia"}),
    ("fuga", {"resultado": "sucesso"}), ("fuga", {"resultado": "falha"}),
    ("fuga", {"dc": 12}), ("fuga", {}), ("distancia", {}), ("distancia", {"alcance_maior": True}),
    ("responder", {}), ("responder", {"valor": 1}), ("responder", {"opcao": "sim"}),
    ("cancelar", {}),
])


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


SCORE_THRESHOLDS = "distancia_pelo_placar: {menor_ate: -1, maior_desde: 1}"


def running(tables: Tables, score: int = 0, **chase: object) -> Play:
    return Play(tables, State(chase=Chase(phase="ativa", score=score,  # type: ignore[arg-type]
                                          **chase)))


def said(events: list, code: str) -> list:
    return [e for e in events if e.code == code]


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
