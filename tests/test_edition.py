"""Editions as data: the three boards load, match the printed numbers, and bad files say what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.edition import EDITIONS_DIR, load_edition, load_edition_file
from banker.errors import EditionError, UnknownName


@pytest.mark.parametrize("edition_id", ["us", "uk", "ru"])
def test_every_edition_has_the_classic_board(edition_id: str) -> None:
    ed = load_edition(edition_id)
    assert len(ed.squares) == 40 and len(ed.properties) == 28
    assert {g: len(m) for g, m in ed.groups.items()} == {
        "brown": 2, "light_blue": 3, "pink": 3, "orange": 3, "red": 3, "yellow": 3, "green": 3, "dark_blue": 2,
        "railroad": 4, "utility": 2}
    assert [sq.index for sq in ed.squares if sq.kind == "chance"] == [7, 22, 36]
    assert [sq.index for sq in ed.squares if sq.kind == "community_chest"] == [2, 17, 33]
    assert sum(p.price for p in ed.properties) == 4590 + 4 * 200 + 2 * 150  # streets, railroads, utilities
    assert all(p.mortgage * 2 == p.price for p in ed.properties)
    assert len(ed.decks["chance"]) == len(ed.decks["community_chest"]) == 16
    last = ed.properties[-1]
    assert (last.square, last.price, last.rent, last.house_price) == (39, 400, (50, 200, 600, 1400, 1700, 2000), 200)
    assert ed.square(4).amount == 200


def test_luxury_tax_differs_by_edition() -> None:
    assert [load_edition(e).square(38).amount for e in ("us", "uk", "ru")] == [100, 100, 100]


def test_money_display() -> None:
    assert load_edition("us").format_money(1500) == "$1,500"
    assert load_edition("uk").format_money(200) == "£200"
    assert load_edition("ru").format_money(1500) == "1\u202f500 тыс. руб."


def test_names_in_the_edition_language() -> None:
    assert load_edition("ru").property("arbat").name == "Улица Арбат"
    assert load_edition("uk").property("mayfair").name == "Mayfair"
    with pytest.raises(UnknownName):
        load_edition("us").property("mayfair")
    with pytest.raises(UnknownName, match="choose one of: ru, uk, us"):
        load_edition("de")


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = (EDITIONS_DIR / "us.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "field", "problem"), [
    ("price = 60\n", 'price = "sixty"\n', "squares[1].price", "expected a whole number"),
    ("rent = [2, 10, 30, 90, 160, 250]", "rent = [2, 10, 30]", "squares[1].rent", "expected 6 positive"),
    ('kind = "street"', 'kind = "castle"', "squares[1].kind", "unknown kind 'castle'"),
    ("index = 3\n", "index = 4\n", "squares[3].index", "expected 3, got 4"),
    ('id = "baltic"', 'id = "mediterranean"', "squares[3].id", "duplicate id 'mediterranean'"),
    ("house_price = 50\n", "", "squares[1].house_price", "missing"),
    ('format = "${amount}"', 'format = "$"', "currency.format", "must contain {amount}"),
    ('kind = "nearest"\n', 'kind = "teleport"\n', "chance[4].kind", "unknown kind 'teleport'"),
])
def test_a_malformed_edition_names_the_file_the_field_and_the_problem(
        tmp_path: Path, old: str, new: str, field: str, problem: str) -> None:
    path = broken(tmp_path, old, new)
    with pytest.raises(EditionError) as info:
        load_edition_file(path)
    message = str(info.value)
    assert str(path) in message and field in message and problem in message


def test_a_file_that_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("id = \n", encoding="utf-8")
    with pytest.raises(EditionError, match="x.toml"):
        load_edition_file(path)
