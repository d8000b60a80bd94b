"""What the phone page needs from the table program it runs in.

``banker run`` passes its table loop (:class:`firmware.loop.TableLoop`) to
:func:`webui.create_app` as ``table``; the tests pass a small fake. Everything here is called from
web request threads and must be thread-safe on the table's side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class CardInfo:
    """One enrolled card or sticker, as the simulated table's tap pad shows it."""

    meaning: str
    """``player:1`` (bank card 1, the first seat), ``deed:39`` (the deed on board square 39),
    ``square:go`` (a special tag: go, chance, community_chest, income_tax, luxury_tax, jail,
    free_parking), ``card:chance:advance_go`` (a printed card with a sticker)."""
    label: str
    """What the card says in the table's language: "Ann", "Boardwalk", "GO", "Chance"."""
    kind: str
    """``player``, ``deed``, ``square`` or ``card``."""
    group: str = ""
    """The colour group of a street deed (``brown``, ``railroad``…), for colouring the pad."""
    uid: str = ""
    """The tag's UID as hex text (``04:A1:B2:C3``)."""


@dataclass(frozen=True)
class TableFault:
    """A part of the table that is not working now (the table goes on without it and tries it again)."""

    part: str
    """``reader``, ``display``, ``controls`` (the buttons and the buzzer), or ``power`` (the Pi's supply is too
    weak now) and ``power_since_boot`` (it was since the Pi started)."""
    number: int = 0
    """The reader's number as the table's screen says it (from 1), for a reader."""
    bus: str = ""
    """Where the reader sits, e.g. ``SPI0 CE1``, for a reader."""


class TablePort(Protocol):
    simulated: bool
    """True for the simulated table (``banker run --simulated``): only then is ``/table`` served."""

    def cards(self) -> list[CardInfo]:
        """Every enrolled card, players' bank cards first, then deeds in board order, then the rest."""
        ...

    def tap(self, meaning: str) -> None:
        """Tap the card with this meaning on the first (simulated) reader.

        Raises:
            ValueError: no card has this meaning, or the table is not simulated.
        """
        ...

    def press(self, button: str, long: bool = False) -> None:
        """Press ``ok``, ``cancel``, ``up`` or ``down`` (``long``: held past the hold time).

        Raises:
            ValueError: an unknown button, or the table is not simulated.
        """
        ...

    def faults(self) -> list[TableFault]:
        """The parts not working now (empty while every part works)."""
        ...

    def frame_png(self, scale: int = 1) -> bytes:
        """The picture the OLED shows now, as PNG, enlarged ``scale`` times (white on black)."""
        ...

    @property
    def frame_number(self) -> int:
        """Counts the frames drawn; it changes whenever the OLED shows something new."""
        ...

    def add_frame_listener(self, callback: Callable[[int], None]) -> Callable[[], None]:
        """Call ``callback(frame_number)`` after each new frame (it must only enqueue); returns a
        function that removes the listener."""
        ...

    def start_enrollment(self) -> None:
        """Put the table into enrollment: its screen asks for each card in turn (the banker's phone
        starts it; the cards are tapped at the table)."""
        ...

    def forget_tag(self, uid: str) -> None:
        """Forget an enrolled tag (a lost or damaged sticker): it becomes an unknown tag.

        Raises:
            ValueError: no tag has this UID.
        """
        ...

    def table_log(self, language: str) -> list[tuple[int, str]]:
        """The table's own lines in the current game's log (a tag re-taught at the table), each with the
        number of the action it came after."""
        ...

    def add_log_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after the table adds a line to the log (it must only enqueue); returns a
        function that removes the listener."""
        ...

    def speech(self) -> dict[str, Any] | None:
        """The table's voice: ``{"on": True, "volume": 80, "voice": "man", "short": False}``, or ``None`` when the
        table has no speaker."""
        ...

    def add_speech_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after the table's voice changes (from a phone or at the table; it must only
        enqueue); returns a function that removes the listener."""
        ...

    def change_speech(self, on: bool, volume: int, voice: str, short: bool | None = None) -> None:
        """Switch the table's voice, set its volume (0-100), voice (``man`` or ``woman``) and whether it
        says the short sentences (``None``: as it was); it says a
        sample at the new volume.

        Raises:
            ValueError: the table has no speaker.
        """
        ...

    def ask_banker(self, who: str, answer: Callable[[bool | None], None]) -> None:
        """Ask at the table whether the phone ``who`` may act as the banker: the OLED shows the
        question until OK (``answer(True)``), Cancel (``answer(False)``) or for 30 s, however long nobody
        has touched the table, then tells the phone nobody answered (``answer(None)``).
        ``answer`` is called from the table's thread."""
        ...
