"""A player's phone sends only what the engine offered its player: every case through the JSON API and the
plain form is refused (403 or 422) with the state and the journal unchanged, and the banker's corrections
stay the banker's."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest

from banker.session import Session
from tests.webui.conftest import do, snapshot

NOT_OFFERED = (403, 422)
RULES = (403, 409, 422)
"""Refused as not offered, or (when the rules refuse it anyway) with the rules' own reason."""
UNOFFERED = [
    pytest.param("buy", {"player": "Ann", "property": "boardwalk", "price": 1}, NOT_OFFERED, id="a price on a buy"),
    pytest.param("collect", {"player": "Ann", "amount": 500}, NOT_OFFERED, id="money from the bank"),
    pytest.param("pay", {"player": "bank", "amount": 100, "to": "Ann"}, NOT_OFFERED, id="the bank as payer"),
    pytest.param("buy", {"player": "Ann", "property": "boardwalk", "colour": "red"}, NOT_OFFERED,
                 id="a field buy does not have"),
    pytest.param("salary", {"player": "Bob"}, NOT_OFFERED, id="another player's salary"),
    pytest.param("pay", {"player": "Ann", "amount": 1501, "to": "bank"}, NOT_OFFERED, id="an amount above the cash"),
    pytest.param("bid", {"player": "Ann", "amount": 10}, RULES, id="a bid by a decliner"),
    pytest.param("pay", {"player": "Ann", "amount": 50, "to": "Ann"}, RULES, id="a payment to oneself"),
    pytest.param("rent", {"player": "Ann", "property": "electric_company", "dice": 13}, RULES, id="dice outside 2-12"),
]
"""What Ann's phone may not send, though each names Ann or nobody: the issue's cases and a few more."""


def world(session: Session) -> str:
    assert session.game_id is not None
    return json.dumps([snapshot(session), session.journal.action_lines(session.game_id)])


@pytest.fixture
def game(session: Session) -> Session:
    """Bob owns Electric Company; Boardwalk is up for auction, declined by Ann under the rule that keeps her
    out of the bidding."""
    do(session, action="new_game", edition="us", players=["Ann", "Bob", "Cy"], rules={"decliner_may_bid": False})
    do(session, action="buy", player="Bob", property="electric_company")
    return session


def auction_if_bidding(session: Session, name: str) -> None:
    if name == "bid":
        do(session, action="auction", property="boardwalk", declined_by="Ann")


@pytest.mark.parametrize(("name", "fields", "statuses"), UNOFFERED)
def test_a_players_phone_cannot_send_what_was_not_offered_as_json(game: Session, phone: Any, name: str,
                                                                  fields: dict[str, Any],
                                                                  statuses: tuple[int, ...]) -> None:
    auction_if_bidding(game, name)
    ann = phone("Ann")
    before = world(game)
    response = ann.act({"action": name, **fields})
    assert response.status_code in statuses, response.get_json()
    assert world(game) == before


@pytest.mark.parametrize(("name", "fields", "statuses"), UNOFFERED)
def test_a_players_phone_cannot_send_what_was_not_offered_as_a_form(game: Session, phone: Any, name: str,
                                                                    fields: dict[str, Any],
                                                                    statuses: tuple[int, ...]) -> None:
    auction_if_bidding(game, name)
    ann = phone("Ann")
    page = ann.client.get("/money").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    before = world(game)
    sent = ann.client.post("/do", data={"action": name, **{k: str(v) for k, v in fields.items()},
                                        "csrf_token": token.group(1), "idem": uuid.uuid4().hex, "next": "/money"})
    assert sent.status_code == 303
    shown = ann.client.get("/money").get_data(as_text=True)
    assert 'class="flash error"' in shown, "the refusal is not on the page"
    assert world(game) == before


def test_what_was_offered_goes_through(game: Session, phone: Any) -> None:
    ann = phone("Ann")
    assert ann.act({"action": "buy", "player": "Ann", "property": "boardwalk"}).status_code == 200
    assert ann.act({"action": "rent", "player": "Ann", "property": "electric_company", "dice": 7}).status_code == 200
    assert ann.act({"action": "pay", "player": "Ann", "amount": 50, "to": "Cy", "reason": "pizza"}).status_code == 200
    state = game.state
    assert state is not None
    assert state.players[state.seat("Ann")].cash == 1500 - 400 - 28 - 50


def test_the_bankers_corrections_stay_the_bankers(game: Session, phone: Any) -> None:
    banker = phone(None).banker()
    assert banker.act({"action": "buy", "player": "Ann", "property": "boardwalk", "price": 1}).status_code == 200
    assert banker.act({"action": "collect", "player": "Ann", "amount": 500}).status_code == 200
    state = game.state
    assert state is not None
    assert state.players[state.seat("Ann")].cash == 1500 - 1 + 500


def test_a_banker_who_plays_sends_as_the_banker(game: Session, phone: Any) -> None:
    bob = phone("Bob").banker()
    assert bob.act({"action": "collect", "player": "Bob", "amount": 10}).status_code == 200
    assert bob.act({"action": "salary", "player": "Ann"}).status_code == 200
