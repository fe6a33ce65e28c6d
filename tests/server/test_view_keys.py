"""One shape for the state: every `estado` a page gets fits `ViewState` (companion/engine/view.py),
and every key the pages read (web/static/js) is declared there and is in the views that page's
viewer really gets — the GM's, a player's and the table screen's — from a real server.

The pages read the view with `pick(variable, "key", ["nested", "key"], …)` and `get(…)`
(web/static/js/common.js). Each variable a page reads that way is named below with the part of
the view it holds, or with why it holds no part of it; a variable this test does not know fails
it, so a new reader has to say what it reads.
"""
from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

from companion.engine.view import ViewState, view_state
from tests.socket_helpers import SERVER_GM_TOKEN, Peer, gm_ok, wait_until

PAGES = Path(__file__).resolve().parents[2] / "web" / "static" / "js"
Path_ = tuple[str, ...]  # keys, "[]" for the items of a list

# The variables the pages read parts of the view with, and the part each holds.
VARIABLES: dict[str, list[Path_]] = {
    "state": [()],
    "travel": [("viagem",)],
    "a": [("viagem", "agiram", "[]")],
    "dungeon": [("masmorra",)],
    "timer": [("masmorra", "luzes", "[]"), ("masmorra", "magias", "[]")],
    "chase": [("perseguicao",)],
    "c": [("grupo", "[]")],
    "prompt": [("pedidos", "[]")],
    "range": [("pedidos", "[]", "faixa")],
    "tally": [("registro",)],
    "gm": [("mestre",)],
    "m": [("mestre", "monstros", "[]")],
}
# Variables a page reads with pick/get that hold no object of the view, and why.
NOT_THE_VIEW: dict[str, str] = {
    "obj": "common.js: pick and get themselves",
    "player": "jogador.js: the welcome's `jogador`, not the state",
    "value": "view.js text(): a value of the view read as {texto|nome} only if it is an object "
             "(the view sends strings)",
    "who": "view.js nameFor(): the watcher; the view sends a name (viagem.vigia), the object "
           "branch is defensive",
    "entry": "view.js attributeDamage(): the view sends dano_atributos as a map; the list "
             "branch is defensive",
    "s": "mestre.js: a GM secret; the view sends strings (mestre.segredos), the object branch "
         "is defensive",
}
# Which viewer's views a page script reads; the others are shared by the three pages.
PAGE_VIEWER = {"mestre.js": "gm", "jogador.js": "player", "mesa.js": "mesa"}

CALL = re.compile(r"\b(?:pick|get)\(\s*([A-Za-z_$][\w$]*)\s*,")
TIMERS = re.compile(r"\btimers\(\s*state\s*,\s*\"(\w+)\"")
STRING = re.compile(r"^\s*(?:\"([^\"]*)\"|'([^']*)')\s*$")


# ---------------------------------------------------------------- what the pages read

def _arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of a call whose argument list goes on at `start`."""
    args, depth, current, quote = [], 0, "", ""
    for char in text[start:]:
        if quote:
            current += char
            quote = "" if char == quote else quote
        elif char in "\"'`":
            quote, current = char, current + char
        elif char in "([{":
            depth, current = depth + 1, current + char
        elif char in ")]}":
            if depth == 0:
                return [*args, current]
            depth, current = depth - 1, current + char
        elif char == "," and depth == 0:
            args, current = [*args, current], ""
        else:
            current += char
    raise AssertionError("chamada sem fim")


def _path(argument: str) -> Path_ | None:
    """A literal key ("x") or key path (["x", "y"]); None for anything computed."""
    single = STRING.match(argument)
    if single:
        return (single[1] if single[1] is not None else single[2],)
    inner = argument.strip()
    if inner.startswith("[") and inner.endswith("]"):
        parts = [STRING.match(part) for part in inner[1:-1].split(",")]
        if all(parts):
            return tuple(p[1] if p[1] is not None else p[2] for p in parts if p)
    return None


def reads() -> list[tuple[str, str, Path_ | None]]:
    """(script, variable, key path) of every pick/get of a page script; a computed key's path
    is None."""
    found = []
    for script in sorted(PAGES.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        for call in CALL.finditer(text):
            for argument in _arguments(text, call.end()):
                found.append((script.name, call[1], _path(argument)))
        found.extend((script.name, "dungeon", (key,)) for key in TIMERS.findall(text))
    return found


# ---------------------------------------------------------------- the declared shape

def _hints(typed: type) -> dict[str, tuple[bool, Any]]:
    """key → (required, type) of a TypedDict. Required-ness is read from the hints: with
    postponed annotations Python 3.11's TypedDict does not see NotRequired itself."""
    hints = typing.get_type_hints(typed, include_extras=True)
    return {key: (typing.get_origin(hint) is not typing.NotRequired,
                  typing.get_args(hint)[0] if typing.get_origin(hint) is typing.NotRequired
                  else hint)
            for key, hint in hints.items()}


