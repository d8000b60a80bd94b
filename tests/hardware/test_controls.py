"""GpioControls through gpiozero's own MockFactory: a press is ``pin.drive_low()``."""

from __future__ import annotations

import time
from typing import Any

import pytest
from gpiozero import Button  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from hardware.controls import BEEPS, ControlPins, GpioControls, SimulatedControls, make_pin_factory
from hardware.errors import ControlsError
from hardware.protocols import ControlEvent, Controls


def press(controls: GpioControls, name: str) -> None:
    pin = controls.buttons[name].pin  # type: ignore[index]
    pin.drive_low()
    pin.drive_high()


def drain(controls: GpioControls | SimulatedControls) -> list[ControlEvent]:
    events = []
    while (event := controls.get_event()) is not None:
        events.append(event)
    return events


def test_ok_and_cancel_report_on_release(pin_factory: MockFactory) -> None:
    with GpioControls(pin_factory=pin_factory) as controls:
        assert isinstance(controls, Controls)
        ok = controls.buttons["ok"].pin
        ok.drive_low()
        assert drain(controls) == []
        ok.drive_high()
        press(controls, "cancel")
        assert drain(controls) == [ControlEvent("ok"), ControlEvent("cancel")]


def test_the_default_pins_are_the_ones_in_the_wiring_table(pin_factory: MockFactory) -> None:
    with GpioControls(pin_factory=pin_factory) as controls:
        pins = {name: button.pin.info.name for name, button in controls.buttons.items()}
        assert pins == {"ok": "GPIO5", "cancel": "GPIO6", "up": "GPIO13", "down": "GPIO26"}
        assert controls.buzzer is not None
        assert controls.buzzer.pin.info.name == "GPIO12"
        assert {name: led.pin.info.name for name, led in controls.leds.items()} == {"green": "GPIO23", "red": "GPIO24"}


def test_holding_ok_is_one_long_press_and_its_release_is_swallowed(pin_factory: MockFactory) -> None:
    with GpioControls(pin_factory=pin_factory, hold_time=0.05) as controls:
        ok = controls.buttons["ok"].pin
        ok.drive_low()
        assert controls.get_event(timeout=5) == ControlEvent("ok", long=True)
        time.sleep(0.15)  # held on, past further hold periods: still one event
        ok.drive_high()
        assert drain(controls) == []
        press(controls, "ok")
        assert drain(controls) == [ControlEvent("ok")]


def test_a_button_held_down_past_the_stuck_time_is_stuck_and_ignored_until_released(
    pin_factory: MockFactory,
) -> None:
    with GpioControls(pin_factory=pin_factory, hold_time=0.05, repeat_time=0.03, stuck_time=0.3) as controls:
        ok, down = controls.buttons["ok"].pin, controls.buttons["down"].pin
        ok.drive_low()
        down.drive_low()
        assert controls.get_event(timeout=5) in (ControlEvent("down"), ControlEvent("ok", long=True))
        time.sleep(0.5)
        events = drain(controls)
        assert ControlEvent("ok", stuck=True) in events and ControlEvent("down", stuck=True) in events
        for name in ("ok", "down"):
            # Nothing more of a button once it is stuck (the other, pressed a moment later, may still
            # repeat until its own stuck time is up).
            after = events[events.index(ControlEvent(name, stuck=True)) + 1 :]
            assert [event for event in after if event.button == name] == []
        assert set(controls.stuck()) == {"ok", "down"}
        time.sleep(0.2)
        assert drain(controls) == []  # stuck: no repeats, no second long press
        press(controls, "cancel")
        assert drain(controls) == [ControlEvent("cancel")]  # the others work meanwhile
        ok.drive_high()
        down.drive_high()
        assert drain(controls) == [ControlEvent("ok", stuck=False), ControlEvent("down", stuck=False)]
        assert controls.stuck() == ()
        press(controls, "ok")
        assert drain(controls) == [ControlEvent("ok")]


