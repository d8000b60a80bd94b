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

from banker.messages import LANGUAGES, render
from firmware import hwtexts
from firmware.texts import PREFIX
from hardware.display import HEIGHT, WIDTH, ScreenView, drawable, load_font
from hardware.errors import HardwareError
from hardware.factory import Table, TableConfig
from hardware.nfc import KNOWN_VERSIONS, spi_name
from hardware.power import THROTTLED, THROTTLED_ANY, UNDER_VOLTAGE_NOW, UNDER_VOLTAGE_SINCE_BOOT
from hardware.protocols import ButtonName, ControlEvent
from hardware.speaker import ASOUND_CARDS
from hardware.wiring import HEADER, gpio_of

TAP_TIMEOUT_S = 20.0
PRESS_TIMEOUT_S = 20.0


def _t(language: str, key: str, **values: Any) -> str:
    """The check's text ``key`` (the catalogue's ``table_check_`` + key) in ``language``."""
    return render(PREFIX + "check_" + key, values, language)


@dataclass(frozen=True)
class Result:
    part: str
    ok: bool
    detail: str
    fix: str = ""
    warning: bool = False
    """Passed, but something looks wrong (``WARN``); it does not fail the check."""

    def lines(self, language: str = "en") -> list[str]:
        """``PASS``, ``WARN`` or ``FAIL`` (the same words in every language, for scripts), the part and what was
        seen; the fix on a line of its own."""
        word = "FAIL" if not self.ok else "WARN" if self.warning else "PASS"
        head = f"{word}  {self.part}: {self.detail}"
        if (self.ok and not self.warning) or not self.fix:
            return [head]
        return [head, f"      {_t(language, 'fix', fix=self.fix)}"]


def header_pin(gpio: int) -> int | None:
    """The physical header pin (1-40) of a BCM GPIO number."""
    return next((pin for pin in HEADER if gpio_of(pin) == gpio), None)


def test_pattern(language: str = "en") -> Any:
    """A frame round the edge, a checkerboard on the left, "banker check" and the answers "OK yes",
    "✕ no" on the right (in ``language``)."""
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
    draw.text((66, 32), _t(language, "pattern_yes"), font=font, fill=1)
    draw.text((66, 44), drawable(_t(language, "pattern_no"), font), font=font, fill=1)
    return image


ROUNDS_TOGETHER = 25
"""Rounds of reading every reader's VersionReg in turn, with polls between, in step 2."""
SPIDEV_PATTERN = re.compile(r"spidev(\d+)\.(\d+)$")


@dataclass
class Parts:
    """The opened parts (``None`` where opening failed) and how to close them."""

    readers: list[Any]
    display: Any
    controls: Any
    close: Callable[[], None]
    speaker: Any = None


def failed(part: str, error: HardwareError, language: str) -> Result:
    """A FAIL line of a part that raised ``error``: what is wrong and the fix, in ``language``."""
    return Result(part, False, hwtexts.problem(error, language), hwtexts.fix(error, language))


def open_parts(config: TableConfig, results: list[Result], language: str = "en") -> Parts:
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
            results.append(failed(_reader_part(config, index, language), error, language))
            readers.append(None)
            continue
        stack.callback(reader.close)
        readers.append(reader)
    display = controls = None
    try:
        display = open_display(config)
        stack.callback(display.close)
    except HardwareError as error:
        results.append(failed(_t(language, "part_display"), error, language))
    try:
        controls, factory = open_controls(config)
        if factory is not None:
            stack.callback(factory.close)
        stack.callback(controls.close)
    except HardwareError as error:
        results.append(failed(_t(language, "part_controls"), error, language))
    return Parts(readers, display, controls, stack.close, open_speaker(config))


