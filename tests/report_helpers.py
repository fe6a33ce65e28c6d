"""A scripted evening for the report tests, played through a real Session on a SQLite file."""
from __future__ import annotations

from typing import Any

# Each line must be accepted (the helper fails on a refusal): travel, a hunt, a forced march,
# rest, the form, a dungeon with a torch, a panic test, a chase, ammunition, a secret roll, and
# one undone roll.
EVENING = [
    "personagem Ana nível 2 pv 12 con 1 des 2 sanidade 6",
    "personagem Bia pv 10",
    "Ana ganha 3 rações",
    "terreno floresta",
    "avançar",
    "explorar",
    "caçar Ana",
    "pescar Bia",  # one activity each: the round closes when both have acted
    "avançar",
    "avançar",
    "acampar",
    "descansar",
    "3 goblins derrotados",
    "tesouro 50 moedas de ouro",
    "item 2 poções",
    "masmorra",
    "acender tocha",
    "turno",
    "turno",
    "monstro ogro na sala 3",
    "segredo escutar a porta",
    "1 ogro derrotado",
    "tesouro 12 gemas",
    "pânico Ana",
    "responder 20",
    "fugir",
    "fuga sucesso",
    "fuga sucesso",
    "fuga sucesso",
    "viagem",
    "criar munição",
    "Ana gastou 5 flechas",
    "rolar 2d6+1",
    "desfazer",
    "rolar 1d20",
]


def play(session: Any, lines: list[str]) -> None:
    """Run each line as the GM; answer or cancel what the rules ask so the evening goes on."""
    for line in lines:
        result = session.run(line)
        if not result.ok and "ainda não respondeu" in (result.error or ""):
            for prompt in list(session.state.prompts):
                session.run(f"cancelar pedido {prompt.id}")
            result = session.run(line)
        assert result.ok, f"{line!r}: {result.error}"


def clear_prompts(session: Any) -> None:
    for prompt in list(session.state.prompts):
        assert session.run(f"cancelar pedido {prompt.id}").ok
