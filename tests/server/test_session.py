"""The session as the server holds it (companion.server.served.ServedSession), and its one
parse cache, shared by the player gate and `run`."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.session import parsing  # where the session calls commands.parse
from companion.commands.parse import ParseResult
from companion.server.served import ServedSession
from companion.session import Session
from companion.tables.files import Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN



def test_the_real_session_is_what_the_server_holds(session: Session) -> None:
    assert isinstance(session, ServedSession)


@pytest.mark.parametrize("name", sorted(n for n, member in vars(ServedSession).items()
                                        if inspect.isfunction(member) and n[0] != "_"))
def test_each_method_the_server_calls_has_the_sessions_signature(name: str) -> None:
    """Same parameters, kinds and defaults: the server may call it as the type says."""
    wanted = inspect.signature(getattr(ServedSession, name))
    real = inspect.signature(getattr(Session, name))
    assert [(p.name, p.kind, p.default) for p in real.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in wanted.parameters.values()]


@pytest.mark.parametrize("name", ["state", "db_path"])
def test_the_views_the_server_reads_are_properties(name: str) -> None:
    assert isinstance(inspect.getattr_static(Session, name), property)


def test_the_server_calls_nothing_else_on_a_session() -> None:
    """Every `session.x`, `self.session.x`, `hub.session.x` in companion/server/ is named by
    ServedSession."""
    named = set(ServedSession.__annotations__) | {
        n for n in vars(ServedSession) if not n.startswith("_")}
    server = Path(__file__).resolve().parents[2] / "companion" / "server"
    used: dict[str, str] = {}
    for source in sorted(server.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        decorators = {id(d) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                      for d in node.decorator_list}  # `@session.setter`: not a call
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_session(node.value) \
                    and id(node) not in decorators:
                used.setdefault(node.attr, source.name)
    assert used, "no session call found: the scan is broken"
    assert {n: f for n, f in used.items() if n not in named} == {}


def _is_session(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "session") or \
        (isinstance(node, ast.Attribute) and node.attr == "session")


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line the session hands to commands.parse, in order."""
    calls: list[str] = []
    real = parsing.parse

    def counting(text: str, tables: Tables, context: Any = None) -> ParseResult:
        calls.append(text)
        return real(text, tables, context)

    monkeypatch.setattr(parsing, "parse", counting)
    return calls


def test_a_line_is_parsed_once_and_remembered(session: Session, parsed: list[str]) -> None:
    first = session.parse("rolar 1d6")
    assert session.parse("  rolar 1d6 ") is first  # the same key: the line as `run` reads it
    assert session.run("rolar 1d6").ok
    assert parsed == ["rolar 1d6"]
    assert first.command is not None and first.command.name == "rolar"


def test_other_rules_are_another_reading(session: Session, parsed: list[str]) -> None:
    session.parse("rolar 1d6")
    before = session.tables_version
    assert session.change_rules({"casa": {"luz": {"tocha": {"turnos": 2}}}}, "gm").ok
    assert session.tables_version != before  # the GM's rules are other tables
    session.parse("rolar 1d6")
    assert parsed == ["rolar 1d6", "rolar 1d6"]


def test_the_cache_is_bounded(session: Session, parsed: list[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsing, "PARSE_CACHE", 2)
    for text in ("rolar 1d4", "rolar 1d6", "rolar 1d8", "rolar 1d6", "rolar 1d4"):
        session.parse(text)
    # 1d4 was the oldest when 1d8 came: read again; 1d6 was still remembered
    assert parsed == ["rolar 1d4", "rolar 1d6", "rolar 1d8", "rolar 1d4"]


def test_a_players_line_is_parsed_once(peers: Callable[..., Any], parsed: list[str]) -> None:
    """The server's player gate reads a line through the session, and the session's run of
    it (a command, or the reason it is none) reads the same cache."""
    ana = peers({"nome": "Ana"})
    ana.welcome()
    parsed.clear()
    assert ana.cmd("rolar 1d6")["ok"]
    assert ana.cmd("rolar 1d6")["ok"]
    refused = ana.cmd("voar para longe")  # the gate reads it, then the run says why
    assert not refused["ok"]
    assert not ana.cmd("avançar")["ok"]  # not a player's command: refused by the gate
    assert parsed == ["rolar 1d6", "voar para longe", "avançar"]
    gm = peers({"token": GM_TOKEN})
    gm.welcome()
    assert gm.cmd("rolar 1d6")["ok"]  # the GM's line, run by the session: already read
    assert parsed == ["rolar 1d6", "voar para longe", "avançar"]
