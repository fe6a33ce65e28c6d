"""Every narration code the code says has its template in tables/narracao/, and every template
there is said somewhere (issue 8: narration apart from rules)."""
from __future__ import annotations

import ast
from pathlib import Path

from companion.tables.files import Tables

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
# Scratch.tell(code, …), CommandRejected.because(code, …), RulesInForce.narrated(code, …)
SAYERS = {"tell", "because", "narrated"}
RENDERERS = {"render"}  # narration.render(code, data)
# InvalidValue(field, code, data): what a value of tables/ should be, said when the tables load
VALIDATORS = {"InvalidValue"}
# Texts today's code no longer says but the log of an older campaign still holds (the projection
# renders them again for each viewer): they stay in tables/narracao/ for that history.
HISTORY_ONLY = {"perseguicao.pedido_substituido"}
# A prompt card's words for a refusal (companion/server/command_gate.py), said by the refusal's code.
CARDS = "cartao."
# An undone command said for a player (companion/history/projection.py `describe`), by the
# command's name: each must name a command (argumentos.yaml), or be the fallback.
DESCRIPTIONS = "desfeitos."
# The launcher (companion/cli/launcher.py) reads tables/narracao/instalacao.yaml by itself, before
# the package is installed: its codes are the file's keys alone, as string constants there.
LAUNCHER, LAUNCHER_FILE = PACKAGE / "cli" / "launcher.py", "instalacao."


def launcher_codes() -> set[str]:
    tree = ast.parse(LAUNCHER.read_text(encoding="utf-8"))
    return {LAUNCHER_FILE + node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def _code_argument(node: ast.AST) -> ast.expr | None:
    """The argument of a call that is a narration code: the first of a sayer or a renderer,
    the second of an InvalidValue; None for any other node."""
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Attribute) and node.func.attr in SAYERS | RENDERERS:
        return node.args[0] if node.args else None
    if isinstance(node.func, ast.Name) and node.func.id in SAYERS | RENDERERS \
            and node.args and isinstance(node.args[0], ast.Constant):
        return node.args[0]  # a bound method kept in a local name, called with a literal code
    if isinstance(node.func, ast.Name) and node.func.id in VALIDATORS:
        return node.args[1] if len(node.args) > 1 else None
    return None


def said_codes() -> dict[str, list[str]]:
    """code → where it is said ('companion/<module>.py:12'), from the literal code argument."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            code = _code_argument(node)
            if isinstance(code, ast.Constant) and isinstance(code.value, str) \
                    and "." in code.value:
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                found.setdefault(code.value, []).append(where)
    return found


def dynamic_codes() -> list[str]:
    """tell/because/InvalidValue calls whose code is not a literal (the scan could not check
    them)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            code = _code_argument(node)
            renders = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in RENDERERS
            if code is not None and not renders and not isinstance(code, ast.Constant):
                out.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return out


def test_every_code_said_has_a_template(tables: Tables) -> None:
    said = said_codes()
    assert said, "nenhum código de narração encontrado no código"
    missing = {code: where for code, where in said.items() if code not in tables.narration.codes}
    assert missing == {}


def test_every_template_is_said_somewhere(tables: Tables) -> None:
    cards = {code for code in tables.narration.codes if code.startswith(CARDS)}
    described = {code for code in tables.narration.codes if code.startswith(DESCRIPTIONS)}
    unused = sorted(tables.narration.codes - set(said_codes()) - HISTORY_ONLY - cards
                    - described - launcher_codes())
    assert unused == []
    commands = set(tables.get("argumentos", "comandos")) | {"qualquer_comando"}
    assert sorted(c.removeprefix(DESCRIPTIONS) for c in described
                  if c.removeprefix(DESCRIPTIONS) not in commands) == []
    assert HISTORY_ONLY <= tables.narration.codes
    assert not HISTORY_ONLY & set(said_codes())  # said again: no longer history only


def test_codes_are_literals_so_they_can_be_checked() -> None:
    assert dynamic_codes() == []


def test_every_card_text_is_for_a_refusal_code(tables: Tables) -> None:
    """tables/narracao/cartao.yaml: the gate says each by the refusal's code, so each key must
    be one of the codes the pages receive."""
    from companion.tables.protocol import REFUSAL_CODES

    cards = {code.removeprefix(CARDS) for code in tables.narration.codes
             if code.startswith(CARDS)}
    assert cards and cards <= REFUSAL_CODES
