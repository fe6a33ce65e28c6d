"""Listening is deaf while the companion speaks, and for the echo's tail after it."""
from __future__ import annotations

import pytest

from companion.tables.files import Tables
from companion.voice.config import voice_config
from companion.voice.gate import Listening, deaf, gate, speaking
from companion.voice.listener import Listener

TAIL = 0.4


@pytest.fixture
def config(tables: Tables):
    return voice_config(tables)


def test_nothing_heard_is_read_while_the_companion_speaks(config) -> None:
    state = Listening("ativacao", "ativacao")
    assert gate(state, "mestre, avançar", 10.0, config).action == "ler"
    talking = speaking(state, "notebook", True, 10.0, TAIL)
    assert deaf(talking, 10.0)
    # the companion's own answer, heard by the laptop's microphone, is no command
    for said in ("mestre, avançar", "mestre, pare de ouvir", "mestre, ouvir"):
        decided = gate(talking, said, 11.0, config)
        assert decided.action == "ignorar" and decided.state == talking
    quiet = speaking(talking, "notebook", False, 12.0, TAIL)
    assert gate(quiet, "mestre, avançar", 12.0 + TAIL / 2, config).action == "ignorar"  # echo
    assert gate(quiet, "mestre, avançar", 12.0 + TAIL + 0.01, config).action == "ler"


def test_deaf_until_every_speaker_on_the_laptop_stopped(config) -> None:
    state = speaking(Listening(), "notebook", True, 0.0, TAIL)
    state = speaking(state, "pagina:abc", True, 0.5, TAIL)
    state = speaking(state, "notebook", False, 1.0, TAIL)
    assert deaf(state, 5.0)  # the page on the laptop still speaks
    state = speaking(state, "pagina:abc", False, 6.0, TAIL)
    assert deaf(state, 6.0 + TAIL - 0.01) and not deaf(state, 6.0 + TAIL + 0.01)
    # a stop from someone who was not speaking changes nothing
    assert speaking(state, "pagina:outra", False, 9.0, 5.0) == state


def test_the_mode_survives_speaking(config) -> None:
    state = speaking(Listening("sempre", "sempre"), "notebook", True, 0.0, TAIL)
    state = speaking(state, "notebook", False, 1.0, TAIL)
    assert state.mode == "sempre" and gate(state, "avançar", 2.0, config).text == "avançar"


def test_the_listener_drops_audio_while_the_companion_speaks(config) -> None:
    now = [100.0]
    listener = Listener(None, config, lambda: [], lambda: (lambda text: None), None,
                        lambda report: None, clock=lambda: now[0])
    listener.set_speaking("notebook", True, TAIL)
    assert listener.deaf()
    listener.feed(b"\x00\x01" * 800)  # what the microphone hears: the speakers
    assert listener._queue.empty() and not listener.busy.is_set()
    listener.set_speaking("notebook", False, TAIL)
    now[0] += TAIL + 0.1
    assert not listener.deaf()
    listener.feed(b"\x00\x01" * 800)
    # the recogniser is reset first (what it held was cut by the drop), then hears again
    first, second = listener._queue.get_nowait(), listener._queue.get_nowait()
    assert first is not None and not isinstance(first, bytes) and isinstance(second, bytes)
