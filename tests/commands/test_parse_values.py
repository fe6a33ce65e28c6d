"""A value said outside its list is a reading error in chat too, in the engine's own words;
fillers said around a command; a bare 'sim'/'não' only while a prompt waits for it."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.commands.parse import parse
from companion.engine.model import Command
from companion.rules.loader import load_rules
from companion.commands.context import Known
from companion.session import Session, reading_context
from companion.tables.files import Tables
from tests.cli_helpers import run_main

TABLES = load_rules()

# (setup, text, command, argument, the value said): one per list with a "_dito" wildcard
OUTSIDE = [
    ((), "terreno deserto", "terreno", "terreno", "deserto"),
    ((), "mudar o terreno para Tundra Gelada", "terreno", "terreno", "Tundra Gelada"),
    ((), "estação monção", "estacao", "estacao", "monção"),
    ((), "modo voando", "modo", "modo", "voando"),
    (("masmorra",), "perigo médio", "perigo", "perigo", "médio"),
    ((), "entrar na masmorra perigo médio", "masmorra", "perigo", "médio"),
    (("masmorra",), "acender o holofote", "luz", "fonte", "holofote"),
    (("masmorra",), "apagar a fogueira", "luz", "fonte", "fogueira"),
    ((), "tabela Z", "tabela", "tabela", "Z"),
]


@pytest.mark.parametrize("setup, text, name, argument, said", OUTSIDE,
                         ids=[case[1] for case in OUTSIDE])
def test_a_value_outside_its_list_is_a_reading_error_in_the_engines_words(
        setup: tuple[str, ...], text: str, name: str, argument: str, said: str,
        tables: Tables) -> None:
    read = parse(text, tables)
    assert read.command is None
    session = Session.open(None, 1, tables)
    try:
        for line in setup:
            assert session.run(line).ok, line
        args = {argument: said, **({"acao": "acender"} if name == "luz" else {})}
        engine = session.run_command(Command(name, args, "gm"))  # the engine's own check stays
        assert not engine.ok
        assert read.error == engine.error
        assert f"'{said}'; use " in read.error
    finally:
        session.close()


def test_the_list_values_are_written_as_people_read_them(tables: Tables) -> None:
    assert parse("terreno deserto", tables).error == (
        "terreno desconhecido: 'deserto'; use planície, estepe, colinas, floresta, pântano ou "
        "montanha")
    assert parse("estação monção", tables).error == (
        "estação desconhecida: 'monção'; use primavera, verão, outono ou inverno")
    assert parse("modo voando", tables).error == (
        "modo de viagem desconhecido: 'voando'; use andando, montado ou navegando")


@pytest.mark.parametrize("text", ["terreno deserto", "modo voando", "perigo médio",
                                  "estação monção", "acender o holofote", "tabela Z"])
def test_cli_parse_exits_1_with_the_list(text: str) -> None:
    done = run_main("parse", "--json", text)
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["command"] is None and "; use " in answer["error"]


def test_values_in_their_lists_still_read(tables: Tables) -> None:
    assert parse("terreno pântano", tables).to_json() == {"command": "terreno",
                                                          "args": {"terreno": "pantano"}}
    assert parse("estamos no verão", tables).command.args == {"estacao": "verao"}
    assert parse("modo a pé", tables).command.args == {"modo": "andando"}
    assert parse("tabela agá", tables).command.args == {"tabela": "H"}


# ---------------------------------------------------------------- "sim"/"não" and the context

def test_a_bare_yes_is_not_a_command_without_a_context(tables: Tables) -> None:
    for text in ("sim", "não", "sim, aplica", "não precisa"):
        result = parse(text, tables)
        assert result.command is None, text
        assert "só vale como resposta enquanto um pedido espera" in result.error


def test_a_bare_yes_answers_the_prompt_that_waits_for_it(tables: Tables) -> None:
    waiting = Known.of(waiting=["sim", "nao"])
    assert parse("sim", tables, waiting).to_json() == {"command": "responder",
                                                       "args": {"opcao": "sim"}}
    assert parse("não", tables, waiting).command.args == {"opcao": "nao"}
    # a prompt that waits for other answers: "sim" is still not one
    assert parse("sim", tables, Known.of(waiting=["descansar", "exaustao"])).command is None
    # said with "responder", an answer is a command with or without a context
    assert parse("responder sim", tables).command.args == {"opcao": "sim"}


def test_the_cli_parse_alone_knows_no_prompt() -> None:
    done = run_main("parse", "--json", "sim")
    assert done.returncode == 1 and json.loads(done.stdout)["command"] is None


def test_a_session_passes_its_prompts_as_the_context(tables: Tables) -> None:
    """The long chase asks the GM "sim"/"não": typed alone, it answers only then."""
    session = Session.open(None, 1, tables)
    try:
        assert reading_context(session.state) == Known.of()
        refused = session.run("sim")
        assert not refused.ok and "só vale como resposta" in (refused.error or "")
        for line in ["personagem Ana", "personagem Bia", "fugir"]:
            assert session.run(line).ok
        assert reading_context(session.state).names == frozenset({"ana", "bia"})
        for result in ["sucesso", "falha"] * 4:
            assert session.run(f"fuga {result}").ok
            if session.state.prompts:
                break
        (prompt,) = session.state.prompts
        assert prompt.options == ("sim", "nao")
        assert reading_context(session.state).waits_for("sim")
        stored = len(session.commands())
        answered = session.run("sim")
        assert answered.ok, answered.error
        assert session.commands()[-1].name == "responder" and len(session.commands()) == stored + 1
        assert not session.run("sim").ok  # answered: nothing waits any more
    finally:
        session.close()


def test_a_players_context_holds_only_the_prompts_they_may_answer(tables: Tables) -> None:
    """The GM's own "sim"/"não" (the long chase) waits: Ana's "sim" is still table talk, read
    as such, not an answer refused as someone else's (which would say a prompt waits)."""
    session = Session.open(None, 1, tables)
    try:
        for line in ["personagem Ana", "fugir"]:
            assert session.run(line).ok
        for result in ["sucesso", "falha"] * 4:
            assert session.run(f"fuga {result}").ok
            if session.state.prompts:
                break
        assert reading_context(session.state).waits_for("sim")
        assert not reading_context(session.state, "player:ana").waits_for("sim")
        refused = session.run("sim", actor="player:ana")
        assert not refused.ok and "só vale como resposta" in (refused.error or "")
        assert session.state.prompts  # still waiting for the GM
    finally:
        session.close()


@given(st.text(max_size=60), st.lists(st.sampled_from(["sim", "nao", "descansar", "exaustao"]),
                                      max_size=3), st.booleans())
@settings(max_examples=150, deadline=None)
def test_any_text_with_any_context_parses_or_is_not_a_command(text: str, waiting: list[str],
                                                               roll: bool) -> None:
    result = parse(text, TABLES, Known.of(["Ana"], waiting, roll_waiting=roll))
    assert (result.command is None) != (result.error is None)
    if result.command is not None:
        assert result.command.args.get("opcao") in (None, *waiting) or \
            not text.strip().lower().startswith(("sim", "não", "nao"))
