"""The sentence the table says after an action, in its language, written for the ear.

``say(edition, events, language)`` turns an action's events (with the ``"board"`` event that the
session and ``banker replay`` add) into one or a few sentences: "Bob pays Ann 550 dollars rent for Park
Place." Amounts carry the currency's word in the right plural form, numbers are spelt out where a voice
would get their agreement wrong, and names are said in the sentence's alphabet (:mod:`banker.spoken`).
The texts are the ``[say]`` section of the catalogue; an event without a text of its own there is said
with its log text, filled in the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from banker.edition import Edition
from banker.inflect import Word, capital, inflected
from banker.ledger import Event
from banker.messages import label, render, template
from banker.spoken import number_words, spoken_name
from banker.state import BANK, POT

MONEY_KEYS = frozenset({"amount", "missing", "keep_fee", "unmortgage_cost", "flat"})
NAME_KEYS = frozenset({"player", "source", "winner"})
SILENT = frozenset({"board"})
"""Events that are not said: the board moves are shown, not spoken."""
REASONS = frozenset({"rent", "tax", "jail_fine", "mortgage_interest", "repairs"})
"""Payment reasons with a sentence of their own (``say_paid_rent``…); the others are said as a payment."""


def money(edition: Edition, amount: int, language: str, *, bare: bool = False) -> str:
    """``amount`` of the edition's money as a voice says it: "550 dollars", "пятьсот пятьдесят тысяч рублей";
    ``bare``: the number alone ("пятьсот пятьдесят тысяч"), as the short voice says it."""
    word = edition.currency_word
    if not word or template("say_money_" + word, language) is None:
        return edition.format_money(amount, language)
    value = amount * edition.currency_unit
    gender = render("say_gender_" + word, {}, language)
    if language == "en" and edition.currency_unit > 1:
        spoken = _english_large(value)
    else:
        # Every amount in the sentences stands where it is paid or received: the accusative ("тысячу").
        spoken = number_words(value, language, gender, accusative=True)
    if bare:
        return spoken
    return render("say_money_" + word, {"amount": spoken, "count": value}, language)


def _english_large(value: int) -> str:
    """A round number of thousands as English speech says it: "550 thousand", "1 million 500 thousand"."""
    if value < 10_000 or value % 1000:
        return str(value)
    millions, thousands = divmod(value // 1000, 1000)
    parts = ([f"{millions} million"] if millions else []) + ([f"{thousands} thousand"] if thousands else [])
    return " ".join(parts)


def square_name(edition: Edition, square_id: str, language: str) -> str:
    """A square's name as a voice says it in ``language`` (the edition's spoken names, else the printed one)."""
    spoken = edition.spoken.get(language, {}).get(square_id)
    if spoken is not None:
        return spoken
    prop = edition.by_id.get(square_id)
    printed = prop.name if prop is not None else edition.square(square_id).name
    return printed if language == edition.language else spoken_name(printed, language, edition.language)


def account(edition: Edition, name: str, language: str) -> str:
    if name in (BANK, POT, "creditors"):
        return Word(render("say_account_" + name, {}, language), "word", language)
    return person(name, language)


def person(name: str, language: str) -> str:
    """A player's name as the voice says it: in the sentence's alphabet; a name written for the voice in
    another alphabet keeps its form in every case ("Энн" for Ann), as Russian keeps foreign names."""
    said = spoken_name(name, language)
    return Word(said, "fixed" if said != name else "person", language)


def bundle(edition: Edition, items: Any, language: str, *, short: bool = False) -> str:
    """One side of a trade as the voice says it, in the case of what is given (Russian: "Житную улицу")."""
    if not isinstance(items, dict):
        return render("bundle_nothing", {}, language)
    parts = [inflected(square_name(edition, str(deed), language), "acc", "deed", language)
             for deed in items.get("properties", ())]
    cash = items.get("cash", 0)
    if isinstance(cash, int) and not isinstance(cash, bool) and cash:
        parts.append(money(edition, cash, language, bare=short))
    cards = items.get("jail_cards", 0)
    if isinstance(cards, int) and not isinstance(cards, bool) and cards:
        parts.append(render("bundle_jail_cards", {"count": cards}, language))
    return listing(parts, language) if parts else render("bundle_nothing", {}, language)


def listing(items: list[str], language: str) -> str:
    """"A, B and C" in ``language``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {render('say_and', {}, language)} {items[-1]}"


