"""Issue 7's two properties over random scripts (Hypothesis):

- no character acts twice in one travel round;
- no player-visible event, prompt or state field depends on a GM-only roll's result, unless
  the rules make that result public.

Scripts are texts the GM says, parsed and applied like the session does (one RNG per command).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands.parse import parse
from companion.engine import Command, State, apply, initial_state
from companion.engine import scratch
from companion.engine.model import GM
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables

PARTY = ("personagem Ana con 1", "personagem Bia des 2", "personagem Caio")
NAMES = ("Ana", "Bia", "Caio")


def run_script(tables: Tables, seed: int, lines: list[str]) -> Iterator[tuple[str, State, State,
                                                                              list[Any] | None]]:
    """Each line: (line, state before, state after, events or None when refused)."""
    state = initial_state(tables)
    for number, line in enumerate([*PARTY, *lines], start=1):
        result = parse(line, tables)
        assert result.command is not None, (line, result.error)
        command = Command(result.command.name, dict(result.command.args), "gm")
        try:
            after, events = apply(state, command, random.Random(f"{seed}:{number}"), tables)
        except CommandRejected:
            yield line, state, state, None
            continue
        yield line, state, after, events
        state = after


# ---------------------------------------------------------------- one activity per round

ACTIVITIES = [f"{verb} {name}" for verb in ("caçar", "pescar", "forragear", "criar munição")
              for name in NAMES]
GROUP = ["explorar", "acampar", "descansar", "avançar", "forragear", "criar munição",
         "responder 20", "responder Ana 20", "responder Bia 20", "responder Caio 20",
         "responder Ana descansar", "responder Bia exaustão", "cancelar Ana", "cancelar Bia",
         "cancelar Caio", "terreno floresta"]
TRAVEL_LINES = st.lists(st.sampled_from(ACTIVITIES + GROUP), min_size=1, max_size=40)
ROUND = 240


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=TRAVEL_LINES, seed=st.integers(0, 10_000))
def test_no_character_acts_twice_in_one_travel_round(tables: Tables, lines: list[str],
                                                     seed: int) -> None:
    acted: Counter[tuple[int, str]] = Counter()
    for line, before, _after, events in run_script(tables, seed, lines):
        if events is None:
            continue
        name = line.split()[0]
        if name not in ("caçar", "pescar", "forragear", "criar", "explorar", "acampar",
                        "descansar", "avançar"):
            continue
        number = before.minutes // ROUND
        said = [word for word in line.split() if word in NAMES]
        if said:
            who = [said[0].lower()]
        else:
            named = next((e.data["participantes"] for e in events
                          if "participantes" in e.data), None)
            # a fresh round: everyone takes part but those resting off a forced march
            who = named if named is not None else [
                c.id for c in before.party if c.rest_rounds_owed <= 0]
        for character in who:
            acted[(number, character)] += 1
            assert acted[(number, character)] == 1, (line, number, character, lines)


# ---------------------------------------------------------------- visibility

# GM-only rolls whose result the rules make public, and how:
# - the travel encounter check: an encounter interrupts the travel rest (a CON test for all);
# - the dungeon checks (a turn's, the sleep's Tabela C) and the dungeon mishap's row 8: public
#   only when the monsters then arrive in the party's room ("Fim do Turno" 1-3);
# - the dungeon mishap's rows 6, 7 and 9: tests, damage and panic the players go through.
TRAVEL_CHECK = "Encontro aleatório"
SLEEP_CHECK = "Tabela C: Descansando na Dungeon"
MISHAP = "Tabela B: Percalços da Dungeon"
ARRIVAL = "Fim do Turno"
IN_THE_ROOM = {1, 2, 3}
MISHAP_PUBLIC = {6, 7, 9}
Key = tuple[Any, ...]


def _trigger(tabela: str, extra: dict[str, Any]) -> bool:
    """A roll whose result becomes public only if monsters then arrive in the room."""
    return tabela in (SLEEP_CHECK, MISHAP) or (tabela == TRAVEL_CHECK and "perigo" in extra)


class SecretDice:
    """Draws every GM-only roll from its own stream, so two runs can differ in them alone.

    The first run (`recorded` None) records each GM-only result and which results became
    public. The second run keeps those and draws every other GM-only result anew, among the
    results that must stay secret (an arrival after a secret hit is next door)."""

    def __init__(self, seed: int, first: SecretDice | None = None) -> None:
        self.seed = seed
        self.first = first
        self.results: dict[Key, int] = {}
        self.public: set[Key] = set()
        self.rng = random.Random(0)
        self.count: Counter[str] = Counter()
        self.command = 0
        self.trigger: Key | None = None

    def start(self, number: int) -> None:
        self.command, self.count, self.trigger = number, Counter(), None
        self.rng = random.Random(f"secret:{self.seed}:{number}")

    def key(self, tabela: str) -> Key:
        if tabela == ARRIVAL and self.trigger is not None:
            return (ARRIVAL, self.trigger)  # the arrival belongs to the roll that caused it
        key = (self.command, tabela, self.count[tabela])
        self.count[tabela] += 1
        return key

    def forced(self, key: Key, tabela: str, extra: dict[str, Any]) -> int | None:
        """The face to force in the second run (None: draw from the secret stream)."""
        if self.first is None:
            return None
        kept = self.first.results.get(key)
        if key in self.first.public and kept is not None:
            return kept
        if tabela == TRAVEL_CHECK and "perigo" not in extra:
            return kept
        if tabela == MISHAP:
            return self.rng.choice([f for f in range(1, 11) if f not in MISHAP_PUBLIC])
        if tabela == ARRIVAL:
            return self.rng.choice([f for f in range(1, 7) if f not in IN_THE_ROOM])
        return None

    def note(self, key: Key, tabela: str, total: int, extra: dict[str, Any]) -> None:
        self.results[key] = total
        if tabela == MISHAP and total in MISHAP_PUBLIC:
            self.public.add(key)
        if _trigger(tabela, extra):
            self.trigger = key
        if tabela == ARRIVAL and self.trigger is not None and total in IN_THE_ROOM:
            self.public.update({key, self.trigger})


@pytest.fixture
def secret_rolls(monkeypatch: pytest.MonkeyPatch) -> list[SecretDice]:
    """Route the engine's GM-only rolls through the SecretDice in `holder[0]`."""
    holder: list[SecretDice] = []
    original = scratch.Scratch.roll

    def roll(self: scratch.Scratch, expression: str, tabela: str, resultado: str | None = None,
             visibility: str = "public", **kwargs: Any):
        if visibility != GM or not holder:
            return original(self, expression, tabela, resultado, visibility, **kwargs)
        dice = holder[0]
        key = dice.key(tabela)
        face = dice.forced(key, tabela, kwargs)
        main = self.rng
        self.rng = _Forced(face) if face is not None and _one_die(expression) else dice.rng
        try:
            rolled = original(self, expression, tabela, resultado, visibility, **kwargs)
        finally:
            self.rng = main
        dice.note(key, tabela, rolled.total, kwargs)
        return rolled

    monkeypatch.setattr(scratch.Scratch, "roll", roll)
    return holder


