"""Invariants that hold after every action; pure functions returning the list of what is wrong.

Self-play checks hundreds of thousands of states, so :func:`invariant_errors` may be handed a state
already found clean (usually the one before the action). The engine shares every object an action did
not touch, so only what is new is looked at: the deeds that are new objects and their groups (all of
them when someone went bankrupt), the held jail cards when a hand changed. The house and hotel counts
follow from the clean state's, and the cheap checks (money, players, debts, decisions, the auction)
always run. Without a clean state every check runs.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not

from banker.actions import AuctionClose
from banker.engine import apply
from banker.errors import BankerError
from banker.proposals import MAX_OPEN, REFUSED_KEPT
from banker.state import GameState


def invariant_errors(state: GameState, clean: GameState | None = None) -> list[str]:
    """Everything wrong with ``state``; ``clean``, if given, is a state that had nothing wrong."""
    errors: list[str] = []
    players = state.players
    if clean is not None and (clean.edition is not state.edition or clean.rules is not state.rules
                              or len(clean.players) != len(players) or len(clean.props) != len(state.props)):
        clean = None
    total = state.bank + state.pot
    if state.pot < 0:
        errors.append(f"pot is negative: {state.pot}")
    bankrupt_changed = cards_changed = clean is None
    active = 0
    for seat, p in enumerate(players):
        total += p.cash
        active += not p.bankrupt
        if p.cash < 0:
            errors.append(f"{p.name} has negative cash {p.cash}")
        if p.bankrupt and (p.cash or p.jail_cards or p.in_jail):
            errors.append(f"bankrupt {p.name} still holds cash, cards or a jail place")
        if clean is not None and clean.players[seat] is not p:
            before = clean.players[seat]
            bankrupt_changed = bankrupt_changed or before.bankrupt != p.bankrupt
            cards_changed = cards_changed or before.jail_cards != p.jail_cards
    if total != 0:
        errors.insert(0, f"money not conserved: bank+pot+players = {total}")
    if (clean is None or bankrupt_changed or state.props is not clean.props
            or state.bank_houses != clean.bank_houses or state.bank_hotels != clean.bank_hotels):
        # An owner gone bankrupt concerns every deed; otherwise only the deeds the action replaced.
        errors += _deed_errors(state, None if bankrupt_changed else clean)
    if cards_changed:
        errors += _jail_card_errors(state)
    for d in state.debts:
        if d.amount <= 0:
            errors.append(f"debt of {d.amount}")
        if players[d.debtor].bankrupt:
            errors.append(f"bankrupt {players[d.debtor].name} still owes")
    for dec in state.decisions:
        ps = state.props[dec.property]
        if ps.owner != dec.player or not ps.mortgaged:
            errors.append(f"decision on {state.edition.properties[dec.property].id} is stale")
    if state.proposals:
        errors += _proposal_errors(state)
    if not state.ended and active < 2:
        errors.append("game goes on with fewer than two players")
    if state.ended and (state.auction is not None or state.decisions):
        errors.append("the game is over with an auction or a decision still pending")
    if state.auction is not None and not state.ended:
        # The rules always offer a way forward: an open auction can be closed.
        try:
            apply(state, AuctionClose())
        except BankerError as exc:
            errors.append(f"the open auction cannot be closed: {exc}")
    return errors


def _proposal_errors(state: GameState) -> list[str]:
    """Each proposal numbered once, within the game's count, between two different players of the game."""
    errors: list[str] = []
    ids = [p.id for p in state.proposals]
    if len(set(ids)) != len(ids) or ids != sorted(ids):
        errors.append(f"proposal ids repeat or are out of order: {ids}")
    if ids and not 1 <= min(ids) <= max(ids) <= state.proposals_made:
        errors.append(f"proposal ids {ids} beyond the {state.proposals_made} made")
    for p in state.proposals:
        if p.proposer not in state.seats or p.receiver not in state.seats or p.proposer == p.receiver:
            errors.append(f"proposal {p.id} is not between two players of the game")
    refused = sum(p.refused for p in state.proposals)
    if refused > REFUSED_KEPT or len(state.proposals) - refused > MAX_OPEN:
        errors.append(f"{len(state.proposals)} proposals kept ({refused} refused)")
    return errors


