"""hardware.bench: the figures are computed from bus-level counts; no timing is asserted."""

from __future__ import annotations

from hardware.bench import format_bench, run_bench


def test_bench_reports_bus_level_counts() -> None:
    results = run_bench()
    assert results["nfc_empty_poll_spi_transfers_stock"] == 2013
    assert results["nfc_empty_poll_spi_transfers_ours"] == 12
    assert results["nfc_tap_4byte_spi_transfers_stock"] == 42
    assert results["nfc_7byte_uid_stock_reads"].startswith("88046E51B3")  # type: ignore[union-attr]
    assert results["nfc_7byte_uid_ours_reads"] == "046E51C2B33480"
    # Address byte + control byte + 6 commands, then address + control + 1024 pixel bytes.
    assert results["oled_ssd1306_frame_bytes"] == (1 + 1 + 6) + (1 + 1 + 1024)
    assert results["oled_sh1106_frame_bytes"] == 8 * (1 + 1 + 3) + 8 * (1 + 1 + 128)
    bits = 2 * 2 + 9 * 1034  # start/stop per transaction, 9 clocks per byte
    assert results["oled_ssd1306_frame_ms_at_100khz"] == round(bits / 100_000 * 1000, 2)
    assert results["oled_ssd1306_frame_ms_at_400khz"] == round(bits / 400_000 * 1000, 2)
    for name in ("tap_to_frame_handoff_ms", "tap_to_frame_including_driver_ms", "nfc_empty_poll_ms_ours"):
        assert isinstance(results[name], float)
        assert results[name] > 0  # type: ignore[operator]


def test_bench_prints_one_line_per_figure() -> None:
    text = format_bench({"a": 1, "longer_name": 2.5})
    assert text.splitlines() == ["a            1", "longer_name  2.5"]
