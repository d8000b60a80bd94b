"""A stand-in for ``RPi.GPIO`` that records the numbering mode and every pin level.

The mfrc522 package imports ``RPi.GPIO`` at import time and uses it only for the reset pin, so this
fake is all the GPIO it needs. It keeps RPi.GPIO's rules that matter here: ``setmode`` with a
different mode raises ``ValueError``, ``setup`` before ``setmode`` raises ``RuntimeError``.
(Buttons and the buzzer are tested with gpiozero's own ``MockFactory``, not with this.)
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field

BOARD = 10
BCM = 11
OUT = 0
IN = 1
HIGH = 1
LOW = 0
PUD_OFF = 20
PUD_DOWN = 21
PUD_UP = 22


@dataclass
class FakeGpio:
    """The state behind one fake ``RPi.GPIO`` module."""

    mode: int | None = None
    directions: dict[int, int] = field(default_factory=dict)
    levels: dict[int, int] = field(default_factory=dict)
    history: list[tuple[str, int, int]] = field(default_factory=list)
    """``("setup"|"output", pin, value)`` in call order."""
    cleanups: int = 0
    setup_error: Exception | None = None
    """Raised by ``setup``: e.g. the ``RuntimeError`` RPi.GPIO gives on a Raspberry Pi 5."""
    wired: dict[int, list[Callable[[int], None]]] = field(default_factory=dict)
    """What each output pin drives, e.g. ``{25: [chip.set_reset_level]}``: called with every level."""

    def wire(self, pin: int, sink: Callable[[int], None]) -> None:
        """Connect ``sink`` (e.g. an emulated chip's RST input) to a pin's output level."""
        self.wired.setdefault(pin, []).append(sink)

    def getmode(self) -> int | None:
        return self.mode

    def setmode(self, mode: int) -> None:
        if mode not in (BOARD, BCM):
            raise ValueError("An invalid mode was passed to setmode()")
        if self.mode is not None and self.mode != mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, channel: int, direction: int, pull_up_down: int = PUD_OFF, initial: int = -1) -> None:
        if self.setup_error is not None:
            raise self.setup_error
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")
        self.directions[channel] = direction
        self.history.append(("setup", channel, direction))
        if initial in (LOW, HIGH):
            self.output(channel, initial)

    def output(self, channel: int, value: int) -> None:
        if self.directions.get(channel) != OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.levels[channel] = 1 if value else 0
        self.history.append(("output", channel, self.levels[channel]))
        for sink in self.wired.get(channel, []):
            sink(self.levels[channel])

    def input(self, channel: int) -> int:
        return self.levels.get(channel, 0)

    def cleanup(self, channel: int | list[int] | tuple[int, ...] | None = None) -> None:
        """All channels, one, or a list of them (as RPi.GPIO takes: luma's SPI interface passes its D/C and RES)."""
        self.cleanups += 1
        if channel is None:
            self.directions.clear()
            self.levels.clear()
            self.mode = None
            return
        for each in (channel,) if isinstance(channel, int) else channel:
            self.directions.pop(each, None)
            self.levels.pop(each, None)

    def module(self) -> types.ModuleType:
        """A module object that can stand in for ``RPi.GPIO`` in ``sys.modules``."""
        module = types.ModuleType("RPi.GPIO", "Fake RPi.GPIO (hardware.emulator).")
        constants = {
            "BOARD": BOARD,
            "BCM": BCM,
            "OUT": OUT,
            "IN": IN,
            "HIGH": HIGH,
            "LOW": LOW,
            "PUD_OFF": PUD_OFF,
            "PUD_DOWN": PUD_DOWN,
            "PUD_UP": PUD_UP,
            "VERSION": "0.7.1 (fake)",
            "RPI_INFO": {"P1_REVISION": 3, "TYPE": "emulated"},
        }
        for name, value in constants.items():
            setattr(module, name, value)
        for name in ("getmode", "setmode", "setwarnings", "setup", "output", "input", "cleanup"):
            setattr(module, name, getattr(self, name))
        return module
