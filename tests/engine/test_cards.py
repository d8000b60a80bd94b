"""Chance and Community Chest (§5.2): every card's money effect."""

from __future__ import annotations

import pytest

from banker.edition import load_edition
from tests.conftest import Table

CARD_SQUARE = {"chance": "chance_1", "community_chest": "community_chest_1"}


@pytest.mark.parametrize("edition", ["us", "uk", "ru"])
def test_every_card_of_every_deck_applies_and_balances(edition: str) -> None:
    ed = load_edition(edition)
    for deck, cards in ed.decks.items():
        for card in cards:
            t = Table(("Ann", "Bob", "Cat"), edition=edition)
            t.do("card", player="Ann", deck=deck, card=card.id, square=CARD_SQUARE[deck])
            assert t.events[0].kind == "card"
            moved = sum(t.cash(n) for n in ("Ann", "Bob", "Cat")) - 4500
            if card.kind == "collect":
                assert moved == card.amount
            elif card.kind in ("pay", "pay_or_draw"):
                assert moved == -card.amount
            elif card.kind in ("pay_each", "collect_each"):
                assert moved == 0 and t.cash("Ann") == 1500 + (2 if card.kind == "collect_each" else -2) * card.amount
            elif card.kind == "advance":
                passes = card.to == 0 or card.to < ed.square(CARD_SQUARE[deck]).index
                assert moved == (200 if passes and card.salary else 0), card.id
            elif card.kind == "nearest":
                assert moved == 0  # from the first card square no railroad/utility lies past GO
            else:
                assert moved == 0, card.id


def test_advance_to_go_and_past_go(table: Table) -> None:
    table.do("card", player="Ann", deck="chance", card="advance_go")
    table.do("card", player="Bob", deck="chance", card="advance_illinois", square="chance_3")
    table.do("card", player="Ann", deck="chance", card="advance_illinois", square="chance_1")
    assert (table.cash("Ann"), table.cash("Bob")) == (1700, 1700)


def test_advance_needs_square_or_passed_go(table: Table) -> None:
    table.fails("card_needs_square", "card", player="Ann", deck="chance", card="advance_st_charles")
    table.do("card", player="Ann", deck="chance", card="advance_st_charles", passed_go=True)
    assert table.cash("Ann") == 1700
    table.fails("card_wrong_square", "card", player="Ann", deck="chance", card="advance_go", square="income_tax")


def test_nearest_railroad_from_the_last_chance_square_passes_go_then_rent_is_doubled(table: Table) -> None:
    table.give("Ann", "reading_railroad")
    events = table.do("card", player="Bob", deck="chance", card="nearest_railroad_1", square="chance_3")
    moved = [e for e in events if e.kind == "moved"][0]
    assert moved.params == {"player": "Bob", "square": "reading_railroad", "rent_card": "nearest_railroad"}
    table.do("rent", player="Bob", property="reading_railroad", card="nearest_railroad")
    assert table.cash("Bob") == 1500 + 200 - 50


def test_nearest_utility_from_chance_2_is_water_works(table: Table) -> None:
    events = table.do("card", player="Bob", deck="chance", card="nearest_utility", square="chance_2")
    assert [e.params["square"] for e in events if e.kind == "moved"] == ["water_works"]
    assert table.cash("Bob") == 1500


def test_back_three_from_chance_1_lands_on_income_tax(table: Table) -> None:
    events = table.do("card", player="Ann", deck="chance", card="back_3", square="7")
    assert [e.params["square"] for e in events if e.kind == "moved"] == ["income_tax"]


def test_repairs_count_houses_and_hotels() -> None:
    t = Table()
    t.do("collect", player="Ann", amount=5000)
    t.give("Ann", "mediterranean", "baltic", "oriental", "vermont", "connecticut")
    for _ in range(5):
        t.do("build", player="Ann", property="mediterranean")
        t.do("build", player="Ann", property="baltic")
    for street in ("oriental", "vermont", "connecticut"):
        t.do("build", player="Ann", property=street)
    cash = t.cash("Ann")
    t.do("card", player="Ann", deck="community_chest", card="street_repairs")
    assert cash - t.cash("Ann") == 3 * 40 + 2 * 115
    cash = t.cash("Ann")
    t.do("card", player="Ann", deck="chance", card="general_repairs")
    assert cash - t.cash("Ann") == 3 * 25 + 2 * 100
    t.do("card", player="Bob", deck="chance", card="general_repairs")
    assert t.kinds()[-1] == "no_repairs"


