"""Trade proposals as the phones see them: the engine's proposals (``proposals`` of the state, made and
answered by the actions of :mod:`banker.proposals`) in the JSON of ``/api/trades``, and the action a
phone's answer to one of them is."""

from __future__ import annotations

from typing import Any

from banker.actions import AcceptTrade, Action, CancelTrade, RefuseTrade
from banker.proposals import terms
from banker.state import GameState, Proposal

ANSWERS = ("accept", "refuse", "cancel")
"""What a phone may answer to a proposal: the receiver accepts or refuses, the proposer cancels."""


def proposal_json(proposal: Proposal, game: int | None) -> dict[str, Any]:
    """One proposal as ``/api/trades`` lists it: its id, the game, the trade's own JSON, whether it is open
    or was refused (with what the receiver said), and its ``terms``, which an accept names back."""
    out: dict[str, Any] = {"id": proposal.id, "game": game, **proposal.trade.to_json(),
                           "status": "refused" if proposal.refused else "open", "terms": terms(proposal)}
    if proposal.refused:
        out["reason"] = proposal.reason
    return out


def find(state: GameState | None, proposal_id: int) -> Proposal | None:
    if state is None:
        return None
    return next((p for p in state.proposals if p.id == proposal_id), None)


def side(proposal: Proposal, answer: str) -> str:
    """Who gives ``answer``: the receiver accepts and refuses, the proposer cancels."""
    return proposal.proposer if answer == "cancel" else proposal.receiver


def answer_action(answer: str, player: str, proposal_id: int, reason: str = "", shown: str = "") -> Action:
    """The action of ``answer``; an accept names the terms the phone was ``shown`` (see
    :func:`banker.proposals.terms`)."""
    if answer == "accept":
        return AcceptTrade(player, proposal_id, shown)
    if answer == "refuse":
        return RefuseTrade(player, proposal_id, reason)
    return CancelTrade(player, proposal_id)
