"""The edge cases: a game never locks, a settlement is finished before the game is counted."""

from __future__ import annotations

import json

import pytest

from banker.actions import AuctionClose, parse_action
from banker.engine import apply
from banker.errors import BankerError
from banker.invariants import invariant_errors
from banker.ledger import Transaction
from banker.replay import replay_lines
from tests.conftest import Table

SHORTAGE = [
    '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {"houses": 1}}',
    '{"action": "buy", "player": "Ann", "property": "mediterranean"}',
    '{"action": "buy", "player": "Ann", "property": "baltic"}',
    '{"action": "buy", "player": "Bob", "property": "oriental"}',
    '{"action": "buy", "player": "Bob", "property": "vermont"}',
    '{"action": "buy", "player": "Bob", "property": "connecticut"}',
    '{"action": "building_auction", "building": "house"}',
    '{"action": "bid", "player": "Ann", "amount": 50, "property": "baltic"}',
]


def run(lines: list[str]) -> Table:
    """A table set up by a script (the ledger check then starts from its balances)."""
    t = Table()
    t.state = replay_lines(lines, check=True).state
    t.ledger = [Transaction("restore", tuple(t.balances_now().items()))]
    return t


# --- 1. a building auction cannot be locked by its high bidder ---------------------------------------
def test_high_bidder_may_not_mortgage_in_the_group_bid_for() -> None:
    t = run(SHORTAGE)
    t.fails("auction_bid_stands", "mortgage", player="Ann", property="mediterranean")
    t.do("auction_close")
    assert t.prop("baltic")["houses"] == 1 and t.cash("Ann") == 1500 - 60 - 60 - 50


def test_high_bidder_may_mortgage_elsewhere_and_others_may_raise_money() -> None:
    t = run([*SHORTAGE[:6], '{"action": "buy", "player": "Ann", "property": "boardwalk"}', *SHORTAGE[6:]])
    t.do("mortgage", player="Ann", property="boardwalk")
    t.do("mortgage", player="Bob", property="oriental")  # Bob's bids are checked when he makes one
    t.do("auction_close")
    assert t.prop("baltic")["houses"] == 1


def test_high_bidder_may_not_sell_the_level_the_bid_needs() -> None:
    lines = [
        '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {"houses": 2}}',
        '{"action": "buy", "player": "Ann", "property": "mediterranean"}',
        '{"action": "buy", "player": "Ann", "property": "baltic"}',
        '{"action": "build", "player": "Ann", "property": "mediterranean"}',
        # Bob can build too, and the two want more than the bank's two houses: a shortage (§6.6)
        '{"action": "buy", "player": "Bob", "property": "oriental"}',
        '{"action": "buy", "player": "Bob", "property": "vermont"}',
        '{"action": "buy", "player": "Bob", "property": "connecticut"}',
        '{"action": "building_auction", "building": "house"}',
        '{"action": "bid", "player": "Ann", "amount": 50, "property": "baltic"}',
    ]
    t = run(lines)
    t.do("sell_building", player="Ann", property="mediterranean")  # Baltic can still take the house
    t.do("auction_close")
    assert t.prop("baltic")["houses"] == 1


def test_an_open_auction_can_always_be_closed_is_an_invariant() -> None:
    state = replay_lines(SHORTAGE).state
    assert invariant_errors(state) == []
    # A state the engine no longer reaches: the high bidder's group mortgaged under the bid.
    from dataclasses import replace

    props = list(state.props)
    props[0] = replace(props[0], mortgaged=True)
    locked = replace(state, props=tuple(props))
    with pytest.raises(BankerError):
        apply(locked, AuctionClose())
    assert any("auction" in e for e in invariant_errors(locked))


def build(player: str, street: str) -> str:
    return json.dumps({"action": "build", "player": player, "property": street})


# --- 2. a hotel broken down as far as the bank's houses allow ----------------------------------------
HOTEL_AND_FOUR = [
    '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {"houses": 8}}',
    '{"action": "buy", "player": "Ann", "property": "mediterranean"}',
    '{"action": "buy", "player": "Ann", "property": "baltic"}',
    *[build("Ann", p) for p in ["mediterranean", "baltic"] * 4],
    '{"action": "build", "player": "Ann", "property": "mediterranean"}',
    '{"action": "buy", "player": "Bob", "property": "oriental"}',
    '{"action": "buy", "player": "Bob", "property": "vermont"}',
    '{"action": "buy", "player": "Bob", "property": "connecticut"}',
]


