"""``banker check``: the bring-up test of a freshly wired table, one clear line per part.

Each part is opened on its own, so one missing part does not hide the others:

1. every NFC reader: its VersionReg (0x91/0x92 for an NXP MFRC522, 0x88/0xB2 for FM17522 clones; any
   other value fails: it is what two readers driving MISO at once read);
2. all readers together: their VersionReg read in turn, with polls in between, many times: a reader
   that reads right alone and wrong beside the others shares its MISO line badly;
3. ``/dev/spidev1.*`` that exist with no reader configured on them (a warning: a reader wired there is
   never polled);
4. the OLED: a test pattern (a frame, a checkerboard and the words "banker check"), and the question
   "Frame and checkerboard visible? OK yes, ✕ no", with the fix for a no (chip, offset, rotation);
5. the buzzer: one beep;
6. every reader: "tap any card" until a UID is read;
7. every button (or the encoder): pressed once each;
8. the buzzer again: OK if it was heard, Cancel if not;
9. the speaker (when ``[hardware] speaker`` sets one): it says a sentence and asks "Heard the table
   speak? OK yes, Cancel no"; with ``--no-wait`` it only checks that espeak-ng and aplay are
   installed and that the sound device took the sentence.

First the card: the free space where the journal is kept, failing below the journal's reserve (where new
actions are refused).

Each line reads ``PASS <part>: <what was seen>``, ``WARN <part>: …`` or ``FAIL <part>: <what went
wrong>`` followed by ``fix: <what to do>``. The exit status is 0 when nothing failed. ``--no-wait``
does only steps 1-5 without the question (nothing to tap or press), e.g. over SSH before anyone is at
the table.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.display import HEIGHT, WIDTH, ScreenView, drawable, load_font
from hardware.errors import HardwareError
from hardware.factory import Table, TableConfig
from hardware.nfc import KNOWN_VERSIONS, spi_name
from hardware.protocols import ButtonName, ControlEvent
from hardware.wiring import HEADER, gpio_of

TAP_TIMEOUT_S = 20.0
PRESS_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Result:
    part: str
    ok: bool
    detail: str
    fix: str = ""
    warning: bool = False
    """Passed, but something looks wrong (``WARN``); it does not fail the check."""

    def lines(self) -> list[str]:
        word = "FAIL" if not self.ok else "WARN" if self.warning else "PASS"
        head = f"{word}  {self.part}: {self.detail}"
        return [head] if (self.ok and not self.warning) or not self.fix else [head, f"      fix: {self.fix}"]


def header_pin(gpio: int) -> int | None:
    """The physical header pin (1-40) of a BCM GPIO number."""
    return next((pin for pin in HEADER if gpio_of(pin) == gpio), None)


def test_pattern() -> Any:
    """A frame round the edge, a checkerboard on the left, "banker check" and the answers "OK yes",
    "✕ no" on the right."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    for y in range(4, HEIGHT - 4, 4):
        for x in range(4, 60, 4):
            if (x + y) // 4 % 2:
                draw.rectangle((x, y, x + 3, y + 3), fill=1)
    font = load_font(12)
    draw.text((66, 4), "banker", font=font, fill=1)
    draw.text((66, 16), "check", font=font, fill=1)
    # The question's answers, on the glass itself: whoever reads them sees the picture.
    draw.text((66, 32), "OK yes", font=font, fill=1)
    draw.text((66, 44), drawable("✕ no", font), font=font, fill=1)
    return image


ROUNDS_TOGETHER = 25
"""Rounds of reading every reader's VersionReg in turn, with polls between, in step 2."""
SPIDEV_PATTERN = re.compile(r"spidev(\d+)\.(\d+)$")
PICTURE_FIX = (
    'noise, or nothing at all: the other chip (chip = "ssd1306" for most 0.96" modules, "sh1106" for most 1.3" '
    "ones); the picture two pixels off with a stripe of noise at one edge: page_address_offset = 0 (or 2); "
    "upside down: rotate = 2; all in [hardware] display of the settings file, then run banker check again"
)


@dataclass
class Parts:
    """The opened parts (``None`` where opening failed) and how to close them."""

    readers: list[Any]
    display: Any
    controls: Any
    close: Callable[[], None]
    speaker: Any = None