def test_up_and_down_report_on_press_and_repeat_while_held(pin_factory: MockFactory) -> None:
    with GpioControls(pin_factory=pin_factory, repeat_time=0.03) as controls:
        down = controls.buttons["down"].pin
        down.drive_low()
        assert controls.get_event() == ControlEvent("down")
        assert controls.get_event(timeout=5) == ControlEvent("down")
        assert controls.get_event(timeout=5) == ControlEvent("down")
        down.drive_high()
        time.sleep(0.1)  # a repeat already under way when the button was let go may still arrive
        assert set(drain(controls)) <= {ControlEvent("down")}
        press(controls, "up")
        assert controls.get_event() == ControlEvent("up")


def turn(factory: MockFactory, clockwise: bool, a: int = 13, b: int = 26) -> None:
    """One detent of the knob wired to A=GPIO13, B=GPIO26: A leads B clockwise (11, 01, 00, 10, 11)."""
    first, second = (factory.pin(a), factory.pin(b)) if clockwise else (factory.pin(b), factory.pin(a))
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def test_a_rotary_encoder_turns_into_up_and_down(pin_factory: MockFactory) -> None:
    with GpioControls(ControlPins.with_encoder(a=13, b=26), pin_factory=pin_factory) as controls:
        assert set(controls.buttons) == {"ok", "cancel"}
        turn(pin_factory, clockwise=True)
        turn(pin_factory, clockwise=True)
        turn(pin_factory, clockwise=False)
        assert drain(controls) == [ControlEvent("up"), ControlEvent("up"), ControlEvent("down")]
        press(controls, "ok")  # the encoder's push switch
        assert drain(controls) == [ControlEvent("ok")]


def test_a_reversed_encoder_swaps_the_direction(pin_factory: MockFactory) -> None:
    with GpioControls(ControlPins.with_encoder(), pin_factory=pin_factory, encoder_reversed=True) as controls:
        turn(pin_factory, clockwise=True)
        assert drain(controls) == [ControlEvent("down")]


@pytest.mark.parametrize("kind", ["confirm", "attention", "error"])
def test_beep_patterns_on_the_buzzer_pin(pin_factory: MockFactory, kind: str) -> None:
    with GpioControls(pin_factory=pin_factory) as controls:
        assert controls.buzzer is not None
        pin = controls.buzzer.pin
        pin.clear_states()
        controls.beep(kind, wait=True)  # type: ignore[arg-type]
        states = [state.state for state in pin.states]
        _, _, count = BEEPS[kind]
        assert states == [False] + [True, False] * count


def test_a_low_level_trigger_buzzer_sounds_while_the_pin_is_low(pin_factory: MockFactory) -> None:
    with GpioControls(ControlPins(buzzer_active_high=False), pin_factory=pin_factory) as controls:
        assert controls.buzzer is not None
        pin = controls.buzzer.pin
        assert pin.state is True  # silent
        pin.clear_states()
        controls.beep("confirm", wait=True)
        assert [state.state for state in pin.states] == [True, False, True]


def test_an_unknown_beep_is_refused(pin_factory: MockFactory) -> None:
    with GpioControls(pin_factory=pin_factory) as controls, pytest.raises(ValueError, match="beep"):
        controls.beep("fanfare")  # type: ignore[arg-type]


def test_leds_switch_by_name(pin_factory: MockFactory) -> None:
    with GpioControls(pin_factory=pin_factory) as controls:
        green = controls.leds["green"].pin
        controls.set_led("green", "on")
        assert green.state
        controls.set_led("green", "off")
        assert not green.state
        controls.set_led("green", "blink")  # starts on, in gpiozero's background thread
        deadline = time.monotonic() + 5
        while not green.state and time.monotonic() < deadline:
            time.sleep(0.001)
        assert green.state
        controls.set_led("green", "off")
        assert not green.state
        controls.set_led("blue", "on")  # no such LED on this table: ignored
        with pytest.raises(ValueError, match="LED state"):
            controls.set_led("green", "dim")  # type: ignore[arg-type]


def test_close_releases_every_pin(pin_factory: MockFactory) -> None:
    controls = GpioControls(pin_factory=pin_factory)
    controls.close()
    for pin in (5, 6, 12, 13, 23, 24, 26):
        Button(pin, pin_factory=pin_factory).close()


