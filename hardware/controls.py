"""Buttons or a rotary encoder, a buzzer and status LEDs, through gpiozero.

The firmware sees four inputs, ``ok``, ``cancel``, ``up`` and ``down``, as :class:`ControlEvent`
values in one thread-safe queue (gpiozero calls back from its own threads):

- OK and Cancel report on release; held past ``hold_time`` they report once, as a long press, and
  their release is then swallowed;
- Up and Down report on press and repeat while held;
- a rotary encoder reports each detent as ``up`` (clockwise) or ``down``; its push switch is wired
  as OK;
- a button held down for :data:`STUCK_S` is stuck (a jammed key, a wire shorted to ground): it reports
  ``ControlEvent(name, stuck=True)`` once and nothing else until it is released, which reports
  ``stuck=False``; the other buttons keep working meanwhile.

Pins are BCM numbers; buttons connect the pin to GND (the Pi's internal pull-ups are used).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.errors import ControlsError
from hardware.protocols import BUTTONS, BeepKind, ButtonName, ControlEvent, LedState

HOLD_TIME_S = 1.0
"""How long OK or Cancel must be held to count as a long press."""
REPEAT_S = 0.3
"""Auto-repeat period of Up/Down while held."""
STUCK_S = 10.0
"""A button held down this long is stuck: nobody holds a button that long on purpose (a long press
is :data:`HOLD_TIME_S`), and a stuck OK would otherwise open setup once and then be dead."""
BOUNCE_TIME_S = 0.02
BEEPS: dict[str, tuple[float, float, int]] = {
    "confirm": (0.06, 0.0, 1),
    "attention": (0.05, 0.07, 2),
    "error": (0.12, 0.08, 3),
}
"""Buzzer patterns: (on seconds, off seconds, repetitions)."""
TONES: dict[str, float] = {"confirm": 1318.5, "attention": 1046.5, "error": 523.25}
"""A passive buzzer's pitch for each pattern, in Hz (E6, C6, C5): inside the 440-1760 Hz range of
gpiozero's ``TonalBuzzer`` around A5."""
BUZZER_KINDS = ("active", "passive")
LED_STATES = ("on", "off", "blink")


def next_event(events: queue.Queue[ControlEvent], timeout: float | None) -> ControlEvent | None:
    """The next button event: at once with ``timeout=0``, else waiting up to ``timeout`` (None: forever)."""
    try:
        if timeout == 0:
            return events.get_nowait()
        return events.get(timeout=timeout)
    except queue.Empty:
        return None


@dataclass(frozen=True)
class ControlPins:
    """Which BCM GPIO each control is wired to. The defaults match hardware/README.md.

    Use either ``up``/``down`` buttons or ``encoder_a``/``encoder_b``; set the others to ``None``
    (:meth:`with_encoder` does that).
    """

    ok: int = 5
    cancel: int = 6
    up: int | None = 13
    down: int | None = 26
    encoder_a: int | None = None
    encoder_b: int | None = None
    buzzer: int | None = 12
    buzzer_active_high: bool = True
    """``False`` sounds the buzzer while the pin is low. Use a high-level-trigger module instead (see
    hardware/README.md): a low-level one sounds from boot until the table starts, and at 5 V it
    cannot be switched off by a 3.3 V pin at all."""
    buzzer_kind: str = "active"
    """``"active"``: a buzzer module with its own oscillator, switched on and off. ``"passive"``: a
    bare piezo or passive module, driven with PWM tones (a pitch per pattern: :data:`TONES`)."""
    leds: tuple[tuple[str, int], ...] = (("green", 23), ("red", 24))
    """Optional status LEDs as (name, pin); the firmware switches them by name."""

    @classmethod
    def with_encoder(cls, a: int = 13, b: int = 26, **others: Any) -> ControlPins:
        """Pins for a rotary encoder (A, B) instead of Up/Down; its push switch goes to ``ok``."""
        return cls(up=None, down=None, encoder_a=a, encoder_b=b, **others)

    def assigned(self) -> dict[str, int]:
        """Every wired role and its pin, e.g. ``{"ok": 5, ..., "led green": 23}``."""
        roles: dict[str, int | None] = {
            "ok": self.ok,
            "cancel": self.cancel,
            "up": self.up,
            "down": self.down,
            "encoder A": self.encoder_a,
            "encoder B": self.encoder_b,
            "buzzer": self.buzzer,
        }
        roles.update({f"led {name}": pin for name, pin in self.leds})
        return {role: pin for role, pin in roles.items() if pin is not None}

    def validate(self) -> None:
        """Check the pin plan for mistakes a soldering iron would make permanent.

        Raises:
            ValueError: a pin is used twice, is not a header GPIO, or both (or neither) of
                Up/Down and the encoder are configured.
        """
        seen: dict[int, str] = {}
        for role, pin in self.assigned().items():
            if not 0 <= pin <= 27:
                raise ValueError(f"{role}: GPIO{pin} is not on the 40-pin header (GPIO0-27)")
            if pin in seen:
                raise ValueError(f"GPIO{pin} is assigned to both {seen[pin]} and {role}")
            seen[pin] = role
        if self.buzzer_kind not in BUZZER_KINDS:
            raise ValueError(f"buzzer_kind is one of {BUZZER_KINDS}, not {self.buzzer_kind!r}")
        buttons = self.up is not None or self.down is not None
        encoder = self.encoder_a is not None or self.encoder_b is not None
        if buttons == encoder:
            raise ValueError("configure either Up/Down buttons or a rotary encoder (A and B), not both or neither")
        if buttons and (self.up is None or self.down is None):
            raise ValueError("Up and Down buttons come as a pair: set both pins")
        if encoder and (self.encoder_a is None or self.encoder_b is None):
            raise ValueError("a rotary encoder needs both A and B pins")


