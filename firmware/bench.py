"""The table's figures for ``banker bench --table``: from a tap to the frame handed to the display.

Measured through the emulated parts (the stock ``mfrc522`` code over the MFRC522 emulator, the
real luma SH1106 driver over the fake I²C panel): one polling round of the reader that finds the
card, the tap resolved to its meaning, the grammar's step, the screen computed and drawn, and the
frame handed to luma, which packs it and writes it to the (fake) bus. The wire time of the bus is
not included (see ``hardware/README.md``: about 25 ms a frame at 400 kHz).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware.loop import TableLoop
from firmware.script import FakeClock
from firmware.tags import simulated_uid
from hardware.factory import TableConfig, open_table

SEQUENCE = ("player:1", "deed:3", "player:2", "deed:39", "deed:5", "player:1")
"""Taps that each change the screen: a card, a deed (a purchase offered), another card (a new start)…"""


def bench_tap_to_frame(taps: int = 1000) -> dict[str, Any]:
    from hardware.emulator import EmulatedCard
    from hardware.iso14443 import parse_uid

    clock = FakeClock()
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="emulated", readers=TableConfig().readers[:1]))
    samples: list[float] = []
    try:
        assert table.emulation is not None
        chip = table.emulation.chips[0]
        display: Any = table.display
        loop = TableLoop(session, table, clock=clock)
        loop.render()
        for index in range(taps):
            meaning = SEQUENCE[index % len(SEQUENCE)]
            card = EmulatedCard.classic(parse_uid(simulated_uid(meaning)))
            clock.now += 2.0
            frames = display.frames
            chip.place(card)
            start = time.perf_counter()
            found = table.hub.poll_once()
            for tap in found:
                table.hub.get(0)
                loop.handle(tap)
            elapsed = time.perf_counter() - start
            chip.remove(card)
            chip.clock.sleep(table.hub.remove_after_s + table.hub.cooldown_s)  # lifted, and off long enough to tap anew
            for _ in range(table.hub.misses_to_remove):
                table.hub.poll_once()
            if display.frames == frames + 1:
                samples.append(elapsed)
        loop.stop()
    finally:
        table.close()
        journal.close()
    ordered = sorted(samples)
    return {
        "table_taps": taps,
        "table_frames": len(samples),
        "table_tap_to_frame_median_ms": round(statistics.median(ordered) * 1000, 3),
        "table_tap_to_frame_p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 3),
        "table_tap_to_frame_worst_ms": round(ordered[-1] * 1000, 3),
    }
