"""Issue 26, point 12: the wording a GM and the players read at the second play-test evening
(the texts live in tables/; these tests read them through the real rules and sessions)."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.model import State
from companion.report import build
from companion.report.source import open_campaign
from companion.session import Session
from companion.tables.files import Tables
from tests.play_helpers import Play
from tests.report_helpers import play as run_lines
from tests.rules_helpers import new_character


def test_one_ammunition_is_singular(tables: Tables) -> None:
    said = tables.narration.render("viagem.municoes", {"nome": "Ana", "municoes": 1})
    assert said == "Ana: 1 munição"
    assert tables.narration.render("viagem.municoes", {"nome": "Ana", "municoes": 3}) \
        == "Ana: 3 munições"


def test_a_sheet_lists_exhaustion_effects_in_one_sentence(tables: Tables) -> None:
    ana = new_character(id="ana", name="Ana", exhaustion=2)
    play = Play(tables, State(party=(ana,)))
    (said,) = [e.text for e in play("estado", personagem="Ana")]
    assert "DESV em todas as rolagens e não adiciona modificadores" in said, said


def test_a_score_of_zero_has_no_sign(tables: Tables) -> None:
    said = tables.narration.render("perseguicao.turno", {"turno": 2, "nome": "Neutra",
                                                          "placar": 0})
    assert "(placar 0)" in said and "+0" not in said


def test_pending_prompts_are_named_not_numbered_alone(tables: Tables) -> None:
    play = Play(tables, State(party=(new_character(id="ana", name="Ana"),)))
    play("panico", personagem="Ana")
    with pytest.raises(Exception) as refused:
        play("nova_sessao")
    message = str(refused.value)
    assert "(1)" not in message and "Ana" in message and "pânico" in message.lower(), message


def test_weather_rolled_again_mid_session_is_not_the_initial_weather(tables: Tables) -> None:
    play = Play(tables, State())
    rolled = [e for e in play("clima") if e.kind == "rolagem"]
    assert rolled and all(e.data["tabela"] != "Clima inicial" for e in rolled)


def test_the_report_counts_every_dungeon_turn_and_joins_sentences(tmp_path: Path,
                                                                  tables: Tables) -> None:
    session = Session.open(tmp_path / "t.db", 5, tables)
    run_lines(session, ["personagem Ana sanidade 3", "masmorra", "acender tocha", "turno",
                        "descansar", "turno", "pânico Ana", "responder 20", "pânico Ana",
                        "responder 20"])
    turns = [e for e in session.events_since(0) if e["text"].startswith("Turno de exploração")]
    report = build.report(open_campaign(session.db_path), tables)
    assert report.dungeon_turns == len(turns) == 3
    page = build.html(open_campaign(session.db_path), tables)
    assert ".;" not in page
    session.close()


def test_a_prompt_cards_title_takes_its_result_suffix_cleanly(tables: Tables) -> None:
    """The result card reads '<title>: resultado': a title with its own colon read 'Falhou na
    marcha forçada: escolha: resultado'."""
    titles = tables.get("paginas", "titulos_pedidos")
    assert [t for t in titles.values() if ":" in str(t)] == []


def test_an_interrupted_sleep_does_not_promise_a_partial_rest(tables: Tables) -> None:
    """Those who pass the CON test get the whole rest: the warning says the sleep (the clock)
    stops, not that the rest counts only for the hours slept."""
    said = tables.narration.render("masmorra.acordados", {"hora": 3, "horas": 8})
    assert "vale só" not in said and "3 horas" in said and "teste" in said, said


def test_the_players_read_no_command_words_at_the_hour_rest(tables: Tables) -> None:
    """The hour-rest warning is everyone's: the command to say is the GM's hint only."""
    from companion.engine.model import Dungeon

    play = Play(tables, State(dungeon=Dungeon(active=True, turns_since_rest=5),
                              party=(new_character(id="ana", name="Ana"),)))
    events = play("turno")
    public = [e.text for e in events if e.visibility != "gm"]
    hour = [t for t in public if "Uma hora de exploração" in t]
    assert hour and not any("'descansar'" in t for t in public), public
    assert any("'descansar'" in e.text for e in events if e.visibility == "gm")


def test_a_region_is_said_with_its_own_preposition(tmp_path: Path, tables: Tables) -> None:
    """'O grupo está na Floresta Sombria', 'no Pântano': the preposition is stored with the
    region (encontros.yaml `preposicao`), never 'em Floresta Sombria'."""
    session = Session.open(tmp_path / "r.db", 3, tables)
    region = {"regiao": "Floresta Sombria", "terreno": "floresta", "dados": "1d2",
              "preposicao": "na", "linhas": {1: "Ent furioso", 2: "Corvos"}}
    assert session.change_rules({"encontros": {"regioes": {"floresta_sombria": region}}},
                                "gm").ok
    said = [e["text"] for e in session.run("região Floresta Sombria").events]
    assert "O grupo está na Floresta Sombria (Floresta)." in said, said
    said = [e["text"] for e in session.run("região Pântano").events]
    assert any(t.startswith("O grupo está no Pântano") for t in said), said
    session.close()
