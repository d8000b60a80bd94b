"""The engine's offers: every action open to a player, its exact preview or its refusal."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker import offer as offering
from banker.actions import (
    Action,
    Bid,
    Build,
    Buy,
    DrawCard,
    NewGame,
    Pay,
    Rent,
    SellBuilding,
    SellBuildings,
    StartAuction,
    Tax,
    Undo,
)
from banker.engine import apply
from banker.errors import BankerError
from banker.invariants import check_invariants
from banker.native import is_native
from banker.sim.cli import lineup
from banker.sim.game import Game
from banker.state import GameState
from banker.text import card_title, describe_event


def play(*actions: Action, players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **rules: object) -> GameState:
    state, _ = apply(None, NewGame("us", players, dict(rules)))
    for action in actions:
        state, _ = apply(state, action)
    return state


@cache
def selfplay_states(seed: int) -> tuple[GameState, ...]:
    """States met in one self-played game (every fifth action's, and the last)."""
    game = Game(seed, lineup(seed, 3))
    game.play(150)
    out: list[GameState] = []
    state: GameState | None = None
    for number, action in enumerate(game.log):
        state, _ = apply(state, action)
        if number % 5 == 0:
            out.append(state)
    assert state is not None
    return (*out, state)


def all_offers(state: GameState) -> list[offering.Offer]:
    found = list(offering.table_offers(state)) + offering.building_auction_offers(state)
    for seat, player in enumerate(state.players):
        if player.bankrupt:
            continue
        found += offering.player_offers(state, player.name)
        for square in ("go", "income_tax", "luxury_tax", "jail", "free_parking"):
            found += offering.square_offers(state, player.name, square)
        for prop in state.edition.properties:
            found += offering.deed_offers(state, player.name, prop.id)
        del seat
    return [o for offer in found for o in (offer, *offer.choices)]


def check_offer(state: GameState, offer: offering.Offer) -> None:
    """A complete offer says exactly what apply does: the same events, or the same refusal."""
    if not offer.complete:
        assert offer.needs, offer
        return
    assert offer.action is not None
    try:
        after, events = apply(state, offer.action)
    except BankerError as error:
        assert offer.refusal is not None and offer.refusal.key == error.key, (offer, error)
        assert offer.refusal.params == error.params
        return
    assert offer.refusal is None, (offer, offer.refusal)
    assert offer.events[:-1] == events and offer.events[-1].kind == "board"
    actor = offer.action.actor
    if actor:
        cash = {p.name: p.cash for p in state.players}
        assert offer.amount == after.players[after.seat(actor)].cash - cash[actor]
    check_invariants(after)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 40), pick=st.integers(0, 10_000))
def test_every_offer_in_self_play_is_what_apply_does(seed: int, pick: int) -> None:
    states = selfplay_states(seed)
    state = states[pick % len(states)]
    if state.ended:
        return
    for offer in all_offers(state):
        check_offer(state, offer)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 40), pick=st.integers(0, 10_000))
def test_legal_actions_are_the_allowed_offers_and_all_apply(seed: int, pick: int) -> None:
    states = selfplay_states(seed)
    state = states[pick % len(states)]
    legal = offering.legal_actions(state)
    allowed = {o.action.to_line() for o in all_offers(state) if o.allowed and o.action is not None}
    if not state.ended:
        assert {a.to_line() for a in legal} == allowed
    for action in legal:
        apply(state, action)  # never refused


def test_buy_offers_the_price_and_the_auction() -> None:
    state = play()
    buy, auction = offering.deed_offers(state, "Ann", "baltic")
    assert (buy.kind, buy.amount, buy.payments()) == ("buy", -60, [{"from": "Ann", "to": "bank", "amount": 60}])
    assert auction.kind == "auction" and auction.allowed


