"""The state as JSON: as docs/state.md describes it (``banker replay --json``, the web API)."""

from __future__ import annotations

from typing import Any

from banker.scores import final_scores
from banker.state import GameState
from banker.worth import liquidation_value, missing, net_worth


def state_to_json(state: GameState) -> dict[str, Any]:
    edition = state.edition
    players: dict[str, Any] = {}
    for seat, p in enumerate(state.players):
        players[p.name] = {
            "cash": p.cash,
            "jail_cards": len(p.jail_cards),
            "jail_card_decks": list(p.jail_cards),
            "in_jail": p.in_jail,
            "bankrupt": p.bankrupt,
            "net_worth": net_worth(state, seat),
            "liquidation_value": 0 if p.bankrupt else liquidation_value(state, seat),
            "debt": state.debt_total(seat),
            "missing": missing(state, seat),
        }
    properties = {
        prop.id: {
            "owner": state.players[ps.owner].name if ps.owner is not None else None,
            "houses": ps.houses,
            "hotel": ps.hotel,
            "mortgaged": ps.mortgaged,
        }
        for prop, ps in zip(edition.properties, state.props, strict=True)
    }
    auction: dict[str, Any] | None = None
    if state.auction is not None:
        a = state.auction
        auction = {
            "property": edition.properties[a.property].id if a.property is not None else None,
            "building": a.building or None,
            "high_bid": a.high_bid,
            "high_bidder": state.players[a.high_bidder].name if a.high_bidder is not None else None,
            "build_on": edition.properties[a.high_property].id if a.high_property is not None else None,
            "excluded": [state.players[s].name for s in a.excluded],
            "queue": [edition.properties[n].id for n in a.queue],
        }
    return {
        "edition": edition.id,
        "rules": state.rules.to_json(),
        "players": players,
        "properties": properties,
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels, "balance": state.bank},
        "pot": state.pot,
        "debts": [
            {"debtor": state.players[d.debtor].name, "creditor": d.creditor, "amount": d.amount, "reason": d.reason}
            for d in state.debts
        ],
        "decisions": [
            {"player": state.players[d.player].name, "property": edition.properties[d.property].id,
             "keep_fee": state.rules.interest(edition.properties[d.property].mortgage),
             "unmortgage_cost": state.rules.lift_cost(edition.properties[d.property].mortgage)}
            for d in state.decisions
        ],
        "auction": auction,
        "proposals": [
            {"id": p.id, "proposer": p.proposer, "receiver": p.receiver, "give": p.trade.give.to_json(),
             "take": p.trade.take.to_json(), "settles_debt": p.trade.settles_debt,
             "status": "refused" if p.refused else "open", "reason": p.reason}
            for p in state.proposals
        ],
        "turn": state.players[state.turn].name,
        "bankrupt_order": [state.players[s].name for s in state.bankrupt_order],
        "ended": state.ended,
        "winner": state.winner,
        "scores": [{"player": s.player, "net_worth": s.net_worth, "place": s.place, "bankrupt": s.bankrupt}
                   for s in final_scores(state)] if state.ended else None,
        "seq": state.seq,
    }
