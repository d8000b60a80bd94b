"""Editions as data: the board, the decks and the rule defaults, loaded from ``banker/editions/*.toml``.

A malformed file fails to load with an :class:`EditionError` that names the file, the field and the
problem, so a mistake in the data is found when the game starts, not in the middle of it.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from banker.errors import EditionError, UnknownName

Money = int

EDITIONS_DIR = Path(__file__).with_name("editions")
SQUARE_KINDS = frozenset(
    {"go", "street", "railroad", "utility", "tax", "chance", "community_chest", "jail", "free_parking",
     "go_to_jail"}
)
CARD_KINDS = frozenset(
    {"advance", "nearest", "back", "collect", "pay", "pay_each", "collect_each", "repairs", "go_to_jail",
     "jail_free", "pay_or_draw"}
)
DECKS = ("chance", "community_chest")
BOARD_SIZE = 40


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    kind: str
    id: str
    name: str
    amount: Money = 0
    """The printed tax of a tax square."""


@dataclass(frozen=True, slots=True)
class Property:
    """A title deed: a street, a railroad or a utility."""

    number: int
    """Position among the edition's deeds, in board order (0..27)."""
    square: int
    """Board index (0..39)."""
    id: str
    name: str
    kind: str
    """"street", "railroad" or "utility"."""
    price: Money
    mortgage: Money
    group: str
    """The colour group of a street; "railroad" or "utility" for the others."""
    rent: tuple[Money, ...] = ()
    """Street rent with 0, 1, 2, 3, 4 houses and with a hotel."""
    house_price: Money = 0
    """Price of a house; a hotel costs the same plus the houses turned in for it."""
    short: str = ""
    """The name as a line too narrow for it prints it ("Рижская ж. д."); empty when the name is short."""


@dataclass(frozen=True, slots=True)
class Card:
    deck: str
    id: str
    kind: str
    text: str
    amount: Money = 0
    to: int = -1
    """Destination square of an "advance" card."""
    salary: bool = True
    """Whether an "advance" card pays the salary when it passes GO."""
    target: str = ""
    """"railroad" or "utility" for a "nearest" card."""
    spaces: int = 0
    house: Money = 0
    hotel: Money = 0
    draw: str = ""
    """The deck a "pay_or_draw" card offers instead of paying."""


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    language: str
    money_format: str
    deck_names: dict[str, str]
    squares: tuple[Square, ...]
    properties: tuple[Property, ...]
    decks: dict[str, tuple[Card, ...]]
    defaults: dict[str, Any]
    groups: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Deed numbers of each group, in board order."""
    by_id: dict[str, Property] = field(default_factory=dict)
    by_square: dict[int, Property] = field(default_factory=dict)
    currency_word: str = ""
    """The currency's word in the catalogue ("dollar", "pound", "rouble"): how a voice says an amount."""
    currency_unit: int = 1
    """What one unit of the printed amounts is worth in that currency (1000: amounts in thousands)."""
    spoken: dict[str, dict[str, str]] = field(default_factory=dict)
    """Square names as a voice says them, per language: square id -> name (where the printed one is not)."""
    money_formats: dict[str, str] = field(default_factory=dict)
    """The money format for a reader of another language, where the printed one would not do for them
    ("{amount} thousand roubles" for an English reader of "{amount} тыс. руб.")."""
    card_texts: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    """Each card's text in another language: language -> deck -> card id -> text (deed names as printed)."""

    def property(self, property_id: str) -> Property:
        """The deed with this id; :class:`UnknownName` (naming the closest id) if there is none."""
        found = self.by_id.get(property_id)
        if found is None:
            names = {p.id: p.name for p in self.properties}
            hint = closest(property_id, names)
            if hint is not None:
                raise UnknownName("unknown_property_suggest", property=property_id, edition=self.id, suggestion=hint)
            raise UnknownName("unknown_property", property=property_id, edition=self.id)
        return found

    def square(self, ref: str | int) -> Square:
        """A square by board index or id; :class:`UnknownName` if there is none."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 0 <= ref < len(self.squares):
                return self.squares[ref]
        else:
            for square in self.squares:
                if square.id == ref:
                    return square
        hint = closest(str(ref), {sq.id: sq.name for sq in self.squares})
        if hint is not None:
            raise UnknownName("unknown_square_suggest", square=str(ref), edition=self.id, suggestion=hint)
        raise UnknownName("unknown_square", square=str(ref), edition=self.id)

    def card(self, deck: str, card_id: str) -> Card:
        if deck not in self.decks:
            raise UnknownName("unknown_deck", deck=deck)
        for card in self.decks[deck]:
            if card.id == card_id:
                return card
        raise UnknownName("unknown_card", deck=deck, card=card_id, edition=self.id)

    def format_money(self, amount: Money, language: str = "") -> str:
        """``amount`` as the edition prints it ("$1,500", "1 500 тыс. руб."), or as a reader of
        ``language`` reads it where the edition gives that language a format of its own."""
        reader = language or self.language
        template = self.money_formats.get(reader, self.money_format) if language else self.money_format
        sign = "-" if amount < 0 else ""
        grouped = f"{abs(amount):,}".replace(",", "\u202f" if reader != "en" else ",")
        return sign + template.replace("{amount}", grouped)

    def card_text(self, card: Card, language: str = "") -> str:
        """A card's text in ``language`` (as printed when the edition has no text of it there)."""
        return self.card_texts.get(language, {}).get(card.deck, {}).get(card.id, card.text)