class _Forced(random.Random):
    def __init__(self, face: int) -> None:
        super().__init__(0)
        self.face = face

    def randint(self, a: int, b: int) -> int:
        assert a <= self.face <= b
        return self.face


def _one_die(expression: str) -> bool:
    return expression.lower().startswith("1d") and expression[2:].isdigit()


MIXED = ["avançar", "avançar", "explorar", "descansar", "acampar", "forragear", "caçar Ana",
         "responder Ana 20", "responder Bia 20", "responder Caio 20", "responder Ana rolando",
         "responder Bia rolando", "responder Caio rolando", "responder Ana descansar",
         "terreno pântano", "terreno montanha", "o grupo achou o caminho", "estado",
         "masmorra", "masmorra mortal", "acender tocha", "acender lanterna", "turno", "turno",
         "dormir", "dormir", "viagem", "segredo escutar atrás da porta", "segredo 1d6",
         "Ana toma 3 de dano", "pânico Bia", "encontro", "surpresa", "monstro ogro na sala 3"]
SCRIPTS = st.lists(st.sampled_from(MIXED), min_size=1, max_size=30)


def _seen(tables: Tables, state: State, events: list[Any] | None) -> list[Any]:
    """What the players and the table screen may see after one command."""
    # A refused GM command reaches nobody but the GM: for the players it is the same as an
    # accepted one with no public events (e.g. 'o grupo achou o caminho' when not lost).
    shown: list[Any] = [[(e.kind, e.visibility, e.text, dict(e.data))
                         for e in events or () if e.visibility != GM]]
    for viewer in ("public", *(f"player:{c.id}" for c in state.party)):
        shown.append(view_state(state, viewer, tables))
    return shown


def _play(tables: Tables, seed: int, lines: list[str], dice: SecretDice,
          holder: list[SecretDice]) -> list[Any]:
    holder[:] = [dice]
    out: list[Any] = []
    state = initial_state(tables)
    for number, line in enumerate([*PARTY, *lines], start=1):
        result = parse(line, tables)
        assert result.command is not None, (line, result.error)
        dice.start(number)
        try:
            state, events = apply(state, Command(result.command.name,
                                                 dict(result.command.args), "gm"),
                                  random.Random(f"{seed}:{number}"), tables)
        except CommandRejected:
            events = None
        out.append((line, _seen(tables, state, events)))
    return out


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=SCRIPTS, seed=st.integers(0, 10_000), other=st.integers(1, 10_000))
def test_players_never_learn_a_secret_roll(tables: Tables, secret_rolls, lines: list[str],
                                           seed: int, other: int) -> None:
    first = SecretDice(seed)
    seen = _play(tables, seed, lines, first, secret_rolls)
    second = SecretDice(seed + other, first)
    again = _play(tables, seed, lines, second, secret_rolls)
    for (line, a), (_, b) in zip(seen, again):
        assert a == b, line