def _deed_errors(state: GameState, clean: GameState | None) -> list[str]:
    """One owner per deed, buildings only on whole unmortgaged street groups, evenly, within the bank's stock.

    With a ``clean`` state (same edition, rules and bankruptcies) only the deeds that are new objects, and
    their groups, are looked at; the buildings on the others are the ones ``clean``'s bank stock accounts for.
    """
    errors: list[str] = []
    rules, edition, props, players = state.rules, state.edition, state.props, state.players
    max_houses, hotel_level = rules.max_houses, rules.hotel_level
    if clean is None:
        numbers: list[int] | range = range(len(props))
        houses = hotels = 0
    else:
        numbers = list(compress(range(len(props)), map(is_not, props, clean.props)))  # the replaced deeds
        houses = rules.houses - clean.bank_houses - sum(clean.props[n].houses for n in numbers)
        hotels = rules.hotels - clean.bank_hotels - sum(clean.props[n].hotel for n in numbers)
    groups: set[str] = set()
    for n in numbers:
        prop, ps = edition.properties[n], props[n]
        owner = ps.owner
        if owner is None:
            if ps.mortgaged:
                errors.append(f"{prop.id}: mortgaged but owned by the bank")
        elif not 0 <= owner < len(players):
            errors.append(f"{prop.id}: owner seat {owner} does not exist")
        elif players[owner].bankrupt:
            errors.append(f"{prop.id}: owned by bankrupt {players[owner].name}")
        groups.add(prop.group)
        if not (ps.houses or ps.hotel):
            continue
        houses += ps.houses
        hotels += ps.hotel
        if prop.kind != "street":
            errors.append(f"{prop.id}: buildings on a {prop.kind}")
        if ps.hotel and ps.houses:
            errors.append(f"{prop.id}: hotel and houses at once")
        if ps.houses > max_houses:
            errors.append(f"{prop.id}: {ps.houses} houses")
    for group in groups:
        members = edition.groups[group]
        owner = props[members[0]].owner
        levels = []
        incomplete = mortgaged = False
        for n in members:
            ps = props[n]
            incomplete = incomplete or ps.owner != owner
            mortgaged = mortgaged or ps.mortgaged
            levels.append(hotel_level if ps.hotel else ps.houses)
        if not any(levels):
            continue
        if incomplete:
            errors.append(f"{group}: built on an incomplete group")
        if mortgaged:
            errors.append(f"{group}: built on a group with a mortgage")
        if max(levels) - min(levels) > 1:
            errors.append(f"{group}: uneven buildings {levels}")
    if houses + state.bank_houses != rules.houses:
        errors.append(f"houses: {houses} built + {state.bank_houses} in bank != {rules.houses}")
    if hotels + state.bank_hotels != rules.hotels:
        errors.append(f"hotels: {hotels} built + {state.bank_hotels} in bank != {rules.hotels}")
    if state.bank_houses < 0 or state.bank_hotels < 0:
        errors.append("bank building stock is negative")
    return errors


def _jail_card_errors(state: GameState) -> list[str]:
    errors: list[str] = []
    held_cards = [deck for p in state.players for deck in p.jail_cards]
    if not held_cards:
        return errors
    for deck in ("chance", "community_chest"):
        held = held_cards.count(deck)
        if held:
            available = sum(1 for c in state.edition.decks[deck] if c.kind == "jail_free")
            if held > available:
                errors.append(f"{held} jail cards of {deck} held, the deck has {available}")
    return errors


def check_invariants(state: GameState, clean: GameState | None = None) -> None:
    """Raise ``AssertionError`` listing every broken invariant."""
    errors = invariant_errors(state, clean)
    if errors:
        raise AssertionError("; ".join(errors))
