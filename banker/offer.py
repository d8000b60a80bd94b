"""What a player can do now and what it costs: the engine's offers.

The table's menus, the phone's deed cards and Pay page and the self-play bots all ask here; none of
them works a rule out again. An :class:`Offer` is one thing open to a player at a deed, a square, their
own card or the table: either a complete action with its previewed result (the exact money, the board
moves, the log lines), or the action as far as it is known with the fields still to choose (``needs``),
or a refusal (the engine's own error, in the one text mechanism).

``offers(state, player, deed=..., square=...)`` is the door; ``complete(state, offer, **fields)`` fills
in what was chosen; ``legal_actions(state)`` is every complete offer that is not refused. The preview is
the engine's :func:`banker.engine.apply` on the state (pure, so exact): :class:`Preview` is the only dry
run in the project. It is lazy: an offer is made without it, the engine's dry run happens the first time
the offer's refusal, amount or events are read, and the board moves only when its events are. A menu of
ten offers of which one is looked at costs one dry run; whoever shows an offer holds it, with its
preview, for as long as it is shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Final

from banker import buildings, deeds, payments
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
    Pay,
    PayDebt,
    RefuseTrade,
    Rent,
    Salary,
    SellAllBuildings,
    SellBuilding,
    SellBuildings,
    StartAuction,
    Tax,
    Undo,
    Unmortgage,
    UseJailCard,
)
from banker.engine import apply
from banker.errors import BankerError, IllegalAction, UnknownName
from banker.ledger import Event
from banker.state import GameState

CASH_SHORT = "not_enough_cash"
"""The refusal of an action the player lacks the cash for: :func:`raise_cash` says how to find it."""


class Preview:
    """What ``action`` would do on ``state``: the engine's dry run, made the first time it is asked for
    and then kept. The board moves (what the cardboard needs) are worked out only when the events are
    asked for; legality and money need the engine's answer alone."""

    def __init__(self, state: GameState, action: Action) -> None:
        self.state = state
        self.action = action
        self._ran = False
        self._after: GameState | None = None
        self._engine_events: tuple[Event, ...] = ()
        self._error: BankerError | None = None
        self._events: tuple[Event, ...] | None = None

    def _run(self) -> None:
        self._ran = True
        try:
            self._after, self._engine_events = apply(self.state, self.action)
        except BankerError as error:
            self._error = error

    @property
    def error(self) -> BankerError | None:
        """The engine's refusal, or None when it accepts the action."""
        if not self._ran:
            self._run()
        return self._error

    def applied(self) -> tuple[GameState, tuple[Event, ...]]:
        """What :func:`banker.engine.apply` returns for the action on the state (the state after it and
        its events, without the board moves).

        Raises:
            BankerError: the engine's refusal.
        """
        if not self._ran:
            self._run()
        if self._error is not None:
            raise self._error
        assert self._after is not None
        return self._after, self._engine_events

    @property
    def events(self) -> tuple[Event, ...]:
        """The action's events and, last, its board moves (the ``board`` event the session adds); none
        when it is refused."""
        if self._events is None:
            from banker.board import board_event

            if self.error is not None:
                self._events = ()
            else:
                assert self._after is not None
                self._events = (*self._engine_events, board_event(self.state, self._after, self.action))
        return self._events

    def flow(self, account: str) -> int:
        """Money ``account`` receives (positive) or pays (negative) when the action is done (0 if refused)."""
        return flow(self._engine_events, account) if self.error is None else 0


_Given = tuple[tuple[Event, ...], BankerError | None, int, int]
"""An offer's events, refusal, amount and shortfall when they were given rather than previewed."""
_NOTHING: _Given = ((), None, 0, 0)


