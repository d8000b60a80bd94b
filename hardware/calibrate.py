"""``banker bench --calibrate``: the Pi's costs of :mod:`hardware.pimodel`, measured on the Pi itself in a
few seconds, printed as the options that feed them to ``banker bench --table``.

What it does (nothing in it changes what a reader or the display holds):

- an ``xfer2`` loop on ``/dev/spidev0.0``: each transfer reads the RC522's VersionReg; the wall time and
  the process's CPU time of one call;
- the same register read six times in one ``SPI_IOC_MESSAGE`` (six chip-select frames, one system
  call): what each further transfer of a message adds;
- a loop of 0.25 ms sleeps: how late each wakes, and the CPU each costs;
- 1 KiB to the OLED on ``/dev/i2c-1`` in one ``i2c_rdwr``: a command stream of NOPs (0xE3 on both the
  SSD1306 and the SH1106), so the picture does not change; the time besides the bytes' 9 clocks each
  at the bus's clock;
- a fixed piece of the table's own Python (:func:`cpu_workload`): its time, which ``banker bench
  --table --pi-workload-ms`` divides by the same work's time on the machine the bench runs on to get
  the CPU factor.

A part that is missing is skipped with the reason (no SPI: no SPI figures).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from hardware.nfc import SPI_IOC_MESSAGE, SpiMessage

SLEEP_S = 0.00025
LOOPS = 2000


def cpu_workload() -> float:
    """Seconds of one fixed piece of the table's Python: a screen drawn and packed into the panel's pages,
    a hundred times (no hardware: the same on any machine)."""
    from hardware.display import ScreenView, render_view
    from hardware.oled import changed_span, pack_pages

    views = [ScreenView(title=f"Player {index}   $1,{index:03d}", lines=("Now tap a deed or a card", "Baltic Avenue"),
                        amount=f"${index * 10}", footer="OK buy  ✕ auction") for index in range(10)]
    start = time.perf_counter()
    previous: list[bytes] | None = None
    for index in range(100):
        pages = pack_pages(render_view(views[index % len(views)]))
        if previous is not None:
            for old, new in zip(previous, pages, strict=True):
                changed_span(old, new)
        previous = pages
    return time.perf_counter() - start


def _timed(action: Callable[[], Any], loops: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) per call of ``action``, the median of five runs."""
    walls, cpus = [], []
    for _ in range(5):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(loops):
            action()
        walls.append((time.perf_counter() - wall) / loops)
        cpus.append((time.process_time() - cpu) / loops)
    return statistics.median(walls), statistics.median(cpus)


def calibrate_spi(bus: int = 0, device: int = 0, speed_hz: int = 1_000_000) -> dict[str, Any]:
    import spidev  # type: ignore[import-not-found]

    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except OSError as error:
        return {"spi": f"skipped: /dev/spidev{bus}.{device}: {error.strerror or error}"}
    try:
        spi.max_speed_hz = speed_hz
        read_version = [0x37 << 1 & 0x7E | 0x80, 0]
        bits_s = 8 * len(read_version) / speed_hz
        wall, cpu = _timed(lambda: spi.xfer2(read_version), LOOPS)
        message = SpiMessage([read_version] * 6, speed_hz=speed_hz)
        message_wall, _ = _timed(lambda: message.run(spi), LOOPS // 6)
        segment = (message_wall - wall - 5 * bits_s) / 5
        # Each transfer its own chip-select frame: every one reads VersionReg (0x91/0x92 on an NXP chip).
        separate = {answer[1] for answer in message.answers()}
        return {"spi_cs_change": f"VersionReg read in each transfer: {sorted(separate)} (one value: each had its "
                                 "own chip select)",
                "spi_message_us": round((wall - bits_s) * 1e6, 1), "spi_message_cpu_us": round(cpu * 1e6, 1),
                "spi_segment_us": round(segment * 1e6, 1),
                "spi_ioctl": f"SPI_IOC_MESSAGE(1) = {SPI_IOC_MESSAGE(1):#x}"}
    finally:
        spi.close()


def calibrate_sleep() -> dict[str, Any]:
    wall, cpu = _timed(lambda: time.sleep(SLEEP_S), LOOPS // 4)
    return {"sleep_overshoot_us": round((wall - SLEEP_S) * 1e6, 1), "sleep_cpu_us": round(cpu * 1e6, 1)}


def calibrate_i2c(port: int = 1, address: int = 0x3C, bus_hz: int = 400_000) -> dict[str, Any]:
    try:
        from smbus2 import SMBus, i2c_msg
    except ImportError as error:
        return {"i2c": f"skipped: {error}"}
    payload = [0x00] + [0xE3] * 1023  # a command stream of NOPs: the picture stays as it is
    try:
        bus = SMBus(port)
    except OSError as error:
        return {"i2c": f"skipped: /dev/i2c-{port}: {error.strerror or error}"}
    try:
        wire_s = (2 + 9 * (1 + len(payload))) / bus_hz
        try:
            wall, _ = _timed(lambda: bus.i2c_rdwr(i2c_msg.write(address, payload)), 10)
        except OSError as error:
            reason = error.strerror or error
            return {"i2c": f"skipped: nothing answers at 0x{address:02X} on /dev/i2c-{port} ({reason})"}
        return {"i2c_transaction_us": round((wall - wire_s) * 1e6, 1),
                "i2c_1kib_ms": round(wall * 1000, 2), "i2c_bus_hz_assumed": bus_hz}
    finally:
        bus.close()


def calibrate() -> dict[str, Any]:
    """Every figure ``banker bench --calibrate`` prints, then the options to give ``banker bench --table``."""
    figures: dict[str, Any] = {}
    try:
        figures.update(calibrate_spi())
    except ImportError as error:
        figures["spi"] = f"skipped: {error}"
    figures.update(calibrate_sleep())
    figures.update(calibrate_i2c())
    figures["cpu_workload_ms"] = round(statistics.median(cpu_workload() for _ in range(5)) * 1000, 2)
    options = [f"--pi-workload-ms {figures['cpu_workload_ms']}",
               f"--sleep-overshoot-us {figures['sleep_overshoot_us']}", f"--sleep-cpu-us {figures['sleep_cpu_us']}"]
    if "spi_message_us" in figures:
        options += [f"--spi-message-us {figures['spi_message_us']}", f"--spi-segment-us {figures['spi_segment_us']}"]
    if "i2c_transaction_us" in figures:
        options.append(f"--i2c-transaction-us {figures['i2c_transaction_us']}")
    figures["bench_options"] = "banker bench --table " + " ".join(options)
    return figures