def _params(edition: Edition, event: Event, language: str, short: bool = False) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in event.params.items():
        if key in MONEY_KEYS and isinstance(value, int) and not isinstance(value, bool):
            params[key] = money(edition, value, language, bare=short)
        elif key in NAME_KEYS and isinstance(value, str):
            params[key] = person(value, language)
        elif key == "to" and isinstance(value, str):
            params[key] = account(edition, value, language)
        elif key in ("property", "square") and isinstance(value, str):
            try:
                params[key] = square_name(edition, value, language)
            except Exception:  # noqa: BLE001 - a board index or an unknown id: said as written
                params[key] = value
        elif key == "building" and isinstance(value, str):
            params[key] = render("say_building_" + value, {}, language)
        elif key in ("deck", "group", "basis", "how", "reason") and isinstance(value, str):
            params[key] = label(value, language)
        elif key == "players" and isinstance(value, list):
            params[key] = listing([spoken_name(str(v), language) for v in value], language)
        elif key == "properties" and isinstance(value, list):
            params[key] = listing([inflected(square_name(edition, str(v), language), "acc", "deed", language)
                                   for v in value], language)
        elif key in ("give", "take"):
            params[key] = bundle(edition, value, language, short=short)
        else:
            params[key] = value
    return params


SHORT_KEYS = {"paid": "say_short_paid", "debt_paid": "say_short_paid", "salary": "say_short_gain",
              "collected": "say_short_gain", "pot_collected": "say_short_gain", "inherited_cash": "say_short_gain",
              "bought": "say_short_bought", "debt": "say_short_debt"}
"""The short voice's sentence of each common announcement: only the names and the amount (a purchase:
the names, its price being printed on the deed)."""
BARE_AMOUNTS = frozenset({"say_bought", "say_auction_won", "say_dealt"})
"""Sentences whose price is said without the currency's word ("Ann buys Park Place for 350"): a deed's
name is long, and a price needs no "dollars" to be understood."""


def _key(event: Event, short: bool = False) -> str:
    kind = event.kind
    if short and kind in SHORT_KEYS:
        if kind in ("paid", "debt_paid") and event.params.get("to") in (BANK, POT):
            return "say_short_paid_bank"
        return SHORT_KEYS[kind]
    if kind in ("paid", "debt"):
        reason = event.params.get("reason")
        if kind == "paid" and reason in REASONS:
            return f"say_paid_{reason}"
        return f"say_{kind}"
    if kind.startswith("auction_") and event.params.get("building"):
        return f"say_{kind}_building"
    if kind == "sold_building" and event.params.get("building") == "hotel":
        return "say_sold_hotel"
    if kind == "traded" and (_empty(event.params.get("give")) or _empty(event.params.get("take"))):
        return "say_traded_gift"
    return f"say_{kind}"


def _empty(items: Any) -> bool:
    return not isinstance(items, dict) or not (items.get("cash") or items.get("properties") or items.get("jail_cards"))


def _merged(events: Iterable[Event]) -> list[Event]:
    """Deeds received one after another by the same player, said as one sentence ("Ann receives A and B")."""
    out: list[Event] = []
    for event in events:
        if event.kind in SILENT:
            continue
        if event.kind == "inherited_deed":
            last = out[-1] if out else None
            if last is not None and last.kind == "inherited_deed" and last.params["player"] == event.params["player"]:
                last.params["properties"].append(event.params["property"])
                continue
            event = Event("inherited_deed", {"player": event.params["player"],
                                             "properties": [event.params["property"]]})
        out.append(event)
    return out


def sentence(edition: Edition, event: Event, language: str, *, short: bool = False) -> str:
    """One event as a spoken sentence (``short``: the short voice's, where it has one)."""
    if event.kind == "traded" and _empty(event.params.get("take")) is False and _empty(event.params.get("give")):
        # Only the other side gives: said from the giver's side ("Bob gives Ann 100 dollars").
        params = dict(event.params)
        event = Event("traded", {**params, "player": params.get("to"), "to": params.get("player"),
                                 "give": params.get("take"), "take": params.get("give")})
    key = _key(event, short)
    if template(key, language) is None:
        key = "event_" + event.kind
    params = _params(edition, event, language, short=key.startswith("say_short_") or key in BARE_AMOUNTS)
    if key == "say_sold_hotel":
        left = event.params.get("houses", 0)
        params["count"] = left if isinstance(left, int) else 0
        params["houses"] = number_words(params["count"], language, render("say_gender_house", {}, language))
    if key == "say_undone":
        params["what"] = say(edition, [Event.from_json(e) for e in event.params.get("undone", [])], language,
                             first=True) or str(event.params.get("action", {}).get("action", ""))
    return capital(render(key, params, language))


def say(edition: Edition, events: Iterable[Event], language: str = "en", *, first: bool = False,
        short: bool = False) -> str:
    """What the table says after an action whose events are ``events`` (``first``: its first sentence only;
    ``short``: the short voice, which says only the names and the amount of the common announcements)."""
    events = list(events)
    board = next((e for e in events if e.kind == "board"), None)
    spoken: list[str] = []
    for event in _merged(events):
        if event.kind == "undone" and board is not None:
            event = Event("undone", {**event.params, "undone": board.params.get("undone", [])})
        spoken.append(sentence(edition, event, language, short=short))
        if first:
            break
    return " ".join(s for s in spoken if s)
