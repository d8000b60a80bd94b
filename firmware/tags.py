"""The table's tags: what each NFC card or sticker means.

A meaning is short text, the same in the journal, the enrollment flow, ``banker table`` scripts and
the phone page:

============================  ==========================================================
``player:3``                  bank card 3: the player in the third seat of the game
``deed:39``                   the title deed of board square 39 (Boardwalk, Mayfair, Арбат)
``square:go``                 a special tag: ``go``, ``chance``, ``community_chest``,
                              ``income_tax``, ``luxury_tax``, ``jail``, ``free_parking``
``card:chance:advance_go``    a printed Chance or Community Chest card carrying a sticker
============================  ==========================================================

Bank cards and deeds are numbered by seat and board square rather than by name, so one set of
stickers serves every game and every edition (the three boards share their squares).
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.edition import Edition, deed_squares
from banker.limits import BANK_CARDS
from banker.messages import render

MAX_BANK_CARDS = BANK_CARDS
SPECIAL_SQUARES = ("go", "chance", "community_chest", "income_tax", "luxury_tax", "jail", "free_parking")
"""The special tags, in the order enrollment asks for them."""
DEED_SQUARES = deed_squares()
"""The board squares that carry a title deed, the same on every edition."""


class TagError(ValueError):
    """A meaning or UID that is not valid; the message says what is expected."""


@dataclass(frozen=True)
class Meaning:
    """A parsed meaning: ``kind`` is ``player``, ``deed``, ``square``, ``card`` or ``unknown``."""

    kind: str
    seat: int = -1
    """``player``: the seat (0-based) of the bank card's holder."""
    square: int = -1
    """``deed``: the board square of the deed."""
    special: str = ""
    """``square``: which special tag."""
    deck: str = ""
    card: str = ""
    uid: str = ""
    """The tag's UID, as hex text (set for every tap; the only field of an ``unknown`` tag)."""

    @property
    def text(self) -> str:
        if self.kind == "player":
            return f"player:{self.seat + 1}"
        if self.kind == "deed":
            return f"deed:{self.square}"
        if self.kind == "square":
            return f"square:{self.special}"
        if self.kind == "card":
            return f"card:{self.deck}:{self.card}"
        return f"uid:{self.uid}"


def parse_meaning(text: str) -> Meaning:
    """``player:3`` → Meaning("player", seat=2), and so on.

    Raises:
        TagError: not one of the forms in the module's table.
    """
    kind, _, rest = text.partition(":")
    try:
        if kind == "player":
            number = int(rest)
            if not 1 <= number <= MAX_BANK_CARDS:
                raise TagError(f"bank cards are numbered 1-{MAX_BANK_CARDS}, not {number}")
            return Meaning("player", seat=number - 1)
        if kind == "deed":
            square = int(rest)
            if square not in DEED_SQUARES:
                raise TagError(f"square {square} carries no title deed")
            return Meaning("deed", square=square)
    except ValueError as error:
        if isinstance(error, TagError):
            raise
        raise TagError(f"{text!r}: expected a number after {kind}:") from error
    if kind == "square":
        if rest not in SPECIAL_SQUARES:
            raise TagError(f"special tags are {', '.join(SPECIAL_SQUARES)}, not {rest!r}")
        return Meaning("square", special=rest)
    if kind == "card":
        deck, _, card = rest.partition(":")
        if deck not in ("chance", "community_chest") or not card:
            raise TagError(f"{text!r}: expected card:chance:<card id> or card:community_chest:<card id>")
        return Meaning("card", deck=deck, card=card)
    raise TagError(f"{text!r} is not a tag meaning: use player:N, deed:N, square:NAME or card:DECK:ID")


def all_meanings() -> list[str]:
    """Every meaning enrollment walks through: bank cards, deeds in board order, special tags."""
    return ([f"player:{n}" for n in range(1, MAX_BANK_CARDS + 1)] + [f"deed:{sq}" for sq in DEED_SQUARES]
            + [f"square:{name}" for name in SPECIAL_SQUARES])


def simulated_uid(meaning: str) -> str:
    """The fixed UID the simulated table gives a meaning (4 bytes; the first byte tells the kind)."""
    parsed = parse_meaning(meaning)
    if parsed.kind == "player":
        return f"B0:00:00:{parsed.seat + 1:02X}"
    if parsed.kind == "deed":
        return f"D0:00:00:{parsed.square:02X}"
    if parsed.kind == "square":
        return f"5A:00:00:{SPECIAL_SQUARES.index(parsed.special) + 1:02X}"
    raise TagError(f"{meaning}: printed cards have no built-in simulated tag")


def simulated_tags() -> dict[str, str]:
    """The built-in set of the simulated table: UID → meaning for every bank card, deed and special tag."""
    return {simulated_uid(m): m for m in all_meanings()}


def label(meaning: Meaning | str, edition: Edition, players: tuple[str, ...], language: str) -> str:
    """What a tag is, for people: "Ann" (or "Bank card 5"), "Boardwalk", "Chance"."""
    parsed = parse_meaning(meaning) if isinstance(meaning, str) else meaning
    if parsed.kind == "player":
        if parsed.seat < len(players):
            return players[parsed.seat]
        return render("table_tag_bank_card", {"number": parsed.seat + 1}, language)
    if parsed.kind == "deed":
        prop = edition.by_square.get(parsed.square)
        return prop.name if prop is not None else f"#{parsed.square}"
    if parsed.kind == "square":
        # The board's own name of that square (the first Chance square names them all).
        square = next((sq for sq in edition.squares if parsed.special in (sq.id, sq.kind)), None)
        return square.name if square is not None else parsed.special
    if parsed.kind == "card":
        for card in edition.decks.get(parsed.deck, ()):
            if card.id == parsed.card:
                return card.text
        return parsed.card
    return render("table_tag_unknown", {"uid": parsed.uid}, language)


class TagSet:
    """UID → meaning, with the reverse look-up; a UID and a meaning each appear once."""

    def __init__(self, tags: dict[str, str] | None = None) -> None:
        self._by_uid: dict[str, str] = {}
        self._by_meaning: dict[str, str] = {}
        for uid, meaning in (tags or {}).items():
            self.add(uid, meaning)

    def add(self, uid: str, meaning: str) -> None:
        parse_meaning(meaning)
        old = self._by_meaning.pop(meaning, None)
        if old is not None:
            self._by_uid.pop(old, None)
        previous = self._by_uid.pop(uid, None)
        if previous is not None:
            self._by_meaning.pop(previous, None)
        self._by_uid[uid] = meaning
        self._by_meaning[meaning] = uid

    def remove(self, uid: str) -> None:
        """Forget the tag with this UID (nothing happens when it is not enrolled)."""
        meaning = self._by_uid.pop(uid, None)
        if meaning is not None:
            self._by_meaning.pop(meaning, None)

    def meaning_of(self, uid: str) -> str | None:
        return self._by_uid.get(uid)

    def uid_of(self, meaning: str) -> str | None:
        return self._by_meaning.get(meaning)

    def resolve(self, uid: str) -> Meaning:
        """The meaning of a tapped UID; kind ``unknown`` when it is not enrolled."""
        text = self._by_uid.get(uid)
        if text is None:
            return Meaning("unknown", uid=uid)
        parsed = parse_meaning(text)
        return Meaning(parsed.kind, parsed.seat, parsed.square, parsed.special, parsed.deck, parsed.card, uid)

    def items(self) -> list[tuple[str, str]]:
        return list(self._by_uid.items())

    def __len__(self) -> int:
        return len(self._by_uid)

    def copy(self) -> TagSet:
        return TagSet(dict(self._by_uid))
