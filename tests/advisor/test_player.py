"""One player's advice from a game in progress, and the table's line for the owner's menu."""

import math
from dataclasses import replace

import pytest

from banker.actions import Build, Buy, Mortgage, NewGame, Pay, StartAuction
from banker.advisor.export import player_json, tables_json
from banker.advisor.markov import landing_distribution
from banker.advisor.offers import purchases
from banker.advisor.player import next_building_line, player_advice
from banker.advisor.report import build_report
from banker.advisor.tables import Assumptions, figures_key
from banker.edition import load_edition
from banker.engine import apply, new_game
from banker.messages import render
from banker.rules import Rules

ORANGE = ("st_james", "tennessee", "new_york")


def game(actions=(), rules=None, players=("Ann", "Bob", "Cy")):
    state, _ = new_game(NewGame(edition="us", players=players, rules=rules or {}))
    for action in actions:
        state, _ = apply(state, action)
    return state


def report(state):
    assumptions = Assumptions.of(state.rules)
    return build_report(state.edition, assumptions.move, max_houses=assumptions.max_houses)


def orange(advice):
    return next(g for g in advice.groups if g.group == "orange")


def test_rounds_are_the_opponents_throws():
    state = game([Buy("Ann", d) for d in ORANGE])
    figures = report(state)
    advice = player_advice(state, 0, figures)
    assert advice.opponents == 2
    assert advice.throws_per_round == pytest.approx(2 * figures.landing.throws_per_turn)
    third = next(s for s in orange(advice).steps if s.level == 3)
    assert third.payback_throws == pytest.approx(9.44, abs=0.01)
    assert orange(advice).status == "complete" and orange(advice).level == 0
    # With one opponent a round is that opponent's turn.
    two = game([Buy("Ann", d) for d in ORANGE], players=("Ann", "Bob"))
    assert player_advice(two, 0, figures).throws_per_round == pytest.approx(figures.landing.throws_per_turn)


def test_the_next_building_is_on_the_lowest_streets_and_the_engine_says_if_it_can_be_bought():
    state = game([*(Buy("Ann", d) for d in ORANGE), Build("Ann", "new_york")])
    advice = player_advice(state, 0, report(state))
    group = orange(advice)
    assert group.next is not None and group.next.purchase.deed.id == "tennessee"
    assert group.next.purchase.possible and group.next.cost == 100
    new_york = advice.deed("new_york")
    assert new_york is not None and new_york.next is not None
    assert new_york.next.purchase.refusal is not None and new_york.next.purchase.refusal.key == "build_evenly"
    assert advice.best == group.next
    # The gain is the street's own: its rent with one house more, times how often it is landed on.
    landing = report(state).landing
    tennessee = state.edition.property("tennessee")
    assert group.next.gain_per_throw == pytest.approx(landing.cells[tennessee.square] * (70 - 2 * 14))


def test_a_mortgage_to_lift_comes_before_building():
    state = game([*(Buy("Ann", d) for d in ORANGE), Mortgage("Ann", "st_james")])
    advice = player_advice(state, 0, report(state))
    group = orange(advice)
    assert group.next is not None and group.next.purchase.kind == "unmortgage"
    assert group.next.cost == 99  # 90 + 10 %, the engine's amount
    st_james = advice.deed("st_james")
    assert st_james is not None and st_james.rent == 0 and st_james.rent_per_throw == 0
    assert [v.purchase.kind for v in [advice.best] if v] == ["unmortgage"]


def test_a_blocked_group_has_no_next_purchase():
    state = game([Buy("Ann", "st_james"), Buy("Bob", "tennessee")])
    group = orange(player_advice(state, 0, report(state)))
    assert group.status == "blocked" and group.next is None and group.level == -1


def test_nothing_is_bought_during_an_auction_but_the_deed_is_valued():
    state = game([*(Buy("Ann", d) for d in ORANGE), StartAuction("boardwalk", declined_by="Bob")])
    advice = player_advice(state, 0, report(state))
    assert advice.best is None
    assert orange(advice).next is not None and not orange(advice).next.purchase.possible
    assert advice.auction is not None and advice.auction.deed.id == "boardwalk"
    assert advice.auction.payback_throws(400) == pytest.approx(400 / advice.auction.gain_per_throw)