def make_pin_factory(name: str | None) -> Any:
    """A gpiozero pin factory by name: ``"lgpio"`` (every Pi, the only one that works on a Pi 5),
    ``"rpigpio"``, ``"mock"`` (no hardware), or ``None`` for gpiozero's own choice.

    Raises:
        ControlsError: the factory's library is missing or cannot open the GPIO chip.
        ValueError: an unknown name.
    """
    if name is None:
        return None
    where = "GPIO (gpiozero pin factory)"
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory  # type: ignore[import-untyped]

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory  # type: ignore[import-untyped]

            return RPiGPIOFactory()
    except ImportError as error:
        raise ControlsError(
            f"{name} pin factory",
            where,
            f"its library is not installed ({error})",
            "sudo apt install python3-lgpio, in a venv made with --system-site-packages so that it sees it "
            "(sudo ./firmware/install.sh does both); off a Pi, use the simulated table",
            lasting=True, key="factory_missing", fix_key="factory_missing_fix", values={"error": str(error)},
            part="controls",
        ) from error
    except Exception as error:  # lgpio.error, RuntimeError: the GPIO chip cannot be opened
        if ".lgd-nfy" in str(error):
            # lgpio creates its notification pipes (.lgd-nfy*) in the current directory when it is
            # imported (joan2937/lg#22, gpiozero#1106): the directory is not writable.
            raise ControlsError(
                f"{name} pin factory",
                where,
                f"lgpio cannot create its notification pipe in the current directory {os.getcwd()} ({error})",
                "run the table from a directory its user may write to: WorkingDirectory= in the systemd unit "
                "(firmware/table-banker.service uses its StateDirectory), or set LG_WD to such a directory; "
                "this is not a gpio group problem",
                lasting=True, key="lgpio_pipe_in", fix_key="lgpio_pipe_unit_fix",
                values={"directory": os.getcwd(), "error": str(error)}, part="controls",
            ) from error
        raise ControlsError(
            f"{name} pin factory",
            where,
            f"cannot open the GPIO chip ({error})",
            "run on a Raspberry Pi as a user in the gpio group (sudo usermod -aG gpio $USER), "
            "or use the simulated table elsewhere",
            lasting=True, key="gpio_chip", fix_key="gpio_chip_fix", values={"error": str(error)}, part="controls",
        ) from error
    raise ValueError(f"pin factory is one of 'lgpio', 'rpigpio', 'mock' or None, not {name!r}")


@dataclass
class _ButtonState:
    held: bool = False
    stuck: bool = False
    timer: threading.Timer | None = None


