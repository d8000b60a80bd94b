"""What the 128×64 screen shows, as data, and the one renderer that draws it.

The firmware decides *what* to show as a :class:`ScreenView`; :func:`render_view` draws it onto a
1-bit image with the bundled Terminus font (Latin, Cyrillic, £ € $). The real OLED and the simulated
one both display exactly that image.

Layout, in pixels (Terminus 12 is a 6×12 cell, 21 characters to a line)::

    y  0-11   title, underlined at y 12
    y 14-49   body: three lines (word-wrapped), or one line and the amount in big bold digits
    y 52-63   footer: the hint for the buttons, e.g. "OK pay   ✕ back"

Without a footer the body gets a fourth line.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH = 128
HEIGHT = 64
LINE_HEIGHT = 12
MARGIN_X = 1
TITLE_Y = 0
BODY_Y = 14
FOOTER_Y = 52
FONT_FILES = {"normal": "terminus-normal.otb", "bold": "terminus-bold.otb"}
FONT_SIZES = (12, 14, 16, 18, 20, 22, 24, 28, 32)
"""Pixel sizes with bitmap strikes in the bundled Terminus files; other sizes do not load."""
AMOUNT_SIZES = (20, 16, 12)
"""The amount is drawn at the largest of these sizes that fits the width."""
ELLIPSIS = "…"
SCROLL_MARK_WIDTH = 6
"""Room kept at the right edge of menu rows for the ▲/▼ scroll marks."""
SUBSTITUTES = {"₽": "руб.", "✕": "×", "✖": "×", "✔": "✓", "\t": " "}
"""Characters the font lacks, and what is drawn instead. Anything else missing becomes ``?``."""

Font = ImageFont.FreeTypeFont


@dataclass(frozen=True)
class ScreenView:
    """One screen of the table, as data. Every field is optional; empty fields take no space."""

    title: str = ""
    """Top line, underlined: who or what the screen is about ("Park Place")."""
    lines: tuple[str, ...] = ()
    """Body text. Long lines are word-wrapped; what does not fit ends in "…"."""
    amount: str | None = None
    """A big bold line for the money at stake, e.g. ``"$550"`` or ``"550 тыс."``."""
    footer: str = ""
    """Bottom line: what the buttons do now, e.g. ``"OK pay  ✕ back"``."""
    highlight: int | None = None
    """Index into ``lines`` of the line drawn inverted, on a bar as wide as its text (a menu cursor).
    The body scrolls to keep it visible."""
    inverted: bool = False
    """Draw the whole screen inverted (white background), for alerts."""
    qr: str = ""
    """Text (a web address) to show as a QR code on the left half; the rest of the view is drawn in
    the right half."""


@lru_cache(maxsize=16)
def load_font(size: int = 12, weight: str = "normal") -> Font:
    """The bundled Terminus font at a pixel size with a bitmap strike (see :data:`FONT_SIZES`).

    Raises:
        ValueError: no strike of that size, or an unknown weight.
    """
    if size not in FONT_SIZES:
        raise ValueError(f"Terminus has bitmap strikes at {FONT_SIZES} pixels, not {size}")
    if weight not in FONT_FILES:
        raise ValueError(f"font weight is one of {sorted(FONT_FILES)}, not {weight!r}")
    data = resources.files("hardware").joinpath("fonts", FONT_FILES[weight]).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


@lru_cache(maxsize=4096)
def _has_glyph(font: Font, character: str) -> bool:
    if character.isspace():
        return True
    missing = font.getmask("\U0010fffd")
    mask = font.getmask(character)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def drawable(text: str, font: Font | None = None) -> str:
    """``text`` with the characters the font lacks replaced (see :data:`SUBSTITUTES`)."""
    font = font or load_font()
    out = []
    for character in text:
        if _has_glyph(font, character):
            out.append(character)
        else:
            substitute = SUBSTITUTES.get(character, "?")
            out.append(substitute if all(_has_glyph(font, c) for c in substitute) else "?")
    return "".join(out)


def missing_glyphs(text: str, font: Font | None = None) -> set[str]:
    """The characters of ``text`` the font cannot draw (before substitution)."""
    font = font or load_font()
    return {character for character in text if not _has_glyph(font, character)}


@lru_cache(maxsize=4096)
def _width(font: Font, text: str) -> float:
    return font.getlength(text)


def fit(text: str, font: Font, width: int) -> str:
    """``text``, cut and ended with "…" if it is wider than ``width`` pixels."""
    if _width(font, text) <= width:
        return text
    # The longest start that fits with the ellipsis (widths grow with the length): a binary search.
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if _width(font, text[:middle] + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def wrap(text: str, font: Font, width: int) -> list[str]:
    """Word-wrap ``text`` to lines no wider than ``width`` pixels; words too long are split.

    A text that fits is kept as it is, spaces included (columns padded with spaces stay aligned).
    """
    if _width(font, text) <= width and "\n" not in text:
        return [text]
    rows: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if _width(font, candidate) <= width:
            current = candidate
            continue
        if current:
            rows.append(current)
        while _width(font, word) > width:
            cut = len(word)
            while cut > 1 and _width(font, word[:cut]) > width:
                cut -= 1
            rows.append(word[:cut])
            word = word[cut:]
        current = word
    if current or not rows:
        rows.append(current)
    return rows


@dataclass
class _Body:
    rows: list[tuple[str, bool]]
    """(text, highlighted) of each visible row."""
    more_above: bool = False
    more_below: bool = False


def _body(view: ScreenView, font: Font, capacity: int) -> _Body:
    """The body rows, scrolled to the highlight and cut to ``capacity`` rows.

    Prose (no highlight) that does not fit ends in "…". A menu (a highlight) scrolls instead and
    shows ▲/▼ at the right edge; its rows leave that edge free.
    """
    menu = view.highlight is not None
    text_width = WIDTH - 2 * MARGIN_X - (SCROLL_MARK_WIDTH if menu else 0)
    rows: list[tuple[str, bool]] = []
    line_starts: list[int] = []
    highlight_first = highlight_last = 0
    for index, line in enumerate(view.lines):
        wrapped = wrap(drawable(line, font), font, text_width)
        line_starts.append(len(rows))
        if index == view.highlight:
            highlight_first, highlight_last = len(rows), len(rows) + len(wrapped) - 1
        rows.extend((row, index == view.highlight) for row in wrapped)
    if capacity <= 0:
        return _Body([])
    start = 0
    if menu and highlight_last >= capacity:
        # The top row is a line's first row (never the end of a wrapped sentence), as far down as
        # the highlighted line needs.
        start = min((first for first in line_starts if first >= highlight_last - capacity + 1),
                    default=highlight_first)
        start = min(start, highlight_first)
    visible = rows[start : start + capacity]
    more_below = start + capacity < len(rows)
    if more_below and not menu:
        text, highlighted = visible[-1]
        visible[-1] = (fit(text + " " + ELLIPSIS, font, text_width), highlighted)
    return _Body(visible, more_above=menu and start > 0, more_below=menu and more_below)


def _amount_font(text: str) -> Font:
    for size in AMOUNT_SIZES:
        font = load_font(size, "bold")
        if _width(font, text) <= WIDTH - 2 * MARGIN_X:
            return font
    return load_font(AMOUNT_SIZES[-1], "bold")


def qr_image(text: str, size: int = HEIGHT) -> Image.Image:
    """``text`` as a QR code on a lit square of ``size`` pixels: dark modules on a light ground with a
    quiet zone, each module a whole number of pixels, as phone cameras read best.

    Raises:
        ValueError: the text is too long for a QR code of that size.
    """
    import segno

    code = segno.make(text, error="l", micro=False, boost_error=False)
    modules = code.symbol_size(scale=1, border=0)[0]
    scale = (size - 2) // modules
    if scale < 1:
        raise ValueError(f"{len(text)} characters need a QR code of {modules} modules; it does not fit {size} px")
    image = Image.new("1", (size, size), 1)
    offset = (size - modules * scale) // 2
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = offset + x * scale, offset + y * scale
                draw.rectangle([(left, top), (left + scale - 1, top + scale - 1)], fill=0)
    return image


@dataclass(frozen=True)
class _Layout:
    """Where each part of a view goes (:func:`render_view` draws it, :func:`reading_order` reads it)."""

    title: str
    body: _Body
    body_top: int
    footer: str
    amount_text: str
    amount_font: Font
    amount_xy: tuple[int, int]


def body_rows(view: ScreenView) -> int:
    """The rows of body text ``view`` has room for: three between a title and a footer, one under the big
    amount (two without a footer), four on a screen with a title alone."""
    body_top = BODY_Y if view.title else 0
    body_bottom = FOOTER_Y if view.footer else HEIGHT
    amount_height = 0
    if view.amount:
        amount_height = int(_amount_font(drawable(view.amount, load_font(AMOUNT_SIZES[0], "bold"))).size) + 2
    return max(0, (body_bottom - body_top - amount_height) // LINE_HEIGHT)


def body_lines(text: str) -> list[str]:
    """``text`` as the body draws it (prose, not a menu): word-wrapped to the screen's width in pixels,
    after the characters the font lacks are replaced."""
    font = load_font(12)
    return wrap(drawable(text, font), font, WIDTH - 2 * MARGIN_X)


@lru_cache(maxsize=16)
def _layout(view: ScreenView) -> _Layout:
    font = load_font(12)
    text_width = WIDTH - 2 * MARGIN_X
    title = fit(drawable(view.title, font), font, text_width) if view.title else ""
    body_top = BODY_Y if view.title else 0
    body_bottom = FOOTER_Y if view.footer else HEIGHT
    footer = fit(drawable(view.footer, font), font, text_width) if view.footer else ""
    amount_text = ""
    amount_font = font
    if view.amount:
        amount_text = drawable(view.amount, load_font(AMOUNT_SIZES[0], "bold"))
        amount_font = _amount_font(amount_text)
        amount_text = fit(amount_text, amount_font, text_width)
    body = _body(view, font, body_rows(view))
    amount_xy = (0, 0)
    if amount_text:
        # Centre the amount in the space left between the body text and the footer.
        space_top = body_top + LINE_HEIGHT * len(body.rows)
        space = body_bottom - space_top
        amount_y = space_top + max(0, (space - int(amount_font.size)) // 2)
        amount_x = max(MARGIN_X, (WIDTH - int(_width(amount_font, amount_text))) // 2)
        amount_xy = (amount_x, amount_y)
    return _Layout(title, body, body_top, footer, amount_text, amount_font, amount_xy)


def reading_order(view: ScreenView) -> tuple[tuple[int, int, int, int], ...]:
    """The view's parts in the order a player reads them, each as a rectangle of pixels (top, bottom,
    left, right): the amount (what a confirmation is about), the title, each line of the body, the
    footer. The display sends the first before the others (:meth:`hardware.oled.Oled.show`); the bench
    times the first that changed as the line the player reads first."""
    last_x, last_y = WIDTH - 1, HEIGHT - 1
    if view.qr:
        return ((0, last_y, 0, last_x),)
    layout = _layout(view)
    parts: list[tuple[int, int, int, int]] = []
    if layout.amount_text:
        left, top = layout.amount_xy
        width = int(_width(layout.amount_font, layout.amount_text))
        parts.append((top, min(last_y, top + int(layout.amount_font.size)), left, min(last_x, left + width)))
    if layout.title:
        parts.append((TITLE_Y, LINE_HEIGHT, 0, last_x))  # the text and its underline
    for index in range(len(layout.body.rows)):
        top = layout.body_top + index * LINE_HEIGHT
        parts.append((top, top + LINE_HEIGHT - 1, 0, last_x))
    if layout.footer:
        parts.append((FOOTER_Y, last_y, 0, last_x))
    return tuple(parts)


@lru_cache(maxsize=512)
def _glyphs(font: Font, text: str, ink: int) -> tuple[Any, tuple[int, int]]:
    """The bitmap of ``text`` in ``font`` and where it sits from the point it is drawn at, as Pillow's
    ``ImageDraw.text`` makes them for a 1-bit image (``FreeTypeFont.getmask2``, anchor "la"). Kept: a
    table shows the same lines again and again (footers, menu items, names), and the bitmap is most of
    the cost of drawing a line."""
    mask, offset = font.getmask2(text, "1", None, None, None, 0, "la", ink, (0.0, 0.0), stroke_filled=True)
    return mask, (int(offset[0]), int(offset[1]))


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, font: Font, ink: int) -> None:
    """``draw.text(xy, text, font=font, fill=ink)`` for one line at whole pixels, with the bitmap kept."""
    if not text:
        return
    mask, (dx, dy) = _glyphs(font, text, ink)
    draw.draw.draw_bitmap((xy[0] + dx, xy[1] + dy), mask, ink)


def render_view(view: ScreenView) -> Image.Image:
    """Draw ``view`` on a new 128×64 1-bit image (1 = lit pixel)."""
    if view.qr:
        return _render_with_qr(view)
    ink, paper = (0, 1) if view.inverted else (1, 0)
    image = Image.new("1", (WIDTH, HEIGHT), paper)
    draw = ImageDraw.Draw(image)
    font = load_font(12)
    layout = _layout(view)
    if layout.title:
        _text(draw, (MARGIN_X, TITLE_Y), layout.title, font, ink)
        draw.line([(0, LINE_HEIGHT), (WIDTH - 1, LINE_HEIGHT)], fill=ink)
    if layout.footer:
        _text(draw, (MARGIN_X, FOOTER_Y), layout.footer, font, ink)
    body = layout.body
    y = layout.body_top
    for row, (text, highlighted) in enumerate(body.rows):
        bar = -1
        if highlighted:
            # The cursor's bar is as wide as its text: moving it, or leaving the menu, changes those
            # columns only (a bar across the screen changed two pages' every byte on the wire).
            bar = min(WIDTH - 1, MARGIN_X + int(_width(font, text)) - 1)
            draw.rectangle([(0, y), (bar, y + LINE_HEIGHT - 1)], fill=ink)
        _text(draw, (MARGIN_X, y), text, font, paper if highlighted else ink)
        mark_x = WIDTH - MARGIN_X - SCROLL_MARK_WIDTH
        mark = paper if mark_x <= bar else ink
        if row == 0 and body.more_above:
            _text(draw, (mark_x, y), "▲", font, mark)
        if row == len(body.rows) - 1 and body.more_below:
            _text(draw, (mark_x, y), "▼", font, mark)
        y += LINE_HEIGHT
    if layout.amount_text:
        _text(draw, layout.amount_xy, layout.amount_text, layout.amount_font, ink)
    return image


def _render_with_qr(view: ScreenView) -> Image.Image:
    """A QR code in the left 64×64 pixels, the title and lines word-wrapped in the right 62."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    image.paste(qr_image(view.qr, HEIGHT), (0, 0))
    draw = ImageDraw.Draw(image)
    font = load_font(12)
    left = HEIGHT + 2
    width = WIDTH - left
    rows: list[str] = []
    for text in ((view.title,) if view.title else ()) + view.lines:
        rows.extend(wrap(drawable(text, font), font, width))
    for index, row in enumerate(rows[: HEIGHT // LINE_HEIGHT]):
        draw.text((left, index * LINE_HEIGHT), fit(row, font, width), font=font, fill=1)
    return image
