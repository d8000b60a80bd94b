"""Deeds: buying (§3), auctions (§3.2, §6.6, §9.2), rent (§4) and mortgages (§7)."""

from __future__ import annotations

from collections.abc import Sequence

from banker import checks
from banker.actions import (
    AuctionClose,
    Bid,
    BuildingAuction,
    Buy,
    KeepMortgaged,
    Mortgage,
    Rent,
    StartAuction,
    Unmortgage,
)
from banker.buildings import check_can_build, check_shortage, put_up
from banker.edition import Edition, Property
from banker.errors import BadInput, IllegalAction
from banker.rules import Rules
from banker.state import BANK, Auction, PropertyState
from banker.work import Work

RAILROAD_RENT = (25, 50, 100, 200)
UTILITY_MULTIPLIER = (4, 10)
RENT_CARDS = {"nearest_railroad": "railroad", "nearest_utility": "utility"}


def utilities_owned(edition: Edition, props: Sequence[PropertyState], prop: Property) -> int:
    """How many deeds of ``prop``'s group its owner holds (the utilities' count that sets the multiplier)."""
    owner = props[prop.number].owner
    return sum(1 for n in edition.groups[prop.group] if owner is not None and props[n].owner == owner)


def utility_multiplier(edition: Edition, props: Sequence[PropertyState], prop: Property) -> int:
    """The dice multiplier of an owned utility: 4 with one utility, 10 with both (§4.4)."""
    return UTILITY_MULTIPLIER[max(1, utilities_owned(edition, props, prop)) - 1]


def needs_dice(edition: Edition, props: Sequence[PropertyState], prop: Property, card: str | None) -> bool:
    """Whether the rent of ``prop`` needs the dice: an owned, unmortgaged utility."""
    del edition
    ps = props[prop.number]
    return prop.kind == "utility" and ps.owner is not None and not ps.mortgaged and card != "nearest_railroad"


def rent_for(edition: Edition, rules: Rules, props: Sequence[PropertyState], prop: Property,
             dice: int | None = None, card: str | None = None) -> tuple[int, str]:
    """The rent ``prop`` earns now and why: (amount, basis). Raises :class:`BadInput` if dice are needed."""
    ps = props[prop.number]
    if card is not None:
        if card not in RENT_CARDS:
            raise BadInput("bad_rent_card", card=card, known=", ".join(RENT_CARDS))
        if RENT_CARDS[card] != prop.kind:
            raise IllegalAction("rent_card_mismatch", card=card, property=prop.name)
    if ps.owner is None:
        return 0, "unowned"
    if ps.mortgaged:
        return 0, "mortgaged"
    members = edition.groups[prop.group]
    owned = [n for n in members if props[n].owner == ps.owner]
    if prop.kind == "railroad":
        amount = RAILROAD_RENT[len(owned) - 1]
        if card == "nearest_railroad":
            return amount * 2, "railroad_card"
        return amount, f"railroads_{len(owned)}"
    if prop.kind == "utility":
        if dice is None:
            raise BadInput("dice_needed", property=prop.name)
        if not 2 <= dice <= 12:
            raise BadInput("bad_dice", dice=dice)
        if card == "nearest_utility":
            return 10 * dice, "utility_card"
        multiplier = UTILITY_MULTIPLIER[len(owned) - 1]
        return multiplier * dice, f"utilities_{len(owned)}"
    if ps.hotel:
        return prop.rent[5], "hotel"
    if ps.houses:
        return prop.rent[ps.houses], f"houses_{ps.houses}"
    if len(owned) == len(members):
        if any(props[n].mortgaged for n in members) and not rules.double_rent_with_mortgage:
            return prop.rent[0], "group_mortgaged"
        return prop.rent[0] * 2, "double"
    return prop.rent[0], "base"


def buy(w: Work, a: Buy) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    owner = w.props[prop.number].owner
    if owner is not None:
        raise IllegalAction("already_owned", property=prop.name, owner=w.name(owner))
    price = prop.price if a.price is None else a.price
    checks.positive(price, "price")
    checks.cash_covers(w, who, price, prop.name)
    txn = w.transfer(a.player, BANK, price, "buy")
    w.set_prop(prop.number, owner=who, mortgaged=False)
    w.event("bought", txn, player=a.player, property=prop.id, amount=price)


