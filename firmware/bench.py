"""The table's figures for ``banker bench --table``: from a tap to the frame handed to the display, and
tap to glass (:func:`bench_tap_to_glass`: from a card landing on one of four readers to the new picture
on the panel, computed from the emulated chips' and buses' clocks).

Measured through the emulated parts (the stock ``mfrc522`` code over the MFRC522 emulator, the
real luma SH1106 driver over the fake I²C panel): one polling round of the reader that finds the
card, the tap resolved to its meaning, the grammar's step, the screen computed and drawn, and the
frame handed to luma, which packs it and writes it to the (fake) bus. The wire time of the bus is
not included (see ``hardware/README.md``: about 25 ms a frame at 400 kHz).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

from banker.actions import NewGame, Pay
from banker.edition import load_edition
from banker.journal import Journal
from banker.session import Session
from firmware.loop import TableLoop
from firmware.script import FakeClock
from firmware.tags import TagSet, simulated_uid
from hardware.display import ScreenView
from hardware.emulator.clock import excluded
from hardware.factory import DisplayConfig, ReaderConfig, TableConfig, open_table
from hardware.pimodel import ZERO_2_W, PiCosts
from hardware.taps import Tap

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


# --- tap to glass: ``banker bench --table`` ------------------------------------------------------

FOUR_READERS = (ReaderConfig(0, 0), ReaderConfig(0, 1), ReaderConfig(1, 0), ReaderConfig(1, 1))
"""The readers of a four-reader table (``install.sh --spi1 2cs``)."""
GLASS_GOALS = {"worst_ms": 40.0, "first_line_median_ms": 25.0, "first_line_worst_ms": 30.0}
"""At 400 kHz on the Pi model: the whole new frame on the glass, and the line the player reads first."""
SCAN_PHASES = 16
"""Moments of the panel's scan each tap is timed at (its oscillator runs on its own: every phase is as likely)."""


def _ntag(meaning: str, index: int) -> bytes:
    """A 7-byte NTAG UID for the bench (the longest read: two cascade levels)."""
    return bytes([0x04, 0x7A, index & 0xFF, len(meaning), 0x5E, 0x11, 0x80])


def _changed(before: Any, after: Any,
             part: tuple[int, int, int, int] | None = None) -> tuple[int, int, int, int] | None:
    """The rectangle (top, bottom, left, right) of the pixels that differ between two images, inside
    ``part`` (the same form) when given; ``None`` when none does."""
    from PIL import ImageChops

    difference = ImageChops.logical_xor(before.convert("1"), after.convert("1"))
    if part is not None:
        top, bottom, left, right = part
        box = difference.crop((left, top, right + 1, bottom + 1)).getbbox()
        if box is None:
            return None
        return top + box[1], top + box[3] - 1, left + box[0], left + box[2] - 1
    box = difference.getbbox()
    return None if box is None else (box[1], box[3] - 1, box[0], box[2] - 1)