def _folded(text: str) -> str:
    """Lower case, letters and digits only: "Park Place", "park_place" and "PARK-PLACE" fold alike."""
    return "".join(c for c in text.casefold() if c.isalnum())


def closest(wrong: str, options: dict[str, str]) -> str | None:
    """The id among ``options`` (id → display name) that ``wrong`` most likely meant, if any is close."""
    folded = _folded(wrong)
    if not folded:
        return None
    for option_id, name in options.items():
        if folded in (_folded(option_id), _folded(name)):
            return option_id
    by_fold = {_folded(option_id): option_id for option_id in options}
    match = difflib.get_close_matches(folded, list(by_fold), n=1, cutoff=0.75)
    return by_fold[match[0]] if match else None


def available_editions() -> list[str]:
    return sorted(p.stem for p in EDITIONS_DIR.glob("*.toml"))


EDITIONS = ("us", "uk", "ru")
"""The bundled editions in the order the table and the setup page offer them."""
EDITION_OF_LANGUAGE = {"en": "us", "ru": "ru", "bg": "ru"}
"""The edition a new game starts with in each language (Bulgarian families play the Russian edition's
board, in Cyrillic)."""
GROUP_COLOURS = {
    "brown": "#8b4a2b", "light_blue": "#a9dcf5", "pink": "#d6398f", "orange": "#f5901e",
    "red": "#e2231a", "yellow": "#fde700", "green": "#1a9c4f", "dark_blue": "#1b56a8",
}
"""The printed colour of each colour group, the same on every edition (a front that colours a deed)."""


def edition_for_language(language: str, current: str | None = None) -> str:
    """The edition a new game in ``language`` starts with: ``current`` (the board already on the table) when
    it is printed in that language, else the edition of :data:`EDITION_OF_LANGUAGE` ("us" for any other)."""
    if current is not None and current in EDITIONS and load_edition(current).language == language:
        return current
    return EDITION_OF_LANGUAGE.get(language, EDITIONS[0])


@cache
def deed_squares() -> tuple[int, ...]:
    """The board squares that carry a title deed, the same on every bundled edition (one set of deed
    stickers serves them all).

    Raises:
        EditionError: two bundled editions put their deeds on different squares.
    """
    found = {edition_id: tuple(sorted(load_edition(edition_id).by_square)) for edition_id in EDITIONS}
    first = found[EDITIONS[0]]
    for edition_id, squares in found.items():
        if squares != first:
            raise EditionError("edition_file", file=edition_id, field="square",
                               problem=f"deeds on squares {squares}, not {first} as in {EDITIONS[0]}")
    return first


@cache
def load_edition(edition_id: str) -> Edition:
    """Load a bundled edition by id ("us", "uk", "ru")."""
    path = EDITIONS_DIR / f"{edition_id}.toml"
    if not path.is_file():
        raise UnknownName("unknown_edition", edition=edition_id, known=", ".join(available_editions()))
    return load_edition_file(path)


