"""The family's records over the journal's saved games (banker/records.py) and what matters now for one
player (banker/now.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker.actions import NewGame, parse_action
from banker.journal import Journal
from banker.now import what_matters
from banker.records import GameRecord, Moment, SavedGame, Tally, family_records, game_record, saved_games
from banker.session import Session

TIMED = {"timed_game": True, "deal_deeds": 0}
"""A timed game (the banker may end it) that deals no deed, so that the scripts buy what they name."""


class Clock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "family.sqlite3") as j:
        yield j


def play(journal: Journal, clock: Clock, players: tuple[str, ...], lines: list[dict[str, Any]],
         edition: str = "us", rules: dict[str, Any] | None = None, step: float = 60.0) -> Session:
    """A new game in ``journal``: one action every ``step`` seconds of ``clock``."""
    session = Session(journal, clock=clock)
    session.submit(NewGame(edition, players, rules or {}))
    for line in lines:
        clock.now += step
        session.submit(parse_action(line))
    return session


def test_a_game_counts_what_stands_and_not_what_was_undone(journal: Journal) -> None:
    clock = Clock()
    start = clock.now
    play(journal, clock, ("Ann", "Bob"), [
        {"action": "buy", "player": "Ann", "property": "boardwalk"},
        {"action": "rent", "player": "Bob", "property": "boardwalk"},
        {"action": "end_turn"},
        {"action": "rent", "player": "Bob", "property": "boardwalk"},
        {"action": "undo"},
        {"action": "end_turn"},
        {"action": "end_game"},
    ])
    [game] = list(saved_games(journal))
    record = game_record(game)
    assert record is not None
    assert record.ended and record.winner == "Ann" and record.leader == "Ann"
    assert record.actions == 5  # buy, rent, end_turn, end_turn, end_game
    assert record.turns == 3
    assert record.landings == (("boardwalk", 1),)
    assert record.richest.player == "Ann" and record.richest.amount == 1550
    assert record.richest.at == start + 120  # after the rent, not the undone second one
    assert record.started == start and record.seconds == 7 * 60


def test_an_undo_of_the_richest_moment_takes_it_back(journal: Journal) -> None:
    clock = Clock()
    play(journal, clock, ("Ann", "Bob"), [
        {"action": "collect", "player": "Bob", "amount": 5000},
        {"action": "undo"},
        {"action": "collect", "player": "Bob", "amount": 20},
    ])
    record = game_record(next(saved_games(journal)))
    assert record is not None
    assert (record.richest.player, record.richest.amount) == ("Bob", 1520)
    assert record.actions == 1


def test_the_records_over_several_games(journal: Journal) -> None:
    clock = Clock()
    first = clock.now
    play(journal, clock, ("Ann", "Bob"), [  # a short, quick game Bob wins
        {"action": "buy", "player": "Bob", "property": "park_place"},
        {"action": "rent", "player": "Ann", "property": "park_place"},
        {"action": "end_game"},
    ], rules=TIMED, step=10)
    clock.now += 3600
    play(journal, clock, ("Ann", "Bob", "Cy"), [  # the one with the most actions, Ann wins
        {"action": "buy", "player": "Ann", "property": "boardwalk"},
        *[{"action": "rent", "player": p, "property": "boardwalk"} for p in ("Bob", "Cy", "Bob", "Cy")],
        {"action": "end_turn"},
        {"action": "end_game"},
    ], rules=TIMED, step=5)
    clock.now += 3600
    play(journal, clock, ("Ann", "Bob"), [  # the slowest, not finished, Moscow's board
        {"action": "collect", "player": "Bob", "amount": 3000},
        {"action": "end_turn"},
    ], edition="ru", step=3000)
    clock.now += 3600
    play(journal, clock, ("Bob", "Dee"), [
        {"action": "buy", "player": "Dee", "property": "park_place"},
        {"action": "rent", "player": "Bob", "property": "park_place"},
        {"action": "end_game"},
    ], rules=TIMED, step=10)
    games = [game_record(g) for g in saved_games(journal)]
    found = family_records(g for g in games if g is not None)
    assert [g.id for g in found.games] == [4, 3, 2, 1]  # newest first
    assert found.finished == 3
    assert found.wins == (("Ann", 1), ("Bob", 1), ("Dee", 1))
    assert found.richest is not None
    assert (found.richest.player, found.richest.amount, found.richest.game) == ("Bob", 4500, 3)
    assert found.richest.edition == "ru"
    assert found.longest is not None and found.longest.id == 2 and found.longest.actions == 7
    assert found.longest_time is not None and found.longest_time.id == 3
    assert found.longest_time.seconds == 6000
    assert [(d.edition, d.property, d.count) for d in found.landed] == [
        ("us", "boardwalk", 4), ("us", "park_place", 2)]
    assert found.games[-1].started == first
    unfinished = found.games[1]
    assert not unfinished.ended and unfinished.winner is None and unfinished.leader == "Bob"


def test_a_mortgaged_deed_and_an_owed_rent_are_landings_too(journal: Journal) -> None:
    clock = Clock()
    play(journal, clock, ("Ann", "Bob"), [
        {"action": "buy", "player": "Ann", "property": "boardwalk"},
        {"action": "mortgage", "player": "Ann", "property": "boardwalk"},
        {"action": "rent", "player": "Bob", "property": "boardwalk"},  # nothing to pay on a mortgaged deed
        {"action": "unmortgage", "player": "Ann", "property": "boardwalk"},
        {"action": "pay", "player": "Bob", "amount": 1480, "to": "bank"},
        {"action": "rent", "player": "Bob", "property": "boardwalk"},  # owed: Bob has $20
        {"action": "buy", "player": "Ann", "property": "baltic"},
    ])
    record = game_record(next(saved_games(journal)))
    assert record is not None and record.landings == (("boardwalk", 2),)


def test_a_game_that_does_not_replay_is_left_out_or_cut_where_it_breaks() -> None:
    lost = SavedGame(1, "lost", 0.0, ((parse_action({"action": "end_turn"}), 1.0),))
    assert game_record(lost) is None
    assert game_record(SavedGame(2, "empty", 0.0, ())) is None
    cut = SavedGame(3, "cut", 0.0, (
        (NewGame("us", ("Ann", "Bob"), {}), 1.0),
        (parse_action({"action": "buy", "player": "Ann", "property": "boardwalk"}), 2.0),
        (parse_action({"action": "buy", "player": "Bob", "property": "boardwalk"}), 3.0),  # refused
        (parse_action({"action": "buy", "player": "Bob", "property": "park_place"}), 4.0),
    ))
    record = game_record(cut)
    assert record is not None and record.actions == 1 and record.last == 2.0
    assert family_records([]).richest is None and family_records([]).games == ()


def test_the_game_being_played_is_put_with_the_others_records_as_if_all_were_counted_again() -> None:
    # Small ranges, so that games tie on their start, length, duration and richest moment.
    chance = random.Random(31)
    players = ("Ann", "Bob", "Cy")
    games = []
    for game_id in range(1, 25):
        started = float(chance.randrange(4))
        ended = chance.random() < 0.6
        winner = chance.choice(players) if ended else None
        games.append(GameRecord(
            id=game_id, name=f"game {game_id}", edition=chance.choice(("us", "ru")), players=players,
            started=started, last=started + chance.randrange(3), ended=ended, winner=winner,
            leader=winner or chance.choice(players), actions=chance.randrange(4), turns=1,
            richest=Moment(chance.choice(players), 1500 + chance.randrange(3), game_id, f"game {game_id}", "us",
                           float(chance.randrange(3))),
            landings=tuple((deed, chance.randrange(1, 4)) for deed in ("baltic", "boardwalk", "reading")
                           if chance.random() < 0.5)))
    for playing in games:
        others = [g for g in games if g is not playing]
        assert Tally.of(others).with_game(playing) == family_records(games), playing.id
        assert Tally.of(others).with_game(None) == family_records(others)
    assert Tally.of([]).with_game(games[0]) == family_records(games[:1])


# --- what matters now --------------------------------------------------------------------------------------

def session_of(journal: Journal, lines: list[dict[str, Any]], rules: dict[str, Any] | None = None) -> Session:
    return play(journal, Clock(), ("Ann", "Bob", "Cy"), lines, rules=rules)


def kinds(session: Session, player: str) -> list[str]:
    assert session.state is not None
    return [o.kind for o in what_matters(session.state, player)]


def test_a_turn_with_nothing_to_answer_pushes_no_salary(journal: Journal) -> None:
    # The salary is due only after passing GO, which the engine cannot see: nothing is pushed on a turn.
    session = session_of(journal, [])
    assert session.state is not None and session.state.turn == 0
    assert kinds(session, "Ann") == []
    assert kinds(session, "Bob") == []


def test_a_debt_comes_before_the_turn(journal: Journal) -> None:
    session = session_of(journal, [
        {"action": "buy", "player": "Bob", "property": "boardwalk"},
        {"action": "pay", "player": "Ann", "amount": 1490, "to": "bank"},
        {"action": "rent", "player": "Ann", "property": "boardwalk"},
    ])
    assert kinds(session, "Ann") == ["pay_debt", "bankrupt"]
    assert session.state is not None
    pay = what_matters(session.state, "Ann")[0]
    assert pay.refused  # $10 does not cover $50: the reason is shown


def test_a_decision_on_a_mortgaged_deed_comes_first(journal: Journal) -> None:
    session = session_of(journal, [
        {"action": "buy", "player": "Bob", "property": "boardwalk"},
        {"action": "mortgage", "player": "Bob", "property": "boardwalk"},
        {"action": "trade", "from": "Bob", "to": "Ann", "give": {"properties": ["boardwalk"]}, "take": {"cash": 10}},
    ])
    assert kinds(session, "Ann") == ["unmortgage", "keep_mortgaged"]


def test_the_auction_bid_and_the_jail(journal: Journal) -> None:
    session = session_of(journal, [
        {"action": "go_to_jail", "player": "Bob"},
        {"action": "auction", "property": "boardwalk"},
        {"action": "bid", "player": "Ann", "amount": 40},
    ])
    assert session.state is not None
    [bid] = what_matters(session.state, "Cy")
    assert bid.kind == "bid" and bid.allowed and bid.action is not None
    assert bid.action.to_json()["amount"] == 41
    assert kinds(session, "Ann") == []  # the high bidder waits
    session.submit(parse_action({"action": "auction_close"}))
    assert kinds(session, "Bob") == ["jail_fine"]


def test_nothing_after_the_end(journal: Journal) -> None:
    session = session_of(journal, [{"action": "end_game"}], rules={"timed_game": True})
    assert kinds(session, "Ann") == []
