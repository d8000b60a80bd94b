"""Salary, free money, payments, taxes, Free Parking and jail (§2, §5)."""

from __future__ import annotations

from tests.conftest import Table


def test_game_starts_with_1500_each_issued_by_the_bank() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    assert [p.cash for p in t.state.players] == [1500, 1500, 1500]
    assert t.state.bank == -4500
    assert t.json()["bank"] == {"houses": 32, "hotels": 12, "balance": -4500}


def test_salary_pays_200_and_double_only_under_the_house_rule() -> None:
    t = Table()
    t.do("salary", player="Ann")
    t.do("salary", player="Ann", landed=True)
    assert t.cash("Ann") == 1900
    t2 = Table(double_salary_on_go=True)
    t2.do("salary", player="Ann", landed=True)
    t2.do("salary", player="Bob")
    assert (t2.cash("Ann"), t2.cash("Bob")) == (1900, 1700)


def test_no_salary_in_jail(table: Table) -> None:
    table.do("go_to_jail", player="Ann")
    table.fails("salary_in_jail", "salary", player="Ann")


def test_pay_and_collect_move_exact_amounts(table: Table) -> None:
    table.do("pay", player="Ann", amount=120, to="Bob")
    table.do("collect", player="Bob", amount=30)
    table.do("pay", player="Bob", amount=50, to="bank")
    assert (table.cash("Ann"), table.cash("Bob")) == (1380, 1600)


def test_bad_amounts_and_accounts_are_refused(table: Table) -> None:
    table.fails("amount_not_positive", "pay", player="Ann", amount=0, to="Bob")
    table.fails("amount_not_positive", "collect", player="Ann", amount=-5)
    table.fails("pay_self", "pay", player="Ann", amount=5, to="Ann")
    table.fails("unknown_payee", "pay", player="Ann", amount=5, to="Zed")
    table.fails("unknown_player", "salary", player="Zed")


def test_flat_taxes_of_the_us_board(table: Table) -> None:
    table.do("tax", player="Ann", square="income_tax")
    table.do("tax", player="Bob", square="luxury_tax")
    assert (table.cash("Ann"), table.cash("Bob")) == (1300, 1400)
    table.fails("not_a_tax_square", "tax", player="Ann", square="go")
    table.fails("tax_no_choice", "tax", player="Ann", square="income_tax", choice="percent")


def test_the_older_us_luxury_tax_is_a_house_rule() -> None:
    t = Table(luxury_tax=75)
    t.do("tax", player="Ann", square="luxury_tax")
    assert t.cash("Ann") == 1425


def test_tax_square_by_board_index_and_uk_super_tax() -> None:
    t = Table(edition="uk")
    t.do("tax", player="Ann", square="38")
    assert t.cash("Ann") == 1400


def test_income_tax_ten_percent_of_total_worth() -> None:
    t = Table(income_tax_percent=10)
    t.give("Ann", "boardwalk", "park_place")  # 400 + 350 paid from cash: worth stays 1500
    t.do("build", player="Ann", property="boardwalk")  # 200 house: worth still 1500
    t.fails("tax_choice_needed", "tax", player="Ann", square="income_tax")
    t.do("tax", player="Ann", square="income_tax", choice="percent")
    # cash 550 + deeds 750 + one house 200 = 1500 -> 150
    assert t.cash("Ann") == 550 - 150
    t.do("tax", player="Bob", square="income_tax", choice="flat")
    assert t.cash("Bob") == 1300


def test_income_tax_percent_counts_mortgaged_deeds_at_full_price() -> None:
    t = Table(income_tax_percent=10)
    t.give("Ann", "baltic")
    t.do("mortgage", player="Ann", property="baltic")  # cash 1440 + 30 = 1470, deed 60
    t.do("tax", player="Ann", square="income_tax", choice="percent")
    assert t.cash("Ann") == 1470 - 153  # 10 % of 1530 = 153


def test_free_parking_pot_collects_taxes_fines_and_card_payments() -> None:
    t = Table(free_parking_pot=True)
    t.do("tax", player="Ann", square="income_tax")
    t.do("go_to_jail", player="Bob")
    t.do("jail_fine", player="Bob")
    t.do("card", player="Ann", deck="chance", card="speeding_fine")
    assert t.state.pot == 200 + 50 + 15
    t.do("free_parking", player="Bob")
    assert t.cash("Bob") == 1500 - 50 + 265
    assert t.state.pot == 0
    t.do("free_parking", player="Ann")
    assert t.kinds() == ["pot_empty"]


def test_free_parking_pays_nothing_by_default(table: Table) -> None:
    table.do("tax", player="Ann", square="income_tax")
    assert table.state.pot == 0
    table.fails("no_pot_rule", "free_parking", player="Bob")


def test_jail_fine_card_and_double(table: Table) -> None:
    table.fails("not_in_jail", "jail_fine", player="Ann")
    table.do("go_to_jail", player="Ann")
    table.fails("already_in_jail", "go_to_jail", player="Ann")
    table.fails("no_jail_card", "use_jail_card", player="Ann")
    table.do("jail_fine", player="Ann")
    assert table.cash("Ann") == 1450
    assert not table.state.players[0].in_jail
    table.do("card", player="Bob", deck="community_chest", card="jail_free")
    table.do("go_to_jail", player="Bob")
    table.do("use_jail_card", player="Bob")
    assert table.json()["players"]["Bob"]["jail_cards"] == 0
    assert table.cash("Bob") == 1500
    table.do("go_to_jail", player="Bob")
    table.do("leave_jail", player="Bob")
    assert table.cash("Bob") == 1500


def test_house_rule_jail_fine_500_and_100_on_a_double() -> None:
    t = Table(jail_fine=500, jail_double_fine=100)
    t.do("go_to_jail", player="Ann")
    t.do("jail_fine", player="Ann")
    t.do("go_to_jail", player="Bob")
    t.do("leave_jail", player="Bob")
    assert (t.cash("Ann"), t.cash("Bob")) == (1000, 1400)


def test_house_rule_other_salary_and_starting_cash() -> None:
    t = Table(starting_cash=15000, salary=3000)
    t.do("salary", player="Ann")
    assert t.cash("Ann") == 18000


def test_nothing_goes_to_the_pot_without_the_house_rule(table: Table) -> None:
    table.fails("no_pot_rule", "pay", player="Ann", amount=100, to="pot")


def test_a_bad_percentage_rule_names_itself() -> None:
    import pytest

    from banker.errors import BankerError

    with pytest.raises(BankerError, match="mortgage_interest_percent = 150"):
        Table(mortgage_interest_percent=150)