def bench_tap_to_glass(costs: PiCosts = ZERO_2_W, *, bus_hz: int = 400_000, step_s: float = 0.001,
                       name: str = "", display: DisplayConfig | None = None) -> dict[str, Any]:
    """From a card put on one of four readers to the new picture on the OLED, in milliseconds, on the Pi
    model ``costs`` (:mod:`hardware.pimodel`).

    The emulated MFRC522s take the time the chips take; the SPI and I²C buses the time of each system
    call and of their bits; the program's CPU time on this machine is charged to the emulated clock
    ``costs.cpu_factor`` times over as it runs (:class:`~hardware.emulator.clock.PiClock`), so the
    polling round, the read of the card and the software between the tap and the frame take a Pi's
    time, in the order they happen. The panel logs when each page of its RAM took its last byte, and
    the glass shows it when its scan next drives the row (``costs.panel_scan_s``, timed at
    :data:`SCAN_PHASES` moments of the scan). A card is put on each reader at every ``step_s`` of a
    polling round in turn (7-byte NTAG UIDs, the longest read).

    Figures (``glass_<name>_…``): ``worst_ms`` / ``median_ms`` for the whole new frame on the glass,
    ``first_line_worst_ms`` / ``first_line_median_ms`` for the line the player reads first (the amount,
    else the title, else the first line that changed: :func:`hardware.display.reading_order`), and
    their parts: the tap (card in the field to the tap), the frame (the software and the bytes on the
    wire) and the scan.
    """
    from hardware.display import reading_order
    from hardware.emulator import EmulatedCard
    from hardware.emulator.oled_panel import glass_time

    config = TableConfig(mode="emulated", readers=FOUR_READERS, display=display or DisplayConfig(bus_hz=bus_hz))
    clock = FakeClock()
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    uids = {meaning: _ntag(meaning, index) for index, meaning in enumerate(SEQUENCE)}
    tags = TagSet({uid.hex(":").upper(): meaning for meaning, uid in uids.items()})
    table = open_table(config, pi_costs=costs)
    taps: list[float] = []
    frames: list[float] = []
    whole: list[float] = []
    first: list[float] = []
    whole_worst = first_worst = 0.0
    period = costs.panel_scan_s
    phases = [period * index / SCAN_PHASES for index in range(SCAN_PHASES)] if period else [0.0]
    try:
        emulation = table.emulation
        assert emulation is not None
        hub, emulated = table.hub, emulation.clock
        panel = emulation.panel
        oled: Any = table.display
        loop = TableLoop(session, table, tags=tags, clock=clock)
        loop.render()
        for meaning in SEQUENCE:  # every screen once: the program's first run through its code is not timed
            clock.now += 2.0
            loop.handle(Tap(0, uids[meaning]))

        def one_round() -> list[Any]:
            found = hub.poll_once()
            hub.pause()
            return found

        for _ in range(3):
            one_round()
        start = emulated.monotonic()
        one_round()
        round_s = emulated.monotonic() - start
        serial = 0
        for chip in emulation.chips:
            offset = 0.0
            while offset < round_s:
                with excluded(emulated):
                    if serial % len(SEQUENCE) == 0:
                        # Money moves between two rounds of taps, as in a game: the balances on the
                        # screens differ from one round to the next (no line is drawn from the last round's).
                        session.submit(Pay("Ann", 10, "Bob"))
                    meaning = SEQUENCE[serial % len(SEQUENCE)]
                    serial += 1
                    card = EmulatedCard.ntag(uids[meaning])
                    clock.now += 2.0
                    placed = emulated.now + offset
                    chip.place_at(card, placed)
                found: list[Any] = []
                while not found:
                    found = one_round()
                with excluded(emulated):
                    for _ in found:
                        hub.get(0)
                    shown = panel.image()
                    panel.written.clear()
                    count = oled.frames
                handled = emulated.monotonic()
                loop.handle(found[0])
                done = emulated.monotonic()
                with excluded(emulated):
                    now_shown = panel.image()
                    changed = _changed(shown, now_shown)
                    if oled.frames == count + 1 and changed is not None:
                        parts = (_changed(shown, now_shown, part) for part in reading_order(loop.view or ScreenView()))
                        read_first = next((part for part in parts if part is not None), changed)
                        tap = found[0].at - placed
                        taps.append(tap)
                        frames.append(done - handled)
                        for phase in phases:
                            for (top, bottom, left, right), out in ((changed, whole), (read_first, first)):
                                seen = glass_time(panel.written, range(top, bottom + 1), period, phase,
                                                  (left, right))
                                out.append(tap + max(0.0, seen - handled))
                        if os.environ.get("BANKER_BENCH_SAMPLES"):
                            writes = [at for at, *_ in panel.written]
                            print(f"{meaning:9} tap {tap * 1000:5.1f} frame {(done - handled) * 1000:5.1f} "
                                  f"writes {(min(writes) - handled) * 1000:5.1f}-{(max(writes) - handled) * 1000:5.1f} "
                                  f"bytes {oled.bytes_sent:4} whole {max(whole[-len(phases):]) * 1000:5.1f} "
                                  f"first {max(first[-len(phases):]) * 1000:5.1f}", file=sys.stderr)
                        whole_worst = max(whole_worst, max(whole[-len(phases):]))
                        first_worst = max(first_worst, max(first[-len(phases):]))
                    chip.remove(card)
                    offset += step_s
                emulated.sleep(hub.remove_after_s + hub.cooldown_s)
                for _ in range(hub.misses_to_remove + 1):
                    one_round()
        loop.stop()
    finally:
        table.close()
        journal.close()
    name = name or f"pi_{bus_hz // 1000}khz"

    def ms(value: float) -> float:
        return round(value * 1000, 1)

    prefix = f"glass_{name}"
    return {
        f"{prefix}_taps": len(taps),
        f"{prefix}_round_ms": ms(round_s),
        f"{prefix}_worst_ms": ms(whole_worst),
        f"{prefix}_median_ms": ms(statistics.median(whole)),
        f"{prefix}_first_line_median_ms": ms(statistics.median(first)),
        f"{prefix}_first_line_worst_ms": ms(first_worst),
        f"{prefix}_tap_worst_ms": ms(max(taps)),
        f"{prefix}_tap_median_ms": ms(statistics.median(taps)),
        f"{prefix}_frame_worst_ms": ms(max(frames)),
        f"{prefix}_frame_median_ms": ms(statistics.median(frames)),
        f"{prefix}_scan_ms": ms(period),
    }


