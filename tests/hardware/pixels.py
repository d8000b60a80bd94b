"""Reading text back from 1-bit frames, so tests can assert on pixels in words.

Terminus is a fixed-width bitmap font: every glyph of the 12-pixel face is a 6×12 cell. A row of
text drawn at (x, y) is read back by cutting the frame into cells and matching each against the
bitmap of every candidate character.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from hardware.display import Font, load_font

ALPHABET = (
    " abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;!?-+=/()$£€×✓…▲▼→"
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
)


@lru_cache(maxsize=8)
def _glyphs(size: int, weight: str) -> dict[bytes, str]:
    font = load_font(size, weight)
    width = int(font.getlength("M"))
    table: dict[bytes, str] = {}
    for character in ALPHABET:
        table.setdefault(_cell_bytes(_draw(character, font, width, size)), character)
    return table


def _draw(character: str, font: Font, width: int, height: int) -> Image.Image:
    cell = Image.new("1", (width, height))
    ImageDraw.Draw(cell).text((0, 0), character, font=font, fill=1)
    return cell


def _cell_bytes(cell: Image.Image) -> bytes:
    return cell.tobytes()


def read_row(
    image: Image.Image, y: int, *, x: int = 1, size: int = 12, weight: str = "normal", inverted: bool = False
) -> str:
    """The text drawn at (x, y) in the bundled font, trailing spaces stripped; ``�`` for a cell that
    matches no character."""
    font = load_font(size, weight)
    width = int(font.getlength("M"))
    table = _glyphs(size, weight)
    text = []
    for left in range(x, image.width - width + 1, width):
        cell = image.crop((left, y, left + width, y + size)).convert("L")
        if inverted:
            cell = cell.point(lambda value: 255 - value)
        text.append(table.get(_cell_bytes(cell.convert("1")), "\N{REPLACEMENT CHARACTER}"))
    return "".join(text).rstrip()


def as_read(text: str, *, size: int = 12, weight: str = "normal") -> str:
    """How :func:`read_row` reads ``text`` back: look-alike letters (Latin O and Cyrillic О have the
    same bitmap) come back as the first of them in :data:`ALPHABET`."""
    font = load_font(size, weight)
    width = int(font.getlength("M"))
    table = _glyphs(size, weight)
    return "".join(table.get(_cell_bytes(_draw(c, font, width, size)), "\N{REPLACEMENT CHARACTER}") for c in text)


def lit(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Number of lit pixels in a box (left, top, right, bottom), right/bottom exclusive."""
    region = image.crop(box).convert("L")
    return sum(1 for value in region.tobytes() if value)
