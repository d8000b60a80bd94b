"""Measurements of the hardware layer, taken on the emulated hardware of this machine.

``python -m hardware.bench`` prints them; ``banker bench`` calls :func:`run_bench`.

What is measured, and what it means for a Raspberry Pi:

- **SPI transfers and emulated time per poll**, the stock ``mfrc522`` code vs this driver. The
  emulator's clock (:mod:`hardware.emulator.clock`) charges each system call an assumed 20 µs and each
  transfer its bits at the driver's SPI clock, and the chip takes the time a chip takes (frames on the
  air, the card's answer, the timer as configured). These figures are what a poll costs on a chip, not
  on this machine; a Pi's costs are ``banker bench --table``'s (:mod:`hardware.pimodel`).
- **Worst-case tap latency** with four readers, from the emulated clock: a card is put on each
  reader at every moment of a polling round in turn, and the longest wait from placement to the
  tap event is reported.
- **Polling CPU** with four emulated readers and nothing on them: the driver's own CPU here, polled by
  the hub's thread for a second in real time, less the emulated chips' work
  (:func:`bench_poll_cpu_here`); and on the Pi model (:func:`bench_poll_cpu_pi`), at full speed and
  once nobody has touched the table for minutes.
- **Bytes per full OLED frame** on the managed smbus2 bus the Pi uses, and the wire time they take
  at 100 kHz and 400 kHz (9 clocks per byte plus start and stop per transaction).
- **Tap to frame**: from the start of a polling round that finds a card on the second of two
  readers, through the tap event and rendering, to the frame handed to the real SH1106 driver and
  packed by it (this machine's CPU time). The I²C wire is not included.
"""

from __future__ import annotations

import statistics
import threading
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hardware.pimodel import PiCosts

Results = dict[str, float | int | str]

_RUNS = 30
_BUSES = ((0, 0), (0, 1), (1, 0), (1, 1))
def _median_ms(action: Callable[[], Any], runs: int = _RUNS, setup: Callable[[], Any] | None = None) -> float:
    samples = []
    for _ in range(runs):
        if setup is not None:
            setup()
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return round(statistics.median(samples) * 1000, 3)


def _transfers(chip: Any, action: Callable[[], Any]) -> int:
    before: int = chip.transfers
    action()
    after: int = chip.transfers
    return after - before


def _emulated_ms(clock: Any, action: Callable[[], Any]) -> float:
    start: float = clock.monotonic()
    action()
    end: float = clock.monotonic()
    return round((end - start) * 1000, 3)


def bench_nfc() -> Results:
    """SPI transfers, emulated time and wall time of an empty poll and of a tap: stock vs this driver."""
    from hardware.emulator import EmulatedCard, FakeSpiBus, Mfrc522Chip, emulated_pi
    from hardware.nfc import Mfrc522Reader

    spi = FakeSpiBus()
    stock_chip, chip = Mfrc522Chip(), Mfrc522Chip()
    spi.attach(0, 0, stock_chip)  # SimpleMFRC522 always opens spidev0.0
    spi.attach(0, 1, chip)
    clock = spi.clock
    results: Results = {}
    classic = EmulatedCard.classic("DEADBEEF")
    ntag = EmulatedCard.ntag("046E51C2B33480")
    with emulated_pi(spi) as pi:
        # Ours first: it sets BCM numbering, which the stock constructor then adopts.
        ours = Mfrc522Reader(device=1)
        stock = pi.SimpleMFRC522()

        def place(target: Any, card: Any) -> Callable[[], None]:
            def put_on_reader() -> None:
                target.remove()
                target.place(card)

            return put_on_reader

        results["nfc_empty_poll_spi_transfers_stock"] = _transfers(stock_chip, stock.read_id_no_block)
        results["nfc_empty_poll_spi_transfers_ours"] = _transfers(chip, ours.poll)
        results["nfc_empty_poll_emulated_ms_stock"] = _emulated_ms(clock, stock.read_id_no_block)
        results["nfc_empty_poll_emulated_ms_ours"] = _emulated_ms(clock, ours.poll)
        results["nfc_empty_poll_ms_here_ours"] = _median_ms(ours.poll)

        place(stock_chip, classic)()
        results["nfc_tap_4byte_spi_transfers_stock"] = _transfers(stock_chip, stock.read_id_no_block)
        place(chip, classic)()
        results["nfc_tap_4byte_spi_transfers_ours"] = _transfers(chip, ours.poll)
        place(chip, classic)()
        results["nfc_tap_4byte_emulated_ms_ours"] = _emulated_ms(clock, ours.poll)
        place(stock_chip, ntag)()
        results["nfc_tap_7byte_spi_transfers_stock"] = _transfers(stock_chip, stock.read_id_no_block)
        place(chip, ntag)()
        results["nfc_tap_7byte_spi_transfers_ours"] = _transfers(chip, ours.poll)
        place(chip, ntag)()
        results["nfc_tap_7byte_emulated_ms_ours"] = _emulated_ms(clock, ours.poll)
        results["nfc_tap_4byte_ms_here_ours"] = _median_ms(ours.poll, setup=place(chip, classic))
        results["nfc_tap_7byte_ms_here_ours"] = _median_ms(ours.poll, setup=place(chip, ntag))
        place(stock_chip, ntag)()
        stock_number = stock.read_id_no_block()
        results["nfc_7byte_uid_stock_reads"] = f"{stock_number:010X} (cascade tag 88, 3 UID bytes, BCC)"
        place(chip, ntag)()
        uid = ours.poll()
        results["nfc_7byte_uid_ours_reads"] = uid.hex().upper() if uid else "nothing"
        ours.close()
        stock.READER.spi.close()
    return results


