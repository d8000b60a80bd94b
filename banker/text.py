"""Readable text for events and states, in the player's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from banker.actions import Action
from banker.board import MORTGAGED, BoardMove, moves_of
from banker.edition import Edition
from banker.errors import BankerError
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
            params[key] = describe_action_json(edition, value, language)
        elif key == "money" and isinstance(value, dict):
            params[key] = money_back(edition, value, language)
        elif key in ("give", "take") and isinstance(value, dict):
            params[key] = bundle_words(edition, value, language)
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
    kind = event.kind
    if kind == "undone" and event.params.get("money"):
        kind = "undone_money"
    if kind == "trade_refused" and event.params.get("said"):
        kind = "trade_refused_said"
    return render("event_" + kind, event_params(edition, event, language), language)


ABBREVIATIONS = frozenset({"st", "ave", "rd", "no", "mr", "mrs", "dr", "ул", "пр", "пл", "бул", "ж", "д", "г"})
"""Words a card's text abbreviates with a full stop that does not end its sentence ("Advance to St. Charles")."""


def card_title(text: str) -> str:
    """The first sentence of a card's text, not cut at an abbreviation's full stop."""
    start = 0
    while True:
        stop = text.find(". ", start)
        if stop < 0:
            return text.rstrip(".")
        word = text[:stop].rsplit(" ", 1)[-1].lower()
        if word in ABBREVIATIONS or len(word) == 1:
            start = stop + 2
            continue
        return text[:stop]


def money_back(edition: Edition, deltas: dict[str, Any], language: str) -> str:
    """What an undo gave back and took back: "$60 back to Ann", "$550 back to Bob, $550 from Ann"."""
    parts = []
    for account, delta in sorted(deltas.items(), key=lambda item: not (isinstance(item[1], int) and item[1] > 0)):
        if not isinstance(delta, int) or not delta:
            continue
        key = "money_back_to" if delta > 0 else "money_back_from"
        parts.append(render(key, {"amount": edition.format_money(abs(delta)), "player": label(account, language)
                                  if account in ("bank", "pot") else account}, language))
    return ", ".join(parts)


def describe_action(edition: Edition, action: Action, language: str = "en", hotel_level: int = 5) -> str:
    """An action in words, for people: "Ann buys Baltic Avenue" (never its identifier)."""
    return describe_action_json(edition, action.to_json(), language, hotel_level)


def describe_action_json(edition: Edition, data: dict[str, Any], language: str = "en", hotel_level: int = 5) -> str:
    """:func:`describe_action` of an action's JSON form (as the journal and an undo event keep it)."""
    name = str(data.get("action", ""))
    params: dict[str, Any] = {}
    for key, value in data.items():
        if key == "action":
            continue
        if key == "amount" and isinstance(value, int):
            params[key] = edition.format_money(value)
        elif key == "property" and isinstance(value, str):
            params[key] = _deed_name(edition, value)
        elif key == "square" and isinstance(value, str):
            try:
                params[key] = edition.square(int(value) if value.isdigit() else value).name
            except (KeyError, ValueError, BankerError):
                params[key] = value
        elif key in ("to", "building") and isinstance(value, str):
            params[key] = label(value, language) if value in ("bank", "pot", "house", "hotel") else value
        elif key == "players" and isinstance(value, list):
            params[key] = ", ".join(str(v) for v in value)
        elif key == "levels" and isinstance(value, dict):
            params[key] = levels_text(edition, value, language, hotel_level)
        else:
            params[key] = value
    if name == "card":
        try:
            params["card"] = card_title(edition.card(str(data.get("deck", "")), str(data.get("card", ""))).text)
        except BankerError:
            params["card"] = str(data.get("card", ""))
    if name in ("trade", "propose_trade"):
        params["player"] = data.get("from", "")
    if name == "salary" and data.get("landed"):
        name = "salary_landed"
    if name == "sell_buildings" and isinstance(data.get("levels"), dict) and data["levels"]:
        first = next(iter(data["levels"]))
        params["property"] = _deed_name(edition, str(first))
    if template("action_" + name, language) is None:
        return render("action_other", {}, language)
    return render("action_" + name, params, language)


def bundle_words(edition: Edition, bundle: dict[str, Any], language: str) -> str:
    """One side of a trade in words: "$100, Baltic Avenue, 1 Get Out of Jail Free card" ("nothing")."""
    parts: list[str] = []
    cash = bundle.get("cash", 0)
    if isinstance(cash, int) and cash:
        parts.append(edition.format_money(cash))
    parts += [_deed_name(edition, str(deed_id)) for deed_id in bundle.get("properties", ())]
    cards = bundle.get("jail_cards", 0)
    if isinstance(cards, int) and cards:
        parts.append(render("bundle_jail_cards", {"count": cards}, language))
    return ", ".join(parts) if parts else render("bundle_nothing", {}, language)


def levels_text(edition: Edition, levels: dict[str, Any], language: str, hotel_level: int = 5) -> str:
    """Break-down levels in words: "Boardwalk: 4 houses, Park Place: 3 houses"."""
    parts = []
    for deed_id, level in levels.items():
        if not isinstance(level, int):
            continue
        what = render("level_hotel", {}, language) if level == hotel_level else render("level_houses", {"count": level},
                                                                              language)
        parts.append(f"{_deed_name(edition, str(deed_id))}: {what}")
    return ", ".join(parts)


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


def group_name(group: str, language: str) -> str:
    """A deed group's name in ``language``: "Light blue", "Railroads"."""
    found = template("advisor_group_" + group, language)
    return found if isinstance(found, str) else label(group, language)


def group_mark(group: str, language: str) -> str:
    """The letters that name a deed group beside its colour ("LB", "Гл"), so that colour is never the only
    cue; the catalogue gives each group of an edition its own (tests/test_group_marks.py)."""
    found = template("advisor_mark_" + group, language)
    return found if isinstance(found, str) else group_name(group, language)[:2]
