"""The phone page in a real browser (Debian's Chromium through Playwright), against the real server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.browser import PHONE, browser  # noqa: F401 - the fixture
from tests.webui.conftest import PIN, do
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin
from webui.join import join_code
from webui.server import RunningServer, start

LIVE_MS = 1000
"""After an action every phone shows it within a second."""


class Table:
    def __init__(self, session: Session, server: RunningServer, fake: FakeTable) -> None:
        self.session = session
        self.server = server
        self.fake = fake
        self.code = join_code(session.journal)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Table]:
    journal = Journal(tmp_path / "game.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    set_pin(journal, PIN)
    fake = FakeTable(session)
    app = create_app(session, fake, {"DATA_DIR": str(tmp_path), "MAX_STREAMS": 16})
    server = start(app, "127.0.0.1", 0)
    yield Table(session, server, fake)
    server.close()
    journal.close()


def join(browser: Any, table: Table, player: str | None, lang: str = "en") -> Any:  # noqa: F811
    # The page allows no eval; the test harness needs it for its wait_for_function probes.
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale=lang, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{table.server.url}/j/{table.code}")
    page.select_option("select[name=lang]", lang)
    if player is None:
        page.click("button[value='-']")
    else:
        page.click(f"button[name=player][value='{player}']")
    page.wait_for_url(f"{table.server.url}/")
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    return page


def test_two_phones_one_pays_rent_and_the_other_sees_it_live(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="buy", player="Ann", property="park_place")
    ann = join(browser, served, "Ann")
    bob = join(browser, served, "Bob")
    assert ann.inner_text("[data-testid=cash-Bob]") == "$1,500"
    bob.click("nav.bottom a[href='/money']")
    bob.select_option("select[name=property]", "park_place")
    bob.click("button[value=rent]")
    bob.wait_for_selector("text=Bob pays Ann $35 rent for Park Place.")
    ann.wait_for_function(
        "document.querySelector('[data-testid=cash-Bob]').textContent === '$1,465'", timeout=LIVE_MS)
    assert "Bob pays Ann $35 rent for Park Place." in ann.inner_text("[data-testid=log]")
    assert ann.inner_text("[data-testid=my-cash]") == "$1,185"  # 1500 - 350 + 35


def test_an_action_on_the_table_reaches_every_phone_within_a_second(browser: Any, served: Table) -> None:  # noqa: F811
    phones = [join(browser, served, name) for name in ("Ann", "Bob", None)]
    do(served.session, action="salary", player="Ann")
    for phone in phones:
        phone.wait_for_function(
            "document.querySelector('[data-testid=cash-Ann]').textContent === '$1,700'", timeout=LIVE_MS)


def test_an_auction_with_bids_from_two_phones(browser: Any, served: Table) -> None:  # noqa: F811
    ann = join(browser, served, "Ann")
    bob = join(browser, served, "Bob")
    ann.click("nav.bottom a[href='/money']")
    ann.select_option("select[name=property]", "boardwalk")
    ann.click("button[value=auction]")
    bob.wait_for_selector("[data-testid=auction-banner]", timeout=LIVE_MS)
    bob.click("[data-testid=auction-banner]")
    ann.click("nav.bottom a[href='/auction']")
    bob.click("button:has-text('+100 → $100')")
    ann.wait_for_function("document.querySelector('[data-testid=high-bid]').textContent === '$100'",
                          timeout=LIVE_MS)
    ann.fill("form[data-keep] input[name=amount]", "250")
    ann.click("form[data-keep] button")
    bob.wait_for_function("document.querySelector('[data-testid=high-bid]').textContent === '$250'",
                          timeout=LIVE_MS)
    assert "Highest bid by Ann" in bob.inner_text("[data-testid=high-bidder]")
    bob.click("button:has-text('+50 → $300')")
    banker = join(browser, served, None)
    banker.goto(served.server.url + "/banker")
    banker.fill("input[name=pin]", PIN)
    banker.click("[data-testid=pin-form] button")
    banker.wait_for_selector("text=This phone is the banker.")
    banker.goto(served.server.url + "/auction")
    banker.once("dialog", lambda dialog: dialog.accept())
    banker.click("button[data-action=auction_close]")
    ann.wait_for_selector("text=No auction is open.", timeout=LIVE_MS)
    state = served.session.state
    assert state is not None and state.auction is None
    assert state.props[state.deed("boardwalk").number].owner == state.seat("Bob")
    assert state.players[state.seat("Bob")].cash == 1200


def test_a_trade_accepted_on_the_other_phone(browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="buy", player="Ann", property="baltic")
    ann = join(browser, served, "Ann")
    bob = join(browser, served, "Bob")
    ann.goto(served.server.url + "/trades?with=Bob")
    ann.check("input[name=give_properties][value=baltic]")
    ann.fill("input[name=take_cash]", "90")
    ann.click("[data-testid=propose-form] button")
    ann.wait_for_selector("[data-testid=proposal]")
    bob.wait_for_selector("text=Ann proposes a trade to you", timeout=LIVE_MS)
    bob.click("text=Ann proposes a trade to you")
    bob.click("[data-testid=accept]")
    bob.wait_for_selector("text=Ann gives Bob Baltic Avenue; Bob gives Ann $90.")
    ann.wait_for_selector("text=No trade proposals.", timeout=LIVE_MS)
    state = served.session.state
    assert state is not None
    assert state.props[state.deed("baltic").number].owner == state.seat("Bob")
    assert state.players[state.seat("Ann")].cash == 1500 - 60 + 90


def test_a_double_tap_on_pay_pays_once(browser: Any, served: Table) -> None:  # noqa: F811
    bob = join(browser, served, "Bob")
    bob.click("nav.bottom a[href='/money']")
    bob.fill("[data-testid=pay-form] input[name=amount]", "100")
    bob.select_option("[data-testid=pay-form] select[name=to]", "Ann")
    bob.dblclick("[data-testid=pay-form] button")
    bob.wait_for_selector("text=Bob pays Ann $100")
    bob.wait_for_timeout(300)
    state = served.session.state
    assert state is not None and state.players[state.seat("Bob")].cash == 1400


def test_the_simulated_table_plays_rent_with_two_taps_and_ok(browser: Any, served: Table) -> None:  # noqa: F811
    """Drives only the TablePort protocol: switch ``served`` to firmware.loop.TableLoop when it exists."""
    do(served.session, action="buy", player="Ann", property="boardwalk")
    page = join(browser, served, None)
    page.goto(served.server.url + "/table")
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    first = page.get_attribute("[data-testid=oled]", "src")
    page.click("button[data-meaning='player:2']")
    page.wait_for_function(f"document.querySelector('[data-testid=oled]').getAttribute('src') !== '{first}'",
                           timeout=LIVE_MS)
    page.click(f"button[data-meaning='deed:{served.session.state.deed('boardwalk').square}']")  # type: ignore[union-attr]
    page.click("[data-testid=button-ok]")
    page.wait_for_function(
        "document.querySelector('[data-testid=oled]').getAttribute('src').endsWith('n=3')", timeout=LIVE_MS)
    state = served.session.state
    assert state is not None and state.players[state.seat("Bob")].cash == 1450
    # The new frame is drawn once the browser has fetched and decoded it: 512 px wide (128 px at 4×).
    page.wait_for_function("document.querySelector('[data-testid=oled]').naturalWidth === 512", timeout=5000)


def test_a_long_press_on_the_simulated_table(browser: Any, served: Table) -> None:  # noqa: F811
    page = join(browser, served, "Ann")
    page.goto(served.server.url + "/table")
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    button = page.locator("[data-testid=button-down]")
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    page.wait_for_timeout(700)
    page.mouse.up()
    page.wait_for_function("window.location.pathname === '/table'")
    page.wait_for_timeout(300)
    assert served.fake.presses[-1] == ("down", True)


def test_the_russian_page(browser: Any, served: Table) -> None:  # noqa: F811
    page = join(browser, served, "Bob", lang="ru")
    assert page.get_attribute("html", "lang") == "ru"
    assert "Ходит Ann" in page.inner_text("main")
    page.click("nav.bottom a[href='/money']")
    assert "Заплатить аренду" in page.inner_text("main")
    page.click("button[value=rent]")  # the first deed is for sale: the engine refuses, in Russian
    page.wait_for_selector(".flash.error")
    assert page.inner_text(".flash.error") == "Mediterranean Avenue: владельца нет — купите или выставьте на аукцион."


@pytest.fixture
def served_real(tmp_path: Path) -> Iterator[Table]:
    """The real table loop (firmware.loop.TableLoop) on a simulated table, as ``banker run --simulated``."""
    import threading

    from firmware.loop import TableLoop
    from hardware.factory import TableConfig, open_table

    journal = Journal(tmp_path / "game.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    hardware = open_table(TableConfig(mode="simulated"))
    loop = TableLoop(session, hardware)
    stop = threading.Event()
    runner = threading.Thread(target=loop.run, args=(stop,), daemon=True)
    runner.start()
    app = create_app(session, loop, {"DATA_DIR": str(tmp_path)})
    server = start(app, "127.0.0.1", 0)
    yield Table(session, server, loop)  # type: ignore[arg-type]
    server.close()
    stop.set()
    loop.stop()
    runner.join(timeout=5)
    hardware.close()
    journal.close()


def test_the_real_table_loop_plays_rent_with_two_taps_and_ok(browser: Any, served_real: Table) -> None:  # noqa: F811
    import time

    do(served_real.session, action="buy", player="Ann", property="boardwalk")
    loop: Any = served_real.fake
    page = join(browser, served_real, None)
    page.goto(served_real.server.url + "/table")
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")

    def screen_shows(text: str) -> str:
        """Wait until the table's screen shows ``text`` and the page's mirror has that frame."""
        deadline = time.monotonic() + 5
        while loop.view is None or text not in f"{loop.view.title} {' '.join(loop.view.lines)}":
            assert time.monotonic() < deadline, f"the table never showed {text!r}: {loop.view}"
            time.sleep(0.05)
        number = loop.frame_number
        page.wait_for_function(
            "parseInt(document.querySelector('[data-testid=oled]').getAttribute('src').split('n=')[1]) >= "
            f"{number}", timeout=5000)  # the table may have drawn more frames since (scrolling text)
        return str(number)

    page.click("button[data-meaning='player:2']")
    screen_shows("Bob")
    page.click("button[data-meaning='deed:39']")
    screen_shows("Boardwalk")
    page.wait_for_timeout(1000)  # the table ignores an OK in the first 0.6 s of an offer
    page.click("[data-testid=button-ok]")
    screen_shows("Bob pays Ann $50 rent for Boardwalk.")
    state = served_real.session.state
    assert state is not None and state.players[state.seat("Bob")].cash == 1450


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_the_pay_pages_three_deed_buttons_fit_a_phone_in_every_language(browser: Any, served: Table,  # noqa: F811
                                                                       lang: str) -> None:
    do(served.session, action="buy", player="Ann", property="boardwalk")
    bob = join(browser, served, "Bob", lang=lang)
    bob.goto(served.server.url + "/money")
    bob.select_option("select[name=property]", "boardwalk")
    wide = bob.evaluate("""() => [...document.querySelectorAll('[data-testid=landed-form] .btn')]
        .filter(b => b.getBoundingClientRect().right > b.closest('.card').getBoundingClientRect().right)
        .map(b => b.textContent)""")
    assert wide == [] and bob.evaluate("document.documentElement.scrollWidth") <= 360
