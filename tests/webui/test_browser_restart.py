"""The phone page and the simulated table's page in Chromium across a restart of the program: they say
when the table is not answering, and catch up when it is back (a new instance of the program)."""

from __future__ import annotations

import time
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
from tests.webui.test_browser import join
from webui import create_app
from webui.auth import set_pin
from webui.join import join_code
from webui.server import RunningServer, start

SOON_MS = 8000
"""The page reconnects by itself (the stream's retry is 2 s)."""


class Program:
    """The table program on one journal, stopped and started again on the same port (as after a power cut)."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.journal = Journal(tmp_path / "game.sqlite3")
        session = Session(self.journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        set_pin(self.journal, PIN)
        self.code = join_code(self.journal)
        self.port = 0
        self.server: RunningServer | None = None
        self.start(session)

    def start(self, session: Session | None = None) -> None:
        self.session = session or Session.resume(self.journal)
        self.fake = FakeTable(self.session)
        app = create_app(self.session, self.fake, {"DATA_DIR": str(self.tmp_path), "MAX_STREAMS": 16})
        self.instance = app.extensions["banker"].broker.instance
        deadline = time.monotonic() + 10
        while True:
            try:
                self.server = start(app, "127.0.0.1", self.port)
                break
            except OSError:
                assert time.monotonic() < deadline, "the port was not free again"
                time.sleep(0.2)
        self.port = self.server.port

    def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        self.server = None

    def close(self) -> None:
        if self.server is not None:
            self.stop()
        self.journal.close()


@pytest.fixture
def program(tmp_path: Path) -> Iterator[Program]:
    running = Program(tmp_path)
    yield running
    running.close()


def cash_is(page: Any, player: str, amount: str) -> str:
    return f"document.querySelector('[data-testid=cash-{player}]').textContent === '{amount}'"


def test_a_tap_while_the_table_is_off_says_so_and_the_banner_goes_when_it_is_back(
        browser: Any, program: Program) -> None:  # noqa: F811
    ann = join(browser, program, "Ann")  # type: ignore[arg-type]
    ann.click("nav.bottom a[href='/money']")
    assert ann.is_hidden("[data-testid=offline]")
    program.stop()
    ann.click("button[data-action=salary]")
    ann.wait_for_selector("[data-testid=offline]", state="visible", timeout=SOON_MS)
    assert "The table is not answering" in ann.inner_text("[data-testid=offline]")
    box = ann.locator("[data-testid=offline]").bounding_box()
    assert box is not None and box["y"] == 0  # at the top of the screen, wherever the page is scrolled
    program.start()
    ann.wait_for_selector("[data-testid=offline]", state="hidden", timeout=SOON_MS)
    state = program.session.state
    assert state is not None and state.players[state.seat("Ann")].cash == 1500  # nothing was sent


def test_a_phone_catches_up_after_a_restart_even_when_its_last_refresh_was_lost(
        browser: Any, program: Program) -> None:  # noqa: F811
    ann = join(browser, program, "Ann")  # type: ignore[arg-type]
    lost: list[str] = []

    def drop_the_refresh(route: Any) -> None:
        # The page's re-read of its news is lost (the program died just then); everything else goes through.
        if route.request.headers.get("x-live") == "1" and not lost:
            lost.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    ann.route("**/*", drop_the_refresh)
    do(program.session, action="salary", player="Ann")
    deadline = time.monotonic() + 5
    while not lost:
        assert time.monotonic() < deadline, "the page never re-read its news"
        ann.wait_for_timeout(50)  # lets Playwright run the route handler
    assert ann.inner_text("[data-testid=cash-Ann]") == "$1,500"  # the news was lost with the refresh
    program.stop()
    program.start()
    ann.wait_for_function(cash_is(ann, "Ann", "$1,700"), timeout=SOON_MS)


def test_the_table_page_shows_the_new_programs_frames_after_a_restart(
        browser: Any, program: Program) -> None:  # noqa: F811
    page = join(browser, program, None)  # type: ignore[arg-type]
    page.goto(f"{program.server.url}/table")  # type: ignore[union-attr]
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    for number in range(1, 5):
        page.click("[data-testid=button-cancel]")
        page.wait_for_function(
            f"document.querySelector('[data-testid=oled]').getAttribute('src').endsWith('n={number}')",
            timeout=SOON_MS)
    program.stop()
    program.start()
    page.wait_for_function(f"document.body.dataset.instance === '{program.instance}'", timeout=SOON_MS)
    first = program.fake.frame_number
    program.fake.tap("player:2")  # the new program draws its frame 1 (Bob's card)
    assert program.fake.frame_number == first + 1 == 1
    page.wait_for_function(
        "(() => { const src = document.querySelector('[data-testid=oled]').getAttribute('src');"
        f" return src.endsWith('n=1') && src.includes('i={program.instance}&'); }})()", timeout=SOON_MS)
    page.wait_for_function("(() => { const img = document.querySelector('[data-testid=oled]');"
                           " return img.complete && img.naturalWidth === 512; })()", timeout=SOON_MS)
