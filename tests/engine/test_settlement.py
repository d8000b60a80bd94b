"""Debts (§8), bankruptcy (§9), trades and the ends of the game (§10)."""

from __future__ import annotations

from banker.state import GameState
from banker.worth import liquidation_value, net_worth
from tests.conftest import Table


def broke(t: Table, name: str, keep: int) -> None:
    """Leave ``name`` with ``keep`` cash."""
    if t.cash(name) > keep:
        t.do("pay", player=name, amount=t.cash(name) - keep, to="bank")


def test_a_payment_larger_than_cash_is_a_debt_and_moves_nothing(table: Table) -> None:
    table.give("Ann", "boardwalk")
    broke(table, "Bob", 40)
    table.do("rent", player="Bob", property="boardwalk")
    table.do("tax", player="Bob", square="luxury_tax")
    assert table.cash("Bob") == 40
    data = table.json()
    assert data["debts"] == [
        {"debtor": "Bob", "creditor": "Ann", "amount": 50, "reason": "rent"},
        {"debtor": "Bob", "creditor": "bank", "amount": 100, "reason": "tax"},
    ]
    assert data["players"]["Bob"]["debt"] == 150 and data["players"]["Bob"]["missing"] == 110


def test_raise_money_then_pay_debt(table: Table) -> None:
    table.give("Bob", "mediterranean", "baltic")
    table.do("build", player="Bob", property="baltic")
    table.give("Ann", "boardwalk")
    broke(table, "Bob", 10)
    table.do("pay", player="Bob", amount=90, to="Ann")
    err = table.fails("debt_short", "pay_debt", player="Bob")
    assert "$80 more" in str(err)
    table.fails("bankrupt_can_pay", "bankrupt", player="Bob")
    table.fails("in_debt", "buy", player="Bob", property="park_place")
    table.do("sell_building", player="Bob", property="baltic")  # +25
    table.do("mortgage", player="Bob", property="mediterranean")  # +30
    assert liquidation_value(table.state, 1) == 65 + 30
    table.fails("debt_short", "pay_debt", player="Bob")
    table.do("trade", **{"from": "Bob", "to": "Ann", "give": {"properties": ["baltic"]}, "take": {"cash": 30}})
    table.do("pay_debt", player="Bob")
    assert table.json()["debts"] == []
    assert table.cash("Bob") == 5 and table.cash("Ann") == 1500 - 400 - 30 + 90
    table.fails("no_debt", "pay_debt", player="Bob")


def test_creditor_may_accept_deeds_instead_of_cash(table: Table) -> None:
    table.give("Bob", "boardwalk")
    broke(table, "Bob", 0)
    table.do("pay", player="Bob", amount=300, to="Ann")
    table.do("trade", **{"from": "Bob", "to": "Ann", "give": {"properties": ["boardwalk"]}, "settles_debt": True})
    assert table.json()["debts"] == []
    assert table.prop("boardwalk")["owner"] == "Ann"
    table.fails("trade_no_debt_to_settle", "trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 1},
                                                       "settles_debt": True})


def test_bankruptcy_to_a_player_hands_over_everything() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    t.give("Bob", "oriental", "vermont", "connecticut", "boardwalk")
    t.do("card", player="Bob", deck="chance", card="jail_free")
    for street in ("oriental", "vermont", "connecticut"):
        t.do("build", player="Bob", property=street)  # 3 houses, 150
    t.do("mortgage", player="Bob", property="boardwalk")  # +200
    t.give("Ann", "park_place")
    t.do("collect", player="Ann", amount=5000)
    t.give("Ann", "short_line", "reading_railroad", "b_and_o_railroad", "pennsylvania_railroad")
    # Bob: 1500 - 320 - 400 - 150 + 200 = 830 cash
    assert t.cash("Bob") == 830
    t.do("pay", player="Bob", amount=2000, to="Ann")
    # liquidation: 830 + 75 (half of three houses) + 50 + 50 + 60 (mortgage values) = 1065 < 2000
    assert liquidation_value(t.state, 1) == 1065
    ann_before = t.cash("Ann")
    events = t.do("bankrupt", player="Bob")
    data = t.json()
    assert data["players"]["Bob"] == {**data["players"]["Bob"], "bankrupt": True, "cash": 0, "jail_cards": 0}
    assert t.cash("Ann") == ann_before + 830 + 75
    for street in ("oriental", "vermont", "connecticut", "boardwalk"):
        assert data["properties"][street]["owner"] == "Ann"
    assert data["players"]["Ann"]["jail_cards"] == 1
    assert data["bank"]["houses"] == 32
    assert data["decisions"] == [{"player": "Ann", "property": "boardwalk", "keep_fee": 20, "unmortgage_cost": 220}]
    assert data["debts"] == [] and data["winner"] is None
    assert "bankrupt" in [e.kind for e in events]
    t.fails("player_bankrupt", "salary", player="Bob")
    t.do("keep_mortgaged", player="Ann", property="boardwalk")
    assert t.cash("Ann") == ann_before + 905 - 20