def _four_readers(spi: Any, **driver: Any) -> tuple[list[Any], list[Any], Any]:
    """Four emulated RC522s on SPI0 CE0/CE1 and SPI1 CE0/CE1, opened with the real driver."""
    from hardware.emulator import FakeGpio, Mfrc522Chip, emulated_pi
    from hardware.nfc import Mfrc522Reader

    chips = []
    gpio = FakeGpio()
    for bus, device in _BUSES:
        chip = Mfrc522Chip()
        spi.attach(bus, device, chip)
        gpio.wire(25, chip.set_reset_level)
        chips.append(chip)
    context = emulated_pi(spi, gpio)
    context.__enter__()
    readers = [
        Mfrc522Reader(bus=bus, device=device, name=f"NFC reader {index}", **driver)
        for index, (bus, device) in enumerate(_BUSES)
    ]
    return chips, readers, context


def bench_latency(step_s: float = 0.001) -> Results:
    """Worst-case time from a card put on one of four readers to its tap event, on the emulated clock.

    Every reader in turn gets a card at every ``step_s`` of a polling round; the hub runs rounds
    (each reader polled once, then the hub's pause) until the tap comes out.
    """
    from hardware.emulator import EmulatedCard, FakeSpiBus
    from hardware.taps import POLL_INTERVAL_S, TagReaderHub

    spi = FakeSpiBus()
    clock = spi.clock
    chips, readers, context = _four_readers(spi)
    try:
        hub = TagReaderHub(readers, clock=clock.monotonic, idle=clock.sleep, interval_s=POLL_INTERVAL_S)

        def one_round() -> list[Any]:
            taps = hub.poll_once()
            hub.pause()
            return taps

        for _ in range(3):
            one_round()
        start = clock.monotonic()
        one_round()
        round_s = clock.monotonic() - start
        worst = 0.0
        serial = 0
        for chip in chips:
            offset = 0.0
            while offset < round_s:
                serial += 1
                # A 7-byte NTAG: the longest read (two cascade levels).
                card = EmulatedCard.ntag(bytes([0x04, 0xC0, 0, 0, 0, serial >> 8 & 0xFF, serial & 0xFF]))
                placed = clock.monotonic() + offset
                chip.place_at(card, placed)
                taps: list[Any] = []
                while not taps:
                    taps = one_round()
                worst = max(worst, taps[0].at - placed)
                chip.remove()
                clock.sleep(hub.remove_after_s + 0.1)
                one_round()
                one_round()
                offset += step_s
        hub.close()
    finally:
        context.__exit__(None, None, None)
    return {
        "nfc_round_4_readers_emulated_ms": round(round_s * 1000, 2),
        "nfc_worst_tap_latency_4_readers_emulated_ms": round(worst * 1000, 2),
    }


def bench_poll_cpu_here(seconds: float = 2.0) -> float:
    """The driver's own CPU while the hub polls four empty emulated readers in real time on this machine,
    in percent of one core: the polling thread's CPU time less what the emulated chips took
    (:class:`~hardware.emulator.clock.MeteredClock`)."""
    from hardware.emulator import FakeSpiBus
    from hardware.emulator.clock import MeteredClock
    from hardware.taps import TagReaderHub

    clock = MeteredClock()
    spi = FakeSpiBus(clock=clock)
    _, readers, context = _four_readers(spi)
    try:
        hub = TagReaderHub(readers)
        hub.start()
        threading.Event().wait(0.2)
        thread = hub._thread
        assert thread is not None and thread.ident is not None
        cpu_clock = time.pthread_getcpuclockid(thread.ident)
        cpu, emulator, wall = time.clock_gettime(cpu_clock), clock.emulator_s, time.perf_counter()
        threading.Event().wait(seconds)
        used = time.clock_gettime(cpu_clock) - cpu - (clock.emulator_s - emulator)
        elapsed = time.perf_counter() - wall
        hub.close()
    finally:
        context.__exit__(None, None, None)
    return round(used / elapsed * 100, 1)


