"""Run the real ``mfrc522`` package on a machine without a Raspberry Pi.

:func:`emulated_pi` puts a fake ``spidev`` and a fake ``RPi.GPIO`` into ``sys.modules``, imports
``mfrc522`` fresh so that its module globals bind to the fakes, and puts everything back on exit.
Nothing of the library is patched: the code that runs is the code a Pi would run.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from hardware.emulator.fake_gpio import FakeGpio
from hardware.emulator.fake_spidev import FakeSpiBus

_FAKED = ("spidev", "RPi", "RPi.GPIO")


@dataclass
class EmulatedPi:
    """What :func:`emulated_pi` yields: the fakes, and the freshly imported library."""

    spi: FakeSpiBus
    gpio: FakeGpio
    mfrc522_module: types.ModuleType
    """``mfrc522.MFRC522`` the *module*. (``mfrc522.MFRC522`` as an attribute is the class: the
    package's ``__init__`` binds the class over the submodule's name.)"""
    simple_module: types.ModuleType
    """``mfrc522.SimpleMFRC522`` the module."""

    @property
    def MFRC522(self) -> Any:  # noqa: N802 - the library's own name
        """The library's ``MFRC522`` class (untyped, like the library)."""
        return self.mfrc522_module.MFRC522

    @property
    def SimpleMFRC522(self) -> Any:  # noqa: N802 - the library's own name
        """The library's ``SimpleMFRC522`` class."""
        return self.simple_module.SimpleMFRC522


def _is_mfrc522(name: str) -> bool:
    return name == "mfrc522" or name.startswith("mfrc522.")


@contextmanager
def emulated_pi(spi: FakeSpiBus | None = None, gpio: FakeGpio | None = None) -> Iterator[EmulatedPi]:
    """Import the real ``mfrc522`` against fake ``spidev``/``RPi.GPIO``; undo it all on exit.

    Raises:
        ModuleNotFoundError: the ``mfrc522`` package is not installed
            (``pip install --no-deps mfrc522==0.0.7``).
    """
    spi = spi if spi is not None else FakeSpiBus()
    gpio = gpio if gpio is not None else FakeGpio()
    saved = {name: module for name, module in sys.modules.items() if name in _FAKED or _is_mfrc522(name)}
    for name in saved:
        del sys.modules[name]
    rpi = types.ModuleType("RPi", "Fake RPi package (hardware.emulator).")
    rpi.__path__ = []
    gpio_module = gpio.module()
    rpi.GPIO = gpio_module  # type: ignore[attr-defined]
    sys.modules["RPi"] = rpi
    sys.modules["RPi.GPIO"] = gpio_module
    sys.modules["spidev"] = spi.module()
    try:
        importlib.import_module("mfrc522")
        yield EmulatedPi(
            spi=spi,
            gpio=gpio,
            mfrc522_module=sys.modules["mfrc522.MFRC522"],
            simple_module=sys.modules["mfrc522.SimpleMFRC522"],
        )
    finally:
        for name in [name for name in sys.modules if name in _FAKED or _is_mfrc522(name)]:
            del sys.modules[name]
        sys.modules.update(saved)
