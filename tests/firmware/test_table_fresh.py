"""The table's open offer follows the game: when a phone changes the state the offer was made on, the
table withdraws it (with the engine's reason) or shows it afresh, before anybody presses OK."""

from __future__ import annotations

import json
from typing import Any


def test_a_purchase_the_table_offers_is_withdrawn_when_the_phone_buys_the_deed(make_play: Any) -> None:
    play = make_play("Ann", "Борис")
    play.do("tap:Борис", "tap:short_line")
    assert "\n$200\n" in play.screen() and "OK" in play.screen()
    play.do({"phone": {"action": "buy", "player": "Борис", "property": "short_line"}})
    play.do("wait:1")
    screen = play.screen()
    assert "\n$200\n" not in screen, screen  # the confirmation is gone before OK, not refused after it
    assert "Short Line" in screen and "Борис" in screen, screen
    waited = 1
    while not play.screen().startswith("Борис          $1,300\n") and waited < 6:
        play.do("wait:1")  # no button: the table goes on by itself
        waited += 1
    assert play.screen().startswith("Борис          $1,300\nNow tap a deed or tag"), (waited, play.screen())
    assert play.cash("Борис") == 1300
    assert play.json()["properties"]["short_line"]["owner"] == "Борис"
    assert [json.loads(line)["action"] for line in play.actions()] == ["buy"]  # the phone's alone


def test_a_rent_the_table_shows_is_shown_afresh_when_a_house_is_built_meanwhile(make_play: Any) -> None:
    play = make_play("Ann", "Bob")
    play.do("tap:Ann", "tap:mediterranean", "ok", "wait:6", "tap:Ann", "tap:baltic", "ok", "wait:6")
    play.do("tap:Bob", "tap:baltic")
    assert "\n$8\n" in play.screen()  # the whole group: double rent
    play.do({"phone": {"action": "build", "player": "Ann", "property": "baltic"}})
    play.do("wait:1")
    assert "\n$20\n" in play.screen(), play.screen()
    play.do("ok", "wait:6")
    assert play.cash("Bob") == 1480


def test_the_owners_menu_follows_a_mortgage_made_on_the_phone(make_play: Any) -> None:
    play = make_play("Ann", "Bob")
    play.do("tap:Ann", "tap:baltic", "ok", "wait:6", "tap:Ann", "tap:baltic")
    assert "Mortgage +$30" in play.screen()
    play.do({"phone": {"action": "mortgage", "player": "Ann", "property": "baltic"}})
    play.do("wait:1")
    assert "Mortgage +$30" not in play.screen() and "Lift" in play.screen(), play.screen()