def test_hotel_breakdown_in_a_shortage_to_an_even_level() -> None:
    t = run([*HOTEL_AND_FOUR, '{"action": "build", "player": "Bob", "property": "oriental"}',
             '{"action": "build", "player": "Bob", "property": "vermont"}'])
    assert t.json()["bank"]["houses"] == 2
    t.fails("hotel_breakdown_short", "sell_building", player="Ann", property="mediterranean")
    cash = t.cash("Ann")
    t.do("sell_buildings", player="Ann", levels={"mediterranean": 2, "baltic": 3})
    assert t.prop("mediterranean") == {"owner": "Ann", "houses": 2, "hotel": False, "mortgaged": False}
    assert t.prop("baltic")["houses"] == 3
    assert t.cash("Ann") == cash + 3 * 25 + 25
    assert t.json()["bank"] == {"houses": 1, "hotels": 12, "balance": t.state.bank}


def test_hotel_breakdown_with_no_houses_in_the_bank() -> None:
    t = run([*HOTEL_AND_FOUR, *[build("Bob", p) for p in ["oriental", "vermont", "connecticut", "oriental"]]])
    assert t.json()["bank"]["houses"] == 0
    t.fails("levels_short", "sell_buildings", player="Ann", levels={"mediterranean": 3})
    t.fails("levels_uneven", "sell_buildings", player="Ann", levels={"mediterranean": 0})
    t.do("sell_buildings", player="Ann", levels={"mediterranean": 2, "baltic": 2})
    assert t.prop("mediterranean")["houses"] == 2 and t.prop("baltic")["houses"] == 2
    assert t.json()["bank"]["houses"] == 0


def test_sell_buildings_refusals() -> None:
    t = run(HOTEL_AND_FOUR)
    t.fails("levels_empty", "sell_buildings", player="Ann", levels={})
    t.fails("levels_one_group", "sell_buildings", player="Ann", levels={"mediterranean": 4, "oriental": 0})
    t.fails("not_owner", "sell_buildings", player="Bob", levels={"mediterranean": 4})
    t.fails("levels_not_lower", "sell_buildings", player="Ann", levels={"baltic": 5})
    t.fails("levels_nothing_sold", "sell_buildings", player="Ann", levels={"baltic": 4})


# --- 3. a house under auction is not in the bank's stock for a hotel breakdown ------------------------
def test_breaking_a_hotel_leaves_the_auctioned_house() -> None:
    lines = [*HOTEL_AND_FOUR[:-3], '{"action": "buy", "player": "Bob", "property": "oriental"}',
             '{"action": "buy", "player": "Bob", "property": "vermont"}',
             '{"action": "buy", "player": "Bob", "property": "connecticut"}',
             *[build("Bob", p) for p in ["oriental", "vermont", "connecticut"]],
             # Ann's pink streets want houses too: two players want more than the bank's one (§6.6)
             *[json.dumps({"action": "buy", "player": "Ann", "property": p}) for p in ["st_charles", "states",
                                                                                      "virginia"]],
             '{"action": "building_auction", "building": "house"}',
             '{"action": "bid", "player": "Bob", "amount": 100, "property": "oriental"}']
    t = run(lines)
    assert t.json()["bank"]["houses"] == 1
    # Baltic has 4: Mediterranean's hotel may come down to 3 only with a house the auction holds.
    t.fails("hotel_breakdown_short", "sell_building", player="Ann", property="mediterranean")
    t.do("auction_close")
    assert t.prop("oriental")["houses"] == 2


# --- 4. the kind of bankruptcy is decided by who is still owed ----------------------------------------
def test_pay_each_player_with_one_creditor_left_is_a_bankruptcy_to_that_player() -> None:
    state = replay_lines([
        '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"], "rules": {}}',
        '{"action": "buy", "player": "Ann", "property": "baltic"}',
        '{"action": "pay", "player": "Ann", "amount": 1380, "to": "bank"}',
        '{"action": "card", "player": "Ann", "deck": "chance", "card": "chairman"}',
        '{"action": "bankrupt", "player": "Ann"}',
    ], check=True).state
    assert state.props[state.deed("baltic").number].owner == state.seat("Cy")
    assert state.auction is None


def test_pay_each_player_after_another_bankruptcy_goes_to_the_one_left() -> None:
    state = replay_lines([
        '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"], "rules": {"starting_cash": 100}}',
        '{"action": "pay", "player": "Cy", "amount": 200, "to": "bank"}',
        '{"action": "bankrupt", "player": "Cy"}',
        '{"action": "buy", "player": "Ann", "property": "baltic"}',
        '{"action": "pay", "player": "Ann", "amount": 30, "to": "bank"}',
        '{"action": "card", "player": "Ann", "deck": "chance", "card": "chairman"}',
        '{"action": "bankrupt", "player": "Ann"}',
    ], check=True).state
    assert state.props[state.deed("baltic").number].owner == state.seat("Bob")
    assert state.ended and state.winner == "Bob"


