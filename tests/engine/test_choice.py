"""The whole choice from the engine (banker.choice): its order, its words, and what a phone may send."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from banker import choice as choosing
from banker import offer as offering
from banker.actions import (
    AcceptTrade,
    Bid,
    Bundle,
    Buy,
    Collect,
    DrawCard,
    Mortgage,
    NewGame,
    Pay,
    ProposeTrade,
    Rent,
    Salary,
    StartAuction,
    Tax,
    parse_action,
)
from banker.edition import load_edition
from banker.engine import apply
from banker.errors import BankerError
from banker.messages import LANGUAGES, template
from banker.sim.game import Game, accepted_actions
from banker.sim.strategies import STRATEGIES
from banker.state import GameState
from banker.text import describe_action_json

IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def game(*lines: dict[str, object]) -> GameState:
    state = None
    for line in lines:
        state, _ = apply(state, parse_action(line))
    assert state is not None
    return state


def start(edition: str = "us", players: tuple[str, ...] = ("Ann", "Bob", "Cy"), **rules: object) -> GameState:
    state, _ = apply(None, NewGame(edition, players, dict(rules)))
    return state


def played_states(seeds: int = 2) -> list[GameState]:
    """States from self-played games of every edition, a few hundred actions each."""
    out: list[GameState] = []
    bots = list(STRATEGIES.values())
    for seed in range(seeds):
        for edition in ("us", "uk", "ru"):
            played = Game(seed, [bots[i % len(bots)] for i in range(4)], edition,
                          {"free_parking_pot": seed % 2 == 0})
            played.play(150)
            state = None
            for number, action in enumerate(accepted_actions(played.log)):
                state, _ = apply(state, action)
                if number % 9 == 0 and not state.ended:
                    out.append(state)
    return out


STATES = played_states()


def every_choice(state: GameState, language: str, fronts: tuple[str, ...] = choosing.FRONTS) -> list[choosing.Choice]:
    out = [choosing.table_choice(state, language)] if "table" in fronts else []
    for player in state.players:
        if player.bankrupt:
            continue
        name = player.name
        for front in fronts:
            out.append(choosing.card_choice(state, name, language, front=front))
        for square in ("go", "income_tax", "luxury_tax", "jail", "free_parking", "chance"):
            out.append(choosing.square_choice(state, name, square, language))
        for prop in state.edition.properties[::3]:
            for front in fronts:
                out.append(choosing.deed_choice(state, name, prop.id, language, front=front))
        if state.debts_of(state.seat(name)):
            out.append(choosing.debt_choice(state, name, language))
        if state.auction is not None:
            out.append(choosing.auction_choice(state, name, language))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_menu_line_fits_the_table_and_reads_as_words(language: str) -> None:
    lines = 0
    for state in STATES[::2]:
        for found in every_choice(state, language):
            assert len(found.title) <= choosing.MENU_WIDTH, found.title
            for shown in found:
                lines += 1
                assert len(shown.menu) <= choosing.MENU_WIDTH * choosing.MENU_ROWS, (shown.kind, shown.menu)
                cut = shown.menu.endswith("…") and len(shown.menu) >= choosing.MENU_WIDTH
                assert not cut, (shown.kind, shown.menu)  # the money, a deed's name: nothing is cut
                for words in (shown.menu, shown.button, shown.sentence):
                    assert words and not IDENTIFIER.search(words), (shown.kind, words)
                    assert "{" not in words, (shown.kind, words)
                assert shown.menu.startswith(choosing.REFUSED_MARK) == (shown.offer.refusal is not None)
                assert bool(shown.refused) == (shown.offer.refusal is not None)
    assert lines > 1000


def test_every_kind_of_offer_has_its_own_words_in_every_language() -> None:
    kinds: set[str] = set()
    for state in STATES:
        for found in every_choice(state, "en"):
            for shown in found:
                kinds.add(shown.kind)
                kinds.update(c.kind for c in shown.offer.choices)
    assert {"buy", "auction", "rent", "mortgage", "build_house", "salary", "tax", "pay_bank", "end_turn"} <= kinds
    for kind in kinds:
        for language in LANGUAGES:
            for part in ("menu", "button"):
                assert template(f"choice_{part}_{kind}", language) is not None, (kind, part, language)


def test_a_deed_for_sale_is_bought_at_once_and_declining_puts_it_up_for_auction() -> None:
    state = start()
    found = choosing.deed_choice(state, "Ann", "boardwalk")
    assert [i.kind for i in found] == ["buy", "auction"]
    assert found.direct == 0 and found.decline == 1
    assert found.items[0].menu == "Buy $400"
    assert found.items[0].button == "Buy Boardwalk ($400)"
    assert found.items[0].sentence == "Ann buys Boardwalk for $400."


def test_the_phones_words_are_written_only_when_they_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table reads the menu lines alone: a choice made for it writes no button and no sentence."""
    written: list[str] = []

    def counted(name: str, words: Callable[..., str]) -> Callable[..., str]:
        def wrapper(*args: object) -> str:
            written.append(name)
            return words(*args)
        return wrapper

    monkeypatch.setattr(choosing, "button_words", counted("button", choosing.button_words))
    monkeypatch.setattr(choosing, "sentence_words", counted("sentence", choosing.sentence_words))
    state = STATES[5]
    menus = [i.menu for p in state.players for i in choosing.card_choice(state, p.name, front="table")]
    assert menus and written == []
    shown = choosing.deed_choice(start(), "Ann", "boardwalk").items[0]
    assert (shown.button, shown.sentence) == ("Buy Boardwalk ($400)", "Ann buys Boardwalk for $400.")
    assert (shown.button, shown.sentence) == ("Buy Boardwalk ($400)", "Ann buys Boardwalk for $400.")
    assert written == ["button", "sentence"]  # once each


