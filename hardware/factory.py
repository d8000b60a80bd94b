"""The one place where the table's hardware is chosen: simulated, emulated, or the real Raspberry Pi.

- ``simulated``: in-memory twins (:class:`SimulatedReader`, :class:`SimulatedDisplay`,
  :class:`SimulatedControls`) for the laptop and the browser mirror; no driver code runs.
- ``emulated``: the real drivers (``mfrc522``, luma.oled, gpiozero) over emulated hardware
  (MFRC522 register emulator, fake I²C OLED panel, gpiozero's ``MockFactory``), for tests and
  benchmarks of the whole stack.
- ``pi``: the real drivers on real buses. A machine that is not set up for a part (its software
  missing, its bus not enabled, no permission: ``HardwareError.lasting``) does not start the table:
  the error names the device, the bus and the fix; there is no fallback to simulation. A part that
  does not answer is not faked either: it is replaced by a stand-in (:mod:`hardware.absent`) that
  raises the part's :class:`~hardware.errors.HardwareError` (the device, the bus and the likely fix)
  as a part that stopped answering mid-game does, and that opens the part when it answers. The
  display is opened first, so it can say what else is wrong; a reader that did not open starts in
  the hub's fault list; :meth:`Table.faults` lists them all.
  :func:`open_reader`, :func:`open_display` and :func:`open_controls` open one part and raise.

``emulated`` takes ``absent=("reader:1", "display")``: those parts are not connected (the chip select
reads zeros, nothing acknowledges at the display's address) until :meth:`Emulation.connect`, so every
fault path of the boot can be run on a laptop.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from hardware.absent import RETRY_S, AbsentControls, AbsentDisplay, AbsentReader
from hardware.controls import STUCK_S, ControlPins, GpioControls, SimulatedControls, make_pin_factory
from hardware.errors import HardwareError
from hardware.nfc import DEFAULT_RST_PIN, DEFAULT_SPEED_HZ, RX_GAINS, Mfrc522Reader
from hardware.oled import Oled, OledChip, SimulatedDisplay, SpiWiring, open_luma_device
from hardware.pimodel import PiCosts
from hardware.protocols import Controls, Display, TagReader
from hardware.speaker import EspeakSpeaker, SimulatedSpeaker, Speaker, SpeakerConfig
from hardware.taps import (
    MISSES_TO_REMOVE,
    POLL_INTERVAL_S,
    REMOVE_AFTER_S,
    SAME_CARD_COOLDOWN_S,
    SimulatedReader,
    TagReaderHub,
)

log = logging.getLogger(__name__)

Mode = Literal["simulated", "emulated", "pi"]
MODES: tuple[Mode, ...] = ("simulated", "emulated", "pi")
MAX_READERS = 4
SPI_PINS = {
    0: {"SPI0 MISO": 9, "SPI0 MOSI": 10, "SPI0 SCLK": 11},
    1: {"SPI1 MISO": 19, "SPI1 MOSI": 20, "SPI1 SCLK": 21},
}
"""BCM pins a bus occupies once any reader is on it."""
CHIP_SELECT_PINS = {(0, 0): 8, (0, 1): 7, (1, 0): 18, (1, 1): 17, (1, 2): 16}
"""BCM pin of each chip select (SPI1 with ``dtoverlay=spi1-2cs``/``spi1-3cs`` defaults)."""
I2C1_PINS = {"I²C SDA": 2, "I²C SCL": 3}
DISPLAY_SPI_HZ = (500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000)
"""The SPI clocks luma.core's ``spi`` takes (it asserts one of a list) up to 10 MHz."""
SPI_HZ_MAX = {"ssd1306": 8_000_000, "sh1106": 2_000_000}
"""The fastest of :data:`DISPLAY_SPI_HZ` each controller takes: the SSD1306's serial clock cycle is at least
100 ns (its datasheet's 4-wire SPI timing: 10 MHz); the SH1106's SPI is limited to 2 MHz by its datasheet (as
Linux's ssd130x driver, drivers/gpu/drm/solomon, has it since it supports the SH1106)."""


