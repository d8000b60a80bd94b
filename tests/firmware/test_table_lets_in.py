"""The table always lets the family in, whatever the phones did: its setup makes a new join code (shown
at once) and a new banker PIN (shown on its screen)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware import screens
from firmware.loop import TableLoop
from hardware.factory import Table, TableConfig, open_table
from tests.firmware.test_loop import view_text, wait_until

CTX = g.Context(game=None, now=5.0, join_code="AC7K", join_url="http://10.42.0.1:8080/j/AC7K")


def choose(item: str, ctx: g.Context = CTX) -> tuple[g.GrammarState, list[g.Effect]]:
    state = g.GrammarState(step=g.setup_menu(ctx, g.Idle()))
    assert isinstance(state.step, g.Menu)
    index = next(i for i, it in enumerate(state.step.items) if it.key == item)
    for _ in range(index):
        state, _ = g.step(state, g.Press("down"), ctx)
    return g.step(state, g.Press("ok"), ctx)


def test_the_setup_makes_a_new_join_code_and_shows_it() -> None:
    state, effects = choose("setup_new_code")
    assert g.Reset("code") in effects
    assert isinstance(state.step, g.ShowJoin) and screens.view(state, CTX).qr == CTX.join_url


def test_the_setup_makes_a_new_banker_pin_and_the_screen_shows_it() -> None:
    state, effects = choose("setup_new_pin")
    assert g.Reset("pin") in effects
    state, effects = g.step(state, g.PinMade("482913"), CTX)
    view = screens.view(state, CTX)
    assert "482913" in " ".join(view.lines)
    # It stays long enough to be typed on a phone, and any button ends it.
    later = g.Context(game=None, now=CTX.now + 50, join_url=CTX.join_url)
    state, _ = g.step(state, g.Tick(), later)
    assert isinstance(state.step, g.Notice) and state.step.key == "pin_made"
    state, _ = g.step(state, g.Press("ok"), later)
    assert not isinstance(state.step, g.Notice)


def test_without_a_phone_page_the_setup_offers_neither() -> None:
    menu = g.setup_menu(g.Context(game=None, now=1.0), g.Idle())
    assert {"setup_new_code", "setup_new_pin"}.isdisjoint(item.key for item in menu.items)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[TableLoop, Table]]:
    journal = Journal(tmp_path / "banker.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="simulated"))
    loop = TableLoop(session, table, join_code="AC7K", join_url="http://127.0.0.1:8080/j/AC7K")
    stop = threading.Event()
    thread = threading.Thread(target=loop.run, args=(stop,), daemon=True)
    thread.start()
    yield loop, table
    stop.set()
    thread.join(timeout=5)
    loop.stop()
    table.close()
    journal.close()


def test_the_running_table_makes_the_pin_through_its_reset_and_shows_it(running: tuple[TableLoop, Table]) -> None:
    loop, _ = running
    made: list[str] = []

    def new_pin() -> str:
        made.append("930517")
        return made[-1]

    loop.resets = {"pin": new_pin}
    loop.press("ok", long=True)
    wait_until(lambda: isinstance(loop.grammar.step, g.Menu))
    menu = loop.grammar.step
    assert isinstance(menu, g.Menu)
    index = next(i for i, item in enumerate(menu.items) if item.key == "setup_new_pin")
    for at in range(1, index + 1):
        loop.press("down")
        wait_until(lambda at=at: isinstance(loop.grammar.step, g.Menu) and loop.grammar.step.index == at)
    loop.press("ok")
    wait_until(lambda: "930517" in view_text(loop))
    assert made == ["930517"]