@dataclass(init=False, eq=False)
class Offer:
    """One thing a player can do (or is told why not).

    ``amount`` is the money the actor receives (positive) or pays (negative) when it is done: the
    preview's figure when complete and allowed, else the price the rules name (a refused build still
    says what a house costs).

    An offer made by :func:`make` carries its :class:`Preview` and reads ``events``, ``refusal``,
    ``amount`` and ``short_by`` from it, running it on first use; an offer built with those values given
    keeps them. It never changes once made: its fields are ``Final`` (mypy refuses an assignment, and so
    does the compiled build at run time), and ``dataclasses.replace`` makes a changed copy (``events``,
    ``refusal``, ``amount`` and ``short_by`` may be passed to it; a ``refusal=None`` there leaves the
    refusal as it is). Self-play builds hundreds of offers a game: a frozen dataclass's ``__init__`` would
    cost more than the engine's dry run.
    """

    kind: Final[str]
    action: Final[Action | None]
    needs: Final[tuple[str, ...]]
    """Fields still to choose before the action is complete: ``dice``, ``amount``, ``to``, ``payer``,
    ``card``, ``square``, ``passed_go``, ``choice``."""
    minimum: Final[int]
    maximum: Final[int]
    """The range of an amount still to choose (0 when open above)."""
    choices: Final[tuple[Offer, ...]]
    """The complete offers a choice leads to (a card's pay-or-draw, where it was drawn…)."""
    figures: Final[tuple[tuple[str, Any], ...]]
    """What a label names besides the amount: a utility's multiplier, a tax's percent, break-down levels."""
    price: Final[int]
    """The money the rules name for it (negative when paid), known without the preview: what a house,
    a deed, lifting a mortgage, the jail fine costs."""
    preview: Final[Preview | None]
    """The dry run the values come from (None for an offer whose values were given)."""
    _given: Final[_Given | None]

    def __init__(self, kind: str, action: Action | None = None, needs: tuple[str, ...] = (),
                 events: tuple[Event, ...] | None = None, refusal: BankerError | None = None,
                 amount: int | None = None, short_by: int | None = None, minimum: int = 0, maximum: int = 0,
                 choices: tuple[Offer, ...] = (), figures: tuple[tuple[str, Any], ...] = (), price: int = 0,
                 preview: Preview | None = None, _given: _Given | None = None) -> None:
        if events is not None or refusal is not None or amount is not None or short_by is not None:
            base = _given if _given is not None else _values(preview, action, price) if preview else _NOTHING
            _given = (base[0] if events is None else events, base[1] if refusal is None else refusal,
                      base[2] if amount is None else amount, base[3] if short_by is None else short_by)
        elif preview is None and _given is None:
            _given = _NOTHING
        self.kind = kind
        self.action = action
        self.needs = needs
        self.minimum = minimum
        self.maximum = maximum
        self.choices = choices
        self.figures = figures
        self.price = price
        self.preview = preview
        self._given = _given

    @property
    def events(self) -> tuple[Event, ...]:
        """The preview's events, the board moves last; none when refused or not complete."""
        if self._given is not None:
            return self._given[0]
        assert self.preview is not None
        return self.preview.events

    @property
    def refusal(self) -> BankerError | None:
        if self._given is not None:
            return self._given[1]
        assert self.preview is not None
        return self.preview.error

    @property
    def amount(self) -> int:
        if self._given is not None:
            return self._given[2]
        assert self.preview is not None
        return _amount(self.preview, self.action, self.price)

    @property
    def short_by(self) -> int:
        """Cash missing, when the refusal is for cash."""
        if self._given is not None:
            return self._given[3]
        assert self.preview is not None
        return _short_by(self.preview, self.action, self.price)

    @property
    def refused(self) -> bool:
        return self.refusal is not None

    @property
    def complete(self) -> bool:
        return not self.needs and self.action is not None

    @property
    def allowed(self) -> bool:
        return self.complete and self.refusal is None

    def applied(self, state: GameState) -> tuple[GameState, tuple[Event, ...]]:
        """What :func:`banker.engine.apply` returns for this offer's action on ``state``: from its preview
        when it was made on that very state (the engine is pure), else by applying it.

        Raises:
            BankerError: the engine's refusal.
            ValueError: the offer is not complete.
        """
        if self.action is None or self.needs:
            raise ValueError(f"the {self.kind} offer is not complete: it still needs {', '.join(self.needs)}")
        if self.preview is not None and self.preview.state is state and self.preview.action is self.action:
            return self.preview.applied()
        return apply(state, self.action)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Offer):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.kind, self.needs, self.minimum, self.maximum, self.price))

    def _key(self) -> tuple[Any, ...]:
        return (self.kind, self.action, self.needs, self.events, self.refusal, self.amount, self.short_by,
                self.minimum, self.maximum, self.choices, self.figures, self.price)

    def __repr__(self) -> str:
        refusal = self.refusal
        said = f", refused={refusal.key!r}" if refusal is not None else ""
        needs = f", needs={self.needs!r}" if self.needs else ""
        return f"Offer({self.kind!r}, {self.action!r}{needs}, amount={self.amount}{said})"

    def figure(self, name: str, default: Any = None) -> Any:
        return dict(self.figures).get(name, default)

    def payments(self) -> list[dict[str, Any]]:
        """Who pays whom how much in the preview: each transaction's postings, payer first."""
        out: list[dict[str, Any]] = []
        for event in self.events:
            txn = event.transaction
            if txn is None:
                continue
            paid = [(a, -m) for a, m in txn.postings if m < 0]
            got = [(a, m) for a, m in txn.postings if m > 0]
            for payer, amount in paid:
                for payee, received in got:
                    out.append({"from": payer, "to": payee, "amount": min(amount, received)})
        return out

    def to_json(self, state: GameState | None = None, language: str = "en") -> dict[str, Any]:
        """The offer as data (``banker offers`` prints one a line; docs/actions.md, Offers)."""
        from banker.board import moves_of
        from banker.text import describe_action, log_lines

        out: dict[str, Any] = {"kind": self.kind}
        if self.action is not None:
            out["action"] = self.action.to_json()
        if self.needs:
            out["needs"] = list(self.needs)
        out["amount"] = self.amount
        if self.minimum or self.maximum:
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        if self.figures:
            out["figures"] = {k: v for k, v in self.figures}
        if self.refusal is not None:
            out["refused"] = {"key": self.refusal.key, "text": self.refusal.translated(language)}
            if self.short_by:
                out["short_by"] = self.short_by
        elif self.complete:
            out["payments"] = self.payments()
            out["board"] = [m.to_json() for m in moves_of(self.events)]
            if state is not None:
                out["log"] = log_lines(state.edition, [e for e in self.events if e.kind != "board"], language)
        if state is not None and self.action is not None and self.complete:
            out["label"] = describe_action(state.edition, self.action, language, state.rules.hotel_level)
        if self.choices:
            out["choices"] = [c.to_json(state, language) for c in self.choices]
        return out

    def to_line(self, state: GameState | None = None, language: str = "en") -> str:
        return json.dumps(self.to_json(state, language), ensure_ascii=False)


