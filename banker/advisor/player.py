"""Advice for one player of a game in progress: what each of their groups earns and what to buy next.

Everything is measured as ``banker advise`` measures it: the rent a purchase adds per opponent throw
(the long-run landing shares times the printed rents), and the opponent throws it takes to earn its
price back; a round is every opponent's turn once, so in rounds it is the throws divided by the
opponents' throws per round (their number times the throws per turn, doubles included).

Which building comes next on a group is the advisor's judgement (the lowest streets of a whole group,
as even building asks); whether the player may buy it now and what it takes from their cash is the
engine's (:mod:`banker.advisor.offers`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from banker.advisor.game import deed_income, income_of
from banker.advisor.markov import Landing, landing_distribution
from banker.advisor.offers import Purchase, purchases
from banker.advisor.payback import GroupPayback, Step
from banker.advisor.report import Report
from banker.advisor.tables import Assumptions
from banker.deeds import rent_for
from banker.edition import Edition, Property
from banker.errors import BankerError
from banker.rules import Rules
from banker.state import GameState, PropertyState

Money = int
COUNTED = ("railroad", "utility")
"""Groups that earn by how many of them one owner has, and take no buildings."""


@dataclass(frozen=True, slots=True)
class Valued:
    """A purchase with what it earns."""

    purchase: Purchase
    gain_per_throw: float
    """Rent it adds to the player's deeds per opponent throw."""
    throws_per_round: float
    """Opponent throws in one round of this game."""
    building: str = ""
    """"house" or "hotel" for a building; "" otherwise."""

    @property
    def cost(self) -> Money:
        return self.purchase.cost

    @property
    def payback_throws(self) -> float:
        """Opponent throws to earn the cost back; infinite when it adds no rent."""
        return self.cost / self.gain_per_throw if self.gain_per_throw > 0 else math.inf

    @property
    def payback_rounds(self) -> float:
        return self.payback_throws / self.throws_per_round if self.throws_per_round > 0 else math.inf


@dataclass(frozen=True, slots=True)
class DeedAdvice:
    deed: Property
    share: float
    """Share of throws ending on its square."""
    owner: int | None
    level: int
    """Houses on it, ``max_houses + 1`` for a hotel; 0 for a railroad or a utility."""
    mortgaged: bool
    rent: Money
    """What an opponent landing on it pays now (a utility: per point of the dice)."""
    per_dice_point: bool
    """The rent is times the dice (a utility)."""
    rent_per_throw: float
    """Expected rent it earns its owner per opponent throw now."""
    next: Valued | None
    """For the player's own deed: its next building, or lifting its mortgage; for a deed of the bank:
    buying it. ``None`` otherwise."""


@dataclass(frozen=True, slots=True)
class GroupAdvice:
    group: str
    deeds: tuple[DeedAdvice, ...]
    owned: int
    """Deeds of the group the player has."""
    status: str
    """"complete" (the player has them all), "open" (the others are the bank's) or "blocked"
    (another player has some)."""
    level: int
    """Where the group stands in :attr:`steps`: the lowest street's buildings (a street group the
    player has whole), or the number the player has (railroads, utilities); -1 otherwise."""
    steps: tuple[Step, ...]
    """The published table's steps for the group: the deeds, each round of houses, the hotels (or one
    railroad or utility more each)."""
    next: Valued | None
    """The group's next purchase, fastest payback first, one the player can make now before one they
    cannot: the next building (a whole group), the missing deed (an open one)."""
    rent_per_throw: float
    """Expected rent the player's deeds of the group earn per opponent throw now."""

    @property
    def share(self) -> float:
        return sum(d.share for d in self.deeds)

    @property
    def next_step(self) -> Step | None:
        """The group's next round of buildings in :attr:`steps` (a whole street group below hotels)."""
        if self.status != "complete" or self.group in COUNTED:
            return None
        return next((s for s in self.steps if s.level == self.level + 1), None)


@dataclass(frozen=True, slots=True)
class AuctionWorth:
    deed: Property
    gain_per_throw: float
    throws_per_round: float
    high_bid: Money

    def payback_throws(self, price: Money) -> float:
        return price / self.gain_per_throw if self.gain_per_throw > 0 else math.inf

    def payback_rounds(self, price: Money) -> float:
        return self.payback_throws(price) / self.throws_per_round if self.throws_per_round > 0 else math.inf


