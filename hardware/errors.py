"""Errors raised when a physical part of the table is missing, miswired or misconfigured.

Every error names the device, the bus it sits on and the most likely fix, because the person reading
it is standing next to a Raspberry Pi with a screwdriver, not a debugger.
"""

from __future__ import annotations


class HardwareError(RuntimeError):
    """A device of the table could not be opened or stopped answering.

    The message reads ``"<device> on <bus>: <problem>. Fix: <fix>"``.
    """

    def __init__(self, device: str, bus: str, problem: str, fix: str, *, lasting: bool = False) -> None:
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