def start_auction(w: Work, a: StartAuction) -> None:
    prop = checks.deed(w, a.property)
    owner = w.props[prop.number].owner
    if owner is not None:
        raise IllegalAction("already_owned", property=prop.name, owner=w.name(owner))
    excluded: tuple[int, ...] = ()
    if a.declined_by is not None:
        decliner = checks.seat(w, a.declined_by)
        if not w.rules.decliner_may_bid:
            excluded = (decliner,)
    w.auction = Auction(property=prop.number, excluded=excluded)
    w.event("auction_opened", property=prop.id, excluded=[w.name(s) for s in excluded])


def building_auction(w: Work, a: BuildingAuction) -> None:
    if a.building not in ("house", "hotel"):
        raise BadInput("bad_building", building=a.building)
    stock = w.bank_houses if a.building == "house" else w.bank_hotels
    if stock < 1:
        raise IllegalAction("no_houses_left" if a.building == "house" else "no_hotels_left", property="-")
    check_shortage(w, a.building, stock)
    w.auction = Auction(property=None, building=a.building)
    w.event("auction_opened", building=a.building, left=stock)


def bid(w: Work, a: Bid) -> None:
    auction = w.auction
    if auction is None:
        raise IllegalAction("no_auction")
    who = checks.seat(w, a.player)
    checks.positive(a.amount, "amount")
    if who in auction.excluded:
        raise IllegalAction("decliner_may_not_bid", player=a.player)
    if a.amount <= auction.high_bid:
        raise IllegalAction("bid_too_low", amount=w.money(a.amount), high=w.money(auction.high_bid),
                            bidder=w.name(auction.high_bidder) if auction.high_bidder is not None else "-")
    checks.cash_covers(w, who, a.amount, "bid")
    target: int | None = None
    if auction.building:
        if a.property is None:
            raise BadInput("bid_needs_property", building=auction.building)
        prop = checks.deed(w, a.property)
        check_can_build(w, who, prop, stock=False)
        next_is_hotel = w.level(prop.number) + 1 == w.rules.hotel_level
        if next_is_hotel != (auction.building == "hotel"):
            raise IllegalAction("bid_wrong_building", property=prop.name, building=auction.building)
        if a.amount < prop.house_price:
            raise IllegalAction("bid_below_price", amount=w.money(a.amount), price=w.money(prop.house_price))
        target = prop.number
    elif a.property is not None and a.property != w.edition.properties[auction.property or 0].id:
        raise IllegalAction("bid_other_property", property=checks.deed(w, a.property).name)
    w.auction = Auction(auction.property, auction.building, a.amount, who, target, auction.excluded,
                        auction.queue, auction.claims)
    w.event("bid", player=a.player, amount=a.amount)


def check_bid_stands(w: Work) -> None:
    """Refuse a change (a mortgage, a building sold) that would leave the building auction's high bid
    impossible to honour: the bidder keeps the bid they made until the auction closes."""
    auction = w.auction
    if auction is None or not auction.building or auction.high_bidder is None:
        return
    assert auction.high_property is not None
    prop = w.edition.properties[auction.high_property]
    winner = auction.high_bidder
    next_is_hotel = w.level(prop.number) + 1 == w.rules.hotel_level
    try:
        check_can_build(w, winner, prop)
    except IllegalAction:
        pass
    else:
        if next_is_hotel == (auction.building == "hotel"):
            return
    raise IllegalAction("auction_bid_stands", player=w.name(winner), building=auction.building,
                        property=prop.name, amount=w.money(auction.high_bid))


def auction_close(w: Work, _a: AuctionClose) -> None:
    auction = w.auction
    if auction is None:
        raise IllegalAction("no_auction")
    w.auction = None
    winner = auction.high_bidder
    claims = list(auction.claims)
    if auction.building:
        if winner is None:
            w.event("auction_no_bids", building=auction.building)
            return
        assert auction.high_property is not None
        prop = w.edition.properties[auction.high_property]
        check_can_build(w, winner, prop)
        checks.cash_covers(w, winner, auction.high_bid, "bid")
        txn = w.transfer(w.name(winner), BANK, auction.high_bid, "auction")
        kind = put_up(w, prop)
        w.event("auction_won", txn, player=w.name(winner), building=kind, property=prop.id, amount=auction.high_bid)
        return
    assert auction.property is not None
    prop = w.edition.properties[auction.property]
    if winner is None:
        w.event("auction_no_bids", property=prop.id)
    else:
        checks.cash_covers(w, winner, auction.high_bid, "bid")
        if claims:
            shares, claims = share_out(auction.high_bid, claims)
            txn = w.split(w.name(winner), shares, "auction")
        else:
            txn = w.transfer(w.name(winner), BANK, auction.high_bid, "auction")
        w.set_prop(prop.number, owner=winner, mortgaged=False)
        w.event("auction_won", txn, player=w.name(winner), property=prop.id, amount=auction.high_bid)
    if auction.queue:
        nxt = auction.queue[0]
        w.auction = Auction(property=nxt, queue=auction.queue[1:], claims=tuple(c for c in claims if c[1] > 0))
        w.event("auction_opened", property=w.edition.properties[nxt].id, excluded=[])
        return
    from banker.settlement import check_end

    check_end(w)  # a short game's last bankruptcy is counted once its auctions are over


