"""Helpers shared by the test_chase test modules."""
from __future__ import annotations


from hypothesis import strategies as st

from companion.engine.model import (
    Character,
    Chase,
    Prompt,
    State,
)
from companion.engine.procedures.chase import ChaseRules
from companion.rules.loader import load_rules
from companion.tables.files import Tables
from tests.play_helpers import Play
from tests.rules_helpers import new_character

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


# ---------------------------------------------------------------- the 3-turn limit

def _three_turns(play: Play, results: tuple[str, ...] = ("sucesso", "falha", "sucesso")) -> list:
    events: list = []
    for result in results:
        events = play("fuga", resultado=result)
    return events


# ---------------------------------------------------------------- the sides' speeds

def _past_the_limit(play: Play) -> Prompt:
    """Escape tests that keep the chase running until the long-chase confirmation is asked."""
    for result in ("sucesso", "falha") * 4:
        play("fuga", resultado=result)
        asked = [p for p in play.state.prompts if p.kind == "confirmar_perseguicao"]
        if asked:
            return asked[0]
    raise AssertionError("a perseguição longa não pediu confirmação")


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


SCORE_THRESHOLDS = "distancia_pelo_placar: {menor_ate: -1, maior_desde: 1}"


def running(tables: Tables, score: int = 0, **chase: object) -> Play:
    return Play(tables, State(chase=Chase(phase="ativa", score=score,  # type: ignore[arg-type]
                                          **chase)))


def said(events: list, code: str) -> list:
    return [e for e in events if e.code == code]