@dataclass(frozen=True, slots=True)
class PlayerAdvice:
    seat: int
    name: str
    cash: Money
    opponents: int
    """Players still in the game besides this one."""
    throws_per_round: float
    """Opponent throws in one round: :attr:`opponents` times the throws per turn."""
    groups: tuple[GroupAdvice, ...]
    """Every group the player has a deed of, in board order."""
    best: Valued | None
    """The building or mortgage lift the player can afford now that pays back fastest."""
    for_sale: tuple[Valued, ...]
    """The bank's deeds, fastest payback for this player first."""
    auction: AuctionWorth | None
    """The deed at auction, valued for this player."""
    income_per_throw: float
    """Expected rent all the player's deeds earn per opponent throw now."""

    def deed(self, property_id: str) -> DeedAdvice | None:
        """The advice on one of the player's deeds (or another deed of their groups), by its id."""
        for group in self.groups:
            for deed in group.deeds:
                if deed.deed.id == property_id:
                    return deed
        return None


def player_advice(state: GameState, seat: int, report: Report) -> PlayerAdvice:
    """The advice for the player at ``seat`` under ``report``'s figures (those of the game's edition and
    house rules)."""
    landing = report.landing
    player = state.players[seat]
    opponents = sum(1 for other, p in enumerate(state.players) if other != seat and not p.bankrupt)
    per_round = opponents * landing.throws_per_turn
    income = income_of(state, seat, landing)
    offered = purchases(state, seat) if not player.bankrupt else []
    by_deed: dict[int, list[Purchase]] = {}
    for purchase in offered:
        by_deed.setdefault(purchase.deed.number, []).append(purchase)
    paybacks = {g.group: g for g in report.groups}
    valued: dict[tuple[int, str], Valued] = {}
    for purchase in offered:
        valued[(purchase.deed.number, purchase.kind)] = _value(state, seat, landing, purchase, per_round)
    groups = tuple(
        _group(state, seat, landing, group, members, paybacks[group], valued)
        for group, members in state.edition.groups.items()
        if group in paybacks and any(state.props[n].owner == seat for n in members)
    )
    possible = [v for v in valued.values() if v.purchase.possible and v.purchase.kind in ("build", "unmortgage")]
    best = min(possible, key=_order, default=None)
    for_sale = tuple(sorted((v for v in valued.values() if v.purchase.kind == "buy"), key=_order))
    return PlayerAdvice(seat, player.name, player.cash, opponents, per_round, groups, best, for_sale,
                        _auction(state, seat, landing, per_round), income)


def _order(valued: Valued) -> tuple[float, Money, int]:
    return valued.payback_throws, valued.cost, valued.purchase.deed.number


def _value(state: GameState, seat: int, landing: Landing, purchase: Purchase, per_round: float) -> Valued:
    number = purchase.deed.number
    ps = state.props[number]
    building = ""
    if purchase.kind == "build":
        hotel = ps.houses + 1 == state.rules.hotel_level
        building = "hotel" if hotel else "house"
        after = replace(ps, houses=0, hotel=True) if hotel else replace(ps, houses=ps.houses + 1)
    elif purchase.kind == "unmortgage":
        after = replace(ps, mortgaged=False)
    else:
        after = PropertyState(owner=seat)
    return Valued(purchase, _gain(state, seat, landing, number, after), per_round, building)


@dataclass(frozen=True, slots=True)
class _Board:
    """The deeds as they would be after a purchase (the rest of the state is not needed for the rents)."""

    edition: Edition
    rules: Rules
    props: tuple[PropertyState, ...]


def _gain(state: GameState, seat: int, landing: Landing, number: int, deed: PropertyState) -> float:
    """What the player's rent per opponent throw gains when deed ``number`` becomes ``deed``: a deed's rent
    depends only on its own group, so only the group is counted again."""
    members = state.edition.groups[state.edition.properties[number].group]
    after = _Board(state.edition, state.rules, state.props[:number] + (deed,) + state.props[number + 1:])

    def earned(board: GameState | _Board) -> float:
        return sum(deed_income(board, n, landing) for n in members if board.props[n].owner == seat)

    return earned(after) - earned(state)


