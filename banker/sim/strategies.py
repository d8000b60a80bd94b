"""Bot strategies: when to buy, how high to bid, how far to build, how much cash to keep."""

from __future__ import annotations

from dataclasses import dataclass

from banker.edition import Property
from banker.state import GameState


@dataclass(frozen=True)
class Strategy:
    name: str
    reserve: int
    """Cash the bot keeps in hand before buying or building."""
    build_to: int
    """Highest building level it aims for (3 = three houses, 5 = hotel)."""
    bid_factor: float
    """Its top bid as a share of the printed price."""
    buy_everything: bool = False
    sell_factor: float = 0.0
    """It sells a deed that completes someone else's group for this many times the price (0: never)."""

    def wants(self, cash: int, price: int) -> bool:
        """Whether it buys a deed at ``price`` with ``cash`` in hand."""
        if self.buy_everything:
            return cash >= price
        return cash - price >= self.reserve

    def top_bid(self, state: GameState, seat: int, prop: Property) -> int:
        cash = state.players[seat].cash
        limit = int(prop.price * self.bid_factor)
        return max(0, min(limit, cash - self.reserve // 2))


BUY_EVERYTHING = Strategy("buy_everything", reserve=0, build_to=5, bid_factor=1.0, buy_everything=True,
                          sell_factor=2.0)
THREE_HOUSES = Strategy("three_houses", reserve=150, build_to=3, bid_factor=1.1, sell_factor=2.5)
CAUTIOUS = Strategy("cautious", reserve=400, build_to=4, bid_factor=0.8)

STRATEGIES = {s.name: s for s in (BUY_EVERYTHING, THREE_HOUSES, CAUTIOUS)}
