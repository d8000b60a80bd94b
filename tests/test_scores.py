"""Final scores and the net-worth series for the chart."""

from __future__ import annotations

from pathlib import Path

from banker.actions import parse_action
from banker.replay import replay_lines
from banker.scores import final_scores, net_worth_series

GAMES = Path(__file__).with_name("games")


def test_short_game_final_scores() -> None:
    lines = (GAMES / "short_game.jsonl").read_text(encoding="utf-8").splitlines()
    state = replay_lines(lines).state
    scores = final_scores(state)
    assert [(s.player, s.net_worth, s.place) for s in scores] == [
        ("Ann", 3660, 1), ("Dan", 1500, 2), ("Cat", 0, 3), ("Bob", 0, 4)]
    assert [s.bankrupt for s in scores] == [False, False, True, True]


def test_equal_net_worth_shares_a_place() -> None:
    state = replay_lines(['{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cat"]}']).state
    assert [s.place for s in final_scores(state)] == [1, 1, 1]


def test_net_worth_after_every_action() -> None:
    lines = (GAMES / "classic_two_players.jsonl").read_text(encoding="utf-8").splitlines()
    series = net_worth_series(parse_action(line) for line in lines if line.strip())
    assert len(series) == len([line for line in lines if line.strip()])
    assert series[0] == {"seq": 0, "Ann": 1500, "Bob": 1500}
    # buying at the printed price keeps net worth; Bob's salary adds 200; rent moves 500 from Bob to Ann
    assert series[1]["Ann"] == 1500
    assert series[6]["Bob"] == 1700
    assert series[8] == {"seq": 8, "Ann": 2000, "Bob": 1200}
    assert series[-1]["Bob"] == 0 and series[-1]["Ann"] == 3200