# --- the one dry run ----------------------------------------------------------------------------------
def attempt(state: GameState, action: Action) -> tuple[tuple[Event, ...], BankerError | None]:
    """What ``action`` would do now: its events and, last, its board moves (the ``board`` event the session
    adds), or the engine's refusal. The state is never changed."""
    dry_run = Preview(state, action)
    return dry_run.events, dry_run.error


def is_legal(state: GameState, action: Action) -> bool:
    """Whether :func:`banker.engine.apply` would accept ``action`` now."""
    try:
        apply(state, action)
    except BankerError:
        return False
    return True


def flow(events: tuple[Event, ...], account: str) -> int:
    """Money ``account`` receives (positive) or pays (negative) in these events."""
    total = 0
    for event in events:
        if event.transaction is not None:
            total += sum(amount for name, amount in event.transaction.postings if name == account)
    return total


def cash_short(error: BankerError) -> int:
    """The cash missing when ``error`` is a refusal for cash (0 for any other refusal)."""
    return int(error.params.get("short", 0)) if error.key == CASH_SHORT else 0


def _cash_of(state: GameState, name: str | None) -> int:
    if name is None or name not in state.seats:
        return 0
    return state.players[state.seats[name]].cash


def _amount(dry_run: Preview, action: Action | None, price: int) -> int:
    actor = action.actor if action is not None else None
    if dry_run.error is None and actor:
        return dry_run.flow(actor)
    return price


def _short_by(dry_run: Preview, action: Action | None, price: int) -> int:
    error = dry_run.error
    if error is None or error.key != CASH_SHORT:
        return 0
    actor = action.actor if action is not None else None
    return cash_short(error) or max(0, -price - _cash_of(dry_run.state, actor))


def _values(dry_run: Preview, action: Action | None, price: int) -> _Given:
    return dry_run.events, dry_run.error, _amount(dry_run, action, price), _short_by(dry_run, action, price)


def make(state: GameState, kind: str, action: Action, *, price: int = 0, figures: tuple[tuple[str, Any], ...] = (),
         minimum: int = 0, maximum: int = 0) -> Offer:
    """A complete offer: ``action`` previewed (lazily: the dry run happens when the offer is read).
    ``price`` is the money the rules name for it (negative when paid), shown when the action is refused."""
    return Offer(kind, action, minimum=minimum, maximum=maximum, figures=figures, price=price,
                 preview=Preview(state, action))


def preview(state: GameState, action: Action) -> Offer:
    """Any action as an offer of its own kind (its name): what a confirmation screen shows. A screen that
    shows, draws and confirms it holds the one offer (its preview runs once)."""
    return make(state, action.name, action)


