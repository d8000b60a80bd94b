"""What a player can buy now and what it costs: the engine's offers, as the advisor needs them.

The advisor ranks purchases; whether one is allowed now, and what it takes from the player's cash, is
the engine's to say. :func:`purchases` is the one place the advisor asks: it takes the engine's offers
(:mod:`banker.offer`) of each deed — buying it from the bank, the next building on a street where even
building puts it, lifting a mortgage — with the cash each takes or the engine's refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker import offer as offering
from banker.actions import Action
from banker.edition import Property
from banker.errors import BankerError
from banker.state import GameState

Money = int

KINDS = ("build", "unmortgage", "buy")


@dataclass(frozen=True, slots=True)
class Purchase:
    """One thing a player could spend money on now."""

    kind: str
    """"build" (the next house or hotel on a street), "unmortgage" or "buy" (a deed of the bank)."""
    action: Action
    deed: Property
    cost: Money
    """What it takes from the player's cash: the engine's preview when it accepts; the printed price
    when it refuses."""
    refusal: BankerError | None = None
    """Why the engine refuses it now; ``None`` when the player can do it (and afford it) now."""

    @property
    def possible(self) -> bool:
        return self.refusal is None


def purchases(state: GameState, seat: int, *, deed: Property | None = None) -> list[Purchase]:
    """Every building, mortgage lift and deed purchase the engine offers the player at ``seat`` (only on
    ``deed`` when given), accepted or refused as it stands now, in board order."""
    name = state.players[seat].name
    found: list[Purchase] = []
    for prop in (deed,) if deed is not None else state.edition.properties:
        ps = state.props[prop.number]
        offers: list[tuple[str, offering.Offer]] = []
        if ps.owner is None:
            buy = next(o for o in offering.deed_offers(state, name, prop.id) if o.kind == "buy")
            offers.append(("buy", buy))
        elif ps.owner == seat:
            build = offering.build_offer(state, name, prop.id)
            if build is not None:
                offers.append(("build", build))
            if ps.mortgaged:
                offers.append(("unmortgage", offering.mortgage_offer(state, name, prop.id)))
        for kind, offer in offers:
            found.append(_purchase(kind, offer, prop))
    return found


def _purchase(kind: str, offer: offering.Offer, prop: Property) -> Purchase:
    assert offer.action is not None
    if offer.refusal is not None:
        return Purchase(kind, offer.action, prop, -offer.price, offer.refusal)
    return Purchase(kind, offer.action, prop, -offer.amount)
