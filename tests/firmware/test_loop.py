"""The table loop with its threads, a restart after a power cut, the emulated parts, setup and enrollment."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware.loop import TableLoop
from hardware.factory import Table, TableConfig, open_table
from tests.firmware.conftest import Play


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[TableLoop, Table, Session]]:
    """A simulated table running its real loop in a thread, with a journal on disk."""
    journal = Journal(tmp_path / "banker.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="simulated"))
    loop = TableLoop(session, table)
    stop = threading.Event()
    thread = threading.Thread(target=loop.run, args=(stop,), daemon=True)
    thread.start()
    yield loop, table, session
    stop.set()
    thread.join(timeout=5)
    loop.stop()
    table.close()
    journal.close()


def view_text(loop: TableLoop) -> str:
    view = loop.view
    return "" if view is None else " ".join([view.title, *view.lines, view.amount or "", view.footer])


def test_the_running_loop_takes_taps_and_presses_from_its_threads(running: tuple[TableLoop, Table, Session]) -> None:
    loop, table, session = running
    loop.tap("player:1")
    wait_until(lambda: "Now tap" in view_text(loop))
    loop.tap("deed:3")
    wait_until(lambda: "Ann buys it" in view_text(loop))
    time.sleep(0.7)  # the guard against a mashed OK
    loop.press("ok")
    wait_until(lambda: session.state is not None and session.state.props[1].owner == 0)
    assert table.display.frames >= 3  # type: ignore[attr-defined]


def test_a_phone_asks_to_be_the_banker(running: tuple[TableLoop, Table, Session]) -> None:
    loop, _, _ = running
    answers: list[bool] = []
    loop.ask_banker("Bob's phone", answers.append)
    wait_until(lambda: "Bob's phone asks to be the banker." in view_text(loop))
    loop.press("ok")
    wait_until(lambda: answers == [True])


def test_a_change_made_elsewhere_is_drawn(running: tuple[TableLoop, Table, Session]) -> None:
    from banker.actions import Pay

    loop, _, session = running
    wait_until(lambda: "$1,500" in view_text(loop))
    session.submit(Pay("Ann", 100, "Bob"))
    wait_until(lambda: "$1,400" in view_text(loop) and "$1,600" in view_text(loop))


RESUME = textwrap.dedent("""
    import os, sys
    from banker.actions import NewGame
    from banker.journal import Journal
    from banker.session import Session
    from firmware.loop import TableLoop
    from firmware.script import FakeClock
    from hardware.factory import TableConfig, open_table

    journal = Journal(sys.argv[1])
    session = Session.resume(journal)
    if session.state is None:
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
    clock = FakeClock()
    table = open_table(TableConfig(mode="simulated"))
    loop = TableLoop(session, table, clock=clock)
    for step in sys.argv[2:]:
        clock.now += 1.0
        if step.startswith("tap:"):
            loop.tap(step[4:])
            loop.pump(); loop.pump(); loop.pump()
        else:
            loop.press(step)
            loop.pump()
    print(loop.view.title if loop.view else "")
    os._exit(0)  # the plug is pulled: no close, no checkpoint
