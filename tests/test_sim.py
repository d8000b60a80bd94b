"""Self-play: bots finish whole games through the engine; seeded runs repeat exactly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from banker.replay import replay_lines
from banker.sim import play_game
from banker.sim.cli import lineup, simulate
from banker.sim.game import Game, InvariantViolation
from banker.sim.strategies import BUY_EVERYTHING, CAUTIOUS, THREE_HOUSES


def test_a_short_run_finishes_every_game_with_invariants_checked() -> None:
    summary = simulate(12, 4, seed=5, check=True)
    assert summary["games"] == 12
    assert sum(summary["ended_by"].values()) == 12
    assert summary["mean_actions"] > 50


def test_the_same_seed_plays_the_same_game() -> None:
    strategies = [BUY_EVERYTHING, THREE_HOUSES, CAUTIOUS]
    first = play_game(42, strategies)
    second = play_game(42, strategies)
    assert (first.actions, first.turns, first.winner) == (second.actions, second.turns, second.winner)


def test_a_logged_game_replays_to_the_same_end() -> None:
    game = Game(9, lineup(9, 3))
    result = game.play()
    script = [a.to_line() for a in game.log]
    replayed = replay_lines(script, check=True)
    assert replayed.state.winner == result.winner
    assert replayed.state.ended


def test_games_end_by_the_rules() -> None:
    for seed in range(6):
        result = play_game(seed, lineup(seed, 4))
        assert result.ended_by in {"last_standing", "turn_limit"}
        if result.ended_by == "last_standing":
            assert result.bankruptcies == 3
            assert result.winner is not None


def test_short_game_ends_at_the_second_bankruptcy() -> None:
    for seed in range(4):
        result = play_game(seed, lineup(seed, 4), rules={"short_game": True})
        assert result.ended_by in {"short_game", "turn_limit"}
        if result.ended_by == "short_game":
            assert result.bankruptcies == 2


def test_turn_limit_ends_as_a_timed_game() -> None:
    result = play_game(3, [CAUTIOUS, CAUTIOUS], max_turns=20)
    assert result.ended_by == "turn_limit" and result.turns == 20 and result.winner is not None


@pytest.mark.pure_python
def test_a_broken_invariant_stops_with_the_seed_and_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    """new_game and the eleven actions up to the one after which the check failed."""
    import banker.sim.game as sim_game

    calls = {"n": 0}

    def broken_after_ten(state: object, clean: object = None) -> list[str]:
        calls["n"] += 1
        return ["money not conserved"] if calls["n"] > 10 else []

    monkeypatch.setattr(sim_game, "invariant_errors", broken_after_ten)
    with pytest.raises(InvariantViolation) as info:
        play_game(17, lineup(17, 3))
    assert info.value.seed == 17
    lines = info.value.script().splitlines()
    assert len(lines) == 12 and json.loads(lines[0])["action"] == "new_game"


def test_sim_command_prints_a_summary(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "banker", "sim", "--games", "3", "--players", "3", "--seed", "2",
                             "--json", "--quiet"], capture_output=True, text=True, check=True)
    summary = json.loads(result.stdout)
    assert summary["games"] == 3 and set(summary["win_share_by_strategy"]) <= {
        "buy_everything", "three_houses", "cautious"}


@pytest.mark.parametrize(("edition", "players", "rules"), [
    ("uk", 6, {}),
    ("ru", 2, {"free_parking_pot": True, "income_tax_percent": 10, "double_salary_on_go": True}),
    ("us", 4, {"bankruptcy_auctions": False, "decliner_may_bid": False, "houses": 12, "hotels": 4}),
    ("us", 3, {"jail_fine": 500, "jail_double_fine": 100, "starting_cash": 1000, "timed_game": True}),
    ("us", 8, {"short_game": True}),
])
def test_bots_finish_games_of_every_edition_and_house_rule(
        edition: str, players: int, rules: dict[str, object]) -> None:
    summary = simulate(3, players, seed=8, edition=edition, rules=rules, check=True)
    assert sum(summary["ended_by"].values()) == 3


def test_dice_are_the_numbers_randrange_draws() -> None:
    import random

    from banker.edition import load_edition
    from banker.sim.movement import Table

    table = Table.start(load_edition("us"), 4, random.Random(11))
    reference = random.Random(11)
    reference.shuffle(list(range(16)))  # Table.start shuffles both decks first
    reference.shuffle(list(range(16)))
    rolls = [table.roll() for _ in range(20_000)]
    assert rolls == [(reference.randrange(1, 7), reference.randrange(1, 7)) for _ in range(20_000)]
    assert {die for roll in rolls for die in roll} == {1, 2, 3, 4, 5, 6}


@pytest.mark.pure_python
def test_self_play_leaves_the_garbage_collector_as_it_found_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from banker.sim import cli, game

    before = gc.get_threshold()
    seen: list[tuple[int, int, int]] = []
    play = game.play_game

    def watched(*args: object, **kwargs: object) -> game.GameResult:
        seen.append(gc.get_threshold())
        return play(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(game, "play_game", watched)
    simulate(2, 3, 4)
    assert seen[0][0] == cli.SIM_GC_THRESHOLD and gc.get_threshold() == before

    def failing(*args: object, **kwargs: object) -> game.GameResult:
        raise game.InvariantViolation(1, [], "broken")

    monkeypatch.setattr(game, "play_game", failing)
    with pytest.raises(game.InvariantViolation):
        simulate(1, 3, 4)
    assert gc.get_threshold() == before


@pytest.mark.pure_python
def test_the_bots_do_only_what_the_engine_offers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots buy, build, lift mortgages and leave jail only through the engine's offers: with the offers'
    previews refusing those, they never submit one (the rest of their game goes on)."""
    import banker.offer
    from banker.actions import Action, Build, Buy, JailFine, Unmortgage
    from banker.errors import IllegalAction
    from banker.state import GameState

    real = banker.offer.apply
    refused = (Build, Buy, Unmortgage)

    def refusing(state: GameState | None, action: Action) -> object:
        if isinstance(action, refused):
            raise IllegalAction("no_auction")  # any refusal will do
        return real(state, action)

    monkeypatch.setattr(banker.offer, "apply", refusing)
    for seed in range(4):
        game = Game(seed, lineup(seed, 4))
        game.play(120)
        kinds = {type(action) for action in game.log}
        assert not kinds & set(refused), kinds
        assert JailFine in kinds or len(game.log) > 100
