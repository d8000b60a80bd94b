"""The advisor's figures as JSON (``GET /api/advice``; docs/phone.md describes every field).

The tables are ``banker advise``'s, with the same names as its CSV columns (``share``,
``payback_throws``…); shares are fractions of all throws (the landing rows sum to 1) and are not
rounded. A payback that never comes (a step that adds no rent) is ``null``.
"""

from __future__ import annotations

import math
from typing import Any

from banker.advisor.payback import Step
from banker.advisor.player import AuctionWorth, DeedAdvice, GroupAdvice, PlayerAdvice, Valued
from banker.advisor.report import Report, landing_rows
from banker.advisor.tables import Assumptions
from banker.state import GameState


def _number(value: float) -> float | None:
    return None if math.isinf(value) or math.isnan(value) else value


def _rounds(throws: float, per_round: float) -> float | None:
    return _number(throws / per_round) if per_round > 0 else None


def tables_json(report: Report, assumptions: Assumptions) -> dict[str, Any]:
    """The edition's tables under ``assumptions``: the landing shares, the payback of every group's
    steps and of every deed (``banker advise --table all --csv-dir``, as one object)."""
    edition = report.edition
    group_of = {p.square: p.group for p in edition.properties}
    landing = report.landing
    return {
        "edition": edition.id,
        "assumptions": {
            "jail": assumptions.move.jail,
            "fine_or_chance": assumptions.move.fine_or_chance,
            "short_game": assumptions.max_houses != 4,
            "max_houses": assumptions.max_houses,
        },
        "throws_per_turn": landing.throws_per_turn,
        "landing": [
            {"square": row.square, "id": row.id, "name": row.name,
             "group": group_of.get(row.square),
             "share": row.share, "percent": row.share * 100}
            for row in landing_rows(edition, landing)
        ],
        "payback": [{"group": group.group, **_step(step)} for group in report.groups for step in group.steps],
        "deeds": [
            {"id": deed.deed.id, "group": deed.deed.group, "share": deed.share, "alone": _step(deed.alone),
             "steps": [_step(step) for step in deed.steps]}
            for deed in report.deeds
        ],
    }


def _step(step: Step, per_round: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "step": step.kind, "level": step.level, "cost": step.cost, "total_cost": step.total_cost,
        "rent_per_throw": step.rent_per_throw, "gain_per_throw": step.gain_per_throw,
        "payback_throws": _number(step.payback_throws),
    }
    if per_round is not None:
        out["payback_rounds"] = _rounds(step.payback_throws, per_round)
    return out


def player_json(state: GameState, advice: PlayerAdvice, language: str) -> dict[str, Any]:
    """One player's advice; refusals are in ``language``."""
    per_round = advice.throws_per_round
    return {
        "name": advice.name,
        "cash": advice.cash,
        "opponents": advice.opponents,
        "throws_per_round": per_round,
        "income_per_throw": advice.income_per_throw,
        "groups": [_group(state, group, per_round, language) for group in advice.groups],
        "best": _valued(advice.best, language),
        "for_sale": [_valued(v, language) for v in advice.for_sale],
        "auction": _auction(advice.auction),
    }


def _group(state: GameState, group: GroupAdvice, per_round: float, language: str) -> dict[str, Any]:
    next_step = group.next_step
    return {
        "group": group.group,
        "status": group.status,
        "owned": group.owned,
        "size": len(group.deeds),
        "share": group.share,
        "percent": group.share * 100,
        "level": group.level,
        "rent_per_throw": group.rent_per_throw,
        "deeds": [_deed(state, deed, language) for deed in group.deeds],
        "steps": [_step(step, per_round) for step in group.steps],
        "next_step": _step(next_step, per_round) if next_step is not None else None,
        "next": _valued(group.next, language),
    }


def _deed(state: GameState, deed: DeedAdvice, language: str) -> dict[str, Any]:
    ps = state.props[deed.deed.number]
    return {
        "property": deed.deed.id,
        "name": deed.deed.name,
        "square": deed.deed.square,
        "share": deed.share,
        "percent": deed.share * 100,
        "owner": state.players[deed.owner].name if deed.owner is not None else None,
        "houses": ps.houses,
        "hotel": ps.hotel,
        "mortgaged": deed.mortgaged,
        "rent": deed.rent,
        "rent_times_dice": deed.per_dice_point,
        "rent_per_throw": deed.rent_per_throw,
        "next": _valued(deed.next, language),
    }


def _valued(valued: Valued | None, language: str) -> dict[str, Any] | None:
    if valued is None:
        return None
    purchase = valued.purchase
    refusal = purchase.refusal
    return {
        "kind": purchase.kind,
        "building": valued.building or None,
        "property": purchase.deed.id,
        "cost": purchase.cost,
        "possible": refusal is None,
        "refused": None if refusal is None else {"error": refusal.key, "message": refusal.translated(language)},
        "action": purchase.action.to_json(),
        "gain_per_throw": valued.gain_per_throw,
        "payback_throws": _number(valued.payback_throws),
        "payback_rounds": _number(valued.payback_rounds),
    }


def _auction(worth: AuctionWorth | None) -> dict[str, Any] | None:
    if worth is None:
        return None

    def at(price: int) -> dict[str, Any]:
        return {"cost": price, "payback_throws": _number(worth.payback_throws(price)),
                "payback_rounds": _number(worth.payback_rounds(price))}

    return {
        "property": worth.deed.id,
        "gain_per_throw": worth.gain_per_throw,
        "high_bid": worth.high_bid,
        "at_price": at(worth.deed.price),
        "at_next_bid": at(worth.high_bid + 1),
    }
