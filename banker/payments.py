"""Money that the board itself moves: salary (§2), taxes, cards, jail and Free Parking (§5)."""

from __future__ import annotations

from typing import Any

from banker import checks
from banker.actions import (
    Collect,
    DrawCard,
    FreeParking,
    GoToJail,
    JailFine,
    LeaveJail,
    Pay,
    Salary,
    Tax,
    UseJailCard,
)
from banker.edition import BOARD_SIZE, Card, Edition, Square
from banker.errors import BadInput, IllegalAction
from banker.state import BANK, POT
from banker.work import Work
from banker.worth import total_worth


def salary(w: Work, a: Salary) -> None:
    who = checks.seat(w, a.player)
    if w.players[who].in_jail:
        raise IllegalAction("salary_in_jail", player=a.player)
    pay_salary(w, who, landed=a.landed)


def pay_salary(w: Work, who: int, *, landed: bool) -> None:
    amount = w.rules.salary * (2 if landed and w.rules.double_salary_on_go else 1)
    if amount <= 0:
        return
    txn = w.transfer(BANK, w.name(who), amount, "salary")
    w.event("salary", txn, player=w.name(who), amount=amount)


def collect(w: Work, a: Collect) -> None:
    checks.seat(w, a.player)
    checks.positive(a.amount, "amount")
    txn = w.transfer(BANK, a.player, a.amount, a.reason or "collect")
    w.event("collected", txn, player=a.player, amount=a.amount, reason=a.reason)


def pay(w: Work, a: Pay) -> None:
    who = checks.seat(w, a.player)
    checks.positive(a.amount, "amount")
    to = checks.account(w, a.to)
    if to == POT and not w.rules.free_parking_pot:
        raise IllegalAction("no_pot_rule")
    if to == a.player:
        raise IllegalAction("pay_self", player=a.player)
    w.charge(who, to, a.amount, a.reason or "pay")


def free_parking(w: Work, a: FreeParking) -> None:
    checks.seat(w, a.player)
    if not w.rules.free_parking_pot:
        raise IllegalAction("no_pot_rule")
    if w.pot == 0:
        w.event("pot_empty", player=a.player)
        return
    amount = w.pot
    txn = w.transfer(POT, a.player, amount, "free_parking")
    w.event("pot_collected", txn, player=a.player, amount=amount)


def resolve_square(w: Work, ref: str) -> Square:
    return w.edition.square(int(ref) if ref.isdigit() else ref)


def tax(w: Work, a: Tax) -> None:
    who = checks.seat(w, a.player)
    square = resolve_square(w, a.square)
    if square.kind != "tax":
        raise IllegalAction("not_a_tax_square", square=square.name)
    amount = square.amount
    if square.id == "luxury_tax" and w.rules.luxury_tax >= 0:
        amount = w.rules.luxury_tax
    offers_choice = square.id == "income_tax" and w.rules.income_tax_percent > 0
    if offers_choice:
        if a.choice not in ("flat", "percent"):
            raise BadInput("tax_choice_needed", square=square.name, flat=w.money(amount),
                           percent=w.rules.income_tax_percent)
        if a.choice == "percent":
            worth = total_worth(w.freeze(), who)
            amount = w.rules.percent(worth, w.rules.income_tax_percent)
    elif a.choice not in (None, "flat"):
        raise BadInput("tax_no_choice", square=square.name)
    w.charge(who, w.fee_account(), amount, "tax", square=square.id)


def go_to_jail(w: Work, a: GoToJail) -> None:
    who = checks.seat(w, a.player)
    send_to_jail(w, who)


def send_to_jail(w: Work, who: int) -> None:
    if w.players[who].in_jail:
        raise IllegalAction("already_in_jail", player=w.name(who))
    w.set_player(who, in_jail=True)
    w.event("jailed", player=w.name(who))


def _in_jail(w: Work, name: str) -> int:
    who = checks.seat(w, name)
    if not w.players[who].in_jail:
        raise IllegalAction("not_in_jail", player=name)
    return who


def jail_fine(w: Work, a: JailFine) -> None:
    who = _in_jail(w, a.player)
    w.set_player(who, in_jail=False)
    # The player leaves jail either way; a fine the cash does not cover is owed (the debt's event follows).
    paid = w.players[who].cash >= w.rules.jail_fine and not w.has_debt(who)
    w.event("released", player=a.player, how="fine" if paid else "fine_owed")
    w.charge(who, w.fee_account(), w.rules.jail_fine, "jail_fine")


def use_jail_card(w: Work, a: UseJailCard) -> None:
    who = _in_jail(w, a.player)
    cards = w.players[who].jail_cards
    if not cards:
        raise IllegalAction("no_jail_card", player=a.player)
    w.set_player(who, in_jail=False, jail_cards=cards[1:])
    w.event("released", player=a.player, how="card", deck=cards[0])


def leave_jail(w: Work, a: LeaveJail) -> None:
    who = _in_jail(w, a.player)
    w.set_player(who, in_jail=False)
    w.event("released", player=a.player, how="double")
    w.charge(who, w.fee_account(), w.rules.jail_double_fine, "jail_fine")