def signature(offer: Offer) -> str:
    """A fingerprint of what an offer's screen says (the money each event moves, or the refusal): when it
    changes between showing and OK, the game changed meanwhile."""
    if offer.refusal is not None:
        return f"refused:{offer.refusal.key}:{sorted(offer.refusal.params.items())!r}"
    return "|".join(f"{e.kind}:{e.params.get('amount', '')}:{e.params.get('to', '')}" for e in offer.events)


def refresh(state: GameState, offer: Offer) -> Offer:
    """The same offer previewed on ``state`` (the game may have moved since it was made)."""
    if not offer.complete:
        return offer
    assert offer.action is not None
    return make(state, offer.kind, offer.action, price=offer.price, figures=offer.figures, minimum=offer.minimum,
                maximum=offer.maximum)


# --- deeds --------------------------------------------------------------------------------------------
def _decision(state: GameState, seat: int, number: int) -> bool:
    return any(d.player == seat and d.property == number for d in state.decisions)


def deed_offers(state: GameState, player: str, deed: str, *, rent_card: str | None = None) -> list[Offer]:
    """What ``player`` can do with ``deed``: buy it (or let it go to auction), pay its rent, or, as its
    owner, collect rent, build, sell, break a hotel down in a shortage, mortgage or lift the mortgage."""
    seat = state.seat(player)
    prop = state.edition.property(deed)
    ps = state.props[prop.number]
    rules = state.rules
    out: list[Offer] = []
    if ps.owner is None:
        out.append(make(state, "buy", Buy(player, prop.id), price=-prop.price))
        out.append(make(state, "auction", StartAuction(prop.id, declined_by=player)))
        return out
    if ps.owner != seat:
        rent = Rent(player, prop.id, card=rent_card)
        if deeds.needs_dice(state.edition, state.props, prop, rent_card):
            times = 10 if rent_card == "nearest_utility" else deeds.utility_multiplier(state.edition, state.props,
                                                                                        prop)
            out.append(Offer("rent", rent, needs=("dice",), minimum=2, maximum=12, figures=(("times", times),)))
        else:
            out.append(make(state, "rent", rent))
        return out
    lift_figures = (("value", prop.mortgage), ("interest", rules.interest(prop.mortgage)),
                    ("percent", rules.mortgage_interest_percent))
    if _decision(state, seat, prop.number):
        out.append(make(state, "unmortgage", Unmortgage(player, prop.id), price=-rules.lift_cost(prop.mortgage),
                        figures=lift_figures))
        out.append(make(state, "keep_mortgaged", KeepMortgaged(player, prop.id),
                        price=-rules.interest(prop.mortgage),
                        figures=(("percent", rules.mortgage_interest_percent),)))
        return out
    if any(other != seat and not p.bankrupt for other, p in enumerate(state.players)):
        out.append(Offer("collect_rent", Rent("", prop.id, card=rent_card), needs=("payer",)))
    if prop.kind == "street":
        level = state.level(prop.number)
        group = state.edition.groups[prop.group]
        build = build_offer(state, player, deed)
        if build is not None:
            out.append(build)
        if level:
            sell = make(state, "sell_hotel" if ps.hotel else "sell_house", SellBuilding(player, prop.id),
                        price=buildings.sell_price(prop))
            out.append(sell)
            breakdown = buildings.shortage_breakdown(state, prop) if sell.refused else None
            if breakdown is not None:
                action = SellBuildings(player, breakdown)
                out.append(make(state, "sell_down", action, figures=(("levels", tuple(breakdown.items())),)))
        if any(state.level(n) for n in group):
            out.append(make(state, "sell_all_buildings", SellAllBuildings(player, prop.id)))
    out.append(mortgage_offer(state, player, deed))
    return out


def build_offer(state: GameState, player: str, deed: str) -> Offer | None:
    """The next building on ``deed`` for ``player``: a house, or the hotel after the last house, at the
    printed house price, refused by the engine when the rules say not now (build evenly, a street of the
    group mortgaged, the bank out of that building, the cash). None when there is no next building to
    offer: not a street of a group the player has whole, or a hotel already."""
    seat = state.seat(player)
    prop = state.edition.property(deed)
    if prop.kind != "street" or state.props[prop.number].owner != seat:
        return None
    hotel_level = state.rules.hotel_level
    level = state.level(prop.number)
    if level >= hotel_level or not all(state.props[n].owner == seat for n in state.edition.groups[prop.group]):
        return None
    kind = "build_hotel" if level + 1 == hotel_level else "build_house"
    return make(state, kind, Build(player, prop.id), price=-prop.house_price)