def test_a_buy_short_of_cash_is_refused_with_what_is_missing_and_the_ways_to_raise_it() -> None:
    state = play(Buy("Ann", "baltic"), Buy("Ann", "oriental"), Pay("Ann", 1300, "bank"))
    assert state.players[0].cash == 1500 - 60 - 100 - 1300
    buy = offering.deed_offers(state, "Ann", "boardwalk")[0]
    assert buy.refused and buy.refusal is not None and buy.refusal.key == offering.CASH_SHORT
    assert buy.amount == -400 and buy.short_by == 400 - 40
    ways = offering.raise_cash(state, "Ann", buy.short_by)
    # The two bare deeds are all there is: $30 + $50, not enough, both listed (smaller first)
    assert [(w.kind, w.action, w.amount) for w in ways] == [
        ("mortgage", offering.Mortgage("Ann", "baltic"), 30), ("mortgage", offering.Mortgage("Ann", "oriental"), 50)]


def test_raise_cash_stops_when_enough() -> None:
    state = play(Buy("Ann", "baltic"), Buy("Ann", "oriental"), Buy("Ann", "boardwalk"))
    ways = offering.raise_cash(state, "Ann", 40)
    assert [w.amount for w in ways] == [30, 50]  # 30 is not 40: the next one too
    assert [w.amount for w in offering.raise_cash(state, "Ann", 25)] == [30]


def test_a_utility_rent_needs_the_dice_and_names_the_multiplier() -> None:
    state = play(Buy("Bob", "electric_company"))
    rent = offering.deed_offers(state, "Ann", "electric_company")[0]
    assert rent.needs == ("dice",) and rent.figure("times") == 4
    done = offering.complete(state, rent, dice=9)
    assert done.allowed and done.amount == -36
    state = play(Buy("Bob", "electric_company"), Buy("Bob", "water_works"))
    assert offering.deed_offers(state, "Ann", "water_works")[0].figure("times") == 10
    facts = offering.deed_facts(state, "water_works")
    assert (facts.rent, facts.times, facts.basis) == (None, 10, "utilities_2")


def test_a_mortgaged_street_offers_build_refused_as_the_phone_does() -> None:
    state = play(Buy("Ann", "mediterranean"), Buy("Ann", "baltic"), offering.Mortgage("Ann", "baltic"))
    kinds = {o.kind: o for o in offering.deed_offers(state, "Ann", "baltic")}
    assert kinds["build_house"].refused and kinds["build_house"].amount == -50
    assert kinds["build_house"].refusal is not None and kinds["build_house"].refusal.key == "build_group_mortgaged"
    assert kinds["unmortgage"].allowed and kinds["unmortgage"].amount == -33


def test_the_shortage_break_down_is_offered_once_by_the_engine() -> None:
    actions: list[Action] = [Buy("Ann", "mediterranean"), Buy("Ann", "baltic")]
    actions += [Build("Ann", p) for p in ["mediterranean", "baltic"] * 4 + ["mediterranean"]]
    blue, orange = ("oriental", "vermont", "connecticut"), ("st_james", "tennessee", "new_york")
    pink = ("st_charles", "states", "virginia")
    actions += [Buy("Bob", p) for p in (*blue, *orange, *pink)]
    actions += [Build("Bob", p) for p in list(blue) * 4 + list(orange) * 4 + ["st_charles", "states"]]
    state = play(*actions, players=("Ann", "Bob"), starting_cash=20000)
    assert state.bank_houses == 2 and state.props[state.edition.property("mediterranean").number].hotel
    found = {o.kind: o for o in offering.deed_offers(state, "Ann", "mediterranean")}
    assert found["sell_hotel"].refused and found["sell_hotel"].refusal is not None
    assert found["sell_hotel"].refusal.key == "hotel_breakdown_short"
    down = found["sell_down"]
    assert down.allowed and isinstance(down.action, SellBuildings)
    # The most buildings the bank's 2 houses allow: 3 and 3 (2 levels off Mediterranean, 1 off Baltic).
    assert down.action.levels == {"mediterranean": 3, "baltic": 3} and down.amount == 75
    check_offer(state, down)
    # No break-down is offered where one step down works
    assert "sell_down" not in {o.kind for o in offering.deed_offers(play(*actions[:11], players=("Ann", "Bob"),
                                                                          starting_cash=20000), "Ann", "mediterranean")}