class GpioControls:
    """The table's buttons (or encoder), buzzer and LEDs on real GPIO pins via gpiozero.

    ``pin_factory`` is passed to every gpiozero device (``None`` = gpiozero's default). Tests pass
    ``gpiozero.pins.mock.MockFactory()`` and press a button with ``pin.drive_low()``.

    Raises:
        ValueError: an invalid pin plan (see :meth:`ControlPins.validate`).
        ControlsError: a pin cannot be claimed (in use, no GPIO access, no pin factory).
    """

    def __init__(
        self,
        pins: ControlPins | None = None,
        *,
        pin_factory: Any | None = None,
        hold_time: float = HOLD_TIME_S,
        repeat_time: float = REPEAT_S,
        bounce_time: float | None = BOUNCE_TIME_S,
        encoder_reversed: bool = False,
        stuck_time: float = STUCK_S,
    ) -> None:
        from gpiozero import LED, Button, Buzzer, RotaryEncoder, TonalBuzzer  # type: ignore[import-untyped]
        from gpiozero.tones import Tone  # type: ignore[import-untyped]

        self.pins = pins or ControlPins()
        self.pins.validate()
        self.events: queue.Queue[ControlEvent] = queue.Queue()
        self.buttons: dict[ButtonName, Any] = {}
        self.leds: dict[str, Any] = {}
        self.buzzer: Any | None = None
        self.encoder: Any | None = None
        self._devices: list[Any] = []
        self._states: dict[ButtonName, _ButtonState] = {}
        self._tone: Any | None = None
        self._lock = threading.Lock()
        self.stuck_time = stuck_time
        self.closed = False
        try:
            button_pins: dict[ButtonName, int | None] = {
                "ok": self.pins.ok,
                "cancel": self.pins.cancel,
                "up": self.pins.up,
                "down": self.pins.down,
            }
            for name, pin in button_pins.items():
                if pin is None:
                    continue
                repeating = name in ("up", "down")
                button = self._claim(
                    f"{name} button",
                    pin,
                    Button,
                    pull_up=True,
                    bounce_time=bounce_time,
                    hold_time=repeat_time if repeating else hold_time,
                    hold_repeat=repeating,
                    pin_factory=pin_factory,
                )
                self._wire_button(name, button, repeating)
            if self.pins.encoder_a is not None and self.pins.encoder_b is not None:
                a, b = self.pins.encoder_a, self.pins.encoder_b
                if encoder_reversed:
                    a, b = b, a
                self.encoder = self._claim("rotary encoder", a, RotaryEncoder, b, max_steps=0, pin_factory=pin_factory)
                self.encoder.when_rotated_clockwise = self._put_factory("up")
                self.encoder.when_rotated_counter_clockwise = self._put_factory("down")
            if self.pins.buzzer is not None and self.pins.buzzer_kind == "passive":
                self.buzzer = self._claim(
                    "buzzer", self.pins.buzzer, TonalBuzzer, mid_tone=Tone("A5"), octaves=1, pin_factory=pin_factory
                )
                self._tone = Tone
            elif self.pins.buzzer is not None:
                self.buzzer = self._claim(
                    "buzzer",
                    self.pins.buzzer,
                    Buzzer,
                    active_high=self.pins.buzzer_active_high,
                    pin_factory=pin_factory,
                )
            for led_name, pin in self.pins.leds:
                self.leds[led_name] = self._claim(f"{led_name} LED", pin, LED, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def _claim(self, role: str, pin: int, device_class: Any, *args: Any, **kwargs: Any) -> Any:
        from gpiozero import GPIOZeroError

        try:
            device = device_class(pin, *args, **kwargs)
        except GPIOZeroError as error:
            kind = type(error).__name__
            if kind == "GPIOPinInUse":
                fix_key = "pin_twice_fix"
                fix = f"GPIO{pin} is claimed twice: check the pin plan, and that no other program uses it"
            elif kind in ("BadPinFactory", "PinFactoryFallback"):
                fix_key, fix = "factory_fix", (
                    "install the lgpio pin factory (sudo apt install python3-lgpio) and set "
                    "GPIOZERO_PIN_FACTORY=lgpio; on a laptop use the simulated table"
                )
            else:
                fix_key = "pin_exists_fix"
                fix = f"check that GPIO{pin} exists on this board and the user is in the gpio group"
            raise ControlsError(role, f"GPIO{pin}", f"gpiozero: {kind}: {error}", fix, key="gpiozero",
                                fix_key=fix_key, values={"kind": kind, "error": str(error), "pin": pin},
                                part="controls") from error
        except Exception as error:  # lgpio.error: 'GPIO busy' when another process holds the line
            if "busy" not in str(error).lower():
                raise
            raise ControlsError(
                role,
                f"GPIO{pin}",
                f"the pin is busy ({error})",
                "another program holds it: stop the table first (sudo systemctl stop table-banker), then run this "
                "again",
                key="pin_busy", fix_key="pin_held_fix", values={"error": str(error), "pin": pin}, part="controls",
            ) from error
        self._devices.append(device)
        return device

    def _put_factory(self, name: ButtonName, long: bool = False) -> Callable[[], None]:
        def put() -> None:
            self.events.put(ControlEvent(name, long))

        return put

    def _wire_button(self, name: ButtonName, button: Any, repeating: bool) -> None:
        state = self._states[name] = _ButtonState()
        self.buttons[name] = button

        def put(long: bool = False) -> None:
            if not state.stuck:
                self.events.put(ControlEvent(name, long))

        def watch() -> None:
            # Started at each press, cancelled at its release: still down when it fires means stuck.
            with self._lock:
                if state.timer is None or self.closed or not button.is_pressed:
                    return
                state.timer = None
                state.stuck = True
            self.events.put(ControlEvent(name, stuck=True))

        def pressed() -> None:
            state.held = False
            with self._lock:
                if state.timer is not None:
                    state.timer.cancel()
                state.timer = threading.Timer(self.stuck_time, watch)
                state.timer.daemon = True
                state.timer.name = f"{name}-stuck-watch"
                state.timer.start()
            if repeating:
                put()

        def held() -> None:
            if repeating:
                put()
                return
            if not state.stuck and not state.held:
                state.held = True
                put(long=True)

        def released() -> None:
            with self._lock:
                if state.timer is not None:
                    state.timer.cancel()
                    state.timer = None
                was_stuck, state.stuck = state.stuck, False
            if was_stuck:
                self.events.put(ControlEvent(name, stuck=False))
            elif not state.held and not repeating:
                self.events.put(ControlEvent(name))
            state.held = False

        button.when_pressed = pressed
        button.when_held = held
        button.when_released = released

    def stuck(self) -> tuple[ButtonName, ...]:
        """The buttons held down past :data:`STUCK_S` and not released since (ignored meanwhile)."""
        return tuple(name for name, state in self._states.items() if state.stuck)

    # Controls protocol -------------------------------------------------------------------------

    def get_event(self, timeout: float | None = 0.0) -> ControlEvent | None:
        return next_event(self.events, timeout)

    def beep(self, kind: BeepKind = "confirm", *, wait: bool = False) -> None:
        """Sound a pattern (``confirm``, ``attention``, ``error``); ``wait=True`` blocks until done.

        Raises:
            ValueError: unknown pattern.
        """
        if kind not in BEEPS:
            raise ValueError(f"beep is one of {sorted(BEEPS)}, not {kind!r}")
        if self.buzzer is None:
            return
        on_time, off_time, count = BEEPS[kind]
        if self._tone is None:
            self.buzzer.beep(on_time=on_time, off_time=off_time, n=count, background=not wait)
            return
        tone = self._tone.from_frequency(TONES[kind])

        def play() -> None:
            buzzer = self.buzzer
            for index in range(count):
                if self.closed or buzzer is None:
                    return
                buzzer.play(tone)
                time.sleep(on_time)
                buzzer.stop()
                if index < count - 1:
                    time.sleep(off_time)

        if wait:
            play()
        else:
            threading.Thread(target=play, name="buzzer", daemon=True).start()

    def set_led(self, name: str, state: LedState) -> None:
        if state not in LED_STATES:
            raise ValueError(f"LED state is one of {LED_STATES}, not {state!r}")
        led = self.leds.get(name)
        if led is None:
            return
        if state == "on":
            led.on()
        elif state == "off":
            led.off()
        else:
            led.blink(on_time=0.5, off_time=0.5, background=True)

    def close(self) -> None:
        """Release every pin (in reverse order of claiming)."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            for state in self._states.values():
                if state.timer is not None:
                    state.timer.cancel()
                    state.timer = None
            for device in reversed(self._devices):
                device.close()
            self._devices.clear()

    def __enter__(self) -> GpioControls:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass
class SimulatedControls:
    """Controls for the simulated table: :meth:`press` a button, :meth:`rotate` the encoder; beeps
    and LED states are recorded for the browser mirror and for tests."""

    events: queue.Queue[ControlEvent] = field(default_factory=queue.Queue)
    beeps: list[BeepKind] = field(default_factory=list)
    leds: dict[str, LedState] = field(default_factory=dict)
    closed: bool = False

    def press(self, button: ButtonName, *, long: bool = False) -> None:
        """Press and release a button; ``long=True`` holds it past the hold time.

        Raises:
            ValueError: not one of ``ok``, ``cancel``, ``up``, ``down``.
        """
        if button not in BUTTONS:
            raise ValueError(f"button is one of {BUTTONS}, not {button!r}")
        self.events.put(ControlEvent(button, long))

    def long_press(self, button: ButtonName) -> None:
        self.press(button, long=True)

    def rotate(self, steps: int) -> None:
        """Turn the encoder: positive steps are clockwise (``up``), negative ``down``."""
        for _ in range(abs(steps)):
            self.events.put(ControlEvent("up" if steps > 0 else "down"))

    def get_event(self, timeout: float | None = 0.0) -> ControlEvent | None:
        return next_event(self.events, timeout)

    def beep(self, kind: BeepKind = "confirm") -> None:
        if kind not in BEEPS:
            raise ValueError(f"beep is one of {sorted(BEEPS)}, not {kind!r}")
        self.beeps.append(kind)

    def set_led(self, name: str, state: LedState) -> None:
        if state not in LED_STATES:
            raise ValueError(f"LED state is one of {LED_STATES}, not {state!r}")
        self.leds[name] = state

    def close(self) -> None:
        self.closed = True