def _reader_part(config: TableConfig, index: int, language: str = "en") -> str:
    reader = config.readers[index]
    return _t(language, "part_reader", number=index, bus=spi_name(reader.bus, reader.device).split(" (")[0])


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
        language: str = "en",
        asound_cards: str = ASOUND_CARDS,
        throttled: str = THROTTLED,
    ) -> None:
        self.language = language
        """The language of the prompts and of every line (``[table] language``, or ``--lang``)."""
        self.asound_cards = asound_cards
        self.throttled = throttled
        self.config = config
        self.parts = parts
        self.say = say
        self.wait = wait
        self.tap_timeout_s = tap_timeout_s
        self.press_timeout_s = press_timeout_s
        self.clock = clock

    def t(self, key: str, **values: Any) -> str:
        return _t(self.language, key, **values)

    def part(self, index: int) -> str:
        return _reader_part(self.config, index, self.language)

    def prompt(self, text: str) -> None:
        self.say(text)
        display = self.parts.display
        if display is not None:
            with contextlib.suppress(HardwareError):
                display.show(ScreenView(title="banker check", lines=(text,)))

    def run(self) -> Iterator[Result]:
        yield from self.power()
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
                yield Result(self.part(index), True, self.t("simulated_reader"))
                continue
            kind = KNOWN_VERSIONS.get(version)
            if kind is None:
                yield Result(self.part(index), False, self.t("version_unknown", version=f"0x{version:02X}"),
                             self.t("version_unknown_fix"))
                continue
            yield Result(self.part(index), True, self.t("version", version=f"0x{version:02X}", kind=kind))

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
        names = ", ".join(self.part(index) for index, _ in readers)
        if not wrong:
            yield Result(self.t("part_together"), True, self.t("together", names=names, rounds=ROUNDS_TOGETHER))
            return
        for index, value in sorted(wrong.items()):
            reader = self.parts.readers[index]
            yield Result(self.t("part_beside", part=self.part(index)), False,
                         self.t("beside", opened=f"0x{reader.version:02X}", value=f"0x{value:02X}"),
                         self.t("beside_fix"))

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
            yield Result(f"SPI1 CE{device} ({path})", True, self.t("spi1_unused"),
                         self.t("spi1_unused_fix", device=device), warning=True)

    def display(self) -> Iterator[Result]:
        display = self.parts.display
        if display is None:
            return
        settings = self.config.display
        try:
            display.show_image(test_pattern(self.language))
        except HardwareError as error:
            yield failed(self.t("part_display"), error, self.language)
            return
        address = f"0x{settings.address:02X}" if settings.interface == "i2c" else getattr(display, "where", "SPI")
        yield Result(self.t("part_display"), True, self.t("pattern_taken", chip=settings.chip.upper(), address=address))

    def picture_seen(self) -> Iterator[Result]:
        """Ask whoever looks at the panel: the bus acknowledging is not the picture being right (the
        SSD1306 driver on an SH1106 panel shows noise and every byte is acknowledged)."""
        display, controls = self.parts.display, self.parts.controls
        if display is None or controls is None or getattr(display, "absent", False):
            return
        while controls.get_event(timeout=0) is not None:
            pass
        self.say(self.t("ask_picture"))
        answer = self._answer()
        part = self.t("part_picture")
        if answer == "ok":
            yield Result(part, True, self.t("picture_seen"))
        elif answer == "cancel":
            yield Result(part, False, self.t("picture_not_seen"), self.t("picture_fix"))
        else:
            yield Result(part, False, self.t("picture_no_answer"), self.t("picture_no_answer_fix"))

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
            yield failed(self.t("part_buzzer"), error, self.language)

    def taps(self) -> Iterator[Result]:
        for index, reader in enumerate(self.parts.readers):
            if reader is None:
                continue
            part = self.part(index)
            self.prompt(self.t("ask_tap", number=index))
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
                yield failed(part, error, self.language)
            elif uid is None:
                yield Result(part, False, self.t("no_card", seconds=f"{self.tap_timeout_s:g}"), self.t("no_card_fix"))
            else:
                yield Result(part, True, self.t("card_read", uid=uid.hex(":").upper()))

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
        wired: list[tuple[ButtonName, str, int | None]] = [("ok", "ask_press_ok", pins.ok),
                                                            ("cancel", "ask_press_cancel", pins.cancel)]
        if pins.encoder_a is not None:
            wired += [("up", "ask_turn_clockwise", pins.encoder_a), ("down", "ask_turn_back", pins.encoder_b)]
        else:
            wired += [("up", "ask_press_up", pins.up), ("down", "ask_press_down", pins.down)]
        while controls.get_event(timeout=0) is not None:
            pass
        for button, ask, pin in wired:
            if pin is None:
                continue
            self.prompt(self.t(ask))
            where = self.t("where", pin=pin, header=header_pin(pin))
            part = self.t(f"part_button_{button}", where=where)
            if self._wait_for(button) is not None:
                yield Result(part, True, self.t("pressed"))
            else:
                yield Result(part, False, self.t("no_press", seconds=f"{self.press_timeout_s:g}"),
                             self.t("no_press_fix", where=where))

    def buzzer_heard(self) -> Iterator[Result]:
        controls = self.parts.controls
        pin = self.config.controls.buzzer
        if controls is None or pin is None:
            return
        where = self.t("where", pin=pin, header=header_pin(pin))
        fix = self.t("buzzer_fix", where=where)
        part = self.t("part_buzzer_at", where=where)
        controls.beep("attention")
        self.prompt(self.t("ask_beeps"))
        deadline = self.clock() + self.press_timeout_s
        while self.clock() < deadline:
            event = controls.get_event(timeout=0.1)
            if event is not None and event.button in ("ok", "cancel"):
                if event.button == "ok":
                    yield Result(part, True, self.t("heard"))
                else:
                    yield Result(part, False, self.t("not_heard"), fix)
                return
        yield Result(part, False, self.t("no_answer"), fix)


    def speaker(self) -> Iterator[Result]:
        """Say a sentence; with hands at the table, ask whether it was heard. First, that the sound card the
        settings name is there (an I²S amplifier is its card, never ALSA's default)."""
        from hardware.speaker import SpeakerError, Utterance, alsa_cards, card_of

        settings = self.config.speaker
        speaker = self.parts.speaker
        if settings is None or speaker is None:
            return
        part = self.t("part_speaker", output=settings.output, device=settings.device)
        missing = speaker.missing() if hasattr(speaker, "missing") else []
        if missing:
            yield Result(part, False, self.t("speaker_missing", programs=f" {self.t('and')} ".join(missing)),
                         self.t("speaker_missing_fix", output=settings.output))
            return
        wanted = card_of(settings.device) if self.config.mode == "pi" else None
        cards = alsa_cards(self.asound_cards) if wanted is not None else {}
        if wanted is not None and wanted not in (*cards, *cards.values()):
            listed = ", ".join(f"{number} {name}" for number, name in sorted(cards.items()))
            detail = self.t("speaker_no_card", card=wanted, cards=listed) if cards else self.t("speaker_no_cards")
            yield Result(part, False, detail, self.t(SPEAKER_FIX_KEYS[settings.output]))
            return
        sentence = render("say_check_sentence", {}, self.language)
        try:
            speaker.speak(Utterance(sentence, self.language, max(settings.volume, 60), settings.voice))
        except SpeakerError as error:
            yield failed(part, error, self.language)
            return
        if not self.wait:
            yield Result(part, True, self.t("speaker_took"))
            return
        controls = self.parts.controls
        fix = self.t(SPEAKER_FIX_KEYS[settings.output])
        self.prompt(self.t("ask_speaker"))
        answer = self._answer() if controls is not None else None
        if answer == "ok":
            yield Result(part, True, self.t("speaker_heard", sentence=sentence))
        elif answer == "cancel":
            yield Result(part, False, self.t("not_heard"), fix)
        else:
            yield Result(part, False, self.t("no_answer"), fix)

    def power(self) -> Iterator[Result]:
        """The Pi's own record of its supply (the firmware's throttled flags): four readers on 3.3 V are the
        first suspects when readers reset, and an under-voltage says so. Nothing off a Pi."""
        from hardware.power import read_throttled

        flags = read_throttled(self.throttled)
        if flags is None:
            return
        part = self.t("part_power")
        code = f"0x{flags:X}"
        if flags & UNDER_VOLTAGE_NOW:
            yield Result(part, False, self.t("power_low_now", flags=code), self.t("power_fix"))
        elif flags & UNDER_VOLTAGE_SINCE_BOOT:
            yield Result(part, True, self.t("power_low_before", flags=code), self.t("power_fix"), warning=True)
        elif flags & THROTTLED_ANY:
            yield Result(part, True, self.t("power_throttled", flags=code), self.t("power_hot_fix"), warning=True)
        else:
            yield Result(part, True, self.t("power_ok"))


