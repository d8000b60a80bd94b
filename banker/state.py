"""The game state: frozen dataclasses, replaced (never edited) by :func:`banker.engine.apply`."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from banker.actions import Action, Trade
from banker.edition import Edition, Property, closest
from banker.errors import UnknownName
from banker.rules import Rules

Money = int
BANK = "bank"
POT = "pot"
RESERVED_NAMES = frozenset({BANK, POT})


@dataclass(frozen=True, slots=True)
class PlayerState:
    name: str
    cash: Money
    jail_cards: tuple[str, ...] = ()
    """Decks of the Get Out of Jail Free cards held."""
    in_jail: bool = False
    bankrupt: bool = False


@dataclass(frozen=True, slots=True)
class PropertyState:
    owner: int | None = None
    """Seat of the owner; ``None`` while the bank holds the deed."""
    houses: int = 0
    hotel: bool = False
    mortgaged: bool = False


@dataclass(frozen=True, slots=True)
class Debt:
    """A payment the debtor could not make; it moves nothing until ``pay_debt`` or ``bankrupt``."""

    debtor: int
    creditor: str
    """An account: a player's name, "bank" or "pot"."""
    amount: Money
    reason: str
    shared: bool = False
    """Part of one payment owed to several creditors ("pay each player"), settled by §9.4."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A received mortgaged deed whose new owner must ``unmortgage`` or ``keep_mortgaged`` (§7.5)."""

    player: int
    property: int


@dataclass(frozen=True, slots=True)
class Auction:
    """An open auction of a deed, or of a scarce house or hotel (§6.6)."""

    property: int | None
    """Deed number being auctioned; ``None`` in a building auction."""
    building: str = ""
    """"house" or "hotel" in a building auction."""
    high_bid: Money = 0
    high_bidder: int | None = None
    high_property: int | None = None
    """In a building auction: where the high bidder will build."""
    excluded: tuple[int, ...] = ()
    """Seats that may not bid (the decliner, under that house rule)."""
    queue: tuple[int, ...] = ()
    """Deeds to auction next, in board order, after a bankruptcy to the bank."""
    claims: tuple[tuple[str, Money], ...] = ()
    """Unpaid creditors sharing the proceeds after a bankruptcy with several creditors (§9.4)."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """A trade one player offers another on their phone, waiting for the receiver's answer (§5.3).

    It is journal state like the rest: it survives a restart, and accepting it applies ``trade`` once."""

    id: int
    """Given by the engine: the proposals of a game are numbered 1, 2, 3… in the order they were made."""
    trade: Trade
    """The trade as ``accept_trade`` applies it: ``from`` proposes, ``to`` receives."""
    refused: bool = False
    """The receiver said no: kept (not open any more) so that both phones can show it and why."""
    reason: str = ""
    """What the receiver said when refusing (may be empty)."""

    @property
    def proposer(self) -> str:
        return self.trade.from_

    @property
    def receiver(self) -> str:
        return self.trade.to


@dataclass(frozen=True, slots=True, eq=False)
class History:
    """The link to the state before the last action, for undo (never serialized, never compared)."""

    previous: GameState
    action: Action


@dataclass(frozen=True, slots=True)
class GameState:
    edition: Edition
    rules: Rules
    players: tuple[PlayerState, ...]
    props: tuple[PropertyState, ...]
    """Indexed by :attr:`banker.edition.Property.number`."""
    bank_houses: int
    bank_hotels: int
    bank: Money
    """The bank's ledger balance: minus all the money it has issued."""
    pot: Money = 0
    debts: tuple[Debt, ...] = ()
    decisions: tuple[Decision, ...] = ()
    auction: Auction | None = None
    turn: int = 0
    """Seat of the player whose turn it is."""
    bankrupt_order: tuple[int, ...] = ()
    winner: str | None = None
    ended: bool = False
    proposals: tuple[Proposal, ...] = ()
    """Trade proposals, open ones and the latest refused ones, in the order they were made."""
    proposals_made: int = 0
    """How many proposals this game has seen: the next one's id is one more."""
    seq: int = 0
    """Number of actions applied since ``new_game`` (undo counts too)."""
    history: History | None = field(default=None, compare=False, repr=False)
    seats: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """Seat of each player's name (names never change during a game)."""

    def seat(self, name: str) -> int:
        """The seat of the player called ``name``; :class:`UnknownName` if nobody is."""
        seat = self.seats.get(name)
        if seat is None:
            seat = self.seats.get(unicodedata.normalize("NFC", name))
        if seat is not None:
            return seat
        players = ", ".join(p.name for p in self.players)
        hint = closest(name, {p.name: p.name for p in self.players})
        if hint is not None:
            raise UnknownName("unknown_player_suggest", player=name, players=players, suggestion=hint)
        raise UnknownName("unknown_player", player=name, players=players)

    def deed(self, property_id: str) -> Property:
        return self.edition.property(property_id)

    def active_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if not p.bankrupt]

    def debts_of(self, seat: int) -> list[Debt]:
        if not self.debts:  # nearly always, and asked often
            return []
        return [d for d in self.debts if d.debtor == seat]

    def debt_total(self, seat: int) -> Money:
        return sum(d.amount for d in self.debts if d.debtor == seat)

    def owned(self, seat: int) -> list[Property]:
        return [prop for prop, ps in zip(self.edition.properties, self.props, strict=True) if ps.owner == seat]

    def level(self, number: int) -> int:
        """Buildings on a deed as one number: houses, or ``max_houses + 1`` for a hotel."""
        ps = self.props[number]
        return self.rules.hotel_level if ps.hotel else ps.houses

    def money(self, amount: Money) -> str:
        return self.edition.format_money(amount)

    def open_proposals(self) -> list[Proposal]:
        """The trade proposals waiting for an answer (not refused)."""
        return [p for p in self.proposals if not p.refused]

    def name_of(self, account: str | int) -> str:
        if isinstance(account, int):
            return self.players[account].name
        return account


def positional_constructor(cls: type[Any]) -> Callable[..., Any]:
    """A constructor of the frozen, slotted dataclass ``cls`` taking every field, in declaration order.

    It builds the same object as ``cls(...)`` but sets the fields through their descriptors: a frozen
    dataclass's generated ``__init__`` goes through ``object.__setattr__`` for each field, which for
    :class:`GameState` costs more than twice as much, once per action. The compiled build
    (:mod:`banker.native`) keeps that generated ``__init__`` too, and its fields are descriptors as well.
    Only the engine's scratch copy (:class:`banker.work.Work`) uses these; the object is frozen like any
    other once returned.
    """
    names = [f.name for f in fields(cls)]
    setters = {name: getattr(getattr(cls, name, None), "__set__", None) for name in names}
    if None in setters.values():  # pragma: no cover - every field of these classes is a slot
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    scope: dict[str, Any] = {"new": cls.__new__, "cls": cls}
    scope.update({f"set_{name}": setter for name, setter in setters.items()})
    body = "".join(f"    set_{name}(obj, {name})\n" for name in names)
    exec(f"def make({', '.join(names)}):\n    obj = new(cls)\n{body}    return obj\n", scope)
    make: Callable[..., Any] = scope["make"]
    return make


make_state: Callable[..., GameState] = positional_constructor(GameState)
make_player: Callable[..., PlayerState] = positional_constructor(PlayerState)
make_property: Callable[..., PropertyState] = positional_constructor(PropertyState)
