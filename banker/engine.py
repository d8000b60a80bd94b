"""``apply(state, action) -> (state, events)``: the one door through which the game changes.

:func:`apply` does an action or raises a :class:`BankerError` (and then the state is unchanged: handlers
work on a scratch copy). What can be done now and what it would cost is :mod:`banker.offer`'s answer,
from this same function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from banker import buildings, deeds, payments, proposals, settlement
from banker.actions import (
    AcceptTrade,
    Action,
    AuctionClose,
    Bankrupt,
    Bid,
    Build,
    BuildingAuction,
    Buy,
    CancelTrade,
    Collect,
    DrawCard,
    EndGame,
    EndTurn,
    FreeParking,
    GoToJail,
    JailFine,
    KeepMortgaged,
    LeaveJail,
    Mortgage,
    NewGame,
    Pay,
    PayDebt,
    ProposeTrade,
    RefuseTrade,
    Rent,
    Salary,
    SellAllBuildings,
    SellBuilding,
    SellBuildings,
    StartAuction,
    Tax,
    Trade,
    Undo,
    Unmortgage,
    UseJailCard,
)
from banker.errors import BadInput, IllegalAction
from banker.ledger import Event
from banker.state import GameState, History, positional_constructor
from banker.work import Work

make_history: Callable[[GameState, Action], History] = positional_constructor(History)

Handler = Callable[[Work, Any], None]

HANDLERS: dict[type[Action], Handler] = {
    Salary: payments.salary,
    Collect: payments.collect,
    Pay: payments.pay,
    FreeParking: payments.free_parking,
    Tax: payments.tax,
    DrawCard: payments.draw_card,
    GoToJail: payments.go_to_jail,
    JailFine: payments.jail_fine,
    UseJailCard: payments.use_jail_card,
    LeaveJail: payments.leave_jail,
    Buy: deeds.buy,
    StartAuction: deeds.start_auction,
    BuildingAuction: deeds.building_auction,
    Bid: deeds.bid,
    AuctionClose: deeds.auction_close,
    Rent: deeds.rent,
    Mortgage: deeds.mortgage,
    Unmortgage: deeds.unmortgage,
    KeepMortgaged: deeds.keep_mortgaged,
    Build: buildings.build,
    SellBuilding: buildings.sell_building,
    SellAllBuildings: buildings.sell_all,
    SellBuildings: buildings.sell_buildings,
    PayDebt: settlement.pay_debt,
    Bankrupt: settlement.bankrupt,
    Trade: settlement.trade,
    ProposeTrade: proposals.propose,
    AcceptTrade: proposals.accept,
    RefuseTrade: proposals.refuse,
    CancelTrade: proposals.cancel,
    EndTurn: settlement.end_turn,
    EndGame: settlement.end_game,
}

# What may happen while an auction is open: bidding, closing, and raising money to bid with.
RAISING_MONEY = (Mortgage, SellBuilding, SellAllBuildings, SellBuildings)
DURING_AUCTION = (Bid, AuctionClose, *RAISING_MONEY)
DECISION_ACTIONS = (Unmortgage, KeepMortgaged)


def new_game(action: NewGame) -> tuple[GameState, tuple[Event, ...]]:
    """Start a game; see :class:`banker.actions.NewGame`."""
    return settlement.new_game(action)


def apply(state: GameState | None, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``action`` to ``state``; returns the new state and what happened.

    Raises :class:`BankerError` (the state is then unchanged) when the rules do not allow it.
    ``state`` may be ``None`` only for ``new_game``.
    """
    if isinstance(action, NewGame):
        if state is not None:
            raise IllegalAction("game_in_progress")
        return new_game(action)
    if state is None:
        raise IllegalAction("no_game")
    if isinstance(action, Undo):
        return _undo(state)
    if state.ended:
        raise IllegalAction("game_over", winner=state.winner or "-")
    handler = HANDLERS.get(type(action))
    if handler is None:  # pragma: no cover - every action type has a handler
        raise BadInput("unknown_action", action=action.name, known="")
    w = Work(state)
    common_checks(w, action)
    handler(w, action)
    if state.proposals:
        # A deed that an open proposal offers or asks for changed: that proposal is withdrawn.
        proposals.withdraw_changed(state, w)
    if state.auction is not None and isinstance(action, RAISING_MONEY):
        # The high bid must stay one that auction_close can honour: an auction never locks the game.
        deeds.check_bid_stands(w)
    return w.freeze(make_history(state, action)), tuple(w.events)


def common_checks(w: Work, action: Action) -> None:
    """What every action of a player is refused for: an open auction, a bankrupt actor, a decision the
    actor must make first, spending money in debt (the trade of an accepted proposal goes through them too)."""
    state = w.state
    if state.auction is not None and not isinstance(action, DURING_AUCTION):
        auction = state.auction
        what = state.edition.properties[auction.property].name if auction.property is not None else auction.building
        raise IllegalAction("end_game_auction" if isinstance(action, EndGame) else "auction_open", what=what)
    actor = action.actor
    if actor is None:
        return
    seat = state.seat(actor)
    if state.players[seat].bankrupt:
        raise IllegalAction("player_bankrupt", player=actor)
    pending = [d for d in state.decisions if d.player == seat] if state.decisions else None
    if pending:
        ids = {state.edition.properties[d.property].id for d in pending}
        # Only the decision itself: unmortgage or keep_mortgaged of a deed waiting for one (§7.5).
        if not (isinstance(action, DECISION_ACTIONS) and action.property in ids):
            prop = state.edition.properties[pending[0].property]
            raise IllegalAction("decision_pending", player=actor, property=prop.name)
    if action.money_out and state.debts_of(seat):
        raise IllegalAction("in_debt", player=actor)


def _undo(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    if state.history is None:
        raise IllegalAction("nothing_to_undo")
    previous = state.history.previous
    undone = state.history.action
    # The proposals' count goes on: an undone proposal's number is never given to another one.
    restored = replace(previous, seq=state.seq + 1, proposals_made=state.proposals_made)
    back = {p.name: before.cash - p.cash for p, before in zip(state.players, previous.players, strict=True)
            if before.cash != p.cash}
    params: dict[str, Any] = {"action": undone.to_json()}
    if back:
        params["money"] = back
    return restored, (Event("undone", params),)


def last_action(state: GameState) -> tuple[Action, tuple[Event, ...]] | None:
    """The action an ``undo`` would take back and what it did (its events, replayed on the state before it),
    or None when there is nothing to undo: what a front shows before asking "Undo?"."""
    if state.history is None:
        return None
    return state.history.action, apply(state.history.previous, state.history.action)[1]


def undo_depth(state: GameState) -> int:
    """How many actions :func:`apply` can undo from ``state`` (the length of its undo chain)."""
    depth = 0
    history = state.history
    while history is not None:
        depth += 1
        history = history.previous.history
    return depth


def trim_history(state: GameState, keep: int) -> GameState:
    """``state`` with an undo chain of at most ``keep`` actions: the same game, fewer old states kept alive.

    A long-running table would otherwise keep every state of the game in memory. The states kept are
    rebuilt (never edited), so a state somebody else holds does not change; the result equals ``state``.
    """
    chain: list[GameState] = []
    oldest = state
    while oldest.history is not None and len(chain) < keep:
        chain.append(oldest)
        oldest = oldest.history.previous
    if oldest.history is None:
        return state
    trimmed = replace(oldest, history=None)
    for newer in reversed(chain):
        assert newer.history is not None
        trimmed = replace(newer, history=make_history(trimmed, newer.history.action))
    return trimmed
