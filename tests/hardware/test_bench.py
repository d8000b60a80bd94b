"""hardware.bench: bus-level counts, the emulated clock's figures, and idle CPU with four readers."""

from __future__ import annotations

from hardware.bench import bench_latency, bench_nfc, bench_oled, bench_poll_cpu_here, bench_poll_cpu_pi, format_bench
from hardware.pimodel import ZERO_2_W


def test_nfc_figures_from_bus_counts_and_the_emulated_clock() -> None:
    results = bench_nfc()
    assert results["nfc_empty_poll_spi_transfers_stock"] == 2013
    # One SPI message: seven register writes, the kernel's wait, one chained read.
    assert results["nfc_empty_poll_spi_transfers_ours"] == 8
    # The library's 15.5 ms timer, and the stock loop's 2000 reads at 1 MHz: tens of milliseconds.
    assert results["nfc_empty_poll_emulated_ms_stock"] > 15.5  # type: ignore[operator]
    # The driver's 0.3 ms timeout, the WUPA on the air, the system call and the bits at 4 MHz.
    assert 0.3 < results["nfc_empty_poll_emulated_ms_ours"] < 1.0  # type: ignore[operator]
    assert results["nfc_tap_7byte_emulated_ms_ours"] < 6  # type: ignore[operator]
    assert results["nfc_7byte_uid_stock_reads"].startswith("88046E51B3")  # type: ignore[union-attr]
    assert results["nfc_7byte_uid_ours_reads"] == "046E51C2B33480"


def test_worst_case_tap_latency_with_four_readers_is_a_round_and_a_read() -> None:
    results = bench_latency(step_s=0.004)
    # A round starts every 5 ms (POLL_INTERVAL_S); a 7-byte UID takes about 4 ms more to read.
    assert results["nfc_round_4_readers_emulated_ms"] <= 5  # type: ignore[operator]
    assert results["nfc_worst_tap_latency_4_readers_emulated_ms"] < 10  # type: ignore[operator]


def test_the_polling_cpu_is_measured_here_and_on_the_pi_model_and_drops_when_nobody_touches_the_table() -> None:
    assert 0 < bench_poll_cpu_here(0.3) < 100
    full = bench_poll_cpu_pi(ZERO_2_W, 0.2)
    idle = bench_poll_cpu_pi(ZERO_2_W, 0.5, idle=True)
    # The emulated time is the Pi model's, the CPU per round this machine's times the factor: a share, not a
    # timing (asserted only against each other).
    assert 0 < idle * 4 < full


def test_oled_frame_sizes() -> None:
    results = bench_oled()
    # Address byte + control byte + 6 commands, then address + control + 1024 pixel bytes.
    assert results["oled_ssd1306_frame_bytes"] == (1 + 1 + 6) + (1 + 1 + 1024)
    assert results["oled_sh1106_frame_bytes"] == 8 * (1 + 1 + 3) + 8 * (1 + 1 + 128)
    bits = 2 * 2 + 9 * 1034  # start/stop per transaction, 9 clocks per byte
    assert results["oled_ssd1306_frame_ms_at_100khz"] == round(bits / 100_000 * 1000, 2)
    assert results["oled_ssd1306_frame_ms_at_400khz"] == round(bits / 400_000 * 1000, 2)


def test_bench_prints_one_line_per_figure() -> None:
    text = format_bench({"a": 1, "longer_name": 2.5})
    assert text.splitlines() == ["a            1", "longer_name  2.5"]
