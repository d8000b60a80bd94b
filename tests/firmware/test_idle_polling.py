"""A table nobody has touched for minutes polls its readers slowly; whoever acts at it (a tap, a button,
a phone's action) sets them polling at full speed again, so the next card is seen within a round."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from banker.actions import NewGame, Pay
from banker.journal import Journal
from banker.session import Session
from firmware.loop import TableLoop
from firmware.script import FakeClock
from hardware.factory import ReaderConfig, TableConfig, open_table
from hardware.protocols import ControlEvent
from hardware.taps import IDLE_INTERVAL_S, POLL_INTERVAL_S, TagReaderHub


@pytest.fixture
def table_loop() -> Iterator[tuple[TableLoop, TagReaderHub, Session]]:
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="emulated", readers=(ReaderConfig(0, 0), ReaderConfig(0, 1))))
    loop = TableLoop(session, table, clock=FakeClock())
    loop.render()
    try:
        yield loop, table.hub, session
    finally:
        loop.stop()
        table.close()
        journal.close()


def untouched(hub: TagReaderHub) -> None:
    hub.idle_since(hub._clock() - hub.idle_after_s - 1)
    assert hub.round_s == IDLE_INTERVAL_S


def test_a_button_press_sets_the_readers_polling_at_full_speed(
    table_loop: tuple[TableLoop, TagReaderHub, Session],
) -> None:
    loop, hub, _ = table_loop
    untouched(hub)
    loop.handle(ControlEvent("down"))
    assert hub.round_s == POLL_INTERVAL_S


def test_a_phones_action_sets_the_readers_polling_at_full_speed(
    table_loop: tuple[TableLoop, TagReaderHub, Session],
) -> None:
    _, hub, session = table_loop
    untouched(hub)
    session.submit(Pay("Ann", 10, "Bob"))  # a phone pays: the players are at the table, a card may follow
    assert hub.round_s == POLL_INTERVAL_S
