"""The board as a heat map of landing chances, in SVG, laid out like the real board.

GO is the bottom-right corner and the token moves clockwise: Jail bottom-left, Free Parking top-left,
Go to Jail top-right. Every square is coloured by the share of throws that end on it, with its name,
the percentage and the colour strip of its street group; the Jail corner shows "in jail" in its inner
box and "just visiting" around it, like the printed board.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from banker.advisor.labels import language_of, number, percent, text
from banker.advisor.markov import BOARD_SIZE, IN_JAIL, Landing, MoveRules
from banker.edition import GROUP_COLOURS, Edition
from banker.text import group_mark

CORNER = 124
"""Side of a corner square, in SVG units (pixels)."""
SIDE = 78
"""Width of the other squares; their depth is ``CORNER``."""
BOARD = 2 * CORNER + 9 * SIDE
MARGIN = 14
STRIP = 20
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

HEAT = ["#fff7d6", "#feeaa0", "#fed36e", "#feb24c", "#fd8d3c", "#f65a2d", "#dd2a1f", "#b0101f"]
"""Colour ramp from the least to the most visited square."""
NEUTRAL = "#e6e6e6"

_ABBREVIATIONS = {
    "en": [("Avenue", "Ave."), ("Railroad", "RR")],
    "ru": [("железная дорога", "ж.\u00a0д."), ("Улица", "ул."), ("улица", "ул."), ("проспект", "пр-т"),
           ("шоссе", "ш."), ("набережная", "наб."), ("бульвар", "бульв."), ("Площадь", "пл."),
           ("площадь", "пл.")],
}


def board_svg(edition: Edition, landing: Landing, *, language: str = "en", max_houses: int = 4) -> str:
    """The heat map of ``landing`` on ``edition``'s board as a standalone SVG document."""
    language = language_of(language)
    low, high = heat_range(edition, landing)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{BOARD + 2 * MARGIN}" height="{BOARD + 2 * MARGIN}" '
        f'viewBox="0 0 {BOARD + 2 * MARGIN} {BOARD + 2 * MARGIN}" font-family="{FONT}">',
        f'<rect width="{BOARD + 2 * MARGIN}" height="{BOARD + 2 * MARGIN}" fill="#f4f1e8"/>',
        f'<g transform="translate({MARGIN},{MARGIN})">',
        f'<rect width="{BOARD}" height="{BOARD}" fill="#dcecd9" stroke="#222" stroke-width="2"/>',
    ]
    for square in edition.squares:
        share = landing.cells[square.index]
        if square.kind == "jail":
            parts.append(_jail_corner(square.name, share, landing.cells[IN_JAIL], low, high, language))
            continue
        group = edition.by_square[square.index].group if square.index in edition.by_square else ""
        parts.append(_square(square.index, _short_name(square.name, language), share, group, low, high, language))
    parts.append(_centre(edition, landing, low, high, language, max_houses))
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def heat_range(edition: Edition, landing: Landing) -> tuple[float, float]:
    """The shares at the two ends of the colour ramp.

    The ramp starts at the least visited square without cards, so that the deeds, whose differences
    matter, spread over the whole ramp; the card squares, emptied by their movement cards, sit at its
    pale end.
    """
    plain = [landing.cells[s.index] for s in edition.squares
             if s.kind not in ("chance", "community_chest", "go_to_jail")]
    every = [landing.cells[i] for i in range(BOARD_SIZE) if landing.cells[i] > 0]
    return min(plain or every), max(every)


def square_box(index: int) -> tuple[float, float, float, float, str]:
    """Position and size (x, y, width, height) of square ``index`` and the side it lies on.

    The side is "bottom", "left", "top", "right" or "corner"; the colour strip of a street faces the
    middle of the board.
    """
    far = CORNER + 9 * SIDE
    if index % 10 == 0:
        x, y = {0: (far, far), 10: (0, far), 20: (0, 0), 30: (far, 0)}[index]
        return x, y, CORNER, CORNER, "corner"
    offset = index % 10
    if index < 10:
        return CORNER + (9 - offset) * SIDE, far, SIDE, CORNER, "bottom"
    if index < 20:
        return 0, CORNER + (9 - offset) * SIDE, CORNER, SIDE, "left"
    if index < 30:
        return CORNER + (offset - 1) * SIDE, 0, SIDE, CORNER, "top"
    return far, CORNER + (offset - 1) * SIDE, CORNER, SIDE, "right"


