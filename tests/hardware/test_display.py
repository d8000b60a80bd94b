"""render_view: what a ScreenView looks like on 128×64 pixels, read back cell by cell."""

from __future__ import annotations

import pytest

from hardware.display import (
    FOOTER_Y,
    HEIGHT,
    LINE_HEIGHT,
    WIDTH,
    ScreenView,
    drawable,
    load_font,
    missing_glyphs,
    render_view,
    wrap,
)
from tests.hardware.pixels import as_read, lit, read_row

RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя"
BULGARIAN_EXTRA = "ЀѐЍѝ"  # Bulgarian uses the Russian letters (minus Ё Ы Э) and these accented forms in print
MONEY = "$£€0123456789"


def test_the_bundled_font_draws_russian_bulgarian_and_money_signs() -> None:
    for size, weight in [(12, "normal"), (20, "bold"), (16, "bold")]:
        assert missing_glyphs(RUSSIAN + MONEY, load_font(size, weight)) == set()


def test_every_cyrillic_letter_has_its_own_bitmap() -> None:
    font = load_font(12)
    bitmaps = {bytes(font.getmask(letter)) for letter in RUSSIAN}
    assert len(bitmaps) == len(RUSSIAN)


def test_cyrillic_payment_screen_reads_back_from_the_pixels() -> None:
    view = ScreenView(title="Боб → Анна", lines=("Боб платит Анне", "550 тыс. руб."), footer="OK платить")
    image = render_view(view)
    assert image.mode == "1"
    assert image.size == (WIDTH, HEIGHT)
    assert read_row(image, 0) == as_read("Боб → Анна")
    assert lit(image, (0, LINE_HEIGHT, WIDTH, LINE_HEIGHT + 1)) == WIDTH  # the rule under the title
    assert read_row(image, 14) == as_read("Боб платит Анне")
    assert read_row(image, 26) == as_read("550 тыс. руб.")
    assert read_row(image, FOOTER_Y) == as_read("OK платить")


def test_the_amount_is_drawn_big_and_centred() -> None:
    image = render_view(ScreenView(title="Park Place", lines=("Bob pays Ann",), amount="$550", footer="OK pay"))
    band = [y for y in range(26, FOOTER_Y) if lit(image, (0, y, WIDTH, y + 1))]
    assert band[-1] - band[0] + 1 >= 14  # big digits, not a 12-pixel text line
    columns = [x for x in range(WIDTH) if lit(image, (x, 26, x + 1, FOOTER_Y))]
    assert abs(columns[0] - (WIDTH - 1 - columns[-1])) <= 2  # centred
    width = 4 * 10  # Terminus bold 20 is 10 pixels a character
    x = (WIDTH - width) // 2
    found = {read_row(image, y, x=x, size=20, weight="bold") for y in range(band[0] - 4, band[0] + 1)}
    assert "$550" in found


def test_an_amount_too_wide_for_big_digits_is_drawn_smaller() -> None:
    image = render_view(ScreenView(amount="1 234 567 890 тыс."))
    band = [y for y in range(HEIGHT) if lit(image, (0, y, WIDTH, y + 1))]
    assert 8 <= band[-1] - band[0] + 1 <= 12


def test_rouble_sign_missing_from_the_font_is_spelled_out() -> None:
    assert missing_glyphs("₽") == {"₽"}
    assert drawable("550 ₽") == "550 руб."
    image = render_view(ScreenView(lines=("Итого 550 ₽",)))
    assert read_row(image, 0) == as_read("Итого 550 руб.")


def test_unknown_characters_become_question_marks_not_boxes() -> None:
    assert drawable("a\U0001f600b") == "a?b"


