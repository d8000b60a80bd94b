"""The step function: each input to the step it leads to, with the effects for the loop."""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

from banker import offer as offering
from banker.actions import DrawCard, EndGame, NewGame
from banker.ledger import Event
from firmware.grammar import choices
from firmware.grammar.enrollment import enrollment
from firmware.grammar.inputs import (
    Applied,
    BankerRequest,
    Beep,
    ButtonStuck,
    CardIsFull,
    Effect,
    Input,
    PinMade,
    Press,
    ReaderFault,
    Refused,
    Resumed,
    StartEnrollment,
    Submit,
    TapIn,
    Tick,
)
from firmware.grammar.presses import idle_pages, press, retag_press
from firmware.grammar.requests import offer_request, request, unanswered
from firmware.grammar.steps import (
    BANKER_ASK_S,
    FAULT_S,
    IDLE_TIMEOUT_S,
    NOTICE_S,
    PAGE_S,
    PIN_SHOWN_S,
    SCROLL_S,
    WAIT_FOR_CARD_S,
    WARN_LEFT_S,
    BankerAsk,
    Context,
    DeckOf,
    Enrolling,
    GrammarState,
    Idle,
    NewGameWizard,
    Notice,
    Out,
    ShowJoin,
    Step,
    Waiting,
    back_of,
    go,
    params,
)
from firmware.grammar.taps import tap
from firmware.moves import done_pages, pages_seconds


def step(gs: GrammarState, event: Input, ctx: Context) -> Out:
    """The one function of the grammar: the next state and the effects for ``event``."""
    refreshed: list[Effect] = []
    if not isinstance(event, (Applied, Refused)):
        # The game may have changed under the step (a phone acted): show it afresh, or withdraw it.
        gs, refreshed = choices.refresh(gs, ctx)
    local = retag_press(gs, event, ctx) if isinstance(event, Press) else None
    gs, effects = local if local is not None else _step(gs, event, ctx)
    if isinstance(event, TapIn):
        gs = replace(gs, tapped=event.meaning.uid)
    elif isinstance(event, Press) and gs.tapped:
        gs = replace(gs, tapped="")
    current = gs.step
    if isinstance(current, Notice) and current.since == 0.0:
        # A message lasts longer when it is long: the screen scrolls through it.
        extra = max(0, len(current.text) - 60) / 20 * SCROLL_S
        gs = replace(gs, step=replace(current, since=ctx.now, until=current.until + extra))
    return gs, refreshed + effects


def _step(gs: GrammarState, event: Input, ctx: Context) -> Out:
    match event:
        case Tick():
            return _tick(gs, ctx)
        case Applied():
            return _applied(gs, event, ctx)
        case Refused() if event.error.key == "card_full":
            # Not saved: the card's own notice (with the beep), then back to where the action was asked.
            return go(gs, Notice("card_full", until=ctx.now + FAULT_S, then=back_of(gs.step), error=True),
                      Beep("error"))
        case Refused():
            return go(gs, choices.error_notice(ctx, event.error.translated(ctx.language), back_of(gs.step)),
                      Beep("error"))
        case CardIsFull():
            return go(gs, Notice("card_full", until=ctx.now + FAULT_S,
                                 then=gs.step if not isinstance(gs.step, Notice) else Idle(), error=True),
                      Beep("error"))
        case BankerRequest():
            return request(gs, event, ctx)
        case PinMade():
            return go(gs, Notice("pin_made", params(pin=event.pin), until=ctx.now + PIN_SHOWN_S, then=Idle()),
                      Beep("attention"))
        case StartEnrollment():
            return go(replace(gs, last_input=ctx.now), enrollment(Idle(page_at=ctx.now)), Beep("attention"))
        case ReaderFault():
            fault = Notice("reader_fault", params(number=event.number, bus=event.bus, more=event.more,
                                                  working=event.working),
                           until=ctx.now + FAULT_S, then=gs.step if not isinstance(gs.step, Notice) else Idle(),
                           error=True)
            return go(gs, fault, Beep("error"))
        case ButtonStuck() if not event.stuck:
            return go(gs, Notice("button_free", params(button=event.button), until=ctx.now + NOTICE_S,
                                 then=Idle(page_at=ctx.now)))
        case ButtonStuck():
            # Whatever the stuck button opened (a long OK opens setup) is dropped: the table starts afresh.
            return go(gs, Notice("button_stuck", params(button=event.button), until=ctx.now + FAULT_S,
                                 then=Idle(page_at=ctx.now), error=True), Beep("error"))
        case Resumed():
            gs = replace(gs, last_input=ctx.now)
            shown = (Notice("switched", params(actions=event.actions, label=event.switched_to),
                            until=ctx.now + NOTICE_S + 1, then=Idle()) if event.switched_to else
                     Notice("resumed", params(actions=event.actions), until=ctx.now + NOTICE_S + 1, then=Idle()))
            return go(gs, shown, Beep("attention"))
        case TapIn():
            return tap(replace(gs, last_input=ctx.now), event.meaning, ctx)
        case Press():
            return press(replace(gs, last_input=ctx.now), event, ctx)
        case _:
            assert_never(event)


