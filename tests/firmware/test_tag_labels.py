"""What each tag is called on the table's page and screens: a name people read, never a text key."""

from __future__ import annotations

import pytest

from banker.edition import load_edition
from firmware.tags import SPECIAL_SQUARES, all_meanings, label


@pytest.mark.parametrize("edition_id", ["us", "uk", "ru"])
@pytest.mark.parametrize("language", ["en", "ru", "bg"])
def test_every_tag_has_a_name(edition_id: str, language: str) -> None:
    edition = load_edition(edition_id)
    for meaning in all_meanings():
        name = label(meaning, edition, ("Ann", "Bob"), language)
        assert name and not name.startswith(("tag_", "table_")), (meaning, name)


def test_special_squares_are_called_as_on_the_board() -> None:
    us, ru = load_edition("us"), load_edition("ru")
    assert [label(f"square:{s}", us, (), "en") for s in SPECIAL_SQUARES] == [
        "GO", "Chance", "Community Chest", "Income Tax", "Luxury Tax", "Jail / Just Visiting", "Free Parking"]
    assert label("square:chance", ru, (), "ru") == "Шанс"