def test_the_table_card_leaves_the_transfer_to_a_tap_and_offers_the_end_of_the_turn() -> None:
    state = start()
    table = [i.kind for i in choosing.card_choice(state, "Ann", front="table")]
    phone = [i.kind for i in choosing.card_choice(state, "Ann", front="phone")]
    assert "transfer" not in table and "end_turn" in table and "collect" in table
    assert "transfer" in phone and "collect" not in phone and "end_turn" not in phone


def test_a_payment_that_becomes_a_debt_shows_its_amount_and_what_is_short() -> None:
    state = game({"action": "new_game", "edition": "us", "players": ["Ann", "Bob"]},
                 {"action": "pay", "player": "Ann", "amount": 1468, "to": "bank"})
    shown = choosing.square_choice(state, "Ann", "income_tax").items[0]
    assert shown.menu == "Pay $200"
    assert shown.button == "Pay Income Tax ($200): $168 short, it becomes a debt"
    fine = start()
    assert "$0" not in choosing.square_choice(fine, "Ann", "income_tax").items[0].button


def test_each_way_to_raise_names_its_deed_and_its_real_lift_cost() -> None:
    state = game({"action": "new_game", "edition": "us", "players": ["Ann", "Bob"]},
                 {"action": "buy", "player": "Ann", "property": "oriental"},
                 {"action": "buy", "player": "Ann", "property": "boardwalk"},
                 {"action": "pay", "player": "Ann", "amount": 1000, "to": "bank"},
                 {"action": "tax", "player": "Ann", "square": "income_tax"})
    ways = [i for i in choosing.debt_choice(state, "Ann") if i.kind == "mortgage"]
    assert [w.button for w in ways] == ["Mortgage Oriental Avenue (+$50; lifting it costs $55)",
                                        "Mortgage Boardwalk (+$200; lifting it costs $220)"]


