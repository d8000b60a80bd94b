"""hardware.bench: bus-level counts, the emulated clock's figures, and idle CPU with four readers."""

from __future__ import annotations

from hardware.bench import bench_idle_cpu, bench_latency, bench_nfc, bench_oled, format_bench


def test_nfc_figures_from_bus_counts_and_the_emulated_clock() -> None:
    results = bench_nfc()
    assert results["nfc_empty_poll_spi_transfers_stock"] == 2013
    assert results["nfc_empty_poll_spi_transfers_ours"] <= 17  # type: ignore[operator]
    # The library's 15.5 ms timer, and the stock loop's 2000 reads at 1 MHz: tens of milliseconds.
    assert results["nfc_empty_poll_emulated_ms_stock"] > 15.5  # type: ignore[operator]
    # The driver's 1 ms timeout, the SPI transfers and the looks at the flags every 0.25 ms.
    assert 1.0 < results["nfc_empty_poll_emulated_ms_ours"] < 2.0  # type: ignore[operator]
    assert results["nfc_tap_7byte_emulated_ms_ours"] < 15  # type: ignore[operator]
    assert results["nfc_7byte_uid_stock_reads"].startswith("88046E51B3")  # type: ignore[union-attr]
    assert results["nfc_7byte_uid_ours_reads"] == "046E51C2B33480"


def test_worst_case_tap_latency_with_four_readers_is_under_60_ms() -> None:
    results = bench_latency(step_s=0.004)
    assert results["nfc_worst_tap_latency_4_readers_emulated_ms"] < 60  # type: ignore[operator]
    assert results["nfc_round_4_readers_emulated_ms"] < 35  # type: ignore[operator]


def test_idle_polling_of_four_readers_sleeps_instead_of_spinning() -> None:
    before = bench_idle_cpu(0.4, old_way=True)
    after = bench_idle_cpu(0.4)
    # The old way spun on the flags with a 15.5 ms timer every 10 ms; this one sleeps between looks, with
    # a round of ≈10 ms (four 1 ms timeouts and a 4 ms pause).
    assert after * 2 < before


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