SPEAKER_FIX_KEYS = {"jack": "speaker_jack_fix", "usb": "speaker_usb_fix", "i2s": "speaker_i2s_fix"}

def card_space(data_dir: Path, language: str = "en") -> Result:
    """The free space on the card of the data directory (the journal's), against the journal's reserve."""
    from banker.journal import default_reserve

    where = data_dir
    while not where.exists() and where != where.parent:
        where = where.parent
    part = _t(language, "part_card")
    try:
        found = os.statvfs(where)
    except OSError as error:
        return Result(part, False, _t(language, "card_unreadable", where=where, error=error.strerror or error),
                      _t(language, "card_unreadable_fix"))
    free = found.f_bavail * found.f_frsize
    reserve = default_reserve(str(data_dir / "journal"))
    journal = sum(f.stat().st_size for f in data_dir.glob("*.sqlite3*")) if data_dir.is_dir() else 0
    detail = _t(language, "card_space", free=megabytes(free, language),
                size=megabytes(found.f_blocks * found.f_frsize, language), where=where,
                journal=megabytes(journal, language), reserve=megabytes(reserve, language))
    if free < reserve:
        return Result(part, False, detail, _t(language, "card_full_fix"))
    return Result(part, True, detail)


def megabytes(count: int, language: str = "en") -> str:
    size = f"{count / 1024 / 1024:.1f}"
    return _t(language, "megabytes", size=size if language == "en" else size.replace(".", ","))