def test_bankruptcy_to_the_bank_auctions_every_deed_in_board_order() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    t.give("Bob", "boardwalk", "mediterranean", "baltic")
    t.do("build", player="Bob", property="baltic")
    t.do("mortgage", player="Bob", property="boardwalk")
    t.do("card", player="Bob", deck="community_chest", card="jail_free")
    broke(t, "Bob", 10)
    t.do("tax", player="Bob", square="income_tax")
    bank_before = t.state.bank
    t.do("bankrupt", player="Bob")
    data = t.json()
    assert data["auction"]["property"] == "mediterranean"
    assert data["auction"]["queue"] == ["baltic", "boardwalk"]
    assert data["bank"]["houses"] == 32
    assert t.state.bank == bank_before + 10
    assert all(data["properties"][p]["owner"] is None and not data["properties"][p]["mortgaged"]
               for p in ("mediterranean", "baltic", "boardwalk"))
    t.fails("auction_open", "salary", player="Ann")
    t.fails("player_bankrupt", "bid", player="Bob", amount=5)
    t.do("bid", player="Ann", amount=40)
    t.do("auction_close")
    assert t.json()["auction"]["property"] == "baltic"
    t.do("auction_close")
    t.do("bid", player="Cat", amount=300)
    t.do("auction_close")
    data = t.json()
    assert data["auction"] is None
    assert [data["properties"][p]["owner"] for p in ("mediterranean", "baltic", "boardwalk")] == ["Ann", None, "Cat"]
    t.do("card", player="Ann", deck="community_chest", card="jail_free")  # back in its deck


def test_house_rule_deeds_simply_return_to_the_bank() -> None:
    t = Table(("Ann", "Bob", "Cat"), bankruptcy_auctions=False)
    t.give("Bob", "boardwalk")
    t.do("mortgage", player="Bob", property="boardwalk")
    broke(t, "Bob", 0)
    t.do("tax", player="Bob", square="income_tax")
    t.do("bankrupt", player="Bob")
    assert t.json()["auction"] is None
    assert t.prop("boardwalk") == {"owner": None, "houses": 0, "hotel": False, "mortgaged": False}


def test_several_creditors_share_in_proportion() -> None:
    t = Table(("Ann", "Bob", "Cat", "Dan"))
    t.give("Ann", "boardwalk")  # mortgage value 200
    broke(t, "Ann", 100)
    t.do("card", player="Ann", deck="chance", card="chairman")  # pays Bob 50, Cat 50, owes Dan 50
    t.do("tax", player="Ann", square="income_tax")  # owes the bank 200 more
    assert liquidation_value(t.state, 0) == 200
    assert t.state.debt_total(0) == 250
    t.do("bankrupt", player="Ann")
    data = t.json()
    assert data["auction"]["property"] == "boardwalk"
    assert t.cash("Dan") == 1500  # Ann had no cash left: nothing to share yet
    bank = t.state.bank
    t.do("bid", player="Bob", amount=125)
    t.do("auction_close")
    # 125 shared 50 : 200 -> Dan 25, bank 100
    assert t.cash("Dan") == 1525
    assert t.state.bank - bank == 100
    assert t.cash("Bob") == 1550 - 125


def test_last_player_standing_wins_and_the_game_is_over(table: Table) -> None:
    table.give("Ann", "boardwalk")
    broke(table, "Bob", 0)
    table.do("rent", player="Bob", property="boardwalk")
    table.do("bankrupt", player="Bob")
    data = table.json()
    assert data["winner"] == "Ann" and data["ended"] is True
    table.fails("game_over", "salary", player="Ann")


def test_a_bankruptcy_that_ends_the_game_asks_nothing_about_the_mortgaged_deeds_it_hands_over(
        table: Table) -> None:
    from banker.text import log_lines

    table.give("Ann", "boardwalk")
    table.give("Bob", "oriental", "reading_railroad")
    table.do("mortgage", player="Bob", property="oriental")
    table.do("mortgage", player="Bob", property="reading_railroad")
    broke(table, "Bob", 0)
    table.do("rent", player="Bob", property="boardwalk")
    events = table.do("bankrupt", player="Bob")
    data = table.json()
    assert data["winner"] == "Ann" and data["decisions"] == []
    assert table.prop("oriental") == {**table.prop("oriental"), "owner": "Ann", "mortgaged": True}
    lines = log_lines(table.state.edition, events)
    assert not any("lift it" in line for line in lines), lines
    assert lines[-1] == "The game is over: Ann wins."
    assert [e.kind for e in events].count("decision_needed") == 0


def test_trade_moves_cash_deeds_and_cards_atomically(table: Table) -> None:
    table.give("Ann", "boardwalk", "baltic")
    table.give("Bob", "park_place")
    table.do("card", player="Bob", deck="chance", card="jail_free")
    table.do("trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 100, "properties": ["baltic"]},
                         "take": {"properties": ["park_place"], "jail_cards": 1}})
    assert table.prop("park_place")["owner"] == "Ann" and table.prop("baltic")["owner"] == "Bob"
    assert (table.cash("Ann"), table.cash("Bob")) == (1500 - 460 - 100, 1500 - 350 + 100)
    assert table.json()["players"]["Ann"]["jail_cards"] == 1


