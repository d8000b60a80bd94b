"""The board moves on the table's screen: a page at a time, every page seen before the notice ends."""

from __future__ import annotations

import json

from banker.board import BoardMove, board_moves, take_back
from banker.edition import load_edition
from banker.replay import replay_lines
from firmware.moves import PAGE_S, moves_view, pack, pages, pages_seconds

US = load_edition("us")
MANY = [BoardMove("deed", deed, 1, "Bob", "Ann") for deed in ("oriental", "vermont", "connecticut", "st_charles")]


def test_moves_fill_pages_of_three_lines() -> None:
    # "Give Boardwalk to Ann" fills one line of 21 characters, the others wrap to two.
    short = [BoardMove("deed", "boardwalk", 1, "Bob", "Ann"), *MANY[:2]]
    assert pages(US, short, "en") == [("Give Boardwalk to Ann", "Give Oriental Avenue to Ann"),
                                      ("Give Vermont Avenue to Ann",)]
    assert len(pages(US, MANY, "en")) == 4


def test_the_pages_turn_by_themselves_and_the_footer_says_which() -> None:
    first = moves_view(US, MANY, "en", "Done ✓", since=10.0, now=10.0)
    second = moves_view(US, MANY, "en", "Done ✓", since=10.0, now=10.0 + PAGE_S)
    last = moves_view(US, MANY, "en", "Done ✓", since=10.0, now=10.0 + 3 * PAGE_S)
    assert (first.footer, second.footer, last.footer) == ("1/4", "2/4", "4/4")
    assert first.lines != second.lines
    again = moves_view(US, MANY, "en", "Done ✓", since=10.0, now=10.0 + 4 * PAGE_S)
    assert again.lines == first.lines
    one = moves_view(US, MANY[:1], "en", "Done ✓", since=0.0, now=50.0)
    assert one.footer == "" and one.lines == ("Give Oriental Avenue to Ann",)


def test_the_notice_lasts_long_enough_for_every_page() -> None:
    assert pages_seconds(1) == 0
    assert pages_seconds(len(pages(US, MANY, "en"))) >= (len(pages(US, MANY, "en")) - 1) * PAGE_S


def test_a_text_longer_than_a_page_goes_a_page_at_a_time() -> None:
    long = "Cy is bankrupt: everything Cy has goes to Ann, who takes over the debts owed to Cy as well."
    book = pack(["Short.", long, "End."])
    assert book[0] == ("Short.",) and book[-1] == ("End.",)
    assert " ".join(" ".join(page) for page in book[1:-1]) == long
    assert all(len(page) == 1 for page in book[1:-1])


def test_undo_takes_back_the_last_actions_moves() -> None:
    lines = [{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}},
             {"action": "buy", "player": "Ann", "property": "baltic"}]
    result = replay_lines([json.dumps(line) for line in lines], keep_states=True)
    assert take_back(result.state) == [BoardMove("deed", "baltic", 1, "Ann", "bank")]
    assert take_back(result.states[0]) == []
    assert board_moves(result.states[0], result.state) == (BoardMove("deed", "baltic", 1, "bank", "Ann"),)


def test_the_pages_are_in_the_tables_language() -> None:
    assert pages(US, MANY[:1], "ru") == [("Oriental Avenue: карточку получает Ann",)]
