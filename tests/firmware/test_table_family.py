"""What a family trips over at the table: the turn, the balances' marks and names, the saved games,
"Show the card", the debt line and the banker question."""

from __future__ import annotations

import re
import time
from typing import Any

from banker.actions import NewGame
from banker.journal import GameInfo
from firmware.loop import game_label
from firmware.screens import short_name
from tests.firmware.conftest import Play


def test_the_player_whose_turn_it_is_ends_it_at_the_table(make_play: Any) -> None:
    play = make_play("Ann", "Bob", "Cy")
    assert play.state.turn == 0
    play.do("tap:Bob")
    assert "End turn" not in play.screen()  # not Bob's turn
    play.do("cancel", "tap:Ann")
    play.choose("End turn: Bob next")
    assert play.state.turn == 1
    assert play.actions()[-1] == '{"action": "end_turn"}'
    play.do("wait:5", "tap:Bob")
    play.choose("End turn: Cy next")
    assert play.state.turn == 2


def test_the_jail_mark_on_the_balances_is_explained(play: Play) -> None:
    play.do("tap:Ann")
    assert "in jail" not in play.screen()
    play.do("cancel")
    play.script.session.submit(__import__("banker.actions", fromlist=["GoToJail"]).GoToJail("Ann"))
    play.do("wait:6")
    screen = play.screen()
    assert "Ann*" in screen and "* in jail" in screen, screen


def test_names_cut_to_fit_stay_apart() -> None:
    names = ["Александр", "Алексей", "Бо"]
    assert short_name("Александр", names, 5) != short_name("Алексей", names, 5)
    assert short_name("Александр", names, 5) == "Але…р" and short_name("Алексей", names, 5) == "Але…й"
    assert short_name("Бо", names, 5) == "Бо"
    assert short_name("Александр", ["Александр", "Бо"], 5) == "Алек…"  # nothing to tell apart


def test_two_alexanders_on_a_russian_table(make_play: Any) -> None:
    play = make_play("Александр", "Алексей", edition="ru", language="ru")
    lines = play.screen().splitlines()
    first = next(line for line in lines if line.startswith("Але"))
    second = next(line for line in lines[lines.index(first) + 1:] if line.startswith("Але"))
    assert first.split()[0] != second.split()[0], lines
    play.do("tap:Алексей")
    assert play.screen().splitlines()[0].split()[0] == "Але…й"


def test_saved_games_show_when_and_which_edition_and_a_switch_says_so(play: Play) -> None:
    first = play.script.session.game_id
    play.script.session.submit(NewGame("uk", ("Dee", "Eve"), {}))
    play.do("hold:ok")
    play.choose("Saved games")
    flat = play.flat()
    label = re.search(r"Ann · Bob \(Atlantic City, [^)]*\d+[^)]*\)", flat)  # a script's games start at 0
    assert label, flat
    play.choose("Ann · Bob")
    assert play.script.session.game_id == first
    assert f"Switched to the game {label.group(0)}" in play.flat(), play.flat()
    assert "restart" not in play.flat()


def test_a_game_label_says_the_day() -> None:
    now = time.mktime((2026, 12, 2, 15, 0, 0, 0, 0, -1))
    info = GameInfo(3, "Аня · Боря", "ru", ("Аня", "Боря"), now - 3600, 12)
    assert game_label(info, "ru", now) == "Аня · Боря (Москва, сегодня 14:00)"
    assert game_label(info, "en", now + 86400) == "Аня · Боря (Москва, yesterday 14:00)"
    assert game_label(info, "bg", now + 3 * 86400) == "Аня · Боря (Москва, 2.12.2026)"
    assert game_label(info, "en", now + 3 * 86400) == "Аня · Боря (Москва, 12/2/2026)"


def test_show_the_card_then_cancel_goes_back_to_the_deeds_menu(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("tap:Ann", "tap:baltic")
    menu = play.screen()
    play.choose("Show the card")
    assert "Rent now" in play.screen() or "Owner" in play.screen()
    play.do("cancel")
    assert play.screen() == menu


def test_the_debt_line_says_the_cash_is_counted_once(make_play: Any) -> None:
    play = make_play("Ann", "Bob", starting_cash=500)
    play.do("tap:Ann", "tap:boardwalk", "ok", "wait:4")  # Ann has 100, Boardwalk mortgages for 200
    play.do("tap:Ann", "tap:luxury_tax", "ok", "wait:4")
    play.do("tap:Ann", "tap:luxury_tax", "ok", "wait:4")  # the second tax is a debt: Ann has 0
    assert "has $0 and can raise $200 more" in play.flat(), play.flat()
