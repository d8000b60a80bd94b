"""The grammar's state: the step the table is at, what it reads (the context), and its timings.

A step made from the engine's choice keeps the choice it shows and the game state it was made on
(``made_on``): when the game changes under it (a phone acted), :func:`firmware.grammar.choices.refresh`
shows it afresh or withdraws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import assert_never

from banker.actions import Action, DrawCard
from banker.choice import Choice
from banker.edition import EDITIONS, Edition, load_edition
from banker.ledger import Event
from banker.limits import MAX_PLAYERS
from banker.offer import Offer
from banker.rules import TIMED_MINUTES, TIMED_MINUTES_FIRST
from banker.state import GameState
from firmware.grammar.inputs import BankerRequest, Effect
from firmware.tags import Meaning, TagSet
from firmware.voice import SpeechSettings

DEDUPE_S = 1.5
"""The same tag seen again within this time is the same tap (a card lifted and put down again)."""
IDLE_TIMEOUT_S = 30.0
"""Without input for this long, any unfinished step goes back to the idle screen."""
WAIT_FOR_CARD_S = 6.0
"""How long a deed or tag tapped first waits for a bank card."""
NOTICE_S = 3.0
ERROR_S = 5.0
FAULT_S = 6.0
"""How long the notice of a reader that stopped answering stays (any button ends it)."""
SCROLL_S = 1.5
"""A message longer than the screen moves on by one line this often."""
PAGE_S = 4.0
"""The idle screen turns its page of balances this often when the players do not fit."""
BANKER_ASK_S = 30.0
"""A phone's banker request stays on the screen this long (however long nobody has touched the table);
then the phone is told that nobody answered, and may ask again."""
MAX_REQUESTS = 3
"""Phone requests the table holds at once (the one shown among them); one more, or one with the same
words as one held, is answered at once as unanswered (the phone page bounds them before)."""
PIN_SHOWN_S = 60.0
"""How long a new banker PIN made in the setup stays on the screen (any button ends it)."""
CONFIRM_GUARD_S = 0.6
"""OK this soon after a confirmation appeared does not confirm it: the press was meant for the screen
before (mashed buttons never pay)."""
AMOUNT_RUN_S = 0.5
"""Up or Down pressed again within this time continues a run, which speeds the amount up."""
WARN_LEFT_S = 300.0
"""A timed game warns when this much time is left."""
PLAYERS_PER_PAGE = 4


@dataclass(frozen=True)
class Context:
    """The world the grammar looks at, besides its own state: all read-only."""

    game: GameState | None
    now: float
    language: str = "en"
    tags: TagSet = field(default_factory=TagSet)
    games: tuple[tuple[int, str], ...] = ()
    """Saved games (id, label), oldest first."""
    game_id: int | None = None
    time_left: float | None = None
    """Seconds left in a timed game; ``None`` when the game has no clock."""
    join_code: str = ""
    join_url: str = ""
    wifi_join: str = ""
    """The Wi-Fi QR code's text (``WIFI:T:WPA;S:…;P:…;;``) while the table runs its own hotspot."""
    speech: SpeechSettings | None = None
    """The speaker's settings; ``None`` when the table has no speaker."""
    can_switch_off: bool = False
    """The table may switch the computer off (a Pi installed as a service): setup offers it."""

    @property
    def edition(self) -> Edition:
        return self.game.edition if self.game is not None else load_edition(EDITIONS[0])

    def players(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.game.players) if self.game is not None else ()


Param = str | int | bool | tuple[tuple[int, str], ...]
"""A value a text of the table's own is filled in with (a name, a count, the readers that stopped)."""
Params = tuple[tuple[str, Param], ...]


# --- where a menu of the engine's offers comes from ------------------------------------------------
@dataclass(frozen=True)
class CardOf:
    """A player's own card (:func:`banker.choice.card_choice` for the table)."""

    seat: int


