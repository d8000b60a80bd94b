"""Names that the people at the table can tell apart.

Two names that look alike on the table's screen or a phone (Latin "Ann" and "Аnn" with a Cyrillic А,
"B0b" and "Bob") would let one player be taken for another. A name's *skeleton*, as Unicode's security
mechanisms (UTS #39) define it, maps every character to one representative of the characters it can
be confused with; two names with the same skeleton look alike. The table of confusable characters
is Unicode's own, as the confusable-homoglyphs package ships it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache


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
    """What ``name`` looks like: compatibility forms and capitals folded, look-alike characters merged."""
    representatives = _representatives()
    folded = unicodedata.normalize("NFKC", name).casefold()
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
