"""Mortgages with 10 % interest (§7), buying and auctions (§3), building shortage (§6.6)."""

from __future__ import annotations

import pytest

from tests.conftest import Table


def test_mortgage_pays_half_and_lifting_costs_ten_percent_more(table: Table) -> None:
    table.give("Ann", "boardwalk")
    table.do("mortgage", player="Ann", property="boardwalk")
    assert table.cash("Ann") == 1500 - 400 + 200
    table.fails("already_mortgaged", "mortgage", player="Ann", property="boardwalk")
    table.do("unmortgage", player="Ann", property="boardwalk")
    assert table.cash("Ann") == 1500 - 400 + 200 - 220
    table.fails("not_mortgaged", "unmortgage", player="Ann", property="boardwalk")


@pytest.mark.parametrize(("rounding", "cost"), [("up", 193), ("down", 192), ("nearest", 193)])
def test_interest_rounding_on_park_place(rounding: str, cost: int) -> None:
    t = Table(rounding=rounding)
    t.give("Ann", "park_place")  # mortgage value 175: interest 17.5
    t.do("mortgage", player="Ann", property="park_place")
    before = t.cash("Ann")
    t.do("unmortgage", player="Ann", property="park_place")
    assert before - t.cash("Ann") == cost


def test_no_mortgage_while_the_group_has_buildings(table: Table) -> None:
    table.give("Ann", "mediterranean", "baltic")
    table.do("build", player="Ann", property="baltic")
    err = table.fails("mortgage_buildings", "mortgage", player="Ann", property="mediterranean")
    assert "sell them first" in str(err)


def test_nobody_else_can_lift_a_mortgage(table: Table) -> None:
    table.give("Ann", "boardwalk")
    table.do("mortgage", player="Ann", property="boardwalk")
    table.fails("not_owner", "unmortgage", player="Bob", property="boardwalk")


def test_buy_at_printed_price_or_an_agreed_one(table: Table) -> None:
    table.do("buy", player="Ann", property="illinois")
    table.do("buy", player="Bob", property="states", price=100)
    assert (table.cash("Ann"), table.cash("Bob")) == (1260, 1400)
    table.fails("already_owned", "buy", player="Bob", property="illinois")
    table.do("collect", player="Bob", amount=1)
    table.do("pay", player="Bob", amount=1101, to="bank")
    table.fails("not_enough_cash", "buy", player="Bob", property="boardwalk")


def test_auction_highest_bid_wins_and_pays_the_bank() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    t.do("auction", property="boardwalk", declined_by="Ann")
    t.do("bid", player="Ann", amount=10)  # the decliner may bid by default
    t.do("bid", player="Bob", amount=150)
    t.fails("bid_too_low", "bid", player="Cat", amount=150)
    t.fails("not_enough_cash", "bid", player="Cat", amount=1501)
    t.fails("auction_open", "buy", player="Cat", property="park_place")
    t.do("bid", player="Cat", amount=151)
    t.do("auction_close")
    assert t.prop("boardwalk")["owner"] == "Cat"
    assert t.cash("Cat") == 1349 and t.cash("Bob") == 1500
    assert t.json()["auction"] is None


def test_auction_without_bids_leaves_the_deed_with_the_bank(table: Table) -> None:
    table.do("auction", property="boardwalk")
    table.do("auction_close")
    assert table.prop("boardwalk")["owner"] is None
    assert table.kinds() == ["auction_no_bids"]
    table.fails("no_auction", "auction_close")
    table.fails("no_auction", "bid", player="Ann", amount=5)


def test_house_rule_decliner_may_not_bid() -> None:
    t = Table(decliner_may_bid=False)
    t.do("auction", property="boardwalk", declined_by="Ann")
    t.fails("decliner_may_not_bid", "bid", player="Ann", amount=10)
    t.do("bid", player="Bob", amount=1)
    t.do("auction_close")
    assert t.prop("boardwalk")["owner"] == "Bob"


def test_bid_of_a_player_in_debt_is_refused(table: Table) -> None:
    table.do("pay", player="Ann", amount=1600, to="Bob")
    table.do("auction", property="boardwalk")
    table.fails("in_debt", "bid", player="Ann", amount=5)


def test_building_shortage_auction_starts_at_the_printed_price() -> None:
    t = Table(("Ann", "Bob"), houses=1)
    t.do("collect", player="Ann", amount=1000)
    t.give("Ann", "park_place", "boardwalk")
    t.give("Bob", "mediterranean", "baltic")
    t.do("building_auction", building="house")
    t.fails("bid_below_price", "bid", player="Bob", amount=40, property="baltic")
    t.fails("bid_needs_property", "bid", player="Bob", amount=60)
    t.do("bid", player="Bob", amount=60, property="baltic")
    t.do("bid", player="Ann", amount=210, property="boardwalk")
    t.do("bid", player="Bob", amount=250, property="baltic")
    t.do("auction_close")
    assert t.prop("baltic")["houses"] == 1 and t.state.bank_houses == 0
    assert t.cash("Bob") == 1500 - 120 - 250


