"""The board moves on the table's screen: after OK, what to do with the cardboard, a page at a time.

The engine's board moves (:mod:`banker.board`) are instructions ("Put 1 house on Baltic Avenue"); a
page holds as many as fit the screen's three body lines, and the pages turn by themselves every
:data:`PAGE_S` seconds while the notice lasts (the footer says which page it is). The undo question
shows what will have to be taken back.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from banker import balances
from banker.board import BoardMove, moves_of
from banker.edition import Edition
from banker.ledger import Event
from banker.state import GameState
from banker.text import describe_move

if TYPE_CHECKING:  # the grammar uses this module too, and stays free of the drawing code
    from hardware.display import ScreenView

WIDTH_CHARS = 21
"""Characters of the screen's font on a line (as in :mod:`firmware.screens`)."""
BODY_ROWS = 3
NOT_SAID_WHEN_DONE = frozenset({"board", "card", "inherited_deed", "decision_needed"})
"""Events the Done screen does not put in words: the board's moves come as instructions; a deed an heir
receives is its board move; a mortgaged deed's question is the next screen."""
PAGE_S = 2.0
"""How long each page of moves stays before the next one."""


def pack(texts: Sequence[str], rows: int = BODY_ROWS) -> list[tuple[str, ...]]:
    """``texts`` packed into pages of at most ``rows`` wrapped lines, a text never split between two pages
    unless it is longer than a page (then its rows go a page at a time)."""
    out: list[tuple[str, ...]] = []
    page: list[str] = []
    used = 0
    for text in texts:
        wrapped = textwrap.wrap(text, WIDTH_CHARS) or [""]
        if page and used + len(wrapped) > rows:
            out.append(tuple(page))
            page, used = [], 0
        if len(wrapped) > rows:
            out.extend((" ".join(wrapped[start:start + rows]),) for start in range(0, len(wrapped), rows))
            continue
        page.append(text)
        used += len(wrapped)
    if page:
        out.append(tuple(page))
    return out


def pages(edition: Edition, moves: list[BoardMove], language: str, rows: int = BODY_ROWS) -> list[tuple[str, ...]]:
    """The moves as instructions, packed into pages of at most ``rows`` wrapped lines."""
    return pack([describe_move(edition, move, language) for move in moves], rows)


def pages_seconds(count: int) -> float:
    """How much longer than a plain notice a notice of ``count`` pages stays, so that every page is seen."""
    return PAGE_S * max(0, count - 1)


def done_pages(game: GameState, events: Sequence[Event], language: str) -> list[tuple[str, ...]]:
    """What the screen says after OK, a page at a time: the money first (the log's sentences, as the table
    may show them: "Ann pays Bob $8 rent for Baltic Avenue.", "Cy is bankrupt…"), then the board's moves.
    A deed an heir receives is said once, by its board move ("Give Reading Railroad to Bob"), and what to
    do with a mortgaged one is asked on the screen that follows, not here."""
    said = balances.log_lines(game, [e for e in events if e.kind not in NOT_SAID_WHEN_DONE], language,
                              balances.TABLE)
    texts = said + [describe_move(game.edition, move, language) for move in moves_of(list(events))]
    if sum(len(textwrap.wrap(text, WIDTH_CHARS)) or 1 for text in texts) <= BODY_ROWS + 1:
        return [tuple(texts)]  # one page: no footer, so the body has a fourth line
    return pack(said) + pages(game.edition, moves_of(list(events)), language)


def book_view(book: Sequence[tuple[str, ...]], title: str, since: float, now: float,
              page_footer: str = "{page}/{pages}") -> ScreenView:
    """The page of ``book`` shown ``now`` (the pages turn every :data:`PAGE_S` seconds from ``since``)."""
    from hardware.display import ScreenView

    shown = list(book) or [()]
    index = int(max(0.0, now - since) / PAGE_S) % len(shown)
    footer = page_footer.format(page=index + 1, pages=len(shown)) if len(shown) > 1 else ""
    return ScreenView(title=title, lines=shown[index], footer=footer)


def moves_view(edition: Edition, moves: list[BoardMove], language: str, title: str, since: float, now: float,
               page_footer: str = "{page}/{pages}") -> ScreenView:
    """The page of ``moves`` shown ``now`` (the pages turn every :data:`PAGE_S` seconds from ``since``)."""
    return book_view(pages(edition, moves, language), title, since, now, page_footer)
