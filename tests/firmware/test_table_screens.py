"""The table's Done screen says the money first, then the board's moves; its lines that matter fit or page;
the confirm word fits the act; a card the banker must count is near the top of its deck's list."""

from __future__ import annotations

from typing import Any

from banker import choice as choosing
from hardware.display import body_lines


def pages_of(play: Any, seconds: int) -> list[str]:
    seen: list[str] = []
    for _ in range(seconds):
        screen = play.screen()
        if screen not in seen:
            seen.append(screen)
        play.do("wait:1")
    return seen


def test_the_done_screen_of_a_build_says_the_money_then_the_board(make_play: Any) -> None:
    play = make_play("Ann", "Bob")
    play.do("tap:Ann", "tap:mediterranean", "ok", "wait:6", "tap:Ann", "tap:baltic", "ok", "wait:6")
    play.do("tap:Ann", "tap:baltic")
    play.choose("Build")
    play.do("ok")
    seen = pages_of(play, 5)
    assert seen[0].startswith("Done ✓\nAnn builds a house on Baltic Avenue for $50.\n"), seen
    assert any("Put 1 house on Baltic Avenue" in page for page in seen[1:]), seen


def test_the_done_screen_of_an_undo_says_what_was_undone_first(make_play: Any) -> None:
    play = make_play("Ann", "Bob")
    play.do("tap:Ann", "tap:baltic", "ok", "wait:6", "hold:cancel", "ok")
    seen = pages_of(play, 5)
    assert "Undone: Ann buys Baltic Avenue; $60 back to Ann." in seen[0], seen
    assert any("Return Baltic Avenue to the bank" in page for page in seen), seen


def test_the_done_screen_of_a_bankruptcy_says_who_is_out(make_play: Any) -> None:
    play = make_play("Ann", "Борис", "Цветан", starting_cash=500)
    for action, player, what in (("buy", "Борис", "boardwalk"), ("buy", "Цветан", "reading_railroad"),
                                 ("buy", "Цветан", "electric_company"), ("mortgage", "Цветан", "reading_railroad"),
                                 ("mortgage", "Цветан", "electric_company")):
        play.do({"phone": {"action": action, "player": player, "property": what}})
    play.do({"phone": {"action": "pay", "player": "Цветан", "amount": 305, "to": "Ann"}}, "wait:6")
    play.do("tap:Цветан", "tap:boardwalk", "ok", "wait:6", "tap:Цветан")  # $50 rent owed, $20 in cash
    play.choose("Declare bankruptcy")
    play.do("ok")
    seen = [page for page in pages_of(play, 30) if page.startswith("Done ✓")]
    assert seen[0].startswith("Done ✓\nЦветан is bankrupt, owing $50."), seen
    said = " ".join(" ".join(page.splitlines()[1:-1]) for page in seen)
    for words in ("Борис receives Цветан's cash: $20.", "Give Reading Railroad to Борис",
                  "Give Electric Company to Борис"):
        assert said.count(words) == 1, (words, seen)
    assert "lift it" not in said, seen  # the mortgaged deeds are asked about on the next screen
    assert len(seen) <= 4, seen
    assert play.screen().startswith("Decision\nБорис received Reading Railroad mortgaged"), play.screen()


def test_a_bankruptcy_is_confirmed_with_its_own_word(make_play: Any) -> None:
    play = make_play("Ann", "Bob", starting_cash=100)
    play.do("tap:Bob", "tap:income_tax", "ok", "wait:6", "tap:Bob")
    play.choose("Declare bankruptcy")
    assert play.screen().endswith("OK bankrupt  ✕ back"), play.screen()


def test_a_debtor_who_cannot_cover_the_debt_opens_the_card_on_bankruptcy(make_play: Any) -> None:
    play = make_play("Ann", "Борис", "Цветан", starting_cash=100)
    play.do("tap:Цветан", "tap:income_tax", "ok", "wait:6", "tap:Цветан")  # owes $200, has $100, nothing to sell
    view = play.script.loop.view
    assert view is not None and view.highlight is not None
    assert view.lines[view.highlight] == "Declare bankruptcy", play.screen()
    play.do("ok")
    assert play.screen().endswith("OK bankrupt  ✕ back"), play.screen()
    play.do("ok")
    assert play.json()["players"]["Цветан"]["bankrupt"]


def test_a_debtor_who_can_raise_the_money_opens_the_card_on_paying(make_play: Any) -> None:
    play = make_play("Ann", "Bob", starting_cash=500)
    play.do("tap:Bob", "tap:boardwalk", "ok", "wait:6", "tap:Bob", "tap:income_tax", "ok", "wait:6", "tap:Bob")
    view = play.script.loop.view
    assert view is not None and view.highlight is not None
    assert play.json()["debts"] and view.lines[view.highlight].startswith("✕ Pay debts"), play.screen()


def test_the_debt_screens_title_is_not_cut_and_says_bankrupt(make_play: Any) -> None:
    play = make_play("Ann", "Борис", "Цветан", starting_cash=100)
    play.do("tap:Цветан", "tap:income_tax", "ok", "wait:6")
    lines = play.screen().splitlines()
    assert all(not line.endswith("…") for line in lines), lines
    assert lines[0] == "Цветан: bankrupt?" and "$200" in lines[1], lines


def test_general_repairs_is_one_press_from_the_top_of_the_chance_cards(make_play: Any) -> None:
    for edition in ("us", "uk", "ru"):
        play = make_play("Ann", "Bob", edition=edition)
        play.do("tap:Ann", "tap:chance")
        lines = play.screen().splitlines()
        at = next(n for n, line in enumerate(lines) if "repairs" in line.lower() or "ремонт" in line.lower())
        first = next(n for n, line in enumerate(lines) if line.startswith(">")) if any(
            line.startswith(">") for line in lines) else 1
        assert at - first <= 1, lines


def test_a_long_line_of_a_confirmation_scrolls_through_rather_than_ending_cut(make_play: Any) -> None:
    play = make_play("Ann", "Bob")
    play.do("tap:Ann", "tap:mediterranean", "ok", "wait:6", "tap:Ann", "tap:baltic", "ok", "wait:6")
    play.do("tap:Bob", "tap:baltic")
    seen = play.read(8)
    assert "whole group: double" in seen, seen
    assert len("Bob → Ann · whole group: double") > choosing.MENU_WIDTH


def test_a_utility_rents_confirmation_says_the_dice_then_why_a_row_each(make_play: Any) -> None:
    for language, dice in (("en", "dice 12"), ("ru", "кубики 12"), ("bg", "зарове 12")):
        play = make_play("Ann", "Bob", language=language)
        play.do("tap:Ann", "tap:electric_company", "ok", "wait:6", "tap:Bob", "tap:electric_company", "up*10", "ok")
        seen = [row for page in pages_of(play, 6) for row in page.splitlines()[1:2]]
        seen = list(dict.fromkeys(seen))
        assert seen[0] == f"Bob → Ann · {dice}", seen  # the dice are not cut from their total nor left dangling
        assert len(seen) == 2 and all(body_lines(row) == [row] for row in seen), seen