def heat_colour(share: float, low: float, high: float) -> str:
    """The colour of ``share`` on the ramp from ``low`` to ``high`` (clamped)."""
    if share <= 0:
        return NEUTRAL
    position = 0.0 if high <= low else min(1.0, max(0.0, (share - low) / (high - low)))
    scaled = position * (len(HEAT) - 1)
    i = min(int(scaled), len(HEAT) - 2)
    a, b = _rgb(HEAT[i]), _rgb(HEAT[i + 1])
    t = scaled - i
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _ink(fill: str) -> str:
    r, g, b = _rgb(fill)
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _short_name(name: str, language: str) -> str:
    for long, short in _ABBREVIATIONS.get(language, []):
        name = name.replace(long, short)
    return name


def wrap(name: str, width: int) -> list[str]:
    """Words of ``name`` in lines of at most ``width`` characters (a longer word gets its own line).

    A no-break space keeps an abbreviation such as "ж. д." on one line.
    """
    lines: list[str] = []
    for word in name.split(" "):
        if not word:
            continue
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _text(x: float, y: float, content: str, *, size: float, fill: str, weight: str = "normal",
          width: float | None = None, anchor: str = "middle") -> str:
    # A line too long for its box is squeezed to fit rather than spilling over the next square.
    fit = ""
    if width is not None and len(content) * size * 0.6 > width:
        fit = f' textLength="{width:.0f}" lengthAdjust="spacingAndGlyphs"'
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}"{fit}>{escape(content)}</text>')