def load_edition_file(path: Path) -> Edition:
    """Load and check an edition file; :class:`EditionError` names the file, field and problem."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise EditionError("edition_file", file=str(path), field="-", problem=str(exc)) from exc
    return _parse(data, str(path))


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, where: str, problem: str) -> EditionError:
        return EditionError("edition_file", file=self.file, field=where, problem=problem)

    def get(self, table: dict[str, Any], key: str, kind: type, where: str, default: Any = ...) -> Any:
        if not isinstance(table, dict):  # e.g. a card or a square edited into a number
            raise self.fail(where, f"expected a table, got {table!r}")
        if key not in table:
            if default is ...:
                raise self.fail(f"{where}.{key}", "missing")
            return default
        value = table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(f"{where}.{key}", f"expected a whole number, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail(f"{where}.{key}", f"expected {kind.__name__}, got {value!r}")
        return value


def _parse(data: dict[str, Any], file: str) -> Edition:
    r = _Reader(file)
    edition_id = r.get(data, "id", str, "edition")
    currency = r.get(data, "currency", dict, "edition")
    money_format = r.get(currency, "format", str, "currency")
    if "{amount}" not in money_format:
        raise r.fail("currency.format", "must contain {amount}")
    currency_word = r.get(currency, "say", str, "currency", "")
    currency_unit = r.get(currency, "unit", int, "currency", 1)
    if currency_unit <= 0:
        raise r.fail("currency.unit", "must be positive")
    money_formats: dict[str, str] = {}
    for language, text in r.get(currency, "formats", dict, "currency", {}).items():
        if not isinstance(text, str) or "{amount}" not in text:
            raise r.fail(f"currency.formats.{language}", "must be a text that contains {amount}")
        money_formats[str(language)] = text
    deck_names = r.get(data, "decks", dict, "edition")
    for deck in DECKS:
        r.get(deck_names, deck, str, "decks")
    defaults = r.get(data, "rules", dict, "edition")

    raw_squares = r.get(data, "squares", list, "edition")
    if len(raw_squares) != BOARD_SIZE:
        raise r.fail("squares", f"expected {BOARD_SIZE} squares, got {len(raw_squares)}")
    squares: list[Square] = []
    properties: list[Property] = []
    seen_ids: set[str] = set()
    for position, raw in enumerate(raw_squares):
        where = f"squares[{position}]"
        index = r.get(raw, "index", int, where)
        if index != position:
            raise r.fail(f"{where}.index", f"expected {position}, got {index}")
        kind = r.get(raw, "kind", str, where)
        if kind not in SQUARE_KINDS:
            raise r.fail(f"{where}.kind", f"unknown kind {kind!r}")
        square_id = r.get(raw, "id", str, where)
        if square_id in seen_ids:
            raise r.fail(f"{where}.id", f"duplicate id {square_id!r}")
        seen_ids.add(square_id)
        name = r.get(raw, "name", str, where)
        amount = r.get(raw, "amount", int, where) if kind == "tax" else 0
        if amount < 0:
            raise r.fail(f"{where}.amount", "must not be negative")
        squares.append(Square(index, kind, square_id, name, amount))
        if kind in ("street", "railroad", "utility"):
            price = r.get(raw, "price", int, where)
            mortgage = r.get(raw, "mortgage", int, where)
            if price <= 0 or mortgage <= 0:
                raise r.fail(f"{where}.price", "price and mortgage must be positive")
            rent: tuple[int, ...] = ()
            house_price = 0
            group = kind
            if kind == "street":
                group = r.get(raw, "group", str, where)
                rent_list = r.get(raw, "rent", list, where)
                if len(rent_list) != 6 or not all(isinstance(x, int) and x > 0 for x in rent_list):
                    raise r.fail(f"{where}.rent", "expected 6 positive whole numbers (0-4 houses, hotel)")
                rent = tuple(rent_list)
                house_price = r.get(raw, "house_price", int, where)
                if house_price <= 0:
                    raise r.fail(f"{where}.house_price", "must be positive")
            short = r.get(raw, "short", str, where, "")
            properties.append(Property(len(properties), index, square_id, name, kind, price, mortgage, group, rent,
                                       house_price, short))

    decks: dict[str, tuple[Card, ...]] = {}
    for deck in DECKS:
        cards: list[Card] = []
        for position, raw in enumerate(r.get(data, deck, list, "edition")):
            where = f"{deck}[{position}]"
            kind = r.get(raw, "kind", str, where)
            if kind not in CARD_KINDS:
                raise r.fail(f"{where}.kind", f"unknown kind {kind!r}")
            card = Card(
                deck=deck,
                id=r.get(raw, "id", str, where),
                kind=kind,
                text=r.get(raw, "text", str, where),
                amount=r.get(raw, "amount", int, where, 0),
                to=r.get(raw, "to", int, where, -1),
                salary=r.get(raw, "salary", bool, where, True),
                target=r.get(raw, "target", str, where, ""),
                spaces=r.get(raw, "spaces", int, where, 0),
                house=r.get(raw, "house", int, where, 0),
                hotel=r.get(raw, "hotel", int, where, 0),
                draw=r.get(raw, "draw", str, where, ""),
            )
            if kind in ("collect", "pay", "pay_each", "collect_each", "pay_or_draw") and card.amount <= 0:
                raise r.fail(f"{where}.amount", "must be positive")
            if kind == "advance" and not 0 <= card.to < BOARD_SIZE:
                raise r.fail(f"{where}.to", "must be a board index 0-39")
            if kind == "nearest" and card.target not in ("railroad", "utility"):
                raise r.fail(f"{where}.target", "must be railroad or utility")
            if kind == "pay_or_draw" and card.draw not in DECKS:
                raise r.fail(f"{where}.draw", "must name a deck")
            if any(c.id == card.id for c in cards):
                raise r.fail(f"{where}.id", f"duplicate id {card.id!r}")
            cards.append(card)
        decks[deck] = tuple(cards)

    groups: dict[str, list[int]] = {}
    for prop in properties:
        groups.setdefault(prop.group, []).append(prop.number)
    for group, members in groups.items():
        if group not in ("railroad", "utility"):
            prices = {properties[m].house_price for m in members}
            if len(prices) != 1:
                raise r.fail(f"group {group}", "streets of one group must share a house price")
    spoken: dict[str, dict[str, str]] = {}
    for language, names in r.get(data, "spoken", dict, "edition", {}).items():
        if not isinstance(names, dict):
            raise r.fail(f"spoken.{language}", "must be a table of square ids and names")
        for square_id, spoken_name in names.items():
            if square_id not in seen_ids:
                raise r.fail(f"spoken.{language}.{square_id}", "is not a square id of this edition")
            if not isinstance(spoken_name, str) or not spoken_name.strip():
                raise r.fail(f"spoken.{language}.{square_id}", "must be a non-empty text")
        spoken[language] = dict(names)
    card_texts: dict[str, dict[str, dict[str, str]]] = {}
    for language, by_deck in r.get(data, "card_texts", dict, "edition", {}).items():
        if not isinstance(by_deck, dict):
            raise r.fail(f"card_texts.{language}", "must be a table of decks")
        card_texts[language] = {}
        for deck, texts in by_deck.items():
            if deck not in decks or not isinstance(texts, dict):
                raise r.fail(f"card_texts.{language}.{deck}", "must be a deck (chance or community_chest)")
            ids = {c.id for c in decks[deck]}
            for card_id, text in texts.items():
                if card_id not in ids:
                    raise r.fail(f"card_texts.{language}.{deck}.{card_id}", "is not a card of this deck")
                if not isinstance(text, str) or not text.strip():
                    raise r.fail(f"card_texts.{language}.{deck}.{card_id}", "must be a non-empty text")
            card_texts[language][deck] = dict(texts)
    return Edition(
        id=edition_id,
        name=r.get(data, "name", str, "edition"),
        language=r.get(data, "language", str, "edition"),
        money_format=money_format,
        deck_names=dict(deck_names),
        squares=tuple(squares),
        properties=tuple(properties),
        decks=decks,
        defaults=dict(defaults),
        groups={g: tuple(m) for g, m in groups.items()},
        by_id={p.id: p for p in properties},
        by_square={p.square: p for p in properties},
        currency_word=currency_word,
        currency_unit=currency_unit,
        spoken=spoken,
        money_formats=money_formats,
        card_texts=card_texts,
    )