def test_long_text_wraps_at_word_boundaries_and_ends_with_an_ellipsis() -> None:
    text = "Анна не может строить на Балтийской: Средиземноморская заложена, сначала выкупите её"
    image = render_view(ScreenView(title="Нельзя", lines=(text,)))
    rows = [read_row(image, 14 + LINE_HEIGHT * row) for row in range(4)]
    assert rows[0] == as_read("Анна не может строить")
    assert rows[1] == as_read("на Балтийской:")
    assert rows[2] == as_read("Средиземноморская")
    assert rows[3].endswith("…")
    assert lit(image, (0, 14 + 4 * LINE_HEIGHT, WIDTH, HEIGHT)) == 0


def test_words_longer_than_a_line_are_split() -> None:
    font = load_font(12)
    assert wrap("x" * 30, font, 126) == ["x" * 21, "x" * 9]
    assert wrap("", font, 126) == [""]


def test_a_menu_scrolls_to_the_highlighted_line_and_marks_what_is_hidden() -> None:
    items = tuple(f"Пункт {number}" for number in range(1, 7))
    image = render_view(ScreenView(title="Меню", lines=items, highlight=4, footer="OK"))
    # Three body rows fit: items 3-5, with the fifth drawn dark on a lit bar as wide as its text.
    text = 7 * 6
    bars = [y for y in (14, 26, 38) if lit(image, (0, y, 1 + text, y + LINE_HEIGHT)) > text * LINE_HEIGHT // 2]
    assert bars == [38]
    assert lit(image, (1 + text, 38, WIDTH - 7, 38 + LINE_HEIGHT)) == 0  # the rest of the row stays dark
    assert read_row(image, 14) == as_read("Пункт 3".ljust(20) + "▲")
    assert read_row(image, 26) == as_read("Пункт 4")
    assert read_row(image, 38, inverted=True)[:7] == as_read("Пункт 5")
    assert read_row(image, 38, x=1 + 20 * 6) == as_read("▼")


def test_a_menu_scrolled_down_starts_at_a_line_never_at_the_end_of_a_wrapped_one() -> None:
    lines = ("Новый дом окупится за 9 бросков", "Пункт 1", "Пункт 2", "Пункт 3")  # the first takes two rows
    image = render_view(ScreenView(title="Меню", lines=lines, highlight=2, footer="OK"))
    assert read_row(image, 14) == as_read("Пункт 1".ljust(20) + "▲")  # not "за 9 бросков"
    assert read_row(image, 26, inverted=True)[:7] == as_read("Пункт 2")
    assert read_row(image, 38) == as_read("Пункт 3")
    opened = render_view(ScreenView(title="Меню", lines=lines, highlight=1, footer="OK"))
    assert read_row(opened, 14) == as_read("Новый дом окупится")  # the whole line while it fits


def test_a_menu_that_fits_has_no_scroll_marks() -> None:
    image = render_view(ScreenView(lines=("Да", "Нет"), highlight=0))
    assert read_row(image, 0, inverted=True)[:2] == as_read("Да")
    assert read_row(image, 12) == as_read("Нет")


def test_inverted_screen_is_dark_text_on_light() -> None:
    normal = render_view(ScreenView(title="Ошибка", lines=("Нет денег",)))
    inverted = render_view(ScreenView(title="Ошибка", lines=("Нет денег",), inverted=True))
    assert lit(inverted, (0, 0, WIDTH, HEIGHT)) == WIDTH * HEIGHT - lit(normal, (0, 0, WIDTH, HEIGHT))
    assert read_row(inverted, 14, inverted=True) == as_read("Нет денег")


def test_without_a_footer_the_body_gets_a_fourth_line() -> None:
    image = render_view(ScreenView(title="T", lines=("one", "two", "three", "four")))
    assert read_row(image, 14 + 3 * LINE_HEIGHT) == "four"


def test_an_empty_view_is_a_blank_screen() -> None:
    assert lit(render_view(ScreenView()), (0, 0, WIDTH, HEIGHT)) == 0


def test_fonts_only_load_at_sizes_with_bitmap_strikes() -> None:
    with pytest.raises(ValueError, match="bitmap strikes"):
        load_font(13)
    with pytest.raises(ValueError, match="weight"):
        load_font(12, "italic")
