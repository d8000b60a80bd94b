"""Houses and hotels (§6)."""

from __future__ import annotations

from tests.conftest import Table


def rich(*deeds: str, **rules: object) -> Table:
    t = Table(**rules)
    t.do("collect", player="Ann", amount=20000)
    t.give("Ann", *deeds)
    return t


def test_building_needs_the_whole_group_unmortgaged(table: Table) -> None:
    table.give("Ann", "baltic")
    table.fails("build_needs_group", "build", player="Ann", property="baltic")
    table.give("Bob", "mediterranean")
    err = table.fails("build_needs_group", "build", player="Ann", property="baltic")
    assert "Mediterranean Avenue belongs to Bob" in str(err)
    table.do("trade", **{"from": "Bob", "to": "Ann", "give": {"properties": ["mediterranean"]}})
    table.do("mortgage", player="Ann", property="mediterranean")
    err = table.fails("build_group_mortgaged", "build", player="Ann", property="baltic")
    assert str(err) == "Ann cannot build on Baltic Avenue: Mediterranean Avenue is mortgaged. Lift the mortgage first."


def test_railroads_take_no_houses(table: Table) -> None:
    table.give("Ann", "reading_railroad")
    table.fails("not_a_street", "build", player="Ann", property="reading_railroad")


def test_build_evenly_and_sell_evenly() -> None:
    t = rich("oriental", "vermont", "connecticut")
    t.do("build", player="Ann", property="oriental")
    t.fails("build_evenly", "build", player="Ann", property="oriental")
    t.do("build", player="Ann", property="vermont")
    t.do("build", player="Ann", property="connecticut")
    t.do("build", player="Ann", property="connecticut")
    t.fails("sell_evenly", "sell_building", player="Ann", property="oriental")
    t.do("sell_building", player="Ann", property="connecticut")
    assert [t.prop(p)["houses"] for p in ("oriental", "vermont", "connecticut")] == [1, 1, 1]


def test_house_prices_and_half_back_on_sale() -> None:
    t = rich("park_place", "boardwalk")
    cash = t.cash("Ann")
    t.do("build", player="Ann", property="park_place")
    assert cash - t.cash("Ann") == 200
    t.do("sell_building", player="Ann", property="park_place")
    assert cash - t.cash("Ann") == 100


def test_hotel_replaces_four_houses_which_return_to_the_bank() -> None:
    t = rich("mediterranean", "baltic")
    for _ in range(4):
        t.do("build", player="Ann", property="mediterranean")
        t.do("build", player="Ann", property="baltic")
    assert t.json()["bank"] == {"houses": 24, "hotels": 12, "balance": t.state.bank}
    cash = t.cash("Ann")
    t.do("build", player="Ann", property="baltic")
    assert cash - t.cash("Ann") == 50
    assert t.prop("baltic") == {"owner": "Ann", "houses": 0, "hotel": True, "mortgaged": False}
    assert (t.state.bank_houses, t.state.bank_hotels) == (28, 11)
    t.fails("build_has_hotel", "build", player="Ann", property="baltic")
    t.do("build", player="Ann", property="mediterranean")
    t.fails("build_has_hotel", "build", player="Ann", property="baltic")


def test_selling_a_hotel_gives_half_and_brings_back_four_houses() -> None:
    t = rich("mediterranean", "baltic")
    for _ in range(5):
        t.do("build", player="Ann", property="mediterranean")
        t.do("build", player="Ann", property="baltic")
    cash = t.cash("Ann")
    t.do("sell_building", player="Ann", property="baltic")
    assert t.cash("Ann") - cash == 25
    assert t.prop("baltic")["houses"] == 4
    assert (t.state.bank_houses, t.state.bank_hotels) == (28, 11)


