"""What matters now for one player: the one or two offers a simple screen shows (a child's phone).

They come from the engine's offers (:mod:`banker.offer`), in the order the game waits for them: a decision
on a received mortgaged deed, a debt, the open auction, the jail. Nothing else is pushed: the salary is
due only after passing GO, which the engine cannot see, so a turn with nothing to answer shows no button
(the screen says to roll and move instead).
"""

from __future__ import annotations

from banker import offer as offering
from banker.offer import Offer
from banker.state import GameState

SHOWN = 2
"""How many offers a simple screen shows at most."""


def what_matters(state: GameState, player: str) -> list[Offer]:
    """At most :data:`SHOWN` complete offers for ``player`` now (a refused one keeps its reason); none
    once the game has ended or the player is bankrupt.

    Raises:
        UnknownName: no such player.
    """
    seat = state.seat(player)
    if state.ended or state.players[seat].bankrupt:
        return []
    own = offering.player_offers(state, player)
    for found in own:
        if found.kind == "decide":
            return list(found.choices[:SHOWN])
    debt = [o for o in own if o.kind in ("pay_debt", "bankrupt")]
    if debt:
        return debt[:SHOWN]
    if state.auction is not None:
        if state.auction.high_bidder == seat:
            return []  # the high bidder waits
        bid = offering.bid_offer(state, player)
        if bid.refused or bid.needs != ("amount",):
            return []  # the engine's reason is on the Auction page; a building auction needs the street chosen
        return [offering.complete(state, bid, amount=bid.minimum)]
    if state.players[seat].in_jail:
        return [o for o in own if o.kind in ("jail_fine", "use_jail_card") and o.complete][:SHOWN]
    return []