def test_a_building_auction_lists_only_the_streets_a_house_may_go_on_with_the_printed_minimum() -> None:
    lines: list[dict[str, object]] = [{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"],
                                       "rules": {"starting_cash": 5000}}]
    ann, bob, cy = (("mediterranean", "baltic", "oriental", "vermont", "connecticut"),
                    ("st_james", "tennessee", "new_york"), ("kentucky", "indiana", "illinois"))
    for owner, streets in (("Ann", ann), ("Bob", bob), ("Cy", cy)):
        lines += [{"action": "buy", "player": owner, "property": p} for p in streets]
    for _ in range(4):  # 32 houses on Ann's and Bob's streets: the bank has none
        lines += [{"action": "build", "player": "Ann", "property": p} for p in ann]
        lines += [{"action": "build", "player": "Bob", "property": p} for p in bob]
    lines += [{"action": "sell_building", "player": "Bob", "property": "new_york"},
              {"action": "building_auction", "building": "house"}]
    state = game(*lines)
    assert [i.kind for i in choosing.auction_choice(state, "Ann")] == ["bid"]
    assert choosing.auction_choice(state, "Ann").items[0].refused.startswith("Ann has no street to build on")
    bids = choosing.auction_choice(state, "Cy")
    assert [i.offer.figure("property") for i in bids] == list(cy)
    assert [i.menu for i in bids] == ["Kentucky Avenue", "Indiana Avenue", "Illinois Avenue"]
    assert all(i.asks[0].field == "amount" and i.asks[0].minimum == 150 for i in bids)
    assert [i.offer.figure("property") for i in choosing.auction_choice(state, "Bob")] == ["new_york"]


def test_an_amount_to_choose_says_its_range_start_and_steps() -> None:
    state = start()
    pay = next(i for i in choosing.card_choice(state, "Ann") if i.kind == "pay_bank")
    (ask,) = pay.asks
    assert (ask.field, ask.minimum, ask.maximum, ask.start, ask.steps) == ("amount", 1, 1500, 10, (10, 1, 100))
    transfer = next(i for i in choosing.card_choice(state, "Ann") if i.kind == "transfer")
    assert [a.field for a in transfer.asks] == ["to", "amount"]
    assert [o.value for o in transfer.asks[0].options] == ["Bob", "Cy"]


def test_a_drawn_card_asks_what_it_needs_and_the_deck_lists_its_cards() -> None:
    state = start()
    deck = choosing.deck_choice(state, "Ann", "chance")
    assert len(deck.items[0].asks[0].options) == len(state.edition.decks["chance"])
    drawn = choosing.drawn_choice(state, DrawCard("Ann", "chance", "advance_illinois"))
    assert [i.kind for i in drawn] == ["card_passed_go", "card_not_passed_go"]
    where = choosing.drawn_choice(state, DrawCard("Ann", "chance", "nearest_railroad_1"))
    assert [i.menu for i in where] == ["No. 1 (next: Vermont)", "No. 2 (next: Indiana)", "No. 3 (next: Park)"]


# --- what a phone may send ------------------------------------------------------------------------------
def refused(state: GameState, player: str, action: object) -> BankerError:
    before = state
    with pytest.raises(BankerError) as caught:
        choosing.offered(state, player, action)  # type: ignore[arg-type]
    assert state == before
    return caught.value


def test_a_phone_cannot_name_its_own_price() -> None:
    state = start()
    error = refused(state, "Ann", Buy("Ann", "boardwalk", price=1))
    assert isinstance(error, choosing.NotOffered)
    assert choosing.offered(state, "Ann", Buy("Ann", "boardwalk")).amount == -400


def test_a_phone_cannot_take_money_from_the_bank_or_act_for_another_player() -> None:
    state = start()
    assert isinstance(refused(state, "Ann", Collect("Ann", 500)), choosing.NotOffered)
    assert isinstance(refused(state, "Ann", Salary("Bob")), choosing.NotOffered)
    assert isinstance(refused(state, "Ann", Pay("Bob", 100, "Ann")), choosing.NotOffered)
    assert isinstance(refused(state, "Ann", Tax("Bob", "income_tax")), choosing.NotOffered)
    refused(state, "Ann", Pay("bank", 100, "Ann"))


