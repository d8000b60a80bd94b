"""Invariants that hold after every action; pure functions returning the list of what is wrong."""

from __future__ import annotations

from banker.state import GameState


def invariant_errors(state: GameState) -> list[str]:
    errors: list[str] = []
    rules, edition = state.rules, state.edition
    total = state.bank + state.pot + sum(p.cash for p in state.players)
    if total != 0:
        errors.append(f"money not conserved: bank+pot+players = {total}")
    if state.pot < 0:
        errors.append(f"pot is negative: {state.pot}")
    for p in state.players:
        if p.cash < 0:
            errors.append(f"{p.name} has negative cash {p.cash}")
        if p.bankrupt and (p.cash or p.jail_cards or p.in_jail):
            errors.append(f"bankrupt {p.name} still holds cash, cards or a jail place")
    houses = hotels = 0
    props = state.props
    players = state.players
    hotel_level = rules.hotel_level
    built_groups: set[str] = set()
    for prop, ps in zip(edition.properties, props, strict=True):
        owner = ps.owner
        if owner is None:
            if ps.mortgaged:
                errors.append(f"{prop.id}: mortgaged but owned by the bank")
        elif not 0 <= owner < len(players):
            errors.append(f"{prop.id}: owner seat {owner} does not exist")
        elif players[owner].bankrupt:
            errors.append(f"{prop.id}: owned by bankrupt {players[owner].name}")
        if not (ps.houses or ps.hotel):
            continue
        houses += ps.houses
        hotels += ps.hotel
        if prop.kind != "street":
            errors.append(f"{prop.id}: buildings on a {prop.kind}")
        if ps.hotel and ps.houses:
            errors.append(f"{prop.id}: hotel and houses at once")
        if ps.houses > rules.max_houses:
            errors.append(f"{prop.id}: {ps.houses} houses")
        built_groups.add(prop.group)
    for group in built_groups:
        members = edition.groups[group]
        owner = props[members[0]].owner
        if any(props[n].owner != owner for n in members):
            errors.append(f"{group}: built on an incomplete group")
        if any(props[n].mortgaged for n in members):
            errors.append(f"{group}: built on a group with a mortgage")
        levels = [hotel_level if props[n].hotel else props[n].houses for n in members]
        if max(levels) - min(levels) > 1:
            errors.append(f"{group}: uneven buildings {levels}")
    if houses + state.bank_houses != rules.houses:
        errors.append(f"houses: {houses} built + {state.bank_houses} in bank != {rules.houses}")
    if hotels + state.bank_hotels != rules.hotels:
        errors.append(f"hotels: {hotels} built + {state.bank_hotels} in bank != {rules.hotels}")
    if state.bank_houses < 0 or state.bank_hotels < 0:
        errors.append("bank building stock is negative")
    held_cards = [deck for p in players for deck in p.jail_cards]
    if held_cards:
        for deck in ("chance", "community_chest"):
            held = held_cards.count(deck)
            available = sum(1 for c in edition.decks[deck] if c.kind == "jail_free")
            if held > available:
                errors.append(f"{held} jail cards of {deck} held, the deck has {available}")
    for d in state.debts:
        if d.amount <= 0:
            errors.append(f"debt of {d.amount}")
        if state.players[d.debtor].bankrupt:
            errors.append(f"bankrupt {state.players[d.debtor].name} still owes")
    for dec in state.decisions:
        ps = state.props[dec.property]
        if ps.owner != dec.player or not ps.mortgaged:
            errors.append(f"decision on {edition.properties[dec.property].id} is stale")
    active = [p for p in state.players if not p.bankrupt]
    if not state.ended and len(active) < 2:
        errors.append("game goes on with fewer than two players")
    if state.ended and (state.auction is not None or state.decisions):
        errors.append("the game is over with an auction or a decision still pending")
    if state.auction is not None and not state.ended:
        # The rules always offer a way forward: an open auction can be closed.
        from banker.actions import AuctionClose
        from banker.engine import apply
        from banker.errors import BankerError

        try:
            apply(state, AuctionClose())
        except BankerError as exc:
            errors.append(f"the open auction cannot be closed: {exc}")
    return errors


def check_invariants(state: GameState) -> None:
    """Raise ``AssertionError`` listing every broken invariant."""
    errors = invariant_errors(state)
    if errors:
        raise AssertionError("; ".join(errors))
