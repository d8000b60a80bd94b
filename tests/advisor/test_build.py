import pytest

from banker.advisor.build import Holdings, best_build, build_options
from banker.advisor.markov import landing_distribution
from banker.edition import load_edition

US = load_edition("us")
LANDING = landing_distribution(US)
ST_JAMES, TENNESSEE, NEW_YORK = (US.property(d).number for d in ("st_james", "tennessee", "new_york"))


def orange(levels, cash=5000, **kwargs):
    holdings = Holdings(dict(zip((ST_JAMES, TENNESSEE, NEW_YORK), levels, strict=True)), cash,
                        kwargs.pop("mortgaged", frozenset()))
    return build_options(US, LANDING, holdings, **kwargs)


def test_building_evenly_leaves_one_choice():
    options = orange((1, 1, 0))
    assert [(o.deed.id, o.building, o.level) for o in options] == [("new_york", "house", 1)]


def test_options_are_ranked_by_payback():
    options = orange((2, 2, 2))
    # The same price, so the biggest rent increase times landing share comes first:
    # New York 380 x 3.09%, Tennessee 350 x 2.94%, St. James 350 x 2.79%.
    assert [o.deed.id for o in options] == ["new_york", "tennessee", "st_james"]
    assert options[0].gain_per_throw == pytest.approx(380 * LANDING.cells[19])
    assert options[0].payback_throws == pytest.approx(100 / (380 * LANDING.cells[19]))


def test_hotel_after_the_last_house():
    assert {o.building for o in orange((4, 4, 4))} == {"hotel"}
    assert {(o.building, o.level) for o in orange((3, 3, 3), max_houses=3)} == {("hotel", 4)}
    assert orange((5, 5, 5)) == []
    assert orange((4, 4, 4), bank_hotels=0) == []
    assert orange((2, 2, 2), bank_houses=0) == []


def test_no_building_without_the_whole_unmortgaged_group():
    assert build_options(US, LANDING, Holdings({ST_JAMES: 0, TENNESSEE: 0}, 5000)) == []
    assert orange((0, 0, 0), mortgaged=frozenset({ST_JAMES})) == []


def test_cash_decides_what_is_affordable():
    assert best_build(US, LANDING, Holdings({ST_JAMES: 2, TENNESSEE: 2, NEW_YORK: 2}, 99)) is None
    assert all(not o.affordable for o in orange((2, 2, 2), cash=99))
    best = best_build(US, LANDING, Holdings({ST_JAMES: 2, TENNESSEE: 2, NEW_YORK: 2}, 100))
    assert best is not None and best.deed.id == "new_york" and best.cost == 100


def test_cheap_fast_group_beats_dear_slow_one():
    # Light blue at 2 houses (third house next: ~12 throws) against dark blue at 4 (hotel next: ~33).
    numbers = {US.property(d).number: 2 for d in ("oriental", "vermont", "connecticut")}
    numbers |= {US.property(d).number: 4 for d in ("park_place", "boardwalk")}
    options = build_options(US, LANDING, Holdings(numbers, 10_000))
    assert options[0].deed.group == "light_blue"
    assert options[-1].deed.group == "dark_blue"
