"""The pages for everyone at the table, as plain HTML without a browser: the simple view and large text (a
setting of one phone), the family's records, the web app manifest and its icons."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from banker.session import Session
from tests.webui.conftest import do
from webui.icons import SIZES, STATIC, icon


def form(phone: Any, path: str, fields: dict[str, str]) -> Any:
    """Send a page's form as a browser without JavaScript does (the CSRF token from the page)."""
    page = phone.client.get("/more").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    return phone.client.post(path, data={"csrf_token": token.group(1), **fields})


def text_of(html: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</(?:p|section|span)>', html, re.S)
    assert found is not None, f"no {testid}"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


# --- the screen settings --------------------------------------------------------------------------------------

def test_large_text_is_one_phones_setting(phone: Any) -> None:
    ann, bob = phone("Ann"), phone("Bob", address="127.0.0.2")
    assert 'class="large"' not in ann.client.get("/").get_data(as_text=True)
    answer = form(ann, "/screen", {"large": "1", "next": "/more"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/more")
    for path in ("/", "/deeds", "/more", "/records"):
        assert '<html lang="en" class="large">' in ann.client.get(path).get_data(as_text=True), path
    assert 'class="large"' not in bob.client.get("/").get_data(as_text=True)
    form(ann, "/screen", {"next": "/more"})  # the box left empty: off again
    assert 'class="large"' not in ann.client.get("/").get_data(as_text=True)


def test_the_simple_view_replaces_the_game_page_on_that_phone_only(phone: Any, session: Session) -> None:
    ann, bob = phone("Ann"), phone("Bob", address="127.0.0.2")
    form(ann, "/screen", {"simple": "1"})
    home = ann.client.get("/").get_data(as_text=True)
    assert 'data-testid="simple"' in home and 'data-testid="balances"' not in home
    assert 'data-testid="balances"' in bob.client.get("/").get_data(as_text=True)
    # Its own button turns it off and leaves the large text as it was.
    form(ann, "/screen", {"large": "1", "simple": "1"})
    form(ann, "/screen", {"only": "simple"})
    home = ann.client.get("/").get_data(as_text=True)
    assert 'data-testid="balances"' in home and 'class="large"' in home
    # /simple is there whatever the setting.
    assert 'data-testid="simple-cash"' in bob.client.get("/simple").get_data(as_text=True)


def test_the_simple_view_shows_my_cash_and_my_last_payment(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    page = ann.client.get("/simple").get_data(as_text=True)
    assert text_of(page, "simple-cash") == "$1,500"
    assert text_of(page, "simple-payment") == "+$1,500"  # the starting money
    do(session, action="buy", player="Ann", property="boardwalk")
    do(session, action="rent", player="Bob", property="boardwalk")
    do(session, action="salary", player="Cy")  # not Ann's: her last payment stays the rent
    page = ann.client.get("/simple").get_data(as_text=True)
    assert text_of(page, "simple-cash") == "$1,150"
    assert text_of(page, "simple-payment") == "+$50"
    assert "Bob pays Ann $50" in page
    do(session, action="undo")
    do(session, action="undo")  # the rent taken back: the last payment is the purchase
    page = ann.client.get("/simple").get_data(as_text=True)
    assert text_of(page, "simple-payment") == "−$400"


def test_the_last_payment_of_a_long_game(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    do(session, action="salary", player="Ann")
    for _ in range(205):
        do(session, action="end_turn")
    do(session, action="pay", player="Ann", amount=50, to="bank")
    assert text_of(ann.client.get("/simple").get_data(as_text=True), "simple-payment") == "−$50"
    do(session, action="undo")  # the payment taken back: the salary, long before, is the last one
    page = ann.client.get("/simple").get_data(as_text=True)
    assert text_of(page, "simple-payment") == "+$200"
    assert 'data-payment="1"' in page


def buttons(page: str) -> list[str]:
    section = page[page.index('data-testid="simple-now"'):]
    return [unescape(b) for b in re.findall(r'<button type="submit"[^>]*>([^<]*)</button>', section)]


def test_the_simple_view_offers_what_the_game_waits_for(phone: Any, session: Session) -> None:
    ann, bob = phone("Ann"), phone("Bob", address="127.0.0.2")
    # Ann's turn: nothing to answer, so no button (the salary is due only after passing GO) and what to do
    page = ann.client.get("/simple").get_data(as_text=True)
    assert buttons(page) == [] and "Collect the salary" not in page
    assert text_of(page, "simple-roll") == "Roll the dice and move your token, then pay or buy where you land."
    assert buttons(bob.client.get("/simple").get_data(as_text=True)) == []  # not his turn
    assert "Nothing to do right now." in bob.client.get("/simple").get_data(as_text=True)
    do(session, action="auction", property="boardwalk")
    do(session, action="bid", player="Ann", amount=100)
    assert buttons(bob.client.get("/simple").get_data(as_text=True)) == ["Bid $101"]
    assert buttons(ann.client.get("/simple").get_data(as_text=True)) == []  # she has the high bid
    do(session, action="auction_close")
    do(session, action="pay", player="Bob", amount=1500, to="bank")
    do(session, action="rent", player="Bob", property="boardwalk")
    assert buttons(bob.client.get("/simple").get_data(as_text=True)) == ["Pay the debt", "Declare bankruptcy"]


def test_a_tap_on_the_simple_view_acts_and_comes_back(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    form(ann, "/screen", {"simple": "1"})
    do(session, action="go_to_jail", player="Ann")
    page = ann.client.get("/").get_data(as_text=True)
    assert buttons(page)[0] == "Pay the fine ($50)"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                             page[page.index('data-testid="simple-now"'):].split("</form>")[0]))
    answer = ann.client.post("/do", data=fields)
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    assert session.state is not None and session.state.players[0].cash == 1450
    page = ann.client.get("/").get_data(as_text=True)
    assert text_of(page, "simple-payment") == "−$50"


def test_a_bankrupt_players_simple_view_and_strategy_say_they_are_out(phone: Any, session: Session) -> None:
    # Цветан's phone in Bulgarian: he went bankrupt; Ann, Bob and he played.
    do(session, action="buy", player="Ann", property="boardwalk")
    do(session, action="pay", player="Cy", amount=1480, to="bank")
    do(session, action="rent", player="Cy", property="boardwalk")  # $50 on $20
    do(session, action="bankrupt", player="Cy")
    cy = phone("Cy", lang="bg", address="127.0.0.3")
    page = cy.client.get("/simple").get_data(as_text=True)
    assert text_of(page, "simple-out") == "Вие сте извън играта."
    assert 'data-testid="simple-nothing"' not in page and buttons(page) == []
    strategy = cy.client.get("/strategy").get_data(as_text=True)
    assert "Вие сте извън играта" in text_of(strategy, "strategy-out")
    assert 'data-testid="best"' not in strategy
    assert "кръгът е" not in strategy  # no round of opponents: he has none to count
    # Those still in count only each other: Ann has one opponent left, Bob.
    ann = phone("Ann", lang="ru")
    assert "1 соперник: круг" in ann.client.get("/strategy").get_data(as_text=True)


def test_the_page_marks_the_players_last_payment_for_the_live_region(phone: Any, session: Session) -> None:
    ann, cy = phone("Ann"), phone(None, address="127.0.0.3")
    page = ann.client.get("/deeds").get_data(as_text=True)
    assert 'id="announce"' in page and 'aria-live="polite"' in page
    assert '<span hidden data-payment="0" data-say="New game' in page
    do(session, action="salary", player="Ann")
    page = ann.client.get("/deeds").get_data(as_text=True)
    assert re.search(r'<span hidden data-payment="1" data-say="Ann collects the salary: \$200', page)
    assert "data-payment=" not in cy.client.get("/deeds").get_data(as_text=True)  # a watcher has none


# --- the records ---------------------------------------------------------------------------------------------

def test_the_records_page_and_its_link(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    assert 'href="/records"' in ann.client.get("/more").get_data(as_text=True)
    do(session, action="buy", player="Ann", property="boardwalk")
    do(session, action="rent", player="Bob", property="boardwalk")
    do(session, action="rent", player="Cy", property="boardwalk")
    page = ann.client.get("/records").get_data(as_text=True)
    assert "Games saved: 1; finished: 0." in page
    assert "Nobody has won a game yet." in page
    assert "Boardwalk: 2 times" in page
    assert "not finished (Ann leads)" in page
    assert "Ann was worth $1,600 in the game Ann · Bob · Cy on " in page
    do(session, action="end_game")
    page = ann.client.get("/records").get_data(as_text=True)
    assert "Ann: 1 win" in page and "won by Ann" in page
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and 'aria-label="Games won by each player"' in page
    end = ann.client.get("/end").get_data(as_text=True)
    assert 'data-testid="records-card"' in end and "Ann: 1 win" in end and 'href="/records"' in end


def test_the_records_in_russian(phone: Any, session: Session) -> None:
    ann = phone("Ann", lang="ru")
    do(session, action="buy", player="Ann", property="boardwalk")
    for _ in range(5):
        do(session, action="rent", player="Bob", property="boardwalk")
    page = ann.client.get("/records").get_data(as_text=True)
    assert "Семейные рекорды" in page and "Boardwalk: 5 раз" in page
    from datetime import date

    from babel.dates import format_date

    today = format_date(date.today(), format="medium", locale="ru").replace(" ", "\u00a0")
    assert today in page and "г." in today  # the date in Russian ("3 дек. 2026 г."), not 2026-12-03
    bulgarian = phone("Bob", lang="bg").client.get("/records").get_data(as_text=True)
    assert format_date(date.today(), format="medium", locale="bg").replace(" ", "\u00a0") in bulgarian
    assert date.today().isoformat().replace("-", "\u2011") not in page


def test_no_records_before_any_game(tmp_path: Path) -> None:
    from banker.journal import Journal
    from tests.webui.conftest import Phone, client_at
    from webui import create_app

    with Journal(tmp_path / "empty.sqlite3") as journal:
        app = create_app(Session(journal), None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        watcher = Phone(client_at(app), app).join(None)
        page = watcher.client.get("/records").get_data(as_text=True)
        assert "No game has been saved yet" in page
        assert watcher.client.get("/simple").status_code == 200


# --- on the home screen --------------------------------------------------------------------------------------

def test_the_manifest(phone: Any) -> None:
    ann = phone("Ann", lang="bg")
    page = ann.client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    answer = ann.client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] == "Електронен банкер" and manifest["short_name"] == "Банкер"
    for entry in manifest["icons"]:
        image = ann.client.get(entry["src"])
        assert image.status_code == 200 and image.mimetype == "image/png"
        size = int(entry["sizes"].split("x")[0])
        with Image.open(__import__("io").BytesIO(image.get_data())) as png:
            assert png.size == (size, size)
    assert sorted(e["sizes"] for e in manifest["icons"]) == ["192x192", "512x512"]
    more = ann.client.get("/more").get_data(as_text=True)
    install = more[more.index('data-testid="install"'):].split("</section>")[0]
    assert "работи само в Wi-Fi мрежата на масата" in install


@pytest.mark.parametrize("size", SIZES)
def test_the_committed_icons_are_the_drawn_ones(size: int) -> None:
    with Image.open(STATIC / f"icon-{size}.png") as committed:
        drawn = icon(size)
        assert committed.size == drawn.size == (size, size)
        assert committed.convert("RGBA").tobytes() == drawn.tobytes()
        # The green square's colour in the middle of a side, white in the B's stem.
        assert drawn.getpixel((size // 2, size // 20))[:3] == (27, 94, 32)
        assert drawn.getpixel((int(size * 11.5 / 32), size // 2))[:3] == (255, 255, 255)
