"""Taps: a bank card chooses who acts (or bids, or pays the owner's rent), then a deed, a square's tag,
a printed card or another player's card says what happened. A tap never confirms anything."""

from __future__ import annotations

from dataclasses import replace

from banker.actions import DrawCard
from firmware.grammar import choices
from firmware.grammar.enrollment import enroll_tap
from firmware.grammar.inputs import Beep, Effect
from firmware.grammar.requests import put_back
from firmware.grammar.steps import (
    DEDUPE_S,
    ERROR_S,
    NOTICE_S,
    Amount,
    BankerAsk,
    Confirm,
    Context,
    Dice,
    Enrolling,
    GrammarState,
    Idle,
    NewGameWizard,
    Notice,
    Out,
    Params,
    PlayerStep,
    RentFrom,
    Step,
    UndoAsk,
    UnknownTag,
    Waiting,
    go,
    params,
)
from firmware.tags import Meaning


def notice(gs: GrammarState, ctx: Context, key: str, values: Params = (), *,
           error: bool = False) -> Out:
    shown = Notice(key, values, until=ctx.now + (ERROR_S if error else NOTICE_S), then=Idle(page_at=ctx.now),
                   error=error)
    return go(gs, shown, Beep("error" if error else "attention"))


def tap(gs: GrammarState, meaning: Meaning, ctx: Context) -> Out:
    last_uid, last_at = gs.last_tap
    if meaning.uid and meaning.uid == last_uid and ctx.now - last_at < DEDUPE_S:
        return gs, []  # the same placement seen twice is one tap
    gs = replace(gs, last_tap=(meaning.uid, ctx.now))
    current = gs.step
    if isinstance(current, Enrolling):
        return enroll_tap(gs, current, meaning, ctx)
    restart: list[Effect] = []
    if isinstance(current, (Confirm, Dice, Amount, UndoAsk, BankerAsk, NewGameWizard)):
        # A tap never confirms anything: it abandons the confirmation and starts afresh.
        if isinstance(current, BankerAsk):
            gs = put_back(gs, current)
        restart.append(Beep("attention"))
        current = Idle(page_at=ctx.now)
        gs = replace(gs, step=current)
    if meaning.kind == "unknown":
        return go(gs, UnknownTag(meaning.uid), Beep("attention"))
    game = ctx.game
    if game is None:
        return notice(gs, ctx, "no_game_tap", error=True)
    if game.ended:
        return notice(gs, ctx, "game_over_tap", error=True)
    if meaning.kind == "player":
        gs, effects = player_tap(gs, meaning.seat, current, ctx)
        return gs, restart + effects
    actor = current.seat if isinstance(current, PlayerStep) else None
    if actor is None:
        return go(gs, Waiting(meaning, ctx.now), *restart)
    return go(gs, what_happened(ctx, actor, meaning, current), *restart)


def what_happened(ctx: Context, seat: int, meaning: Meaning, back: Step) -> Step:
    """A player's card, then a deed, a square's tag or a printed card."""
    game = choices.game_of(ctx)
    if meaning.kind == "deed":
        return choices.pair(ctx, seat, game.edition.by_square[meaning.square].id, back)
    if meaning.kind == "card":
        return choices.drawn(ctx, seat, DrawCard(game.players[seat].name, meaning.deck, meaning.card), back)
    return choices.special(ctx, seat, meaning.special, back)


def player_tap(gs: GrammarState, seat: int, current: Step, ctx: Context) -> Out:
    game = choices.game_of(ctx)
    if seat >= len(game.players):
        return notice(gs, ctx, "card_not_in_game", params(number=seat + 1), error=True)
    player = game.players[seat]
    if player.bankrupt:
        return notice(gs, ctx, "player_is_bankrupt", params(player=player.name), error=True)
    if game.auction is not None:
        return go(gs, choices.bid(ctx, seat, Idle()))
    if isinstance(current, RentFrom):
        if seat == current.seat:
            return gs, []
        return go(gs, choices.pair(ctx, seat, current.property, current.back))
    if isinstance(current, Waiting):
        return go(gs, what_happened(ctx, seat, current.meaning, Idle()))
    if isinstance(current, PlayerStep):
        if current.seat == seat:
            return gs, []
        return go(gs, choices.transfer(ctx, current.seat, player.name, current))
    return go(gs, choices.player_step(ctx, seat))