def share_out(amount: int, claims: list[tuple[str, int]]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Split ``amount`` among unpaid creditors in proportion to their claims (§9.4).

    Whole units by largest remainder; no creditor gets more than its claim; what is left goes to the
    bank. Returns the shares and the claims still unpaid.
    """
    total = sum(c for _, c in claims)
    if total <= amount:
        shares = [(name, claim) for name, claim in claims if claim > 0]
        if amount > total:
            shares.append((BANK, amount - total))
        return _merge(shares), [(name, 0) for name, _ in claims]
    base = [amount * claim // total for _, claim in claims]
    remainders = sorted(range(len(claims)), key=lambda i: (-(amount * claims[i][1] % total), i))
    for i in remainders[: amount - sum(base)]:
        base[i] += 1
    shares = [(claims[i][0], base[i]) for i in range(len(claims)) if base[i] > 0]
    left = [(claims[i][0], claims[i][1] - base[i]) for i in range(len(claims))]
    return _merge(shares), left


def _merge(shares: list[tuple[str, int]]) -> list[tuple[str, int]]:
    merged: dict[str, int] = {}
    for name, amount in shares:
        merged[name] = merged.get(name, 0) + amount
    return list(merged.items())


def rent(w: Work, a: Rent) -> None:
    payer = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    owner = w.props[prop.number].owner
    if owner is None:
        raise IllegalAction("rent_unowned", property=prop.name)
    if owner == payer:
        raise IllegalAction("rent_own", player=a.player, property=prop.name)
    amount, basis = rent_for(w.edition, w.rules, w.props, prop, a.dice, a.card)
    if amount == 0:
        w.event("no_rent", player=a.player, property=prop.id, basis=basis)
        return
    w.charge(payer, w.name(owner), amount, "rent", property=prop.id, basis=basis)


def mortgage(w: Work, a: Mortgage) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    checks.owner_is(w, who, prop)
    if w.props[prop.number].mortgaged:
        raise IllegalAction("already_mortgaged", property=prop.name)
    built = checks.group_has_buildings(w, prop)
    if built is not None:
        if w.level(prop.number):
            raise IllegalAction("mortgage_own_buildings", property=prop.name)
        raise IllegalAction("mortgage_buildings", property=prop.name, built=built.name)
    txn = w.transfer(BANK, a.player, prop.mortgage, "mortgage")
    w.set_prop(prop.number, mortgaged=True)
    w.event("mortgaged", txn, player=a.player, property=prop.id, amount=prop.mortgage)


def unmortgage(w: Work, a: Unmortgage) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    checks.owner_is(w, who, prop)
    if not w.props[prop.number].mortgaged:
        raise IllegalAction("not_mortgaged", property=prop.name)
    cost = w.rules.lift_cost(prop.mortgage)
    checks.cash_covers(w, who, cost, prop.name)
    txn = w.transfer(a.player, BANK, cost, "unmortgage")
    w.set_prop(prop.number, mortgaged=False)
    w.decisions = [d for d in w.decisions if not (d.player == who and d.property == prop.number)]
    w.event("unmortgaged", txn, player=a.player, property=prop.id, amount=cost)


def keep_mortgaged(w: Work, a: KeepMortgaged) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    pending = [d for d in w.decisions if d.player == who and d.property == prop.number]
    if not pending:
        raise IllegalAction("no_decision", player=a.player, property=prop.name)
    w.decisions = [d for d in w.decisions if d is not pending[0]]
    fee = w.rules.interest(prop.mortgage)
    w.event("kept_mortgaged", player=a.player, property=prop.id, amount=fee)
    w.charge(who, BANK, fee, "mortgage_interest", property=prop.id)