def test_the_bank_has_32_houses_then_buyers_wait() -> None:
    t = rich("pacific", "north_carolina", "pennsylvania", "park_place", "boardwalk",
             "st_james", "tennessee", "new_york")
    for _ in range(4):
        for street in ("pacific", "north_carolina", "pennsylvania", "park_place", "boardwalk",
                       "st_james", "tennessee", "new_york"):
            t.do("build", player="Ann", property=street)
    assert t.state.bank_houses == 0
    t.give("Ann", "mediterranean", "baltic")
    err = t.fails("no_houses_left", "build", player="Ann", property="baltic")
    assert "wait" in str(err)
    # A hotel frees four houses.
    t.do("build", player="Ann", property="boardwalk")
    assert t.state.bank_houses == 4
    t.do("build", player="Ann", property="baltic")


def test_hotel_stock_of_12() -> None:
    groups = [("pacific", "north_carolina", "pennsylvania"), ("kentucky", "indiana", "illinois"),
              ("atlantic", "ventnor", "marvin_gardens"), ("st_james", "tennessee", "new_york"),
              ("st_charles", "states", "virginia")]
    t = rich(*[s for g in groups for s in g])
    for group in groups[:4]:
        for _ in range(5):
            for street in group:
                t.do("build", player="Ann", property=street)
    assert t.state.bank_hotels == 0
    for _ in range(4):
        for street in groups[4]:
            t.do("build", player="Ann", property=street)
    t.fails("no_hotels_left", "build", player="Ann", property="virginia")


GREEN = ("pacific", "north_carolina", "pennsylvania")
RED = ("kentucky", "indiana", "illinois")
ORANGE = ("st_james", "tennessee", "new_york")


def build_round(t: Table, streets: tuple[str, ...], times: int = 1) -> None:
    for _ in range(times):
        for street in streets:
            t.do("build", player="Ann", property=street)


def test_hotel_breakdown_needs_houses_the_bank_may_not_have() -> None:
    t = rich("mediterranean", "baltic", *GREEN, *RED, *ORANGE)
    build_round(t, ("mediterranean", "baltic"), 5)
    build_round(t, GREEN, 4)
    build_round(t, RED, 4)
    build_round(t, ORANGE, 2)
    build_round(t, ("st_james", "tennessee"))
    assert t.state.bank_houses == 0
    err = t.fails("hotel_breakdown_short", "sell_building", player="Ann", property="baltic")
    assert "sell every building of the group" in str(err)
    cash = t.cash("Ann")
    t.do("sell_all_buildings", player="Ann", property="baltic")
    assert t.cash("Ann") - cash == 2 * 5 * 25  # two hotels, each half of hotel + 4 houses
    assert (t.state.bank_houses, t.state.bank_hotels) == (0, 12)
    assert t.prop("baltic") == t.prop("mediterranean") == {
        "owner": "Ann", "houses": 0, "hotel": False, "mortgaged": False}


def test_hotel_comes_down_to_the_houses_the_bank_has_when_that_stays_even() -> None:
    t = rich("mediterranean", "baltic", *GREEN, *RED, *ORANGE)
    build_round(t, ("mediterranean", "baltic"), 5)
    t.do("sell_building", player="Ann", property="mediterranean")  # 4 houses, bank 28
    build_round(t, GREEN, 4)
    build_round(t, RED, 4)
    t.do("build", player="Ann", property="st_james")
    assert t.state.bank_houses == 3
    cash = t.cash("Ann")
    t.do("sell_building", player="Ann", property="baltic")
    assert t.prop("baltic") == {"owner": "Ann", "houses": 3, "hotel": False, "mortgaged": False}
    assert t.cash("Ann") - cash == 2 * 25  # the hotel, and the fourth house the bank could not supply
    assert (t.state.bank_houses, t.state.bank_hotels) == (0, 12)


def test_buildings_can_be_bought_any_time_but_not_while_in_debt(table: Table) -> None:
    table.give("Ann", "mediterranean", "baltic")
    table.give("Bob", "boardwalk")
    table.do("pay", player="Ann", amount=2000, to="Bob")
    table.fails("in_debt", "build", player="Ann", property="baltic")
