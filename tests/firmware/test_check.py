"""banker check: one PASS or FAIL line per part, with the fix, on emulated parts and on a machine without any."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware.check import Check, Parts, Result, header_pin, run_check
from firmware.cli import main
from hardware.emulator import EmulatedCard
from hardware.factory import Table, TableConfig, open_table

pytestmark = [
    pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning"),
    pytest.mark.skipif(importlib.util.find_spec("mfrc522") is None, reason="pip install --no-deps mfrc522==0.0.7"),
]

BUTTON_PINS = {"OK": 5, "Cancel": 6, "Up": 13, "Down": 26}


@pytest.fixture
def table() -> Iterator[Table]:
    opened = open_table(TableConfig(mode="emulated"))
    yield opened
    opened.close()


def press(table: Table, pin: int) -> None:
    assert table.emulation is not None
    button = table.emulation.pin_factory.pin(pin)
    button.drive_low()
    button.drive_high()


def hands(table: Table, *, skip: str = "") -> tuple[list[str], Callable[[str], None]]:
    """Someone at the table doing what each prompt asks (except ``skip``); the prompts seen."""
    prompts: list[str] = []
    assert table.emulation is not None
    chips = table.emulation.chips

    def act(text: str) -> None:
        prompts.append(text)
        if skip and skip in text:
            return
        if text.startswith("Tap any card on reader"):
            index = int(text.rsplit(" ", 1)[1])
            chips[index].place(EmulatedCard.ntag(bytes([0x04, index, 2, 3, 4, 5, 6])))
        elif text.startswith("Press "):
            press(table, BUTTON_PINS[text.split()[1]])
        elif text.startswith(("Heard", "Frame and checkerboard visible?")):
            press(table, 5)

    return prompts, act


def run(table: Table, *, skip: str = "", timeout: float = 5.0) -> tuple[list[Result], list[str]]:
    prompts, act = hands(table, skip=skip)
    parts = Parts(list(table.readers), table.display, table.controls, lambda: None)
    check = Check(TableConfig(mode="emulated"), parts, say=act, tap_timeout_s=timeout, press_timeout_s=timeout)
    return list(check.run()), prompts


def test_every_part_passes_on_a_well_wired_table(table: Table) -> None:
    results, prompts = run(table)
    assert [result.ok for result in results] == [True] * len(results), [r.lines() for r in results]
    parts = [result.part for result in results]
    assert parts[:5] == ["reader 0 (SPI0 CE0)", "reader 1 (SPI0 CE1)", "readers together", "OLED display",
                         "OLED picture"]
    assert "VersionReg 0x92 (MFRC522 v2.0)" in results[0].detail
    assert results[5].detail == "read card 04:00:02:03:04:05:06"
    assert parts[7:] == [
        "ok button (GPIO5, pin 29)",
        "cancel button (GPIO6, pin 31)",
        "up button (GPIO13, pin 33)",
        "down button (GPIO26, pin 37)",
        "buzzer (GPIO12, pin 32)",
    ]
    assert prompts[:2] == ["Frame and checkerboard visible? OK yes, ✕ no", "Tap any card on reader 0"]
    assert table.emulation is not None
    assert table.emulation.panel.display_on


def test_a_button_that_never_comes_says_where_it_is_wired(table: Table) -> None:
    results, _ = run(table, skip="Press Cancel", timeout=0.3)
    failed = [result for result in results if not result.ok]
    assert [result.part for result in failed] == ["cancel button (GPIO6, pin 31)"]
    assert failed[0].lines() == [
        "FAIL  cancel button (GPIO6, pin 31): no press in 0.3 s",
        "      fix: one leg of the button to GPIO6, pin 31, the other to GND (pin 39); no resistor is needed",
    ]


def test_a_reader_that_reads_no_card_says_what_to_try(table: Table) -> None:
    results, _ = run(table, skip="reader 1", timeout=0.3)
    (failed,) = [result for result in results if not result.ok]
    assert failed.part == "reader 1 (SPI0 CE1)"
    assert "13.56 MHz" in failed.fix


def test_the_test_pattern_reaches_the_panel(table: Table) -> None:
    out: list[str] = []
    results = run_check(TableConfig(mode="emulated"), out=out.append, wait=False)
    assert all(result.ok for result in results)
    assert out[-1] == f"{len(results)} of {len(results)} checks passed"


def test_without_any_hardware_each_part_fails_with_its_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-wait"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    fails = [line for line in lines if line.startswith("FAIL")]
    assert any(line.startswith("FAIL  reader 0 (SPI0 CE0)") for line in fails)
    assert any(line.startswith("FAIL  OLED display") for line in fails)
    assert any(line.startswith("FAIL  buttons and buzzer") for line in fails)
    for index, line in enumerate(lines):
        if line.startswith("FAIL"):
            assert lines[index + 1].startswith("      fix: ")
    assert lines[-1].endswith("see the fixes above")


def test_header_pins() -> None:
    assert (header_pin(5), header_pin(12), header_pin(25)) == (29, 32, 22)


def test_a_no_to_the_test_pattern_fails_with_the_fix(table: Table) -> None:
    prompts, act = hands(table)

    def answer_no(text: str) -> None:
        if text.startswith("Frame and checkerboard visible?"):
            press(table, BUTTON_PINS["Cancel"])
        else:
            act(text)

    parts = Parts(list(table.readers), table.display, table.controls, lambda: None)
    results = list(Check(TableConfig(mode="emulated"), parts, say=answer_no, tap_timeout_s=5, press_timeout_s=5).run())
    (failed,) = [result for result in results if not result.ok]
    assert failed.part == "OLED picture"
    assert 'chip = "ssd1306"' in failed.fix and "page_address_offset = 0" in failed.fix and "rotate = 2" in failed.fix


def test_the_test_pattern_says_what_to_press() -> None:
    from firmware.check import test_pattern
    from tests.hardware.pixels import read_row

    pattern = test_pattern()
    assert pattern.getpixel((0, 0)) and pattern.getpixel((127, 63))  # the frame's corners
    assert read_row(pattern, 4, x=66) == "banker"
    assert read_row(pattern, 32, x=66) == "OK yes"
    assert read_row(pattern, 44, x=66).endswith("no")


def test_a_reader_that_does_not_let_go_of_miso_fails_beside_the_others() -> None:
    with open_table(TableConfig(mode="emulated")) as table:
        assert table.emulation is not None
        table.emulation.chips[1].holds_miso = True  # reader 0 read 0x92 when it was opened, before reader 1 ran
        parts = Parts(list(table.readers), table.display, table.controls, lambda: None)
        results = list(Check(TableConfig(mode="emulated"), parts, say=lambda _: None, wait=False).run())
    (failed,) = [result for result in results if not result.ok]
    assert failed.part == "reader 0 (SPI0 CE0) beside the others"
    assert "0x92 when it was opened, 0x00 while the other readers" in failed.detail
    assert "74HC125" in failed.fix


def test_an_unknown_version_fails() -> None:
    with open_table(TableConfig(mode="emulated")) as table:
        table.readers[1].version = 0x5A  # type: ignore[attr-defined]
        parts = Parts(list(table.readers), table.display, table.controls, lambda: None)
        results = list(Check(TableConfig(mode="emulated"), parts, say=lambda _: None, wait=False).versions())
    assert [result.ok for result in results] == [True, False]
    assert "0x5A, which no MFRC522 or clone has" in results[1].detail


def test_a_spi1_device_with_no_reader_configured_is_a_warning(tmp_path: object) -> None:
    from pathlib import Path

    dev = Path(str(tmp_path))
    for name in ("spidev0.0", "spidev0.1", "spidev1.0", "spidev1.1"):
        (dev / name).touch()
    config = TableConfig(mode="emulated")  # two readers, on SPI0
    check = Check(config, Parts([], None, None, lambda: None), say=lambda _: None)
    results = list(check.unused_spi1(str(dev)))
    assert [result.part for result in results] == [f"SPI1 CE0 ({dev}/spidev1.0)", f"SPI1 CE1 ({dev}/spidev1.1)"]
    assert all(result.ok and result.warning for result in results)
    assert results[0].lines()[0].startswith("WARN  SPI1 CE0")
    assert "{bus = 1, device = 0, rst_pin = 25}" in results[0].fix


def test_the_speaker_says_a_sentence_and_asks_whether_it_was_heard() -> None:
    from hardware.speaker import SimulatedSpeaker, SpeakerConfig

    config = TableConfig(mode="emulated", speaker=SpeakerConfig(output="usb", device="plughw:1,0"))
    with open_table(config) as table:
        prompts, act = hands(table)
        parts = Parts(list(table.readers), table.display, table.controls, lambda: None, table.speaker)
        results = list(Check(config, parts, say=act, tap_timeout_s=5, press_timeout_s=5).run())
        assert isinstance(table.speaker, SimulatedSpeaker)
        assert table.speaker.texts == ["The table banker speaks. Press OK if you heard this."]
    assert results[-1].part == "speaker (usb, ALSA device plughw:1,0)" and results[-1].ok
    assert prompts[-1] == "Heard the table speak? OK yes, Cancel no"

    with open_table(config) as table:
        prompts, act = hands(table)

        def answer_no(text: str) -> None:
            if text.startswith("Heard the table speak?"):
                press(table, BUTTON_PINS["Cancel"])
            else:
                act(text)

        parts = Parts(list(table.readers), table.display, table.controls, lambda: None, table.speaker)
        results = list(Check(config, parts, say=answer_no, tap_timeout_s=5, press_timeout_s=5).run())
    (failed,) = [result for result in results if not result.ok]
    assert failed.detail == "not heard" and "aplay -l" in failed.fix and "plughw:N,0" in failed.fix


def test_a_speaker_without_its_programs_or_its_device_fails_with_the_fix(tmp_path: object) -> None:
    import sys

    from hardware.speaker import EspeakSpeaker, SpeakerConfig

    config = TableConfig(mode="emulated", speaker=SpeakerConfig(output="i2s"))
    with open_table(TableConfig(mode="emulated")) as table:
        missing = EspeakSpeaker(espeak=("no-such-espeak-ng",), aplay=(sys.executable,))  # aplay there, espeak-ng not
        parts = Parts(list(table.readers), table.display, table.controls, lambda: None, missing)
        (result,) = Check(config, parts, say=lambda _: None, wait=False).speaker()
        assert not result.ok and result.detail == "no-such-espeak-ng not installed"
        assert "firmware/install.sh --speaker i2s" in result.fix
        silent = EspeakSpeaker(espeak=(sys.executable, "-c", "import sys; sys.stdin.read()"),
                               aplay=(sys.executable, "-c", "import sys; sys.exit(1)"))
        silent.missing = lambda: []  # type: ignore[method-assign]
        parts = Parts(list(table.readers), table.display, table.controls, lambda: None, silent)
        (result,) = Check(config, parts, say=lambda _: None, wait=False).speaker()
        assert not result.ok and "aplay could not play" in result.detail and "dtoverlay=max98357a" in result.fix


CARDS = """ 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
{more}"""


@pytest.mark.parametrize("listed", [False, True])
def test_an_i2s_speaker_is_looked_for_by_its_card_s_name(tmp_path: Path, listed: bool) -> None:
    from hardware.speaker import I2S_DEVICE, SimulatedSpeaker, SpeakerConfig

    cards = tmp_path / "cards"
    cards.write_text(CARDS.format(more=" 1 [MAX98357A      ]: RPi-simple - MAX98357A\n" if listed else ""))
    config = TableConfig(mode="pi", speaker=SpeakerConfig(output="i2s"))
    assert config.speaker is not None and config.speaker.device == I2S_DEVICE == "plughw:CARD=MAX98357A,DEV=0"
    speaker = SimulatedSpeaker()
    parts = Parts([], None, None, lambda: None, speaker)
    (result,) = Check(config, parts, say=lambda _: None, wait=False, asound_cards=str(cards)).speaker()
    if listed:
        assert result.ok and len(speaker.texts) == 1
    else:
        assert not result.ok and speaker.texts == []
        assert result.detail == "ALSA has no card MAX98357A (its cards: 0 Headphones)"
        assert "dtoverlay=max98357a,no-sdmode" in result.fix and "CARD=MAX98357A" in result.fix


@pytest.mark.parametrize(("flags", "word", "seen"), [
    ("0x0", "PASS", "no under-voltage"),
    ("0x50000", "WARN", "under-voltage since boot, not now (throttled = 0x50000)"),
    ("0x50005", "FAIL", "under-voltage now (throttled = 0x50005): readers and the card may reset"),
    ("0x80008", "WARN", "too hot"),
])
def test_the_pi_s_supply_is_checked_first(tmp_path: Path, flags: str, word: str, seen: str) -> None:
    throttled = tmp_path / "get_throttled"
    throttled.write_text(flags + "\n")
    check = Check(TableConfig(mode="pi"), Parts([], None, None, lambda: None), say=lambda _: None,
                  throttled=str(throttled))
    (result,) = check.power()
    lines = result.lines()
    assert lines[0].startswith(f"{word}  power: ") and seen in lines[0]
    if word != "PASS":
        assert lines[1].startswith("      fix: ")
    if word == "FAIL" or "since boot" in seen:
        assert "2.5 A micro-USB" in result.fix and "AMS1117-3.3" in result.fix
    assert list(Check(TableConfig(mode="pi"), Parts([], None, None, lambda: None), say=lambda _: None,
                      throttled=str(tmp_path / "none")).power()) == []


@pytest.mark.parametrize("language", ["ru", "bg"])
def test_the_check_speaks_the_table_s_language(tmp_path: Path, language: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import re

    config = tmp_path / "table.toml"
    config.write_text(f'[table]\nlanguage = "{language}"\n')
    main(["check", "--emulated", "--no-wait", "--config", str(config), "--data-dir", str(tmp_path)])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 5
    for line in lines:
        words = re.sub(r"\([^)]*\)|«[^»]*»|„[^“]*“|'[^']*'|\S*[_/.=\d]\S*", "", line)
        assert re.search("[а-яА-Я]", line), line
        assert "table_check" not in line and "{" not in line, line
        assert not re.search(r"\b(the|and|of|reader|display|fix)\b", words), line
    assert re.match(r"(PASS|WARN|FAIL)  ", lines[0])

    lines = []
    prompts: list[str] = []
    with open_table(TableConfig(mode="emulated")) as table:
        parts = Parts(list(table.readers), table.display, table.controls, lambda: None)
        results = list(Check(TableConfig(mode="emulated"), parts, say=prompts.append, wait=True, tap_timeout_s=0.2,
                             press_timeout_s=0.2, language=language).run())
    assert prompts and all(re.search("[а-яА-Я]", text) for text in prompts)
    assert all(re.search("[а-яА-Я]", result.part + result.detail + result.fix) for result in results)