def group_build_offer(state: GameState, player: str, deed: str) -> Offer | None:
    """The next building on the colour group of ``deed``, where building evenly puts it (§6.2): on the
    first of the group's streets with the fewest buildings. :func:`build_offer` of that street."""
    prop = state.edition.property(deed)
    if prop.kind != "street":
        return None
    _level, number = min((state.level(n), n) for n in state.edition.groups[prop.group])
    return build_offer(state, player, state.edition.properties[number].id)


def mortgage_offer(state: GameState, player: str, deed: str) -> Offer:
    """Mortgaging the owner's ``deed`` (its mortgage value in cash), or lifting its mortgage when it is
    mortgaged (the value and the interest), as the engine allows them now."""
    prop = state.edition.property(deed)
    rules = state.rules
    if state.props[prop.number].mortgaged:
        return make(state, "unmortgage", Unmortgage(player, prop.id), price=-rules.lift_cost(prop.mortgage),
                    figures=(("value", prop.mortgage), ("interest", rules.interest(prop.mortgage)),
                             ("percent", rules.mortgage_interest_percent)))
    return make(state, "mortgage", Mortgage(player, prop.id), price=prop.mortgage,
                figures=(("lift", rules.lift_cost(prop.mortgage)),))


# --- squares and cards --------------------------------------------------------------------------------
def square_offers(state: GameState, player: str, square: str) -> list[Offer]:
    """What ``player`` can do on a square that is not a deed: GO, a tax, Jail, Free Parking, a card's deck."""
    seat = state.seat(player)
    me = state.players[seat]
    rules = state.rules
    if square == "go":
        out = [make(state, "salary", Salary(player))]
        if rules.double_salary_on_go:
            out.append(make(state, "salary_landed", Salary(player, landed=True)))
        return out
    if square in ("income_tax", "luxury_tax"):
        sq = state.edition.square(square)
        if square == "income_tax" and rules.income_tax_percent > 0:
            return [make(state, "tax_flat", Tax(player, square, "flat"), price=-sq.amount),
                    make(state, "tax_percent", Tax(player, square, "percent"),
                         figures=(("percent", rules.income_tax_percent),))]
        return [make(state, "tax", Tax(player, square), figures=(("square", sq.name),))]
    if square in ("jail", "go_to_jail"):
        if me.in_jail:
            out = [make(state, "jail_fine", JailFine(player), price=-rules.jail_fine)]
            if me.jail_cards:
                out.append(make(state, "use_jail_card", UseJailCard(player)))
            out.append(make(state, "leave_jail", LeaveJail(player)))
            return out
        return [make(state, "go_to_jail", GoToJail(player))]
    if square == "free_parking":
        if not rules.free_parking_pot:
            return []  # nothing happens there under the printed rules
        return [make(state, "free_parking", FreeParking(player), figures=(("pot", state.pot),))]
    if square in ("chance", "community_chest"):
        return [Offer("card", DrawCard(player, square, ""), needs=("card",),
                      figures=(("deck", state.edition.deck_names.get(square, square)),))]
    raise UnknownName("unknown_square", square=square, edition=state.edition.name)


def card_offer(state: GameState, action: DrawCard) -> Offer:
    """A printed card drawn by a player: complete, or what it still needs to know (pay or draw, where it
    was drawn, whether GO was passed, the dice) with the choices it leads to."""
    card = state.edition.card(action.deck, action.card)
    needs = payments.card_needs(state.edition, card, action)
    if not needs:
        return make(state, "card", action, figures=(("text", card.text),))
    need = needs[0]
    choices: tuple[Offer, ...]
    if need == "choice":
        choices = (make(state, "card_pay", replace(action, choice="pay"), price=-card.amount),
                   make(state, "card_draw", replace(action, choice="draw"),
                        figures=(("deck", state.edition.deck_names.get(card.draw, card.draw)),)))
    elif need == "square":
        squares = [sq for sq in state.edition.squares if sq.kind == action.deck]
        choices = tuple(card_offer(state, replace(action, square=sq.id)) for sq in squares)
        choices = tuple(replace(c, figures=(*c.figures, ("square", sq.index), ("number", i + 1)))
                        for i, (c, sq) in enumerate(zip(choices, squares, strict=True)))
    else:  # passed_go
        choices = (replace(card_offer(state, replace(action, passed_go=True)), kind="card_passed_go"),
                   replace(card_offer(state, replace(action, passed_go=False)), kind="card_not_passed_go"))
    return Offer("card", action, needs=needs, choices=choices, figures=(("text", card.text),))


