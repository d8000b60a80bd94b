"""The chronicle: a game's figures kept as it goes on give the same record as a replay of the whole game, a chart
of a bounded number of points that are the game's own, and undo takes back exactly what the action added."""

from __future__ import annotations

import random

import pytest

from banker.actions import Action, Undo
from banker.bench import game_actions
from banker.chronicle import SERIES_POINTS, Chronicle, replayed
from banker.engine import apply
from banker.errors import BankerError
from banker.records import SavedGame, chronicle_record, game_record
from banker.state import GameState
from banker.worth import net_worth


def with_undos(actions: list[Action], seed: int, share: float = 0.08) -> list[tuple[Action, float]]:
    """``actions`` with undos (one to four in a row) here and there, each row with a time."""
    rng = random.Random(seed)
    rows: list[tuple[Action, float]] = []
    state: GameState | None = None
    at = 1000.0
    depth = 0
    for action in actions:
        try:
            state, _ = apply(state, action)
        except BankerError:
            continue  # an action the undos made impossible
        at += rng.uniform(1, 30)
        rows.append((action, at))
        depth += 1
        if depth > 1 and rng.random() < share:
            for _ in range(rng.randint(1, min(4, depth - 1))):
                state, _ = apply(state, Undo())
                at += 1
                rows.append((Undo(), at))
                depth -= 1
    return rows


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_kept_record_is_the_replayed_record(seed: int) -> None:
    rows = with_undos(game_actions(1200, seed), seed)
    state, chronicle = replayed(rows)
    assert chronicle.undone and chronicle.count < len(rows) - 1
    expected = game_record(SavedGame(seed, "Ann · Bob", rows[0][1], tuple(rows)))
    assert chronicle_record(chronicle, state, seed, "Ann · Bob") == expected


def test_the_chart_keeps_the_games_own_points_and_a_bounded_number(seed: int = 5) -> None:
    rows = with_undos(game_actions(3000, seed), seed)
    worth_at: dict[int, tuple[int, ...]] = {}
    state: GameState | None = None
    for action, _at in rows:
        state, _ = apply(state, action)
        worth_at[state.seq] = tuple(net_worth(state, seat) for seat in range(len(state.players)))
    state, chronicle = replayed(rows)
    series = chronicle.series(state)
    assert SERIES_POINTS <= len(series) <= 2 * SERIES_POINTS + 2
    assert series[0]["seq"] == 0 and series[-1]["seq"] == state.seq
    seqs = [point["seq"] for point in series]
    assert seqs == sorted(seqs) and not set(seqs[:-1]) & chronicle.undone
    names = [p.name for p in state.players]
    for point in series:
        assert tuple(point[name] for name in names) == worth_at[point["seq"]]


def test_an_undo_takes_back_what_the_action_added() -> None:
    actions = game_actions(400, 9)
    state, chronicle = replayed([(a, float(i)) for i, a in enumerate(actions)])
    before = chronicle.copy()
    undone, _ = apply(state, Undo())
    chronicle.fold(state, Undo(), undone, (), 999.0)
    assert chronicle.count == before.count - 1
    assert chronicle.undone == {state.seq}
    redo = state.history.action if state.history is not None else None
    assert redo is not None
    again, events = apply(undone, redo)
    chronicle.fold(undone, redo, again, events, 1000.0)
    assert (chronicle.count, chronicle.turns, chronicle.landings, chronicle.peak.amount) == (
        before.count, before.turns, before.landings, before.peak.amount)
    # The action done again is the last payment of the players it paid, at its own new seq.
    assert {seat: seq for seat, seq in chronicle.paid.items() if seq != again.seq} == {
        seat: seq for seat, seq in before.paid.items() if seq != state.seq}


def test_a_chronicle_reads_back_what_it_wrote() -> None:
    rows = with_undos(game_actions(800, 11), 11)
    state, chronicle = replayed(rows)
    read = Chronicle.from_bytes(chronicle.to_bytes())
    assert read.series(state) == chronicle.series(state)
    assert chronicle_record(read, state, 1, "g") == chronicle_record(chronicle, state, 1, "g")
    assert read.undone == chronicle.undone and read.paid == chronicle.paid
    with pytest.raises(ValueError):
        Chronicle.from_bytes(b"not a chronicle")
