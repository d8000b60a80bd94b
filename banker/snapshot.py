"""A game state as JSON text and back, for the journal's snapshots (a resume replays only what follows one).

Everything but the edition, the rules and the seats (which ``new_game`` gives) and the undo history
(which the actions replayed after the snapshot rebuild) is written, field by field, in the order the
dataclasses declare them; every list read back becomes the tuple the state holds.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from typing import Any

from banker.actions import Trade, parse_action
from banker.state import Auction, Debt, Decision, GameState, PlayerState, PropertyState, Proposal

FORMAT = 1
SKIPPED = ("edition", "rules", "history", "seats")


def _values(obj: Any) -> list[Any]:
    return [getattr(obj, f.name) for f in fields(obj)]


def _tuples(value: Any) -> Any:
    """JSON lists back into the tuples the state holds (no field of the state is a list or a dict)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def to_snapshot(state: GameState) -> str:
    out: dict[str, Any] = {"format": FORMAT}
    for f in fields(state):
        if f.name in SKIPPED:
            continue
        value = getattr(state, f.name)
        if f.name in ("players", "props", "debts", "decisions"):
            value = [_values(item) for item in value]
        elif f.name == "auction" and value is not None:
            value = _values(value)
        elif f.name == "proposals":
            value = [[p.id, p.trade.to_json(), p.refused, p.reason] for p in value]
        out[f.name] = value
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False)


def _proposal(item: list[Any]) -> Proposal:
    number, trade, refused, reason = item
    action = parse_action(trade)
    if not isinstance(action, Trade):
        raise TypeError(f"proposal {number} is not a trade")
    return Proposal(int(number), action, bool(refused), str(reason))


def from_snapshot(text: str, start: GameState) -> GameState:
    """The state written by :func:`to_snapshot`, with ``start``'s (the state after new_game) edition,
    rules and seats and no undo history. Raises ``ValueError`` on a snapshot it cannot read."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("unknown snapshot format")
    try:
        auction = data["auction"]
        changes: dict[str, Any] = {
            "players": tuple(PlayerState(*_tuples(p)) for p in data["players"]),
            "props": tuple(PropertyState(*p) for p in data["props"]),
            "debts": tuple(Debt(*d) for d in data["debts"]),
            "decisions": tuple(Decision(*d) for d in data["decisions"]),
            "auction": None if auction is None else Auction(*_tuples(auction)),
            "history": None,
            # Absent from a snapshot written before proposals were state: none were open then.
            "proposals": tuple(_proposal(p) for p in data.get("proposals", [])),
            "proposals_made": int(data.get("proposals_made", 0)),
        }
        for f in fields(GameState):
            if f.name not in changes and f.name not in SKIPPED:
                changes[f.name] = _tuples(data[f.name])
        state = replace(start, **changes)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"unreadable snapshot: {exc}") from exc
    if len(state.players) != len(start.players) or len(state.props) != len(start.props):
        raise ValueError("the snapshot is of another game")
    return state
