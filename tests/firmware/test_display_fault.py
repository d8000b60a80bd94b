"""The display failing under a flow: the I²C glitch is logged, the frame sent again, the flow goes on."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware.loop import TableLoop
from hardware.display import render_view
from hardware.factory import Table, TableConfig, open_table
from hardware.protocols import ControlEvent

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


@pytest.fixture
def emulated() -> Iterator[tuple[TableLoop, Table]]:
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="emulated"))
    now = [100.0]
    loop = TableLoop(session, table, clock=lambda: now[0])
    loop.render()
    yield loop, table
    loop.stop()
    table.close()
    journal.close()


def test_an_i2c_glitch_mid_flow_keeps_the_players_step_and_the_frame_is_sent_again(
    emulated: tuple[TableLoop, Table], caplog: pytest.LogCaptureFixture
) -> None:
    loop, table = emulated
    assert table.emulation is not None
    panel = table.emulation.panel
    loop.handle(g.TapIn(loop.tags.resolve(loop.tags.uid_of("player:1") or "")))  # Ann: her menu
    loop.handle(ControlEvent("down"))
    before = loop.grammar
    expected, _ = g.step(before, g.Press("down"), loop.context())
    del table.emulation.i2c.panels[0x3C]  # the panel drops off the bus
    with caplog.at_level(logging.ERROR):
        loop.handle(ControlEvent("down"))  # raised out of handle() before: the flow was reset to idle
    assert loop.grammar.step == expected.step
    assert loop.display_fault is not None and "stopped answering" in str(loop.display_fault)
    assert not [record for record in caplog.records if record.exc_info]  # no traceback: not a bug
    shown = loop.view
    panel.power_cycle()
    table.emulation.i2c.panels[0x3C] = panel  # back, blank after losing power
    loop.handle(g.Tick())
    assert loop.display_fault is None
    assert loop.view == shown and shown is not None
    assert panel.display_on
    assert panel.image() == render_view(shown)
