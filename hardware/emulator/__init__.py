"""Emulated hardware below the real driver libraries, for tests, benchmarks and the emulated table.

- :mod:`.clock`: the emulated time that SPI transfers, commands and sleeps take;
- :mod:`.mfrc522_chip`: an MFRC522 at register level, on that clock, and type A cards (4- and 7-byte UIDs);
- :mod:`.fake_spidev` / :mod:`.fake_gpio`: what ``mfrc522`` imports, routed to emulated chips;
- :mod:`.install`: :func:`emulated_pi`, which imports the real ``mfrc522`` against those fakes;
- :mod:`.oled_panel`: a fake I²C bus with SSD1306/SH1106 display RAM behind it, and the same RAM on SPI.
"""

from hardware.emulator.clock import Clock, RealClock, VirtualClock
from hardware.emulator.fake_gpio import FakeGpio
from hardware.emulator.fake_spidev import FakeSpiBus
from hardware.emulator.install import EmulatedPi, emulated_pi
from hardware.emulator.mfrc522_chip import EmulatedCard, Mfrc522Chip
from hardware.emulator.oled_panel import FakeI2cBus, OledPanel, SpiOledPanel, managed_smbus2

__all__ = [
    "Clock",
    "RealClock",
    "VirtualClock",
    "EmulatedCard",
    "EmulatedPi",
    "FakeGpio",
    "FakeI2cBus",
    "FakeSpiBus",
    "Mfrc522Chip",
    "OledPanel",
    "SpiOledPanel",
    "emulated_pi",
    "managed_smbus2",
]