def test_a_phone_cannot_send_a_value_outside_the_offered_range() -> None:
    state = game({"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"]},
                 {"action": "buy", "player": "Bob", "property": "electric_company"})
    assert choosing.offered(state, "Ann", Rent("Ann", "electric_company", dice=7)).amount == -28
    refused(state, "Ann", Rent("Ann", "electric_company", dice=13))
    refused(state, "Ann", Rent("Ann", "electric_company", dice=1))
    assert isinstance(refused(state, "Ann", Pay("Ann", 1501, "bank")), choosing.NotOffered)
    refused(state, "Ann", Pay("Ann", 0, "bank"))
    refused(state, "Ann", Pay("Ann", 50, "Ann"))
    assert choosing.offered(state, "Ann", Pay("Ann", 50, "Bob")).amount == -50
    refused(state, "Ann", Pay("Ann", 50, "bank", reason="x" * 41))
    assert choosing.offered(state, "Ann", Pay("Ann", 50, "bank", reason="pizza")).amount == -50


def test_a_decliner_cannot_bid_when_the_house_rules_say_so() -> None:
    state = start(decliner_may_bid=False)
    state, _ = apply(state, StartAuction("boardwalk", declined_by="Ann"))
    refused(state, "Ann", Bid("Ann", 10))
    assert choosing.offered(state, "Bob", Bid("Bob", 10)).action == Bid("Bob", 10)


def test_only_the_receiver_accepts_a_proposal() -> None:
    state = start()
    state, _ = apply(state, ProposeTrade("Ann", "Bob", Bundle(cash=100), Bundle()))
    number = state.proposals[0].id
    accept = next(o for o in offering.proposal_offers(state, "Bob") if o.kind == "accept_trade")
    assert choosing.offered(state, "Bob", accept.action).kind == "accept_trade"  # type: ignore[arg-type]
    refused(state, "Cy", AcceptTrade("Cy", number))
    refused(state, "Ann", AcceptTrade("Ann", number))


def test_a_proposal_asks_for_deeds_and_cards_the_proposer_holds() -> None:
    state = game({"action": "new_game", "edition": "us", "players": ["Ann", "Bob"]},
                 {"action": "buy", "player": "Ann", "property": "baltic"})
    assert choosing.offered(state, "Ann", ProposeTrade("Ann", "Bob", Bundle(properties=("baltic",)),
                                                       Bundle(cash=50))).kind == "propose_trade"
    refused(state, "Ann", ProposeTrade("Ann", "Bob", Bundle(jail_cards=1), Bundle(cash=50)))
    refused(state, "Ann", ProposeTrade("Bob", "Ann", Bundle(cash=1), Bundle()))
    refused(state, "Ann", ProposeTrade("Ann", "Ann", Bundle(cash=1), Bundle()))


def test_what_the_rules_refuse_anyway_is_refused_with_their_reason() -> None:
    state = game({"action": "new_game", "edition": "us", "players": ["Ann", "Bob"]},
                 {"action": "buy", "player": "Bob", "property": "boardwalk"})
    error = refused(state, "Ann", Buy("Ann", "boardwalk"))
    assert error.key == "already_owned"
    assert refused(state, "Ann", Mortgage("Ann", "boardwalk")).key == "not_owner"


def test_every_action_of_the_whole_games_a_player_makes_is_one_that_was_offered() -> None:
    """The bots' games: every action a player's phone would send is matched (the banker's own — a trade at
    once, the salary of a house rule that is off — are left to the banker role)."""
    matched = 0
    for state in STATES:
        for player in state.players:
            if player.bankrupt or state.ended:
                continue
            for found in every_choice(state, "en", ("phone",)):
                for shown in found:
                    offer = shown.offer
                    if offer.action is None or offer.needs or offer.refusal is not None:
                        continue
                    if found.player != player.name:
                        continue
                    assert choosing.offered(state, player.name, offer.action).action == offer.action
                    matched += 1
    assert matched > 500


def test_a_card_drawn_on_a_square_of_its_deck_is_offered() -> None:
    state = start()
    action = DrawCard("Ann", "chance", "advance_illinois", square="chance_1")
    assert choosing.offered(state, "Ann", action).complete
    assert choosing.offered(state, "Ann", replace(action, square=None, passed_go=True)).complete
    refused(state, "Ann", replace(action, card="no_such_card"))


