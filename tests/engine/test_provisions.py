"""The engine's provisions the fronts offer instead of their own: editions, presets, limits, names, undo."""

from __future__ import annotations

import pytest

from banker.actions import Buy, NewGame, Undo
from banker.edition import EDITIONS, available_editions, deed_squares, edition_for_language, load_edition
from banker.engine import apply, last_action, new_game
from banker.errors import BadInput
from banker.limits import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS
from banker.messages import LANGUAGES
from banker.names import lookalike, offered_names
from banker.rules import MODES, PRESETS, Rules, preset_rules


def test_the_editions_offered_are_the_bundled_ones() -> None:
    assert sorted(EDITIONS) == available_editions()


@pytest.mark.parametrize(("language", "current", "expected"),
                         [("en", None, "us"), ("ru", None, "ru"), ("bg", None, "ru"), ("en", "uk", "uk"),
                          ("en", "ru", "us"), ("ru", "us", "ru"), ("xx", None, "us")])
def test_the_edition_of_a_language_keeps_the_board_on_the_table_in_its_language(
        language: str, current: str | None, expected: str) -> None:
    assert edition_for_language(language, current) == expected


def test_every_edition_has_its_deeds_on_the_same_squares() -> None:
    squares = deed_squares()
    assert len(squares) == 28
    for edition_id in EDITIONS:
        assert tuple(sorted(load_edition(edition_id).by_square)) == squares


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("mode", list(MODES))
def test_every_preset_and_mode_is_a_game_the_engine_starts(preset: str, mode: str) -> None:
    rules = preset_rules(preset, mode)
    state, _ = new_game(NewGame("us", ("Ann", "Bob"), rules))
    assert state.rules == Rules.build(load_edition("us").defaults, rules)
    assert state.rules.short_game == (mode == "short") and state.rules.timed_game == (mode == "timed")


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(BadInput):
        preset_rules("chaos")
    with pytest.raises(BadInput):
        preset_rules("standard", "forever")


def test_the_player_limits_are_the_engines() -> None:
    names = [f"P{n}" for n in range(MAX_PLAYERS + 1)]
    new_game(NewGame("us", tuple(names[:MAX_PLAYERS]), {}))
    new_game(NewGame("us", tuple(names[:MIN_PLAYERS]), {}))
    with pytest.raises(BadInput):
        new_game(NewGame("us", tuple(names), {}))
    with pytest.raises(BadInput):
        new_game(NewGame("us", tuple(names[:MIN_PLAYERS - 1]), {}))
    with pytest.raises(BadInput):
        new_game(NewGame("us", ("A" * (MAX_NAME_LENGTH + 1), "Bob"), {}))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_offered_names_start_a_full_game_and_look_unlike(language: str) -> None:
    names = offered_names(language)
    assert len(names) >= MAX_PLAYERS and len(set(names)) == len(names)
    assert lookalike(names) is None
    new_game(NewGame(edition_for_language(language), names[:MAX_PLAYERS], {}))


def test_the_last_action_is_what_undo_takes_back() -> None:
    state, _ = new_game(NewGame("us", ("Ann", "Bob"), {}))
    assert last_action(state) is None
    bought, events = apply(state, Buy("Ann", "baltic"))
    found = last_action(bought)
    assert found is not None and found[0] == Buy("Ann", "baltic") and found[1] == events
    undone, _ = apply(bought, Undo())
    assert last_action(undone) is None
