"""companion.tables.protocol: who is who and who may do what, and that the engine, the views and the
server's routing all follow it (a player's socket never gets a GM event)."""
from __future__ import annotations

import ast
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.tables import protocol
from companion.engine import Command, apply, initial_state
from companion.tables.protocol import may_see as visible_to
from companion.tables.errors import CommandRejected, TableError
from companion.server import rooms
from companion.session import Session
from companion.tables.files import Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.rules_helpers import changed_rules
from tests.socket_helpers import gm_ok, wait_until

VISIBILITIES = ["public", "gm", "player:ana", "player:bia"]
VIEWERS = ["gm", "public", "player:ana", "player:bia"]
ROOT = Path(__file__).resolve().parents[2]


def test_keys_parse_one_way() -> None:
    assert protocol.player_key("ana") == "player:ana"
    assert protocol.character_of("player:ana") == "ana"
    for other in ("gm", "public", "player:", "ana", "mesa"):
        assert protocol.character_of(other) is None
    assert protocol.viewer_key("player:ana") == "player:ana"
    assert protocol.viewer_key("mesa") == protocol.viewer_key("player:") == "public"
    assert protocol.viewer_for_role("mestre") == "gm"
    assert protocol.viewer_for_role("mesa") == "public"
    assert protocol.viewer_for_role("jogador", "bia") == "player:bia"
    assert protocol.actor_for_viewer("public") is None
    assert protocol.actor_for_viewer("player:bia") == "player:bia"


def test_may_see_is_the_rule_of_the_design() -> None:
    seen = {(v, w) for v in VISIBILITIES for w in VIEWERS if protocol.may_see(v, w)}
    assert seen == ({(v, "gm") for v in VISIBILITIES}
                    | {("public", w) for w in VIEWERS}
                    | {("player:ana", "player:ana"), ("player:bia", "player:bia")})
    for v in VISIBILITIES:  # the views' own check is the same function
        for w in VIEWERS:
            assert visible_to(v, w) == protocol.may_see(v, w)


def test_may_run_follows_comandos_yaml(tables: Tables) -> None:
    specs = tables.get("comandos", "comandos")
    for name, spec in specs.items():
        assert protocol.may_run("gm", name, tables)
        assert protocol.may_run("player:ana", name, tables) == bool(spec.get("jogador"))
        assert not protocol.may_run("public", name, tables)
    assert {n for n in specs if protocol.may_run("player:ana", n, tables)} == {
        "rolar", "ajuda", "estado", "registro", "responder", "tempo", "repetir"}
    assert protocol.may_answer("gm", "ana") and protocol.may_answer("gm", None)
    assert protocol.may_answer("player:ana", "ana")
    assert not protocol.may_answer("player:ana", "bia")
    assert not protocol.may_answer("player:ana", None)


def test_the_engine_refuses_with_the_protocols_words(tables: Tables) -> None:
    state = initial_state(tables)
    with pytest.raises(CommandRejected) as refused:
        apply(state, Command("avancar", {}, "player:ana"), random.Random(1), tables)
    assert refused.value.message == protocol.refusal_to_run("avancar", tables)
    assert refused.value.code == "so_mestre"


def test_the_protocol_imports_nothing_above_it() -> None:
    tree = ast.parse((ROOT / "companion" / "tables" / "protocol.py").read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            imported |= {f"{base}.{alias.name}" if base == "companion" else base
                         for alias in node.names}
    ours = {name for name in imported if name.split(".")[0] == "companion"}
    assert ours <= {"companion.tables.errors", "companion.tables.rulebook", "companion.tables.files"}, ours
    others = {name.split(".")[0] for name in imported} - {"companion"}
    assert others <= set(sys.stdlib_module_names) | {"__future__"}, others


def _client(role: str, viewer: str) -> rooms.Client:
    return rooms.Client(sid=viewer, role=role, viewer=viewer, token=None, player=None, since=0)


def test_the_servers_rooms_agree_with_may_see() -> None:
    """For every visibility, the rooms the hub sends an event to are exactly the rooms of the
    viewers that may see it."""
    live = [_client("mestre", "gm"), _client("mesa", "public"),
            _client("jogador", "player:ana"), _client("jogador", "player:bia")]
    room_of = {"gm": rooms.GM_ROOM, "public": rooms.TABLE_ROOM,
               "player:ana": "player:ana", "player:bia": "player:bia"}
    for visibility in VISIBILITIES:
        targets = rooms.targets(visibility, live)
        assert {room for room, _ in targets} == {
            room_of[c.viewer] for c in live if protocol.may_see(visibility, c.viewer)}
        assert all(room == room_of[viewer] for room, viewer in targets)
        for client in live:  # a client's rooms reach it only events it may see
            reached = set(rooms.rooms_for(visibility)) & set(client.rooms)
            if reached - {rooms.PUBLIC_ROOM}:
                assert protocol.may_see(visibility, client.viewer), (visibility, client)


def test_a_player_socket_never_gets_a_gm_event(peers, session: Session) -> None:
    gm = peers({"token": GM_TOKEN})
    ana, bia, mesa = peers({"nome": "Ana"}), peers({"nome": "Bia"}), peers({"papel": "mesa"})
    for peer in (gm, ana, bia, mesa):
        peer.welcome()
    for text in ("segredo 1d20 armadilha", "pânico Ana", "pânico Bia", "rolar 1d6",
                 "masmorra", "monstro Ogro na sala 3"):
        gm_ok(gm, text)
    assert ana.cmd("responder rolar")["ok"]
    log = session.events_since(0)
    assert {e["visibility"] for e in log} >= {"gm", "public", "player:ana", "player:bia"}
    for peer, viewer in ((gm, "gm"), (ana, "player:ana"), (bia, "player:bia"),
                         (mesa, "public")):
        wanted = [e for e in log if protocol.may_see(e["visibility"], viewer)]
        wait_until(lambda: len(peer.events) == len(wanted),
                   what=f"{viewer}: {len(peer.events)} de {len(wanted)} eventos")
        assert [e["visibility"] for e in peer.events] == [e["visibility"] for e in wanted]
        received: list[Any] = peer.events + [e for ack in peer.acks for e in ack["events"]]
        assert all(protocol.may_see(e["visibility"], viewer) for e in received)


# ---------------------------------------------------------------- the commands' rules, typed

def test_a_typo_in_an_optional_command_key_is_a_load_error(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"^tables/comandos\.yaml: chave desconhecida em "
                                         r"'comandos\.rolar': jogadr$"):
        changed_rules(tmp_path, "comandos.yaml", "rolar: {modos: [todos], jogador: true,",
                      "rolar: {modos: [todos], jogadr: true,")


def test_who_may_run_a_command_is_read_from_the_typed_piece(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "comandos.yaml", "rolar: {modos: [todos], jogador: true,",
                          "rolar: {modos: [todos], jogador: false,")
    assert not protocol.may_run("player:ana", "rolar", rules)
    assert not rules.piece(protocol.CommandRules).comandos["rolar"].jogador


def test_the_players_refusal_is_said_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/comandos.yaml", "só o Mestre pode usar '",
                          "apenas o Mestre usa '")
    with pytest.raises(CommandRejected) as refused:
        apply(initial_state(rules), Command("avancar", {}, "player:ana"), random.Random(1),
              rules)
    assert refused.value.message.startswith("apenas o Mestre usa 'avancar'; jogadores podem")
    assert refused.value.code == "so_mestre"
