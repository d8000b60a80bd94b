"""The Pi model of ``banker bench --table``: its costs, the clock that charges the program's CPU, the SPI
message packing for the kernel, the panel's scan, and ``banker bench --calibrate`` off a Pi."""

from __future__ import annotations

import argparse
import struct
import time

import pytest

from hardware.calibrate import calibrate, cpu_workload
from hardware.emulator.clock import PiClock
from hardware.emulator.oled_panel import glass_time, scan_time
from hardware.nfc import SPI_IOC_MESSAGE, SpiMessage
from hardware.pimodel import LAPTOP, ZERO_2_W, ssd1306_frame_s


def test_the_ssd1306_frame_period_is_the_datasheet_formula_at_lumas_settings() -> None:
    # 370 kHz / (1 × (1 + 15 + 50) × 64) = 87.6 Hz.
    assert ssd1306_frame_s() == pytest.approx(1 / 87.59, rel=1e-3)
    assert ZERO_2_W.panel_scan_s == ssd1306_frame_s()
    assert ssd1306_frame_s(phase1=2, phase2=2) < ssd1306_frame_s()  # the reset value's K = 54


def test_costs_are_replaced_by_name_and_refused_when_negative() -> None:
    costs = ZERO_2_W.with_options(spi_message_s=40e-6, cpu_factor=None)
    assert costs.spi_message_s == 40e-6 and costs.cpu_factor == ZERO_2_W.cpu_factor
    with pytest.raises(ValueError, match="cpu_factor must be positive"):
        ZERO_2_W.with_options(cpu_factor=0)
    with pytest.raises(ValueError, match="unknown Pi costs"):
        ZERO_2_W.with_options(gpu=1.0)
    assert "CPU ×10" in ZERO_2_W.describe() and LAPTOP.panel_scan_s == 0


def test_the_pi_clock_charges_the_programs_cpu_but_not_the_emulators() -> None:
    clock = PiClock(cpu_factor=10.0, sleep_overshoot_s=70e-6)
    start = clock.now

    def spin(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    spin(0.002)
    clock.charge()
    charged = clock.now - start
    assert 0.018 < charged < 0.04  # 2 ms here, ten times over
    with clock.excluded():
        spin(0.002)
    assert clock.monotonic() - start - charged < 0.002  # the emulator's work is not the program's
    clock.charge()
    before = clock.now
    clock.sleep(0.001)
    assert 0.001 + 70e-6 <= clock.now - before < 0.001 + 70e-6 + 0.0005  # asked for, late, and a call's CPU


def test_an_spi_message_is_one_spi_ioc_message_with_a_chip_select_frame_per_transfer() -> None:
    assert SPI_IOC_MESSAGE(1) == 0x40206B00  # linux/spi/spidev.h, as the C macro gives it
    assert SPI_IOC_MESSAGE(8) == 0x41006B00
    message = SpiMessage([[0x02, 0x00], [0xEE, 0x00]], [0, 350], speed_hz=4_000_000)
    packed = bytes(message._packed)
    assert len(packed) == 2 * 32
    first = struct.unpack("=QQIIHBBBBBB", packed[:32])
    second = struct.unpack("=QQIIHBBBBBB", packed[32:])
    assert first[2:7] == (2, 4_000_000, 0, 8, 1)  # len, speed, delay, bits, cs_change: deselect before the next
    assert second[2:7] == (2, 4_000_000, 350, 8, 0)  # the last leaves the chip select as the kernel ends it


def test_the_panel_shows_a_byte_when_its_scan_next_drives_the_row() -> None:
    period = 0.0114
    assert scan_time(0, 0.0, period, 0.0) == 0.0
    assert scan_time(32, 0.0, period, 0.0) == pytest.approx(period / 2)
    assert scan_time(0, 0.001, period, 0.0) == pytest.approx(period)  # just missed: a whole pass later
    written = [(0.001, 0, 0, 127), (0.002, 7, 10, 20)]
    assert glass_time(written, range(56, 64), period, 0.0) == pytest.approx(63 / 64 * period)
    assert glass_time(written, range(56, 64), period, 0.0, columns=(30, 40)) == 0.0  # nothing written there
    assert glass_time(written, range(8), 0.0, 0.0) == 0.001  # no scan modelled: seen as it arrives


def test_calibrate_off_a_pi_says_what_it_skipped_and_measures_the_rest() -> None:
    figures = calibrate()
    assert "skipped" in str(figures.get("spi", "")) or "spi_message_us" in figures
    assert figures["sleep_overshoot_us"] >= 0 and figures["cpu_workload_ms"] > 0
    assert figures["bench_options"].startswith("banker bench --table --pi-workload-ms ")
    assert cpu_workload() > 0


def test_the_bench_takes_the_costs_calibrate_prints() -> None:
    from firmware.bench import pi_costs

    args = argparse.Namespace(spi_message_us=45.0, spi_segment_us=None, sleep_overshoot_us=30.0, sleep_cpu_us=None,
                              i2c_transaction_us=None, cpu_factor=None, pi_workload_ms=cpu_workload() * 8000,
                              panel_scan_ms=None)
    costs = pi_costs(args)
    assert costs.spi_message_s == pytest.approx(45e-6) and costs.sleep_overshoot_s == pytest.approx(30e-6)
    assert 1 < costs.cpu_factor < 100  # the Pi's workload over this machine's: about 8, as its load allows
