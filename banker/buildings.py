"""Houses and hotels (§6): even building and selling, the 32/12 stock, hotels, shortage auctions."""

from __future__ import annotations

from banker import checks
from banker.actions import Build, SellAllBuildings, SellBuilding, SellBuildings
from banker.edition import Property
from banker.errors import BadInput, IllegalAction
from banker.state import BANK, GameState
from banker.work import Work


def check_can_build(w: Work, who: int, prop: Property, *, stock: bool = True) -> None:
    """Everything §6 asks before a building goes up on ``prop``, except the price."""
    checks.street(w, prop)
    checks.owner_is(w, who, prop)
    members = checks.group_members(w, prop)
    for number in members:
        other = w.edition.properties[number]
        owner = w.props[number].owner
        if owner != who:
            raise IllegalAction("build_needs_group", player=w.name(who), property=prop.name, missing=other.name,
                                owner=w.name(owner) if owner is not None else "bank")
    for number in members:
        if w.props[number].mortgaged:
            raise IllegalAction("build_group_mortgaged", player=w.name(who), property=prop.name,
                                mortgaged=w.edition.properties[number].name)
    level = w.level(prop.number)
    if level >= w.rules.hotel_level:
        raise IllegalAction("build_has_hotel", property=prop.name)
    lowest = min(w.level(n) for n in members)
    if level > lowest:
        first = next(w.edition.properties[n] for n in members if w.level(n) == lowest)
        raise IllegalAction("build_evenly", property=prop.name, first=first.name)
    if stock:
        if level + 1 == w.rules.hotel_level:
            if w.bank_hotels < 1:
                raise IllegalAction("no_hotels_left", property=prop.name)
        elif w.bank_houses < 1:
            raise IllegalAction("no_houses_left", property=prop.name)


def building_demand(w: Work, building: str) -> dict[int, int]:
    """What each player could put up of ``building`` ("house" or "hotel") on their own whole street groups
    with no street mortgaged, by seat: the houses still missing below the hotel on each street, or the
    streets with all their houses and no hotel yet. Players who may not build now (bankrupt, or with a
    debt to pay first) want nothing; nor does a player whose streets have room for none."""
    demand: dict[int, int] = {}
    max_houses = w.rules.max_houses
    for members in w.edition.groups.values():
        first = w.props[members[0]]
        seat = first.owner
        if seat is None or w.edition.properties[members[0]].kind != "street":
            continue
        if w.players[seat].bankrupt or w.has_debt(seat):
            continue
        if any(w.props[n].owner != seat or w.props[n].mortgaged for n in members):
            continue
        streets = [w.props[n] for n in members if not w.props[n].hotel]
        if building == "house":
            wanted = sum(max_houses - ps.houses for ps in streets)
        else:
            wanted = sum(1 for ps in streets if ps.houses == max_houses)
        if wanted:
            demand[seat] = demand.get(seat, 0) + wanted
    return demand


def check_shortage(w: Work, building: str, stock: int) -> None:
    """§6.6: the bank auctions a building only in a shortage, when two or more players who may build want
    more of it than the bank has. Raises :class:`IllegalAction` (with what the bank has and what they
    could put up) otherwise."""
    demand = building_demand(w, building)
    if len(demand) < 2:
        raise IllegalAction(f"no_{building}_rivals")
    wanted = sum(demand.values())
    if wanted <= stock:
        raise IllegalAction(f"no_{building}_shortage", left=stock, wanted=wanted)


def sell_price(prop: Property) -> int:
    """What the bank pays back for one building on ``prop``: half its price (§6.5)."""
    return prop.house_price // 2


def shortage_breakdown(state: GameState, prop: Property) -> dict[str, int] | None:
    """When the bank lacks the houses to take the hotel on ``prop`` down one step (§6.7): the even levels
    of the group, as a ``sell_buildings`` action's ``levels``, that keep the most buildings the bank's
    houses allow (the earlier streets keeping the extra one); ``None`` when there is no hotel, when one
    step down works, or when no even break-down does."""
    from banker.engine import apply

    ps = state.props[prop.number]
    if not ps.hotel or ps.owner is None:
        return None
    name = state.players[ps.owner].name
    try:
        apply(state, SellBuilding(name, prop.id))
        return None
    except IllegalAction:
        pass
    members = state.edition.groups[prop.group]
    levels = {n: state.level(n) for n in members}
    for top in range(max(levels.values()) - 1, 0, -1):
        for extra in range(len(members), -1, -1):
            wanted = {n: min(levels[n], top - 1 + (1 if i < extra else 0)) for i, n in enumerate(members)}
            if max(wanted.values()) - min(wanted.values()) > 1 or wanted == levels:
                continue
            targets = {state.edition.properties[n].id: v for n, v in wanted.items()}
            try:
                apply(state, SellBuildings(name, targets))
            except IllegalAction:
                continue
            return targets
    return None


def free_houses(w: Work) -> int:
    """Houses the bank can hand out now: a house under auction is not among them until it closes."""
    auction = w.auction
    return w.bank_houses - (1 if auction is not None and auction.building == "house" else 0)


def put_up(w: Work, prop: Property) -> str:
    """Place the next building on ``prop`` from the bank's stock; returns "house" or "hotel"."""
    ps = w.props[prop.number]
    if ps.houses + 1 == w.rules.hotel_level:
        w.set_prop(prop.number, houses=0, hotel=True)
        w.bank_hotels -= 1
        w.bank_houses += w.rules.max_houses
        return "hotel"
    w.set_prop(prop.number, houses=ps.houses + 1)
    w.bank_houses -= 1
    return "house"


