"""Fixtures for the hardware tests: emulated MFRC522 readers and gpiozero's MockFactory."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.emulator import EmulatedPi, FakeGpio, FakeSpiBus, Mfrc522Chip, emulated_pi


@dataclass
class Readers:
    """Two emulated RC522 boards on SPI0 CE0 and CE1, with the real mfrc522 imported against them."""

    pi: EmulatedPi
    spi: FakeSpiBus
    ce0: Mfrc522Chip
    ce1: Mfrc522Chip


@pytest.fixture
def readers() -> Iterator[Readers]:
    if importlib.util.find_spec("mfrc522") is None:
        pytest.skip("the stock driver is needed: pip install --no-deps mfrc522==0.0.7")
    spi = FakeSpiBus()
    ce0, ce1 = Mfrc522Chip(), Mfrc522Chip()
    spi.attach(0, 0, ce0)
    spi.attach(0, 1, ce1)
    gpio = FakeGpio()
    gpio.wire(25, ce0.set_reset_level)  # both boards' RST on GPIO25, as in the wiring diagram
    gpio.wire(25, ce1.set_reset_level)
    with emulated_pi(spi, gpio) as pi:
        yield Readers(pi, spi, ce0, ce1)


@pytest.fixture
def pin_factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()
