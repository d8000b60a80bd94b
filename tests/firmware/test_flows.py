"""The table's flows, played with taps and presses through the real grammar, loop and simulated parts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from banker.advisor import next_building_line
from banker.messages import render
from tests.firmware.conftest import Play


def test_rent_is_two_taps_and_one_press(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    before = play.cash("Bob")
    play.do("tap:Bob", "tap:baltic")
    assert "Bob → Ann" in play.screen() and "$4" in play.screen()
    assert play.cash("Bob") == before, "nothing moves before OK"
    play.do("ok")
    assert play.cash("Bob") == before - 4
    assert play.cash("Ann") == 1500 - 60 + 4
    assert json.loads(play.actions()[-1]) == {"action": "rent", "player": "Bob", "property": "baltic"}


def test_rent_with_the_deed_tapped_first(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("tap:baltic")
    assert "Owner: Ann" in play.screen() and "Rent now" in play.screen()
    play.do("tap:Bob")
    play.do("ok")
    assert play.cash("Bob") == 1496


def test_a_deed_alone_goes_back_to_idle(play: Play) -> None:
    play.do("tap:baltic")
    assert "For sale: $60" in play.screen()
    play.do("wait:7")
    assert play.screen().startswith("Balances")
    assert play.actions() == []


def test_the_owners_card_first_then_the_payer(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("tap:Ann", "tap:baltic")
    assert "Collect rent…" in play.screen()
    play.do("ok")  # the first item: collect rent
    assert "Ann collects rent from…" in play.screen()
    play.do("tap:Bob")
    play.do("ok")
    assert play.cash("Bob") == 1496


def test_railroad_rent_counts_the_owners_railroads(play: Play) -> None:
    for railroad in ("reading_railroad", "short_line"):
        play.do("tap:Ann", f"tap:{railroad}", "ok", "wait:4")
    play.do("tap:Bob", "tap:short_line")
    assert "$50" in play.screen() and "2 railroads owned" in play.read()
    play.do("ok")
    assert play.cash("Bob") == 1450


def test_utility_rent_asks_for_the_dice(play: Play) -> None:
    play.do("tap:Ann", "tap:electric_company", "ok", "wait:4")
    play.do("tap:Bob", "tap:electric_company")
    assert "Dice total?" in play.screen()
    play.do("up", "up", "up")  # 7 → 10
    assert "10" in play.screen()
    play.do("ok")
    assert "$40" in play.screen()
    play.do("ok")
    assert play.cash("Bob") == 1460


def test_a_mortgaged_deed_says_why_no_rent_is_due(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("tap:Ann", "tap:baltic")
    play.choose("Mortgage +$30")
    play.do("ok", "wait:4")
    assert play.json()["properties"]["baltic"]["mortgaged"]
    play.do("tap:Bob", "tap:baltic")
    assert "No rent: it is mortgaged." in play.screen()
    play.do("ok")
    assert play.cash("Bob") == 1500


def test_lifting_a_mortgage_shows_the_interest(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("tap:Ann", "tap:baltic")
    play.choose("Mortgage")
    play.do("ok", "wait:4")
    play.do("tap:Ann", "tap:baltic")
    play.choose("Lift mortgage $33")
    assert "$30 + 10 % = $3 more" in play.screen() and "$33" in play.screen()
    play.do("ok")
    assert play.cash("Ann") == 1500 - 60 + 30 - 33
    assert not play.json()["properties"]["baltic"]["mortgaged"]


def test_cancel_at_the_price_offers_the_auction_and_bank_cards_bid(make_play: Any) -> None:
    play = make_play("Ann", "Bob", "Cy")
    play.do("tap:Ann", "tap:park_place")
    play.do("cancel")
    assert "Auction it now?" in play.screen()
    play.do("ok", "wait:4")
    assert "Auction: Park Place" in play.screen()
    play.do("tap:Bob")
    assert "Bid: Bob" in play.screen() and "$10" in play.screen()
    play.do("up", "ok", "wait:4")
    assert play.json()["auction"]["high_bid"] == 20
    play.do("tap:Cy", "up", "up", "ok", "wait:4")
    assert play.json()["auction"]["high_bidder"] == "Cy"
    assert play.json()["auction"]["high_bid"] == 50
    play.do("ok")
    assert "Sold to Cy" in play.screen()
    play.do("ok")
    assert play.json()["properties"]["park_place"]["owner"] == "Cy"
    assert play.cash("Cy") == 1450
    assert play.json()["auction"] is None


def test_building_evenly_and_the_refusal_explained(play: Play) -> None:
    for street in ("mediterranean", "baltic"):
        play.do("tap:Ann", f"tap:{street}", "ok", "wait:4")
    play.do("tap:Ann", "tap:baltic")
    play.choose("Build house $50")
    play.do("ok", "wait:4")
    assert play.json()["properties"]["baltic"]["houses"] == 1
    cash = play.cash("Ann")
    play.do("tap:Ann", "tap:baltic")
    play.choose("Build house")
    assert "Build evenly" in play.flat() and "Mediterranean" in play.flat()
    play.do("ok")
    assert "error" in play.beeps
    assert play.cash("Ann") == cash
    assert play.json()["properties"]["baltic"]["houses"] == 1


ORANGE = ("st_james", "tennessee", "new_york")


def orange_with_two_houses_each(game: Play, build: str = "Build house") -> None:
    for street in ORANGE:
        game.do("tap:Ann", f"tap:{street}", "ok", "wait:4")
    for _ in range(2):
        for street in ORANGE:
            game.do("tap:Ann", f"tap:{street}")
            game.choose(build)
            game.do("ok", "wait:4")


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Next house pays back in 9 throws"), ("ru", "Новый дом окупится за 9 бросков")],
)
def test_the_owners_menu_says_what_the_next_house_pays_back(make_play: Any, language: str, said: str) -> None:
    game = make_play("Ann", "Bob", "Cy", language=language)
    orange_with_two_houses_each(game, render("choice_menu_build_house", {"amount": ""}, language).strip())
    assert [game.json()["properties"][street]["houses"] for street in ORANGE] == [2, 2, 2]
    game.do("tap:Ann", "tap:new_york")
    view = game.script.loop.view
    # The article's figure: the orange third houses pay back in 9.44 throws of the two opponents.
    line = next_building_line(game.state, 0, game.state.edition.property("new_york"))
    assert line == ("advisor_next_house", {"count": 9})
    assert view.lines[0] == said == render(*line, language)
    assert view.lines[1] == render("choice_menu_collect_rent", {}, language)
    assert view.highlight == 1  # the cursor is on the first item, below the line
    game.do("ok")  # OK takes that item, not the line
    assert game.flat().startswith(game.state.edition.property("new_york").name)
    assert render("table_collects_from", {"player": "Ann"}, language) in game.flat()


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
def test_the_payback_line_leaves_room_for_the_menus_first_item(language: str) -> None:
    from hardware.display import MARGIN_X, SCROLL_MARK_WIDTH, WIDTH, drawable, load_font, wrap

    font = load_font(12)
    for key in ("advisor_next_house", "advisor_next_hotel"):
        for count in (1, 3, 9, 21, 193, 1000):
            text = render(key, {"count": count}, language)
            rows = wrap(drawable(text, font), font, WIDTH - 2 * MARGIN_X - SCROLL_MARK_WIDTH)
            assert len(rows) <= 2, rows  # of the three body rows: the first item shows with it


def test_the_owners_menu_has_no_advice_line_without_advice_or_a_building(make_play: Any) -> None:
    quiet = make_play("Ann", "Bob", "Cy", advice=False)
    orange_with_two_houses_each(quiet)
    advised = make_play("Ann", "Bob", "Cy")
    orange_with_two_houses_each(advised)
    quiet.do("tap:Ann", "tap:new_york")
    advised.do("tap:Ann", "tap:new_york")
    assert quiet.script.loop.view.lines == advised.script.loop.view.lines[1:]  # nothing else changes
    assert not any("pays back" in line for line in quiet.script.loop.view.lines)
    single = make_play("Ann", "Bob")
    single.do("tap:Ann", "tap:boardwalk", "ok", "wait:4", "tap:Ann", "tap:boardwalk")
    assert "pays back" not in single.flat()  # no building on a group not whole


def test_a_transfer_with_the_amount_on_the_buttons(play: Play) -> None:
    play.do("tap:Ann", "tap:Bob")
    assert "Ann → Bob" in play.screen()
    play.do(*["up"] * 3)
    assert "$30" in play.screen()
    play.do("ok")
    assert "Ann pays Bob" in play.screen()
    play.do("ok")
    assert play.cash("Ann") == 1470 and play.cash("Bob") == 1530


def test_amount_steps_and_acceleration(play: Play) -> None:
    play.do("tap:Ann", "tap:Bob")
    # Quick presses speed up after five: 5 × 10 + 3 × 100.
    play.do("up*8")
    assert "$350" in play.screen()
    play.do("hold:ok")  # the step becomes 1
    play.do("wait:1", "up")
    assert "$351" in play.screen()


def test_the_amount_hint_names_the_step_the_next_press_makes(play: Play) -> None:
    play.do("tap:Ann", "tap:Bob")
    assert "±10 " in play.screen()
    play.do("up*5")
    assert "$50" in play.screen() and "±100 " in play.screen()  # the sixth quick press adds 100
    play.do("wait:1")
    assert "±10 " in play.screen()  # a pause starts the run again


def test_a_transfer_stops_at_the_payers_cash(play: Play) -> None:
    play.do("tap:Ann", "tap:Bob", "up*40")
    assert "$1,500" in play.screen() and "$6," not in play.screen()
    play.do("ok", "ok")
    assert play.cash("Ann") == 0 and play.cash("Bob") == 3000


def test_go_pays_the_salary(play: Play) -> None:
    play.do("tap:Ann", "tap:go")
    assert "Salary for Ann" in play.screen() and "+$200" in play.screen()
    play.do("ok")
    assert play.cash("Ann") == 1700


def test_landed_on_go_pays_double_under_the_house_rule(make_play: Any) -> None:
    play = make_play(double_salary_on_go=True)
    play.do("tap:Ann", "tap:go")
    play.choose("Landed on GO")
    play.do("ok")
    assert play.cash("Ann") == 1900


def test_income_tax_with_the_percent_choice(make_play: Any) -> None:
    play = make_play(income_tax_percent=10)
    play.do("tap:Ann", "tap:income_tax")
    assert "Pay $200" in play.screen() and "10 % of worth" in play.screen()
    play.choose("10 % of worth")
    assert "$150" in play.screen()
    play.do("ok")
    assert play.cash("Ann") == 1350


def test_a_chance_card_that_asks_where_it_was_drawn(play: Play) -> None:
    play.do("tap:Ann", "tap:reading_railroad", "ok", "wait:4")
    play.do("tap:Bob", "tap:chance")
    assert "which card?" in play.screen()
    nearest = next(i for i, line in enumerate(play.script.loop.view.lines) if "nearest Railroad" in line)
    play.do(*["down"] * nearest, "ok")
    assert "Which Chance square?" in play.screen()
    play.do("ok")  # Chance no. 1, square 7: the nearest railroad ahead is Pennsylvania
    play.do("ok")  # the card itself moves no money
    assert "Bob moves to Pennsylvania Railroad." in play.screen()
    play.do("ok")  # any button goes on from the notice
    assert "Pennsylvania Railroad" in play.screen() and "Bob buys it" in play.screen()
    play.do("cancel", "cancel", "wait:4")
    play.do("tap:Bob", "tap:chance")
    play.do(*["down"] * nearest, "ok", "down", "down", "ok", "ok", "ok")  # Chance no. 3, square 36: Reading ahead
    assert "$50" in play.screen() and "card: twice the rent" in play.read()
    play.do("ok")
    assert play.cash("Bob") == 1500 + 200 - 50  # passed GO on the way to Reading


def test_a_card_that_asks_whether_go_was_passed(play: Play) -> None:
    play.do("tap:Ann", "tap:chance")
    index = next(i for i, line in enumerate(play.script.loop.view.lines) if "Illinois" in line)
    play.do(*["down"] * index, "ok")
    assert "Passed GO?" in play.screen()
    play.do("ok", "ok")
    assert play.cash("Ann") == 1700


def test_jail_fine(play: Play) -> None:
    play.do("tap:Ann", "tap:jail", "ok", "wait:4")
    assert play.json()["players"]["Ann"]["in_jail"]
    play.do("tap:Ann", "tap:jail")
    assert "Pay fine $50" in play.screen()
    play.do("ok", "ok")
    assert play.cash("Ann") == 1450 and not play.json()["players"]["Ann"]["in_jail"]


def test_free_parking_pot(make_play: Any) -> None:
    play = make_play(free_parking_pot=True)
    play.do("tap:Ann", "tap:luxury_tax", "ok", "wait:4")
    assert play.json()["pot"] == 100
    play.do("tap:Bob", "tap:free_parking", "ok")
    assert play.cash("Bob") == 1600


def test_a_debt_says_what_is_missing_and_how_to_raise_it(make_play: Any) -> None:
    play = make_play("Ann", "Bob", starting_cash=500)
    play.do("tap:Ann", "tap:boardwalk", "ok", "wait:4")  # Ann has 100
    play.do("tap:Ann", "tap:Bob", "up*5", "ok", "ok", "wait:4")  # Ann pays Bob 50: 50 left
    assert play.cash("Ann") == 50
    play.do("tap:Ann", "tap:luxury_tax")
    assert "Owed to the bank" in play.screen() and "short by $50" in play.read()
    play.do("ok", "wait:4")
    assert play.json()["debts"] == [{"debtor": "Ann", "creditor": "bank", "amount": 100, "reason": "tax"}]
    assert "Ann owes $100" in play.screen() and "→ the bank       $100" in play.screen()
    assert "can raise $200 more" in play.screen()
    play.do("tap:Ann")
    assert "Pay debts $100" in play.screen()
    play.choose("Declare bankruptcy")
    assert "cannot go bankrupt" in play.flat()  # the engine's reason: mortgaging would raise enough
    play.do("ok", "wait:12")
    assert not play.json()["players"]["Ann"]["bankrupt"]
    play.do("tap:Ann", "tap:boardwalk")
    play.choose("Mortgage +$200")
    play.do("ok", "wait:4")
    play.do("tap:Ann", "ok", "ok")
    assert play.json()["debts"] == [] and play.cash("Ann") == 150


def test_bankruptcy_to_a_player_with_one_confirmation(make_play: Any) -> None:
    play = make_play("Ann", "Bob", "Cy", starting_cash=400)
    play.do("tap:Ann", "tap:boardwalk", "ok", "wait:4")
    play.do("tap:Bob", "tap:Cy", "up*8", "ok", "ok", "wait:4")  # Bob gives Cy 350: 50 left
    play.do("tap:Bob", "tap:boardwalk", "ok", "wait:4")  # rent 50: paid exactly
    play.do("tap:Bob", "tap:boardwalk", "ok", "wait:4")  # rent 50 again: a debt
    assert play.json()["debts"][0]["creditor"] == "Ann"
    assert "bankrupt?" in play.screen()
    play.do("tap:Bob")
    play.choose("Declare bankruptcy")
    assert "Bob goes bankrupt." in play.screen()
    play.do("ok")
    state = play.json()
    assert state["players"]["Bob"]["bankrupt"]
    assert not state["debts"]
    assert state["players"]["Ann"]["cash"] == 50


def test_bankruptcy_to_the_bank_opens_the_auctions(make_play: Any) -> None:
    play = make_play("Ann", "Bob", "Cy", starting_cash=300)
    play.do("tap:Bob", "tap:baltic", "ok", "wait:4")
    play.do("tap:Bob", "tap:Ann", "up*5", "up*5", "ok", "ok", "wait:4")  # Bob pays Ann 100: 140 left
    play.do("tap:Bob", "tap:income_tax", "ok", "wait:4")  # 200 owed to the bank: a debt
    assert play.json()["debts"][0]["creditor"] == "bank"
    play.do("tap:Bob")
    play.choose("Declare bankruptcy")
    play.do("ok", "wait:10")  # the Done screen: who is out and what it owes, then the board
    state = play.json()
    assert state["players"]["Bob"]["bankrupt"]
    assert state["auction"]["property"] == "baltic"
    assert "Auction: Baltic\n" in play.screen()  # "Auction: Baltic Avenue" is wider than the line
    play.do("tap:Cy", "ok", "wait:4", "ok", "ok")
    assert play.json()["properties"]["baltic"]["owner"] == "Cy"


def test_undo_by_a_long_press_shows_what_it_undoes(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("hold:cancel")
    assert "Undo?" in play.screen() and "Ann buys Baltic Avenue for $60." in play.screen()
    play.do("ok")
    assert play.json()["properties"]["baltic"]["owner"] is None
    assert play.cash("Ann") == 1500


def test_cancel_backs_out_one_step(play: Play) -> None:
    play.do("tap:Ann", "tap:Bob", "up")
    play.do("ok")
    assert "Ann pays Bob" in play.screen()
    play.do("cancel")
    assert "Ann → Bob" in play.screen()
    play.do("cancel")
    assert "Now tap a deed or tag" in play.screen()
    play.do("cancel")
    assert play.screen().startswith("Balances")
    assert play.actions() == []


def test_thirty_seconds_without_input_return_to_idle(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic")
    play.do("wait:28")
    assert "Ann buys it" in play.screen()
    play.do("wait:2")
    assert play.screen().startswith("Balances")
    play.do("ok")
    assert play.actions() == []


def test_the_same_card_twice_is_one_tap(play: Play) -> None:
    play.do("tap:Ann", "tap:Ann")
    assert "Now tap a deed or tag" in play.screen()
    assert "Ann → Ann" not in play.screen()


def test_a_tap_during_a_confirmation_never_confirms(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic")
    play.do("tap:Bob")
    assert "attention" in play.beeps
    assert play.actions() == []
    assert "Bob" in play.screen() and "Now tap" in play.screen()


def test_mashing_ok_pays_once(play: Play) -> None:
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    play.do("tap:Bob", "tap:baltic", "ok", "ok", "ok", "ok", "ok")
    rents = [line for line in play.actions() if '"rent"' in line]
    assert len(rents) == 1
    assert play.cash("Bob") == 1496


def test_an_unknown_tag_offers_to_enroll_it(play: Play) -> None:
    play.do("tap:uid:04A1B2C3")
    assert "Unknown tag" in play.screen() and "04:A1:B2:C3" in play.screen()
    play.do("ok")
    assert "What is 04:A1:B2:C3?" in play.screen()
    play.choose("A title deed")
    play.choose("Mediterranean")
    assert play.script.loop.tags.meaning_of("04:A1:B2:C3") == "deed:1"
    assert play.script.journal.tags()["04:A1:B2:C3"] == "deed:1"
    play.do("wait:2", "tap:Ann", "tap:uid:04A1B2C3")
    assert "Mediterranean Avenue" in play.screen() and "Ann buys it" in play.screen()


def test_a_timed_game_warns_and_ends_by_itself(play: Play) -> None:
    play.script.loop.timer = None
    loop = play.script.loop
    from firmware.grammar import StartTimer

    loop._perform(StartTimer(6))
    play.do("wait:5")
    assert play.screen().startswith("Left 5:5")
    play.do("wait:56")
    assert "minutes left" in play.screen()
    play.do("wait:300")
    assert play.json()["ended"]
    play.do("wait:4")
    assert "Over:" in play.screen()


def test_a_russian_table(make_play: Any) -> None:
    play = make_play("Аня", "Боря", edition="ru", language="ru")
    play.do("tap:Аня", "tap:arbat")
    screen = play.screen()
    assert "ул. Арбат" in screen or "Арбат" in screen
    assert "400 тыс. руб." in screen.replace("\u202f", " ")
    play.do("ok")
    assert play.json()["properties"]["arbat"]["owner"] == "Аня"


def test_a_phone_acting_mid_confirmation_shows_the_new_amount_before_paying(play: Play) -> None:
    from banker.actions import Build

    for street in ("mediterranean", "baltic"):
        play.do("tap:Ann", f"tap:{street}", "ok", "wait:4")
    play.do("tap:Bob", "tap:baltic")
    assert "$8" in play.screen()  # double rent: the whole group
    play.script.session.submit(Build("Ann", "baltic"))  # from a phone, while the screen shows $8
    play.do("ok")
    assert "$20" in play.screen() and "attention" in play.beeps
    assert play.cash("Bob") == 1500, "the changed amount is shown first, not paid"
    play.do("ok")
    assert play.cash("Bob") == 1480


def test_a_received_mortgaged_deed_asks_its_new_owner(make_play: Any) -> None:
    play = make_play("Ann", "Bob", "Cy", starting_cash=500)
    play.do("tap:Bob", "tap:baltic", "ok", "wait:4")
    play.do("tap:Bob", "tap:baltic")
    play.choose("Mortgage")
    play.do("ok", "wait:4")  # Bob has 470
    play.do("tap:Ann", "tap:park_place", "ok", "wait:4")  # Ann owns Park Place: rent 35
    play.do("tap:Bob", "tap:Cy", "up*8", "up*5", "up*5", "ok", "ok", "wait:4")  # Bob pays Cy 450: 20 left
    assert play.cash("Bob") == 20
    play.do("tap:Bob", "tap:park_place", "ok", "wait:4")  # 35 owed, 20 in cash: a debt to Ann
    play.do("tap:Bob")
    play.choose("Declare bankruptcy")
    play.do("ok", "wait:14")  # the Done screen: who is out and what goes to whom, then the board
    assert play.json()["decisions"][0]["player"] == "Ann"
    assert "Decision" in play.screen()
    play.do("tap:Ann")
    play.choose("Decide: Baltic Avenue")
    play.choose("Keep, pay $3")
    play.do("ok")
    state = play.json()
    assert state["decisions"] == [] and state["properties"]["baltic"] == {
        "owner": "Ann", "houses": 0, "hotel": False, "mortgaged": True}


def test_the_screen_is_drawn_only_when_it_changes(play: Play) -> None:
    display = play.script.table.display
    before = display.frames  # type: ignore[attr-defined]
    play.do("wait:20")
    assert display.frames == before  # type: ignore[attr-defined]
    play.do("tap:Ann")
    assert display.frames == before + 1  # type: ignore[attr-defined]


def test_setup_switches_games_and_language(play: Play) -> None:
    from banker.actions import NewGame

    first = play.script.session.game_id
    play.script.session.submit(NewGame("uk", ("Dee", "Eve"), {}))
    play.do("hold:ok")
    assert "Setup" in play.screen()
    play.choose("Saved games")
    play.choose("Ann · Bob")
    assert play.script.session.game_id == first
    play.do("wait:5", "hold:ok")
    play.choose("Language")
    play.choose("Русский")
    play.do("wait:1")
    assert "Счета" in play.screen()
    assert play.script.journal.setting("language") == "ru"


def test_a_hotel_comes_down_as_far_as_the_banks_houses_allow(make_play: Any) -> None:
    play = make_play(houses=12)

    def build(player: str, street: str) -> None:
        play.do(f"tap:{player}", f"tap:{street}")
        play.choose("Build")
        play.do("ok", "wait:4")

    for street in ("mediterranean", "baltic"):
        play.do("tap:Ann", f"tap:{street}", "ok", "wait:4")
    for street in ("oriental", "vermont", "connecticut"):
        play.do("tap:Bob", f"tap:{street}", "ok", "wait:4")
    for street in ["mediterranean", "baltic"] * 4 + ["mediterranean"]:
        build("Ann", street)
    for street in ["oriental", "vermont", "connecticut"] * 2:
        build("Bob", street)
    state = play.json()
    assert state["properties"]["mediterranean"]["hotel"] and state["properties"]["baltic"]["houses"] == 4
    assert state["bank"]["houses"] == 2
    play.do("tap:Ann", "tap:mediterranean")
    play.choose("Sell hotel")
    assert "bank has only 2 houses" in play.flat()  # one step down would need 4
    play.do("cancel")
    play.choose("Sell down to Mediterranean 3, Baltic 3")
    assert "+$75" in play.screen()  # 2 levels of Mediterranean and 1 of Baltic at $25
    play.do("ok")
    state = play.json()
    assert (state["properties"]["mediterranean"]["houses"], state["properties"]["baltic"]["houses"]) == (3, 3)
    assert state["bank"]["houses"] == 0 and state["bank"]["hotels"] == 12


def test_a_timed_game_waits_for_an_open_auction_before_the_count(play: Play) -> None:
    from firmware.grammar import StartTimer

    play.script.loop._perform(StartTimer(1))
    play.do("tap:Ann", "tap:baltic", "cancel", "ok", "wait:4")
    assert play.json()["auction"] is not None
    for _ in range(60):
        play.do("wait:1")
        if "Time is up" in play.flat():
            break
    assert "Time is up" in play.flat()
    assert not play.json()["ended"]
    beeps = len(play.beeps)
    play.do("wait:30")
    assert len(play.beeps) == beeps, "the table says it once"
    play.do("tap:Bob", "ok", "wait:4", "ok", "ok", "wait:2")
    assert play.json()["ended"]


def test_an_incoming_trade_proposal_is_answered_on_the_receivers_card(make_play: Any) -> None:
    from banker.actions import Bundle, ProposeTrade

    play = make_play("Ann", "Bob", "Cy")
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    session = play.script.session
    session.submit(ProposeTrade("Ann", "Bob", give=Bundle(0, ("baltic",)), take=Bundle(100)))  # from Ann's phone
    play.do("tap:Cy")
    assert "Ann" not in play.screen(), "a proposal to Bob is not on Cy's card"
    play.do("cancel", "tap:Ann")
    assert "deal" not in play.screen(), "the proposer withdraws on the phone, not at the table"
    play.do("cancel", "tap:Bob")
    assert "Accept Ann's deal" in play.screen() and "Refuse Ann's deal" in play.screen()
    play.choose("Accept Ann's deal")
    # What is given and taken, in words, before anything moves.
    said = play.read()
    assert "Ann gives Baltic Avenue" in said and "Bob gives $100" in said, said
    assert play.cash("Bob") == 1500 and play.json()["properties"]["baltic"]["owner"] == "Ann"
    play.do("ok", "wait:4")
    state = play.json()
    assert state["properties"]["baltic"]["owner"] == "Bob" and state["proposals"] == []
    assert play.cash("Bob") == 1400 and play.cash("Ann") == 1500 - 60 + 100
    assert json.loads(play.actions()[-1]) == {"action": "accept_trade", "player": "Bob", "proposal": 1}


def test_a_trade_proposal_refused_at_the_table_and_one_withdrawn_by_a_sale(make_play: Any) -> None:
    from banker.actions import Bundle, ProposeTrade, Trade

    play = make_play("Ann", "Bob", "Cy")
    play.do("tap:Ann", "tap:baltic", "ok", "wait:4")
    session = play.script.session
    session.submit(ProposeTrade("Ann", "Bob", give=Bundle(0, ("baltic",)), take=Bundle(100)))
    play.do("tap:Bob")
    play.choose("Refuse Ann's deal")
    assert "Ann gives Baltic Avenue" in play.flat()
    play.do("ok", "wait:4")
    assert [(p["id"], p["status"]) for p in play.json()["proposals"]] == [(1, "refused")]
    assert play.cash("Bob") == 1500 and play.cash("Ann") == 1440
    play.do("tap:Bob")
    assert "Ann's deal" not in play.screen(), "a refused offer is no longer on the receiver's card"
    play.do("cancel")
    # A second offer, and then Ann sells Baltic to Cy: the sale withdraws the offer, so Bob's card no longer
    # offers it (the log says why on every phone).
    session.submit(ProposeTrade("Ann", "Bob", give=Bundle(0, ("baltic",)), take=Bundle(80)))
    play.do("tap:Bob")
    assert "Accept Ann's deal" in play.screen()
    play.do("cancel")
    session.submit(Trade("Ann", "Cy", give=Bundle(0, ("baltic",)), take=Bundle(70)))
    play.do("tap:Bob")
    assert "Ann's deal" not in play.screen()
    state = play.json()
    assert play.cash("Bob") == 1500 and state["properties"]["baltic"]["owner"] == "Cy"
    assert [p["id"] for p in state["proposals"] if p["status"] == "open"] == []