def _without_none(hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return rest[0] if len(rest) == 1 else hint
    return hint


def declared(path: Path_, hint: Any = ViewState) -> bool:
    """Whether the key path is in the declared shape."""
    hint = _without_none(hint)
    if not path:
        return True
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        fields = _hints(hint)
        return path[0] in fields and declared(path[1:], fields[path[0]][1])
    if origin is list:
        return path[0] == "[]" and declared(path[1:], typing.get_args(hint)[0])
    if origin is dict:  # a map: any key
        return path[0] != "[]" and declared(path[1:], typing.get_args(hint)[1])
    return False


def misfits(value: Any, hint: Any = ViewState, where: str = "estado") -> list[str]:
    """Where a view does not fit its declared shape: a key not declared, a required key
    missing, a value of another type."""
    if value is None and _without_none(hint) is not hint:
        return []
    hint = _without_none(hint)
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} não é um objeto"]
        fields = _hints(hint)
        wrong = [f"{where}.{key}: chave fora de {hint.__name__}" for key in value
                 if key not in fields]
        wrong += [f"{where}.{key}: falta" for key, (required, _) in fields.items()
                  if required and key not in value]
        return wrong + [problem for key, item in value.items() if key in fields
                        for problem in misfits(item, fields[key][1], f"{where}.{key}")]
    if origin is list:
        return [f"{where}: não é lista"] if not isinstance(value, list) else [
            problem for i, item in enumerate(value)
            for problem in misfits(item, typing.get_args(hint)[0], f"{where}[{i}]")]
    if origin is dict:
        return [f"{where}: não é um mapa"] if not isinstance(value, dict) else [
            problem for key, item in value.items()
            for problem in misfits(item, typing.get_args(hint)[1], f"{where}.{key}")]
    if hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    return [] if ok else [f"{where}: {value!r} não é {hint.__name__}"]


def seen(path: Path_, views: Iterable[Any]) -> bool:
    """Whether some view has the key path (its last key present, even when null)."""
    def reach(value: Any, rest: Path_) -> bool:
        if not rest:
            return True
        if rest[0] == "[]":
            return isinstance(value, list) and any(reach(item, rest[1:]) for item in value)
        return isinstance(value, dict) and rest[0] in value and reach(value[rest[0]], rest[1:])
    return any(reach(view, path) for view in views)


# ---------------------------------------------------------------- an evening on a real server

EVENING = ["personagem Bia nível 1 pv 8", "personagem Ana nível 2 pv 12 con 1 des 2",
           "Ana perde 2 de SAB", "Ana toma 3 de dano", "personagem Ana exaustão 1", "caçar Ana",
           "a Bia fica de vigia", "pânico Ana", "teste de CON da Bia dificuldade 12",
           "masmorra", "acender tocha", "magia escudo 6 turnos", "ordem de marcha Ana e Bia",
           "monstro ogro na sala 3", "segredo escutar a porta", "3 goblins derrotados",
           "tesouro 50 moedas de ouro", "fugir", "fuga sucesso", "velocidade 120 contra 90",
           "teste de fuga dificuldade 12"]


