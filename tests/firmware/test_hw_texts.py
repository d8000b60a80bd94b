"""The hardware's errors in en, ru and bg: each error the drivers raise carries its catalogue keys, the
catalogue's English is the error's own English word for word, and the other languages have theirs."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from firmware import hwtexts
from hardware.emulator import FakeI2cBus, FakeSpiBus, Mfrc522Chip, OledPanel, emulated_pi, managed_smbus2
from hardware.errors import HardwareError
from hardware.nfc import Mfrc522Reader
from hardware.oled import Oled
from hardware.speaker import EspeakSpeaker, Utterance

CYRILLIC = re.compile("[а-яА-Я]")


def raised(action: Callable[[], object]) -> HardwareError:
    with pytest.raises(HardwareError) as caught:
        action()
    return caught.value


def no_spi_device() -> HardwareError:
    with emulated_pi(FakeSpiBus()):
        return raised(lambda: Mfrc522Reader(bus=1, device=0))


def spi_denied() -> HardwareError:
    spi = FakeSpiBus()
    spi.attach(0, 0, Mfrc522Chip())
    spi.denied.add((0, 0))
    with emulated_pi(spi):
        return raised(Mfrc522Reader)


def no_chip() -> HardwareError:
    spi = FakeSpiBus()
    spi.attach(0, 1, None)
    with emulated_pi(spi):
        return raised(lambda: Mfrc522Reader(device=1))


def stopped() -> HardwareError:
    spi = FakeSpiBus()
    chip = Mfrc522Chip()
    spi.attach(0, 0, chip)
    with emulated_pi(spi), Mfrc522Reader() as reader:
        chip.miso_stuck = 0x00

        def poll_until_faulty() -> None:
            for _ in range(5):
                reader.poll()

        return raised(poll_until_faulty)


def no_i2c_bus() -> HardwareError:
    with managed_smbus2(FakeI2cBus(), ports=()):
        return raised(lambda: Oled(chip="ssd1306"))


def no_display() -> HardwareError:
    with managed_smbus2(FakeI2cBus({0x3D: OledPanel("sh1106")})):
        return raised(lambda: Oled(address=0x3C))


def no_spi_display() -> HardwareError:
    from hardware.emulator import FakeGpio
    from hardware.oled import SpiWiring

    with emulated_pi(FakeSpiBus(), FakeGpio()):  # no /dev/spidev1.2: spi1-3cs is not in config.txt
        return raised(lambda: Oled(chip="ssd1306", spi=SpiWiring()))


def no_espeak() -> HardwareError:
    speaker = EspeakSpeaker(espeak=("no-such-espeak-program",))
    return raised(lambda: speaker.speak(Utterance("hello")))


ERRORS = {"no_spi_device": no_spi_device, "spi_denied": spi_denied, "no_chip": no_chip, "stopped": stopped,
          "no_i2c_bus": no_i2c_bus, "no_display": no_display, "no_spi_display": no_spi_display, "no_espeak": no_espeak}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_the_catalogues_english_is_the_errors_own_and_the_others_translate_it(name: str) -> None:
    error = ERRORS[name]()
    assert error.key and error.fix_key and error.part
    assert hwtexts.problem(error, "en") == error.problem
    assert hwtexts.fix(error, "en") == error.fix
    assert hwtexts.message(error, "en") == str(error)
    for language in ("ru", "bg"):
        for text in (hwtexts.problem(error, language), hwtexts.fix(error, language), hwtexts.part(error, language)):
            assert CYRILLIC.search(text), (language, text)
        assert hwtexts.problem(error, language) != error.problem


def test_a_nested_text_is_translated_too() -> None:
    error = stopped()
    russian = hwtexts.fix(error, "ru")
    assert russian.startswith("проверьте провода: 3,3 В") and "каждые 2 с" in russian
    assert ". Проверьте провода: 3,3 В" in hwtexts.message(error, "ru")  # the fix starts a sentence
    assert "VersionReg читается как 0x00" in hwtexts.problem(error, "ru")
    assert hwtexts.headline(error, "bg").startswith("NFC четец на SPI0 CE0: спря да отговаря")


@pytest.mark.parametrize("language", ["ru", "bg"])
def test_the_fault_left_on_the_display_at_boot_is_in_the_table_s_language(language: str) -> None:
    from firmware.run import boot_fault_view

    error = no_i2c_bus()
    view = boot_fault_view(error, language)
    assert view.lines == (hwtexts.headline(error, language),)
    assert CYRILLIC.search(view.lines[0]) and error.problem not in view.lines[0]