def test_a_card_asks_what_it_needs_from_the_engine() -> None:
    state = play()
    chance = state.edition.decks["chance"]
    advance = next(c for c in chance if c.kind == "advance" and c.to == 11)  # St. Charles Place
    offer = offering.card_offer(state, DrawCard("Ann", "chance", advance.id))
    assert offer.needs == ("passed_go",) and [c.kind for c in offer.choices] == ["card_passed_go",
                                                                                  "card_not_passed_go"]
    assert offer.choices[0].amount == 200 and offer.choices[1].amount == 0
    nearest = next(c for c in chance if c.kind == "nearest")
    where = offering.card_offer(state, DrawCard("Ann", "chance", nearest.id))
    assert where.needs == ("square",) and len(where.choices) == 3
    assert all(c.complete for c in where.choices)
    assert card_title(advance.text) == "Advance to St. Charles Place"


def test_squares_offer_the_house_rules() -> None:
    state = play(double_salary_on_go=True, income_tax_percent=10)
    assert [(o.kind, o.amount) for o in offering.square_offers(state, "Ann", "go")] == [
        ("salary", 200), ("salary_landed", 400)]
    assert [(o.kind, o.amount) for o in offering.square_offers(state, "Ann", "income_tax")] == [
        ("tax_flat", -200), ("tax_percent", -150)]
    assert offering.square_offers(play(), "Ann", "free_parking") == []
    jail = play(offering.GoToJail("Ann"))
    assert [o.kind for o in offering.square_offers(jail, "Ann", "jail")] == ["jail_fine", "leave_jail"]


def test_complete_fills_in_the_fields_and_previews() -> None:
    state = play(Buy("Bob", "baltic"))
    collect = next(o for o in offering.deed_offers(state, "Bob", "baltic") if o.kind == "collect_rent")
    assert collect.needs == ("payer",)
    done = offering.complete(state, collect, payer="Ann")
    assert done.action == Rent("Ann", "baltic") and done.allowed and done.amount == -4
    pay = next(o for o in offering.player_offers(state, "Ann") if o.kind == "transfer")
    assert pay.maximum == 1500
    half = offering.complete(state, pay, to="Bob")
    assert half.needs == ("amount",)
    assert offering.complete(state, half, amount=25).payments() == [{"from": "Ann", "to": "Bob", "amount": 25}]


def test_undo_says_what_was_undone_in_words_and_the_money_back() -> None:
    state = play(Buy("Ann", "baltic"))
    _, events = apply(state, Undo())
    assert describe_event(state.edition, events[0]) == "Undone: Ann buys Baltic Avenue; $60 back to Ann."
    rent = play(Buy("Ann", "baltic"), Rent("Bob", "baltic"))
    _, events = apply(rent, Undo())
    assert describe_event(rent.edition, events[0], "ru") == (
        "Отменено: Bob платит аренду за Baltic Avenue; Bob получает обратно $4, у игрока Ann забрано $4.")


def test_an_offer_is_data() -> None:
    state = play(Buy("Ann", "baltic"))
    line = offering.deed_offers(state, "Ann", "baltic")[-1].to_json(state)
    assert line["kind"] == "mortgage" and line["amount"] == 30
    assert line["label"] == "Ann mortgages Baltic Avenue"
    assert line["board"] == [{"move": "turn_over", "what": "baltic", "count": 1, "from": "unmortgaged",
                              "to": "mortgaged"}]


@pytest.mark.parametrize("tax", ["income_tax", "luxury_tax"])
def test_a_tax_offer_is_the_square_tax(tax: str) -> None:
    state = play()
    (offer,) = offering.square_offers(state, "Ann", tax)
    assert offer.action == Tax("Ann", tax) and offer.amount == -state.edition.square(tax).amount


def test_a_sell_building_offer_is_half_the_price() -> None:
    state = play(Buy("Ann", "mediterranean"), Buy("Ann", "baltic"), Build("Ann", "baltic"))
    sell = next(o for o in offering.deed_offers(state, "Ann", "baltic") if o.kind == "sell_house")
    assert sell.action == SellBuilding("Ann", "baltic") and sell.amount == 25


# --- previews are made when they are read, and held by whoever holds the offer ----------------------------
python_build_only = pytest.mark.skipif(is_native(), reason="counts the engine's calls by replacing a function")


