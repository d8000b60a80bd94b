"""A scratch copy of the state that one action edits, then freezes into the next :class:`GameState`.

The original state is never touched, so an action that raises leaves the game exactly as it was.
All money moves through :meth:`Work.transfer`, which records a balanced :class:`Transaction`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from banker.errors import IllegalAction
from banker.ledger import Event, Transaction
from banker.state import (
    BANK,
    POT,
    Auction,
    Debt,
    Decision,
    GameState,
    History,
    PlayerState,
    PropertyState,
    Proposal,
    make_player,
    make_property,
    make_state,
    positional_constructor,
)

# Built once or more by nearly every action: without the frozen dataclass __init__'s per-field cost.
make_event: Callable[[str, dict[str, Any], Transaction | None], Event] = positional_constructor(Event)
make_transaction: Callable[[str, tuple[tuple[str, int], ...]], Transaction] = positional_constructor(Transaction)

Money = int


class Work:
    # Built and read once per action: slots make that a little cheaper, and a misspelt field an error.
    __slots__ = ("state", "edition", "rules", "players", "props", "bank_houses", "bank_hotels", "bank", "pot",
                 "debts", "decisions", "auction", "turn", "bankrupt_order", "winner", "ended", "proposals",
                 "proposals_made", "events")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.edition = state.edition
        self.rules = state.rules
        # Copied on the first change only: most actions touch one or two players and no deed.
        self.players: list[PlayerState] | tuple[PlayerState, ...] = state.players
        self.props: list[PropertyState] | tuple[PropertyState, ...] = state.props
        self.bank_houses = state.bank_houses
        self.bank_hotels = state.bank_hotels
        self.bank = state.bank
        self.pot = state.pot
        # Replaced, never edited in place, so the state's tuples are shared until an action changes them.
        self.debts: list[Debt] | tuple[Debt, ...] = state.debts
        self.decisions: list[Decision] | tuple[Decision, ...] = state.decisions
        self.auction: Auction | None = state.auction
        self.turn = state.turn
        self.bankrupt_order = state.bankrupt_order
        self.winner = state.winner
        self.ended = state.ended
        self.proposals: list[Proposal] | tuple[Proposal, ...] = state.proposals
        self.proposals_made = state.proposals_made
        self.events: list[Event] = []

    def freeze(self, history: History | None = None) -> GameState:
        # Every field of GameState, in its order (make_state is GameState(...) without the frozen __init__'s cost).
        return make_state(
            self.edition,
            self.rules,
            self.players if isinstance(self.players, tuple) else tuple(self.players),
            self.props if isinstance(self.props, tuple) else tuple(self.props),
            self.bank_houses,
            self.bank_hotels,
            self.bank,
            self.pot,
            tuple(self.debts),
            tuple(self.decisions),
            self.auction,
            self.turn,
            self.bankrupt_order,
            self.winner,
            self.ended,
            tuple(self.proposals),
            self.proposals_made,
            self.state.seq + 1,
            history,
            self.state.seats,
        )

    # --- reading -------------------------------------------------------------------------------
    def money(self, amount: Money) -> str:
        return self.edition.format_money(amount)

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def seat_of(self, account: str) -> int | None:
        seats = self.state.seats
        seat = seats.get(account)
        return seat if seat is not None else seats.get(unicodedata.normalize("NFC", account))

    def level(self, number: int) -> int:
        ps = self.props[number]
        return self.rules.hotel_level if ps.hotel else ps.houses

    def has_debt(self, seat: int) -> bool:
        return bool(self.debts) and any(d.debtor == seat for d in self.debts)

    # --- editing -------------------------------------------------------------------------------
    def event(self, kind: str, transaction: Transaction | None = None, **params: Any) -> None:
        self.events.append(make_event(kind, params, transaction))

    def set_player(self, seat: int, **changes: Any) -> None:
        if isinstance(self.players, tuple):
            self.players = list(self.players)
        p: PlayerState = self.players[seat]
        self.players[seat] = make_player(
            p.name,
            changes.get("cash", p.cash),
            changes.get("jail_cards", p.jail_cards),
            changes.get("in_jail", p.in_jail),
            changes.get("bankrupt", p.bankrupt),
        )

    def set_prop(self, number: int, **changes: Any) -> None:
        if isinstance(self.props, tuple):
            self.props = list(self.props)
        ps: PropertyState = self.props[number]
        self.props[number] = make_property(
            changes.get("owner", ps.owner),
            changes.get("houses", ps.houses),
            changes.get("hotel", ps.hotel),
            changes.get("mortgaged", ps.mortgaged),
        )

    def _add(self, account: str, amount: Money) -> None:
        if account == BANK:
            self.bank += amount
        elif account == POT:
            self.pot += amount
        else:
            seat = self.seat_of(account)
            if seat is None:  # pragma: no cover - accounts are checked by the handlers
                raise IllegalAction("unknown_account", account=account)
            if isinstance(self.players, tuple):
                self.players = list(self.players)
            p = self.players[seat]
            self.players[seat] = make_player(p.name, p.cash + amount, p.jail_cards, p.in_jail, p.bankrupt)

    def transfer(self, payer: str, payee: str, amount: Money, reason: str) -> Transaction:
        """Move ``amount`` from ``payer`` to ``payee`` as one balanced transaction."""
        txn = make_transaction(reason, ((payer, -amount), (payee, amount)))
        self._add(payer, -amount)
        self._add(payee, amount)
        return txn

    def split(self, payer: str, shares: list[tuple[str, Money]], reason: str) -> Transaction:
        """One payer, several payees, one transaction."""
        total = sum(m for _, m in shares)
        postings = ((payer, -total), *shares)
        self._add(payer, -total)
        for account, amount in shares:
            self._add(account, amount)
        return make_transaction(reason, postings)

    def charge(self, seat: int, creditor: str, amount: Money, reason: str, *, shared: bool = False,
               **params: Any) -> bool:
        """A payment the rules impose: paid now if the cash covers it, else a debt that moves nothing.

        A player who already owes money pays new charges after the old ones, so they become debts too.
        Returns whether it was paid.
        """
        if amount <= 0:
            return True
        name = self.name(seat)
        if self.players[seat].cash >= amount and not self.has_debt(seat):
            txn = self.transfer(name, creditor, amount, reason)
            self.event("paid", txn, player=name, to=creditor, amount=amount, reason=reason, **params)
            return True
        self.debts = [*self.debts, Debt(seat, creditor, amount, reason, shared)]
        self.event("debt", player=name, to=creditor, amount=amount, reason=reason,
                   missing=max(0, sum(d.amount for d in self.debts if d.debtor == seat) - self.players[seat].cash),
                   **params)
        return False

    def fee_account(self) -> str:
        """Where taxes, fines and card payments go: the Free Parking pot under that house rule."""
        return POT if self.rules.free_parking_pot else BANK

    def add_decision(self, seat: int, number: int) -> None:
        self.decisions = [*self.decisions, Decision(seat, number)]
        self.event("decision_needed", player=self.name(seat), property=self.edition.properties[number].id,
                   keep_fee=self.rules.interest(self.edition.properties[number].mortgage),
                   unmortgage_cost=self.rules.lift_cost(self.edition.properties[number].mortgage))
