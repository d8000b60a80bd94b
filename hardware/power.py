"""The Pi's own record of its power supply: the firmware's throttled flags.

The firmware sets a bit while the supply is under 4.63 V (under-voltage), while it caps the CPU's clock
or throttles it, and keeps a second bit for each that says it happened since boot ("get_throttled",
Raspberry Pi documentation, vcgencmd). Linux gives them in sysfs, as vcgencmd prints them; four RC522
readers on the Pi's 3.3 V rail are the first suspects when readers reset, and a supply that sags says
so here. ``banker check`` reads them; ``banker run`` tells the phones while the supply is too weak.
"""

from __future__ import annotations

THROTTLED = "/sys/devices/platform/soc/soc:firmware/get_throttled"
"""Where Raspberry Pi OS's kernel gives the flags (the firmware's ``get_throttled``), in hexadecimal."""
UNDER_VOLTAGE_NOW = 0x1
CAPPED_NOW = 0x2
THROTTLED_NOW = 0x4
SOFT_TEMPERATURE_NOW = 0x8
UNDER_VOLTAGE_SINCE_BOOT = 0x10000
THROTTLED_ANY = 0xE000E
"""Capped, throttled or at the soft temperature limit, now or since boot."""


def read_throttled(path: str = THROTTLED) -> int | None:
    """The throttled flags, or ``None`` off a Pi (no such file) or when they cannot be read."""
    try:
        with open(path, encoding="ascii") as text:
            value = text.read().strip()
    except OSError:
        return None
    value = value.removeprefix("throttled=")
    try:
        return int(value, 16)
    except ValueError:
        return None
