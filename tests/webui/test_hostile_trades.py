"""The hostile phone, second round: trade offers. An accept names the offer it was shown (its terms and
its game), an offer whose deed changed is withdrawn on both phones, and under hidden balances offers tell
the proposer nothing of the receiver's cash; the watchers' cached state is not a player's."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from banker.actions import NewGame
from banker.session import Session
from tests.webui.conftest import do
from tests.webui.test_stream import open_stream, read_until
from webui.stream import Broker


def cash(session: Session, player: str) -> int:
    assert session.state is not None
    return session.state.players[session.state.seat(player)].cash


def offer(ann: Any, **trade: Any) -> dict[str, Any]:
    answer = ann.post("/api/trades", {"from": "Ann", "to": "Bob", **trade})
    assert answer.status_code == 200, answer.get_json()
    proposal: dict[str, Any] = answer.get_json()["proposal"]
    return proposal


# --- 3. an accept names the offer it was shown ---------------------------------------------------------

def test_an_accept_with_other_terms_is_refused_with_409_and_nothing_moves(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Bob", property="boardwalk")
    ann, bob = phone("Ann"), phone("Bob")
    shown = offer(ann, give={"cash": 500}, take={"properties": ["boardwalk"]})
    listed = bob.client.get("/api/trades").get_json()["proposals"][0]
    assert listed["terms"] == shown["terms"] and listed["game"] == session.game_id
    answer = bob.post(f"/api/trades/{shown['id']}/accept", {"terms": "0" * 16, "game": session.game_id})
    assert answer.status_code == 409 and answer.get_json()["error"] == "proposal_changed"
    assert cash(session, "Bob") == 1500 - 400
    assert bob.post(f"/api/trades/{shown['id']}/accept", {"terms": shown["terms"],
                                                          "game": session.game_id}).status_code == 200
    assert cash(session, "Bob") == 1500 - 400 + 500


def test_an_accept_meant_for_the_last_games_offer_does_not_take_this_games(phone: Any, session: Session) -> None:
    ann, bob = phone("Ann"), phone("Bob")
    first_game = session.game_id
    old = offer(ann, give={"cash": 300})  # game 1's offer 1: Ann gives Bob $300
    html_page = bob.client.get("/trades").get_data(as_text=True)  # the page Bob still has open
    banker = phone(None, address="127.0.0.2").banker()
    assert banker.act({"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"]}).status_code == 200
    do(session, action="buy", player="Bob", property="boardwalk")
    new = offer(phone("Ann"), give={"cash": 1}, take={"properties": ["boardwalk"]})  # this game's offer 1
    assert new["id"] == old["id"] == 1 and new["game"] != first_game
    answer = bob.post(f"/api/trades/{old['id']}/accept", {"terms": old["terms"], "game": first_game})
    assert answer.status_code == 409 and answer.get_json()["error"] == "proposal_changed"
    # The Trades page's own form names the game and the terms: sent from the old page, it is refused too.
    form = re.search(r'action="/trades/1/accept".*?</form>', html_page, re.S)
    assert form
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)))
    assert fields["terms"] == old["terms"] and fields["game"] == str(first_game)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html_page)
    assert token
    sent = bob.client.post("/trades/1/accept", data={**fields, "csrf_token": token.group(1),
                                                      "idem": "stale-page-accept-1"})
    assert sent.status_code == 303
    assert session.state is not None and session.state.props[session.state.deed("boardwalk").number].owner == 1
    assert "not the one this page showed" in html.unescape(bob.client.get("/trades").get_data(as_text=True))


# --- 4. bait and switch ----------------------------------------------------------------------------------------

def test_mortgaging_an_offered_deed_withdraws_the_offer_on_both_phones(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="boardwalk")
    ann, bob = phone("Ann"), phone("Bob")
    stream = open_stream(bob, since=f"{session.game_id}-{session.state.seq if session.state else 0}")
    chunks = iter(stream.response)
    made = offer(ann, give={"properties": ["boardwalk"]}, take={"cash": 380})
    read_until(chunks, "event: trades")
    mortgaged = ann.act({"action": "mortgage", "player": "Ann", "property": "boardwalk"})
    assert mortgaged.status_code == 200
    line = "Ann's trade offer to Bob is withdrawn: Boardwalk has changed since it was offered."
    assert line in mortgaged.get_json()["log"]
    text = read_until(chunks, "event: trades")  # Bob's pages that show trades read again
    assert line in json.loads(text.split("event: state\n", 1)[1].split("data: ", 1)[1].split("\n", 1)[0])["log"]
    stream.close()
    for who in (ann, bob):
        assert who.client.get("/api/trades").get_json()["proposals"] == []
        assert line in html.unescape(who.client.get("/history").get_data(as_text=True))
    answer = bob.post(f"/api/trades/{made['id']}/accept", {"terms": made["terms"]})
    assert answer.status_code == 409 and answer.get_json()["error"] == "proposal_gone"
    assert cash(session, "Bob") == 1500 and session.state is not None and not session.state.debts


# --- 9. hidden balances: offers and the cached state -----------------------------------------------------

def hidden_game(session: Session) -> None:
    """A new game under hidden balances, with a player the family called "-"."""
    session.submit(NewGame("us", ("Ann", "Bob", "-"), {"hidden_balances": "hidden"}))


def test_twenty_offers_tell_the_proposer_nothing_of_the_receivers_cash(phone: Any, session: Session) -> None:
    hidden_game(session)
    do(session, action="buy", player="Ann", property="baltic")
    do(session, action="pay", player="Bob", amount=873, to="bank")  # Bob: $627
    ann, bob = phone("Ann"), phone("Bob")
    seen = []
    for amount in range(100, 2001, 100):
        answer = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                          "take": {"cash": amount}})
        page = ann.client.get("/trades").get_data(as_text=True)
        seen.append((answer.status_code, "does not have" in page or "needs" in page or "627" in page))
        ann.post(f"/api/trades/{answer.get_json()['proposal']['id']}/cancel", {})
    assert seen == [(200, False)] * 20
    made = offer(ann, give={"properties": ["baltic"]}, take={"cash": 700})
    refused = bob.post(f"/api/trades/{made['id']}/accept", {"terms": made["terms"]})
    assert refused.status_code == 409 and "$627" in refused.get_json()["message"]  # Bob's own cash, to Bob
    assert bob.client.get("/api/trades").get_json()["proposals"][0]["id"] == made["id"]  # still open


def test_a_player_named_dash_and_a_watcher_never_share_a_cached_state(session: Session) -> None:
    hidden_game(session)
    broker = Broker(session, None, 8, 0.2)
    state = session.state
    assert state is not None and session.game_id is not None
    from banker.balances import Viewer

    as_dash = json.loads(broker.state_json(session.game_id, state, Viewer("-", False)))
    as_watcher = json.loads(broker.state_json(session.game_id, state, Viewer(None, False)))
    assert as_dash["players"]["-"]["cash"] == 1500  # the player "-" sees its own cash
    assert "cash" not in as_watcher["players"]["-"] or as_watcher["players"]["-"]["cash"] is None
    again = json.loads(broker.state_json(session.game_id, state, Viewer("-", False)))
    assert again == as_dash
    broker.shutdown()
