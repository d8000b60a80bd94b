"""Trade proposals: a trade one player offers and the other answers later, as journal state (§5.3).

``propose_trade`` checks the trade exactly as ``trade`` would be checked now (so an offer that could
not be applied is refused with the trade's own reason) and keeps it in the state's ``proposals`` with the
next id of the game. An id is never given twice in a game: an undo takes a proposal back, never its
number. Under hidden balances the receiver's cash is not checked then (a refusal would tell the proposer
how much the receiver has): it is checked when the receiver accepts, and answered to the receiver.
``accept_trade`` by the receiver applies that trade through the ``trade`` action's own checks and
handler (the same ledger transactions, the same decisions on mortgaged deeds) and takes the proposal
away; a proposal that stopped being possible is refused then with the reason.
``refuse_trade`` by the receiver keeps it, refused, with what they said, so that both phones show it;
``cancel_trade`` by the proposer withdraws an open one or puts a refused one away.

Being state, a proposal survives a restart and an accepted one is gone: a second accept of it is
refused (``proposal_gone``), whichever request comes second. An accept may name the proposal's
:func:`terms`, the digest of what the receiver was shown; it is refused (``proposal_changed``) when they
differ. An action that changes a deed of an open proposal (its owner, its mortgage, its buildings)
withdraws that proposal (``trade_withdrawn``): nobody accepts a deed that is no longer what was offered.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from banker import checks, settlement
from banker.actions import AcceptTrade, CancelTrade, ProposeTrade, RefuseTrade, Trade
from banker.errors import IllegalAction
from banker.state import GameState, Proposal
from banker.work import Work

MAX_OPEN = 20
"""Open proposals a game holds at most: a new one beyond them is refused until some are answered."""
REFUSED_KEPT = 5
"""Refused proposals kept for the phones to show; the oldest goes when one more is refused."""


def check_trade(w: Work, trade: Trade, *, receiver_cash: bool = True) -> None:
    """Refuse (raise the engine's error) unless ``trade`` could be applied now, as the ``trade`` action is;
    without ``receiver_cash``, as if the receiver had the cash asked of them.

    ``w`` is not changed: the trade is tried on a scratch copy of the state ``w`` started from."""
    from banker.engine import common_checks

    scratch = Work(w.state)
    if not receiver_cash and trade.take.cash:
        seat = checks.seat(scratch, trade.to)
        players = list(scratch.players)
        if players[seat].cash < trade.take.cash:
            players[seat] = replace(players[seat], cash=trade.take.cash)
            scratch.players = players
    common_checks(scratch, trade)
    settlement.trade(scratch, trade)


def terms(proposal: Proposal) -> str:
    """The digest of a proposal as the receiver is shown it: its id and its trade. An accept that names it
    accepts exactly that."""
    shown = json.dumps({"id": proposal.id, **proposal.trade.to_json()}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(shown.encode()).hexdigest()[:16]


def _find(w: Work, number: int) -> Proposal:
    for proposal in w.proposals:
        if proposal.id == number:
            return proposal
    raise IllegalAction("proposal_gone", proposal=number)


def _open(w: Work, number: int) -> Proposal:
    proposal = _find(w, number)
    if proposal.refused:
        raise IllegalAction("proposal_gone", proposal=number)
    return proposal


def _receiver(w: Work, proposal: Proposal, player: str) -> None:
    if checks.seat(w, player) != w.seat_of(proposal.receiver):
        raise IllegalAction("proposal_not_receiver", proposal=proposal.id, player=player,
                            receiver=proposal.receiver)


def propose(w: Work, a: ProposeTrade) -> None:
    trade = a.trade()
    check_trade(w, trade, receiver_cash=w.rules.hidden_balances == "off")
    waiting = sum(1 for p in w.proposals if not p.refused)
    if waiting >= MAX_OPEN:
        raise IllegalAction("proposals_full", count=waiting)
    w.proposals_made += 1
    proposal = Proposal(w.proposals_made, trade)
    w.proposals = [*w.proposals, proposal]
    w.event("trade_proposed", player=trade.from_, to=trade.to, proposal=proposal.id, give=trade.give.to_json(),
            take=trade.take.to_json())


def accept(w: Work, a: AcceptTrade) -> None:
    from banker.engine import common_checks

    proposal = _open(w, a.proposal)
    _receiver(w, proposal, a.player)
    if a.terms and a.terms != terms(proposal):
        raise IllegalAction("proposal_changed", proposal=proposal.id)
    # The trade as if sent now: the proposer's own checks, then the trade action's handler itself.
    common_checks(w, proposal.trade)
    w.proposals = [p for p in w.proposals if p.id != proposal.id]
    settlement.trade(w, proposal.trade)


def refuse(w: Work, a: RefuseTrade) -> None:
    proposal = _open(w, a.proposal)
    _receiver(w, proposal, a.player)
    refused = replace(proposal, refused=True, reason=a.reason.strip())
    kept = [p for p in w.proposals if p.refused]
    dropped = {p.id for p in kept[: max(0, len(kept) + 1 - REFUSED_KEPT)]}
    w.proposals = [refused if p.id == proposal.id else p for p in w.proposals if p.id not in dropped]
    w.event("trade_refused", player=proposal.receiver, to=proposal.proposer, proposal=proposal.id,
            said=refused.reason)


def cancel(w: Work, a: CancelTrade) -> None:
    proposal = _find(w, a.proposal)
    if checks.seat(w, a.player) != w.seat_of(proposal.proposer):
        raise IllegalAction("proposal_not_proposer", proposal=proposal.id, player=a.player,
                            proposer=proposal.proposer)
    w.proposals = [p for p in w.proposals if p.id != proposal.id]
    w.event("trade_cancelled", player=proposal.proposer, to=proposal.receiver, proposal=proposal.id,
            refused=proposal.refused)


def _deeds(proposal: Proposal) -> tuple[str, ...]:
    return (*proposal.trade.give.properties, *proposal.trade.take.properties)


def withdraw_changed(before: GameState, w: Work) -> None:
    """Withdraw every open proposal one of whose deeds the action being applied changed (its owner, its
    mortgage, its buildings), with a ``trade_withdrawn`` event naming the deed."""
    changed: list[tuple[Proposal, str]] = []
    for proposal in w.proposals:
        if proposal.refused:
            continue
        for deed in _deeds(proposal):
            number = before.edition.by_id[deed].number if deed in before.edition.by_id else None
            if number is not None and before.props[number] != w.props[number]:
                changed.append((proposal, deed))
                break
    if not changed:
        return
    gone = {proposal.id for proposal, _ in changed}
    w.proposals = [p for p in w.proposals if p.id not in gone]
    for proposal, deed in changed:
        w.event("trade_withdrawn", player=proposal.proposer, to=proposal.receiver, proposal=proposal.id,
                property=deed)
