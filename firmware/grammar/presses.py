"""Presses: Up and Down move, OK takes, ✕ backs out one step; a long ✕ asks to undo, a long OK opens setup
(and, on the screen a tap opened, re-teaches the tag)."""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from banker import offer as offering
from banker.actions import AuctionClose, DrawCard, EndTurn, Undo
from banker.choice import Item
from firmware.grammar import choices
from firmware.grammar.enrollment import (
    enroll_pick,
    enrolling_press,
    is_retag_menu,
    retag_menu,
    retaught,
    unknown_press,
)
from firmware.grammar.inputs import (
    Answer,
    Beep,
    Enroll,
    Press,
    Reset,
    Retag,
    SetLanguage,
    SetSpeech,
    StartTimer,
    Submit,
    SwitchGame,
    SwitchOff,
)
from firmware.grammar.requests import banker_press, offer_request
from firmware.grammar.setup import join_press, setup_menu, speech_menu, wizard_press
from firmware.grammar.steps import (
    AMOUNT_RUN_S,
    CONFIRM_GUARD_S,
    PLAYERS_PER_PAGE,
    Amount,
    BankerAsk,
    Choose,
    Confirm,
    Context,
    DeckOf,
    DeedOf,
    Dice,
    Enrolling,
    GrammarState,
    Idle,
    Menu,
    NewGameWizard,
    Notice,
    Out,
    PlayerStep,
    RentFrom,
    ShortOf,
    ShowJoin,
    Step,
    Target,
    UndoAsk,
    UnknownTag,
    Waiting,
    go,
)
from firmware.grammar.taps import notice
from firmware.tags import Meaning

RETAG_FROM = (Waiting, Confirm, Dice, Menu, Choose, PlayerStep, Notice, RentFrom)
"""Screens a tap opens on which holding OK re-teaches the tapped tag (an amount keeps its long OK,
which changes the step; an unknown tag's screen teaches it with OK)."""


def press(gs: GrammarState, event: Press, ctx: Context) -> Out:
    current = gs.step
    if event.button == "cancel" and event.long:
        if isinstance(current, (Enrolling, NewGameWizard)):
            return go(gs, current.back or Idle(page_at=ctx.now))
        if ctx.game is None or ctx.game.history is None:
            return notice(gs, ctx, "nothing_to_undo", error=True)
        return go(gs, UndoAsk(current), Beep("attention"))
    match current:
        case Notice():
            return _notice_press(gs, current, event, ctx)
        case Idle():
            return _idle_press(gs, current, event, ctx)
        case PlayerStep():
            return _player_press(gs, current, event, ctx)
        case Menu():
            return _menu_press(gs, current, event, ctx)
        case Choose():
            return _choose_press(gs, current, event, ctx)
        case Waiting():
            return _waiting_press(gs, current, event, ctx)
        case RentFrom():
            return go(gs, current.back) if event.button == "cancel" else (gs, [])
        case Confirm():
            return _confirm_press(gs, current, event, ctx)
        case Dice():
            return _dice_press(gs, current, event, ctx)
        case Amount():
            return _amount_press(gs, current, event, ctx)
        case UndoAsk():
            return _undo_press(gs, current, event, ctx)
        case UnknownTag():
            return unknown_press(gs, current, event, ctx)
        case BankerAsk():
            return banker_press(gs, current, event, ctx)
        case Enrolling():
            return enrolling_press(gs, current, event, ctx)
        case NewGameWizard():
            return wizard_press(gs, current, event, ctx)
        case ShowJoin():
            return join_press(gs, current, event, ctx)
        case _:
            assert_never(current)


def moved(index: int, button: str, count: int) -> int:
    """The cursor after Up or Down on a list of ``count`` lines (it goes round)."""
    return (index + (1 if button == "down" else -1)) % max(1, count)


def _notice_press(gs: GrammarState, current: Notice, event: Press, ctx: Context) -> Out:
    nxt = current.then if current.then is not None else Idle(page_at=ctx.now)
    if event.button == "cancel" and not (current.error and isinstance(nxt, (Menu, Choose))):
        # ✕ on a refusal from a menu goes back to that menu (to pick something else); otherwise home.
        nxt = Idle(page_at=ctx.now)
    return offer_request(replace(gs, step=nxt), ctx)


