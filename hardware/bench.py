"""Measurements of the hardware layer, taken on the emulated hardware of this machine.

``python -m hardware.bench`` prints them; ``banker bench`` calls :func:`run_bench`.

What is measured, and what it means for a Raspberry Pi:

- **SPI transfers per poll**, stock ``mfrc522`` vs this driver. This count is exact and the same on
  a Pi, where each transfer is a system call; it is what made the stock empty poll last about a
  second. Wall times here are the Python cost of the code plus the emulator on this machine;
  on a Pi the chip's own timeout (≈15 ms with the library's timer settings) is added to every
  empty poll.
- **Bytes per full OLED frame** on the managed smbus2 bus the Pi uses, and the wire time they take
  at 100 kHz and 400 kHz (9 clocks per byte plus start and stop per transaction).
- **Tap to frame**: from the start of a polling round that finds a card on the second of two
  readers, through the tap event and rendering, to the frame handed to the real SH1106 driver and
  packed by it. The radio, the SPI clock and the I²C wire are not included.
"""

from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

Results = dict[str, float | int | str]

_RUNS = 30


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


def bench_nfc() -> Results:
    """SPI transfers and wall time of an empty poll and of a tap: stock mfrc522 vs this driver."""
    from hardware.emulator import EmulatedCard, FakeSpiBus, Mfrc522Chip, emulated_pi
    from hardware.nfc import Mfrc522Reader

    chip = Mfrc522Chip()
    spi = FakeSpiBus()
    spi.attach(0, 0, chip)
    results: Results = {}
    classic = EmulatedCard.classic("DEADBEEF")
    ntag = EmulatedCard.ntag("046E51C2B33480")
    with emulated_pi(spi) as pi:
        # Ours first: it sets BCM numbering, which the stock constructor then adopts.
        ours = Mfrc522Reader()
        stock = pi.SimpleMFRC522()

        def place(card: Any) -> Callable[[], None]:
            def put_on_reader() -> None:
                chip.remove()
                chip.place(card)

            return put_on_reader

        chip.remove()
        results["nfc_empty_poll_spi_transfers_stock"] = _transfers(chip, stock.read_id_no_block)
        results["nfc_empty_poll_spi_transfers_ours"] = _transfers(chip, ours.poll)
        results["nfc_empty_poll_ms_stock"] = _median_ms(stock.read_id_no_block, runs=10)
        results["nfc_empty_poll_ms_ours"] = _median_ms(ours.poll)

        place(classic)()
        results["nfc_tap_4byte_spi_transfers_stock"] = _transfers(chip, stock.read_id_no_block)
        place(classic)()
        results["nfc_tap_4byte_spi_transfers_ours"] = _transfers(chip, ours.poll)
        place(ntag)()
        results["nfc_tap_7byte_spi_transfers_stock"] = _transfers(chip, stock.read_id_no_block)
        place(ntag)()
        results["nfc_tap_7byte_spi_transfers_ours"] = _transfers(chip, ours.poll)
        results["nfc_tap_4byte_ms_stock"] = _median_ms(stock.read_id_no_block, setup=place(classic))
        results["nfc_tap_4byte_ms_ours"] = _median_ms(ours.poll, setup=place(classic))
        results["nfc_tap_7byte_ms_ours"] = _median_ms(ours.poll, setup=place(ntag))
        place(ntag)()
        stock_number = stock.read_id_no_block()
        results["nfc_7byte_uid_stock_reads"] = f"{stock_number:010X} (cascade tag 88, 3 UID bytes, BCC)"
        place(ntag)()
        uid = ours.poll()
        results["nfc_7byte_uid_ours_reads"] = uid.hex().upper() if uid else "nothing"
        ours.close()
    return results


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
            table.hub.poll_once()
            table.hub.poll_once()  # two misses: the card counts as taken away
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