def _tick(gs: GrammarState, ctx: Context) -> Out:
    now = ctx.now
    current = gs.step
    game = ctx.game
    if game is not None and not game.ended and ctx.time_left is not None:
        if ctx.time_left <= 0:
            if offering.preview(game, EndGame()).refusal is None:
                return go(gs, Idle(), Submit(EndGame()))
            if not gs.time_up:
                # The count waits for what the engine says must be settled first (an auction, a debt, a decision).
                gs = replace(gs, time_up=True)
                return go(gs, Notice("time_up_pending", until=now + NOTICE_S + 2, then=Idle()), Beep("attention"))
        if ctx.time_left <= WARN_LEFT_S and not gs.warned:
            gs = replace(gs, warned=True)
            return go(gs, Notice("timer_warning", params(minutes=max(1, round(ctx.time_left / 60))),
                                 until=now + NOTICE_S + 2, then=Idle()), Beep("attention"))
    if isinstance(current, Notice):
        if now >= current.until:
            return offer_request(replace(gs, step=current.then if current.then is not None else Idle()), ctx)
        return gs, []
    if isinstance(current, Waiting) and now - current.since >= WAIT_FOR_CARD_S:
        return go(gs, Idle(page_at=now))
    if isinstance(current, BankerAsk):
        # The question waits for its own time, not the idle fallback: the table is usually untouched then.
        return unanswered(gs, current, ctx) if now - current.since >= BANKER_ASK_S else (gs, [])
    if isinstance(current, Idle):
        pages = idle_pages(ctx)
        if pages > 1 and now - current.page_at >= PAGE_S:
            return go(gs, Idle((current.page + 1) % pages, now))
        return gs, []
    if isinstance(current, (Enrolling, NewGameWizard, ShowJoin)):
        return gs, []  # setup waits for the people at the table
    if now - gs.last_input >= IDLE_TIMEOUT_S:
        return offer_request(replace(gs, step=Idle(page_at=now)), ctx)  # a phone's request may be waiting
    return gs, []


# --- results of submitted actions ------------------------------------------------------------------
def _applied(gs: GrammarState, event: Applied, ctx: Context) -> Out:
    action = event.action
    after: Step = Idle(page_at=ctx.now)
    if isinstance(action, DrawCard) and ctx.game is not None:
        follow = _after_card(action, event.events, ctx)
        if follow is not None:
            after = follow
    if isinstance(action, NewGame):
        gs = replace(gs, warned=False, time_up=False)
    # Long enough for every page (the money, then the board moves) to be seen.
    pages = len(done_pages(ctx.game, event.events, ctx.language)) if ctx.game is not None else 1
    done = Notice("done", until=ctx.now + NOTICE_S + pages_seconds(pages), then=after, events=event.events,
                  since=ctx.now)
    return go(gs, done, Beep("confirm"))


def _after_card(action: DrawCard, events: tuple[Event, ...], ctx: Context) -> Step | None:
    """After a card moved the player onto a deed: offer its rent (with the card's rule) or its purchase;
    after "take a Chance instead": the other deck's cards."""
    game = choices.game_of(ctx)
    seat = game.seats.get(action.player)
    if seat is None:
        return None
    for ev in events:
        if ev.kind == "draw_instead":
            return choices.choose(ctx, DeckOf(seat, str(ev.params.get("deck", "chance"))), Idle())
        if ev.kind == "moved":
            prop = game.edition.by_id.get(str(ev.params.get("square", "")))
            if prop is None:
                return None
            rent_card = ev.params.get("rent_card")
            return choices.pair(ctx, seat, prop.id, Idle(), card=str(rent_card) if rent_card else None)
    return None