def bench_first_tap_after_idle(costs: PiCosts = ZERO_2_W, step_s: float = 0.002) -> dict[str, Any]:
    """How late a table nobody has touched for :data:`hardware.taps.IDLE_AFTER_S` sees the first tap (its
    readers polled every :data:`hardware.taps.IDLE_INTERVAL_S`), on the Pi model: a card put on the
    first reader at every ``step_s`` of an idle round, the worst and median wait to its tap."""
    from hardware.emulator import EmulatedCard

    config = TableConfig(mode="emulated", readers=FOUR_READERS)
    waits: list[float] = []
    with open_table(config, pi_costs=costs) as table:
        assert table.emulation is not None
        hub, emulated, chip = table.hub, table.emulation.clock, table.emulation.chips[0]
        for _ in range(3):
            hub.poll_once()
            hub.pause()
        offset, serial = 0.0, 0
        while offset < hub.idle_interval_s:
            serial += 1
            hub.idle_since(emulated.monotonic() - hub.idle_after_s - 1)
            hub.poll_once()
            hub.pause()
            card = EmulatedCard.ntag(bytes([0x04, 0x1D, 0x1E, serial & 0xFF, 0x5E, 0x11, 0x80]))
            placed = emulated.monotonic() + offset
            chip.place_at(card, placed)
            found: list[Any] = []
            while not found:
                found = hub.poll_once()
                hub.pause()
            waits.append(found[0].at - placed)
            chip.remove(card)
            emulated.sleep(hub.remove_after_s + hub.cooldown_s)
            for _ in range(hub.misses_to_remove + 1):
                hub.poll_once()
                hub.pause()
            offset += step_s
    return {"glass_pi_first_tap_after_idle_tap_worst_ms": round(max(waits) * 1000, 1),
            "glass_pi_first_tap_after_idle_tap_median_ms": round(statistics.median(waits) * 1000, 1)}


