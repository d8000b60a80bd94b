"""Hidden balances at the table: its screens are everybody's, so a player's cash shows on their own card only."""

from __future__ import annotations

from typing import Any

import pytest

from banker.actions import parse_action
from tests.firmware.conftest import Play


def buy_two(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")  # Ann: $1,440
    play.do("tap:Bob", "tap:park_place", "ok", "wait:4")  # Bob: $1,150
    assert (play.cash("Ann"), play.cash("Bob")) == (1440, 1150)


@pytest.mark.parametrize("hidden", ["bands", "hidden"])
def test_the_table_shows_a_balance_only_on_its_own_card(make_play: Any, hidden: str) -> None:
    play: Play = make_play("Ann", "Bob", hidden_balances=hidden)
    buy_two(play)
    idle = play.screen()
    assert "Ann" in idle and "Bob" in idle
    assert "1,440" not in idle and "1,150" not in idle, idle
    assert "Your cash: tap card" in idle
    play.do("tap:Bob")
    assert "$1,150" in play.screen() and "1,440" not in play.screen()
    play.do("cancel", "wait:8")
    assert "1,150" not in play.screen()
    play.do("tap:Ann")
    assert "$1,440" in play.screen() and "1,150" not in play.screen()
    play.do("cancel", "wait:8")
    # A debt of Bob's: the table says what his deeds can raise, not his cash, nor how much more he needs.
    play.script.session.submit(parse_action({"action": "pay", "player": "Bob", "amount": 1500, "to": "bank"}))
    play.do("wait:1")
    notice = play.flat()
    play.do("wait:8")
    debt = play.flat()
    for screen in (notice, debt):
        assert "1,150" not in screen and "$350" not in screen, screen
    assert "can raise $175 by selling" in debt, debt


def test_with_the_rule_off_the_table_shows_every_balance(play: Play) -> None:
    buy_two(play)
    assert "$1,440" in play.screen() and "$1,150" in play.screen()
