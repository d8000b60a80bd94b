"""Walking the engine's choices: which choice a tap opens, where an offer leads (what it still asks, the
ways to raise the cash it is refused for, its confirmation), and showing a step afresh, or withdrawing it,
when the game changes under it (a phone acted meanwhile).

Every menu, title and line comes from :mod:`banker.choice`; the grammar only says which step walks it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from banker import balances
from banker import choice as bc
from banker import offer as offering
from banker.actions import Bid, DrawCard, Rent
from banker.advisor import next_building_line
from banker.errors import BankerError
from banker.messages import render
from banker.offer import Offer
from banker.state import GameState
from firmware.grammar.inputs import Beep, Effect
from firmware.grammar.steps import (
    ERROR_S,
    Amount,
    BidOf,
    CardOf,
    Choose,
    Confirm,
    Context,
    DeckOf,
    DeedOf,
    Dice,
    DrawnOf,
    GrammarState,
    Idle,
    Notice,
    Out,
    PlayerStep,
    RentFrom,
    ShortOf,
    Source,
    SquareOf,
    Step,
    go,
)


def game_of(ctx: Context) -> GameState:
    assert ctx.game is not None
    return ctx.game


def name_of(ctx: Context, seat: int) -> str:
    return game_of(ctx).players[seat].name


def make_choice(source: Source, ctx: Context) -> bc.Choice:
    """The engine's choice that ``source`` names, on the game as it is now, in the table's words.

    Raises:
        BankerError: a printed card that is not in its deck.
    """
    game, language = game_of(ctx), ctx.language
    match source:
        case CardOf(seat):
            return bc.card_choice(game, name_of(ctx, seat), language, front="table")
        case DeedOf(seat, deed, rent_card):
            return bc.deed_choice(game, name_of(ctx, seat), deed, language, rent_card=rent_card,
                                  hint=_payback(ctx, seat, deed), front="table")
        case SquareOf(seat, square):
            return bc.square_choice(game, name_of(ctx, seat), square, language)
        case DeckOf(seat, deck):
            return bc.deck_choice(game, name_of(ctx, seat), deck, language)
        case DrawnOf(_, action):
            return bc.drawn_choice(game, action, language)
        case BidOf(seat):
            return bc.auction_choice(game, name_of(ctx, seat), language)
        case ShortOf(_, action):
            return bc.short_choice(game, offering.preview(game, action), language)
        case _:
            assert_never(source)


def _payback(ctx: Context, seat: int, deed: str) -> str:
    """The owner's menu's line "Next house pays back in 9 throws" (the advisor's), "" when there is none."""
    game = game_of(ctx)
    prop = game.edition.property(deed)
    if game.props[prop.number].owner != seat:
        return ""
    line = next_building_line(game, seat, prop)
    return "" if line is None else str(render(*line, ctx.language))


def choose(ctx: Context, source: Source, back: Step, *, show_card: bool = False) -> Choose:
    return Choose(source, make_choice(source, ctx), back, show_card=show_card, made_on=ctx.game)


def player_step(ctx: Context, seat: int) -> PlayerStep:
    """A player's card menu. A debtor whom even selling everything would not get out of debt
    (:func:`banker.choice.must_go_bankrupt`) starts on "Declare bankruptcy", not on the refused "✕ Pay debts"."""
    found = make_choice(CardOf(seat), ctx)
    index = 0
    if bc.must_go_bankrupt(game_of(ctx), seat):
        index = next((n for n, shown in enumerate(found.items)
                      if shown.offer.kind == "bankrupt" and shown.offer.refusal is None), 0)
    return PlayerStep(seat, found, index=index, made_on=ctx.game)


def error_notice(ctx: Context, text: str, then: Step) -> Notice:
    return Notice("", until=ctx.now + ERROR_S, then=then, error=True, text=text)


# --- where an offer leads ----------------------------------------------------------------------------
def take(ctx: Context, seat: int, item: bc.Item, back: Step, *, decline: Step | None = None,
         from_menu: bool = True) -> Step:
    """Where ``item`` leads: its refusal (from a menu), the ways to raise the cash it is refused for, what
    it still asks (the dice, the payer's card, an amount, a printed card, a choice among complete offers),
    or its confirmation."""
    offer = item.offer
    action = offer.action
    if offer.refusal is not None and offer.short_by and action is not None:
        short = choose(ctx, ShortOf(seat, action), back)
        if short.choice.items:
            return short
    if offer.refusal is not None and from_menu:
        return error_notice(ctx, item.refused, back)
    if offer.needs and offer.needs[0] == "deed":  # a decision on a received mortgaged deed: its owner's menu
        return choose(ctx, DeedOf(seat, str(offer.figure("property"))), back, show_card=True)
    ask = item.asks[0] if item.asks else None
    if ask is not None and ask.field == "dice":
        return Dice(offer, back, ask.start, ask.minimum, ask.maximum)
    if ask is not None and ask.field == "player" and isinstance(action, Rent):
        return RentFrom(seat, action.property, back)
    if ask is not None and ask.field == "card" and isinstance(action, DrawCard):
        return choose(ctx, DeckOf(seat, action.deck), back)
    if ask is not None and ask.field in ("amount", "to"):
        return amount_step(offer, seat, back, item)
    if offer.choices and isinstance(action, DrawCard):
        return choose(ctx, DrawnOf(seat, action), back)
    if offer.choices and isinstance(action, Bid):
        return choose(ctx, BidOf(seat), back)
    return confirm(ctx, offer, back, decline)


def amount_step(offer: Offer, seat: int, back: Step, item: bc.Item, to: str = "") -> Amount:
    """The Up/Down amount that completes ``offer``, within the engine's range, from where it starts."""
    ask = next(a for a in item.asks if a.field == "amount")
    return Amount(offer, seat, back, value=ask.start, minimum=max(1, ask.minimum), maximum=ask.maximum,
                  steps=ask.steps, to=to)


def confirm(ctx: Context, offer: Offer, back: Step, decline: Step | None = None) -> Confirm:
    return Confirm(offer, back, decline=decline, since=ctx.now, made_on=ctx.game)


def pair(ctx: Context, seat: int, deed: str, back: Step, card: str | None = None) -> Step:
    """A player's card with a deed: buy it (✕ offers the auction), pay its rent, or the owner's menu."""
    source = DeedOf(seat, deed, card)
    found = make_choice(source, ctx)
    if found.direct is None:
        return Choose(source, found, back, show_card=True, made_on=ctx.game)
    declined = None
    if found.decline is not None:
        declined = take(ctx, seat, found.items[found.decline], back, from_menu=False)
    return take(ctx, seat, found.items[found.direct], back, decline=declined, from_menu=False)


def special(ctx: Context, seat: int, square: str, back: Step) -> Step:
    """A player's card with a square's tag: GO, a tax, Jail, Free Parking (one offer is taken at once)."""
    source = SquareOf(seat, square)
    found = make_choice(source, ctx)
    if not found.items:
        return Notice("", until=ctx.now + ERROR_S, then=Idle(), text=found.hint)
    if found.direct is not None:
        return take(ctx, seat, found.items[found.direct], back, from_menu=False)
    return Choose(source, found, back, made_on=ctx.game)


def drawn(ctx: Context, seat: int, action: DrawCard, back: Step) -> Step:
    """A printed card drawn: what it still needs (where, whether GO was passed, pay or draw, the dice), then
    its confirmation."""
    source = DrawnOf(seat, action)
    try:
        found = make_choice(source, ctx)
    except BankerError as error:
        return error_notice(ctx, error.translated(ctx.language), back)
    if found.direct is not None:
        return take(ctx, seat, found.items[found.direct], back, from_menu=False)
    return Choose(source, found, back, made_on=ctx.game)


def bid(ctx: Context, seat: int, back: Step) -> Step:
    """A bank card in an open auction: the bid's amount, or for a building the street first."""
    source = BidOf(seat)
    found = make_choice(source, ctx)
    if found.direct is None:
        return Choose(source, found, back, made_on=ctx.game)
    item = found.items[found.direct]
    if item.offer.refusal is not None:
        return error_notice(ctx, item.refused, back)
    return amount_step(item.offer, seat, back, item)


def transfer(ctx: Context, payer: int, to: str, back: Step) -> Step:
    """A player's card, then another's: the amount the first pays the second."""
    game = game_of(ctx)
    offer = next(o for o in offering.player_offers(game, name_of(ctx, payer)) if o.kind == "transfer")
    item = bc.item(game, offer, ctx.language)
    return replace(amount_step(offer, payer, back, item, to=to), value=0)


def completed(ctx: Context, step: Amount) -> Offer | None:
    """The offer ``step`` completes with its amount (and its receiver), previewed; None while incomplete."""
    if step.value <= 0:
        return None
    chosen: dict[str, object] = {"amount": step.value}
    if step.to and "to" in step.offer.needs:
        chosen["to"] = step.to
    done = offering.complete(game_of(ctx), step.offer, **chosen)
    return done if done.complete else None


def is_bid(offer: Offer) -> bool:
    return isinstance(offer.action, Bid)


def entries(step: Choose) -> int:
    """The lines to choose from: a deck's printed cards, else the engine's items (and "Show the card")."""
    if isinstance(step.source, DeckOf):
        return len(step.choice.items[0].asks[0].options)
    return len(step.choice.items) + (1 if step.show_card else 0)


def refusal_text(ctx: Context, offer: Offer) -> str:
    """Why the engine refuses ``offer``, as the table may say it."""
    assert offer.refusal is not None
    if ctx.game is None:
        return offer.refusal.translated(ctx.language)
    return bc.refusal_words(ctx.game, offer, ctx.language, balances.TABLE)


# --- the game changed under a step ------------------------------------------------------------------
def refresh(gs: GrammarState, ctx: Context) -> Out:
    """The step shown afresh when the game it was made on has changed: a menu with the engine's new choice
    (a beep when its lines changed), a confirmation with its new figures (a beep, and OK waits again), or
    withdrawn with the engine's reason when the offer is no longer made (a phone bought the deed)."""
    current, game = gs.step, ctx.game
    if game is None:
        return gs, []
    effects: list[Effect] = []
    match current:
        case Confirm() if current.made_on is not None and current.made_on is not game:
            offer = offering.refresh(game, current.offer)
            if offer.refusal is not None:
                text = bc.refusal_words(game, offer, ctx.language, balances.TABLE)
                return go(gs, Notice("withdrawn", until=ctx.now + ERROR_S, then=current.back, error=True, text=text),
                          Beep("error"))
            if offering.signature(offer) != offering.signature(current.offer):
                effects.append(Beep("attention"))
                return go(gs, replace(current, offer=offer, since=ctx.now, made_on=game), *effects)
            return go(gs, replace(current, offer=offer, made_on=game))
        case Choose() if current.made_on is not None and current.made_on is not game:
            try:
                fresh_choice = make_choice(current.source, ctx)
            except BankerError as error:
                return go(gs, error_notice(ctx, error.translated(ctx.language), current.back), Beep("error"))
            if not fresh_choice.items:
                return go(gs, current.back)
            if [i.menu for i in fresh_choice.items] != [i.menu for i in current.choice.items]:
                effects.append(Beep("attention"))
            fresh = replace(current, choice=fresh_choice, made_on=game)
            return go(gs, replace(fresh, index=min(current.index, max(0, entries(fresh) - 1))), *effects)
        case PlayerStep() if current.made_on is not None and current.made_on is not game:
            if current.seat >= len(game.players) or game.players[current.seat].bankrupt:
                return go(gs, Idle(page_at=ctx.now))
            fresh_choice = make_choice(CardOf(current.seat), ctx)
            if [i.menu for i in fresh_choice.items] != [i.menu for i in current.choice.items]:
                effects.append(Beep("attention"))
            index = min(current.index, max(0, len(fresh_choice.items) - 1))
            return go(gs, replace(current, choice=fresh_choice, index=index, made_on=game), *effects)
        case _:
            return gs, []