def bench_table(costs: PiCosts = ZERO_2_W) -> dict[str, Any]:
    """``banker bench --table``: tap to frame in-process; tap to glass on the Pi model ``costs`` at
    400 kHz and at 1 MHz; the polling CPU here and on the model, at full speed and once nobody has
    touched the table; and what that costs the first tap."""
    from hardware.bench import bench_poll_cpu_here, bench_poll_cpu_pi

    figures: dict[str, Any] = dict(pi_model=costs.describe())
    figures.update(bench_tap_to_frame())
    figures.update(bench_tap_to_glass(costs))
    figures.update(bench_tap_to_glass(costs, bus_hz=1_000_000))
    figures.update(bench_tap_to_glass(costs, name="pi_spi", display=DisplayConfig(chip="ssd1306", interface="spi")))
    figures["poll_cpu_4_readers_here_percent"] = bench_poll_cpu_here()
    # The model charges this machine's CPU time ten times over, and a busy machine's time is noisy: the
    # median of three runs.
    figures["poll_cpu_4_readers_pi_percent"] = statistics.median(bench_poll_cpu_pi(costs, 1.0) for _ in range(3))
    figures["poll_cpu_4_readers_pi_idle_percent"] = statistics.median(
        bench_poll_cpu_pi(costs, 1.0, idle=True) for _ in range(3))
    figures.update(bench_first_tap_after_idle(costs))
    return figures


def pi_costs(args: Any) -> PiCosts:
    """The Pi model ``banker bench --table`` runs with: a Zero 2 W's costs, with those given on the
    command line (``--spi-message-us`` …, as ``banker bench --calibrate`` prints them) in their place.

    Raises:
        ValueError: a cost that is negative (or a CPU factor that is not positive).
    """
    from hardware.calibrate import cpu_workload

    def seconds(name: str, scale: float) -> float | None:
        value = getattr(args, name, None)
        return None if value is None else value * scale

    factor = getattr(args, "cpu_factor", None)
    workload = getattr(args, "pi_workload_ms", None)
    if factor is None and workload is not None:
        here = statistics.median(cpu_workload() for _ in range(5)) * 1000
        factor = workload / here
    return ZERO_2_W.with_options(
        spi_message_s=seconds("spi_message_us", 1e-6), spi_segment_s=seconds("spi_segment_us", 1e-6),
        sleep_overshoot_s=seconds("sleep_overshoot_us", 1e-6), sleep_cpu_s=seconds("sleep_cpu_us", 1e-6),
        i2c_transaction_s=seconds("i2c_transaction_us", 1e-6), cpu_factor=factor,
        panel_scan_s=seconds("panel_scan_ms", 1e-3))


# --- the running program: ``banker bench --program`` ------------------------------------------------

PROGRAM_PIN = "8642"
PROGRAM_DEEDS = tuple(prop.square for prop in load_edition("us").properties if prop.kind == "street")
"""The squares of the streets the measured program's game is played on: the taps go round them."""
GOALS = {"tap_to_frame_ms": 5.0, "rss_idle_mb": 60.0, "stream_p99_ms": 100.0, "phones_held": 50,
         "answer_ms": 200.0}


class ProgramBenchError(Exception):
    """The program under measurement did not start or did not answer as expected."""


class _Program:
    """``banker run --simulated`` on a free loopback port, as a child process."""

    def __init__(self, data_dir: str) -> None:
        import subprocess
        import sys

        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware.cli", "run", "--simulated", "--host", "127.0.0.1", "--port", "0",
             "--data-dir", data_dir], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port, self.code = self._wait_for_address()

    def _wait_for_address(self) -> tuple[int, str]:
        from firmware.run import announced_address

        assert self.process.stdout is not None
        port, code, text = announced_address(self.process.stdout, 30)
        if not port:
            self.process.kill()
            raise ProgramBenchError(f"banker run did not start: {text!r}")
        return port, code

    def rss_mb(self) -> float:
        from webui.load import rss_mb

        return round(rss_mb(self.process.pid), 1)

    def stop(self) -> None:
        import signal

        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(15)
        except Exception:
            self.process.kill()
            self.process.wait(5)