@python_build_only
def test_an_offer_runs_the_engine_when_first_read_and_only_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state = play()
    calls: list[Action] = []

    def counted(before: GameState | None, action: Action) -> Any:
        calls.append(action)
        return apply(before, action)

    monkeypatch.setattr(offering, "apply", counted)
    buy, auction = offering.deed_offers(state, "Ann", "boardwalk")
    assert calls == []  # a menu of offers costs nothing until one is looked at
    assert buy.allowed and buy.amount == -400 and buy.price == -400
    assert calls == [Buy("Ann", "boardwalk")]
    after, events = buy.applied(state)  # taking the offer: the preview's result, not a second dry run
    assert calls == [Buy("Ann", "boardwalk")]
    assert (after, events) == apply(state, Buy("Ann", "boardwalk"))
    del auction


@python_build_only
def test_legality_works_out_no_board_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    import banker.board

    state = play(Buy("Ann", "baltic"), Buy("Bob", "mediterranean"))

    def no_board(*_args: object) -> None:
        raise AssertionError("the board moves were worked out")

    monkeypatch.setattr(banker.board, "board_event", no_board)
    assert len(offering.legal_actions(state)) > 100
    buy = offering.deed_offers(state, "Cy", "boardwalk")[0]
    assert buy.allowed and buy.amount == -400
    with pytest.raises(AssertionError, match="board moves"):
        _ = buy.events  # what the cardboard needs is worked out for a screen that shows it


def test_a_preview_is_made_for_whoever_asks_and_kept_by_nobody_else() -> None:
    state = play()
    first, second = offering.preview(state, Buy("Ann", "baltic")), offering.preview(state, Buy("Ann", "baltic"))
    assert first is not second and first == second
    assert first.events[0].kind == "bought" and first.events[-1].kind == "board"


def test_an_offer_is_a_dataclass_that_replace_copies() -> None:
    from dataclasses import replace

    state = play()
    buy = offering.deed_offers(state, "Ann", "baltic")[0]
    renamed = replace(buy, kind="purchase")
    assert (renamed.kind, renamed.amount, renamed.events) == ("purchase", -60, buy.events)
    assert replace(buy, amount=-1).amount == -1 and replace(buy, amount=-1).events == buy.events
    given = offering.Offer("pay_bank", Pay("Ann", 0, "bank"), needs=("amount",), minimum=1)
    assert (given.events, given.refusal, given.amount, given.short_by) == ((), None, 0, 0)
    if is_native():  # its fields are Final: mypy refuses an assignment, and the compiled build at run time
        with pytest.raises(AttributeError):
            buy.kind = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="not complete"):
        given.applied(state)


# --- the bid -------------------------------------------------------------------------------------------------
def test_the_bid_is_refused_to_a_decliner_the_house_rules_keep_out() -> None:
    state = play(StartAuction("boardwalk", declined_by="Ann"), decliner_may_bid=False)
    ann = offering.bid_offer(state, "Ann")
    assert ann.refusal is not None and ann.refusal.key == "decliner_may_not_bid" and not ann.needs
    bob = offering.bid_offer(state, "Bob")
    assert not bob.refused and (bob.needs, bob.minimum, bob.maximum) == (("amount",), 1, 1500)
    printed = play(StartAuction("boardwalk", declined_by="Ann"))
    assert not offering.bid_offer(printed, "Ann").refused  # the printed rules let the decliner bid


def test_a_bid_is_refused_in_debt_and_without_the_cash_for_the_lowest_bid() -> None:
    state = play(Pay("Ann", 1490, "bank"), Buy("Bob", "boardwalk"), Rent("Ann", "boardwalk"),
                 StartAuction("park_place"), Bid("Cy", 1))
    ann = offering.bid_offer(state, "Ann")
    assert ann.refusal is not None and ann.refusal.key == "in_debt"
    state = play(Pay("Ann", 1490, "bank"), StartAuction("boardwalk"), Bid("Bob", 10))
    ann = offering.bid_offer(state, "Ann")
    assert ann.refusal is not None and ann.refusal.key == offering.CASH_SHORT and ann.short_by == 1
    with pytest.raises(BankerError):
        apply(state, Bid("Ann", 11))
