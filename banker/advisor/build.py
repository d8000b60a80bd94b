"""What to build next: every house or hotel a player may buy now, ranked by how fast it pays back.

The ranking is by opponent throws to earn back the building's price from the rent it adds on its own
street (:mod:`banker.advisor.payback`). The rules of §6 decide what may be bought: only on a whole
group without a mortgage, evenly, at most ``max_houses`` houses then a hotel, while the bank has one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from banker.advisor.markov import Landing
from banker.advisor.payback import MAX_HOUSES, rent_per_throw
from banker.edition import Edition, Property

Money = int


@dataclass(frozen=True, slots=True)
class Holdings:
    """What one player has, as far as building is concerned."""

    levels: Mapping[int, int]
    """Buildings on each deed the player owns, by deed number: houses, or ``max_houses + 1`` for a hotel."""
    cash: Money = 0
    mortgaged: frozenset[int] = field(default_factory=frozenset)
    """Deed numbers of the player's mortgaged deeds."""


@dataclass(frozen=True, slots=True)
class BuildOption:
    deed: Property
    building: str
    """"house" or "hotel"."""
    level: int
    """Buildings on the street after this purchase (``max_houses + 1``: the hotel)."""
    cost: Money
    gain_per_throw: float
    """Rent this building adds per opponent throw."""
    affordable: bool
    """Whether the player's cash covers the price now."""

    @property
    def payback_throws(self) -> float:
        return self.cost / self.gain_per_throw if self.gain_per_throw > 0 else math.inf


def build_options(edition: Edition, landing: Landing, holdings: Holdings, *, max_houses: int = MAX_HOUSES,
                  bank_houses: int = 32, bank_hotels: int = 12) -> list[BuildOption]:
    """Every building the player may buy now, the fastest to pay back first (cheaper first on a tie)."""
    hotel_level = max_houses + 1
    options: list[BuildOption] = []
    for group, members in edition.groups.items():
        if group in ("railroad", "utility") or not all(n in holdings.levels for n in members):
            continue
        if any(n in holdings.mortgaged for n in members):
            continue
        lowest = min(holdings.levels[n] for n in members)
        for number in members:
            level = holdings.levels[number]
            if level != lowest or level >= hotel_level:
                continue
            building = "hotel" if level + 1 == hotel_level else "house"
            if (building == "hotel" and bank_hotels < 1) or (building == "house" and bank_houses < 1):
                continue
            deed = edition.properties[number]
            gain = rent_per_throw(landing, deed, level + 1, max_houses=max_houses) - rent_per_throw(
                landing, deed, level, max_houses=max_houses
            )
            options.append(
                BuildOption(deed, building, level + 1, deed.house_price, gain, deed.house_price <= holdings.cash)
            )
    options.sort(key=lambda o: (o.payback_throws, o.cost, o.deed.number))
    return options


def best_build(edition: Edition, landing: Landing, holdings: Holdings, *, max_houses: int = MAX_HOUSES,
               bank_houses: int = 32, bank_hotels: int = 12) -> BuildOption | None:
    """The affordable building that pays back fastest, or ``None`` when there is none."""
    for option in build_options(edition, landing, holdings, max_houses=max_houses, bank_houses=bank_houses,
                                bank_hotels=bank_hotels):
        if option.affordable:
            return option
    return None