@pytest.fixture
def views(server: Any, peers: Callable[..., Peer]) -> dict[str, list[dict[str, Any]]]:
    """Every view the GM, Ana's phone and the table screen got through the evening."""
    gm = peers({"token": SERVER_GM_TOKEN})
    ana = peers({"nome": "Ana"})
    table = peers({"papel": "mesa"})
    for peer in (gm, ana, table):
        peer.welcome()
    for command in EVENING:
        gm_ok(gm, command)
    last = {"gm": gm, "player": ana, "mesa": table}
    for name, peer in last.items():
        wait_until(lambda: (peer.views() or [{}])[-1].get("perseguicao") is not None
                   and "velocidades" in peer.views()[-1]["perseguicao"],
                   what=f"a perseguição na visão de {name}")
    wait_until(lambda: any(p.get("grupo") for p in ana.views()[-1]["pedidos"]),
               what="o teste de fuga do grupo no celular da Ana")
    return {name: peer.views() for name, peer in last.items()}


def test_every_view_fits_the_declared_shape(views: dict[str, list[dict[str, Any]]],
                                            session: Any) -> None:
    for name, received in views.items():
        assert received, name
        for view in received:
            assert misfits(view) == [], name
    for viewer in ("gm", "public", "player:ana"):
        assert misfits(view_state(session.state, viewer, session.tables)) == [], viewer


def test_every_key_the_pages_read_is_in_the_views(views: dict[str, list[dict[str, Any]]]) -> None:
    everyone = [view for received in views.values() for view in received]
    unknown, missing = [], []
    for script, variable, path in reads():
        if variable in NOT_THE_VIEW:
            continue
        if variable not in VARIABLES or path is None:
            unknown.append(f"{script}: {variable} {path}")
            continue
        shown = views[PAGE_VIEWER[script]] if script in PAGE_VIEWER else everyone
        for base in VARIABLES[variable]:
            full = base + path
            if not declared(full) or not seen(full, shown):
                missing.append(f"{script}: {variable} → {'.'.join(full)}")
    assert not unknown, "o que estas variáveis guardam da visão? " + "; ".join(unknown)
    assert not missing, "as páginas leem chaves que a visão não tem:\n" + "\n".join(missing)


def test_the_reader_finds_what_the_pages_read() -> None:
    """The parse sees the pages' reads (else the test above would pass on nothing)."""
    found = {(variable, path) for _, variable, path in reads()}
    assert ("state", ("viagem", "agiram")) in found and ("gm", ("perdido",)) in found
    assert ("range", ("minimo",)) in found and ("dungeon", ("luzes",)) in found
    assert len(found) > 60


def test_a_key_outside_the_shape_is_caught() -> None:
    assert declared(("grupo", "[]", "pv")) and declared(("pedidos", "[]", "faixa", "aviso"))
    assert not declared(("grupo", "[]", "pv_atual")) and not declared(("vigia",))
    assert declared(("registro", "derrotados", "Floresta", "goblins"))
    view = {**view_state_stub(), "extra": 1}
    assert misfits(view) == ["estado.extra: chave fora de ViewState"]


def view_state_stub() -> dict[str, Any]:
    """The smallest view that fits: every required key, nothing else."""
    travel = {"modo": "andando", "modo_nome": "Andando", "hexes": 0, "hexes_texto": "0 hex",
              "avancos_seguidos": 0, "acampamento_seguro": False, "descansou_hoje": False,
              "agiram": [], "vigia": None, "vigia_escolhido": False}
    return {"visao": "public", "modo": "viagem", "modo_nome": "viagem", "dia": 1, "rodada": 1,
            "rodadas_por_dia": 6, "minutos": 0, "hora": "0h00", "relogio": "Dia 1",
            "estacao": "primavera", "estacao_nome": "Primavera", "clima": None,
            "terreno": "planicie", "terreno_nome": "Planície", "regiao": "planicie",
            "regiao_nome": "Planície", "viagem": travel, "masmorra": None, "perseguicao": None,
            "grupo": [], "pedidos": [], "registro": {"derrotados": {}, "tesouro": {}, "itens": {}}}