def test_another_players_action_is_not_offered_and_says_nothing_of_their_cash() -> None:
    state = start()
    state, _ = apply(state, Pay("Bob", 1450, "bank"))  # Bob has $50
    error = refused(state, "Ann", Buy("Bob", "boardwalk"))
    assert isinstance(error, choosing.NotOffered)
    assert "$50" not in error.translated("en")


def test_the_refusal_names_the_action_in_the_language_it_is_read_in() -> None:
    state = start()
    error = refused(state, "Ann", Buy("Ann", "boardwalk", price=1))
    assert "Boardwalk" in error.translated("ru")
    assert "buys" in error.translated("en")
    assert "buys" not in error.translated("ru") and "buys" not in error.translated("bg")


def test_an_accept_may_name_the_terms_it_was_shown_and_a_refusal_may_say_why() -> None:
    from banker.actions import RefuseTrade
    from banker.proposals import terms

    state = start()
    state, _ = apply(state, ProposeTrade("Ann", "Bob", Bundle(cash=100), Bundle()))
    proposal = state.proposals[0]
    assert choosing.offered(state, "Bob", AcceptTrade("Bob", proposal.id, terms(proposal))).kind == "accept_trade"
    assert refused(state, "Bob", AcceptTrade("Bob", proposal.id, "0" * 16)).key == "proposal_changed"
    words = "x" * 80
    assert choosing.offered(state, "Bob", RefuseTrade("Bob", proposal.id, words)).kind == "refuse_trade"


RU_ACTION_WORDS = [
    ({"action": "buy", "player": "Боря", "property": "nagatinskaya"}, "Боря покупает Нагатинскую улицу"),
    ({"action": "rent", "player": "Боря", "property": "nagatinskaya"}, "Боря платит аренду за Нагатинскую улицу"),
    ({"action": "mortgage", "player": "Боря", "property": "nagatinskaya"}, "Боря закладывает Нагатинскую улицу"),
    ({"action": "unmortgage", "player": "Боря", "property": "nagatinskaya"},
     "Боря выкупает Нагатинскую улицу из залога"),
    ({"action": "keep_mortgaged", "player": "Боря", "property": "nagatinskaya"},
     "Боря оставляет Нагатинскую улицу в залоге"),
    ({"action": "build", "player": "Боря", "property": "nagatinskaya"},
     "Боря строит на участке «Нагатинская улица»"),
]


@pytest.mark.parametrize(("data", "words"), RU_ACTION_WORDS)
def test_an_action_named_in_russian_puts_the_deed_in_its_case(data: dict[str, str], words: str) -> None:
    # What an undo takes back and a refusal names: the deed is the verb's object ("покупает Нагатинскую улицу").
    assert describe_action_json(load_edition("ru"), data, "ru") == words


def test_a_title_naming_a_deed_takes_the_editions_short_form_then_the_deeds_own_word() -> None:
    ru, us = load_edition("ru"), load_edition("us")
    assert choosing.deed_title(ru, "rizhskaya_railway") == "Рижская ж. д."
    assert choosing.deed_title(us, "boardwalk") == "Boardwalk"
    assert choosing.deed_title(us, "baltic", lambda name: f"Auction: {name}") == "Auction: Baltic"
    assert choosing.deed_title(ru, "leningradskaya_railway", lambda name: f"Auction: {name}") == "Ленинградская ж. д."


def test_a_utility_rents_confirmation_says_the_dice_then_why_on_lines_of_their_own() -> None:
    state, _ = apply(start(players=("Ann", "Bob")), Buy("Ann", "electric_company"))
    for language, dice, why in (("en", "dice 12", "1 utility owned"), ("ru", "кубики 12", "предприятий: 1"),
                                ("bg", "зарове 12", "комунални: 1")):
        said = choosing.confirmation(state, offering.preview(state, Rent("Bob", "electric_company", 12)), language)
        assert said.lines == (f"Bob → Ann · {dice}", why), said.lines
