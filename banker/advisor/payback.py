"""How fast each purchase pays for itself: expected rent per opponent throw and throws to earn back.

Every figure is per **opponent throw**: the long-run share of one opponent's throws that end on a
square (:mod:`banker.advisor.markov`) times the rent due there. With three opponents, three times as
many throws happen per round.

Assumptions, the same as the strategy article's tables:

* A street group's steps assume the **whole group is owned** by one player: its unimproved streets earn
  double rent, and each building step puts one more house (or the hotel) on every street of the
  group. The per-deed table also gives a deed on its own, at the printed base rent.
* Railroads earn 25/50/100/200 by the number owned, twice that from a "nearest railroad" card; the
  table's k-th railroad earns the average railroad share.
* Utilities earn 4 or 10 times the dice that brought the token there (the exact expected total of
  those throws, not 7), and 10 times a fresh throw (7 on average) from a "nearest utility" card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from banker.advisor.markov import Landing
from banker.deeds import RAILROAD_RENT, UTILITY_MULTIPLIER
from banker.edition import Edition, Property

Money = int

NEAREST_UTILITY_MULTIPLIER = 10
MEAN_DICE_TOTAL = 7.0
MAX_HOUSES = 4
SHORT_GAME_MAX_HOUSES = 3


@dataclass(frozen=True, slots=True)
class Step:
    """One purchase on the way to a level: the deeds, one round of houses, the hotels, one more deed."""

    kind: str
    """"deeds", "house", "hotel", "railroad" or "utility"."""
    level: int
    """Houses after the step (the hotel: ``max_houses + 1``), or the number of railroads/utilities owned."""
    cost: Money
    total_cost: Money
    """Everything paid to reach this level from nothing, at printed prices."""
    rent_per_throw: float
    """Expected rent per opponent throw at this level."""
    gain_per_throw: float
    """What this step adds to the rent per opponent throw."""

    @property
    def payback_throws(self) -> float:
        """Opponent throws to earn back this step's cost; infinite if it adds nothing."""
        return self.cost / self.gain_per_throw if self.gain_per_throw > 0 else math.inf


@dataclass(frozen=True, slots=True)
class GroupPayback:
    group: str
    deeds: tuple[Property, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class DeedPayback:
    deed: Property
    share: float
    """Share of opponent throws ending on the deed's square."""
    alone: Step
    """The deed owned on its own (a street at its base rent, a single railroad or utility)."""
    steps: tuple[Step, ...]
    """A street with its whole group owned: the deed at double rent, each house, the hotel."""


def street_rent(deed: Property, level: int, *, max_houses: int, monopoly: bool) -> Money:
    """Printed rent of a street with ``level`` houses (``max_houses + 1``: a hotel)."""
    if level == 0:
        return deed.rent[0] * (2 if monopoly else 1)
    if level > max_houses:
        return deed.rent[5]
    return deed.rent[level]


def rent_per_throw(landing: Landing, deed: Property, level: int, *, max_houses: int = MAX_HOUSES,
                   monopoly: bool = True, owned_in_group: int = 1) -> float:
    """Expected rent per opponent throw from one deed.

    ``level`` is the number of houses on a street (``max_houses + 1`` for a hotel); ``monopoly`` whether
    its whole group is owned. For a railroad or a utility ``owned_in_group`` is how many its owner has.
    """
    square = deed.square
    if deed.kind == "street":
        return landing.cells[square] * street_rent(deed, level, max_houses=max_houses, monopoly=monopoly)
    if deed.kind == "railroad":
        rent = RAILROAD_RENT[min(owned_in_group, len(RAILROAD_RENT)) - 1]
        return (landing.cells[square] + landing.nearest_card[square]) * rent
    multiplier = UTILITY_MULTIPLIER[min(owned_in_group, len(UTILITY_MULTIPLIER)) - 1]
    return multiplier * landing.dice_total[square] + (
        NEAREST_UTILITY_MULTIPLIER * MEAN_DICE_TOTAL * landing.nearest_card[square]
    )


def group_payback(edition: Edition, landing: Landing, group: str, *,
                  max_houses: int = MAX_HOUSES) -> GroupPayback:
    """The steps of one group: a street group from its deeds to hotels, or railroads/utilities one by one."""
    deeds = tuple(edition.properties[n] for n in edition.groups[group])
    if group in ("railroad", "utility"):
        return GroupPayback(group, deeds, _count_steps(landing, deeds, group))
    steps: list[Step] = []
    previous = 0.0
    total = 0
    for level in range(max_houses + 2):
        if level == 0:
            kind, cost = "deeds", sum(d.price for d in deeds)
        else:
            kind = "hotel" if level > max_houses else "house"
            cost = sum(d.house_price for d in deeds)
        total += cost
        rent = sum(rent_per_throw(landing, d, level, max_houses=max_houses) for d in deeds)
        steps.append(Step(kind, level, cost, total, rent, rent - previous))
        previous = rent
    return GroupPayback(group, deeds, tuple(steps))


def _count_steps(landing: Landing, deeds: Sequence[Property], kind: str) -> tuple[Step, ...]:
    steps: list[Step] = []
    previous = 0.0
    total = 0
    mean_price = sum(d.price for d in deeds) / len(deeds)
    for owned in range(1, len(deeds) + 1):
        mean_rent = sum(rent_per_throw(landing, d, 0, owned_in_group=owned) for d in deeds) / len(deeds)
        rent = owned * mean_rent
        cost = round(mean_price)
        total += cost
        steps.append(Step(kind, owned, cost, total, rent, rent - previous))
        previous = rent
    return tuple(steps)


def payback_table(edition: Edition, landing: Landing, *, max_houses: int = MAX_HOUSES) -> list[GroupPayback]:
    """Every group of the edition: the street groups in board order, then railroads and utilities."""
    streets = [g for g in edition.groups if g not in ("railroad", "utility")]
    others = [g for g in ("railroad", "utility") if g in edition.groups]
    return [group_payback(edition, landing, g, max_houses=max_houses) for g in streets + others]


def deed_payback(edition: Edition, landing: Landing, deed: Property, *,
                 max_houses: int = MAX_HOUSES) -> DeedPayback:
    """One deed: on its own, and (a street) with its group owned, step by step to the hotel."""
    share = landing.cells[deed.square]
    alone_rent = rent_per_throw(landing, deed, 0, max_houses=max_houses, monopoly=False)
    alone_kind = "deeds" if deed.kind == "street" else deed.kind
    alone = Step(alone_kind, 0 if deed.kind == "street" else 1, deed.price, deed.price, alone_rent, alone_rent)
    if deed.kind != "street":
        return DeedPayback(deed, share, alone, ())
    steps: list[Step] = []
    previous = 0.0
    total = 0
    for level in range(max_houses + 2):
        cost = deed.price if level == 0 else deed.house_price
        total += cost
        kind = "deeds" if level == 0 else "hotel" if level > max_houses else "house"
        rent = rent_per_throw(landing, deed, level, max_houses=max_houses)
        steps.append(Step(kind, level, cost, total, rent, rent - previous))
        previous = rent
    return DeedPayback(deed, share, alone, tuple(steps))


def deed_table(edition: Edition, landing: Landing, *, max_houses: int = MAX_HOUSES) -> list[DeedPayback]:
    """Every deed in board order."""
    return [deed_payback(edition, landing, d, max_houses=max_houses) for d in edition.properties]