def test_purchases_leave_the_state_as_it_was():
    state = game([Buy("Ann", d) for d in ORANGE])
    before = state
    found = purchases(state, 0)
    assert state == before
    kinds = {(p.kind, p.deed.id) for p in found}
    assert ("build", "new_york") in kinds and ("buy", "boardwalk") in kinds
    assert all(p.possible for p in found if p.kind == "build")
    poor = game([*(Buy("Ann", d) for d in ORANGE), Pay("Ann", 900, "bank")])
    refused = [p for p in purchases(poor, 0) if p.kind == "build"]
    assert refused and all(p.refusal is not None and p.refusal.key == "not_enough_cash" for p in refused)


def test_the_owners_menu_line():
    state = game([*(Buy("Ann", d) for d in ORANGE), *(Build("Ann", d) for _ in range(2) for d in ORANGE)])
    new_york = state.edition.property("new_york")
    line = next_building_line(state, 0, new_york)
    assert line is not None
    key, params = line
    landing = landing_distribution(state.edition)
    throws = 100 / (landing.cells[new_york.square] * (600 - 220))
    assert key == "advisor_next_house" and params == {"count": math.floor(throws + 0.5)}
    assert render(key, params, "en") == f"Next house pays back in {params['count']} throws"
    assert render(key, {"count": 1}, "en") == "Next house pays back in 1 throw"
    assert render(key, {"count": 9}, "ru") == "Новый дом окупится за 9 бросков"
    assert render(key, {"count": 3}, "ru") == "Новый дом окупится за 3 броска"
    # No line: another player's group, a group not whole, a hotel, a game without advice.
    assert next_building_line(state, 1, new_york) is None
    assert next_building_line(game([Buy("Ann", "new_york")]), 0, new_york) is None
    rich = {"starting_cash": 5000}
    hotels = game([*(Buy("Ann", d) for d in ORANGE), *(Build("Ann", d) for _ in range(5) for d in ORANGE)], rich)
    assert next_building_line(hotels, 0, new_york) is None
    fourth = game([*(Buy("Ann", d) for d in ORANGE), *(Build("Ann", d) for _ in range(4) for d in ORANGE)], rich)
    assert next_building_line(fourth, 0, new_york)[0] == "advisor_next_hotel"
    quiet = replace(state, rules=replace(state.rules, advice=False))
    assert next_building_line(quiet, 0, new_york) is None


def test_the_json_has_the_tables_and_the_player():
    state = game([Buy("Ann", d) for d in ORANGE])
    figures = report(state)
    assumptions = Assumptions.of(state.rules)
    tables = tables_json(figures, assumptions)
    assert sum(row["share"] for row in tables["landing"]) == pytest.approx(1.0, abs=1e-12)
    assert len(tables["landing"]) == 41
    assert [row["payback_throws"] for row in tables["payback"] if row["group"] == "utility"] == pytest.approx(
        [175.89, 51.29], abs=0.01)
    player = player_json(state, player_advice(state, 0, figures), "ru")
    assert player["name"] == "Ann" and player["cash"] == 1500 - 560
    for_sale = {row["property"] for row in player["for_sale"]}
    assert "boardwalk" in for_sale and not for_sale & set(ORANGE)


def test_the_figures_key_tells_the_rules_apart():
    us = load_edition("us")
    short, long = Assumptions.of(Rules()), Assumptions.of(Rules(), jail="long")
    assert figures_key(us, short) == figures_key(load_edition("us"), Assumptions.of(Rules(starting_cash=9)))
    assert figures_key(us, short) != figures_key(us, long)
    assert figures_key(us, short) != figures_key(us, Assumptions.of(Rules(short_game=True)))
    assert figures_key(us, short) != figures_key(load_edition("ru"), short)