def open_parts(config: TableConfig, results: list[Result]) -> Parts:
    """Open every part on its own; a failure becomes a FAIL line and ``None``."""
    from hardware.factory import open_controls, open_display, open_reader, open_speaker, open_table

    if config.mode != "pi":
        table: Table = open_table(config)
        return Parts(list(table.readers), table.display, table.controls, table.close, table.speaker)
    stack = contextlib.ExitStack()
    readers: list[Any] = []
    for index in range(len(config.readers)):
        try:
            reader = open_reader(config, index)
        except HardwareError as error:
            results.append(Result(_reader_part(config, index), False, error.problem, error.fix))
            readers.append(None)
            continue
        stack.callback(reader.close)
        readers.append(reader)
    display = controls = None
    try:
        display = open_display(config)
        stack.callback(display.close)
    except HardwareError as error:
        results.append(Result("OLED display", False, error.problem, error.fix))
    try:
        controls, factory = open_controls(config)
        if factory is not None:
            stack.callback(factory.close)
        stack.callback(controls.close)
    except HardwareError as error:
        results.append(Result("buttons and buzzer", False, error.problem, error.fix))
    return Parts(readers, display, controls, stack.close, open_speaker(config))


def _reader_part(config: TableConfig, index: int) -> str:
    reader = config.readers[index]
    return f"reader {index} ({spi_name(reader.bus, reader.device).split(' (')[0]})"


