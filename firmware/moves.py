"""The board moves on the table's screen: after OK, what to do with the cardboard, a page at a time.

The engine's board moves (:mod:`banker.board`) are instructions ("Put 1 house on Baltic Avenue"); a
page holds as many as fit the screen's three body lines, and the pages turn by themselves every
:data:`PAGE_S` seconds while the notice lasts (the footer says which page it is). The undo question
shows what will have to be taken back.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from banker.board import BoardMove, board_moves
from banker.edition import Edition
from banker.state import GameState
from banker.text import describe_move

if TYPE_CHECKING:  # the grammar uses this module too, and stays free of the drawing code
    from hardware.display import ScreenView

WIDTH_CHARS = 21
"""Characters of the screen's font on a line (as in :mod:`firmware.screens`)."""
BODY_ROWS = 3
PAGE_S = 2.0
"""How long each page of moves stays before the next one."""


def pages(edition: Edition, moves: list[BoardMove], language: str, rows: int = BODY_ROWS) -> list[tuple[str, ...]]:
    """The moves as instructions, packed into pages of at most ``rows`` wrapped lines."""
    out: list[tuple[str, ...]] = []
    page: list[str] = []
    used = 0
    for move in moves:
        text = describe_move(edition, move, language)
        height = min(rows, len(textwrap.wrap(text, WIDTH_CHARS)) or 1)
        if page and used + height > rows:
            out.append(tuple(page))
            page, used = [], 0
        page.append(text)
        used += height
    if page:
        out.append(tuple(page))
    return out


def notice_seconds(moves: list[BoardMove]) -> float:
    """How much longer than a plain notice the "done" notice stays, so that every page is seen."""
    return PAGE_S * max(0, len(moves) - 1)


def moves_view(edition: Edition, moves: list[BoardMove], language: str, title: str, since: float, now: float,
               page_footer: str = "{page}/{pages}") -> ScreenView:
    """The page of ``moves`` shown ``now`` (the pages turn every :data:`PAGE_S` seconds from ``since``)."""
    from hardware.display import ScreenView

    book = pages(edition, moves, language)
    index = int(max(0.0, now - since) / PAGE_S) % len(book)
    footer = page_footer.format(page=index + 1, pages=len(book)) if len(book) > 1 else ""
    return ScreenView(title=title, lines=book[index], footer=footer)


def take_back(game: GameState) -> list[BoardMove]:
    """What undoing the last action will move: that action's moves, reversed."""
    history = game.history
    if history is None:
        return []
    return [m.reversed() for m in reversed(board_moves(history.previous, game, history.action))]
