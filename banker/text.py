"""Readable text for events and states, in the player's language."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from banker.actions import Action
from banker.board import MORTGAGED, BoardMove, moves_of
from banker.edition import Edition
from banker.errors import BankerError
from banker.inflect import Word, capital, inflected
from banker.ledger import Event
from banker.messages import EN_LABELS, label, render, template
from banker.state import BANK, GameState

MONEY_KEYS = frozenset({"amount", "missing", "keep_fee", "unmortgage_cost", "flat"})
LABEL_KEYS = frozenset({"to", "reason", "how", "deck", "group", "basis"})
PLAIN_REASONS = frozenset({"", "pay", "transfer", "collect"})
"""Payment reasons that say nothing more than "pays": the line leaves them out."""
LATIN_LANGUAGES = frozenset({"en"})


def _cyrillic(text: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in text)


def deed_name(edition: Edition, square_id: str, language: str = "en") -> str:
    """A deed's or square's name for a reader of ``language``: as printed, except that a name printed in
    Cyrillic is, for an English reader, the edition's name in English ("Zhitnaya Street"), as the
    printed cards in Latin letters stay as they are for a Russian reader."""
    prop = edition.by_id.get(square_id)
    try:
        printed = prop.name if prop is not None else edition.square(square_id).name
    except BankerError:
        return square_id
    if language in LATIN_LANGUAGES and _cyrillic(printed):
        return edition.spoken.get(language, {}).get(square_id, printed)
    return printed


def money_text(edition: Edition, amount: int, language: str = "en") -> str:
    """An amount as a reader of ``language`` reads it ("$550", "550 thousand roubles", "550 тыс. руб.")."""
    return edition.format_money(amount, language)


def card_text(edition: Edition, deck: str, card_id: str, language: str = "en") -> str:
    """A card's text in ``language`` (the printed one where the edition has none in it)."""
    return edition.card_text(edition.card(deck, card_id), language)


