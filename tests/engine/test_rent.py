"""Rent (§4) with the printed numbers of the US board."""

from __future__ import annotations

import pytest

from tests.conftest import Table


def test_base_rent_and_double_rent_for_the_whole_group(table: Table) -> None:
    table.give("Ann", "baltic")
    table.do("rent", player="Bob", property="baltic")
    assert table.cash("Bob") == 1496
    table.give("Ann", "mediterranean")
    table.do("rent", player="Bob", property="baltic")
    table.do("rent", player="Bob", property="mediterranean")
    assert table.cash("Bob") == 1496 - 8 - 4


@pytest.mark.parametrize(("houses", "rent"), [(1, 90), (2, 250), (3, 700), (4, 875), (5, 1050)])
def test_kentucky_rent_by_buildings(houses: int, rent: int) -> None:
    t = Table()
    t.give("Ann", "kentucky", "indiana", "illinois")
    t.do("collect", player="Ann", amount=5000)
    for _ in range(houses):
        for street in ("kentucky", "indiana", "illinois"):
            t.do("build", player="Ann", property=street)
    t.do("rent", player="Bob", property="kentucky")
    assert t.cash("Bob") == 1500 - rent


def test_unimproved_street_doubles_while_another_has_houses(table: Table) -> None:
    table.give("Ann", "oriental", "vermont", "connecticut")
    table.do("build", player="Ann", property="oriental")
    table.do("rent", player="Bob", property="vermont")
    assert table.cash("Bob") == 1500 - 12


def test_railroads_25_50_100_200_mortgaged_ones_still_count(table: Table) -> None:
    railroads = ["reading_railroad", "pennsylvania_railroad", "b_and_o_railroad", "short_line"]
    expected = [25, 50, 100, 200]
    for railroad, rent in zip(railroads, expected, strict=True):
        table.give("Ann", railroad)
        before = table.cash("Bob")
        table.do("rent", player="Bob", property="reading_railroad")
        assert before - table.cash("Bob") == rent
    table.do("mortgage", player="Ann", property="short_line")
    before = table.cash("Bob")
    table.do("rent", player="Bob", property="reading_railroad")
    assert before - table.cash("Bob") == 200


def test_utilities_4_or_10_times_the_dice(table: Table) -> None:
    table.give("Ann", "electric_company")
    table.fails("dice_needed", "rent", player="Bob", property="electric_company")
    table.fails("bad_dice", "rent", player="Bob", property="electric_company", dice=13)
    table.do("rent", player="Bob", property="electric_company", dice=7)
    assert table.cash("Bob") == 1500 - 28
    table.give("Ann", "water_works")
    table.do("rent", player="Bob", property="electric_company", dice=7)
    assert table.cash("Bob") == 1500 - 28 - 70


def test_card_rents_twice_railroad_and_ten_times_utility(table: Table) -> None:
    table.give("Ann", "reading_railroad", "short_line", "electric_company")
    table.do("rent", player="Bob", property="short_line", card="nearest_railroad")
    assert table.cash("Bob") == 1500 - 100
    table.do("rent", player="Bob", property="electric_company", dice=5, card="nearest_utility")
    assert table.cash("Bob") == 1500 - 100 - 50
    table.fails("rent_card_mismatch", "rent", player="Bob", property="short_line", card="nearest_utility")
    table.fails("bad_rent_card", "rent", player="Bob", property="short_line", card="triple")


def test_mortgaged_property_charges_nothing_and_says_why(table: Table) -> None:
    table.give("Ann", "boardwalk")
    table.do("mortgage", player="Ann", property="boardwalk")
    events = table.do("rent", player="Bob", property="boardwalk")
    assert [(e.kind, e.params["basis"]) for e in events] == [("no_rent", "mortgaged")]
    assert table.cash("Bob") == 1500


def test_rent_refused_on_own_and_unowned_property(table: Table) -> None:
    table.give("Ann", "boardwalk")
    table.fails("rent_own", "rent", player="Ann", property="boardwalk")
    table.fails("rent_unowned", "rent", player="Ann", property="park_place")
    table.fails("unknown_property_suggest", "rent", player="Ann", property="park_lane")
    table.fails("unknown_property", "rent", player="Ann", property="nowhere")


def test_double_rent_with_a_mortgaged_member_depends_on_the_edition() -> None:
    us = Table()
    us.give("Ann", "oriental", "vermont", "connecticut")
    us.do("mortgage", player="Ann", property="connecticut")
    us.do("rent", player="Bob", property="oriental")
    assert us.cash("Bob") == 1500 - 12  # US: still double
    uk = Table(edition="uk")
    uk.give("Ann", "the_angel_islington", "euston_road", "pentonville_road")
    uk.do("mortgage", player="Ann", property="pentonville_road")
    uk.do("rent", player="Bob", property="the_angel_islington")
    assert uk.cash("Bob") == 1500 - 6  # UK/RU: no double rent
    ru_rule = Table(edition="ru", double_rent_with_mortgage=True)
    ru_rule.give("Ann", "zhitnaya", "nagatinskaya")
    ru_rule.do("mortgage", player="Ann", property="zhitnaya")
    ru_rule.do("rent", player="Bob", property="nagatinskaya")
    assert ru_rule.cash("Bob") == 1500 - 8


def test_a_player_in_jail_still_collects_rent(table: Table) -> None:
    table.give("Ann", "park_place")
    table.do("go_to_jail", player="Ann")
    table.do("rent", player="Bob", property="park_place")
    assert table.cash("Ann") == 1500 - 350 + 35


def test_short_game_hotel_after_three_houses_charges_hotel_rent() -> None:
    t = Table(short_game=True, deal_deeds=0)
    t.give("Ann", "park_place", "boardwalk")
    t.do("collect", player="Ann", amount=3000)
    for _ in range(4):
        t.do("build", player="Ann", property="park_place")
        t.do("build", player="Ann", property="boardwalk")
    assert t.prop("boardwalk") == {"owner": "Ann", "houses": 0, "hotel": True, "mortgaged": False}
    assert t.json()["bank"]["houses"] == 32
    t.do("rent", player="Bob", property="boardwalk")
    assert t.cash("Bob") == 1500  # more than his cash: a debt, nothing moves
    assert t.json()["debts"] == [{"debtor": "Bob", "creditor": "Ann", "amount": 2000, "reason": "rent"}]