# --- a player's own card ------------------------------------------------------------------------------
def player_offers(state: GameState, player: str) -> list[Offer]:
    """What a player's card alone offers: decisions on received mortgaged deeds, paying debts or going
    bankrupt, the trade proposals to answer (accept or refuse, as their receiver) or to withdraw (as their
    proposer), jail, and paying or collecting an amount."""
    seat = state.seat(player)
    me = state.players[seat]
    out: list[Offer] = []
    for decision in state.decisions:
        if decision.player == seat:
            prop = state.edition.properties[decision.property]
            out.append(Offer("decide", None, needs=("deed",), figures=(("property", prop.id),),
                             choices=tuple(deed_offers(state, player, prop.id))))
    out += debt_offers(state, player)
    if state.proposals:
        out += proposal_offers(state, player)
    if me.in_jail:
        out += square_offers(state, player, "jail")
    maximum = me.cash
    out.append(Offer("pay_bank", Pay(player, 0, "bank"), needs=("amount",), minimum=1, maximum=maximum))
    if state.rules.free_parking_pot:
        out.append(Offer("pay_pot", Pay(player, 0, "pot"), needs=("amount",), minimum=1, maximum=maximum))
    out.append(Offer("collect", Collect(player, 0), needs=("amount",), minimum=1))
    out.append(Offer("transfer", Pay(player, 0, "", reason="transfer"), needs=("to", "amount"), minimum=1,
                     maximum=maximum))
    return out


def debt_offers(state: GameState, player: str) -> list[Offer]:
    """For a player who owes money: paying every debt (refused while the cash does not cover them), and
    going bankrupt (refused while selling and mortgaging would cover them). None for a player who owes
    nothing."""
    debt = state.debt_total(state.seat(player))
    if not debt:
        return []
    return [make(state, "pay_debt", PayDebt(player), price=-debt), make(state, "bankrupt", Bankrupt(player))]


def proposal_offers(state: GameState, player: str) -> list[Offer]:
    """The trade proposals ``player`` can answer: accept or refuse each open one made to them (an accept
    previewed as the trade itself, or refused with the reason it cannot be applied now), withdraw each of
    their own (or put a refused one away). ``figures``: the other side (``player``) and the ``proposal`` id."""
    seat = state.seat(player)
    out: list[Offer] = []
    for proposal in state.proposals:
        receiver, proposer = state.seats.get(proposal.receiver), state.seats.get(proposal.proposer)
        if receiver == seat and not proposal.refused:
            figures = (("player", proposal.proposer), ("proposal", proposal.id))
            out.append(make(state, "accept_trade", AcceptTrade(player, proposal.id), figures=figures))
            out.append(make(state, "refuse_trade", RefuseTrade(player, proposal.id), figures=figures))
        elif proposer == seat:
            out.append(make(state, "cancel_trade", CancelTrade(player, proposal.id),
                            figures=(("player", proposal.receiver), ("proposal", proposal.id))))
    return out


def bid_offer(state: GameState, player: str) -> Offer:
    """The bid ``player`` can make in the open auction (the amount still to choose, from one more than the
    high bid up to their cash), or the engine's reason why they cannot bid at all: no auction, a decliner
    the house rules keep out, a bankrupt player, a debt to pay first, not the cash for the lowest bid. In a
    building auction its choices are the streets the player may bid for the building on, each with its
    lowest bid (the printed price at least); none is refused for a reason that names a street."""
    auction = state.auction
    if auction is None:
        return Offer("bid", Bid(player, 0), refusal=IllegalAction("no_auction"))
    seat = state.seat(player)
    low = auction.high_bid + 1
    maximum = state.players[seat].cash
    if auction.building:
        # Only a street of a group the bidder has whole, none of it mortgaged, below a hotel may take a building
        # (§6.1, §6.3): the others are not tried; the engine rules on the rest.
        streets = [p for p in state.edition.properties if p.kind == "street" and state.props[p.number].owner == seat
                   and state.level(p.number) < state.rules.hotel_level
                   and all(state.props[n].owner == seat and not state.props[n].mortgaged
                           for n in state.edition.groups[p.group])]
        choices: list[Offer] = []
        refusals: list[Offer] = []
        for street in streets:
            lowest = max(low, street.house_price)
            tried = make(state, "bid", Bid(player, lowest, street.id), price=-lowest)
            if tried.refused:
                refusals.append(tried)
                continue
            choices.append(Offer("bid_on", Bid(player, 0, street.id), needs=("amount",), minimum=lowest,
                                 maximum=maximum, figures=(("property", street.id),)))
        if not choices:
            keys = {r.refusal.key for r in refusals if r.refusal is not None}
            if len(keys) == 1 and keys & _BIDDER_REFUSALS:
                return Offer("bid", Bid(player, 0), refusal=refusals[0].refusal, short_by=refusals[0].short_by)
            return Offer("bid", Bid(player, 0), refusal=IllegalAction("cannot_bid_building", player=player))
        return Offer("bid", Bid(player, 0), needs=("property", "amount"), choices=tuple(choices), minimum=low,
                     maximum=maximum)
    tried = make(state, "bid", Bid(player, low), price=-low)
    if tried.refusal is not None:
        return Offer("bid", Bid(player, 0), refusal=tried.refusal, short_by=tried.short_by)
    return Offer("bid", Bid(player, 0), needs=("amount",), minimum=low, maximum=maximum)


