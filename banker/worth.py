"""What a player is worth: net worth (§10.2), liquidation value (§8.3), total worth for income tax (§5.1)."""

from __future__ import annotations

from banker.state import GameState, Money


def buildings_cost(state: GameState, seat: int) -> Money:
    """Printed cost of the player's buildings; a hotel counts with the houses turned in for it."""
    total = 0
    for prop, ps in zip(state.edition.properties, state.props, strict=True):
        if ps.owner == seat:
            levels = state.rules.hotel_level if ps.hotel else ps.houses
            total += levels * prop.house_price
    return total


def net_worth(state: GameState, seat: int) -> Money:
    """§10.2: cash + price of unmortgaged deeds + half the price of mortgaged ones + buildings at cost."""
    player = state.players[seat]
    if player.bankrupt:
        return 0
    total = player.cash + buildings_cost(state, seat)
    for prop, ps in zip(state.edition.properties, state.props, strict=True):
        if ps.owner == seat:
            total += prop.price // 2 if ps.mortgaged else prop.price
    return total


def total_worth(state: GameState, seat: int) -> Money:
    """§5.1: cash + printed price of every deed, mortgaged or not, + cost of all buildings."""
    total = state.players[seat].cash + buildings_cost(state, seat)
    for prop, ps in zip(state.edition.properties, state.props, strict=True):
        if ps.owner == seat:
            total += prop.price
    return total


def liquidation_value(state: GameState, seat: int) -> Money:
    """§8.3: cash + half the buildings' cost + the mortgage value of every unmortgaged deed."""
    total = state.players[seat].cash + buildings_cost(state, seat) // 2
    for prop, ps in zip(state.edition.properties, state.props, strict=True):
        if ps.owner == seat and not ps.mortgaged:
            total += prop.mortgage
    return total


def missing(state: GameState, seat: int) -> Money:
    """How much cash the player still lacks to pay all their debts (0 when they can pay now)."""
    return max(0, state.debt_total(seat) - state.players[seat].cash)


def can_raise(state: GameState, seat: int) -> Money:
    """§8.3: what selling every building and mortgaging every deed would raise beyond the player's cash."""
    return max(0, liquidation_value(state, seat) - state.players[seat].cash)