def _frames(port: int, cookie: str, arrivals: list[float], stop: Any) -> None:
    """Read the stream's ``event: frame`` lines into ``arrivals`` until ``stop`` is set."""
    import socket

    sock = socket.create_connection(("127.0.0.1", port), timeout=1.0)
    sock.sendall((f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    reader = sock.makefile("rb")
    frame = False
    try:
        while not stop.is_set():
            try:
                line = reader.readline()
            except TimeoutError:
                continue
            if not line:
                return
            if line.startswith(b"event: frame"):
                frame = True
            elif frame and line.startswith(b"data: "):
                arrivals.append(time.perf_counter())
                frame = False
    finally:
        sock.close()


def _program_tap_to_frame(phone: Any, port: int, taps: int) -> dict[str, Any]:
    """From POST /table/tap (the simulated reader) to the new frame's event on a phone's stream."""
    import threading
    import uuid
    from urllib.parse import urlencode

    cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    arrivals: list[float] = []
    stop = threading.Event()
    reader = threading.Thread(target=_frames, args=(port, cookie, arrivals, stop), daemon=True)
    reader.start()
    time.sleep(0.3)
    samples: list[float] = []
    import http.client

    for index in range(taps):
        before = len(arrivals)
        body = urlencode({"meaning": f"deed:{PROGRAM_DEEDS[index % len(PROGRAM_DEEDS)]}",
                          "idem": uuid.uuid4().hex}).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        sent = time.perf_counter()
        conn.request("POST", "/table/tap", body=body, headers={
            "Cookie": cookie, "X-CSRFToken": phone.token, "Content-Type": "application/x-www-form-urlencoded"})
        conn.getresponse().read()
        conn.close()
        deadline = time.monotonic() + 2.0
        while len(arrivals) == before and time.monotonic() < deadline:
            time.sleep(0.0002)
        if len(arrivals) > before:
            samples.append((arrivals[before] - sent) * 1000)
        time.sleep(0.1)  # the same card again only after the table's de-duplication time
    stop.set()
    reader.join(3)
    if not samples:
        raise ProgramBenchError("no tap drew a frame")
    ordered = sorted(samples)
    return {"program_taps": taps, "program_tap_frames": len(samples),
            "program_tap_to_frame_event_median_ms": round(statistics.median(ordered), 2),
            "program_tap_to_frame_event_p99_ms": round(ordered[max(0, int(len(ordered) * 0.99) - 1)], 2)}


def bench_journal_commit(actions: int = 300) -> dict[str, Any]:
    """One action submitted to a Session over a journal file (WAL, synchronous=FULL): apply and commit."""
    import tempfile
    from pathlib import Path

    from banker.actions import Salary

    samples: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "commit.sqlite3") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        for _ in range(actions):
            started = time.perf_counter()
            session.submit(Salary("Ann"))
            samples.append((time.perf_counter() - started) * 1000)
    ordered = sorted(samples)
    return {"journal_commit_median_ms": round(statistics.median(ordered), 3),
            "journal_commit_p99_ms": round(ordered[max(0, int(len(ordered) * 0.99) - 1)], 3)}


ADVICE_REQUESTS = 200
ORANGE = ("st_james", "tennessee", "new_york")


def _program_advice(banker: Any, requests: int = ADVICE_REQUESTS) -> dict[str, Any]:
    """``GET /api/advice`` for a player with the orange group, asked by the banker's phone: the first
    answer (which solves the edition's chain and builds its tables) and the later ones (from the kept
    figures; the player's part is worked out each time)."""
    from webui.load import percentile

    for deed in ORANGE:
        status, _ = banker.act({"action": "buy", "player": "Ann", "property": deed})
        if status != 200:
            raise ProgramBenchError(f"buying {deed} answered {status}")
    status, _, first = banker.request("GET", "/api/advice?player=Ann")
    if status != 200:
        raise ProgramBenchError(f"/api/advice answered {status}")
    samples = []
    for _ in range(requests):
        status, _, elapsed = banker.request("GET", "/api/advice?player=Ann")
        if status != 200:
            raise ProgramBenchError(f"/api/advice answered {status}")
        samples.append(elapsed * 1000)
    return {"advice_first_ms": round(first * 1000, 2),
            "advice_median_ms": round(statistics.median(samples), 2),
            "advice_p99_ms": round(percentile(samples, 99), 2),
            "advice_requests": requests}


def bench_advice(requests: int = ADVICE_REQUESTS) -> dict[str, Any]:
    """Only ``/api/advice`` on ``banker run --simulated`` in a child process (see :func:`_program_advice`)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        program = _Program(tmp)
        try:
            banker = _banker_phone(program)
            status, _ = banker.act({"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy", "Dee"],
                                    "rules": {}})
            if status != 200:
                raise ProgramBenchError(f"new_game answered {status}")
            return _program_advice(banker, requests)
        finally:
            program.stop()


def _banker_phone(program: Any) -> Any:
    import json

    from webui.load import Phone

    banker = Phone(program.port)
    banker.request("GET", f"/j/{program.code}")
    banker.token = json.loads(banker.request("GET", "/api/me")[1])["csrf_token"]
    status, body, _ = banker.request("POST", "/api/join", {"player": None})
    if status != 200:
        raise ProgramBenchError(f"join answered {status}: {body!r}")
    status, body, _ = banker.request("POST", "/api/banker/pin", {"pin": PROGRAM_PIN}, key=True)
    if status != 200:
        raise ProgramBenchError(f"setting the PIN answered {status}: {body!r}")
    return banker


def bench_program(streams: int = 8, actions: int = 100, held: int = 56, taps: int = 100,
                  resume_actions: int = 2000, advice_requests: int = ADVICE_REQUESTS) -> dict[str, Any]:
    """The running program's figures: ``banker run --simulated`` in a child process, phones over HTTP."""
    import json
    import tempfile

    from webui.load import Phone, latency, open_streams, percentile

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        program = _Program(tmp)
        try:
            time.sleep(1.0)
            figures["rss_idle_no_game_mb"] = program.rss_mb()
            banker = _banker_phone(program)
            status, _ = banker.act({"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy", "Dee"],
                                    "rules": {}})
            if status != 200:
                raise ProgramBenchError(f"new_game answered {status}")
            time.sleep(1.0)
            figures["rss_idle_mb"] = program.rss_mb()
            figures.update(_program_tap_to_frame(banker, program.port, taps))
            # Each stream is a phone of its own (streams are capped per phone), joined with the first game's code.
            opened = open_streams(program.port, program.code, streams)
            latency(banker, opened, 5, 1)
            samples = latency(banker, opened, actions, 1)
            figures["streams"] = streams
            figures["stream_latency_median_ms"] = round(statistics.median(samples), 2)
            figures["stream_latency_p99_ms"] = round(percentile(samples, 99), 2)
            figures[f"rss_with_{streams}_phones_mb"] = program.rss_mb()
            opened += open_streams(program.port, program.code, held - streams)
            if any(stream.refused for stream in opened):
                raise ProgramBenchError(f"a stream was refused with {held} phones")
            answers = []
            for _ in range(20):
                status, elapsed = banker.act({"action": "salary", "player": "Bob", "again": True})
                if status != 200:
                    raise ProgramBenchError(f"salary answered {status} with {held} phones")
                answers.append(elapsed * 1000)
                answers.append(banker.request("GET", "/api/state")[2] * 1000)
            figures["phones_held"] = held
            figures["answer_with_phones_held_worst_ms"] = round(max(answers), 1)
            figures[f"rss_with_{held}_phones_mb"] = program.rss_mb()
            for stream in opened:
                stream.close()
            figures.update(_program_advice(banker, advice_requests))
            for _ in range(resume_actions):
                banker.act({"action": "salary", "player": "Ann", "again": True})
            seq = json.loads(banker.request("GET", "/api/state")[1])["seq"]
        finally:
            program.stop()
        started = time.perf_counter()
        program = _Program(tmp)
        try:
            answer = Phone(program.port)
            answer.cookies = dict(banker.cookies)
            status, body, _ = answer.request("GET", "/api/state")
            resumed = time.perf_counter() - started
            if status != 200 or json.loads(body)["seq"] != seq:
                raise ProgramBenchError("the restarted program did not resume the game")
            figures["resume_actions"] = seq + 1
            figures["resume_to_first_answer_s"] = round(resumed, 2)
        finally:
            program.stop()
    figures.update(bench_journal_commit())
    return figures