_BIDDER_REFUSALS = frozenset({"player_bankrupt", "in_debt", "decision_pending", CASH_SHORT})
"""Refusals of a building bid that are about the bidder, not the street: said as they are."""


def table_offers(state: GameState) -> list[Offer]:
    """What nobody's card is needed for: closing the auction, undoing, ending the turn or the game."""
    out: list[Offer] = []
    if state.auction is not None:
        out.append(make(state, "auction_close", AuctionClose()))
    if state.history is not None:
        out.append(make(state, "undo", Undo()))
    out.append(make(state, "end_turn", EndTurn()))
    out.append(make(state, "end_game", EndGame()))
    return out


def building_auction_offers(state: GameState) -> list[Offer]:
    """The bank's auction of a house and of a hotel (§6.6), each refused with the engine's reason unless
    there is a shortage of it: two or more players who may build want more than the bank has."""
    return [make(state, "building_auction", BuildingAuction(building)) for building in ("house", "hotel")]


def offers(state: GameState, player: str | None = None, *, deed: str | None = None, square: str | None = None,
           rent_card: str | None = None) -> list[Offer]:
    """Every action open to ``player`` at ``deed`` or ``square`` (or at their own card when neither is
    given; the table's when ``player`` is None), each an :class:`Offer`."""
    if player is None:
        return table_offers(state)
    if deed is not None:
        return deed_offers(state, player, deed, rent_card=rent_card)
    if square is not None:
        return square_offers(state, player, square)
    return player_offers(state, player)


def complete(state: GameState, offer: Offer, **chosen: Any) -> Offer:
    """``offer`` with the chosen fields filled in (``dice``, ``amount``, ``to``, ``payer``, ``card``,
    ``square``, ``passed_go``, ``choice``, ``property``), previewed; still-open needs stay listed."""
    action = offer.action
    if action is None:
        raise ValueError(f"the {offer.kind} offer has no action to complete: choose among its choices")
    values = dict(chosen)
    if "payer" in values:
        values["player"] = values.pop("payer")
    fields_ = {k: v for k, v in values.items() if hasattr(action, k)}
    action = replace(action, **fields_)
    needs = tuple(n for n in offer.needs if n not in chosen)
    if isinstance(action, DrawCard) and "card" in chosen:
        return card_offer(state, action)
    if needs:
        return replace(offer, action=action, needs=needs)
    return make(state, offer.kind, action, price=offer.price, figures=offer.figures, minimum=offer.minimum,
                maximum=offer.maximum)


# --- raising cash -------------------------------------------------------------------------------------
def ways_to_raise(state: GameState, player: str) -> list[Offer]:
    """Every way :func:`iter_ways_to_raise` finds, in its order."""
    return list(iter_ways_to_raise(state, player))


