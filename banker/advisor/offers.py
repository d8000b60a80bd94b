"""What a player can buy now and what it costs: the engine's answer, as the advisor needs it.

The advisor ranks purchases; whether one is allowed now, and what it takes from the player's cash, is
the engine's to say. :func:`purchases` is the one place the advisor asks: it tries each candidate
action on the engine and keeps its price (the cash it would take) or the engine's refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.actions import Action, Build, Buy, Unmortgage
from banker.edition import Property
from banker.engine import apply
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
    """Every building, mortgage lift and deed purchase of the player at ``seat`` (only on ``deed`` when
    given), accepted or refused by the engine as it stands now, in board order."""
    name = state.players[seat].name
    found: list[Purchase] = []
    for prop in (deed,) if deed is not None else state.edition.properties:
        ps = state.props[prop.number]
        candidates: list[tuple[str, Action, Money]] = []
        if ps.owner is None:
            candidates.append(("buy", Buy(name, prop.id), prop.price))
        elif ps.owner == seat:
            if prop.kind == "street" and not ps.hotel:
                candidates.append(("build", Build(name, prop.id), prop.house_price))
            if ps.mortgaged:
                candidates.append(("unmortgage", Unmortgage(name, prop.id), state.rules.lift_cost(prop.mortgage)))
        for kind, action, printed in candidates:
            found.append(_tried(state, seat, kind, action, prop, printed))
    return found


def _tried(state: GameState, seat: int, kind: str, action: Action, prop: Property, printed: Money) -> Purchase:
    try:
        after, _ = apply(state, action)
    except BankerError as error:
        return Purchase(kind, action, prop, printed, error)
    return Purchase(kind, action, prop, state.players[seat].cash - after.players[seat].cash)
