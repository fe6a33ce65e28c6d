"""Listening modes, the wake word, push-to-talk, the utterance log."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.tables.files import Tables
from companion.voice.config import voice_config
from companion.voice.gate import Listening, gate, push, set_mode
from companion.voice.strict_reading import read_voice


@pytest.fixture
def config(tables: Tables):
    return voice_config(tables)


def test_wake_word_mode_reads_only_after_the_wake_word(config) -> None:
    state = Listening("ativacao", "ativacao")
    said = gate(state, "mestre, avançar", 0.0, config)
    assert (said.action, said.text) == ("ler", "avançar")
    assert gate(state, "avançar", 0.0, config).action == "ignorar"
    assert gate(state, "o mestre avançou demais", 0.0, config).action == "ignorar"
    assert gate(state, "mestre", 0.0, config).action == "ignorar"


def test_stop_and_listen_by_voice(config) -> None:
    state = Listening("ativacao", "ativacao")
    stopped = gate(state, "mestre, pare de ouvir", 0.0, config)
    assert stopped.action == "parar" and stopped.state.mode == "desligado"
    assert gate(stopped.state, "mestre, avançar", 0.0, config).action == "ignorar"
    back = gate(stopped.state, "mestre, ouvir", 0.0, config)
    assert back.action == "ouvir" and back.state.mode == "ativacao"
    always = gate(Listening("sempre", "sempre"), "mestre pare de ouvir", 0.0, config)
    assert gate(always.state, "mestre ouvir", 0.0, config).state.mode == "sempre"


def test_push_to_talk_reads_only_inside_its_window(config) -> None:
    state = set_mode(Listening(), "apertar", config)
    assert gate(state, "avançar", 10.0, config).action == "ignorar"
    pressed = push(state, 10.0, config)
    assert gate(pressed, "avançar", 10.0 + config.push_seconds - 0.1, config).action == "ler"
    assert gate(pressed, "avançar", 10.0 + config.push_seconds + 0.1, config).action == \
        "ignorar"


def test_always_mode_reads_everything(config) -> None:
    state = set_mode(Listening(), "sempre", config)
    assert gate(state, "avançar", 0.0, config).text == "avançar"
    assert gate(state, "mestre avançar", 0.0, config).text == "avançar"


def test_unknown_mode_is_refused_in_portuguese(config) -> None:
    with pytest.raises(ValueError) as error:
        set_mode(Listening(), "turbo", config)
    assert str(error.value) == ("modo de escuta desconhecido: 'turbo'; use ativacao, apertar, "
                                "sempre ou desligado")


def test_undo_by_voice(config, tables: Tables, tmp_path: Path) -> None:
    from companion.session import Session

    session = Session.open(tmp_path / "mesa.db", 5, tables)
    try:
        said = gate(Listening(), "mestre, avançar", 0.0, config)
        command = read_voice(said.text, tables).command
        assert session.run_command(command, text=said.text).ok
        before = session.state
        undo = read_voice(gate(Listening(), "mestre, desfazer", 0.0, config).text, tables)
        assert undo.command is not None and undo.command.name == "desfazer"
        assert session.run_command(undo.command, text="desfazer").ok
        assert session.state != before
        assert [c.undone for c in session.commands()][0] is True
    finally:
        session.close()


def test_utterance_log_is_its_own_table(tmp_path: Path, tables: Tables) -> None:
    from companion.session import Session
    from companion.store.utterances import Utterances

    db = tmp_path / "mesa.db"
    session = Session.open(db, 1, tables)
    log = Utterances(db)
    log.add("avançar", 0.91, True, "aceito", command="avançar", command_name="avancar", n=1)
    log.add("alguém quer pizza", 0.42, False, "não entendi")
    log.close()
    session.close()
    again = Utterances(db)
    rows = again.all()
    again.close()
    assert [(r.text, r.accepted, r.command_name, r.n) for r in rows] == [
        ("avançar", True, "avancar", 1), ("alguém quer pizza", False, None, None)]
    assert rows[0].confidence == pytest.approx(0.91) and rows[0].at
    reopened = Session.open(db, 1, tables)  # the game log is untouched by utterances
    assert reopened.commands() == []
    reopened.close()