class Check:
    """Runs the steps against opened parts; ``say`` shows each prompt (terminal and OLED)."""

    def __init__(
        self,
        config: TableConfig,
        parts: Parts,
        *,
        say: Callable[[str], None],
        wait: bool = True,
        tap_timeout_s: float = TAP_TIMEOUT_S,
        press_timeout_s: float = PRESS_TIMEOUT_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.parts = parts
        self.say = say
        self.wait = wait
        self.tap_timeout_s = tap_timeout_s
        self.press_timeout_s = press_timeout_s
        self.clock = clock

    def prompt(self, text: str) -> None:
        self.say(text)
        display = self.parts.display
        if display is not None:
            with contextlib.suppress(HardwareError):
                display.show(ScreenView(title="banker check", lines=(text,)))

    def run(self) -> Iterator[Result]:
        yield from self.versions()
        yield from self.together()
        yield from self.unused_spi1()
        yield from self.display()
        if self.wait:
            yield from self.picture_seen()
        yield from self.buzzer()
        if not self.wait:
            yield from self.speaker()
            return
        yield from self.taps()
        yield from self.buttons()
        yield from self.buzzer_heard()
        yield from self.speaker()

    def versions(self) -> Iterator[Result]:
        for index, reader in enumerate(self.parts.readers):
            if reader is None:
                continue
            version = getattr(reader, "version", None)
            if version is None:
                yield Result(_reader_part(self.config, index), True, "simulated reader")
                continue
            kind = KNOWN_VERSIONS.get(version)
            if kind is None:
                yield Result(
                    _reader_part(self.config, index), False,
                    f"VersionReg reads 0x{version:02X}, which no MFRC522 or clone has",
                    "two readers driving MISO at once read mixed bits: wire this reader alone and run banker check "
                    "again; if it passes alone, see 'Two readers on one SPI bus' in hardware/README.md",
                )
                continue
            yield Result(_reader_part(self.config, index), True, f"VersionReg 0x{version:02X} ({kind})")

    def together(self) -> Iterator[Result]:
        """Every reader's VersionReg again and again, in turn, with a poll of each between: one that
        reads right when it was opened and wrong beside the others is fighting over MISO."""
        readers = [(index, reader) for index, reader in enumerate(self.parts.readers)
                   if reader is not None and callable(getattr(reader, "version_now", None))]
        if len(readers) < 2:
            return
        wrong: dict[int, int] = {}
        for _ in range(ROUNDS_TOGETHER):
            # Every reader running first (a poll sets up a reader that was reset), then every VersionReg.
            for _index, reader in readers:
                with contextlib.suppress(HardwareError):
                    reader.poll()
            for index, reader in readers:
                try:
                    value = reader.version_now()
                except (HardwareError, OSError):
                    value = 0x00
                if value != reader.version:
                    wrong.setdefault(index, value)
        names = ", ".join(_reader_part(self.config, index) for index, _ in readers)
        if not wrong:
            yield Result("readers together", True, f"{names}: every VersionReg read right "
                                                   f"{ROUNDS_TOGETHER} times in turn")
            return
        for index, value in sorted(wrong.items()):
            reader = self.parts.readers[index]
            yield Result(
                f"{_reader_part(self.config, index)} beside the others", False,
                f"VersionReg read 0x{reader.version:02X} when it was opened, 0x{value:02X} while the other readers "
                "were in use: a reader on its bus does not let go of MISO",
                "a 74HC125 buffer in each reader's MISO line, or one reader per SPI bus; see 'Two readers on one "
                "SPI bus' in hardware/README.md",
            )

    def unused_spi1(self, dev: str = "/dev") -> Iterator[Result]:
        """A warning for each ``/dev/spidev1.N`` with no reader configured on it: the overlay is on, so
        a reader is probably wired there, and the table never polls it."""
        configured = {(reader.bus, reader.device) for reader in self.config.readers}
        for path in sorted(glob.glob(f"{dev}/spidev1.*")):
            found = SPIDEV_PATTERN.search(path)
            if found is None:
                continue
            bus, device = int(found.group(1)), int(found.group(2))
            if (bus, device) in configured:
                continue
            yield Result(
                f"SPI1 CE{device} ({path})", True, "the device exists but no reader is configured on it: a reader "
                "wired there is never polled", f"add {{bus = 1, device = {device}, rst_pin = 25}} to readers in "
                "[hardware] of the settings file (install.sh --spi1 2cs writes all four for a new one)", warning=True,
            )

    def display(self) -> Iterator[Result]:
        display = self.parts.display
        if display is None:
            return
        settings = self.config.display
        try:
            display.show_image(test_pattern())
        except HardwareError as error:
            yield Result("OLED display", False, error.problem, error.fix)
            return
        yield Result(
            "OLED display",
            True,
            f"{settings.chip.upper()} at 0x{settings.address:02X} took the test pattern: a frame round the edge, "
            "a checkerboard on the left, 'banker check' on the right (a shifted picture with a noisy edge: "
            "page_address_offset = 0; upside down: rotate = 2)",
        )

    def picture_seen(self) -> Iterator[Result]:
        """Ask whoever looks at the panel: the bus acknowledging is not the picture being right (the
        SSD1306 driver on an SH1106 panel shows noise and every byte is acknowledged)."""
        display, controls = self.parts.display, self.parts.controls
        if display is None or controls is None or getattr(display, "absent", False):
            return
        while controls.get_event(timeout=0) is not None:
            pass
        self.say("Frame and checkerboard visible? OK yes, ✕ no")
        answer = self._answer()
        if answer == "ok":
            yield Result("OLED picture", True, "the frame and the checkerboard were seen")
        elif answer == "cancel":
            yield Result("OLED picture", False, "the frame and the checkerboard were not seen as drawn", PICTURE_FIX)
        else:
            yield Result("OLED picture", False, "no answer (OK or ✕) to 'Frame and checkerboard visible?'",
                         f"look at the display and press OK or ✕; if the buttons fail below, fix them first. "
                         f"{PICTURE_FIX[0].upper()}{PICTURE_FIX[1:]}")

    def _answer(self) -> str | None:
        controls = self.parts.controls
        deadline = self.clock() + self.press_timeout_s
        while self.clock() < deadline:
            event = controls.get_event(timeout=0.1)
            if event is not None and event.button in ("ok", "cancel"):
                button: str = event.button
                return button
        return None

    def buzzer(self) -> Iterator[Result]:
        controls = self.parts.controls
        pin = self.config.controls.buzzer
        if controls is None or pin is None:
            return
        try:
            controls.beep("attention")
        except HardwareError as error:
            yield Result("buzzer", False, error.problem, error.fix)

    def taps(self) -> Iterator[Result]:
        for index, reader in enumerate(self.parts.readers):
            if reader is None:
                continue
            part = _reader_part(self.config, index)
            self.prompt(f"Tap any card on reader {index}")
            deadline = self.clock() + self.tap_timeout_s
            uid: bytes | None = None
            error: HardwareError | None = None
            while uid is None and self.clock() < deadline:
                try:
                    uid = reader.poll()
                except HardwareError as failure:
                    error = failure
                    break
                if uid is None:
                    time.sleep(0.02)
            if error is not None:
                yield Result(part, False, error.problem, error.fix)
            elif uid is None:
                yield Result(
                    part,
                    False,
                    f"no card read in {self.tap_timeout_s:g} s",
                    "hold a 13.56 MHz card (MIFARE Classic or NTAG) flat on the reader's antenna; if the "
                    "version passed but no card ever reads, check 3.3 V and GND, and that the antennas are "
                    "10 cm apart; a 125 kHz card never reads",
                )
            else:
                yield Result(part, True, f"read card {uid.hex(':').upper()}")

    def _wait_for(self, button: ButtonName) -> ControlEvent | None:
        controls = self.parts.controls
        deadline = self.clock() + self.press_timeout_s
        while self.clock() < deadline:
            event: ControlEvent | None = controls.get_event(timeout=0.1)
            if event is not None and event.button == button:
                return event
        return None

    def buttons(self) -> Iterator[Result]:
        controls = self.parts.controls
        if controls is None:
            return
        pins = self.config.controls
        wired: list[tuple[ButtonName, str, int | None]] = [("ok", "OK", pins.ok), ("cancel", "Cancel", pins.cancel)]
        if pins.encoder_a is not None:
            wired += [("up", "the encoder clockwise", pins.encoder_a), ("down", "the encoder back", pins.encoder_b)]
        else:
            wired += [("up", "Up", pins.up), ("down", "Down", pins.down)]
        while controls.get_event(timeout=0) is not None:
            pass
        for button, label, pin in wired:
            if pin is None:
                continue
            verb = "Turn" if label.startswith("the encoder") else "Press"
            self.prompt(f"{verb} {label} once")
            where = f"GPIO{pin}, pin {header_pin(pin)}"
            if self._wait_for(button) is not None:
                yield Result(f"{button} button ({where})", True, "pressed")
            else:
                yield Result(
                    f"{button} button ({where})",
                    False,
                    f"no press in {self.press_timeout_s:g} s",
                    f"one leg of the button to {where}, the other to GND (pin 39); no resistor is needed",
                )

    def buzzer_heard(self) -> Iterator[Result]:
        controls = self.parts.controls
        pin = self.config.controls.buzzer
        if controls is None or pin is None:
            return
        where = f"GPIO{pin}, pin {header_pin(pin)}"
        fix = (
            f"signal to {where}, VCC to 5 V (pin 2), GND to pin 14; it must be a high-level-trigger module "
            "(a low-level one sounds all the time or never); a passive buzzer needs buzzer_kind = \"passive\""
        )
        controls.beep("attention")
        self.prompt("Heard two beeps? OK yes, Cancel no")
        deadline = self.clock() + self.press_timeout_s
        while self.clock() < deadline:
            event = controls.get_event(timeout=0.1)
            if event is not None and event.button in ("ok", "cancel"):
                if event.button == "ok":
                    yield Result(f"buzzer ({where})", True, "heard")
                else:
                    yield Result(f"buzzer ({where})", False, "not heard", fix)
                return
        yield Result(f"buzzer ({where})", False, "no answer (OK or Cancel)", fix)


    def speaker(self) -> Iterator[Result]:
        """Say a sentence; with hands at the table, ask whether it was heard."""
        from banker.messages import render
        from hardware.speaker import SpeakerError, Utterance

        settings = self.config.speaker
        speaker = self.parts.speaker
        if settings is None or speaker is None:
            return
        part = f"speaker ({settings.output}, ALSA device {settings.device})"
        missing = speaker.missing() if hasattr(speaker, "missing") else []
        if missing:
            yield Result(part, False, f"{' and '.join(missing)} not installed",
                         "sudo apt install espeak-ng alsa-utils (or firmware/install.sh --speaker "
                         f"{settings.output})")
            return
        sentence = render("say_check_sentence", {}, "en")
        try:
            speaker.speak(Utterance(sentence, "en", max(settings.volume, 60), settings.voice))
        except SpeakerError as error:
            yield Result(part, False, error.problem, error.fix)
            return
        if not self.wait:
            yield Result(part, True, "the sound device took the sentence (not listened for: --no-wait)")
            return
        controls = self.parts.controls
        fix = SPEAKER_FIX[settings.output]
        self.prompt("Heard the table speak? OK yes, Cancel no")
        answer = self._answer() if controls is not None else None
        if answer == "ok":
            yield Result(part, True, f"heard: {sentence!r}")
        elif answer == "cancel":
            yield Result(part, False, "not heard", fix)
        else:
            yield Result(part, False, "no answer (OK or Cancel)", fix)


SPEAKER_FIX = {
    "jack": "a powered speaker in the 3.5 mm jack; dtparam=audio=on in /boot/firmware/config.txt; "
            "the volume: alsamixer (F6: the Headphones card); test with speaker-test -c 2 -t wav",
    "usb": "aplay -l lists the cards: set [hardware] speaker device = \"plughw:N,0\" with the USB card's "
           "number; the volume: alsamixer -c N",
    "i2s": "MAX98357A: BCLK to GPIO18 (pin 12), LRC to GPIO19 (pin 35), DIN to GPIO21 (pin 40), Vin to 5 V "
           "(pin 2), GND to pin 6; dtparam=i2s=on and dtoverlay=max98357a,no-sdmode in "
           "/boot/firmware/config.txt, then reboot; aplay -l lists the MAX98357A card",
}


def card_space(data_dir: Path) -> Result:
    """The free space on the card of the data directory (the journal's), against the journal's reserve."""
    from banker.journal import default_reserve

    where = data_dir
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        found = os.statvfs(where)
    except OSError as error:
        return Result("card", False, f"cannot read the free space of {where} ({error.strerror or error})",
                      "check that the data directory is on a mounted card")
    free = found.f_bavail * found.f_frsize
    reserve = default_reserve(str(data_dir / "journal"))
    journal = sum(f.stat().st_size for f in data_dir.glob("*.sqlite3*")) if data_dir.is_dir() else 0
    detail = (f"{megabytes(free)} free of {megabytes(found.f_blocks * found.f_frsize)} on {where} "
              f"(the journal: {megabytes(journal)}; new actions are refused below {megabytes(reserve)})")
    if free < reserve:
        return Result("card", False, detail, "free some space on the card (or move the data directory to a bigger "
                                             "card): the table saves again by itself once there is room")
    return Result("card", True, detail)


def megabytes(count: int) -> str:
    return f"{count / 1024 / 1024:.1f} MB"


def run_check(config: TableConfig, *, out: Callable[[str], None] = print, data_dir: Path | None = None,
              **options: Any) -> list[Result]:
    """Open the parts, run every step, print each result; the results. ``data_dir``: also the free space of
    the journal's card, first."""
    results: list[Result] = [card_space(data_dir)] if data_dir is not None else []
    parts = open_parts(config, results)
    for result in results:
        for line in result.lines():
            out(line)
    try:
        check = Check(config, parts, say=lambda text: out(f"... {text}"), **options)
        for result in check.run():
            results.append(result)
            for line in result.lines():
                out(line)
        if parts.display is not None:
            failed = [result.part for result in results if not result.ok]
            with contextlib.suppress(HardwareError):
                parts.display.show(
                    ScreenView(
                        title="banker check",
                        lines=(f"{len(failed)} failed: {', '.join(failed)}",) if failed else ("all parts pass",),
                        inverted=bool(failed),
                    )
                )
    finally:
        parts.close()
    passed = sum(result.ok for result in results)
    warned = sum(result.warning for result in results)
    out(f"{passed} of {len(results)} checks passed" + (f" ({warned} with a warning)" if warned else "")
        + ("" if passed == len(results) else "; see the fixes above"))
    return results


def register(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="bring-up test of the wired table: readers, OLED, buttons, buzzer, speaker",
        description="Test each part of a freshly wired table and print PASS or FAIL with the fix for each. "
        "Example: banker check --config /etc/table-banker/table.toml",
    )
    p.add_argument("--config", help="the settings file (TOML), as for banker run")
    p.add_argument("--emulated", action="store_true", help="the real drivers over emulated chips (no hardware)")
    p.add_argument("--data-dir", help="the journal's directory, whose card's free space is shown (default: the "
                                      "config's)")
    p.add_argument("--no-wait", action="store_true", help="only what needs no hands: versions, test pattern, a beep")
    p.add_argument("--timeout", type=float, default=TAP_TIMEOUT_S, help="seconds to wait for each tap and press")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from firmware.config import ConfigError, load_config

    try:
        settings = load_config(args.config)
        config = settings.table_config("emulated" if args.emulated else "pi")
    except ConfigError as error:
        print(f"banker check: {error}", file=sys.stderr)
        return 2
    results = run_check(
        config,
        out=lambda line: print(line, flush=True),
        data_dir=Path(args.data_dir) if args.data_dir else settings.data_dir,
        wait=not args.no_wait,
        tap_timeout_s=args.timeout,
        press_timeout_s=args.timeout,
    )
    return 0 if all(result.ok for result in results) else 1