def _idle_press(gs: GrammarState, current: Idle, event: Press, ctx: Context) -> Out:
    button = event.button
    game = ctx.game
    if button == "ok" and (event.long or game is None):
        return go(gs, setup_menu(ctx, current))
    if game is not None and game.auction is not None and button == "ok" and not game.ended:
        return go(gs, choices.confirm(ctx, offering.preview(game, AuctionClose()), current))
    pages = idle_pages(ctx)
    if button in ("up", "down") and pages > 1:
        return go(gs, Idle(moved(current.page, button, pages), ctx.now))
    return gs, []


def idle_pages(ctx: Context) -> int:
    if ctx.game is None or ctx.game.ended or ctx.game.auction is not None or ctx.game.debts:
        return 1
    return max(1, -(-len(ctx.game.players) // PLAYERS_PER_PAGE))


def _player_press(gs: GrammarState, current: PlayerStep, event: Press, ctx: Context) -> Out:
    items = current.choice.items
    if event.button == "cancel" or ctx.game is None:
        return go(gs, Idle(page_at=ctx.now))
    if event.button in ("up", "down"):
        return go(gs, replace(current, index=moved(current.index, event.button, len(items))))
    if event.button == "ok" and items:
        return _take(gs, current.seat, items[min(current.index, len(items) - 1)], current, ctx)
    return gs, []


def _take(gs: GrammarState, seat: int, item: Item, current: Step, ctx: Context) -> Out:
    if isinstance(item.offer.action, EndTurn) and item.allowed:
        return go(gs, Idle(page_at=ctx.now), Submit(item.offer.action))  # passing the turn moves nothing
    step = choices.take(ctx, seat, item, current)
    return go(gs, step, *([Beep("error")] if isinstance(step, Notice) and step.error else []))


def _choose_press(gs: GrammarState, current: Choose, event: Press, ctx: Context) -> Out:
    count = choices.entries(current)
    if event.button == "cancel":
        return go(gs, current.back)
    if event.button in ("up", "down"):
        return go(gs, replace(current, index=moved(current.index, event.button, count)))
    if event.button != "ok" or event.long:
        return gs, []
    if count == 0:
        return go(gs, current.back)
    index = min(current.index, count - 1)
    source = current.source
    if isinstance(source, DeckOf):
        card = current.choice.items[0].asks[0].options[index].value
        name = choices.name_of(ctx, source.seat)
        return go(gs, choices.drawn(ctx, source.seat, DrawCard(name, source.deck, card), current))
    if index == len(current.choice.items) and isinstance(source, DeedOf):  # "Show the card"
        prop = choices.game_of(ctx).edition.property(source.deed)
        return go(gs, Waiting(Meaning("deed", square=prop.square), ctx.now, back=current))
    return _take(gs, current.seat, current.choice.items[index], current, ctx)


def _menu_press(gs: GrammarState, current: Menu, event: Press, ctx: Context) -> Out:
    if event.button == "cancel":
        return go(gs, current.back)
    if not current.items:
        return go(gs, current.back) if event.button == "ok" else (gs, [])
    if event.button in ("up", "down"):
        return go(gs, replace(current, index=moved(current.index, event.button, len(current.items))))
    if event.button == "ok":
        target = current.items[min(current.index, len(current.items) - 1)].target
        return _follow(gs, target, current, ctx)
    return gs, []


def _follow(gs: GrammarState, target: Target | None, current: Menu, ctx: Context) -> Out:
    """OK on an item of the table's own menus: its step, or its effects."""
    match target:
        case None:
            return gs, []
        case tuple():
            return go(gs, Idle(page_at=ctx.now), *target)
        case SwitchOff():
            # The screen stays on this until the table has stopped and says that the plug may be pulled.
            return go(gs, Notice("switching_off", until=float("inf")), target)
        case Reset():
            # A new code is shown at once, as the Phones item shows it; a new PIN when the table has made it.
            return go(gs, ShowJoin(current, page=1) if target.what == "code" else Idle(page_at=ctx.now), target)
        case Retag():
            return retaught(gs, target, ctx)
        case SetSpeech():
            return go(gs, replace(speech_menu(target.settings, current.back), index=current.index), target,
                      Beep("confirm"))
        case Submit() | Beep() | Enroll() | Answer() | SetLanguage() | SwitchGame() | StartTimer():
            return go(gs, Idle(page_at=ctx.now), target)
        case Waiting():
            return go(gs, replace(target, since=ctx.now, back=current))
        case Menu() | NewGameWizard() | Enrolling() | ShowJoin():
            return go(gs, replace(target, back=current))
        case _:
            return go(gs, target)


def _waiting_press(gs: GrammarState, current: Waiting, event: Press, ctx: Context) -> Out:
    if event.button == "cancel" and current.back is not None:
        return go(gs, current.back)
    if event.button in ("cancel", "ok"):
        return go(gs, Idle(page_at=ctx.now))
    return gs, []


def _confirm_press(gs: GrammarState, current: Confirm, event: Press, ctx: Context) -> Out:
    if event.button == "cancel":
        return go(gs, current.decline if current.decline is not None else current.back)
    if event.button != "ok" or event.long:
        return gs, []
    if ctx.now - current.since < CONFIRM_GUARD_S:
        return gs, [Beep("attention")]
    offer = current.offer
    if offer.refusal is not None:
        seat = ctx.game.seats.get(str(offer.action.actor)) if ctx.game is not None and offer.action else None
        if offer.short_by and seat is not None and offer.action is not None:
            short = choices.choose(ctx, ShortOf(seat, offer.action), current.back)
            if short.choice.items:
                return go(gs, short, Beep("error"))
        return go(gs, choices.error_notice(ctx, choices.refusal_text(ctx, current.offer), current.back), Beep("error"))
    return gs, [Submit(current.action)]


def _dice_press(gs: GrammarState, current: Dice, event: Press, ctx: Context) -> Out:
    if event.button == "cancel":
        return go(gs, current.back)
    if event.button == "up":
        return go(gs, replace(current, value=min(current.high, current.value + 1)))
    if event.button == "down":
        return go(gs, replace(current, value=max(current.low, current.value - 1)))
    if event.button != "ok" or event.long:
        return gs, []
    done = offering.complete(choices.game_of(ctx), current.offer, dice=current.value)
    return go(gs, choices.confirm(ctx, done, current))


def amount_step(steps: tuple[int, ...], step_index: int, run: int) -> int:
    """The size of one Up/Down step: the chosen step, ×10 after 5 quick presses, ×100 after 15."""
    base = steps[step_index % len(steps)]
    if run > 15:
        return base * 100
    if run > 5:
        return base * 10
    return base


def _amount_press(gs: GrammarState, current: Amount, event: Press, ctx: Context) -> Out:
    button = event.button
    if button == "cancel":
        return go(gs, current.back)
    if button == "ok" and event.long:
        return go(gs, replace(current, step_index=(current.step_index + 1) % len(current.steps), run=0))
    if button in ("up", "down"):
        direction = 1 if button == "up" else -1
        quick = direction == current.direction and ctx.now - current.last <= AMOUNT_RUN_S
        run = current.run + 1 if quick else 1
        value = max(current.minimum, current.value + direction * amount_step(current.steps, current.step_index, run))
        if current.maximum:
            value = min(current.maximum, value)
        return go(gs, replace(current, value=value, run=run, direction=direction, last=ctx.now))
    if button != "ok":
        return gs, []
    done = choices.completed(ctx, current)
    if done is None or done.action is None:
        return gs, []
    if choices.is_bid(done):
        # A bid moves no money until the auction closes; OK on the amount is the bid.
        return go(gs, current, Submit(done.action))
    return go(gs, choices.confirm(ctx, done, current))


def _undo_press(gs: GrammarState, current: UndoAsk, event: Press, ctx: Context) -> Out:
    if event.button == "cancel":
        return go(gs, current.back)
    if event.button == "ok" and not event.long:
        return go(gs, current, Submit(Undo()))
    return gs, []


# --- presses handled before the steps' own: re-teaching a tag ------------------------------------------
def retag_press(gs: GrammarState, event: Press, ctx: Context) -> Out | None:
    """Hold OK on the screen a tap opened: what is this tag really? ``None``: the press is the steps' own."""
    current = gs.step
    if event.button != "ok" or not event.long or not gs.tapped:
        return None
    meaning = ctx.tags.meaning_of(gs.tapped)
    if meaning is None or not isinstance(current, RETAG_FROM) or is_retag_menu(current):
        return None
    return go(replace(gs, last_input=ctx.now), retag_menu(gs.tapped, meaning, ctx, current), Beep("attention"))


__all__ = ["amount_step", "enroll_pick", "idle_pages", "press", "retag_press"]