def _passes_go(w: Work, card: Card, origin: Square | None, destination: int, passed_go: bool | None) -> bool:
    if destination == 0:
        return True
    if origin is not None:
        return destination < origin.index
    if passed_go is None:
        known = passes_go_by_deck(w.edition, card)
        if known is None:
            raise BadInput("card_needs_square", card=card.text)
        return known
    return passed_go


def passes_go_by_deck(edition: Edition, card: Card) -> bool | None:
    """Whether an "advance" card passes GO from wherever its deck's squares are, or ``None`` when that
    depends on which of them it was drawn on."""
    if card.to == 0:
        return True
    starts = [sq.index for sq in edition.squares if sq.kind == card.deck]
    if all(start < card.to for start in starts):
        return False
    if all(start > card.to for start in starts):
        return True
    return None


def card_needs(edition: Edition, card: Card, action: DrawCard) -> tuple[str, ...]:
    """What a drawn card still needs to know before it can be played: ``choice`` (pay or take the other
    deck's card), ``square`` (where it was drawn, for "nearest" and "go back"), or ``passed_go``."""
    if card.kind == "pay_or_draw" and action.choice is None:
        return ("choice",)
    if card.kind in ("nearest", "back") and action.square is None:
        return ("square",)
    if card.kind == "advance" and card.salary and action.square is None and action.passed_go is None \
            and passes_go_by_deck(edition, card) is None:
        return ("passed_go",)
    return ()


def draw_card(w: Work, a: DrawCard) -> None:
    who = checks.seat(w, a.player)
    card = w.edition.card(a.deck, a.card)
    origin: Square | None = None
    if a.square is not None:
        origin = resolve_square(w, a.square)
        # A Chance card can be drawn on a Community Chest square ("pay a fine or take a Chance").
        if origin.kind not in ("chance", "community_chest"):
            raise IllegalAction("card_wrong_square", square=origin.name)
    name = a.player
    if card.kind in ("advance", "nearest", "back") and w.players[who].in_jail:
        raise IllegalAction("card_in_jail", player=name)
    params: dict[str, Any] = {"deck": a.deck, "card": card.id}
    w.event("card", None, player=name, text=card.text, **params)
    fees = w.fee_account()
    kind = card.kind
    if a.choice is not None and kind != "pay_or_draw":
        raise BadInput("card_no_choice", card=card.text)
    if kind == "collect":
        txn = w.transfer(BANK, name, card.amount, "card")
        w.event("collected", txn, player=name, amount=card.amount, reason="card")
    elif kind == "pay":
        w.charge(who, fees, card.amount, "card", **params)
    elif kind == "pay_or_draw":
        choice = a.choice or "pay"
        if choice not in ("pay", "draw"):
            raise BadInput("bad_card_choice", choice=choice)
        if choice == "pay":
            w.charge(who, fees, card.amount, "card", **params)
        else:
            w.event("draw_instead", player=name, deck=card.draw)
    elif kind == "pay_each":
        seats = len(w.players)
        for step in range(1, seats):
            other = (who + step) % seats
            if not w.players[other].bankrupt:
                w.charge(who, w.name(other), card.amount, "card", shared=True, **params)
    elif kind == "collect_each":
        seats = len(w.players)
        for step in range(1, seats):
            other = (who + step) % seats
            if not w.players[other].bankrupt:
                w.charge(other, name, card.amount, "card", **params)
    elif kind == "repairs":
        houses = hotels = 0
        for ps in w.props:
            if ps.owner == who:
                houses += ps.houses
                hotels += 1 if ps.hotel else 0
        amount = houses * card.house + hotels * card.hotel
        if amount == 0:
            w.event("no_repairs", player=name)
        else:
            w.charge(who, fees, amount, "repairs", houses=houses, hotels=hotels, **params)
    elif kind == "go_to_jail":
        send_to_jail(w, who)
    elif kind == "jail_free":
        holder = next((p.name for p in w.players if a.deck in p.jail_cards), None)
        if holder is not None:
            raise IllegalAction("jail_card_held", deck=w.edition.deck_names[a.deck], holder=holder)
        w.set_player(who, jail_cards=(*w.players[who].jail_cards, a.deck))
        w.event("jail_card_kept", player=name, deck=a.deck)
    elif kind == "advance":
        if card.salary and _passes_go(w, card, origin, card.to, a.passed_go):
            pay_salary(w, who, landed=card.to == 0)
        w.event("moved", player=name, square=w.edition.squares[card.to].id)
    elif kind == "nearest":
        if origin is None:
            raise BadInput("card_needs_square", card=card.text)
        target = next(
            sq for step in range(1, BOARD_SIZE + 1)
            if (sq := w.edition.squares[(origin.index + step) % BOARD_SIZE]).kind == card.target
        )
        if target.index < origin.index:
            pay_salary(w, who, landed=False)
        w.event("moved", player=name, square=target.id, rent_card=f"nearest_{card.target}")
    elif kind == "back":
        if origin is None:
            raise BadInput("card_needs_square", card=card.text)
        target_sq = w.edition.squares[(origin.index - card.spaces) % BOARD_SIZE]
        w.event("moved", player=name, square=target_sq.id)