def test_a_pin_already_in_use_is_a_controls_error_naming_it(pin_factory: MockFactory) -> None:
    blocker = Button(6, pin_factory=pin_factory)
    try:
        with pytest.raises(ControlsError, match="GPIO6 is claimed twice") as raised:
            GpioControls(pin_factory=pin_factory)
        assert raised.value.device == "cancel button"
        Button(5, pin_factory=pin_factory).close()  # what was claimed before the failure was released
    finally:
        blocker.close()


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        (ControlPins(ok=5, cancel=5), "GPIO5 is assigned to both ok and cancel"),
        (ControlPins(up=None, down=None), "either Up/Down buttons or a rotary encoder"),
        (ControlPins(encoder_a=20, encoder_b=21), "either Up/Down buttons or a rotary encoder"),
        (ControlPins(down=None), "come as a pair"),
        (ControlPins(up=None, down=None, encoder_a=20), "needs both A and B"),
        (ControlPins(buzzer=40), "not on the 40-pin header"),
    ],
)
def test_mistakes_in_the_pin_plan_are_caught(pins: ControlPins, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pins.validate()


def test_the_lgpio_factory_off_a_pi_is_a_clear_error() -> None:
    with pytest.raises(ControlsError, match="lgpio"):
        make_pin_factory("lgpio")
    with pytest.raises(ValueError, match="pin factory"):
        make_pin_factory("pigpio")
    assert make_pin_factory(None) is None
    assert isinstance(make_pin_factory("mock"), MockFactory)


def test_simulated_controls() -> None:
    controls = SimulatedControls()
    assert isinstance(controls, Controls)
    controls.press("ok")
    controls.long_press("cancel")
    controls.rotate(2)
    controls.rotate(-1)
    assert drain(controls) == [
        ControlEvent("ok"),
        ControlEvent("cancel", long=True),
        ControlEvent("up"),
        ControlEvent("up"),
        ControlEvent("down"),
    ]
    controls.beep()
    controls.beep("error")
    controls.set_led("green", "blink")
    assert controls.beeps == ["confirm", "error"]
    assert controls.leds == {"green": "blink"}
    with pytest.raises(ValueError, match="button"):
        controls.press("menu")  # type: ignore[arg-type]


def test_a_passive_buzzer_plays_a_tone_per_pattern() -> None:
    from gpiozero.pins.mock import MockPWMPin  # type: ignore[import-untyped]

    from hardware.controls import TONES

    factory = MockFactory(pin_class=MockPWMPin)
    try:
        with GpioControls(ControlPins(buzzer_kind="passive"), pin_factory=factory) as controls:
            buzzer: Any = controls.buzzer
            played: list[float] = []
            original = buzzer.play

            def play(tone: Any) -> None:
                played.append(round(float(tone.frequency), 1))
                original(tone)

            buzzer.play = play
            controls.beep("error", wait=True)
            assert played == [round(TONES["error"], 1)] * BEEPS["error"][2]
            assert buzzer.value is None  # silent afterwards
    finally:
        factory.reset()
        factory.close()


def test_the_buzzer_kind_is_checked() -> None:
    with pytest.raises(ValueError, match="buzzer_kind"):
        ControlPins(buzzer_kind="piezo").validate()


def test_lgpio_in_a_directory_it_cannot_write_is_named_not_blamed_on_the_gpio_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys
    import types

    fake = types.ModuleType("gpiozero.pins.lgpio")

    def cannot_create_pipe() -> None:
        raise FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")

    fake.LGPIOFactory = cannot_create_pipe  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    with pytest.raises(ControlsError) as raised:
        make_pin_factory("lgpio")
    assert "notification pipe" in raised.value.problem
    assert "WorkingDirectory=" in raised.value.fix and "LG_WD" in raised.value.fix
    assert "usermod" not in raised.value.fix


def test_a_pin_held_by_another_program_says_to_stop_the_table(pin_factory: MockFactory) -> None:
    class LgpioError(Exception):
        pass

    def busy(*args: Any, **kwargs: Any) -> Any:
        raise LgpioError("'GPIO busy'")

    controls = GpioControls.__new__(GpioControls)
    controls._devices = []
    with pytest.raises(ControlsError, match="systemctl stop table-banker") as raised:
        controls._claim("ok button", 5, busy)
    assert raised.value.bus == "GPIO5"
