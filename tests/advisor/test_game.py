from dataclasses import replace

import pytest

from banker.actions import Build, Buy, Mortgage, NewGame, Pay, Rent
from banker.advisor.game import advise_build, advise_builds, holdings_of, income_per_throw
from banker.advisor.markov import MoveRules, landing_distribution
from banker.deeds import rent_for
from banker.edition import load_edition
from banker.engine import apply, new_game
from banker.errors import UnknownName

ORANGE = ("st_james", "tennessee", "new_york")


def game(edition="us", actions=(), rules=None):
    state, _ = new_game(NewGame(edition=edition, players=("Ann", "Bob"), rules=rules or {}))
    for action in actions:
        state, _ = apply(state, action)
    return state


def buy_orange(player="Ann", edition="us"):
    deeds = [load_edition(edition).properties[n].id for n in load_edition(edition).groups["orange"]]
    return [Buy(player=player, property=deed) for deed in deeds]


def test_what_to_build_after_one_house():
    state = game(actions=[*buy_orange(), Build(player="Ann", property="new_york")])
    options = advise_builds(state, "Ann")
    # Even building leaves St. James and Tennessee; both add 70 - 2 x 14 a landing, and Tennessee is
    # landed on more often.
    assert [o.deed.id for o in options] == ["tennessee", "st_james"]
    best = advise_build(state, "Ann")
    assert best is not None and best.deed.id == "tennessee" and best.building == "house"
    assert advise_builds(state, 0) == options


def test_holdings_follow_the_state():
    state = game(actions=[*buy_orange(), Build(player="Ann", property="new_york")])
    holdings = holdings_of(state, "Ann")
    numbers = {state.edition.property(d).number: d for d in ORANGE}
    assert {numbers[n]: level for n, level in holdings.levels.items()} == {
        "st_james": 0, "tennessee": 0, "new_york": 1}
    assert holdings.cash == 1500 - 180 - 180 - 200 - 100


def test_short_game_offers_the_hotel_after_three_houses():
    builds = [Build(player="Ann", property=d) for _ in range(3) for d in ORANGE]
    state = game(actions=[*buy_orange(), *builds], rules={"short_game": True, "starting_cash": 5000})
    options = advise_builds(state, "Ann")
    assert {(o.building, o.level) for o in options} == {("hotel", 4)}


def test_players_without_a_group_or_money_get_no_advice():
    state = game(actions=buy_orange())
    assert advise_builds(state, "Bob") == []
    assert advise_build(state, "Bob") is None
    broke = replace(state, players=(replace(state.players[0], cash=50), state.players[1]))
    assert advise_build(broke, "Ann") is None
    assert len(advise_builds(broke, "Ann")) == 3
    gone = replace(state, players=(replace(state.players[0], bankrupt=True), state.players[1]))
    assert advise_builds(gone, "Ann") == []


def test_unknown_players_are_named():
    state = game()
    for player in ("Zed", 2, -1):
        with pytest.raises(UnknownName) as caught:
            advise_builds(state, player)
        assert caught.value.key == "advisor_unknown_player"
        assert "Ann, Bob" in str(caught.value.params["players"])


@pytest.mark.parametrize("edition", ["us", "ru"])
def test_income_uses_the_engines_rents(edition):
    # US: the other streets of a group keep double rent while one is mortgaged; RU: they do not.
    orange = buy_orange(edition=edition)
    state = game(edition, [*orange, Buy(player="Ann", property=_railroad(edition)),
                           Mortgage(player="Ann", property=orange[0].property)])
    landing = landing_distribution(state.edition, MoveRules(jail="long"))
    expected = 0.0
    for deed in state.edition.properties:
        if state.props[deed.number].owner == 0 and deed.kind == "street":
            rent, _ = rent_for(state.edition, state.rules, state.props, deed)
            expected += landing.cells[deed.square] * rent
    railroad = state.edition.property(_railroad(edition))
    expected += 25 * (landing.cells[railroad.square] + landing.nearest_card[railroad.square])
    assert income_per_throw(state, "Ann", rules=MoveRules(jail="long")) == pytest.approx(expected)


def _railroad(edition):
    return next(p.id for p in load_edition(edition).properties if p.kind == "railroad")


def test_what_to_build_is_what_the_engine_offers():
    # Ann has the oranges and $150 left, and owes Bob $200 of rent: she may not build until she pays.
    state = game(actions=[*buy_orange(), Buy(player="Bob", property="park_place"),
                          Buy(player="Bob", property="boardwalk"), Build(player="Bob", property="boardwalk"),
                          Pay(player="Ann", amount=1500 - 560 - 150, to="bank"),
                          Rent(player="Ann", property="boardwalk")])
    assert state.players[0].cash == 150 and state.debts
    assert advise_builds(state, "Ann") == [] and advise_build(state, "Ann") is None
    assert advise_build(game(actions=buy_orange()), "Ann") is not None  # without the debt: a house
