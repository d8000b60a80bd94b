"""The hardware's errors in the table's language: what failed, what is wrong and the fix, from the
catalogue (``table_check_hw_…``; hardware/ knows no catalogue, so each :class:`~hardware.errors.HardwareError`
carries its texts' keys and values, and its English as it is)."""

from __future__ import annotations

from collections.abc import Mapping

from banker.messages import TABLES, render
from firmware.texts import PREFIX
from hardware.errors import HardwareError, Phrase

KEY = PREFIX + "check_hw_"


def _text(key: str, values: Mapping[str, object], english: str, language: str) -> str:
    if not key or KEY + key not in TABLES["en"]:
        return english
    filled = {name: phrase(value, language) if isinstance(value, Phrase) else value for name, value in values.items()}
    return render(KEY + key, filled, language)


def phrase(value: Phrase, language: str) -> str:
    """A piece of an error's text in ``language``."""
    return _text(value.key, value.values, value.english, language)


def problem(error: HardwareError, language: str) -> str:
    """What is wrong, in ``language`` (English when the error has no key)."""
    return _text(error.key, error.values, error.problem, language)


def fix(error: HardwareError, language: str) -> str:
    """The fix, in ``language``."""
    return _text(error.fix_key, error.values, error.fix, language)


def part(error: HardwareError, language: str) -> str:
    """What failed, in ``language``: "NFC reader on SPI0 CE1", "OLED display"…"""
    if not error.part:
        return error.device
    return render(KEY + "part_" + error.part, {"bus": error.bus.split(" (")[0]}, language)


def headline(error: HardwareError, language: str) -> str:
    """The one line the display shows while the table cannot start: what failed and what is wrong."""
    return f"{part(error, language)}: {problem(error, language)}"


def message(error: HardwareError, language: str) -> str:
    """The whole message as ``str(error)`` reads in English: the part, the bus, the problem and the fix."""
    if language == "en" or not error.key:
        return str(error)
    remedy = fix(error, language)
    return f"{part(error, language)} ({error.bus}): {problem(error, language)}. {remedy[:1].upper()}{remedy[1:]}"
