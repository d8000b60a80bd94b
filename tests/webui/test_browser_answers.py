"""The phone page in Chromium at 360×800: the answer to a tap is where the finger is and a second tap does
not pay again; asking the table for the banker role; a phone whose player left the game; a banker who
plays nobody."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.browser import PHONE, browser  # noqa: F401 - the fixture
from tests.webui.conftest import PIN, do
from tests.webui.test_browser import LIVE_MS, Table, join, served  # noqa: F401 - the fixture
from webui import create_app
from webui.auth import set_pin
from webui.server import start


def cash(table: Table, player: str) -> int:
    state = table.session.state
    assert state is not None
    return state.players[state.seat(player)].cash


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_answer_to_a_tax_is_where_the_finger_is_and_a_second_tap_pays_nothing(
        browser: Any, served: Table) -> None:  # noqa: F811
    ann = join(browser, served, "Ann")
    ann.click("nav.bottom a[href='/money']")
    button = ann.locator("button:has-text('Pay Income Tax')")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None and box["y"] > 100  # below the top: the page is scrolled
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ann.mouse.click(x, y)
    answer = ".flash.ok:has-text('Ann pays the bank $200: Income Tax.')"
    ann.wait_for_selector(answer, timeout=LIVE_MS)
    assert in_view(ann, answer), "the answer is off the screen"
    assert in_view(ann, "[data-testid=my-cash]") or in_view(ann, answer)
    ann.mouse.click(x, y)  # the same finger again, at once
    ann.wait_for_timeout(700)
    assert cash(served, "Ann") == 1300
    ann.wait_for_timeout(2500)  # a while later a tap is a new request: asked, not paid
    ann.mouse.click(x, y)
    ann.wait_for_selector("[data-testid=again]", timeout=LIVE_MS)
    assert "Ann already paid this tax" in ann.inner_text("[data-testid=again]")
    assert in_view(ann, "[data-testid=again]")
    assert cash(served, "Ann") == 1300
    ann.click("[data-testid=again-yes]")
    ann.wait_for_function("document.querySelector('[data-testid=my-cash]').textContent === '$1,100'",
                          timeout=LIVE_MS)
    assert cash(served, "Ann") == 1100
    assert in_view(ann, answer)  # the second payment's answer is where the question was


def test_a_phone_whose_player_left_the_game_lands_on_pick_a_player(browser: Any, served: Table) -> None:  # noqa: F811
    bob = join(browser, served, "Bob", lang="ru")
    bob.click("nav.bottom a[href='/deeds']")
    served.session.submit(NewGame("us", ("Ann", "Cy"), {}))  # another game is started at the table
    bob.wait_for_selector("[data-testid=not-in-game]", timeout=LIVE_MS)
    for path in ("/deeds", "/money", "/debts", "/trades"):
        bob.goto(served.server.url + path)
        text = bob.inner_text("main")
        assert "There is no player" not in text and "Нет игрока" not in text, path
        assert "Bob не участвует в этой игре: выберите своего игрока или смотрите." in text, path
    bob.click("[data-testid=not-in-game] a")
    bob.click("button[name=player][value='Cy']")
    bob.wait_for_url(f"{served.server.url}/")
    assert bob.inner_text(".mebar .who") == "Cy"


def test_a_banker_who_plays_nobody_pays_from_the_bank_and_settles_a_debt(
        browser: Any, served: Table) -> None:  # noqa: F811
    do(served.session, action="pay", player="Bob", amount=1550, to="bank")  # more than Bob has: a debt
    banker = join(browser, served, None)
    banker.goto(served.server.url + "/banker")
    banker.fill("input[name=pin]", PIN)
    banker.click("[data-testid=pin-form] button")
    banker.wait_for_selector("text=This phone is the banker.")
    banker.click("nav.bottom a[href='/money']")
    assert "Pick your player" not in banker.inner_text("main")
    form = banker.locator("form:has(input[value=collect])")
    form.locator("select[name=player]").select_option("Bob")
    form.locator("input[name=amount]").fill("100")
    form.locator("button").click()
    banker.wait_for_selector(".flash.ok", timeout=LIVE_MS)
    assert cash(served, "Bob") == 1600
    banker.goto(served.server.url + "/debts")
    banker.click("[data-testid=debts-of-Bob] button[data-action=pay_debt]")
    banker.wait_for_selector("[data-testid=nobody-owes]", timeout=LIVE_MS)
    state = served.session.state
    assert state is not None and not state.debts and cash(served, "Bob") == 50


class Clock:
    """The table loop's clock: real time plus what a test skips forward."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


@pytest.fixture
def real_table(tmp_path: Path) -> Iterator[tuple[Table, Clock]]:
    from firmware.loop import TableLoop
    from hardware.factory import TableConfig, open_table

    journal = Journal(tmp_path / "game.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    set_pin(journal, PIN)
    hardware = open_table(TableConfig(mode="simulated"))
    clock = Clock()
    loop = TableLoop(session, hardware, clock=clock)
    stop = threading.Event()
    runner = threading.Thread(target=loop.run, args=(stop,), daemon=True)
    runner.start()
    app = create_app(session, loop, {"DATA_DIR": str(tmp_path)})
    server = start(app, "127.0.0.1", 0)
    yield Table(session, server, loop), clock  # type: ignore[arg-type]
    server.close()
    stop.set()
    loop.stop()
    runner.join(timeout=5)
    hardware.close()
    journal.close()


def table_shows(loop: Any, text: str, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = loop.view
        if view is not None and text in " ".join([view.title, *view.lines]):
            return True
        time.sleep(0.05)
    return False


def test_asking_the_table_on_a_table_left_alone_is_answered_or_expires_and_can_be_asked_again(
        browser: Any, real_table: tuple[Table, Clock]) -> None:  # noqa: F811
    table, clock = real_table
    loop: Any = table.fake
    clock.skipped += 60  # nobody has touched the table for a minute (the normal case)
    time.sleep(1.5)  # the loop ticks past its idle fallback
    phone = join(browser, table, None)
    phone.goto(table.server.url + "/banker")
    phone.click("button:has-text('Ask the table')")
    phone.wait_for_selector("[data-testid=banker-waiting]", timeout=LIVE_MS)
    assert table_shows(loop, "asks to be the banker")
    time.sleep(1.5)
    assert table_shows(loop, "asks to be the banker", 0.1), "the question was dropped"
    clock.skipped += 31  # nobody answers within its 30 s
    phone.wait_for_selector("[data-testid=banker-answer]", timeout=5000)
    assert "Nobody pressed OK on the table within 30 seconds." in phone.inner_text("[data-testid=banker-answer]")
    assert not table_shows(loop, "asks to be the banker", 0.3)
    phone.click("button:has-text('Ask the table')")  # asking again reaches the table
    assert table_shows(loop, "asks to be the banker")
    loop.press("ok")
    phone.wait_for_selector("text=This phone is the banker.", timeout=5000)
    assert "The table said yes" in phone.inner_text("[data-testid=banker-answer]")
