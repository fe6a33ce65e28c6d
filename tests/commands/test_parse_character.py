"""test_parse.py, continued: the character tests."""
from __future__ import annotations

from typing import Any

import pytest

from companion.commands import normalize
from companion.commands.parse import grammar
from companion.tables.files import Tables
from tests.phrase_helpers import PhraseReading
from tests.commands.parse_helpers import (  # noqa: F401
    GOLDEN,
    SessionFactory,
    session_after,
    _panic_prompt,
)


# ---------------------------------------------------------------- forms run in a session


def test_named_gathering_and_flight_reach_the_character(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Bia")
    hunt = session.run("caçar Bia")
    assert hunt.ok, hunt.error
    said = " ".join(event["text"] for event in hunt.events if "faltam" not in event["data"])
    assert "Bia" in said and "Ana" not in said  # only the character named hunts
    assert hunt.events[-1]["data"]["faltam"] == ["ana"]  # Ana still has her activity
    flight = session.run("fugir Ana")
    assert flight.ok, flight.error
    assert session.state.chase is not None and session.state.chase.roller == "ana"
    refused = session.run("pescar Zé")
    assert refused.error == "personagem desconhecido: 'Zé'; personagens: Ana, Bia"


def test_places_and_manners_are_not_characters(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana")
    state = session.state
    for text, said in (("caçar na floresta", "'na floresta'"), ("fugir correndo", "'correndo'"),
                       ("fugir pela mata", "'pela mata'")):
        result = session.run(text)
        assert result.error == (f"{said} não parece nome de personagem; "
                                "diga 'ajuda' para ver os comandos")
        assert session.state == state
    assert session.run("caçar com a Ana").ok


def test_sheet_fields_as_the_engine_names_them(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana")
    assert session.run("personagem Ana pv_max 12").ok
    assert session.state.party[0].hp_max == 12
    assert session.run("personagem Ana PV máximo 14").ok
    assert session.state.party[0].hp_max == 14
    assert session.run("personagem Ana sanidade_max 12").ok
    assert session.state.party[0].sanity_max == 12
    assert session.run("personagem Ana sanidade máxima 15 sanidade 9").ok
    assert (session.state.party[0].sanity_max, session.state.party[0].sanity) == (15, 9)


def test_monster_alerted_and_removed_without_the_word_monstro(
        session_after: SessionFactory) -> None:
    session = session_after("masmorra", "monstro ogro na sala 3", "monstro goblin")
    assert session.run("o ogro foi alertado").ok
    assert [(m.name, m.alerted) for m in session.state.dungeon.monsters] == [
        ("ogro", True), ("goblin", False)]
    assert session.run("remover o goblin").ok
    assert [m.name for m in session.state.dungeon.monsters] == ["ogro"]
    unknown = session.run("remover o troll")
    assert unknown.error == "monstro desconhecido: 'troll'; na lista: ogro"


def test_a_death_said_at_the_table_is_counted(session_after: SessionFactory) -> None:
    """'o ogro morreu' is `derrotados` (the engine also takes the ogre off the GM's list)."""
    session = session_after("masmorra", "monstro ogro na sala 3")
    for text in ("o ogro morreu", "os dois goblins foram derrotados", "matamos o troll"):
        assert session.run(text).ok, text
    assert {region: dict(counts) for region, counts in session.state.tally.defeated.items()} == {
        "Masmorra": {"ogro": 1, "goblins": 2, "troll": 1}}
    assert session.commands()[-3].name == "derrotados"


def test_secret_rolls_said_as_actions_are_gm_only(session_after: SessionFactory) -> None:
    session = session_after("personagem Bruno", "masmorra")
    result = session.run("o Bruno escuta atrás da porta")
    assert result.ok, result.error
    rolls = [event for event in result.events if event["kind"] == "rolagem"]
    assert rolls and all(event["visibility"] == "gm" for event in rolls)
    assert session.state.secrets[-1].startswith("Bruno: escutar atrás da porta: 1d20 = ")


def test_a_named_character_has_the_companion_roll(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Carla")
    for text in ("responder Carla rolar", "responder rolar Carla", "a Carla rola",
                 "Carla rola o teste"):
        assert session.run("pânico Ana").ok and session.run("pânico Carla").ok
        result = session.run(text)
        assert result.ok, (text, result.error)
        assert [p.character for p in session.state.prompts] == ["ana"], text
        assert session.run("cancelar Ana").ok


def test_a_named_character_chooses_an_option(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Carla", "avançar", "avançar",
                            "avançar", "responder ana 20", "responder carla 1")
    choice = session.state.prompts[0]
    assert (choice.character, choice.options) == ("carla", ("descansar", "exaustao"))
    assert session.run("a Carla prefere a exaustão").ok
    assert session.state.party[1].exhaustion == 1 and session.state.prompts == ()


def test_a_refused_group_changes_nothing(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Carla")
    state, stored = session.state, len(session.commands())
    for text in ("panico Ana e Carla", "os três levam 2 de dano"):
        error = session.run(text).error
        assert error is not None and "um personagem por vez" in error
    assert session.state == state and len(session.commands()) == stored


def test_an_article_before_a_name_reaches_the_character(session_after: SessionFactory) -> None:
    """The engine refuses an unknown name, so 'ok' means the name was found; nobody else moves."""
    session = session_after("personagem Ana", "personagem Bia", "personagem Caio")
    for text, who in (("a Bia vai forragear", "Bia"), ("o Caio vai caçar", "Caio"),
                      ("a Ana vai pescar", "Ana"), ("forragear a Bia", "Bia")):
        before = {c.name: c for c in session.state.party}
        result = session.run(text)
        assert result.ok, (text, result.error)
        assert session.commands()[-1].args == {"personagem": who}
        after = {c.name: c for c in session.state.party}
        assert all(after[name] == before[name] for name in before if name != who), text
    panic = session.run("a Bia faz um teste de pânico")
    assert panic.ok and session.state.prompts[-1].character == "bia"


def test_a_creature_with_an_article_is_refused_by_the_engine(session_after: SessionFactory) -> None:
    """'o goblin' parses as a name now ('a Bia' does); the engine knows the party."""
    session = session_after("personagem Ana")
    state = session.state
    result = session.run("o goblin faz um teste de pânico")
    assert result.error == "personagem desconhecido: 'Goblin'; personagens: Ana"
    assert session.state == state


def test_marching_order_said_with_positions_or_spaces(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Bia", "personagem Caio", "masmorra")
    assert session.run("ordem de marcha: Caio na frente, depois Ana e Bia").ok
    assert session.state.dungeon.marching_order == ("caio", "ana", "bia")
    assert session.run("ordem de marcha Bia Caio Ana").ok
    assert session.state.dungeon.marching_order == ("bia", "caio", "ana")


def test_a_monster_alerted_in_its_room(session_after: SessionFactory) -> None:
    session = session_after("masmorra", "monstro ogro sala 3", "monstro Ogro Zarolho")
    assert [(m.name, m.room) for m in session.state.dungeon.monsters] == [
        ("ogro", "3"), ("Ogro Zarolho", "")]
    assert session.run("monstro Ogro Zarolho na sala 7 alertado").ok
    assert [(m.name, m.room, m.alerted) for m in session.state.dungeon.monsters] == [
        ("ogro", "3", False), ("Ogro Zarolho", "7", True)]


def test_defeated_in_a_named_region(session_after: SessionFactory) -> None:
    session = session_after()
    assert session.run("derrotados 3 goblins na região do pântano").ok
    assert {region: dict(counts) for region, counts in session.state.tally.defeated.items()} == {
        "Pântano": {"goblins": 3}}


def test_the_escape_test_of_a_named_character(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Bia", "fugir")
    assert session.run("teste de fuga da Bia dificuldade 14").ok
    prompt = session.state.prompts[-1]
    assert (prompt.kind, prompt.character, prompt.dc) == ("fuga", "bia", 14)


def test_a_character_lights_the_torch(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "masmorra")
    assert session.run("a Ana acende a tocha").ok
    assert [light.name for light in session.state.dungeon.lights] == ["tocha"]


@pytest.mark.parametrize("case", GOLDEN["recusas"], ids=lambda case: case["frase"])
def test_a_refusal_changes_nothing_in_a_session(case: dict[str, Any],
                                                session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "masmorra")
    stored, state = len(session.commands()), session.state
    assert session.run(case["frase"]).error == case["erro"]
    assert len(session.commands()) == stored and session.state == state


def test_page_buttons_answer_and_cancel_prompts_by_id(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana")
    for text in ("responder pedido {id} valor 14", "responder ao pedido {id} com 14",
                 "responder pedido {id} rolar", "cancelar pedido {id}"):
        prompt = _panic_prompt(session)
        result = session.run(text.format(id=prompt))
        assert result.ok, (text, result.error)
        assert prompt not in [p.id for p in session.state.prompts], text
        assert any(event["data"].get("pedido") == prompt for event in result.events)
    _panic_prompt(session)
    assert session.run("cancelar Ana").ok
    assert session.state.prompts == ()


def test_page_buttons_choose_an_option_by_id(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "avançar", "avançar", "avançar")
    con_test = session.state.prompts[0]
    assert con_test.kind == "marcha_forcada" and con_test.dc is not None
    assert session.run(f"responder pedido {con_test.id} valor 1").ok  # 1 + CON 0 fails
    choice = session.state.prompts[0]
    assert choice.options == ("descansar", "exaustao")
    result = session.run(f"responder pedido {choice.id} opcao exaustao")
    assert result.ok, result.error
    assert session.state.party[0].exhaustion == 1 and session.state.prompts == ()


def test_the_answerer_said_before_the_option_or_value(session_after: SessionFactory) -> None:
    session = session_after("personagem Ana", "personagem Bia", "avançar", "avançar", "avançar")
    ana, bia = session.state.prompts[0], session.state.prompts[1]
    assert (ana.character, bia.character) == ("ana", "bia") and ana.kind == "marcha_forcada"
    assert session.run("responder bia 20").ok  # Bia's CON test, not the oldest (Ana's)
    assert [p.id for p in session.state.prompts] == [ana.id]
    assert session.run("responder ana 1").ok
    choice = session.state.prompts[0]
    assert choice.character == "ana" and choice.options == ("descansar", "exaustao")
    result = session.run("responder ana exaustão")
    assert result.ok, result.error
    assert session.state.party[0].exhaustion == 1 and session.state.prompts == ()


def test_grammar_is_compiled_once_per_tables(tables: Tables) -> None:
    assert grammar(tables) is grammar(tables)


def test_voice_phrases_cover_every_command(tables: Tables,
                                           phrase_readings: list[PhraseReading]) -> None:
    listed = [reading.phrase for reading in phrase_readings if reading.listed]  # `voz frases`
    sample = [phrase.text for phrase in listed]
    assert 100 < len(sample) < 20000
    assert all("{" not in text and text == text.strip() for text in sample)
    commands = {phrase.command for phrase in listed}
    assert set(tables.get("comandos", "comandos")) - commands <= {
        "magia", "marcha", "monstro", "panico", "personagem", "derrotados", "tesouro", "item",
        "vigia", "curar"}  # these always need a name (a wildcard): no fixed phrase
    assert any("três" in text or "dois" in text for text in sample)  # numbers said in words


# ---------------------------------------------------------------- normalize


@pytest.mark.parametrize("text, expected", [
    ("Rolar 2d6+1!", "rolar 2 d 6 mais 1"),
    ("rolar d8", "rolar d 8"),
    ("3d6-1", "3 d 6 menos 1"),
    ("teste de fuga DC12", "teste de fuga dc 12"),
    ("Vinte e três goblins", "23 goblins"),
    ("acender uma tocha", "acender uma tocha"),
    ("responder um", "responder 1"),
    ("1d6 mais um", "1 d 6 mais 1"),
    ("mil e cem", "1100"),
    ("dois mil trezentos e quarenta e cinco", "2345"),
    ("duas mil novecentas e noventa e nove", "2999"),
    ("rolar dois três", "rolar 2 3"),
    ("Ana, Bia e Caio", "ana bia e caio"),
    ("\x00\ud800 🎲 Pântano\u200b", "pantano"),
    ("ação à distância", "acao a distancia"),
])
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text).text == expected


def test_restore_gives_back_the_original_words() -> None:
    normalized = normalize("personagem João Pedro, nível 2")
    assert normalized.restore("joao pedro") == "João Pedro"
    assert normalized.restore("nada disso") == "nada disso"
    assert normalize("ordem: Ana, Bia e Caio").restore("ana bia e caio") == "Ana, Bia e Caio"