def build(w: Work, a: Build) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    check_can_build(w, who, prop)
    checks.cash_covers(w, who, prop.house_price, prop.name)
    txn = w.transfer(a.player, BANK, prop.house_price, "build")
    kind = put_up(w, prop)
    w.event("built", txn, player=a.player, property=prop.id, building=kind, amount=prop.house_price,
            houses=w.props[prop.number].houses, hotel=w.props[prop.number].hotel)


def sell_building(w: Work, a: SellBuilding) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    checks.street(w, prop)
    checks.owner_is(w, who, prop)
    level = w.level(prop.number)
    if level == 0:
        raise IllegalAction("no_buildings", property=prop.name)
    members = checks.group_members(w, prop)
    highest = max(w.level(n) for n in members)
    if level < highest:
        first = next(w.edition.properties[n] for n in members if w.level(n) == highest)
        raise IllegalAction("sell_evenly", property=prop.name, first=first.name)
    half = sell_price(prop)
    ps = w.props[prop.number]
    if not ps.hotel:
        w.set_prop(prop.number, houses=ps.houses - 1)
        w.bank_houses += 1
        txn = w.transfer(BANK, a.player, half, "sell_building")
        w.event("sold_building", txn, player=a.player, property=prop.id, building="house", amount=half,
                houses=ps.houses - 1, hotel=False)
        return
    # A hotel comes down to houses only if the bank can supply them (§6.7).
    free = max(0, free_houses(w))
    left = min(w.rules.max_houses, free)
    others = [w.level(n) for n in members if n != prop.number]
    if left < w.rules.max_houses and any(abs(level_ - left) > 1 for level_ in others):
        raise IllegalAction("hotel_breakdown_short", property=prop.name, houses=free,
                            needed=w.rules.max_houses)
    levels_sold = w.rules.hotel_level - left
    w.set_prop(prop.number, houses=left, hotel=False)
    w.bank_hotels += 1
    w.bank_houses -= left
    amount = half * levels_sold
    txn = w.transfer(BANK, a.player, amount, "sell_building")
    w.event("sold_building", txn, player=a.player, property=prop.id, building="hotel", amount=amount,
            houses=left, hotel=False)


def sell_all(w: Work, a: SellAllBuildings) -> None:
    who = checks.seat(w, a.player)
    prop = checks.deed(w, a.property)
    checks.street(w, prop)
    checks.owner_is(w, who, prop)
    if checks.group_has_buildings(w, prop) is None:
        raise IllegalAction("no_buildings_in_group", property=prop.name)
    amount = return_group_buildings(w, prop.group)
    txn = w.transfer(BANK, a.player, amount, "sell_building")
    w.event("sold_all_buildings", txn, player=a.player, group=prop.group, amount=amount)


def sell_buildings(w: Work, a: SellBuildings) -> None:
    """Bring the streets of one group down to the levels named, in one go (§6.7).

    This is how a hotel comes down in a house shortage: the owner sells further, on the hotel's street
    and on the others, until the bank can supply the houses left standing.
    """
    who = checks.seat(w, a.player)
    if not a.levels:
        raise BadInput("levels_empty")
    targets: dict[int, int] = {}
    group = ""
    for property_id, level in a.levels.items():
        prop = checks.deed(w, property_id)
        checks.street(w, prop)
        if group and prop.group != group:
            raise IllegalAction("levels_one_group", property=prop.name)
        checks.owner_is(w, who, prop)
        group = prop.group
        current = w.level(prop.number)
        if not 0 <= level <= current:
            raise IllegalAction("levels_not_lower", property=prop.name, level=level, current=current)
        targets[prop.number] = level
    members = w.edition.groups[group]
    after = {n: targets.get(n, w.level(n)) for n in members}
    if all(after[n] == w.level(n) for n in members):
        raise IllegalAction("levels_nothing_sold")
    if max(after.values()) - min(after.values()) > 1:
        raise IllegalAction("levels_uneven", levels=", ".join(
            f"{w.edition.properties[n].name} {after[n]}" for n in members))
    hotel_level = w.rules.hotel_level
    houses_before = sum(w.props[n].houses for n in members)
    houses_after = sum(level for level in after.values() if level < hotel_level)
    needed = houses_after - houses_before
    free = max(0, free_houses(w))
    if needed > free:
        raise IllegalAction("levels_short", houses=free, needed=needed)
    amount = 0
    hotels_back = 0
    for n in members:
        level = after[n]
        sold = w.level(n) - level
        if not sold:
            continue
        amount += w.edition.properties[n].house_price // 2 * sold
        if w.props[n].hotel:
            hotels_back += 1
        w.set_prop(n, houses=level if level < hotel_level else 0, hotel=level == hotel_level)
    w.bank_houses -= needed
    w.bank_hotels += hotels_back
    txn = w.transfer(BANK, a.player, amount, "sell_building")
    w.event("sold_buildings", txn, player=a.player, group=group, amount=amount,
            levels={w.edition.properties[n].id: after[n] for n in members})


def return_group_buildings(w: Work, group: str) -> int:
    """Take every building of a group back into the bank's stock; returns half their cost."""
    total = 0
    for number in w.edition.groups[group]:
        ps = w.props[number]
        price = w.edition.properties[number].house_price
        if ps.hotel:
            w.bank_hotels += 1
            total += price // 2 * w.rules.hotel_level
        elif ps.houses:
            w.bank_houses += ps.houses
            total += price // 2 * ps.houses
        if ps.hotel or ps.houses:
            w.set_prop(number, houses=0, hotel=False)
    return total