""")


def test_power_cut_between_two_taps_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "banker.sqlite3"

    def run(*steps: str) -> str:
        done = subprocess.run([sys.executable, "-c", RESUME, str(db), *steps], capture_output=True, text=True,
                              timeout=60, check=True)
        return done.stdout.strip()

    # Ann buys Baltic (acknowledged: "Done"), then taps her card: the plug is pulled after that tap.
    assert run("tap:player:1", "tap:deed:3", "ok", "tap:player:1") == "Ann            $1,440"
    with Journal(db) as journal:
        session = Session.resume(journal)
        assert session.state is not None
        assert session.state.props[1].owner == 0
        table = open_table(TableConfig(mode="simulated"))
        with table:
            loop = TableLoop(session, table)
            loop.handle(g.Resumed(session.state.seq))
            assert loop.view is not None and "nothing lost" in " ".join(loop.view.lines)
            loop.stop()
    # The game goes on where it was: Bob pays rent on Baltic.
    run("tap:player:2", "tap:deed:3", "ok")
    with Journal(db) as journal:
        state = Session.resume(journal).state
        assert state is not None
        assert [p.cash for p in state.players] == [1444, 1496]


def test_the_emulated_table_plays_through_the_real_drivers(tmp_path: Path) -> None:
    """mfrc522 over the emulated chip, luma over the fake I2C panel, gpiozero on MockFactory pins."""
    if importlib.util.find_spec("mfrc522") is None:
        pytest.skip("the stock driver is needed: pip install --no-deps mfrc522==0.0.7")
    journal = Journal(tmp_path / "banker.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="emulated"))
    loop = TableLoop(session, table)
    stop = threading.Event()
    thread = threading.Thread(target=loop.run, args=(stop,), daemon=True)
    thread.start()
    emulation = table.emulation
    assert emulation is not None
    try:
        panel = emulation.panel
        first = panel.image().tobytes()

        def press_ok() -> None:
            time.sleep(0.7)
            pin = emulation.pin_factory.pin(5)
            pin.drive_low()
            pin.drive_high()

        for payer, deed in (("player:1", "deed:3"), ("player:2", "deed:3")):
            loop.tap(payer)
            wait_until(lambda: "Now tap" in view_text(loop))
            time.sleep(0.4)  # the card is lifted before the next one
            loop.tap(deed)
            wait_until(lambda: "OK" in (loop.view.footer if loop.view else ""))
            press_ok()
            wait_until(lambda: "Done" in view_text(loop))
            time.sleep(0.3)
            loop.press("cancel")
            wait_until(lambda: "Balances" in view_text(loop))
        state = session.state
        assert state is not None
        assert [p.cash for p in state.players] == [1444, 1496]
        assert panel.image().tobytes() != first  # the panel's RAM holds the new frames
    finally:
        stop.set()
        thread.join(timeout=5)
        loop.stop()
        table.close()
        journal.close()


def test_a_new_game_set_up_at_the_table(tmp_path: Path) -> None:
    journal = Journal(":memory:")
    session = Session(journal)
    table = open_table(TableConfig(mode="simulated"))
    clock = [100.0]
    loop = TableLoop(session, table, clock=lambda: clock[0])

    def press(button: str, long: bool = False) -> None:
        clock[0] += 1.0
        loop.handle(g.Press(button, long))

    try:
        loop.render()
        assert loop.view is not None and "No game yet." in loop.view.lines
        press("ok")  # no game: OK opens setup
        assert loop.view.title == "Setup"
        press("ok")  # new game
        assert "Edition?" in loop.view.lines
        press("ok")  # United States
        press("down")  # 3 players
        press("ok")
        for _ in range(3):
            press("ok")  # names from the list
        press("up")  # Free Parking pot
        press("ok")
        press("up")  # short game
        press("up")  # timed game
        press("ok")
        assert "How long?" in loop.view.lines
        press("ok")  # 60 minutes
        assert loop.view.title == "New game" and "Timed game" in loop.view.lines
        press("ok")
        state = session.state
        assert state is not None
        assert [p.name for p in state.players] == ["Ann", "Bob", "Cy"]
        assert state.rules.free_parking_pot and state.rules.timed_game
        assert loop.timer is not None and loop.timer.limit_s == 3600
        assert journal.setting(f"timer:{session.game_id}") is not None
    finally:
        loop.stop()
        table.close()
        journal.close()


def test_enrollment_walks_the_cards_and_refuses_a_tag_already_used(make_play: Callable[..., Play]) -> None:
    play = make_play()
    loop = play.script.loop
    loop.tags = type(loop.tags)()  # a table with no tags yet
    loop.grammar = g.GrammarState(step=g.enrollment(), last_input=play.script.clock.now)
    loop.render()
    assert "Bank card 1" in play.flat() or "Ann" in play.flat()
    play.do("tap:uid:04111111")
    assert "Bob" in play.flat()  # the next one: bank card 2
    play.do("tap:uid:04111111")
    play.do("wait:2", "tap:uid:04111111")
    assert "This tag is already" in play.flat() and "error" in play.beeps
    play.do("wait:6", "tap:uid:04222222")
    tags = play.script.journal.tags()
    assert tags == {"04:11:11:11": "player:1", "04:22:22:22": "player:2"}
    play.do("cancel")
    assert "2 tags enrolled." in play.flat()


def test_taps_on_two_readers_at_once_wait_for_ok(tmp_path: Path) -> None:
    """A bank card and a deed land on two readers in the same polling round: read in reader order,
    they make one rent offer, and nothing is paid without OK."""
    from hardware.taps import SimulatedReader

    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="simulated"))
    clock = [10.0]
    loop = TableLoop(session, table, clock=lambda: clock[0])
    try:
        first, second = table.readers
        assert isinstance(first, SimulatedReader) and isinstance(second, SimulatedReader)
        first.tap(loop.tags.uid_of("player:1") or "")
        second.tap(loop.tags.uid_of("deed:3") or "")
        assert loop.pump() == 2
        assert loop.view is not None and loop.view.lines == ("Ann buys it",)
        assert session.state is not None and session.state.seq == 0
        clock[0] += 1.0
        loop.press("ok")
        loop.pump()
        assert session.state.props[1].owner == 0
    finally:
        loop.stop()
        table.close()
        journal.close()


def test_on_the_tables_hotspot_the_wifi_qr_code_comes_first() -> None:
    from firmware import screens

    ctx = g.Context(game=None, now=5.0, join_code="AC7K", join_url="http://10.42.0.1:8080/j/AC7K",
                    wifi_join="WIFI:T:WPA;S:TableBanker;P:monopoly42;;")
    state = g.GrammarState(step=g.setup_menu(ctx, g.Idle()))
    menu = state.step
    assert isinstance(menu, g.Menu)
    phones = next(i for i, item in enumerate(menu.items) if item.key == "setup_phones")
    for _ in range(phones):
        state, _ = g.step(state, g.Press("down"), ctx)
    state, _ = g.step(state, g.Press("ok"), ctx)
    first = screens.view(state, ctx)
    assert first.qr == ctx.wifi_join and "TableBanker" in first.lines
    state, _ = g.step(state, g.Press("ok"), ctx)
    second = screens.view(state, ctx)
    assert second.qr == ctx.join_url and "AC7K" in second.lines


def test_the_banker_phone_starts_enrollment_and_forgets_a_tag(make_play: Callable[..., Play]) -> None:
    play = make_play()
    loop = play.script.loop
    uid = loop.tags.uid_of("deed:3")
    assert uid is not None
    loop.start_enrollment()
    loop.pump()
    assert "Enroll 1/" in play.screen()
    play.do("cancel", "wait:4")
    loop.forget_tag(uid)
    assert loop.tags.meaning_of(uid) is None
    with pytest.raises(ValueError, match="no tag"):
        loop.forget_tag(uid)
    play.do("wait:2", f"tap:uid:{uid}")
    assert "Unknown tag" in play.screen()