@dataclass(frozen=True)
class DeedOf:
    """A player and a deed (:func:`banker.choice.deed_choice`)."""

    seat: int
    deed: str
    rent_card: str | None = None
    """The card that sent the player there, whose rule the rent follows."""


@dataclass(frozen=True)
class SquareOf:
    """A player and a square that is not a deed (:func:`banker.choice.square_choice`)."""

    seat: int
    square: str


@dataclass(frozen=True)
class DeckOf:
    """Which printed card of a deck a player drew (:func:`banker.choice.deck_choice`)."""

    seat: int
    deck: str


@dataclass(frozen=True)
class DrawnOf:
    """What a drawn card still needs chosen: pay or draw, where it was drawn, whether GO was passed
    (:func:`banker.choice.drawn_choice`)."""

    seat: int
    action: DrawCard


@dataclass(frozen=True)
class BidOf:
    """The street a bidder bids for in a building auction (:func:`banker.choice.auction_choice`)."""

    seat: int


@dataclass(frozen=True)
class ShortOf:
    """A refusal for cash: the ways to raise it (:func:`banker.choice.short_choice`)."""

    seat: int
    action: Action


Source = CardOf | DeedOf | SquareOf | DeckOf | DrawnOf | BidOf | ShortOf


# --- steps -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Idle:
    page: int = 0
    page_at: float = 0.0


@dataclass(frozen=True)
class Item:
    """One line of the table's own menus (setup, enrollment, the speaker): a text key with its parameters,
    and where OK on it leads."""

    key: str
    params: Params = ()
    target: Target | None = None


@dataclass(frozen=True)
class Menu:
    """A menu of the table's own (setup, enrollment, re-teaching a tag, the speaker)."""

    title_key: str
    title_params: Params
    items: tuple[Item, ...]
    back: Step
    index: int = 0


@dataclass(frozen=True)
class Choose:
    """A menu of the engine's choice: its items are the engine's offers with their words, in its order;
    for a deck, the printed cards to pick from."""

    source: Source
    choice: Choice
    back: Step
    index: int = 0
    show_card: bool = False
    """The owner's menu of a deed ends with "Show the card" (the table's own line)."""
    made_on: GameState | None = field(default=None, compare=False)

    @property
    def seat(self) -> int:
        return self.source.seat


@dataclass(frozen=True)
class PlayerStep:
    """A bank card was tapped: the player acts next (tap a deed, a tag, another card) or picks from
    the menu of what only a player's card can do (pay a debt, pay the bank…)."""

    seat: int
    choice: Choice
    index: int = 0
    made_on: GameState | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Waiting:
    """A deed, a special tag or a printed card was tapped first: it waits a few seconds for a bank card."""

    meaning: Meaning
    since: float
    back: Step | None = None
    """Where ✕ goes: the menu that showed the card ("Show the card"), else the idle screen."""


@dataclass(frozen=True)
class RentFrom:
    """The owner's card and deed, then "collect rent": waits for the payer's bank card."""

    seat: int
    property: str
    back: Step


@dataclass(frozen=True)
class Confirm:
    """A complete offer that waits for OK, with its own preview (what the screen says). When the game
    changes under it the preview is made again: new figures are shown first, a refusal withdraws it."""

    offer: Offer
    back: Step
    decline: Step | None = None
    """Where Cancel leads instead of ``back`` (buying: the auction)."""
    since: float = 0.0
    """When it was offered: OK within :data:`CONFIRM_GUARD_S` of that is not taken (a mashed button)."""
    made_on: GameState | None = field(default=None, compare=False)

    @property
    def action(self) -> Action:
        assert self.offer.action is not None
        return self.offer.action


@dataclass(frozen=True)
class Dice:
    """The dice total an offer asks for, set with Up/Down within the ask's range."""

    offer: Offer
    back: Step
    value: int
    low: int
    high: int


