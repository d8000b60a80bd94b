"""The advisor for a game in progress: what a player should build next, and what their deeds earn.

These functions read the engine's game state (``banker.state.GameState``) through the few fields
they need, described by the protocols below, so the table and the phone page can call them with the
current state. What may be built now is the engine's offer (:func:`banker.offer.build_offer`); the
advisor only ranks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from banker.advisor.build import BuildOption, Holdings
from banker.advisor.markov import Landing, MoveRules, landing_distribution
from banker.advisor.payback import rent_per_throw
from banker.edition import Edition
from banker.errors import UnknownName
from banker.state import GameState


class PlayerView(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def cash(self) -> int: ...
    @property
    def bankrupt(self) -> bool: ...


class DeedView(Protocol):
    @property
    def owner(self) -> int | None: ...
    @property
    def houses(self) -> int: ...
    @property
    def hotel(self) -> bool: ...
    @property
    def mortgaged(self) -> bool: ...


class RulesView(Protocol):
    @property
    def max_houses(self) -> int: ...
    @property
    def double_rent_with_mortgage(self) -> bool: ...


class BoardView(Protocol):
    """What the rents depend on: the board, the rules and the deeds' owners and buildings."""

    @property
    def edition(self) -> Edition: ...
    @property
    def rules(self) -> RulesView: ...
    @property
    def props(self) -> Sequence[DeedView]: ...


class GameView(BoardView, Protocol):
    @property
    def players(self) -> Sequence[PlayerView]: ...
    @property
    def bank_houses(self) -> int: ...
    @property
    def bank_hotels(self) -> int: ...


def seat_of(state: GameView, player: int | str) -> int:
    """The seat of ``player`` given by seat number or name; :class:`UnknownName` if there is none."""
    if isinstance(player, int) and not isinstance(player, bool):
        if 0 <= player < len(state.players):
            return player
    else:
        for seat, candidate in enumerate(state.players):
            if candidate.name == player:
                return seat
    raise UnknownName(
        "advisor_unknown_player", player=str(player), players=", ".join(p.name for p in state.players)
    )


def holdings_of(state: GameView, player: int | str) -> Holdings:
    """The deeds, buildings, mortgages and cash of ``player``; :class:`UnknownName` for an unknown one."""
    seat = seat_of(state, player)
    hotel_level = state.rules.max_houses + 1
    levels = {
        number: hotel_level if deed.hotel else deed.houses
        for number, deed in enumerate(state.props)
        if deed.owner == seat
    }
    mortgaged = frozenset(n for n, deed in enumerate(state.props) if deed.owner == seat and deed.mortgaged)
    return Holdings(levels, state.players[seat].cash, mortgaged)


def advise_builds(state: GameState, player: int | str, *, rules: MoveRules | None = None) -> list[BuildOption]:
    """Every house or hotel the engine offers ``player`` now (the next building of each of their whole
    groups, where even building puts it; one they lack the cash for marked not ``affordable``), fastest
    payback first, cheaper first on a tie.

    ``rules`` are the movement house rules the table plays by (default: short jail stay). A bankrupt
    player gets no options. Raises :class:`UnknownName` for an unknown player.
    """
    from banker import offer as offering

    seat = seat_of(state, player)
    if state.players[seat].bankrupt:
        return []
    landing = landing_distribution(state.edition, rules)
    max_houses = state.rules.max_houses
    name = state.players[seat].name
    options: list[BuildOption] = []
    for deed in state.edition.properties:
        build = offering.build_offer(state, name, deed.id) if state.props[deed.number].owner == seat else None
        if build is None or (build.refusal is not None and build.refusal.key != offering.CASH_SHORT):
            continue  # not a building the rules allow now (even building, a mortgage, the bank's stock)
        level = state.level(deed.number)
        gain = (rent_per_throw(landing, deed, level + 1, max_houses=max_houses)
                - rent_per_throw(landing, deed, level, max_houses=max_houses))
        building = "hotel" if build.kind == "build_hotel" else "house"
        options.append(BuildOption(deed, building, level + 1, -build.price, gain, build.refusal is None))
    options.sort(key=lambda o: (o.payback_throws, o.cost, o.deed.number))
    return options


def advise_build(state: GameState, player: int | str, *, rules: MoveRules | None = None) -> BuildOption | None:
    """What ``player`` should build next: the affordable option that pays back fastest, or ``None``.

    Raises :class:`UnknownName` for an unknown player.
    """
    for option in advise_builds(state, player, rules=rules):
        if option.affordable:
            return option
    return None


def income_per_throw(state: GameView, player: int | str, *, rules: MoveRules | None = None) -> float:
    """Expected rent ``player``'s deeds collect per opponent throw, as the board stands now.

    Raises :class:`UnknownName` for an unknown player.
    """
    seat = seat_of(state, player)
    landing = landing_distribution(state.edition, rules)
    return income_of(state, seat, landing)


def income_of(state: BoardView, seat: int, landing: Landing) -> float:
    """Expected rent the deeds of the player at ``seat`` collect per opponent throw under ``landing``."""
    return sum(deed_income(state, number, landing) for number, deed in enumerate(state.props) if deed.owner == seat)


def deed_income(state: BoardView, number: int, landing: Landing) -> float:
    """Expected rent deed ``number`` collects for its owner per opponent throw (0 for the bank's, a
    mortgaged one)."""
    deed_state = state.props[number]
    owner = deed_state.owner
    if owner is None or deed_state.mortgaged:
        return 0.0
    prop = state.edition.properties[number]
    members = state.edition.groups[prop.group]
    owned = sum(1 for n in members if state.props[n].owner == owner)
    any_mortgaged = any(state.props[n].mortgaged for n in members)
    monopoly = owned == len(members) and (not any_mortgaged or state.rules.double_rent_with_mortgage)
    max_houses = state.rules.max_houses
    level = max_houses + 1 if deed_state.hotel else deed_state.houses
    return rent_per_throw(landing, prop, level, max_houses=max_houses, monopoly=monopoly, owned_in_group=owned)