def test_illegal_trades_change_nothing(table: Table) -> None:
    table.give("Ann", "mediterranean", "baltic")
    table.do("build", player="Ann", property="baltic")
    table.give("Bob", "boardwalk")
    trade = {"from": "Ann", "to": "Bob"}
    table.fails("not_owner", "trade", **trade, give={"properties": ["boardwalk"]})
    table.fails("trade_buildings", "trade", **trade, give={"properties": ["mediterranean"]})
    table.fails("trade_self", "trade", **{"from": "Ann", "to": "Ann", "give": {"cash": 1}})
    table.fails("trade_empty", "trade", **trade)
    table.fails("not_enough_cash", "trade", **trade, give={"cash": 5000})
    table.fails("trade_no_jail_card", "trade", **trade, take={"jail_cards": 1})
    table.fails("trade_negative", "trade", **trade, give={"cash": -5})
    table.fails("unknown_property", "trade", **trade, give={"properties": ["mayfair"]})


def test_undo_restores_exactly_and_repeats() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    t.give("Bob", "boardwalk")
    t.do("card", player="Bob", deck="chance", card="jail_free")
    start = t.json()
    broke(t, "Bob", 0)
    t.do("pay", player="Bob", amount=300, to="Cat")
    t.do("bankrupt", player="Bob")
    t.do("undo")
    t.do("undo")
    t.do("undo")
    after = t.json()
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in start.items() if k != "seq"}


def test_nothing_to_undo_at_the_start(table: Table) -> None:
    table.fails("nothing_to_undo", "undo")


def test_short_game_deals_two_deeds_and_ends_at_the_second_bankruptcy() -> None:
    t = Table(("Ann", "Bob", "Cat", "Dan"), short_game=True)
    owned = [p for p in t.json()["properties"].values() if p["owner"]]
    assert len(owned) == 8
    assert sum(t.cash(n) for n in ("Ann", "Bob", "Cat", "Dan")) < 6000
    for name in ("Bob", "Cat"):
        for deed in [pid for pid, p in t.json()["properties"].items() if p["owner"] == name]:
            t.do("mortgage", player=name, property=deed)
        broke(t, name, 0)
        t.do("pay", player=name, amount=10, to="bank")
        t.do("bankrupt", player=name)
        while t.state.auction is not None:
            t.do("auction_close")
    data = t.json()
    assert data["ended"] is True
    state: GameState = t.state
    worth = {p.name: net_worth(state, i) for i, p in enumerate(state.players) if not p.bankrupt}
    assert data["winner"] == max(worth, key=lambda n: worth[n])


def test_short_game_with_an_explicit_deal() -> None:
    from banker.actions import NewGame
    from banker.engine import apply

    state, _ = apply(None, NewGame("us", ("Ann", "Bob"), {"short_game": True},
                                   deal={"Ann": ("boardwalk", "baltic"), "Bob": ("park_place", "oriental")}))
    assert state.players[0].cash == 1500 - 460 and state.players[1].cash == 1500 - 450


def test_timed_game_ends_with_end_game_and_the_richest_wins(table: Table) -> None:
    table.give("Bob", "boardwalk")  # net worth stays 1500
    table.do("collect", player="Bob", amount=1)
    table.do("end_game")
    assert table.json()["winner"] == "Bob"
    assert [r["player"] for r in table.events[0].params["ranking"]] == ["Bob", "Ann"]


def test_net_worth_counts_mortgaged_deeds_at_half_and_hotels_with_their_houses() -> None:
    t = Table()
    t.give("Ann", "mediterranean", "baltic", "boardwalk")
    for _ in range(5):
        t.do("build", player="Ann", property="mediterranean")
        t.do("build", player="Ann", property="baltic")
    t.do("mortgage", player="Ann", property="boardwalk")
    cash = 1500 - 520 - 500 + 200
    assert t.cash("Ann") == cash
    assert net_worth(t.state, 0) == cash + 60 + 60 + 200 + 2 * 5 * 50


def test_pay_each_bankruptcy_with_one_unpaid_creditor_goes_to_that_creditor() -> None:
    t = Table(("Ann", "Bob", "Cy"), starting_cash=120)
    t.give("Ann", "baltic")  # 60 left
    t.do("card", player="Ann", deck="chance", card="chairman")  # pays Bob 50, owes Cy 50
    assert t.cash("Ann") == 10
    t.do("bankrupt", player="Ann")  # liquidation 10 + 30 < 50: only Cy is owed, §9.1
    assert t.cash("Cy") == 120 + 10
    assert t.json()["auction"] is None
    assert t.prop("baltic")["owner"] == "Cy"


def test_a_trade_waits_for_the_receivers_mortgage_decision(table: Table) -> None:
    table.give("Ann", "park_place", "baltic")
    table.do("mortgage", player="Ann", property="park_place")
    table.do("trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["park_place"]}})
    table.fails("decision_pending", "trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                                 "take": {"cash": 100}})
