"""Joining a table that has no game yet, in a real browser: the join page leads to the New game page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banker.journal import Journal
from banker.session import Session
from tests.webui.browser import PHONE, browser  # noqa: F401 - the fixture
from tests.webui.conftest import client_at
from webui import create_app
from webui.join import join_code
from webui.server import RunningServer, start


class EmptyTable:
    def __init__(self, session: Session, server: RunningServer) -> None:
        self.session = session
        self.server = server
        self.code = join_code(session.journal)


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[EmptyTable]:
    journal = Journal(tmp_path / "game.sqlite3")
    session = Session(journal)
    app = create_app(session, None, {"DATA_DIR": str(tmp_path), "MAX_STREAMS": 16})
    server = start(app, "127.0.0.1", 0)
    yield EmptyTable(session, server)
    server.close()
    journal.close()


@pytest.mark.parametrize("lang, title", [("en", "New game"), ("ru", "Новая игра"), ("bg", "Нова игра")])
def test_a_phone_that_types_the_code_before_any_game_goes_on_to_start_one(browser: Any, empty: EmptyTable,  # noqa: F811
                                                                          lang: str, title: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale=lang)
    page = context.new_page()
    page.goto(f"{empty.server.url}/join")
    page.fill("input[name=code]", empty.code)
    page.select_option("select[name=lang]", lang)
    page.click("[data-testid=join-setup]")
    page.wait_for_url(f"{empty.server.url}/setup")
    assert page.inner_text("h1") == title
    assert page.locator("form[action='/setup'] input[name=players]").count() >= 2
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru", "bg"])
def test_the_join_page_before_any_game_names_the_button_it_shows(tmp_path: Path, lang: str) -> None:
    from webui.texts import text

    with Journal(tmp_path / "game.sqlite3") as journal:
        app = create_app(Session(journal), None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        client = client_at(app, "127.0.0.2")
        client.get(f"/j/{join_code(journal)}")
        html = client.get("/join", headers={"Accept-Language": lang}).get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', html)
        assert token
        client.post("/lang", data={"csrf_token": token.group(1), "lang": lang})
        html = client.get("/join").get_data(as_text=True)
        button = re.search(r'<button[^>]*data-testid="join-setup"[^>]*>([^<]*)</button>', html)
        assert button and button.group(1) == text("web_setup_title", lang)
        assert text("web_setup_title", lang) in text("web_join_no_players", lang)