@dataclass(frozen=True)
class ReaderConfig:
    """An RC522 on ``/dev/spidev<bus>.<device>`` with its reset pin (BCM, or ``None`` if tied to 3.3 V)."""

    bus: int = 0
    device: int = 0
    rst_pin: int | None = DEFAULT_RST_PIN
    rx_gain_db: int | None = None
    """The receiver's gain: 18, 23, 33, 38, 43 or 48 dB (``None``: the chip's own 33 dB). 43 or 48
    helps NTAG stickers read through a deed card."""
    spi_hz: int = DEFAULT_SPEED_HZ
    """The SPI clock (4 MHz; the MFRC522 takes up to 10 MHz): 1000000 for long or loose wires."""


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED: controller, I²C port and address (or its SPI wiring), rotation (0 or 2), SH1106 column
    offset."""

    chip: OledChip = "sh1106"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0
    page_address_offset: int = 2
    contrast: int | None = None
    bus_hz: int = 400_000
    """The I²C clock the Pi runs (``dtparam=i2c_arm_baudrate`` in config.txt; firmware/install.sh sets
    400000, or 1000000 with ``--i2c-hz 1000000``). The program cannot change it; the emulated panel
    times its frames by it."""
    interface: Literal["i2c", "spi"] = "i2c"
    """``i2c``: the 4-pin modules (SDA, SCL). ``spi``: the 7-pin ones (CS, D/C, RES, SCK, MOSI), a frame
    in about a millisecond at 8 MHz instead of 23 ms at 400 kHz (hardware/README.md, "An OLED on SPI")."""
    spi_bus: int = 1
    """With ``spi``: the SPI controller; SPI1, whose SCK and MOSI the readers 2 and 3 share."""
    spi_device: int = 2
    """With ``spi``: the chip select; SPI1 CE2 is GPIO16 (``dtoverlay=spi1-3cs``)."""
    dc_pin: int = 22
    """With ``spi``: the GPIO of the D/C line (low: commands, high: display data)."""
    reset_pin: int | None = 27
    """With ``spi``: the GPIO of the RES line (``None``: RES tied to 3.3 V)."""
    spi_hz: int | None = None
    """With ``spi``: the SPI clock; ``None``: the chip's fastest of :data:`DISPLAY_SPI_HZ`, 8 MHz for the
    SSD1306 (its serial clock cycle is at least 100 ns: 10 MHz), 2 MHz for the SH1106 (its datasheet's
    limit, as Linux's ssd130x driver has it)."""

    def spi_clock_hz(self) -> int:
        """The SPI clock the panel is driven at (see :attr:`spi_hz`)."""
        if self.spi_hz is not None:
            return self.spi_hz
        return SPI_HZ_MAX[self.chip]


@dataclass(frozen=True)
class TableConfig:
    """Everything that differs between one table and another."""

    mode: Mode = "simulated"
    readers: tuple[ReaderConfig, ...] = (ReaderConfig(0, 0), ReaderConfig(0, 1))
    display: DisplayConfig = DisplayConfig()
    controls: ControlPins = ControlPins()
    pin_factory: str | None = "lgpio"
    """gpiozero pin factory in ``pi`` mode: ``lgpio`` works on every Pi, including the Pi 5."""
    misses_to_remove: int = MISSES_TO_REMOVE
    poll_interval_s: float = POLL_INTERVAL_S
    remove_after_s: float = REMOVE_AFTER_S
    """A card not seen for this long counts as taken away."""
    same_card_cooldown_s: float = SAME_CARD_COOLDOWN_S
    """The same card on the same reader again within this long of its tap does not tap again."""
    hold_time_s: float = 1.0
    stuck_time_s: float = STUCK_S
    """A button held down this long is stuck, and ignored until released (:data:`hardware.controls.STUCK_S`)."""
    speaker: SpeakerConfig | None = None
    """The speaker (``None``: the table has none). A simulated table always has its simulated twin."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> TableConfig:
        """Build a config from plain data (e.g. a TOML table)::

            {"mode": "pi",
             "readers": [{"bus": 0, "device": 0}, {"bus": 0, "device": 1}],
             "display": {"chip": "ssd1306", "address": 60},
             "controls": {"ok": 5, "cancel": 6, "encoder_a": 13, "encoder_b": 26, "up": None, ...,
                          "leds": {"green": 23}}}

        Raises:
            ValueError: unknown keys or invalid values (see :meth:`validate`).
        """
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown table settings: {sorted(unknown)}; known: {sorted(known)}")
        config = cls()
        values: dict[str, Any] = {
            key: value for key, value in data.items() if key not in ("readers", "display", "controls", "speaker")
        }
        if "readers" in data:
            values["readers"] = tuple(_build(ReaderConfig, item) for item in data["readers"])
        if "display" in data:
            values["display"] = _build(DisplayConfig, data["display"])
        if "controls" in data:
            controls = dict(data["controls"])
            if "leds" in controls:
                controls["leds"] = tuple(dict(controls["leds"]).items())
            values["controls"] = _build(ControlPins, controls)
        if "speaker" in data:
            values["speaker"] = speaker_config(data["speaker"])
        config = replace(config, **values)
        config.validate()
        return config

    def validate(self) -> None:
        """Check the configuration before any pin is touched.

        Raises:
            ValueError: unknown mode, no or too many readers, two readers on one chip select, a
                chip select that does not exist, or a pin used twice (buses included).
        """
        if self.mode not in MODES:
            raise ValueError(f"mode is one of {MODES}, not {self.mode!r}")
        if not 1 <= len(self.readers) <= MAX_READERS:
            raise ValueError(f"a table has 1 to {MAX_READERS} readers, not {len(self.readers)}")
        self.controls.validate()
        used: dict[int, str] = {}

        def claim(pin: int, role: str) -> None:
            if pin in used and used[pin] != role:
                raise ValueError(f"GPIO{pin} is assigned to both {used[pin]} and {role}")
            used[pin] = role

        display = self.display
        if display.interface not in ("i2c", "spi"):
            raise ValueError(f"display interface is 'i2c' or 'spi', not {display.interface!r}")
        if display.interface == "i2c" and display.port == 1:
            for role, pin in I2C1_PINS.items():
                claim(pin, role)
        if display.interface == "spi":
            where = (display.spi_bus, display.spi_device)
            if where not in CHIP_SELECT_PINS:
                raise ValueError(f"display: no chip select SPI{where[0]} CE{where[1]} "
                                 "(use SPI0 CE0/CE1 and SPI1 CE0/CE1/CE2)")
            if where in {(reader.bus, reader.device) for reader in self.readers}:
                raise ValueError(f"the display and a reader on one chip select, SPI{where[0]} CE{where[1]}")
            allowed = tuple(hz for hz in DISPLAY_SPI_HZ if hz <= SPI_HZ_MAX[display.chip])
            if display.spi_clock_hz() not in allowed:
                raise ValueError(f"display: spi_hz of an {display.chip.upper()} is one of {allowed} (luma's clocks up "
                                 f"to the controller's limit), not {display.spi_hz}")
            for role, pin in SPI_PINS[display.spi_bus].items():
                if "MISO" not in role:
                    claim(pin, role)
            claim(CHIP_SELECT_PINS[where], f"OLED chip select SPI{where[0]} CE{where[1]}")
            claim(display.dc_pin, "OLED D/C")
            if display.reset_pin is not None:
                claim(display.reset_pin, "OLED reset")
        seen = set()
        for index, reader in enumerate(self.readers):
            key = (reader.bus, reader.device)
            if key in seen:
                raise ValueError(f"two readers on SPI{reader.bus} CE{reader.device}")
            seen.add(key)
            if key not in CHIP_SELECT_PINS:
                raise ValueError(
                    f"reader {index}: no chip select SPI{reader.bus} CE{reader.device} "
                    "(use SPI0 CE0/CE1 and SPI1 CE0/CE1/CE2)"
                )
            for role, pin in SPI_PINS[reader.bus].items():
                claim(pin, role)
            claim(CHIP_SELECT_PINS[key], f"SPI{reader.bus} CE{reader.device}")
            if reader.rst_pin is not None:
                claim(reader.rst_pin, "RC522 reset")
            if not 100_000 <= reader.spi_hz <= 10_000_000:
                raise ValueError(
                    f"reader {index}: spi_hz is 100000 to 10000000 (the MFRC522's limit), not {reader.spi_hz}")
            if reader.rx_gain_db is not None and reader.rx_gain_db not in RX_GAINS:
                raise ValueError(
                    f"reader {index}: rx_gain_db is one of {sorted(RX_GAINS)} (dB), not {reader.rx_gain_db}")
        for role, pin in self.controls.assigned().items():
            claim(pin, role)
        if self.speaker is not None:
            self.speaker.validate()
            for role, pin in self.speaker.assigned().items():
                claim(pin, role)


def speaker_config(data: Any) -> SpeakerConfig | None:
    """``[hardware] speaker``: a table of :class:`~hardware.speaker.SpeakerConfig` fields, the output
    alone (``speaker = "i2s"``), or ``false`` for none.

    Raises:
        ValueError: anything else, or unknown fields.
    """
    if data is False or data is None:
        return None
    if isinstance(data, SpeakerConfig):
        return data
    if isinstance(data, str):
        return SpeakerConfig(output=data)  # type: ignore[arg-type]
    if isinstance(data, Mapping):
        built: SpeakerConfig = _build(SpeakerConfig, data)
        return built
    raise ValueError(f"speaker is a table such as {{output = \"jack\", volume = 80}}, an output "
                     f"(\"jack\", \"usb\", \"i2s\") or false, not {data!r}")


def _build(cls: Any, data: Any) -> Any:
    if isinstance(data, cls):
        return data
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown {cls.__name__} settings: {sorted(unknown)}; known: {sorted(known)}")
    return cls(**data)


@dataclass
class Emulation:
    """The emulated hardware behind an ``emulated`` table, for tests to act on."""

    chips: list[Any]
    """One :class:`~hardware.emulator.Mfrc522Chip` per reader: ``chips[0].place(card)``."""
    spi: Any
    i2c: Any
    """The :class:`~hardware.emulator.FakeI2cBus`; ``i2c.panels[address].image()`` is what the
    panel shows."""
    pin_factory: Any
    """gpiozero ``MockFactory``: ``pin_factory.pin(5).drive_low()`` presses OK."""
    gpio: Any = None
    """The fake ``RPi.GPIO`` (the readers' RST pins are wired to the chips)."""
    unplugged: dict[str, Any] = field(default_factory=dict)
    """The parts left out (``absent``), by name: ``"reader:1"`` → ``((bus, device), chip)``,
    ``"display"`` → ``(address, panel)``."""
    spi_panel: Any = None
    """The display's :class:`~hardware.emulator.OledPanel` when it is wired to SPI (``interface = "spi"``)."""

    def connect(self, part: str) -> None:
        """Plug in a part that was left out: the table opens it at its next attempt.

        Raises:
            KeyError: ``part`` was not left out.
        """
        where, device = self.unplugged.pop(part)
        if part == "display":
            self.i2c.panels[where] = device
        else:
            self.spi.attach(*where, device)

    @property
    def clock(self) -> Any:
        """The emulated time of the readers and the hub (:class:`~hardware.emulator.VirtualClock`):
        SPI transfers, the driver's sleeps and the hub's pauses move it; ``clock.sleep(1.0)`` lets a
        second pass for the hub's removal time without waiting for it."""
        return self.spi.clock

    @property
    def panel(self) -> Any:
        if self.spi_panel is not None:
            return self.spi_panel
        return next(iter(self.i2c.panels.values()))


@dataclass
class Table:
    """The opened hardware of one table. Close it (or use ``with``) to release every device."""

    mode: Mode
    readers: list[TagReader]
    hub: TagReaderHub
    display: Display
    controls: Controls
    emulation: Emulation | None = None
    speaker: Speaker | None = None
    """The speaker (:mod:`hardware.speaker`), or ``None`` when the table has none."""
    _cleanup: contextlib.ExitStack = field(default_factory=contextlib.ExitStack, repr=False)

    def faults(self) -> dict[str, HardwareError]:
        """The parts that are not working now, by name (``reader:N``, ``display``, ``controls``), each
        with its error (the device, the bus and the fix); empty while every part works."""
        found: dict[str, HardwareError] = {
            f"reader:{health.reader}": health.fault for health in self.hub.health() if health.fault is not None
        }
        for name, part in (("display", self.display), ("controls", self.controls)):
            if isinstance(part, AbsentDisplay | AbsentControls) and part.absent:
                found[name] = part.error
        return found

    def close(self) -> None:
        """Stop polling and release readers, display and controls (in reverse order of opening)."""
        self._cleanup.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


FaultShower = Callable[[Display, HardwareError], None]
"""Draws a lasting fault on the display that did open (``banker run``: the problem in the table's language)."""


def open_table(config: TableConfig | None = None, *, absent: Sequence[str] = (),
               on_lasting_fault: FaultShower | None = None, pi_costs: PiCosts | None = None) -> Table:
    """Open the table's display, readers and controls as ``config.mode`` says.

    The reader hub is created but not started: call ``table.hub.start()`` for background polling,
    or ``table.hub.poll_once()`` in a test. A part that does not open is a stand-in that keeps
    trying (see the module doc); :meth:`Table.faults` says which.

    ``absent`` (emulated tables only, see :func:`check_absent`) leaves parts unplugged. ``pi_costs``
    (emulated tables only) runs the emulated parts on a :class:`~hardware.emulator.clock.PiClock` with a
    Pi's costs (:mod:`hardware.pimodel`): what ``banker bench --table`` measures.

    A lasting fault of a part opened after the display (SPI not enabled, lgpio missing) is raised
    after ``on_lasting_fault(display, error)`` has drawn it; the display is then closed without
    clearing it, so the problem stays on the glass while the program is down.

    Raises:
        ValueError: an invalid configuration (see :meth:`TableConfig.validate`), or ``absent`` names
            a part the table does not have or is not emulated.
        HardwareError: a part with a lasting fault (``error.lasting``).
    """
    config = config or TableConfig()
    config.validate()
    check_absent(config, absent)
    with contextlib.ExitStack() as stack:
        if config.mode == "simulated":
            table = _open_simulated(config, stack)
        elif config.mode == "emulated":
            table = _open_emulated(config, stack, absent, _fault_hook(on_lasting_fault), pi_costs)
        else:
            table = _open_pi(config, stack, _fault_hook(on_lasting_fault))
        table._cleanup = stack.pop_all()
        return table


def _fault_hook(show: FaultShower | None) -> Callable[[Display, HardwareError], None]:
    def hook(display: Display, error: HardwareError) -> None:
        if show is None or isinstance(display, AbsentDisplay) and display.absent:
            return
        try:
            show(display, error)
        except HardwareError as failure:
            log.warning("the display could not show the fault: %s", failure)
            return
        close_keeping_picture(display)  # the table's own close of it then does nothing

    return hook


def close_keeping_picture(display: Display) -> None:
    """Close a display and leave its last picture on the glass (luma's cleanup would blank it)."""
    closer: Any = getattr(display, "close", None)
    if closer is None:
        return
    try:
        closer(clear=False)
    except TypeError:
        closer()


def _after_display(display: Display, hook: Callable[[Display, HardwareError], None],
                   open_rest: Callable[[], Table]) -> Table:
    """``open_rest()``; a lasting fault it raises is shown on ``display`` first."""
    try:
        return open_rest()
    except HardwareError as error:
        if error.lasting:
            hook(display, error)
        raise


def absent_parts(config: TableConfig) -> tuple[str, ...]:
    """The names :func:`check_absent` knows for this table: ``reader:0`` … and ``display``."""
    return (*(f"reader:{index}" for index in range(len(config.readers))), "display")


def check_absent(config: TableConfig, absent: Sequence[str]) -> None:
    """Check the parts to leave out of an emulated table: ``reader:N`` (N counts from 0, as in the
    ``readers`` list) and ``display``.

    Raises:
        ValueError: a part this table does not have, or parts left out of a table that is not emulated.
    """
    if absent and config.mode != "emulated":
        raise ValueError("only an emulated table can leave parts out (--emulated)")
    known = absent_parts(config)
    for part in absent:
        if part not in known:
            raise ValueError(f"no part {part!r} to leave out; this table has {', '.join(known)}")


def _hub(
    config: TableConfig, readers: Sequence[TagReader], stack: contextlib.ExitStack, clock: Any | None = None
) -> TagReaderHub:
    timing: dict[str, Any] = {} if clock is None else {"clock": clock.monotonic, "idle": clock.sleep}
    hub = TagReaderHub(
        readers,
        misses_to_remove=config.misses_to_remove,
        interval_s=config.poll_interval_s,
        remove_after_s=config.remove_after_s,
        cooldown_s=config.same_card_cooldown_s,
        **timing,
    )
    for index, reader in enumerate(readers):
        if isinstance(reader, AbsentReader):
            hub.faults[index] = reader.error  # in the fault list from the start, as a reader that stopped
    stack.callback(hub.close)
    return hub


def _open_simulated(config: TableConfig, stack: contextlib.ExitStack) -> Table:
    readers: list[TagReader] = [SimulatedReader(misses_to_remove=config.misses_to_remove) for _ in config.readers]
    hub = _hub(config, readers, stack)
    display = SimulatedDisplay(rotate=config.display.rotate)
    stack.callback(display.close)
    controls = SimulatedControls()
    stack.callback(controls.close)
    return Table("simulated", readers, hub, display, controls, speaker=SimulatedSpeaker())


def _open_pi(config: TableConfig, stack: contextlib.ExitStack,
             hook: Callable[[Display, HardwareError], None] = lambda display, error: None) -> Table:
    display = _display_or_stand_in(lambda: _open_oled(config), stack)

    def rest() -> Table:
        readers = _open_readers(config, stack)
        hub = _hub(config, readers, stack)
        controls = _controls_or_stand_in(config, stack)
        return Table("pi", readers, hub, display, controls, speaker=open_speaker(config))

    return _after_display(display, hook, rest)


def open_speaker(config: TableConfig) -> EspeakSpeaker | None:
    """espeak-ng and aplay on the configured ALSA device, or ``None`` when the table has no speaker.
    Missing programs do not stop the table (it plays on silently; the log and ``banker check`` say
    what to install)."""
    settings = config.speaker
    if settings is None:
        return None
    speaker = EspeakSpeaker(device=settings.device, rate=settings.rate)
    missing = speaker.missing()
    if missing:
        log.error("the speaker needs %s: sudo apt install espeak-ng alsa-utils; the table plays on silently",
                  " and ".join(missing))
    return speaker


def _display_or_stand_in(opener: Callable[[], Display], stack: contextlib.ExitStack,
                         clock: Callable[[], float] | None = None) -> Display:
    """The display, or a stand-in that keeps trying to open it (``opener`` raises its error)."""
    try:
        display: Display = opener()
    except HardwareError as error:
        if error.lasting:
            raise
        log.error("%s; the table starts without it and tries it again every %g s", error, RETRY_S)
        display = AbsentDisplay(opener, error, clock=clock or time.monotonic)
    stack.callback(display.close)
    return display


def _controls_or_stand_in(config: TableConfig, stack: contextlib.ExitStack) -> Controls:
    """Buttons, buzzer and LEDs on the Pi, or a stand-in that keeps trying to open them."""
    factories: list[Any] = []

    def opener() -> Controls:
        controls, factory = open_controls(config)
        if factory is not None:
            factories.append(factory)
        return controls

    def close_factories() -> None:
        for factory in factories:
            factory.close()

    stack.callback(close_factories)
    try:
        controls = opener()
    except HardwareError as error:
        if error.lasting:
            raise
        log.error("%s; the table starts without them and tries them again every %g s", error, RETRY_S)
        controls = AbsentControls(opener, error)
    stack.callback(controls.close)
    return controls


def open_reader(config: TableConfig, index: int) -> Mfrc522Reader:
    """The MFRC522 driver of reader ``index`` on the Pi, opened on its own (for ``banker check``).

    Raises:
        hardware.errors.NfcReaderError: the reader cannot be opened; the message says why and the fix.
    """
    reader_config = config.readers[index]
    return Mfrc522Reader(
        bus=reader_config.bus,
        device=reader_config.device,
        rst_pin=reader_config.rst_pin,
        rx_gain_db=reader_config.rx_gain_db,
        speed_hz=reader_config.spi_hz,
        name=f"NFC reader {index} (MFRC522)",
        number=index,
    )


def open_display(config: TableConfig) -> Oled:
    """The OLED on the Pi, opened on its own.

    Raises:
        hardware.errors.DisplayError: I²C is off, not permitted, or nothing answers at the address.
    """
    return _open_oled(config)


def open_controls(config: TableConfig) -> tuple[GpioControls, Any]:
    """Buttons, buzzer and LEDs on the Pi, opened on their own; also the pin factory, to close after them.

    Raises:
        hardware.errors.ControlsError: the pin factory or a pin cannot be used.
    """
    factory = make_pin_factory(config.pin_factory)
    try:
        return GpioControls(config.controls, pin_factory=factory, hold_time=config.hold_time_s,
                            stuck_time=config.stuck_time_s), factory
    except BaseException:
        if factory is not None:
            factory.close()
        raise


def _open_readers(config: TableConfig, stack: contextlib.ExitStack,
                  clock: Callable[[], float] | None = None) -> list[TagReader]:
    """One MFRC522 driver per configured reader, each closed with the table; a reader that does not
    open is a stand-in that raises its error and keeps trying (the hub lists it as faulty)."""
    readers: list[TagReader] = []
    for index in range(len(config.readers)):
        try:
            reader: TagReader = open_reader(config, index)
        except HardwareError as error:
            if error.lasting:
                raise
            log.error("%s; the table starts without it and tries it again every %g s", error, RETRY_S)
            reader = AbsentReader(lambda index=index: open_reader(config, index), error,  # type: ignore[misc]
                                  clock=clock or time.monotonic)
        stack.callback(reader.close)
        readers.append(reader)
    return readers


def _open_oled(config: TableConfig, bus: Any | None = None) -> Oled:
    settings = config.display
    spi = None
    if settings.interface == "spi":
        spi = SpiWiring(settings.spi_bus, settings.spi_device, settings.dc_pin, settings.reset_pin,
                        settings.spi_clock_hz())
    device = open_luma_device(
        chip=settings.chip,
        port=settings.port,
        address=settings.address,
        rotate=settings.rotate,
        bus=bus,
        page_address_offset=settings.page_address_offset,
        spi=spi,
    )
    return Oled(
        device=device, chip=settings.chip, port=settings.port, address=settings.address, contrast=settings.contrast,
        spi=spi,
    )


def _open_emulated(config: TableConfig, stack: contextlib.ExitStack, absent: Sequence[str] = (),
                   hook: Callable[[Display, HardwareError], None] = lambda display, error: None,
                   pi_costs: PiCosts | None = None) -> Table:
    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

    from hardware.emulator import (
        FakeGpio,
        FakeI2cBus,
        FakeSpiBus,
        Mfrc522Chip,
        OledPanel,
        SpiOledPanel,
        emulated_pi,
        managed_smbus2,
    )

    if pi_costs is None:
        spi = FakeSpiBus()
    else:
        from hardware.emulator.clock import PiClock

        spi = FakeSpiBus(clock=PiClock(cpu_factor=pi_costs.cpu_factor, sleep_overshoot_s=pi_costs.sleep_overshoot_s,
                                       sleep_cpu_s=pi_costs.sleep_cpu_s),
                         transfer_overhead_s=pi_costs.spi_message_s, segment_overhead_s=pi_costs.spi_segment_s)
    gpio = FakeGpio()
    chips = []
    unplugged: dict[str, Any] = {}
    for index, reader_config in enumerate(config.readers):
        chip = Mfrc522Chip()
        where = (reader_config.bus, reader_config.device)
        if f"reader:{index}" in absent:
            spi.attach(*where, None)  # the node exists, nothing answers: MISO reads zeros
            unplugged[f"reader:{index}"] = (where, chip)
        else:
            spi.attach(*where, chip)
        if reader_config.rst_pin is not None:
            gpio.wire(reader_config.rst_pin, chip.set_reset_level)
        chips.append(chip)
    stack.enter_context(emulated_pi(spi, gpio))
    settings = config.display
    panel = OledPanel(settings.chip, column_offset=settings.page_address_offset if settings.chip == "sh1106" else 0)
    if settings.interface == "spi":
        wired = SpiOledPanel(panel, gpio.levels, settings.dc_pin, speed_hz=settings.spi_clock_hz())
        spi.attach(settings.spi_bus, settings.spi_device, None if "display" in absent else wired)
        if settings.reset_pin is not None:
            gpio.wire(settings.reset_pin, wired.set_reset_level)
    i2c = FakeI2cBus({} if "display" in absent or settings.interface == "spi" else {settings.address: panel},
                     clock=spi.clock,
                     clock_hz=settings.bus_hz,
                     transaction_overhead_s=pi_costs.i2c_transaction_s if pi_costs is not None else 0.0)
    if "display" in absent:
        unplugged["display"] = (settings.address, panel)

    def open_display() -> Display:
        with managed_smbus2(i2c, ports=(settings.port,)):
            return _open_oled(config)

    display = _display_or_stand_in(open_display, stack, spi.clock.monotonic)

    def rest() -> Table:
        readers = _open_readers(config, stack, spi.clock.monotonic)
        hub = _hub(config, readers, stack, spi.clock)
        factory = MockFactory()
        stack.callback(factory.close)
        controls = GpioControls(config.controls, pin_factory=factory, hold_time=config.hold_time_s,
                                stuck_time=config.stuck_time_s)
        stack.callback(controls.close)
        emulation = Emulation(chips=chips, spi=spi, i2c=i2c, pin_factory=factory, gpio=gpio, unplugged=unplugged,
                              spi_panel=panel if settings.interface == "spi" else None)
        speaker = SimulatedSpeaker() if config.speaker is not None else None
        return Table("emulated", readers, hub, display, controls, emulation, speaker=speaker)

    return _after_display(display, hook, rest)
