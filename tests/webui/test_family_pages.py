"""What a family trips over on the phone page, in a real browser (Debian's Chromium) at 360×800: the
confirmations say what they confirm, the end of a game, an undone line, the auction's minimum after an
outbid, the Pay page's rent list, mortgaged deeds in a trade, the bottom bar in Russian and Bulgarian,
the New game form's edition, one browser as one phone, the banker's PIN."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.browser import browser  # noqa: F401 - the fixture
from tests.webui.conftest import PIN, do
from tests.webui.fake_table import FakeTable
from tests.webui.test_browser import LIVE_MS, Table, join
from webui import create_app
from webui.auth import set_pin
from webui.server import start


def serve(tmp_path: Path, rules: dict[str, Any] | None = None, edition: str = "us",
          players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Iterator[Table]:
    journal = Journal(tmp_path / "game.sqlite3")
    session = Session(journal)
    session.submit(NewGame(edition, players, rules or {}))
    set_pin(journal, PIN)
    fake = FakeTable(session)
    app = create_app(session, fake, {"DATA_DIR": str(tmp_path), "MAX_STREAMS": 16})
    server = start(app, "127.0.0.1", 0)
    yield Table(session, server, fake)
    server.close()
    journal.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Table]:
    yield from serve(tmp_path)


@pytest.fixture
def timed(tmp_path: Path) -> Iterator[Table]:
    yield from serve(tmp_path, {"timed_game": True}, players=("Ann", "Bob"))


def become_banker(page: Any, table: Table) -> None:
    page.goto(table.server.url + "/banker")
    page.fill("input[name=pin]", PIN)
    page.click("[data-testid=pin-form] button")
    page.wait_for_selector("input[name=new_pin]")  # the banker's own form


def confirmation(page: Any, selector: str) -> str:
    """Press ``selector`` and return what its confirmation asks (answered no: nothing is sent)."""
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.click(selector)
    page.wait_for_timeout(100)
    assert asked, f"{selector} asked nothing"
    return asked[0]


def test_confirmations_say_what_they_confirm(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="auction", property="park_place")
    do(served.session, action="bid", player="Cy", amount=200)
    ann = join(browser, served, "Ann")
    become_banker(ann, served)
    assert "PIN accepted: you are the banker." in ann.inner_text("main")
    ann.goto(served.server.url + "/auction")
    assert confirmation(ann, "button[data-action=auction_close]") == "Cy buys Park Place for $200?"
    assert served.session.state is not None and served.session.state.auction is not None  # dismissed: still open
    do(served.session, action="auction_close")
    do(served.session, action="salary", player="Bob")
    ann.goto(served.server.url + "/history")
    asked = confirmation(ann, "button[data-action=undo]")
    assert asked.startswith("Undo the last action? ") and "Bob" in asked and asked.endswith("."), asked
    ann.goto(served.server.url + "/end")
    asked = confirmation(ann, "button[data-action=end_game]")
    assert asked.startswith("End the game now?") and "Bob wins" in asked, asked  # $1,700 against Cy's $1,650
    ann.goto(served.server.url + "/setup")
    ann.fill("input[name=players] >> nth=0", "Dee")
    ann.fill("input[name=players] >> nth=1", "Eve")
    assert "saved games" in confirmation(ann, "[data-testid=setup-form] button.big")
    for page in ("/auction", "/history", "/end", "/setup"):
        ann.goto(served.server.url + page)
        assert "Are you sure" not in ann.content()


def test_the_undo_confirmation_names_the_action_it_takes_back(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="buy", player="Bob", property="baltic")
    do(served.session, action="salary", player="Cy")
    do(served.session, action="undo")
    ann = join(browser, served, "Ann")
    become_banker(ann, served)
    ann.goto(served.server.url + "/history")
    asked = confirmation(ann, "button[data-action=undo]")
    assert asked.startswith("Undo the last action? ") and "Baltic" in asked and "salary" not in asked, asked


def test_an_undone_line_is_marked_in_latest(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="buy", player="Bob", property="baltic")
    do(served.session, action="salary", player="Cy")
    ann = join(browser, served, "Ann")
    assert ann.locator("[data-testid=log] li.undone").count() == 0
    do(served.session, action="undo")
    ann.wait_for_selector("[data-testid=log] li.undone", timeout=LIVE_MS)
    undone = ann.locator("[data-testid=log] li.undone")
    assert undone.count() == 1 and "Cy" in undone.inner_text() and "undone" in undone.inner_text()
    assert ann.locator("[data-testid=log] li.undone s").count() == 1  # struck through
    kept = [line for line in ann.locator("[data-testid=log] li:not(.undone)").all_inner_texts() if "Baltic" in line]
    assert kept, ann.inner_text("[data-testid=log]")
    ann.goto(served.server.url + "/history")
    assert ann.locator("ol.history > li.undone").count() == 1


def test_end_the_game_says_timed_only_for_a_timed_game(browser: Any, served: Table,  # noqa: F811
                                                       timed: Table) -> None:
    classic = join(browser, served, "Ann")
    become_banker(classic, served)
    classic.goto(served.server.url + "/end")
    button = classic.inner_text("button[data-action=end_game]")
    assert button == "End the game now", button
    clock = join(browser, timed, "Ann")
    become_banker(clock, timed)
    clock.goto(timed.server.url + "/end")
    assert clock.inner_text("button[data-action=end_game]") == "End the game now (timed game)"
    clock.once("dialog", lambda dialog: dialog.accept())
    clock.click("button[data-action=end_game]")
    clock.wait_for_selector(".banner.win")
    banner = clock.inner_text(".banner.win")
    assert "wins" in banner and "→" not in banner and "scores" not in banner.lower(), banner
    assert clock.locator("main a[href='/end']").count() == 0  # the Scores page does not send to itself
    clock.goto(timed.server.url + "/")
    assert clock.locator("a.banner.win[href='/end']").count() == 1  # the game page does


def test_the_auction_minimum_follows_an_outbid(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="auction", property="park_place")
    ann = join(browser, served, "Ann")
    ann.goto(served.server.url + "/auction")
    amount = "form[data-keep] input[name=amount]"
    assert ann.get_attribute(amount, "min") == "1"
    ann.fill(amount, "150")
    ann.locator(amount).blur()
    do(served.session, action="bid", player="Bob", amount=200)
    ann.wait_for_function("document.querySelector('[data-testid=high-bid]').textContent === '$200'",
                          timeout=LIVE_MS)
    assert ann.get_attribute(amount, "min") == "201"
    assert ann.get_attribute(amount, "placeholder") == "201"
    assert ann.input_value(amount) == "150"  # what Ann typed stays; the browser now refuses it as too low
    assert ann.evaluate(f"document.querySelector('{amount}').validity.rangeUnderflow")


def test_the_rent_list_puts_the_others_deeds_first_and_never_the_payers(browser: Any,  # noqa: F811
                                                                         served: Table) -> None:
    do(served.session, action="buy", player="Ann", property="baltic")
    do(served.session, action="buy", player="Bob", property="park_place")
    ann = join(browser, served, "Ann")
    ann.goto(served.server.url + "/money")
    options = ann.eval_on_selector_all("[data-testid=landed-form] select[name=property] option",
                                       "os => os.map(o => o.value)")
    assert options[0] == "park_place"
    assert "baltic" not in options
    groups = ann.eval_on_selector_all("[data-testid=landed-form] optgroup", "gs => gs.map(g => g.label)")
    assert groups == ["Owned by others", "For sale"], groups


def test_a_mortgaged_deed_is_marked_in_the_trade_form(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="buy", player="Ann", property="baltic")
    do(served.session, action="buy", player="Ann", property="mediterranean")
    do(served.session, action="mortgage", player="Ann", property="baltic")
    ann = join(browser, served, "Ann")
    ann.goto(served.server.url + "/trades?with=Bob")
    baltic = ann.locator("label.check", has=ann.locator("input[value=baltic]"))
    mediterranean = ann.locator("label.check", has=ann.locator("input[value=mediterranean]"))
    assert "mortgaged" in baltic.inner_text().lower() and "mortgaged" not in mediterranean.inner_text().lower()
    ann.check("input[value=baltic]")
    ann.click("[data-testid=propose-form] button.btn")
    ann.wait_for_selector("[data-testid=proposal]")
    assert "baltic avenue (mortgaged)" in ann.inner_text("[data-testid=proposal]").lower()


LABEL_BOXES = """() => [...document.querySelectorAll('nav.bottom a')].map(a => {
  const range = document.createRange(); range.selectNodeContents(a);
  const text = range.getBoundingClientRect(), link = a.getBoundingClientRect();
  const lineHeight = parseFloat(getComputedStyle(a).lineHeight);
  return {label: a.textContent.trim(), left: text.left, right: text.right, lines: Math.round(text.height / lineHeight),
          linkLeft: link.left, linkRight: link.right};
})"""


@pytest.mark.parametrize("lang", ["ru", "bg", "en"])
def test_the_bottom_bars_labels_keep_apart_at_360_pixels(browser: Any, served: Table, lang: str) -> None:  # noqa: F811
    page = join(browser, served, "Ann", lang)
    for path in ("/", "/deeds", "/money", "/trades"):  # the current page's label is bold
        page.goto(served.server.url + path)
        boxes = page.evaluate(LABEL_BOXES)
        assert len(boxes) == 6
        for box in boxes:
            assert box["lines"] <= len(box["label"].split()), box  # between words, never inside one
            assert box["linkLeft"] <= box["left"] and box["right"] <= box["linkRight"], box
        for left, right in zip(boxes, boxes[1:], strict=False):
            assert right["left"] - left["right"] >= 4, (lang, path, left, right)


@pytest.mark.parametrize(("lang", "edition"), [("en", "us"), ("ru", "ru"), ("bg", "ru")])
def test_the_new_game_form_starts_with_the_phones_editions(browser: Any, tmp_path: Path,  # noqa: F811
                                                          lang: str, edition: str) -> None:
    for table in serve(tmp_path, edition="uk" if lang != "en" else "ru"):
        page = join(browser, table, "Ann", lang)
        become_banker(page, table)
        page.goto(table.server.url + "/setup")
        assert page.input_value("select[name=edition]") == edition


def test_the_new_game_form_keeps_the_boards_edition_in_its_language(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    for table in serve(tmp_path, edition="uk"):
        page = join(browser, table, "Ann", "en")
        become_banker(page, table)
        page.goto(table.server.url + "/setup")
        assert page.input_value("select[name=edition]") == "uk"  # the British board on the table, in English


def test_one_browser_is_one_phone_and_the_page_says_so(browser: Any, served: Table) -> None:  # noqa: F811
    ann = join(browser, served, "Ann")
    second_tab = ann.context.new_page()
    second_tab.goto(served.server.url + "/")
    assert second_tab.inner_text(".mebar .who") == "Ann"  # the same phone
    second_tab.goto(served.server.url + "/more")
    assert "A browser is one phone" in second_tab.inner_text("[data-testid=one-phone]")
    fresh = browser.new_context(viewport={"width": 360, "height": 800})
    page = fresh.new_page()
    page.goto(f"{served.server.url}/j/{served.code}")
    assert "its tabs and windows share the player" in page.inner_text("[data-testid=one-phone]")
    fresh.close()


def test_the_banker_question_names_the_phone_as_the_phone_shows_it(browser: Any, served: Table) -> None:  # noqa: F811
    watcher = join(browser, served, None)
    watcher.goto(served.server.url + "/banker")
    watcher.click("form:has(input[value=ask]) button")
    watcher.wait_for_selector("[data-testid=asked-as]")
    shown = watcher.inner_text("[data-testid=asked-as]")
    asked = served.fake.banker_questions[-1][0] if served.fake.banker_questions else ""
    assert asked and asked in shown, (asked, shown)
    assert watcher.inner_text(".mebar .who") in asked  # "Watching", as the phone's own bar says
    ann = join(browser, served, "Ann")
    ann.goto(served.server.url + "/banker")
    ann.click("form:has(input[value=ask]) button")
    ann.wait_for_selector("[data-testid=asked-as]")
    words = served.fake.banker_questions[-1][0]
    assert words.startswith("Ann · phone ") and words != asked
    assert ann.inner_text("[data-testid=asked-as]") == (
        f"The table's screen shows “{words}”: press OK there only if it shows this code.")