def bench_poll_cpu_pi(costs: PiCosts, seconds: float = 2.0, *, idle: bool = False) -> float:
    """The polling CPU of four empty readers on the Pi model ``costs``, in percent of one core: the
    driver's Python at the Pi's speed and the kernel's CPU for its transfers and sleeps, over the
    emulated time the rounds took (the polling thread's rounds, run in this thread on a
    :class:`~hardware.emulator.clock.PiClock`). ``idle``: after nobody has touched the table for
    :data:`hardware.taps.IDLE_AFTER_S`."""
    from hardware.factory import ReaderConfig, TableConfig, open_table

    readers = tuple(ReaderConfig(bus, device) for bus, device in _BUSES)
    with open_table(TableConfig(mode="emulated", readers=readers), pi_costs=costs) as table:
        assert table.emulation is not None
        clock = table.emulation.clock
        hub = table.hub
        if idle:
            hub.idle_since(clock.monotonic() - hub.idle_after_s)
        for _ in range(20):
            hub.poll_once()
            hub.pause()
        cpu: float = clock.cpu_s
        start: float = clock.monotonic()
        while clock.monotonic() - start < seconds:
            hub.poll_once()
            hub.pause()
        used: float = clock.cpu_s - cpu
        elapsed: float = clock.monotonic() - start
        return round(used / elapsed * 100, 1)


def _i2c_wire_ms(transactions: list[Any], clock_hz: int) -> float:
    # Per transaction: start, address byte, payload bytes, stop; each byte is 8 bits + ACK.
    bits = sum(2 + 9 * (1 + len(transaction.payload)) for transaction in transactions)
    return round(bits / clock_hz * 1000, 2)


def bench_oled() -> Results:
    """Bytes on the I²C bus per full frame, and the wire time at 100 and 400 kHz, for both chips."""
    from hardware.display import ScreenView, render_view
    from hardware.emulator import FakeI2cBus, OledPanel, managed_smbus2
    from hardware.oled import Oled

    results: Results = {}
    image = render_view(ScreenView(title="Боб → Анна", lines=("Боб платит Анне",), amount="550 тыс.", footer="OK"))
    for chip in ("ssd1306", "sh1106"):
        bus = FakeI2cBus({0x3C: OledPanel(chip)})
        with managed_smbus2(bus):
            oled = Oled(chip=chip)
        start = len(bus.transactions)
        oled.show_image(image)
        frame = bus.transactions[start:]
        results[f"oled_{chip}_frame_bytes"] = sum(1 + len(transaction.payload) for transaction in frame)
        results[f"oled_{chip}_frame_transactions"] = len(frame)
        results[f"oled_{chip}_frame_ms_at_100khz"] = _i2c_wire_ms(frame, 100_000)
        results[f"oled_{chip}_frame_ms_at_400khz"] = _i2c_wire_ms(frame, 400_000)
        results[f"oled_{chip}_driver_pack_ms"] = _median_ms(lambda: oled.show_image(image))  # noqa: B023
        oled.close()
    return results


def bench_tap_to_frame() -> Results:
    """Software time from a tap on an emulated reader to a frame handed to the SH1106 driver."""
    from hardware.display import ScreenView, render_view
    from hardware.emulator import EmulatedCard
    from hardware.factory import TableConfig, open_table

    samples_handoff = []
    samples_total = []
    card = EmulatedCard.ntag("046E51C2B33480")
    with open_table(TableConfig(mode="emulated")) as table:
        assert table.emulation is not None
        chip = table.emulation.chips[1]
        display: Any = table.display
        for _ in range(_RUNS):
            chip.remove()
            chip.clock.sleep(table.hub.remove_after_s + table.hub.cooldown_s)
            table.hub.poll_once()
            table.hub.poll_once()  # the card counts as taken away
            chip.place(card)
            start = time.perf_counter()
            (tap,) = table.hub.poll_once()
            image = render_view(ScreenView(title="Боб", lines=(f"Карта {tap.uid_text}",), amount="1 500", footer="OK"))
            handed_over = time.perf_counter()
            display.show_image(image)
            done = time.perf_counter()
            samples_handoff.append(handed_over - start)
            samples_total.append(done - start)
    return {
        "tap_to_frame_handoff_ms": round(statistics.median(samples_handoff) * 1000, 3),
        "tap_to_frame_including_driver_ms": round(statistics.median(samples_total) * 1000, 3),
        "tap_to_frame_worst_ms": round(max(samples_total) * 1000, 3),
    }


def run_bench() -> dict[str, float | int | str]:
    """Run every measurement; values are numbers, or a string saying why a part was skipped."""
    results: Results = {}
    with warnings.catch_warnings():
        # luma.oled 3.16 calls Image.getdata(), deprecated since Pillow 12 (luma.oled#404).
        warnings.filterwarnings("ignore", message="Image.Image.getdata is deprecated", category=DeprecationWarning)
        try:
            results.update(bench_nfc())
            results.update(bench_latency())
            results["nfc_poll_cpu_4_readers_here_percent"] = bench_poll_cpu_here()
            results.update(bench_tap_to_frame())
        except ModuleNotFoundError as error:
            results["nfc"] = f"skipped: {error} (pip install --no-deps mfrc522==0.0.7)"
        results.update(bench_oled())
    return results


def format_bench(results: dict[str, float | int | str]) -> str:
    """The results as aligned ``name  value`` lines."""
    width = max(len(name) for name in results)
    return "\n".join(f"{name.ljust(width)}  {value}" for name, value in results.items())


def main() -> None:
    print(format_bench(run_bench()))


if __name__ == "__main__":
    main()
