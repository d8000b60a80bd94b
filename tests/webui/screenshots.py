"""Screenshots of the main pages on a 360×800 phone: ``python -m tests.webui.screenshots [DIR]``
(default docs/screenshots). A game in progress, played through the engine, then each page in turn."""

from __future__ import annotations

import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from banker.actions import Bundle, NewGame, ProposeTrade, parse_action
from banker.journal import Journal
from banker.session import Session
from tests.webui.browser import ARGS, CHROMIUM, PHONE
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin
from webui.join import join_code
from webui.server import start

OUT = Path(__file__).parents[2] / "docs" / "screenshots"
SCRIPT = [
    {"action": "buy", "player": "Ann", "property": "st_charles"},
    {"action": "buy", "player": "Ann", "property": "states"},
    {"action": "buy", "player": "Ann", "property": "virginia"},
    {"action": "build", "player": "Ann", "property": "st_charles"},
    {"action": "build", "player": "Ann", "property": "states"},
    {"action": "buy", "player": "Ann", "property": "reading_railroad"},
    {"action": "buy", "player": "Bob", "property": "park_place"},
    {"action": "mortgage", "player": "Bob", "property": "park_place"},
    {"action": "rent", "player": "Cy", "property": "states"},
    {"action": "salary", "player": "Bob"},
    {"action": "end_turn"},
    {"action": "buy", "player": "Cy", "property": "baltic"},
    {"action": "rent", "player": "Bob", "property": "reading_railroad"},
    {"action": "end_turn"},
    {"action": "pay", "player": "Cy", "amount": 1400, "to": "bank", "reason": "repairs"},
    {"action": "rent", "player": "Cy", "property": "st_charles"},
]


COLOUR_BLIND = {
    # Machado, Oliveira and Fernandes (2009), full severity, applied in linear RGB as feColorMatrix does.
    "deuteranopia": "0.367322 0.860646 -0.227968 0 0  0.280085 0.672501 0.047413 0 0  "
                    "-0.011820 0.042940 0.968881 0 0  0 0 0 1 0",
    "protanopia": "0.152286 1.052583 -0.204868 0 0  0.114503 0.786281 0.099216 0 0  "
                  "-0.003882 -0.048116 1.051998 0 0  0 0 0 1 0",
}
"""How a page looks to a person without green-sensitive (deuteranopia) or red-sensitive (protanopia) cones."""
SIMULATE = """matrix => {
  document.body.insertAdjacentHTML('beforeend',
    '<svg aria-hidden="true" width="0" height="0" style="position:absolute">'
    + '<filter id="cvd" color-interpolation-filters="linearRGB"><feColorMatrix type="matrix" values="' + matrix
    + '"/></filter></svg>');
  document.documentElement.style.filter = 'url(#cvd)';
}"""


