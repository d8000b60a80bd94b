import math

import pytest

from banker.advisor.markov import MoveRules, landing_distribution
from banker.advisor.payback import Step, deed_payback, group_payback, payback_table, rent_per_throw
from banker.edition import load_edition

US = load_edition("us")
SHORT = landing_distribution(US, MoveRules(jail="short"))
LONG = landing_distribution(US, MoveRules(jail="long"))


def share(landing, deed_id):
    return landing.cells[US.property(deed_id).square]


def test_orange_houses_pay_back_as_the_article_says():
    # The article (seed 000, short stay): the third round of houses on the orange group pays back in
    # 9.5 opponent throws, the second in 25.63.
    orange = {step.level: step for step in group_payback(US, SHORT, "orange").steps}
    p16, p18, p19 = (share(SHORT, d) for d in ("st_james", "tennessee", "new_york"))
    third = (550 - 200) * p16 + (550 - 200) * p18 + (600 - 220) * p19
    second = (200 - 70) * p16 + (200 - 70) * p18 + (220 - 80) * p19
    assert orange[3].gain_per_throw == pytest.approx(third)
    assert orange[3].cost == 300
    assert orange[3].payback_throws == pytest.approx(9.5, abs=0.1)
    assert orange[2].gain_per_throw == pytest.approx(second)
    assert orange[2].payback_throws == pytest.approx(25.63, abs=0.2)


def test_the_third_house_is_the_sweet_spot():
    for landing in (SHORT, LONG):
        for group in payback_table(US, landing):
            if group.group in ("railroad", "utility"):
                continue
            fastest = min(group.steps, key=lambda s: s.payback_throws)
            if group.group == "brown":
                # The article: the cheapest group only pays once it has a hotel.
                assert fastest.kind == "hotel"
            else:
                assert (fastest.kind, fastest.level) == ("house", 3), group.group


def test_total_cost_to_reach_each_level():
    orange = group_payback(US, SHORT, "orange")
    assert [s.total_cost for s in orange.steps] == [560, 860, 1160, 1460, 1760, 2060]
    assert [s.kind for s in orange.steps] == ["deeds", "house", "house", "house", "house", "hotel"]
    short_game = group_payback(US, SHORT, "orange", max_houses=3)
    assert [s.total_cost for s in short_game.steps] == [560, 860, 1160, 1460, 1760]
    hotel = short_game.steps[-1]
    p16, p18, p19 = (share(SHORT, d) for d in ("st_james", "tennessee", "new_york"))
    assert hotel.gain_per_throw == pytest.approx((950 - 550) * p16 + (950 - 550) * p18 + (1000 - 600) * p19)


def test_group_steps_add_up_to_the_rent_at_each_level():
    for group in payback_table(US, LONG):
        assert sum(s.gain_per_throw for s in group.steps) == pytest.approx(group.steps[-1].rent_per_throw)
        assert all(s.gain_per_throw > 0 for s in group.steps)


def test_a_deed_alone_earns_half_of_the_same_deed_in_its_group():
    for deed in US.properties:
        if deed.kind != "street":
            continue
        row = deed_payback(US, SHORT, deed)
        assert row.alone.payback_throws == pytest.approx(2 * row.steps[0].payback_throws)
        assert row.alone.rent_per_throw == pytest.approx(row.share * deed.rent[0])


def test_railroads_pay_twice_from_a_nearest_railroad_card():
    railroads = [US.properties[n] for n in US.groups["railroad"]]
    four = group_payback(US, SHORT, "railroad").steps[-1]
    direct = sum(SHORT.cells[r.square] for r in railroads)
    by_card = sum(SHORT.nearest_card[r.square] for r in railroads)
    # The two US Chance cards send 2/16 of the Chance landings to a railroad.
    assert by_card > 0
    assert four.rent_per_throw == pytest.approx(200 * (direct + by_card))
    assert [s.total_cost for s in group_payback(US, SHORT, "railroad").steps] == [200, 400, 600, 800]
    uk = load_edition("uk")
    uk_landing = landing_distribution(uk)
    assert all(uk_landing.nearest_card[uk.properties[n].square] == 0 for n in uk.groups["railroad"])


def test_utility_rent_follows_the_dice_that_brought_the_token():
    uk = load_edition("uk")
    landing = landing_distribution(uk)
    for number in uk.groups["utility"]:
        deed = uk.properties[number]
        mean_throw = landing.dice_total[deed.square] / landing.cells[deed.square]
        assert 2 < mean_throw < 12
        assert rent_per_throw(landing, deed, 0, owned_in_group=2) == pytest.approx(
            10 * mean_throw * landing.cells[deed.square])


def test_a_step_that_adds_nothing_never_pays_back():
    assert math.isinf(Step("house", 1, 100, 100, 0.0, 0.0).payback_throws)
