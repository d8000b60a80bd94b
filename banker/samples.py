"""Every text of the catalogue filled in with real values, so that a native speaker can read them all:
``banker texts --lang ru`` prints one key a line.

The values are taken from games played through the engine (a game of the edition of the reader's own
country where there is one, the US edition otherwise): the players' names, the deeds they bought and
rented, the amounts paid, the groups built on. What a game cannot give (a number of seconds, a volume,
a file name) comes from :data:`OTHER_VALUES`, written as a table would show it.
"""

from __future__ import annotations

import json
import string
from typing import Any

from banker.edition import Edition, load_edition
from banker.ledger import Event
from banker.messages import LANGUAGES, TABLES, Template, label, render
from banker.replay import replay_lines
from banker.text import bundle_words, deed_name, describe_action_json, describe_event, event_key, money_text

GAMES = {"en": ("us", ["Ann", "Bob", "Cy"]), "ru": ("ru", ["Аня", "Боря", "Цветан"]),
         "bg": ("us", ["Ана", "Боби", "Цветан"])}
"""The edition and the players of the game whose values fill each language's texts."""

SCRIPT: list[dict[str, Any]] = [
    {"action": "buy", "player": 0, "property": 1},
    {"action": "buy", "player": 0, "property": 0},
    {"action": "rent", "player": 1, "property": 1},
    {"action": "buy", "player": 1, "property": 5},
    {"action": "build", "player": 0, "property": 1},
    {"action": "mortgage", "player": 1, "property": 5},
    {"action": "salary", "player": 2},
    {"action": "pay", "player": 2, "amount": 50, "to": 0},
    {"action": "trade", "from": 1, "to": 2, "give": {"properties": [5]}, "take": {"cash": 100}},
]
"""The game played: purchases, a rent, a house, a mortgage, the salary, a payment and a trade (players and
deeds by number: the edition's own ids are filled in)."""

OTHER_VALUES: dict[str, Any] = {
    "seconds": 12, "volume": 80, "count": 3, "low": 2, "high": 8, "limit": 24, "length": 31, "position": 4,
    "seq": 57, "line": 3, "column": 14, "dice": 7, "level": 2, "current": 4, "houses": 2, "hotels": 1,
    "needed": 3, "percent": 10, "proposal": 4, "game": 2, "turns": 41, "actions": 165, "hours": 1,
    "minutes": 25, "wins": 2, "games": 3, "finished": 2, "steps": 4, "throws": 9, "page": 2, "pages": 3,
    "number": 2, "total": 3, "free": 12, "left": 9, "days": 2, "size": 12,
}
"""Numbers a played game does not hold, as a table would show them."""

SAID = {"en": "Too little for Reading", "ru": "Маловато за вокзал", "bg": "Малко е за гарата"}
"""What a player writes when refusing a trade, in each language."""


def _id(edition: Edition, value: Any) -> Any:
    return edition.properties[value].id if isinstance(value, int) and not isinstance(value, bool) else value


def played(language: str) -> tuple[Edition, dict[str, Any], dict[str, Event]]:
    """The edition of ``language``'s game, the values its events hold by parameter name (every player as the
    one who acts, the second as the one paid), and the first event of each kind."""
    edition_id, players = GAMES[language]
    edition = load_edition(edition_id)
    lines = [json.dumps({"action": "new_game", "edition": edition_id, "players": players, "rules": {}})]
    for step in SCRIPT:
        line: dict[str, Any] = {}
        for key, value in step.items():
            if key in ("player", "from", "to") and isinstance(value, int):
                line[key] = players[value]
            elif key == "property":
                line[key] = _id(edition, value)
            elif key in ("give", "take"):
                line[key] = {k: [_id(edition, v) for v in vs] if k == "properties" else vs for k, vs in value.items()}
            else:
                line[key] = value
        lines.append(json.dumps(line, ensure_ascii=False))
    result = replay_lines(lines, board=True)
    events: dict[str, Event] = {}
    for _, line_events in result.events:
        for event in line_events:
            events.setdefault(event.kind, event)
    rent = events["paid"].params
    values: dict[str, Any] = {
        "player": rent["player"], "to": rent["to"], "owner": rent["to"], "other": players[2], "winner": players[0],
        "bidder": players[1], "holder": players[1], "receiver": players[1], "proposer": players[0],
        "source": players[2], "creditor": players[0], "players": players, "amount": rent["amount"],
        "property": rent["property"], "square": "income_tax" if edition_id == "us" else "income_tax",
        "first": edition.properties[0].id, "mortgaged": edition.properties[0].id, "reason": "rent",
        "how": "fine", "basis": "mortgaged", "deck": "chance", "group": edition.properties[0].group,
        "building": "house", "cash": 150, "value": 330, "price": 60, "high": 120, "keep_fee": 10,
        "unmortgage_cost": 110, "flat": 200, "worth": 1640, "pot": 0, "short": 40, "missing": 40,
        "text": edition.card_text(edition.decks["chance"][0], language), "what": "rent",
        "built": edition.properties[0].id,
    }
    values["action_done"] = result.actions[1].to_json()
    trade = result.actions[-1].to_json()
    values["give"], values["take"] = trade["give"], trade["take"]
    values["said"] = SAID[language]
    return edition, values, events


