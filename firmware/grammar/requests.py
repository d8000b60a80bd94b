"""The banker's questions: a phone asks to act as the banker, and the table answers with OK or Cancel."""

from __future__ import annotations

from dataclasses import replace

from firmware.grammar.inputs import Answer, BankerRequest, Beep, Press
from firmware.grammar.steps import MAX_REQUESTS, BankerAsk, Context, GrammarState, Idle, Out, go


def request(gs: GrammarState, event: BankerRequest, ctx: Context) -> Out:
    """Hold a phone's request (one more than :data:`MAX_REQUESTS`, or the same again, is answered at once as
    unanswered) and show it when the table is idle."""
    held = [*([gs.step.who] if isinstance(gs.step, BankerAsk) else []), *(r.who for r in gs.requests)]
    if len(held) >= MAX_REQUESTS or event.who in held:
        return gs, [Answer(event.token, None)]
    return offer_request(replace(gs, requests=(*gs.requests, event)), ctx)


def offer_request(gs: GrammarState, ctx: Context) -> Out:
    """Show the oldest phone request when the table is idle (never in the middle of a flow)."""
    if gs.requests and isinstance(gs.step, Idle):
        first, rest = gs.requests[0], gs.requests[1:]
        return go(replace(gs, requests=rest), BankerAsk(first.who, first.token, ctx.now, Idle()), Beep("attention"))
    return gs, []


def put_back(gs: GrammarState, current: BankerAsk) -> GrammarState:
    """A tap during the question: it waits again, first in the queue."""
    return replace(gs, requests=(BankerRequest(current.who, current.token), *gs.requests))


def banker_press(gs: GrammarState, current: BankerAsk, press: Press, ctx: Context) -> Out:
    if press.button in ("ok", "cancel") and not press.long:
        granted = press.button == "ok"
        state, effects = offer_request(replace(gs, step=current.back), ctx)
        return state, [Answer(current.token, granted), Beep("confirm" if granted else "attention"), *effects]
    return gs, []


def unanswered(gs: GrammarState, current: BankerAsk, ctx: Context) -> Out:
    """Nobody answered in time: the phone is told so, and the next request is shown."""
    state, more = offer_request(replace(gs, step=current.back), ctx)
    return state, [Answer(current.token, None), *more]
