"""The server-rendered pages, used as plain HTML forms (no JavaScript)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from banker.session import Session
from tests.webui.conftest import Phone, do, snapshot
from tests.webui.fake_table import FakeTable
from webui import create_app

PAGES = ("/", "/deeds", "/money", "/auction", "/trades", "/debts", "/history", "/more", "/end", "/setup", "/strategy",
         "/banker", "/table")


def form_fields(html: str, marker: str = 'name="idem"') -> dict[str, str]:
    """The csrf token and a fresh idempotency key from the first form of a page."""
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    idem = re.search(r'name="idem" value="([^"]+)"', html)
    assert token and idem
    return {"csrf_token": token.group(1), "idem": idem.group(1)}


def page(phone: Phone, path: str) -> str:
    response = phone.client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.get_data(as_text=True)


def cash(session: Session, name: str) -> int:
    assert session.state is not None
    return session.state.players[session.state.seat(name)].cash


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_for_a_player_and_the_banker(phone: Any, session: Session, path: str) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    do(session, action="auction", property="boardwalk", declined_by="Bob")
    html = page(phone("Ann"), path)
    assert "<main" in html and "Traceback" not in html
    assert 'name="csrf-token"' in html
    page(phone(None).banker(), path)


def test_pages_need_a_joined_phone(app: Any) -> None:
    client = app.test_client()
    for path in ("/", "/deeds", "/money"):
        response = client.get(path)
        assert response.status_code in (302, 303) and response.headers["Location"].endswith("/join")


def test_the_partial_page_is_only_the_main_content(phone: Any) -> None:
    html = phone("Ann").client.get("/", headers={"X-Partial": "1"}).get_data(as_text=True)
    assert html.strip().startswith("<main") and "<nav" not in html


def test_joining_with_a_plain_form(app: Any, session: Session) -> None:
    from webui.join import join_code

    client = app.test_client()
    html = client.get("/join").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token
    response = client.post("/join", data={"csrf_token": token.group(1), "code": join_code(session.journal),
                                          "player": "Cy", "lang": "ru"})
    assert response.status_code == 303
    home = client.get("/").get_data(as_text=True)
    assert "Ходит Ann" in home and 'lang="ru"' in home


def test_a_double_submitted_form_pays_once(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    bob = phone("Bob")
    fields = form_fields(page(bob, "/money"))
    form = {**fields, "action": "rent", "property": "baltic", "dice": "", "next": "/money"}
    first = bob.client.post("/do", data=form)
    second = bob.client.post("/do", data=form)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == "/money"
    assert cash(session, "Bob") == 1496
    html = page(bob, "/money")
    assert "Bob pays Ann $4 rent for Baltic Avenue." in html


def test_a_form_without_idempotency_key_is_400(phone: Any, session: Session) -> None:
    before = snapshot(session)
    bob = phone("Bob")
    fields = form_fields(page(bob, "/money"))
    response = bob.client.post("/do", data={"csrf_token": fields["csrf_token"], "action": "salary"})
    assert response.status_code == 400
    assert "idempotency key" in response.get_data(as_text=True)
    assert snapshot(session) == before


def test_a_form_without_csrf_token_is_400(phone: Any, session: Session) -> None:
    before = snapshot(session)
    bob = phone("Bob")
    fields = form_fields(page(bob, "/money"))
    response = bob.client.post("/do", data={"idem": fields["idem"], "action": "salary"})
    assert response.status_code == 400
    assert snapshot(session) == before


def test_a_form_for_another_players_money_is_refused_with_a_message(phone: Any, session: Session) -> None:
    before = snapshot(session)
    bob = phone("Bob")
    fields = form_fields(page(bob, "/money"))
    bob.client.post("/do", data={**fields, "action": "pay", "player": "Ann", "amount": "100", "to": "Bob"})
    assert snapshot(session) == before
    assert "This phone plays Bob" in page(bob, "/")


def test_a_refusal_shows_the_engines_message(phone: Any, session: Session) -> None:
    before = snapshot(session)
    bob = phone("Bob")
    fields = form_fields(page(bob, "/money"))
    bob.client.post("/do", data={**fields, "action": "jail_fine", "next": "/money"})
    assert snapshot(session) == before
    assert "Bob is not in jail." in page(bob, "/money")


def test_deeds_show_rent_and_the_even_building_rule(phone: Any, session: Session) -> None:
    for prop in ("mediterranean", "baltic"):
        do(session, action="buy", player="Ann", property=prop)
    do(session, action="build", player="Ann", property="baltic")
    html = page(phone("Ann"), "/deeds")
    assert "Rent now: $20" in html  # Baltic with a house
    assert "Rent now: $4" in html  # Mediterranean: the whole group, unimproved: double
    assert "Build evenly: Mediterranean Avenue must get its next building before Baltic Avenue." in html
    assert "cannot be mortgaged while its group has buildings" in html


def test_mortgage_and_lift_show_the_ten_percent(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="park_place")
    ann = phone("Ann")
    assert "Mortgage (+$175; lifting costs $193)" in page(ann, "/deeds")
    fields = form_fields(page(ann, "/deeds"))
    ann.client.post("/do", data={**fields, "action": "mortgage", "property": "park_place"})
    assert "Lift the mortgage: $193 ($175 + 10 %: $18)" in page(ann, "/deeds")


def test_debts_page_shows_what_is_missing(phone: Any, session: Session) -> None:
    do(session, action="pay", player="Bob", amount=1450, to="bank")
    do(session, action="pay", player="Bob", amount=200, to="Ann")
    html = page(phone("Bob"), "/debts")
    assert "To Ann: $200 (payment)" in html
    assert re.search(r"<b>Missing</b></td><td class=\"num\"><b>\$150</b>", html)
    assert "even selling everything would not cover it: declare bankruptcy." in html


def test_the_auction_page_bids(phone: Any, session: Session) -> None:
    do(session, action="auction", property="boardwalk", declined_by="Ann")
    cy = phone("Cy")
    html = page(cy, "/auction")
    assert "+10 → $10" in html and "+100 → $100" in html
    fields = form_fields(html)
    cy.client.post("/do", data={**fields, "action": "bid", "amount": "50", "next": "/auction"})
    assert session.state is not None and session.state.auction is not None
    assert session.state.auction.high_bid == 50
    assert "Highest bid by Cy" in page(cy, "/auction")


def test_the_auction_page_says_the_engines_reason_to_whoever_may_not_bid(journal: Any, tmp_path: Any) -> None:
    from banker.actions import NewGame
    from tests.webui.conftest import client_at

    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {"decliner_may_bid": False}))
    app = create_app(session, FakeTable(session), {"TESTING": True, "DATA_DIR": str(tmp_path), "KEEPALIVE": 0.2})
    do(session, action="buy", player="Bob", property="park_place")
    do(session, action="pay", player="Cy", amount=1490, to="bank")
    do(session, action="rent", player="Cy", property="park_place")  # $35 on $10: a debt
    do(session, action="auction", property="boardwalk", declined_by="Ann")
    ann, cy = (Phone(client_at(app), app).join(name) for name in ("Ann", "Cy"))
    html = page(ann, "/auction")
    assert "Ann declined to buy, and the house rules do not let the decliner bid." in html
    assert "+10 → $10" not in html
    html = page(cy, "/auction")
    assert "Cy has a debt to pay first" in html and "+10 → $10" not in html
    assert "+10 → $10" in page(Phone(client_at(app), app).join("Bob"), "/auction")


def test_the_banker_is_offered_a_building_auction_only_in_a_shortage(phone: Any, session: Session) -> None:
    for street in ("mediterranean", "baltic"):
        do(session, action="buy", player="Ann", property=street)
    for street in ("oriental", "vermont", "connecticut"):
        do(session, action="buy", player="Bob", property=street)
    banker = phone(None).banker()
    html = page(banker, "/auction")
    assert 'value="building_auction"' not in html  # 32 houses for the 20 the two could put up
    assert "The bank has 32 houses, and the players who may build now could put up at most 20" in html
    for street in ("mediterranean", "baltic") * 4 + ("oriental", "vermont", "connecticut") * 4:
        do(session, action="build", player="Ann" if street in ("mediterranean", "baltic") else "Bob",
           property=street)
    for street in ("st_charles", "states", "virginia"):
        do(session, action="buy", player="Cy", property=street)
    do(session, action="sell_building", player="Bob", property="connecticut")  # 13 left, 1 + 12 wanted
    html = page(banker, "/auction")
    assert 'value="building_auction"' not in html
    for street in ("st_james", "tennessee", "new_york"):
        do(session, action="buy", player="Cy", property=street)  # 13 left, 25 wanted: a shortage
    html = page(banker, "/auction")
    assert html.count('value="building_auction"') == 1 and "Auction a house" in html


def test_setup_starts_a_game_for_the_banker_only(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    assert "Only the banker starts a new game." in page(ann, "/setup")
    banker = phone(None).banker()
    fields = form_fields(page(banker, "/setup"))
    response = banker.client.post("/setup", data={**fields, "edition": "ru", "players": ["Вера", "Глеб", ""],
                                                 "preset": "short", "rule_starting_cash": "2000", "me": "Вера"})
    assert response.status_code == 303
    assert session.state is not None
    assert [p.name for p in session.state.players] == ["Вера", "Глеб"]
    assert session.state.rules.short_game and session.state.rules.starting_cash == 2000
    assert "Вера" in page(banker, "/")


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
def test_every_house_rule_on_the_setup_page_has_its_name_in_words(phone: Any, language: str) -> None:
    html = page(phone(None, lang=language).banker(), "/setup")
    words = re.sub(r"<[^>]*>", " ", html)  # what the page shows, not its attributes
    assert "rule_" in html and not re.findall(r"\b[a-z]+_[a-z_]+\b", words)


def test_the_first_phone_sets_the_pin_when_there_is_none(session: Session, tmp_path: Any) -> None:
    from banker.journal import Journal

    journal = Journal(tmp_path / "fresh.sqlite3")
    fresh = Session(journal)
    app = create_app(fresh, None, {"TESTING": True})
    phone = Phone(app.test_client(), app).join(None)
    html = page(phone, "/setup")
    fields = form_fields(html)
    phone.client.post("/setup", data={**fields, "edition": "us", "players": ["A", "B"], "new_pin": "12"})
    assert fresh.state is None
    fields = form_fields(page(phone, "/setup"))
    phone.client.post("/setup", data={**fields, "edition": "us", "players": ["A", "B"], "new_pin": "4321"})
    assert fresh.state is not None and phone.me()["banker"] is True
    journal.close()


def test_history_has_undo_for_the_banker(phone: Any, session: Session) -> None:
    do(session, action="salary", player="Ann")
    assert "Undo the last action" not in page(phone("Ann"), "/history")
    banker = phone(None).banker()
    html = page(banker, "/history")
    assert "Ann collects the salary: $200." in html
    banker.client.post("/do", data={**form_fields(html), "action": "undo"})
    assert cash(session, "Ann") == 1500


def test_the_end_page_draws_the_chart(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="boardwalk")
    do(session, action="end_game")
    html = page(phone("Bob"), "/end")
    assert "Game over" in html and "<svg" in html and "<polyline" in html


def test_trades_with_plain_forms(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    ann, bob = phone("Ann"), phone("Bob")
    html = page(ann, "/trades?with=Bob")
    ann.client.post("/trades/propose", data={**form_fields(html), "to": "Bob", "give_properties": "baltic",
                                             "take_cash": "80"})
    html = page(bob, "/trades")
    assert "Ann → Bob" in html and "Baltic Avenue" in html
    action = re.search(r'action="(/trades/\d+/accept)"', html)
    assert action
    bob.client.post(action.group(1), data=form_fields(html))
    assert cash(session, "Ann") == 1500 - 60 + 80
    assert "No trade proposals." in page(bob, "/trades")


def test_a_refused_proposal_shows_its_reason_on_both_phones(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    ann, bob = phone("Ann"), phone("Bob")
    html = page(ann, "/trades?with=Bob")
    ann.client.post("/trades/propose", data={**form_fields(html), "to": "Bob", "give_properties": "baltic",
                                             "take_cash": "80"})
    html = page(bob, "/trades")
    refuse = re.search(r'action="(/trades/\d+/refuse)"', html)
    assert refuse
    bob.client.post(refuse.group(1), data={**form_fields(html), "reason": "too cheap"})
    for who in (ann, bob):
        html = page(who, "/trades")
        assert 'data-testid="refused-proposal"' in html, html
        assert "Bob refused this offer: “too cheap”" in html
        assert not re.search(r'action="/trades/\d+/accept"', html)
    assert cash(session, "Ann") == 1440 and cash(session, "Bob") == 1500
    # In Russian the same, on Bob's phone.
    assert "Отклонено игроком Bob: «too cheap»" in page(phone("Bob", "ru"), "/trades")
    # The proposer puts it away.
    html = page(ann, "/trades")
    put_away = re.search(r'action="(/trades/\d+/cancel)"', html)
    assert put_away and 'data-testid="refused-proposal"' in html
    ann.client.post(put_away.group(1), data=form_fields(html))
    assert 'data-testid="refused-proposal"' not in page(bob, "/trades")


def test_a_proposal_no_longer_possible_says_why_on_both_phones(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    ann, bob = phone("Ann"), phone("Bob")
    assert ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                    "take": {"cash": 80}}).status_code == 200
    do(session, action="pay", player="Bob", amount=1450, to="bank")  # Bob has $50 left of the $80 asked
    for who in (ann, bob):
        assert "Bob has $50 and needs $80 for the trade" in page(who, "/trades")
    html = page(bob, "/trades")
    accept = re.search(r'action="(/trades/\d+/accept)"', html)
    assert accept
    answer = bob.client.post(accept.group(1), data=form_fields(html))
    assert answer.status_code == 303 and cash(session, "Bob") == 50
    assert "Bob has $50 and needs $80 for the trade" in page(bob, "/trades")


def test_a_proposal_whose_deed_changed_is_withdrawn_and_both_phones_say_so(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    ann, bob = phone("Ann"), phone("Bob")
    assert ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                    "take": {"cash": 80}}).status_code == 200
    do(session, action="trade", **{"from": "Ann", "to": "Cy", "give": {"properties": ["baltic"]}})
    line = "Ann's trade offer to Bob is withdrawn: Baltic Avenue has changed since it was offered."
    for who in (ann, bob):
        assert 'data-testid="proposal"' not in page(who, "/trades")
        assert line in html.unescape(page(who, "/history"))


def test_the_language_form(phone: Any) -> None:
    ann = phone("Ann")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page(ann, "/more"))
    assert token
    ann.client.post("/lang", data={"csrf_token": token.group(1), "lang": "bg", "next": "/"})
    assert "На ход е Ann" in page(ann, "/")


def test_the_banker_page_with_a_pin_form(phone: Any) -> None:
    cy = phone("Cy")
    html = page(cy, "/banker")
    cy.client.post("/banker", data={**form_fields(html), "do": "pin", "pin": "1111"})
    assert "Wrong PIN" in page(cy, "/banker")
    cy.client.post("/banker", data={**form_fields(html), "do": "pin", "pin": "2468"})
    assert "This phone is the banker." not in page(cy, "/banker")  # the same key: the first answer again
    cy.client.post("/banker", data={**form_fields(page(cy, "/banker")), "do": "pin", "pin": "2468"})
    assert "This phone is the banker." in page(cy, "/banker")


def test_the_invite_qr_code(phone: Any) -> None:
    response = phone("Ann").client.get("/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data


def test_the_simulated_table_page(phone: Any, session: Session, table: FakeTable) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    bob = phone("Bob")
    html = page(bob, "/table")
    assert 'data-meaning="player:2"' in html and "Baltic Avenue" in html
    png = bob.client.get(f"/table/frame.png?n={table.frame_number}")
    assert png.status_code == 200 and png.data.startswith(b"\x89PNG")
    for path, data in (("/table/tap", {"meaning": "player:2"}), ("/table/tap", {"meaning": "deed:3"}),
                       ("/table/press", {"button": "ok"})):
        assert bob.client.post(path, data={**form_fields(page(bob, "/table")), **data}).status_code == 303
    assert cash(session, "Bob") == 1496
    bob.client.post("/table/press", data={**form_fields(page(bob, "/table")), "button": "up", "long": "1"})
    assert table.presses[-1] == ("up", True)
    before = snapshot(session)
    bob.client.post("/table/tap", data={**form_fields(page(bob, "/table")), "meaning": "deed:99"})
    assert "The table did not take that" in page(bob, "/table")
    assert snapshot(session) == before


def test_no_table_page_without_a_simulated_table(session: Session) -> None:
    app = create_app(session, None, {"TESTING": True})
    phone = Phone(app.test_client(), app).join("Ann")
    assert phone.client.get("/table").status_code == 404
    assert phone.client.get("/table/frame.png").status_code == 404


def test_the_invite_uses_the_tables_address(phone: Any, app: Any, session: Session) -> None:
    from webui.join import join_code

    app.config["BASE_URL"] = "http://192.168.1.20:8080"
    html = page(phone("Ann"), "/more")
    assert f"http://192.168.1.20:8080/j/{join_code(session.journal)}" in html


def test_the_simulated_table_opens_at_once_on_the_same_computer(app: Any) -> None:
    client = app.test_client()
    assert client.get("/table").status_code == 200
    assert client.get("/api/me").get_json()["role"] == "watcher"
    other = app.test_client()
    response = other.get("/table", environ_base={"REMOTE_ADDR": "192.168.1.30"})
    assert response.status_code in (302, 303) and response.headers["Location"].endswith("/join")


def test_the_simulated_tables_screen_opens_at_once_on_the_same_computer(app: Any) -> None:
    response = app.test_client().get("/table/frame.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    other = app.test_client().get("/table/frame.png", environ_base={"REMOTE_ADDR": "192.168.1.30"})
    assert other.status_code in (302, 303)


def test_a_refusal_for_cash_shows_the_ways_to_raise_it(phone: Any, session: Session) -> None:
    for prop in ("mediterranean", "baltic", "oriental"):
        do(session, action="buy", player="Ann", property=prop)
    do(session, action="pay", player="Ann", amount=1270, to="bank")  # Ann has $10; a house costs $50
    ann = phone("Ann")
    answer = ann.act({"action": "build", "player": "Ann", "property": "baltic"})
    assert answer.status_code == 409
    body = answer.get_json()
    assert body["error"] == "not_enough_cash" and body["short_by"] == 40
    assert [(w["kind"], w["action"]["property"], w["amount"]) for w in body["raise"]] == [
        ("mortgage", "oriental", 50)]
    before = snapshot(session)
    fields = form_fields(page(ann, "/deeds"))
    ann.client.post("/do", data={**fields, "action": "build", "property": "baltic", "next": "/deeds"})
    assert snapshot(session) == before
    html = page(ann, "/deeds")
    card = html[html.index('data-testid="raise-cash"'):]
    assert "Short by $40: what would raise it" in card and "Mortgage (+$50; lifting costs $55)" in card
    fields = form_fields(card)
    ann.client.post("/do", data={**fields, "action": "mortgage", "property": "oriental", "next": "/deeds"})
    assert cash(session, "Ann") == 60
    assert 'data-testid="raise-cash"' not in page(ann, "/deeds")  # shown once, after the refusal


def test_the_pay_page_buttons_are_the_engines_offers(phone: Any, session: Session) -> None:
    html = page(phone("Ann"), "/money")
    assert "Collect the salary (+$200)" in html and "Landed on GO" not in html
    assert "Pay Income Tax ($200)" in html and "Pay Luxury Tax ($100)" in html
    assert "Go to jail" in html and "Pay the fine" not in html


@pytest.mark.parametrize(("creditor", "lang", "banner"), [
    ("Боря", "ru", "Цветан должен Боре $2,000 →"),
    ("Ann", "ru", "Цветан должен игроку Ann $2,000 →"),
    ("bank", "ru", "Цветан должен банку $2,000 →"),
    ("Боря", "bg", "Цветан дължи на Боря $2,000 →"),
    ("bank", "en", "Цветан owes the bank $2,000 →"),
])
def test_the_debt_banner_names_the_creditor_in_the_case_the_language_needs(
        journal: Any, tmp_path: Any, creditor: str, lang: str, banner: str) -> None:
    from banker.actions import NewGame, Pay
    from tests.webui.conftest import client_at

    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Боря", "Цветан"), {}))
    session.submit(Pay("Цветан", 2000, creditor))  # more than the cash: a debt
    app = create_app(session, FakeTable(session), {"TESTING": True, "DATA_DIR": str(tmp_path), "KEEPALIVE": 0.2})
    home = page(Phone(client_at(app), app).join("Ann", lang), "/")
    found = re.search(r'<a class="banner debt"[^>]*>([^<]*)</a>', home)
    assert found and html.unescape(found.group(1)).strip() == banner, found