def filled(key: str, template: Template, edition: Edition, values: dict[str, Any], language: str) -> dict[str, Any]:
    """The parameters of ``template``, each a value from the game in the reader's words."""
    forms = template.values() if isinstance(template, dict) else [template]
    names = {name.split(".")[0].split("[")[0] for form in forms for _, name, _, _ in string.Formatter().parse(form)
             if name}
    params: dict[str, Any] = {}
    for name in names:
        value = values.get(name, OTHER_VALUES.get(name))
        if name in ("property", "square", "first", "mortgaged", "deed", "street", "built"):
            params[name] = deed_name(edition, str(value or edition.properties[1].id), language)
        elif name == "missing" and key.startswith("build_needs"):
            params[name] = deed_name(edition, edition.properties[0].id, language)
        elif name in MONEY_NAMES and isinstance(value, int):
            params[name] = money_text(edition, value, language)
        elif name == "players" and isinstance(value, list):
            params[name] = ", ".join(value)
        elif name in ("to", "account") and isinstance(value, str):
            params[name] = label(value, language) if value in ("bank", "pot") else value
        elif name in ("reason", "how", "basis", "deck", "group", "building", "what") and isinstance(value, str):
            params[name] = label(value, language)
        elif name in ("give", "take") and isinstance(value, dict):
            params[name] = bundle_words(edition, value, language, case="acc")
        elif name == "action":
            params[name] = describe_action_json(edition, values["action_done"], language)
        elif name == "edition":
            params[name] = edition.name
        elif value is not None and not isinstance(value, (dict, list)):
            params[name] = value
        else:
            params[name] = OTHER_VALUES.get(name, 3)
    if isinstance(template, dict):
        params.setdefault("count", OTHER_VALUES["count"])
    return params


MONEY_NAMES = frozenset({"amount", "missing", "cash", "value", "price", "high", "keep_fee", "unmortgage_cost", "flat",
                         "worth", "pot", "short"})


def rendered(language: str) -> list[tuple[str, str]]:
    """(key, text) of every text of the catalogue in ``language``, filled in with a played game's values (a
    text with plural forms: its form for 3). A log line or a sentence of an event the game had is the
    game's own line (:func:`banker.text.describe_event`, :func:`banker.speech.sentence`)."""
    from banker.speech import _key as said_key
    from banker.speech import sentence

    edition, values, events = played(language)
    table = TABLES[language]
    out = []
    for key in sorted(table):
        kind = key.removeprefix("event_").removeprefix("say_")
        event = events.get(kind) if key.startswith(("event_", "say_")) else None
        if event is not None and key.startswith("event_") and event_key(event)[0] == key:
            out.append((key, describe_event(edition, event, language)))
        elif event is not None and key.startswith("say_") and said_key(event) == key:
            out.append((key, sentence(edition, event, language)))
        else:
            out.append((key, render(key, filled(key, table[key], edition, values, language), language)))
    return out


def main_lines(language: str) -> list[str]:
    """``banker texts --lang LANGUAGE``: one ``key: text`` a line."""
    if language not in LANGUAGES:
        raise ValueError(language)
    return [f"{key}: {text}".replace("\n", " ") for key, text in rendered(language)]