def test_a_building_auction_only_in_a_shortage() -> None:
    # §6.6: the bank auctions buildings when two or more players want more than it has.
    t = Table(("Ann", "Bob", "Cy"))
    t.give("Ann", "mediterranean", "baltic")
    t.give("Bob", "oriental", "vermont", "connecticut")
    error = t.fails("no_house_shortage", "building_auction", building="house")
    assert (error.params["left"], error.params["wanted"]) == (32, 8 + 12)
    assert "no shortage to auction" in str(error)
    t.fails("no_hotel_rivals", "building_auction", building="hotel")
    t.give("Cy", "st_charles", "states", "virginia")
    t.fails("no_house_shortage", "building_auction", building="house")  # 8 + 12 + 12 = 32: just enough
    t.give("Cy", "st_james", "tennessee", "new_york")
    t.do("building_auction", building="house")  # 32 + 12 = 44 wanted, 32 in the bank
    assert t.state.auction is not None and t.state.auction.building == "house"


def test_a_building_auction_needs_two_rivals_who_may_build() -> None:
    t = Table(houses=2)
    t.give("Ann", "mediterranean", "baltic")
    t.fails("no_house_rivals", "building_auction", building="house")
    t.give("Bob", "oriental", "vermont", "connecticut")
    t.do("mortgage", player="Bob", property="oriental")  # a mortgaged group takes no houses (§6.1)
    t.fails("no_house_rivals", "building_auction", building="house")
    t.do("unmortgage", player="Bob", property="oriental")
    t.do("building_auction", building="house")


def test_a_hotel_auction_counts_the_streets_ready_for_a_hotel() -> None:
    t = Table(hotels=1)
    t.give("Ann", "mediterranean", "baltic")
    t.give("Bob", "oriental", "vermont", "connecticut")
    for street in ("mediterranean", "baltic") * 4:
        t.do("build", player="Ann", property=street)
    t.fails("no_hotel_rivals", "building_auction", building="hotel")  # Bob's streets need their houses first
    for street in ("oriental", "vermont", "connecticut") * 3:
        t.do("build", player="Bob", property=street)
    t.fails("no_hotel_rivals", "building_auction", building="hotel")
    t.do("build", player="Bob", property="oriental")  # one street of Bob's with all 4 houses: 2 + 1 > 1
    t.do("building_auction", building="hotel")


def test_the_building_auction_offer_says_why_not_until_a_shortage() -> None:
    from banker import offer as offering

    t = Table(houses=3)
    t.give("Ann", "mediterranean", "baltic")
    house, hotel = offering.building_auction_offers(t.state)
    assert house.refusal is not None and house.refusal.key == "no_house_rivals"
    assert hotel.refusal is not None and hotel.refusal.key == "no_hotel_rivals"
    t.give("Bob", "oriental", "vermont", "connecticut")
    house, hotel = offering.building_auction_offers(t.state)
    assert house.allowed and hotel.refused
    assert house.action is not None and house.action.to_json() == {"action": "building_auction", "building": "house"}


def test_no_building_auction_without_stock() -> None:
    t = Table(hotels=0)
    t.fails("no_hotels_left", "building_auction", building="hotel")
    t.fails("bad_building", "building_auction", building="castle")


def test_receiving_a_mortgaged_deed_asks_for_the_ten_percent_decision(table: Table) -> None:
    table.give("Ann", "boardwalk", "park_place")
    table.do("mortgage", player="Ann", property="boardwalk")
    table.do("mortgage", player="Ann", property="park_place")
    table.do("trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["boardwalk", "park_place"]},
                         "take": {"cash": 300}})
    assert [d["property"] for d in table.json()["decisions"]] == ["park_place", "boardwalk"]
    table.fails("decision_pending", "salary", player="Bob")
    table.do("keep_mortgaged", player="Bob", property="boardwalk")
    assert table.cash("Bob") == 1500 - 300 - 20
    table.do("unmortgage", player="Bob", property="park_place")
    assert table.cash("Bob") == 1500 - 300 - 20 - 193  # value + 10 % only, never both
    assert table.json()["decisions"] == []
    table.fails("no_decision", "keep_mortgaged", player="Bob", property="boardwalk")
    table.do("unmortgage", player="Bob", property="boardwalk")
    assert table.cash("Bob") == 1500 - 300 - 20 - 193 - 220