def iter_ways_to_raise(state: GameState, player: str, *, preview: bool = True) -> Iterator[Offer]:
    """The allowed offers that bring ``player`` cash from their deeds, the cheapest sacrifice first:
    mortgages of deeds whose group has no buildings (deeds outside a whole group first, smaller first),
    then one building off the highest street (a hotel broken down as the bank's houses allow, or the
    group's buildings sold when nothing smaller works).

    ``preview=False`` does not ask the mortgages of bare deeds whether the engine takes them (the rules allow
    them but while a high bid depends on the cash): for a caller that acts on the first way at once, through
    its preview, and is told by the engine if it was wrong (the bots)."""
    seat = state.seat(player)
    edition = state.edition
    owned = state.owned(seat)

    def owns_group(number: int) -> bool:
        return all(state.props[n].owner == seat for n in edition.groups[edition.properties[number].group])

    bare = [p for p in owned if not state.props[p.number].mortgaged
            and not any(state.level(n) for n in edition.groups[p.group])]
    bare.sort(key=lambda p: (owns_group(p.number), p.mortgage))
    for p in bare:
        mortgage = make(state, "mortgage", Mortgage(player, p.id), price=p.mortgage)
        if not preview or not mortgage.refused:
            yield mortgage
    built = [p for p in owned if state.level(p.number)]
    done_groups: set[str] = set()
    for top in sorted({state.level(p.number) for p in built}, reverse=True):
        for prop in (p for p in built if state.level(p.number) == top):
            if prop.group in done_groups:
                continue
            sell = make(state, "sell_hotel" if state.props[prop.number].hotel else "sell_house",
                        SellBuilding(player, prop.id), price=buildings.sell_price(prop))
            if not sell.refused:
                yield sell
                done_groups.add(prop.group)
                continue
            breakdown = buildings.shortage_breakdown(state, prop)
            if breakdown is not None:
                down = make(state, "sell_down", SellBuildings(player, breakdown),
                            figures=(("levels", tuple(breakdown.items())),))
                if not down.refused:
                    yield down
                    done_groups.add(prop.group)
                    continue
            whole = make(state, "sell_all_buildings", SellAllBuildings(player, prop.id))
            if not whole.refused:
                yield whole
                done_groups.add(prop.group)


def raise_cash(state: GameState, player: str, short_by: int) -> list[Offer]:
    """The ways to find ``short_by``: :func:`ways_to_raise` in order, as many as it takes (all of them when
    they do not reach it)."""
    out: list[Offer] = []
    total = 0
    for way in iter_ways_to_raise(state, player):
        if total >= short_by:
            break
        out.append(way)
        total += way.amount
    return out


def legal_actions(state: GameState) -> list[Action]:
    """Every complete, allowed offer for every player and the table: what can be done now without
    choosing an amount, dice or a card. It asks the engine whether each is accepted and nothing more (no
    board moves, no words)."""
    if state.ended:
        return [Undo()] if state.history is not None else []
    seen: list[Action] = []
    hashed: set[Action] = set()

    def add(found: list[Offer]) -> None:
        for offer in found:
            for o in (offer, *offer.choices):
                action = o.action
                if action is None or not o.allowed:
                    continue
                try:
                    if action in hashed:
                        continue
                    hashed.add(action)
                except TypeError:  # an action with a mapping in it (sell_buildings' levels)
                    if action in seen:
                        continue
                seen.append(action)

    for player in state.players:
        if player.bankrupt:
            continue
        name = player.name
        add(player_offers(state, name))
        for square in ("go", "income_tax", "luxury_tax", "jail", "free_parking"):
            add(square_offers(state, name, square))
        for prop in state.edition.properties:
            add(deed_offers(state, name, prop.id))
    add(table_offers(state))
    add(building_auction_offers(state))
    return seen


@dataclass(frozen=True)
class DeedFacts:
    """A deed as its card reads now: owner, the rent it takes, the mortgage figures."""

    owner: str | None
    rent: int | None
    """``None`` when the dice decide (a utility): see ``times``."""
    basis: str
    times: int = 0
    lift_cost: int = 0


def deed_facts(state: GameState, deed: str) -> DeedFacts:
    """What a deed's card shows: its owner, the rent now (or the dice multiplier) and why, the lift cost."""
    prop = state.edition.property(deed)
    ps = state.props[prop.number]
    owner = state.players[ps.owner].name if ps.owner is not None else None
    lift = state.rules.lift_cost(prop.mortgage)
    if ps.owner is not None and not ps.mortgaged and deeds.needs_dice(state.edition, state.props, prop, None):
        times = deeds.utility_multiplier(state.edition, state.props, prop)
        owned = deeds.utilities_owned(state.edition, state.props, prop)
        return DeedFacts(owner, None, f"utilities_{owned}", times=times, lift_cost=lift)
    amount, basis = deeds.rent_for(state.edition, state.rules, state.props, prop)
    return DeedFacts(owner, amount, basis, lift_cost=lift)