def event_params(edition: Edition, event: Event, language: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in event.params.items():
        if key in MONEY_KEYS and isinstance(value, int):
            params[key] = money_text(edition, value, language)
        elif key in ("property", "square") and isinstance(value, str):
            params[key] = deed_name(edition, value, language)
        elif key == "building" and isinstance(value, str) or key in LABEL_KEYS and isinstance(value, str):
            params[key] = label(value, language)
        elif key == "players" and isinstance(value, list):
            params[key] = ", ".join(str(v) for v in value)
        elif key == "action" and isinstance(value, dict):
            params[key] = describe_action_json(edition, value, language)
        elif key == "money" and isinstance(value, dict):
            params[key] = money_back(edition, value, language)
        elif key in ("give", "take") and isinstance(value, dict):
            params[key] = bundle_words(edition, value, language, case="acc")
        else:
            params[key] = value
    if event.kind == "card" and isinstance(event.params.get("card"), str):
        with contextlib.suppress(BankerError):
            params["text"] = card_text(edition, str(event.params.get("deck", "")), str(event.params["card"]),
                                       language)
    if event.kind.startswith("auction"):
        prop, building = params.get("property", ""), params.get("building", "")
        params["property"] = prop
        params["building"] = f" ({building})" if building and prop else building
    return params


def event_key(event: Event) -> tuple[str, dict[str, Any]]:
    """The catalogue key of an event's log line, and what it adds to the event's parameters."""
    kind, params = event.kind, event.params
    if kind == "undone" and params.get("money"):
        return "event_undone_money", {}
    if kind == "trade_refused" and params.get("said"):
        return "event_trade_refused_said", {}
    if kind == "paid":
        reason = params.get("reason", "")
        if reason == "rent" and params.get("property"):
            return "event_paid_rent", {}
        if reason == "tax" and params.get("square"):
            return "event_paid_tax", {}
        if reason in PLAIN_REASONS or reason not in EN_LABELS:
            return "event_paid_plain", {}
    if kind in ("debt", "debt_hidden", "debt_paid"):
        reason = params.get("reason", "")
        if reason in PLAIN_REASONS or reason not in EN_LABELS:
            return "event_" + kind, {"reason": "pay"}
    if kind == "sold_building" and params.get("building") == "hotel":
        left = params.get("houses", 0)
        return "event_sold_hotel", {"count": left if isinstance(left, int) else 0}
    if kind == "traded":
        give, take = params.get("give") or {}, params.get("take") or {}
        if _empty(take):
            return "event_traded_gift", {}
        if _empty(give):  # only the other side gives: said from the giver's side
            return "event_traded_gift", {"player": params.get("to"), "to": params.get("player"), "give": take}
    return "event_" + kind, {}


def _empty(bundle: Any) -> bool:
    return not isinstance(bundle, dict) or not (bundle.get("cash") or bundle.get("properties")
                                                or bundle.get("jail_cards"))


def describe_event(edition: Edition, event: Event, language: str = "en") -> str:
    """One line saying what happened, e.g. "Bob pays Ann $550 for Park Place."; "" for a board event that
    moves nothing."""
    if event.kind == "board":
        return board_line(edition, moves_of((event,)), language)
    key, more = event_key(event)
    params = event_params(edition, Event(event.kind, {**event.params, **more}, event.transaction), language)
    return capital(render(key, params, language))


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
        who = label(account, language) if account in ("bank", "pot") else account
        parts.append(render(key, {"amount": money_text(edition, abs(delta), language), "player": who}, language))
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
            params[key] = money_text(edition, value, language)
        elif key == "property" and isinstance(value, str):
            params[key] = deed_name(edition, value, language)
        elif key == "square" and isinstance(value, str):
            try:
                params[key] = deed_name(edition, edition.square(int(value) if value.isdigit() else value).id, language)
            except (KeyError, ValueError, BankerError):
                params[key] = value
        elif key in ("to", "building") and isinstance(value, str):
            params[key] = (Word(label(value, language), "word", language) if value in ("bank", "pot", "house", "hotel")
                           else value)
        elif key == "players" and isinstance(value, list):
            params[key] = ", ".join(str(v) for v in value)
        elif key == "levels" and isinstance(value, dict):
            params[key] = levels_text(edition, value, language, hotel_level)
        else:
            params[key] = value
    if name == "card":
        try:
            params["card"] = card_title(card_text(edition, str(data.get("deck", "")), str(data.get("card", "")),
                                                  language))
        except BankerError:
            params["card"] = str(data.get("card", ""))
    if name in ("trade", "propose_trade"):
        params["player"] = data.get("from", "")
    if name == "salary" and data.get("landed"):
        name = "salary_landed"
    if name == "sell_buildings" and isinstance(data.get("levels"), dict) and data["levels"]:
        first = next(iter(data["levels"]))
        params["property"] = deed_name(edition, str(first), language)
    if template("action_" + name, language) is None:
        return render("action_other", {}, language)
    return render("action_" + name, params, language)


def bundle_words(edition: Edition, bundle: dict[str, Any], language: str, case: str = "nom") -> str:
    """One side of a trade in words: "Baltic Avenue, $100 and 1 Get Out of Jail Free card" ("nothing");
    ``case``: the case a sentence puts them in (Russian: "Житную улицу и 100 тыс. руб.")."""
    parts = [inflected(deed_name(edition, str(deed_id), language), case, "deed", language)
             for deed_id in bundle.get("properties", ())]
    cash = bundle.get("cash", 0)
    if isinstance(cash, int) and cash:
        parts.append(money_text(edition, cash, language))
    cards = bundle.get("jail_cards", 0)
    if isinstance(cards, int) and cards:
        parts.append(render("bundle_jail_cards", {"count": cards}, language))
    if not parts:
        return render("bundle_nothing", {}, language)
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} {render('say_and', {}, language)} {parts[-1]}"


def levels_text(edition: Edition, levels: dict[str, Any], language: str, hotel_level: int = 5) -> str:
    """Break-down levels in words: "Boardwalk: 4 houses, Park Place: 3 houses"."""
    parts = []
    for deed_id, level in levels.items():
        if not isinstance(level, int):
            continue
        what = render("level_hotel", {}, language) if level == hotel_level else render("level_houses", {"count": level},
                                                                              language)
        parts.append(f"{deed_name(edition, str(deed_id), language)}: {what}")
    return ", ".join(parts)


def log_lines(edition: Edition, events: Iterable[Event], language: str = "en") -> list[str]:
    """The log lines of an action's events, its board moves last (as one line, when there are any)."""
    return [line for line in (describe_event(edition, e, language) for e in events) if line]


def describe_move(edition: Edition, move: BoardMove, language: str = "en") -> str:
    """One board move as an instruction: "Put 1 house on Baltic Avenue", "Give Oriental Avenue to Ann"."""
    key, params = _move_text(edition, move, language)
    return render(key, params, language)


def _move_text(edition: Edition, move: BoardMove, language: str) -> tuple[str, dict[str, Any]]:
    deed = {"property": deed_name(edition, move.what, language)}
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


def summary_lines(state: GameState, language: str = "en") -> list[str]:
    """A short text picture of the game: cash, deeds, debts, auction, winner."""
    from banker.worth import net_worth

    edition = state.edition
    def money(amount: int) -> str:
        return money_text(edition, amount, language)

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
                deeds.append(f"{deed_name(edition, prop.id, language)}{build}{mark}")
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
        on_sale = edition.properties[state.auction.property].id
        lines.append(render("summary_auction", {"property": deed_name(edition, on_sale, language),
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