def run_check(config: TableConfig, *, out: Callable[[str], None] = print, data_dir: Path | None = None,
              language: str = "en", **options: Any) -> list[Result]:
    """Open the parts, run every step, print each result; the results. ``data_dir``: also the free space of
    the journal's card, first. Every prompt and line is in ``language``."""
    results: list[Result] = [card_space(data_dir, language)] if data_dir is not None else []
    parts = open_parts(config, results, language)
    for result in results:
        for line in result.lines(language):
            out(line)
    try:
        check = Check(config, parts, say=lambda text: out(f"... {text}"), language=language, **options)
        for result in check.run():
            results.append(result)
            for line in result.lines(language):
                out(line)
        if parts.display is not None:
            failures = [result.part for result in results if not result.ok]
            with contextlib.suppress(HardwareError):
                parts.display.show(
                    ScreenView(
                        title="banker check",
                        lines=(_t(language, "screen_failed", count=len(failures), parts=", ".join(failures)),)
                        if failures else (_t(language, "screen_passed"),),
                        inverted=bool(failures),
                    )
                )
    finally:
        parts.close()
    passed = sum(result.ok for result in results)
    warned = sum(result.warning for result in results)
    summary = _t(language, "summary", passed=passed, count=len(results))
    if warned:
        summary += " " + _t(language, "summary_warned", warned=warned)
    if passed != len(results):
        summary += _t(language, "summary_failed")
    out(summary)
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
    p.add_argument("--lang", choices=LANGUAGES, help="the language of the prompts and lines (default: the table's)")
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
        language=args.lang or settings.language,
    )
    return 0 if all(result.ok for result in results) else 1
