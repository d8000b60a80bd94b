"""banker.balances: what each viewer sees of a player's cash under the house rule hidden_balances."""

from __future__ import annotations

import pytest

from banker import balances
from banker.actions import parse_action
from banker.engine import apply
from banker.errors import IllegalAction
from banker.export import state_to_json
from banker.state import GameState

ANN, BOB = balances.Viewer("Ann"), balances.Viewer("Bob")


def game(hidden: str, edition: str = "us", **rules: object) -> GameState:
    state, _ = apply(None, parse_action({"action": "new_game", "edition": edition, "players": ["Ann", "Bob"],
                                         "rules": {"hidden_balances": hidden, **rules}}))
    return state


def pay(state: GameState, player: str, amount: int) -> GameState:
    return apply(state, parse_action({"action": "pay", "player": player, "amount": amount, "to": "bank"}))[0]


def test_the_bands_follow_the_starting_cash() -> None:
    assert balances.band_limits(game("bands")) == (500, 1000, 2000)
    assert balances.band_limits(game("bands", starting_cash=15000)) == (5000, 10000, 20000)
    assert balances.band_limits(game("bands", starting_cash=2000)) == (500, 1000, 2500)


@pytest.mark.parametrize(("cash", "text"), [(1500, "$1,000–$2,000"), (499, "under $500"), (500, "$500–$1,000"),
                                            (1999, "$1,000–$2,000"), (2100, "over $2,000")])
def test_a_band_for_the_others_and_the_cash_for_oneself(cash: int, text: str) -> None:
    state = game("bands")
    while state.players[state.seat("Bob")].cash < cash:
        state = apply(state, parse_action({"action": "salary", "player": "Bob"}))[0]
    state = pay(state, "Bob", state.players[state.seat("Bob")].cash - cash) if state.players[1].cash > cash else state
    seat = state.seat("Bob")
    assert state.players[seat].cash == cash
    assert balances.player_cash_text(state, ANN, seat, "en") == text
    assert balances.player_cash_text(state, BOB, seat, "en") == state.money(cash)
    assert balances.player_cash_text(state, balances.BANKER, seat, "en") == state.money(cash)


def test_bands_in_each_language_and_edition() -> None:
    state = pay(game("bands", "ru"), "Bob", 1100)  # 400
    seat = state.seat("Bob")
    assert balances.player_cash_text(state, ANN, seat, "ru") == "меньше 500 тыс. руб."
    assert balances.player_cash_text(state, ANN, seat, "bg") == "под 500 тыс. руб."


def test_hidden_shows_nothing_and_off_shows_all() -> None:
    state = game("hidden")
    assert balances.player_cash_text(state, ANN, state.seat("Bob"), "en") == "hidden"
    assert balances.cash_seen(state, ANN, state.seat("Bob")).to_json() is None
    off = game("off")
    assert balances.player_cash_text(off, ANN, off.seat("Bob"), "en") == "$1,500"


def test_the_state_json_of_a_phone() -> None:
    state = pay(game("bands"), "Bob", 263)
    shown = balances.state_json(state, state_to_json(state), ANN)
    assert shown["players"]["Bob"]["cash"] is None and shown["players"]["Bob"]["cash_band"] == {"low": 1000,
                                                                                                 "high": 2000}
    assert shown["players"]["Bob"]["net_worth"] is None and shown["bank"]["balance"] is None
    assert shown["players"]["Ann"]["cash"] == 1500
    assert balances.state_json(state, state_to_json(state), balances.BANKER) == state_to_json(state)


def test_a_refusal_names_another_players_cash_only_to_those_who_see_it() -> None:
    state = pay(game("bands"), "Bob", 263)
    trade = parse_action({"action": "trade", "from": "Ann", "to": "Bob", "take": {"cash": 1500}, "give": {"cash": 1}})
    with pytest.raises(IllegalAction) as refused:
        apply(state, trade)
    assert "1,237" in refused.value.translated("en")
    assert "1,237" not in balances.refusal_text(state, refused.value, "en", ANN)
    assert balances.refusal_text(state, refused.value, "en", BOB) == refused.value.translated("en")


def test_a_debts_log_line_hides_what_is_missing() -> None:
    state = game("hidden")
    state, events = apply(state, parse_action({"action": "pay", "player": "Bob", "amount": 1700, "to": "bank"}))
    assert any("$200 more" in line for line in balances.log_lines(state, events, "en", BOB))
    assert not any("$200" in line for line in balances.log_lines(state, events, "en", ANN))
    assert not any("$200" in line for line in balances.log_lines(state, events, "en", balances.TABLE))


def test_the_end_shows_everything() -> None:
    state = apply(game("hidden"), parse_action({"action": "end_game"}))[0]
    assert balances.sees_all(state, ANN)