def test_birthday_collects_from_each_player_and_chairman_pays_each() -> None:
    t = Table(("Ann", "Bob", "Cat", "Dan"))
    t.do("card", player="Ann", deck="community_chest", card="birthday")
    assert [t.cash(n) for n in ("Ann", "Bob", "Cat", "Dan")] == [1530, 1490, 1490, 1490]
    t.do("card", player="Bob", deck="chance", card="chairman")
    assert [t.cash(n) for n in ("Ann", "Bob", "Cat", "Dan")] == [1580, 1340, 1540, 1540]


def test_pay_each_in_seating_order_while_cash_lasts_then_debts() -> None:
    t = Table(("Ann", "Bob", "Cat", "Dan"))
    t.do("pay", player="Bob", amount=1380, to="bank")  # Bob keeps 120
    t.do("card", player="Bob", deck="chance", card="chairman")
    assert [t.cash(n) for n in ("Ann", "Bob", "Cat", "Dan")] == [1500, 20, 1550, 1550]
    assert t.json()["debts"] == [{"debtor": "Bob", "creditor": "Ann", "amount": 50, "reason": "card"}]


def test_get_out_of_jail_card_is_kept_sold_and_unique() -> None:
    t = Table(("Ann", "Bob"))
    t.do("card", player="Ann", deck="chance", card="jail_free")
    t.fails("jail_card_held", "card", player="Bob", deck="chance", card="jail_free")
    t.do("trade", **{"from": "Ann", "to": "Bob", "give": {"jail_cards": 1}, "take": {"cash": 40}})
    assert t.json()["players"]["Bob"]["jail_cards"] == 1
    t.do("go_to_jail", player="Bob")
    t.do("use_jail_card", player="Bob")
    t.do("card", player="Ann", deck="chance", card="jail_free")  # back in the deck, drawn again


def test_go_to_jail_card_pays_no_salary(table: Table) -> None:
    table.do("card", player="Ann", deck="chance", card="go_to_jail", square="chance_3")
    assert table.json()["players"]["Ann"]["in_jail"] is True
    assert table.cash("Ann") == 1500


def test_uk_fine_or_chance_card(table: Table) -> None:
    t = Table(edition="uk")
    t.do("card", player="Ann", deck="community_chest", card="fine_or_chance", choice="draw")
    assert t.cash("Ann") == 1500 and t.kinds()[-1] == "draw_instead"
    t.do("card", player="Ann", deck="community_chest", card="fine_or_chance")
    assert t.cash("Ann") == 1490
    t.fails("bad_card_choice", "card", player="Ann", deck="community_chest", card="fine_or_chance", choice="x")


def test_unknown_deck_and_card(table: Table) -> None:
    table.fails("unknown_deck", "card", player="Ann", deck="surprise", card="x")
    table.fails("unknown_card", "card", player="Ann", deck="chance", card="free_money")


def test_no_moving_card_for_a_player_in_jail(table: Table) -> None:
    table.do("go_to_jail", player="Ann")
    table.fails("card_in_jail", "card", player="Ann", deck="chance", card="nearest_railroad_1", square="chance_3")
    table.fails("card_in_jail", "card", player="Ann", deck="chance", card="back_3", square="chance_3")


def test_advance_to_boardwalk_never_passes_go_so_needs_no_square(table: Table) -> None:
    table.do("card", player="Ann", deck="chance", card="advance_boardwalk")
    assert table.cash("Ann") == 1500


def test_a_chance_card_taken_instead_of_a_fine_is_drawn_on_the_community_chest_square() -> None:
    t = Table(edition="uk")
    t.do("card", player="Ann", deck="community_chest", card="fine_or_chance", choice="draw", square="community_chest_1")
    t.do("card", player="Ann", deck="chance", card="back_3", square="community_chest_1")
    assert [e.params["square"] for e in t.events if e.kind == "moved"] == ["mayfair"]


def test_a_choice_on_a_card_without_one_is_refused(table: Table) -> None:
    table.fails("card_no_choice", "card", player="Ann", deck="chance", card="dividend", choice="pay")
