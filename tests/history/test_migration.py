"""A migration never moves the table (issue 32, 1): a log of commands and events only (the
format before stored history) opens in the state the evening ended in — for random evenings
played with today's code, and when today's rules ask a GM prompt the log never had (settled
as the log shows, told to the GM, nothing after it refused)."""
from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.view import view_state
from companion.history import replay
from companion.session import Session
from companion.tables.files import Tables
from tests.history.test_corpus import facts
from tests.history_helpers import differences
from tests.rules_helpers import changed_rules

SETUP = ["personagem Ana pv 12 con 1 comida 6 água 6", "personagem Bruno pv 10 comida 6 água 6",
         "terreno colinas", "modo montado"]
LINES = ["avançar", "avançar", "explorar", "acampar", "descansar", "forragear Ana", "caçar",
         "desfazer", "masmorra arriscado", "acender tocha", "turno", "turno", "viagem",
         "pânico Bruno", "nova sessão", "estado", "rolar 1d20", "tesouro 10 moedas de ouro",
         "RESPONDER", "RESPONDER", "fugir", "fuga sucesso"]
VIEWERS = ("gm", "player:ana", "player:bruno")


def answer_one(session: Session) -> None:
    """The oldest prompt answered, as the GM (its first option, or a roll of 11)."""
    if not session.state.prompts:
        return
    prompt = session.state.prompts[0]
    answer = prompt.options[0] if prompt.options else "11"
    session.run(f"responder pedido {prompt.id} {answer}")


def evening(db: Path, tables: Tables, lines: list[str], seed: int) -> Any:
    """An evening played with today's code (refusals are part of an evening: not stored); the
    state it ended in."""
    session = Session.open(db, seed, tables)
    session.join_player("Ana")
    session.join_player("Bruno")
    try:
        for line in SETUP + lines:
            if line == "RESPONDER":
                answer_one(session)
            else:
                session.run(line)
        return session.state
    finally:
        session.close()


def as_old_log(db: Path) -> None:
    """The file as the release before stored history kept it: its commands and events, no
    states, no rules versions, no format (user_version 0)."""
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM states")
    raw.execute("UPDATE commands SET rules = NULL")
    raw.execute("DELETE FROM rules")
    raw.execute("DROP TABLE IF EXISTS written_by")
    raw.execute("PRAGMA user_version=0")
    raw.commit()
    raw.close()
    for leftover in (Path(f"{db}-wal"), Path(f"{db}-shm")):
        assert not leftover.exists()


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(lines=st.lists(st.sampled_from(LINES), min_size=4, max_size=22),
       seed=st.integers(min_value=1, max_value=10_000))
def test_an_old_format_log_opens_where_the_evening_ended(tables: Tables, lines: list[str],
                                                        seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "campanha.db"
        ended = evening(db, tables, lines, seed)
        as_old_log(db)
        opened = Session.open(db, None, tables)
        try:
            assert opened.state == ended
        finally:
            opened.close()


PUBLIC_ENCOUNTERS = ("encontros:\n  visibilidade: mestre", "encontros:\n  visibilidade: publico")
RESTS = ["avançar", "acampar", "descansar", "RESPONDER", "RESPONDER", "avançar", "avançar",
         "avançar", "avançar", "avançar", "acampar", "descansar", "RESPONDER", "RESPONDER",
         "avançar", "avançar", "avançar", "avançar", "avançar", "avançar", "acampar",
         "descansar", "RESPONDER", "RESPONDER", "avançar", "explorar", "pânico Ana"]


def test_a_rule_that_adds_a_gm_prompt_does_not_move_an_old_campaign(tmp_path: Path,
                                                                    tables: Tables) -> None:
    """The evening is played where a rest's encounter is public (a temporary tables folder:
    the players are asked the interruption test straight away); the release that opens it asks
    the GM first ('Interromper o descanso?', the shipped rules). The campaign opens where the
    evening ended: that prompt settled as the log shows, told to the GM, nothing after it
    refused."""
    played_under = changed_rules(tmp_path, "casa.yaml", *PUBLIC_ENCOUNTERS)
    db = tmp_path / "campanha.db"
    ended = evening(db, played_under, RESTS, 14)
    shown = {viewer: facts(view_state(ended, viewer, played_under)) for viewer in VIEWERS}
    as_old_log(db)
    found = differences(db, tables)
    settled = [step for step in found if step.settled]
    assert settled, "the evening must hold a rest the shipped rules ask the GM about"
    assert all(step.settled[0][0] == "interromper_descanso" for step in settled)
    assert not [step.command.n for step in found if step.events is None]  # nothing refused
    opened = Session.open(db, None, tables)
    try:
        for viewer in VIEWERS:
            assert facts(view_state(opened.state, viewer, tables)) == shown[viewer], viewer
        told = [e["text"] for e in opened.opening
                if e["command"] == replay.HISTORY_NOTICE]
    finally:
        opened.close()
    for step in settled:
        line = next(t for t in told if t.startswith(f"Comando {step.command.n} ("))
        assert "Interromper o descanso?" in line and "resolvido como o registro mostra" in line


HOLDING = ("pedidos_que_seguram: [marcha_forcada,",
           "pedidos_que_seguram: [panico, marcha_forcada,")


def test_a_rule_that_holds_a_command_back_does_not_move_an_old_campaign(
        tmp_path: Path, tables: Tables) -> None:
    """The evening advanced while Ana's panic test waited; the release that opens it holds the
    group while a panic waits (a temporary tables folder: panico among pedidos_que_seguram). The
    advances are not refused: they run as the log shows, the panic still waiting after them,
    and the GM is told."""
    holds = changed_rules(tmp_path, "comandos.yaml", *HOLDING)
    db = tmp_path / "campanha.db"
    ended = evening(db, tables, ["pânico Ana", "avançar", "avançar", "explorar", "RESPONDER",
                                 "avançar"], 5)
    shown = {viewer: facts(view_state(ended, viewer, tables)) for viewer in VIEWERS}
    as_old_log(db)
    found = differences(db, holds)
    assert not [step.command.n for step in found if step.events is None]  # nothing refused
    held = [step for step in found if "a mesa o fez com o pedido esperando" in (step.differs or "")]
    assert [step.command.text for step in held] == ["avançar", "avançar", "explorar"]
    opened = Session.open(db, None, holds)
    try:
        for viewer in VIEWERS:
            assert facts(view_state(opened.state, viewer, holds)) == shown[viewer], viewer
    finally:
        opened.close()
