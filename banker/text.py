"""Readable text for events and states, in the player's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from banker.board import MORTGAGED, BoardMove, moves_of
from banker.edition import Edition
from banker.ledger import Event
from banker.messages import label, render, template
from banker.state import BANK, GameState

MONEY_KEYS = frozenset({"amount", "missing", "keep_fee", "unmortgage_cost", "flat"})
LABEL_KEYS = frozenset({"to", "reason", "how", "deck", "group", "basis"})


def event_params(edition: Edition, event: Event, language: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in event.params.items():
        if key in MONEY_KEYS and isinstance(value, int):
            params[key] = edition.format_money(value)
        elif key == "property" and isinstance(value, str):
            params[key] = edition.by_id[value].name if value in edition.by_id else value
        elif key == "square" and isinstance(value, str):
            params[key] = edition.square(value).name
        elif key == "building" and isinstance(value, str) or key in LABEL_KEYS and isinstance(value, str):
            params[key] = label(value, language)
        elif key == "players" and isinstance(value, list):
            params[key] = ", ".join(str(v) for v in value)
        elif key == "action" and isinstance(value, dict):
            params[key] = str(value.get("action", ""))
        else:
            params[key] = value
    if event.kind.startswith("auction"):
        prop, building = params.get("property", ""), params.get("building", "")
        params["property"] = prop
        params["building"] = f" ({building})" if building and prop else building
    return params


def describe_event(edition: Edition, event: Event, language: str = "en") -> str:
    """One line saying what happened, e.g. "Bob pays Ann $550 (rent)."; "" for a board event that moves nothing."""
    if event.kind == "board":
        return board_line(edition, moves_of((event,)), language)
    return render("event_" + event.kind, event_params(edition, event, language), language)


def log_lines(edition: Edition, events: Iterable[Event], language: str = "en") -> list[str]:
    """The log lines of an action's events, its board moves last (as one line, when there are any)."""
    return [line for line in (describe_event(edition, e, language) for e in events) if line]


def describe_move(edition: Edition, move: BoardMove, language: str = "en") -> str:
    """One board move as an instruction: "Put 1 house on Baltic Avenue", "Give Oriental Avenue to Ann"."""
    key, params = _move_text(edition, move, language)
    return render(key, params, language)


def _move_text(edition: Edition, move: BoardMove, language: str) -> tuple[str, dict[str, Any]]:
    deed = {"property": _deed_name(edition, move.what)}
    if move.move in ("house", "hotel"):
        return f"board_{move.move}_{'on' if move.from_ == BANK else 'off'}", {**deed, "count": move.count}
    if move.move == "deed":
        return ("board_deed_to_bank", deed) if move.to == BANK else ("board_deed_to_player", {**deed, "to": move.to})
    if move.move == "turn_over":
        return ("board_turn_down" if move.to == MORTGAGED else "board_turn_up"), deed
    deck = {"deck": label(move.what, language)}
    return ("board_card_to_bank", deck) if move.to == BANK else ("board_card_to_player", {**deck, "to": move.to})


def board_line(edition: Edition, moves: list[BoardMove], language: str = "en") -> str:
    """Every move of an action in one log line ("On the board: put 1 house on Baltic Avenue."), or ""."""
    if not moves:
        return ""
    items = []
    for move in moves:
        key, params = _move_text(edition, move, language)
        item = render(key, params, language)
        # An instruction that starts with its verb continues the line in lower case; a name stays as it is.
        if not (template(key, language, move.count) or "").startswith("{"):
            item = item[:1].lower() + item[1:]
        items.append(item)
    return render("board_line", {"moves": "; ".join(items)}, language)


def _deed_name(edition: Edition, deed_id: str) -> str:
    prop = edition.by_id.get(deed_id)
    return prop.name if prop is not None else deed_id


def summary_lines(state: GameState, language: str = "en") -> list[str]:
    """A short text picture of the game: cash, deeds, debts, auction, winner."""
    from banker.worth import net_worth

    edition = state.edition
    money = edition.format_money
    lines: list[str] = []
    for seat, player in enumerate(state.players):
        if player.bankrupt:
            lines.append(render("summary_bankrupt", {"player": player.name}, language))
            continue
        deeds = []
        for prop, ps in zip(edition.properties, state.props, strict=True):
            if ps.owner == seat:
                mark = " (M)" if ps.mortgaged else ""
                build = " H" if ps.hotel else (f" {ps.houses}h" if ps.houses else "")
                deeds.append(f"{prop.name}{build}{mark}")
        jail = render("summary_in_jail", {}, language) if player.in_jail else ""
        line = render("summary_player", {"player": player.name + jail, "cash": money(player.cash),
                                         "worth": money(net_worth(state, seat))}, language)
        lines.append(line + (f"; {', '.join(deeds)}" if deeds else ""))
    lines.append(render("summary_bank", {"houses": state.bank_houses, "hotels": state.bank_hotels,
                                         "pot": money(state.pot)}, language))
    for debt in state.debts:
        lines.append(render("summary_debt", {"player": state.players[debt.debtor].name,
                                             "to": label(debt.creditor, language), "amount": money(debt.amount)},
                            language))
    if state.auction is not None and state.auction.property is not None:
        lines.append(render("summary_auction", {"property": edition.properties[state.auction.property].name,
                                                "amount": money(state.auction.high_bid)}, language))
    if state.ended:
        lines.append(render("event_game_over", {"winner": state.winner}, language))
    return lines