def machine() -> str:
    """The machine the figures were measured on: CPU model, cores, memory, OS and Python."""
    import os
    import platform
    from pathlib import Path

    cpu = platform.processor() or platform.machine()
    memory = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 1024 / 1024:.0f} GB RAM"
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores{memory}; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}")


def performance_markdown(figures: dict[str, Any], when: str, where: str) -> str:
    """docs/performance.md from the table's and the running program's figures."""
    def row(measure: str, key: str, unit: str, goal: str = "") -> str:
        value = figures.get(key)
        return f"| {measure} | {value if value is not None else 'not measured'} {unit} | {goal} |"

    held = figures.get("phones_held", 0)
    streams = figures.get("streams", 8)
    lines = [
        "# Performance of the table program",
        "",
        f"Measured {when} on {where}, by `make perf` (`banker bench --table --program --write "
        "docs/performance.md`), which writes this file again. The engine's own figures (actions per second, "
        "self-play, the journal's snapshots) are `banker bench`.",
        "",
        "Not measured on a Raspberry Pi: a Pi is several times slower per request, so run `make perf` there "
        "before relying on these figures.",
        "",
        "| measure | result | goal |",
        "|---|---|---|",
        row("tap → frame, in-process: the emulated MFRC522 (stock driver) found the card, the grammar stepped, "
            "the screen was drawn and handed to the luma SH1106 driver (median)", "table_tap_to_frame_median_ms",
            "ms", "< 5 ms"),
        row("the same, p99", "table_tap_to_frame_p99_ms", "ms"),
        row("**tap to glass on a Pi Zero 2 W** (the Pi model, see below), four readers, 400 kHz I²C: the whole "
            "new frame on the glass, worst", "glass_pi_400khz_worst_ms", "ms", "< 40 ms"),
        row("the same, median", "glass_pi_400khz_median_ms", "ms"),
        row("the line the player reads first (the amount, else the title), median",
            "glass_pi_400khz_first_line_median_ms", "ms", "< 25 ms"),
        row("the same, worst", "glass_pi_400khz_first_line_worst_ms", "ms", "< 30 ms"),
        row("of which: card in the field → its tap (four readers, a round every 5 ms), worst",
            "glass_pi_400khz_tap_worst_ms", "ms"),
        row("of which: the software and the frame on the wire, worst", "glass_pi_400khz_frame_worst_ms", "ms"),
        row("of which: the panel's scan (a byte is seen when the scan next drives its row), at most",
            "glass_pi_400khz_scan_ms", "ms"),
        row("**tap to glass on a Pi Zero 2 W**, 1 MHz I²C (`install.sh --i2c-hz 1000000`): whole frame, worst",
            "glass_pi_1000khz_worst_ms", "ms", "< 40 ms"),
        row("the same, first line, median", "glass_pi_1000khz_first_line_median_ms", "ms", "< 25 ms"),
        row("the same, first line, worst", "glass_pi_1000khz_first_line_worst_ms", "ms", "< 30 ms"),
        row("**tap to glass on a Pi Zero 2 W**, an SSD1306 on SPI at 8 MHz (hardware/README.md, \"An OLED on "
            "SPI\"): whole frame, worst", "glass_pi_spi_worst_ms", "ms", "< 40 ms"),
        row("the same, median", "glass_pi_spi_median_ms", "ms"),
        row("the same, first line, median", "glass_pi_spi_first_line_median_ms", "ms", "< 25 ms"),
        row("the same, first line, worst", "glass_pi_spi_first_line_worst_ms", "ms", "< 30 ms"),
        row("the polling thread's own CPU, four empty readers, on this machine (the emulated chips' work left out)",
            "poll_cpu_4_readers_here_percent", "% of a core"),
        row("the same on the Pi model (its Python ×10, the kernel's CPU for each transfer and sleep; the median "
            "of three runs)",
            "poll_cpu_4_readers_pi_percent", "% of a core", "< 25 %"),
        row("the same once nobody has touched the table for 2 minutes (a round every 50 ms)",
            "poll_cpu_4_readers_pi_idle_percent", "% of a core"),
        row("what that costs the first tap: card in the field → its tap, worst",
            "glass_pi_first_tap_after_idle_tap_worst_ms", "ms"),
        row("tap on the running program's page (POST /table/tap, the simulated reader's polling, the loop) → "
            "the new frame's event on a phone's stream (median)", "program_tap_to_frame_event_median_ms", "ms"),
        row("the same, p99", "program_tap_to_frame_event_p99_ms", "ms"),
        row(f"action (a phone's POST) → its event on each of {streams} open streams, median",
            "stream_latency_median_ms", "ms"),
        row("the same, p99", "stream_latency_p99_ms", "ms", "< 100 ms"),
        row(f"phones holding a stream open, every action and page still answered (worst answer with {held} "
            "streams open)", "answer_with_phones_held_worst_ms", "ms", "50 phones, answers < 200 ms"),
        row("memory (VmRSS) of `banker run --simulated`, idle before a game", "rss_idle_no_game_mb", "MB"),
        row("the same, idle with a game", "rss_idle_mb", "MB", "< 60 MB"),
        row(f"the same with {streams} phones' streams open", f"rss_with_{streams}_phones_mb", "MB"),
        row(f"the same with {held} phones' streams open", f"rss_with_{held}_phones_mb", "MB"),
        row("`GET /api/advice` (a player with the orange group, 4 players): the first answer, which solves the "
            "edition's chain and builds its tables", "advice_first_ms", "ms"),
        row(f"the same, later answers from the kept figures (median of {figures.get('advice_requests')})",
            "advice_median_ms", "ms"),
        row("the same, p99", "advice_p99_ms", "ms"),
        row("journal commit: one action applied and committed (WAL, synchronous=FULL), median",
            "journal_commit_median_ms", "ms"),
        row("the same, p99", "journal_commit_p99_ms", "ms"),
        row(f"resume: from starting `banker run` on a journal of {figures.get('resume_actions')} actions to "
            "its first answer with the game", "resume_to_first_answer_s", "s"),
        "",
        "The in-process tap → frame excludes the I²C wire time of the frame. Tap to glass is the Pi model's "
        f"({figures.get('pi_model', 'a Zero 2 W')}; \"The table on a Raspberry Pi\" below says where each cost "
        "comes from, and what each step of the table's work gave): the emulated MFRC522s, SPI and I²C buses "
        "and OLED panel take the chips' and wires' time, the "
        "program's own CPU time on this machine is charged ten times over as it runs, and the panel shows a byte "
        "when its scan next drives the row, at every moment of the scan. The page's tap → frame event includes "
        "the simulated reader's polling interval, the HTTP request and the stream; it is what a phone watching the "
        "simulated table sees.",
        "",
        "The p99 and worst figures move with whatever else the machine is doing; the medians are steadier.",
        "",
        "The robustness runs (`make soak`) and their last results: see the end of this file.",
        "",
        "",
    ]
    return "\n".join(lines)