@dataclass(frozen=True)
class Amount:
    """An amount set with Up/Down: a transfer, a bid, a payment to or from the bank."""

    offer: Offer
    """The engine's offer the amount completes."""
    seat: int
    back: Step
    value: int
    minimum: int
    maximum: int
    """The most it can be (a payer's cash, a bidder's cash); 0 for no ceiling."""
    steps: tuple[int, ...]
    """The step sizes (the first used first); a long OK moves to the next."""
    to: str = ""
    """The receiver of a transfer (the other bank card tapped)."""
    step_index: int = 0
    run: int = 0
    direction: int = 0
    last: float = 0.0


@dataclass(frozen=True)
class Notice:
    """A message for a few seconds: what was done, or why not. Any button goes on at once."""

    key: str
    params: Params = ()
    until: float = 0.0
    then: Step | None = None
    error: bool = False
    events: tuple[Event, ...] = ()
    text: str = ""
    """An already translated message (an engine error)."""
    since: float = 0.0
    """When it appeared (a long message scrolls from there)."""


@dataclass(frozen=True)
class UndoAsk:
    back: Step


@dataclass(frozen=True)
class UnknownTag:
    uid: str


@dataclass(frozen=True)
class BankerAsk:
    who: str
    token: int
    since: float
    back: Step


@dataclass(frozen=True)
class Enrolling:
    """Enrollment: tap each card in turn (``banker enroll`` or the setup menu)."""

    position: int = 0
    meanings: tuple[str, ...] = ()
    done: int = 0
    back: Step | None = None


@dataclass(frozen=True)
class NewGameWizard:
    """New game at the table: one question at a time, Up/Down to change, OK for the next."""

    question: int = 0
    edition: int = 0
    count: int = 4
    names: tuple[int, ...] = tuple(range(MAX_PLAYERS))
    """Each seat's name, as its place among the names offered."""
    preset: int = 0
    mode: int = 0
    minutes: int = TIMED_MINUTES.index(TIMED_MINUTES_FIRST)
    """The timed game's length, as its place among :data:`banker.rules.TIMED_MINUTES`."""
    back: Step | None = None


@dataclass(frozen=True)
class ShowJoin:
    """The QR code and short code that take a phone to the table's page; first the Wi-Fi's QR code
    when the table runs its own hotspot."""

    back: Step
    page: int = 0


Step = (Idle | Menu | Choose | PlayerStep | Waiting | RentFrom | Confirm | Dice | Amount | Notice | UndoAsk
        | UnknownTag | BankerAsk | Enrolling | NewGameWizard | ShowJoin)
Target = Step | Effect | tuple[Effect, ...]
"""Where OK on an item of the table's own menus leads: a step, or effects to perform."""


@dataclass(frozen=True)
class GrammarState:
    step: Step = field(default_factory=Idle)
    last_input: float = 0.0
    last_tap: tuple[str, float] = ("", -1e9)
    """UID and time of the last tap, for :data:`DEDUPE_S`."""
    requests: tuple[BankerRequest, ...] = ()
    """Phones waiting for the table to answer, oldest first."""
    warned: bool = False
    """A timed game has given its five-minute warning."""
    time_up: bool = False
    """A timed game's time is up and the table has said what must be settled before the count."""
    tapped: str = ""
    """The UID of the tag whose tap opened the current screen (empty once a button was pressed):
    holding OK there re-teaches that tag."""


Out = tuple[GrammarState, list[Effect]]


def params(**values: Param) -> Params:
    return tuple(values.items())


def go(gs: GrammarState, new: Step, *effects: Effect) -> Out:
    return replace(gs, step=new), list(effects)


def back_of(current: Step) -> Step:
    """Where ✕ (or a refusal) goes from ``current``: its ``back``, else the idle screen."""
    match current:
        case Menu() | Choose() | RentFrom() | Confirm() | Dice() | Amount() | UndoAsk() | BankerAsk() | ShowJoin():
            return current.back
        case Waiting() | Enrolling() | NewGameWizard():
            return current.back if current.back is not None else Idle()
        case Idle() | PlayerStep() | Notice() | UnknownTag():
            return Idle()
        case _:
            assert_never(current)
