"""The chase (seed 004, experimental) as docs/regras.md reads it, through the engine."""
from __future__ import annotations


import pytest

from companion.engine.model import (
    Chase,
    State,
)
from companion.engine.procedures.chase import distance_of
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.engine.chase_helpers import (  # noqa: F401
    THRESHOLDS,
    chase_play,
    ana_and_bia,
    _three_turns,
    said,
)


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
