"""What the grammar is told (inputs) and what it asks the loop to do (effects): plain data."""

from __future__ import annotations

from dataclasses import dataclass

from banker.actions import Action
from banker.errors import BankerError
from banker.ledger import Event
from firmware.tags import Meaning
from firmware.voice import SpeechSettings


# --- inputs ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TapIn:
    """A tag was tapped on a reader; the loop has looked up what it means."""

    meaning: Meaning
    reader: int = 0


@dataclass(frozen=True)
class Press:
    button: str
    """``ok``, ``cancel``, ``up`` or ``down``."""
    long: bool = False


@dataclass(frozen=True)
class Tick:
    """The clock moved on (the loop sends one at least every second)."""


@dataclass(frozen=True)
class Applied:
    """The engine accepted a submitted action."""

    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Refused:
    """The engine refused a submitted action; nothing changed."""

    action: Action
    error: BankerError


@dataclass(frozen=True)
class BankerRequest:
    """A phone asks to act as the banker; the table answers with OK or Cancel."""

    who: str
    token: int


@dataclass(frozen=True)
class PinMade:
    """The table made a new banker PIN (its setup): show it to the people at the table."""

    pin: str


@dataclass(frozen=True)
class Resumed:
    """The program started again with a game in progress (after a power cut or a restart), or the
    setup menu switched to a saved game (``switched_to``: its label)."""

    actions: int
    switched_to: str = ""


@dataclass(frozen=True)
class ReaderFault:
    """Reader ``number`` (1-based) on ``bus`` stopped answering; ``more`` are the readers that stopped
    with it, as (number, bus). ``working``: some reader still answers."""

    number: int
    bus: str
    more: tuple[tuple[int, str], ...] = ()
    working: bool = True


@dataclass(frozen=True)
class ButtonStuck:
    """A button has been held down for :data:`hardware.controls.STUCK_S` (``stuck=True``): it is ignored
    until it is released (``stuck=False``)."""

    button: str
    stuck: bool = True


@dataclass(frozen=True)
class CardIsFull:
    """The table's card became full: nothing new can be saved until there is room."""


@dataclass(frozen=True)
class StartEnrollment:
    """The banker's phone asks the table to enroll its cards."""


Input = (TapIn | Press | Tick | Applied | Refused | BankerRequest | Resumed | ReaderFault | ButtonStuck
         | StartEnrollment | PinMade | CardIsFull)


# --- effects ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Submit:
    action: Action


@dataclass(frozen=True)
class Beep:
    kind: str
    """``confirm``, ``attention`` or ``error``."""


@dataclass(frozen=True)
class Enroll:
    uid: str
    meaning: str


@dataclass(frozen=True)
class Answer:
    token: int
    granted: bool | None
    """True: OK; False: Cancel; None: nobody answered within :data:`firmware.grammar.BANKER_ASK_S`."""


@dataclass(frozen=True)
class SetLanguage:
    language: str


@dataclass(frozen=True)
class SwitchGame:
    game_id: int


@dataclass(frozen=True)
class StartTimer:
    """A timed game was set up: it ends after ``minutes`` of play."""

    minutes: int


@dataclass(frozen=True)
class Retag:
    """Re-teach the tag ``uid`` as ``meaning`` (it was ``previous``); the tag ``other`` that had
    ``meaning`` until now takes ``previous`` (two stickers swapped at enrollment are fixed at once)."""

    uid: str
    meaning: str
    previous: str
    other: str | None = None


@dataclass(frozen=True)
class SetSpeech:
    """The speaker's new settings (on or off, volume, voice)."""

    settings: SpeechSettings


@dataclass(frozen=True)
class SwitchOff:
    """Stop the table, save everything and switch the Pi off (setup's "Switch off")."""


@dataclass(frozen=True)
class Reset:
    """Make a new join code (``what`` = ``code``) or banker PIN (``pin``) from the table's setup: whatever
    phones did (wrong guesses, a lost PIN), the table itself lets the family in."""

    what: str


Effect = (Submit | Beep | Enroll | Answer | SetLanguage | SwitchGame | StartTimer | Retag | SetSpeech | SwitchOff
          | Reset)