def _square(index: int, name: str, share: float, group: str, low: float, high: float, language: str) -> str:
    x, y, w, h, side = square_box(index)
    fill = heat_colour(share, low, high)
    ink = _ink(fill)
    parts = [f'<g><title>{escape(name)}: {percent(share, language)}</title>',
             f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="#333" stroke-width="1"/>']
    # The text area is the square without the group strip.
    tx, ty, tw, th = x, y, w, h
    if group in GROUP_COLOURS:
        sx, sy, sw, sh = {
            "bottom": (x, y, w, STRIP), "top": (x, y + h - STRIP, w, STRIP),
            "left": (x + w - STRIP, y, STRIP, h), "right": (x, y, STRIP, h),
        }.get(side, (x, y, 0, 0))
        parts.append(f'<rect x="{sx}" y="{sy}" width="{sw}" height="{sh}" fill="{GROUP_COLOURS[group]}" '
                     f'stroke="#222" stroke-width="1.5"/>')
        if sw and sh:  # the group's letters on its strip: colour is never the only cue
            parts.append(_text(sx + sw / 2, sy + sh / 2 + 3.5, group_mark(group, language), size=10,
                               fill=_ink(GROUP_COLOURS[group]), weight="bold"))
        if side == "bottom":
            ty, th = y + STRIP, h - STRIP
        elif side == "top":
            th = h - STRIP
        elif side == "left":
            tw = w - STRIP
        elif side == "right":
            tx, tw = x + STRIP, w - STRIP
    size = 10.5 if side != "corner" else 12.5
    lines = wrap(name, max(8, int(tw / (size * 0.58))))[:4]
    line_height = size * 1.2
    block = len(lines) * line_height + 20
    top = ty + (th - block) / 2 + size
    cx = tx + tw / 2
    for i, line in enumerate(lines):
        parts.append(_text(cx, top + i * line_height, line, size=size, fill=ink, width=tw - 6))
    parts.append(_text(cx, top + len(lines) * line_height + 8, percent(share, language),
                       size=15 if side != "corner" else 17, fill=ink, weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _jail_corner(name: str, visiting: float, in_jail: float, low: float, high: float, language: str) -> str:
    x, y, w, h, _ = square_box(10)
    box = round(CORNER * 0.64)
    visiting_fill = heat_colour(visiting, low, high)
    jail_fill = heat_colour(in_jail, low, high)
    jail_name, _, visiting_name = name.partition(" / ")
    visiting_name = visiting_name or text("visiting", language)
    bx, by = x + w - box, y
    ink_v, ink_j = _ink(visiting_fill), _ink(jail_fill)
    parts = [
        f'<g><title>{escape(text("in_jail", language))}: {percent(in_jail, language)}; '
        f'{escape(text("visiting", language))}: {percent(visiting, language)}</title>',
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{visiting_fill}" stroke="#333" stroke-width="1"/>',
        f'<rect x="{bx}" y="{by}" width="{box}" height="{box}" fill="{jail_fill}" stroke="#333" '
        f'stroke-width="1.5"/>',
    ]
    for i in range(1, 4):
        bar = bx + i * box / 4
        parts.append(f'<line x1="{bar:.1f}" y1="{by}" x2="{bar:.1f}" y2="{by + box * 0.3:.1f}" '
                     f'stroke="{ink_j}" stroke-opacity="0.35" stroke-width="2"/>')
    parts.append(_text(bx + box / 2, by + box * 0.55, jail_name or text("in_jail", language),
                       size=11.5, fill=ink_j, width=box - 6))
    parts.append(_text(bx + box / 2, by + box * 0.55 + 19, percent(in_jail, language), size=15, fill=ink_j,
                       weight="bold"))
    strip = h - box
    parts.append(_text(x + w / 2, y + box + strip * 0.42, visiting_name, size=10.5, fill=ink_v, width=w - 8))
    parts.append(_text(x + w / 2, y + box + strip * 0.42 + 16, percent(visiting, language), size=14,
                       fill=ink_v, weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _centre(edition: Edition, landing: Landing, low: float, high: float, language: str, max_houses: int) -> str:
    left, top, size = CORNER, CORNER, 9 * SIDE
    cx = left + size / 2
    rules: MoveRules = landing.rules
    parts = [
        _text(cx, top + 70, text("map_title", language), size=30, fill="#1d2b1d", weight="bold"),
        _text(cx, top + 100, edition.name, size=17, fill="#1d2b1d"),
        _text(cx, top + 126, text(f"jail_{rules.jail}", language), size=13, fill="#2f3f2f", width=size - 60),
    ]
    if max_houses != 4:
        parts.append(_text(cx, top + 146, text("short_game", language), size=13, fill="#2f3f2f"))
    # The colour scale.
    bar_w, bar_h = 420.0, 18.0
    bx, by = cx - bar_w / 2, top + 190
    parts.append('<defs><linearGradient id="heat" x1="0" x2="1" y1="0" y2="0">' + "".join(
        f'<stop offset="{i / (len(HEAT) - 1):.3f}" stop-color="{c}"/>' for i, c in enumerate(HEAT)
    ) + "</linearGradient></defs>")
    parts.append(f'<rect x="{bx}" y="{by}" width="{bar_w}" height="{bar_h}" fill="url(#heat)" stroke="#333"/>')
    for fraction in (0.0, 0.5, 1.0):
        value = low + (high - low) * fraction
        tick_x = bx + bar_w * fraction
        parts.append(f'<line x1="{tick_x}" y1="{by + bar_h}" x2="{tick_x}" y2="{by + bar_h + 5}" stroke="#333"/>')
        label = ("≤ " if fraction == 0.0 else "") + percent(value, language)
        parts.append(_text(tick_x, by + bar_h + 19, label, size=12, fill="#1d2b1d"))
    parts.append(_text(cx, by - 8, text("map_scale", language), size=13, fill="#1d2b1d"))
    if landing.cells[IN_JAIL] > high:
        parts.append(_text(cx, by + bar_h + 38, text("map_off_scale", language) + " ("
                           + percent(landing.cells[IN_JAIL], language) + ")", size=12, fill="#1d2b1d"))
    # The most visited squares.
    ranked = sorted(range(BOARD_SIZE), key=lambda i: -landing.cells[i])[:8]
    ly = by + 88
    parts.append(_text(cx, ly, text("map_top", language), size=16, fill="#1d2b1d", weight="bold"))
    for n, index in enumerate(ranked, start=1):
        square = edition.squares[index]
        label = text("visiting", language) if square.kind == "jail" else square.name
        row_y = ly + 10 + n * 24
        parts.append(f'<rect x="{cx - 170}" y="{row_y - 14}" width="16" height="16" '
                     f'fill="{heat_colour(landing.cells[index], low, high)}" stroke="#333"/>')
        parts.append(_text(cx - 146, row_y, label, size=14, fill="#1d2b1d", anchor="start"))
        parts.append(_text(cx + 170, row_y, percent(landing.cells[index], language), size=14, fill="#1d2b1d",
                           weight="bold", anchor="end"))
    per_turn = text("throws_per_turn", language, value=number(landing.throws_per_turn, language, 3))
    parts.append(_text(cx, top + size - 40, per_turn, size=13, fill="#2f3f2f"))
    return "".join(parts)
