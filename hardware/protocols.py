"""The three roles of the table's hardware, as small protocols the firmware programs against.

Each role has a real driver and a simulated twin:

============  =====================================  =========================================
role          real driver                            simulated twin
============  =====================================  =========================================
TagReader     :class:`hardware.nfc.Mfrc522Reader`     :class:`hardware.taps.SimulatedReader`
Display       :class:`hardware.oled.Oled`             :class:`hardware.oled.SimulatedDisplay`
Controls      :class:`hardware.controls.GpioControls` :class:`hardware.controls.SimulatedControls`
============  =====================================  =========================================

Readers are not used one by one: :class:`hardware.taps.TagReaderHub` polls all of them and turns
placements into one stream of :class:`hardware.taps.Tap` events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from PIL import Image

    from hardware.display import ScreenView

ButtonName = Literal["ok", "cancel", "up", "down"]
"""The four inputs the firmware sees. A rotary encoder turns into ``up``/``down`` steps and its push
switch is ``ok``."""
BUTTONS: tuple[ButtonName, ...] = ("ok", "cancel", "up", "down")
BeepKind = Literal["confirm", "error", "attention"]
"""``confirm``: one short beep; ``error``: three short beeps; ``attention``: two short beeps (a long
press was recognised, a card needs a decision)."""
LedState = Literal["on", "off", "blink"]


@dataclass(frozen=True)
class ControlEvent:
    """A button was pressed and released (``long=False``) or held down past the hold time.

    ``stuck`` says instead that the button has been held down for
    :data:`hardware.controls.STUCK_S` (a jammed key, a short to ground): ``True`` once when that time
    is reached (the button is ignored from then on), ``False`` once when it is released again."""

    button: ButtonName
    long: bool = False
    stuck: bool | None = None


@runtime_checkable
class TagReader(Protocol):
    """One NFC reader, polled: each :meth:`poll` looks for a card once and returns at once."""

    def poll(self) -> bytes | None:
        """The full UID (4, 7 or 10 bytes) of the card on the reader, or ``None``.

        Raises:
            hardware.errors.NfcReaderError: the reader stopped answering.
        """
        ...

    def close(self) -> None: ...


@runtime_checkable
class Display(Protocol):
    """A 128×64 monochrome screen."""

    def show(self, view: ScreenView) -> None:
        """Draw ``view`` with the bundled font and put it on the screen.

        Raises:
            hardware.errors.DisplayError: the display stopped answering.
        """
        ...

    def show_image(self, image: Image.Image) -> None:
        """Put a ready 128×64 image (any mode; converted to 1-bit) on the screen, e.g. a QR code."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Controls(Protocol):
    """Buttons (or an encoder) in; buzzer and status LEDs out."""

    def get_event(self, timeout: float | None = 0.0) -> ControlEvent | None:
        """The next button event, waiting up to ``timeout`` seconds (``None`` = forever)."""
        ...

    def beep(self, kind: BeepKind = "confirm") -> None:
        """Sound a pattern on the buzzer without blocking the caller."""
        ...

    def set_led(self, name: str, state: LedState) -> None:
        """Switch a status LED; names the table has no LED for are ignored.

        Raises:
            ValueError: ``state`` is not ``on``, ``off`` or ``blink``.
        """
        ...

    def close(self) -> None: ...
