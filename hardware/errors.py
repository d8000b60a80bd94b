"""Errors raised when a physical part of the table is missing, miswired or misconfigured.

Every error names the device, the bus it sits on and the most likely fix, because the person reading
it is standing next to a Raspberry Pi with a screwdriver, not a debugger.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Phrase:
    """A piece of a hardware error's text that is a text of its own: the catalogue's ``table_hw_`` + key,
    filled in with ``values``; :attr:`english` is how it reads in English (hardware/ knows no catalogue)."""

    key: str
    english: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.english


class HardwareError(RuntimeError):
    """A device of the table could not be opened or stopped answering.

    The message reads ``"<device> on <bus>: <problem>. Fix: <fix>"``.
    """

    def __init__(self, device: str, bus: str, problem: str, fix: str, *, lasting: bool = False, key: str = "",
                 fix_key: str = "", values: dict[str, Any] | None = None, part: str = "", number: int = 0) -> None:
        self.key = key
        """The catalogue's key of ``problem`` (``table_hw_`` + key), for people who read another language;
        empty when the problem has none (it is shown in English)."""
        self.fix_key = fix_key
        """The catalogue's key of ``fix`` (``table_hw_`` + fix_key)."""
        self.values = dict(values or {})
        """What fills both texts in; a value that is a :class:`Phrase` is a text of its own, translated too."""
        self.part = part
        """What failed, as the catalogue names it (``table_hw_part_`` + part): ``reader``, ``display``,
        ``controls``, ``speaker``; empty: the ``device`` text as it is."""
        self.number = number
        """The reader's number (from 0) for a ``reader``."""
        self.device = device
        """What failed, e.g. ``"NFC reader 0 (MFRC522)"``."""
        self.bus = bus
        """Where it was looked for, e.g. ``"SPI0 CE0 (/dev/spidev0.0)"``."""
        self.problem = problem
        """What went wrong, in words."""
        self.fix = fix
        """The most likely fix, as a command or a wiring hint."""
        self.lasting = lasting
        """The machine is not set up for the part (its software missing, its bus not enabled, no
        permission): nothing changes until someone fixes it and starts the program again, so the table
        does not start. Otherwise the part itself does not answer (a loose wire, no power), which can
        change at any moment: the table starts without it and tries it again."""
        super().__init__(f"{device} on {bus}: {problem}. Fix: {fix}")


class NfcReaderError(HardwareError):
    """An MFRC522 reader (or the mfrc522/RPi.GPIO/spidev software under it) is unusable."""


class DisplayError(HardwareError):
    """The OLED (or the I²C bus it sits on) is unusable."""


class ControlsError(HardwareError):
    """Buttons, the rotary encoder, the buzzer or the LEDs cannot be set up."""
