"""Scores: the final ranking (§10.2) and each player's net worth after every action (the phone's chart)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from banker.actions import Action
from banker.engine import apply
from banker.state import GameState
from banker.worth import net_worth


@dataclass(frozen=True, slots=True)
class Score:
    player: str
    net_worth: int
    bankrupt: bool
    place: int
    """1 for the winner; players with equal net worth share a place; bankrupt players rank last,
    the last to go bankrupt first."""


def final_scores(state: GameState) -> list[Score]:
    """Every player ranked by §10.2 net worth (the count of the short and timed games)."""
    active = sorted((seat for seat, p in enumerate(state.players) if not p.bankrupt),
                    key=lambda seat: (-net_worth(state, seat), seat))
    scores: list[Score] = []
    for seat in active:
        worth = net_worth(state, seat)
        place = scores[-1].place if scores and scores[-1].net_worth == worth else len(scores) + 1
        scores.append(Score(state.players[seat].name, worth, False, place))
    for seat in reversed(state.bankrupt_order):
        scores.append(Score(state.players[seat].name, 0, True, len(scores) + 1))
    return scores


def net_worth_series(actions: Iterable[Action]) -> list[dict[str, int]]:
    """Replay a game; after every action, each player's net worth (``seq`` counts the actions)."""
    series: list[dict[str, int]] = []
    state: GameState | None = None
    for action in actions:
        state, _ = apply(state, action)
        point = {"seq": state.seq}
        point.update({p.name: net_worth(state, seat) for seat, p in enumerate(state.players)})
        series.append(point)
    return series