def _group(state: GameState, seat: int, landing: Landing, group: str, members: tuple[int, ...],
           payback: GroupPayback, valued: dict[tuple[int, str], Valued]) -> GroupAdvice:
    owners = [state.props[n].owner for n in members]
    owned = sum(1 for o in owners if o == seat)
    if owned == len(members):
        status = "complete"
    elif all(o in (seat, None) for o in owners):
        status = "open"
    else:
        status = "blocked"
    if group in COUNTED:
        level = owned
    elif status == "complete":
        level = min(state.level(n) for n in members)
    else:
        level = -1
    deeds = tuple(_deed(state, seat, landing, n, valued) for n in members)
    candidates: list[Valued] = []
    if status == "complete" and group not in COUNTED:
        if not any(state.props[n].mortgaged for n in members):
            candidates = [valued[(n, "build")] for n in members
                          if state.level(n) == level and (n, "build") in valued]
        else:
            candidates = [valued[(n, "unmortgage")] for n in members if (n, "unmortgage") in valued]
    elif status in ("open", "complete"):
        candidates = [valued[(n, kind)] for n in members for kind in ("buy", "unmortgage") if (n, kind) in valued]
    ready = [c for c in candidates if c.purchase.possible]
    best = min(ready or candidates, key=_order, default=None)
    earning = sum(d.rent_per_throw for d in deeds if d.owner == seat)
    return GroupAdvice(group, deeds, owned, status, level, payback.steps, best, earning)


def _deed(state: GameState, seat: int, landing: Landing, number: int,
          valued: dict[tuple[int, str], Valued]) -> DeedAdvice:
    prop = state.edition.properties[number]
    ps = state.props[number]
    per_dice = prop.kind == "utility"
    try:
        # A utility's rent is a multiple of the dice: asked for a throw of 2, halved.
        rent, _ = rent_for(state.edition, state.rules, state.props, prop, dice=2 if per_dice else None)
    except BankerError:  # pragma: no cover - every deed has a rent for a plain landing
        rent = 0
    if per_dice:
        rent //= 2
    found = None
    if ps.owner is None:
        found = valued.get((number, "buy"))
    elif ps.owner == seat:
        if ps.mortgaged:
            found = valued.get((number, "unmortgage"))
        elif buildable(state, seat, prop):
            found = valued.get((number, "build"))
    return DeedAdvice(prop, landing.cells[prop.square], ps.owner,
                      0 if prop.kind in COUNTED else state.level(number), ps.mortgaged, rent, per_dice,
                      deed_income(state, number, landing), found)


def buildable(state: GameState, seat: int, prop: Property) -> bool:
    """Whether ``prop`` is a street below a hotel in a group the player at ``seat`` has whole and
    unmortgaged: one that has a next building (even building may ask for the others' first)."""
    if prop.kind != "street" or state.level(prop.number) >= state.rules.hotel_level:
        return False
    members = state.edition.groups[prop.group]
    return all(state.props[n].owner == seat and not state.props[n].mortgaged for n in members)


def _auction(state: GameState, seat: int, landing: Landing, per_round: float) -> AuctionWorth | None:
    auction = state.auction
    if auction is None or auction.property is None or state.players[seat].bankrupt:
        return None
    prop = state.edition.properties[auction.property]
    gain = _gain(state, seat, landing, prop.number, PropertyState(owner=seat))
    return AuctionWorth(prop, gain, per_round, auction.high_bid)


def next_building(state: GameState, seat: int, prop: Property, landing: Landing) -> Valued | None:
    """The next house or hotel on ``prop`` for the player at ``seat``, valued; ``None`` when the street
    has none (not a whole unmortgaged group of theirs, or a hotel already)."""
    if not buildable(state, seat, prop):
        return None
    offer = next((p for p in purchases(state, seat, deed=prop) if p.kind == "build"), None)
    if offer is None:  # pragma: no cover - a buildable street always has a building to offer
        return None
    opponents = sum(1 for other, p in enumerate(state.players) if other != seat and not p.bankrupt)
    return _value(state, seat, landing, offer, opponents * landing.throws_per_turn)


def next_building_line(state: GameState, seat: int, prop: Property) -> tuple[str, dict[str, int]] | None:
    """The owner's menu line at the table, "Next house pays back in 9 throws", as a catalogue key and its
    parameters; ``None`` when the street has no next building or the game plays without advice."""
    if not state.rules.advice:
        return None
    assumptions = Assumptions.of(state.rules)
    valued = next_building(state, seat, prop, landing_distribution(state.edition, assumptions.move))
    if valued is None or math.isinf(valued.payback_throws):
        return None
    return f"advisor_next_{valued.building}", {"count": math.floor(valued.payback_throws + 0.5)}