def build_session(path: Path) -> Session:
    journal = Journal(path / "game.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
    for line in SCRIPT:
        session.submit(parse_action(line))
    set_pin(journal, "2468")
    return session


FAMILY_GAMES = [
    (("Ann", "Bob", "Cy"), [{"action": "buy", "player": "Ann", "property": "boardwalk"},
                            *[{"action": "rent", "player": p, "property": "boardwalk"} for p in ("Bob", "Cy")] * 3,
                            {"action": "end_game"}]),
    (("Ann", "Bob"), [{"action": "buy", "player": "Bob", "property": "park_place"},
                      {"action": "buy", "player": "Bob", "property": "boardwalk"},
                      {"action": "build", "player": "Bob", "property": "boardwalk"},
                      {"action": "rent", "player": "Ann", "property": "boardwalk"},
                      {"action": "end_game"}]),
    (("Ann", "Bob", "Cy", "Dee"), [{"action": "buy", "player": "Dee", "property": "st_james"},
                                   {"action": "rent", "player": "Ann", "property": "st_james"},
                                   {"action": "buy", "player": "Ann", "property": "boardwalk"},
                                   {"action": "rent", "player": "Dee", "property": "boardwalk"},
                                   {"action": "end_game"}]),
]
"""Saved games of a family, a few days apart (timed games the banker ended, no deed dealt: the scripts buy
them), for the Records page."""


def family_session(path: Path) -> Session:
    """A journal with the family's saved games and one going on (the screenshots of the Records page)."""
    clock = [datetime(2026, 11, 7, 18, 0).timestamp()]
    journal = Journal(path / "family.sqlite3")
    session = Session(journal, clock=lambda: clock[0])
    for day, (players, lines) in enumerate(FAMILY_GAMES):
        clock[0] = datetime(2026, 11, 7 + 7 * day, 18, 0).timestamp()
        session.submit(NewGame("us", players, {"timed_game": True, "deal_deeds": 0}))
        for line in lines:
            clock[0] += 170 + 40 * day
            session.submit(parse_action(line))
    clock[0] = datetime(2026, 11, 29, 17, 0).timestamp()
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
    for line in SCRIPT[:9]:
        clock[0] += 120
        session.submit(parse_action(line))
    set_pin(journal, "2468")
    return session


def main(out: Path = OUT) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        session = build_session(Path(tmp))
        app = create_app(session, FakeTable(session), {"DATA_DIR": tmp})
        server = start(app, "127.0.0.1", 0)
        code = join_code(session.journal)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)

                def phone(player: str | None, lang: str = "en") -> object:
                    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
                    page = context.new_page()
                    page.goto(f"{server.url}/j/{code}")
                    page.select_option("select[name=lang]", lang)
                    page.click(f"button[name=player][value='{player or '-'}']")
                    page.wait_for_url(f"{server.url}/")
                    return page

                def shot(page: object, name: str, path: str, scroll_to: str = "") -> None:
                    page.goto(server.url + path)  # type: ignore[attr-defined]
                    if scroll_to:
                        page.locator(scroll_to).first.evaluate(  # type: ignore[attr-defined]
                            "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8)")
                    page.wait_for_timeout(150)  # type: ignore[attr-defined]
                    target = out / f"{name}.png"
                    page.screenshot(path=str(target))  # type: ignore[attr-defined]
                    written.append(target)

                context = browser.new_context(viewport=PHONE, device_scale_factor=1)
                newcomer = context.new_page()
                newcomer.goto(server.url + "/join")
                newcomer.screenshot(path=str(out / "join.png"))
                written.append(out / "join.png")

                ann = phone("Ann")
                shot(ann, "home", "/")
                shot(ann, "deeds", "/deeds")
                for vision, matrix in COLOUR_BLIND.items():
                    # Every deed of the board, each group's colour with its letters, as a colour-blind eye sees it.
                    ann.goto(server.url + "/deeds")  # type: ignore[attr-defined]
                    ann.locator("details.card").first.evaluate("d => { d.open = true; }")  # type: ignore[attr-defined]
                    ann.evaluate(SIMULATE, matrix)  # type: ignore[attr-defined]
                    ann.locator("details.card").first.evaluate(  # type: ignore[attr-defined]
                        "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8)")
                    ann.wait_for_timeout(150)  # type: ignore[attr-defined]
                    target = out / f"deeds-{vision}.png"
                    ann.screenshot(path=str(target))  # type: ignore[attr-defined]
                    written.append(target)
                shot(ann, "strategy", "/strategy")
                ann_ru = phone("Ann", "ru")
                shot(ann_ru, "strategy-groups-ru", "/strategy", "[data-group=pink]")
                shot(ann_ru, "strategy-tables-ru", "/strategy", "h2.section >> nth=1")
                shot(ann, "money", "/money")
                assert session.game_id is not None
                session.submit(ProposeTrade("Bob", "Ann", give=Bundle(200), take=Bundle(0, ("reading_railroad",))))
                shot(ann, "trades", "/trades")
                cy = phone("Cy")
                shot(cy, "debts", "/debts")
                banker = phone(None)
                banker.goto(server.url + "/banker")  # type: ignore[attr-defined]
                banker.fill("input[name=pin]", "2468")  # type: ignore[attr-defined]
                banker.click("[data-testid=pin-form] button")  # type: ignore[attr-defined]
                banker.wait_for_selector("text=This phone is the banker.")  # type: ignore[attr-defined]
                shot(banker, "history", "/history")
                shot(banker, "setup", "/setup")
                shot(banker, "end", "/end")
                shot(banker, "table", "/table")
                def screen(page: object, setting: str) -> None:
                    page.goto(server.url + "/more")  # type: ignore[attr-defined]
                    page.check(f"[data-testid={setting}]")  # type: ignore[attr-defined]
                    page.click("[data-testid=screen-settings] button")  # type: ignore[attr-defined]
                    page.wait_for_url(f"{server.url}/more")  # type: ignore[attr-defined]

                child = phone("Ann")
                screen(child, "simple-view")
                shot(child, "simple", "/")
                cy_bg = phone("Cy", "bg")
                screen(cy_bg, "simple-view")
                shot(cy_bg, "simple-bg", "/")
                large = phone("Ann")
                screen(large, "large-text")
                shot(large, "large-text", "/")
                shot(large, "large-text-deeds", "/deeds")
                bob = phone("Bob", "ru")
                shot(bob, "home-ru", "/")
                session.submit(parse_action({"action": "auction", "property": "boardwalk", "declined_by": "Bob"}))
                session.submit(parse_action({"action": "bid", "player": "Ann", "amount": 220}))
                shot(bob, "auction-ru", "/auction")
                # The same game again under hidden balances: Ann sees her cash, and bands of the others'.
                session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {"hidden_balances": "bands"}))
                for line in SCRIPT:
                    session.submit(parse_action(line))
                shot(ann, "home-hidden", "/")
                records(browser, Path(tmp), out, written)
                browser.close()
        finally:
            server.close()
            session.journal.close()
    return written


def records(browser: Any, tmp: Path, out: Path, written: list[Path]) -> None:
    """The Records page of a family's table in each language, and its card on the Scores page."""
    session = family_session(tmp)
    app = create_app(session, FakeTable(session), {"DATA_DIR": str(tmp)})
    server = start(app, "127.0.0.1", 0)
    try:
        code = join_code(session.journal)
        for lang in ("en", "ru", "bg"):
            page = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
            page.goto(f"{server.url}/j/{code}")
            page.select_option("select[name=lang]", lang)
            page.click("button[name=player][value='Ann']")
            page.wait_for_url(f"{server.url}/")
            page.goto(server.url + "/records")
            page.wait_for_timeout(150)
            target = out / f"records-{lang}.png"
            page.screenshot(path=str(target))
            written.append(target)
            if lang == "en":
                page.locator("[data-testid=records-landed]").evaluate(
                    "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8)")
                target = out / "records-more.png"
                page.screenshot(path=str(target))
                written.append(target)
            page.context.close()
    finally:
        server.close()
        session.journal.close()


if __name__ == "__main__":
    for path in main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT):
        print(path)