# --- 5. the short game counts after the last settlement -----------------------------------------------
def test_short_game_finishes_the_bankruptcy_auctions_before_counting() -> None:
    lines = [
        '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy", "Dee"],'
        ' "rules": {"short_game": true}, "deal": {"Ann": ["mediterranean", "baltic"], "Bob": ["oriental", "vermont"],'
        ' "Cy": ["boardwalk", "park_place"], "Dee": ["states", "virginia"]}}',
        '{"action": "pay", "player": "Ann", "amount": 1500, "to": "bank"}',
        '{"action": "bankrupt", "player": "Ann"}',
    ]
    t = run(lines)
    assert t.json()["auction"]["property"] == "mediterranean"
    t.do("auction_close")
    t.do("auction_close")
    t.do("pay", player="Bob", amount=1500, to="bank")
    t.do("bankrupt", player="Bob")
    assert not t.state.ended and t.json()["auction"]["property"] == "oriental"
    t.fails("end_game_auction", "end_game")
    t.do("bid", player="Cy", amount=10)
    t.do("auction_close")
    assert not t.state.ended
    t.do("bid", player="Cy", amount=10)
    t.do("auction_close")
    data = t.json()
    assert data["ended"] and data["winner"] == "Cy" and data["auction"] is None
    assert data["properties"]["oriental"]["owner"] == "Cy" and data["properties"]["vermont"]["owner"] == "Cy"
    assert [e.kind for e in t.events][-1] == "game_over"


def test_last_bankruptcy_opens_no_auction_and_leaves_no_decision() -> None:
    t = Table(("Ann", "Bob"))
    t.give("Ann", "baltic")
    t.do("pay", player="Ann", amount=1440, to="bank")
    t.do("pay", player="Ann", amount=100, to="bank")
    t.do("bankrupt", player="Ann")
    data = t.json()
    assert data["ended"] and data["auction"] is None and data["decisions"] == []
    assert "auction_opened" not in [e.kind for e in t.events]


def test_game_over_leaves_no_pending_decision() -> None:
    t = Table(("Ann", "Bob", "Cy", "Dee"), short_game=True, deal_deeds=0)
    t.give("Ann", "baltic")
    t.do("mortgage", player="Ann", property="baltic")
    t.do("pay", player="Cy", amount=1600, to="bank")
    t.do("bankrupt", player="Cy")
    t.do("pay", player="Ann", amount=t.cash("Ann") + 100, to="Bob")
    t.do("bankrupt", player="Ann")  # Bob receives the mortgaged Baltic and the game ends
    data = t.json()
    assert data["ended"] and data["decisions"] == []
    assert data["properties"]["baltic"] == {"owner": "Bob", "houses": 0, "hotel": False, "mortgaged": True}


# --- 6. a pending decision admits only the decision itself --------------------------------------------
def test_pending_decision_refuses_unmortgage_of_another_deed(table: Table) -> None:
    table.give("Ann", "park_place")
    table.give("Bob", "baltic")
    table.do("mortgage", player="Ann", property="park_place")
    table.do("mortgage", player="Bob", property="baltic")
    table.do("trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["park_place"]}})
    table.fails("decision_pending", "unmortgage", player="Bob", property="baltic")
    table.do("keep_mortgaged", player="Bob", property="park_place")
    table.do("unmortgage", player="Bob", property="baltic")


# --- 7. the bank and the pot share a bankrupt's cash -------------------------------------------------
def test_bank_and_pot_share_the_cash_in_proportion() -> None:
    t = Table(("Ann", "Bob", "Cy"), free_parking_pot=True)
    t.do("pay", player="Ann", amount=1400, to="Bob")  # 100 left
    t.do("pay", player="Ann", amount=300, to="bank")
    t.do("pay", player="Ann", amount=100, to="pot")
    t.do("bankrupt", player="Ann")
    assert t.json()["pot"] == 25  # 100 × 100 / 400
    kinds = [e for e in t.events if e.kind == "bankruptcy_cash"]
    assert kinds and kinds[0].params["to"] == "creditors"


# --- 8. a rent card is checked before anything else ---------------------------------------------------
def test_wrong_rent_card_on_a_mortgaged_deed_is_refused(table: Table) -> None:
    table.give("Ann", "tennessee")
    table.do("mortgage", player="Ann", property="tennessee")
    table.fails("rent_card_mismatch", "rent", player="Bob", property="tennessee", card="nearest_railroad")


def test_parse_action_rejects_arbitrary_nesting_not_the_engine() -> None:
    with pytest.raises(BankerError):
        parse_action('{"action": "end_turn", "x": ' + "[" * 50 + "]" * 50 + "}")


def test_end_game_waits_for_debts_and_decisions(table: Table) -> None:
    table.give("Ann", "park_place")
    table.do("mortgage", player="Ann", property="park_place")
    table.do("trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["park_place"]}})
    table.fails("decision_pending", "end_game")
    table.do("keep_mortgaged", player="Bob", property="park_place")
    table.do("pay", player="Ann", amount=5000, to="bank")
    table.fails("end_game_debts", "end_game")
    table.do("bankrupt", player="Ann")
    assert table.json()["ended"]
