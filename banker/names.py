"""Names that the people at the table can tell apart.

Two names that look alike on the table's screen or a phone (Latin "Ann" and "Аnn" with a Cyrillic А,
"B0b" and "Bob") would let one player be taken for another. A name's *skeleton*, as Unicode's security
mechanisms (UTS #39) define it, maps every character to one representative of the characters it can
be confused with; two names with the same skeleton look alike. The table of confusable characters
is Unicode's own, as the confusable-homoglyphs package ships it.

Characters that show nothing where they are supported (Unicode's Default_Ignorable_Code_Point: the
variation selectors, the Hangul fillers, the zero-width marks) are dropped before the skeleton is
taken, so "Bob" with a variation selector looks like "Bob", and the Braille blank counts as a space.
A name must draw something: a letter, a digit, a sign (:func:`draws_something`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""The code points of Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt),
as ranges: a font draws none of them, whatever their general category (U+3164 HANGUL FILLER is a
letter, U+FE0F VARIATION SELECTOR-16 a mark)."""
BLANKS = frozenset({"\u2800"})
"""Characters that draw as a space without being one (U+2800 BRAILLE PATTERN BLANK is a symbol)."""


def default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def draws_something(name: str) -> bool:
    """Whether ``name`` has a character that draws: a letter, a digit, a punctuation mark or a symbol ("-"
    and "★" do), not only spaces, marks, fillers and blanks (U+3164 is a letter that draws nothing)."""
    return any(unicodedata.category(c)[0] in "LNPS" and not default_ignorable(c) and c not in BLANKS for c in name)


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character -> the representative of its class (an ASCII one where the class has one)."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            parent[char] = parent.get(parent[char], parent[char])
            char = parent[char]
        return char

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    for char, glyphs in data.items():
        for glyph in glyphs:
            a, b = root(char), root(glyph["c"])
            if a != b:
                parent[a] = b
    classes: dict[str, list[str]] = {}
    for char in list(parent):
        classes.setdefault(root(char), []).append(char)
    out: dict[str, str] = {}
    for top, members in classes.items():
        members.append(top)
        best = min(members, key=lambda c: (not c.isascii(), ord(c[0]), c))
        for member in members:
            out[member] = best
    return out


def skeleton(name: str) -> str:
    """What ``name`` looks like: what draws nothing dropped, compatibility forms and capitals folded,
    look-alike characters merged."""
    representatives = _representatives()
    shown = "".join(" " if c in BLANKS else c for c in name if not default_ignorable(c)).strip()
    folded = unicodedata.normalize("NFKC", shown).casefold()
    merged = "".join(representatives.get(char, char) for char in unicodedata.normalize("NFD", folded))
    return unicodedata.normalize("NFD", merged.casefold())


def lookalike(names: Sequence[str]) -> tuple[str, str] | None:
    """The first two of ``names`` that look alike (the later one first), or None."""
    seen: dict[str, str] = {}
    for name in names:
        shape = skeleton(name)
        if shape in seen:
            return name, seen[shape]
        seen[shape] = name
    return None


def offered_names(language: str) -> tuple[str, ...]:
    """The names the table offers for new players in ``language`` (the catalogue's ``choice_player_names``),
    each telling itself apart from the others; a phone can type any name."""
    from banker.messages import render

    return tuple(name.strip() for name in render("choice_player_names", {}, language).split(","))
