"""The tap grammar: what a tap, a button press or the clock means at the table.

A pure state machine in the Elm style: ``step(state, input, context) -> (state, effects)``. It
reads the game (never changes it), and answers with effects that are plain data: submit this
action, beep, enroll this tag. The loop (:mod:`firmware.loop`) is the only place that performs
them, and it feeds the engine's answer back as an :class:`Applied` or :class:`Refused` input. What
the OLED shows is computed from the same two states by :func:`firmware.screens.view`.

The flows (see docs/table.md):

- rent: the payer's bank card, the deed, OK (a utility asks for the dice first);
- buy: the buyer's card, an unowned deed, OK; Cancel at the price offers the auction;
- the owner's card and the owner's deed: build, sell, mortgage, lift the mortgage, show the card;
- a deed first shows its card and waits a few seconds for a bank card (either order works);
- a card and GO, a tax, Chance / Community Chest, Jail or Free Parking: that square's money;
- a card and another player's card: a transfer, the amount set with Up/Down;
- while an auction is open, a bank card bids; a debtor's card offers paying or bankruptcy;
- Cancel backs out one step, a long Cancel offers to undo the last action, a long OK opens setup;
- nothing that moves money happens without OK, and a tap during a confirmation never confirms.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from banker import offer as offering
from banker.actions import (
    Action,
    AuctionClose,
    Bid,
    DrawCard,
    EndGame,
    EndTurn,
    NewGame,
    Rent,
    Undo,
)
from banker.board import moves_of
from banker.edition import Edition, load_edition
from banker.errors import BankerError
from banker.ledger import Event
from banker.messages import LANGUAGES
from banker.offer import Offer
from banker.state import GameState
from firmware.moves import notice_seconds
from firmware.tags import DEED_SQUARES, SPECIAL_SQUARES, Meaning, TagSet, all_meanings, label, parse_meaning
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
AMOUNT_STEPS = (10, 1, 100)
"""The step sizes of an amount; a long OK moves to the next."""
WARN_LEFT_S = 300.0
"""A timed game warns when this much time is left."""
PLAYERS_PER_PAGE = 4
NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo"),
    "ru": ("Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Женя", "Зоя", "Илья", "Катя"),
    "bg": ("Ани", "Боби", "Вики", "Гошо", "Деси", "Ели", "Жоро", "Зори", "Иво", "Кати"),
}
"""Names offered at the table; the phone page can type any name."""
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "free_parking": {"free_parking_pot": True},
    "family": {"free_parking_pot": True, "double_salary_on_go": True},
    "no_auctions": {"bankruptcy_auctions": False, "decliner_may_bid": False},
}
"""House-rule presets offered at the table (every rule can be set on the phone page)."""
MODES = ("classic", "short", "timed")
EDITIONS = ("us", "uk", "ru")
TIMED_MINUTES = (30, 45, 60, 90, 120, 180)


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
    """True: OK; False: Cancel; None: nobody answered within :data:`BANKER_ASK_S`."""


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


# --- what the grammar reads ------------------------------------------------------------------------
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


# --- steps -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Idle:
    page: int = 0
    page_at: float = 0.0


@dataclass(frozen=True)
class Item:
    """One line of a menu: a text key with its parameters, and where OK on it leads."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()
    target: Any = None
    """A step to go to, an :class:`Action` to confirm, or an effect (or a tuple of effects) to perform."""


@dataclass(frozen=True)
class Menu:
    title_key: str
    title_params: tuple[tuple[str, Any], ...]
    items: tuple[Item, ...]
    back: Any
    index: int = 0
    hint_key: str = ""
    """A line above the items (not selectable)."""
    seat: int = -1
    """The player the menu is for (bank card taps keep working from it)."""
    deed: str = ""
    """The deed of an owner's menu (its screen says what the next building pays back)."""


@dataclass(frozen=True)
class PlayerStep:
    """A bank card was tapped: the player acts next (tap a deed, a tag, another card) or picks from
    the menu of what only a player's card can do (pay a debt, pay the bank…)."""

    seat: int
    index: int = 0


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
    back: Any


@dataclass(frozen=True)
class Confirm:
    """An action that waits for OK. ``shown`` is what the screen said when it was offered: if the
    game changed meanwhile (a phone acted), OK shows the new amount first instead of paying."""

    action: Action
    back: Any
    shown: str = ""
    decline: Any = None
    """Where Cancel leads instead of ``back`` (buying: the auction)."""
    since: float = 0.0
    """When it was offered: OK within :data:`CONFIRM_GUARD_S` of that is not taken (a mashed button)."""


@dataclass(frozen=True)
class Dice:
    action: Action
    back: Any
    value: int = 7


@dataclass(frozen=True)
class Amount:
    """An amount set with Up/Down: a transfer, a bid, a payment to or from the bank."""

    purpose: str
    """``transfer``, ``bid``, ``pay_bank`` or ``collect``."""
    seat: int
    back: Any
    value: int = 0
    to: str = ""
    minimum: int = 1
    property: str | None = None
    maximum: int = 0
    """The most it can be (a payer's cash, a bidder's cash); 0 for no ceiling."""
    offer: Offer | None = None
    """The engine's offer the amount completes."""
    step_index: int = 0
    run: int = 0
    direction: int = 0
    last: float = 0.0


@dataclass(frozen=True)
class Notice:
    """A message for a few seconds: what was done, or why not. Any button goes on at once."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()
    until: float = 0.0
    then: Any = None
    error: bool = False
    events: tuple[Event, ...] = ()
    text: str = ""
    """An already translated message (an engine error)."""
    since: float = 0.0
    """When it appeared (a long message scrolls from there)."""


@dataclass(frozen=True)
class UndoAsk:
    back: Any


@dataclass(frozen=True)
class UnknownTag:
    uid: str


@dataclass(frozen=True)
class BankerAsk:
    who: str
    token: int
    since: float
    back: Any


@dataclass(frozen=True)
class Enrolling:
    """Enrollment: tap each card in turn (``banker enroll`` or the setup menu)."""

    position: int = 0
    meanings: tuple[str, ...] = ()
    done: int = 0
    back: Any = None


@dataclass(frozen=True)
class NewGameWizard:
    """New game at the table: one question at a time, Up/Down to change, OK for the next."""

    question: int = 0
    edition: int = 0
    count: int = 4
    names: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)
    preset: int = 0
    mode: int = 0
    minutes: int = 2
    back: Any = None


@dataclass(frozen=True)
class ShowJoin:
    """The QR code and short code that take a phone to the table's page; first the Wi-Fi's QR code
    when the table runs its own hotspot."""

    back: Any
    page: int = 0


Step = (Idle | Menu | PlayerStep | Waiting | RentFrom | Confirm | Dice | Amount | Notice | UndoAsk | UnknownTag
        | BankerAsk | Enrolling | NewGameWizard | ShowJoin)


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


def params(**values: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(values.items())


# --- the step function -----------------------------------------------------------------------------
def step(gs: GrammarState, event: Input, ctx: Context) -> Out:
    """The one function of the grammar: the next state and the effects for ``event``."""
    local = _local_press(gs, event, ctx) if isinstance(event, Press) else None
    gs, effects = local if local is not None else _step(gs, event, ctx)
    if isinstance(event, TapIn):
        gs = replace(gs, tapped=event.meaning.uid)
    elif isinstance(event, Press) and gs.tapped:
        gs = replace(gs, tapped="")
    current = gs.step
    if isinstance(current, Notice) and current.since == 0.0:
        # A message lasts longer when it is long: the screen scrolls through it.
        extra = max(0, len(current.text) - 60) / 20 * SCROLL_S
        gs = replace(gs, step=replace(current, since=ctx.now, until=current.until + extra))
    return gs, effects


def _step(gs: GrammarState, event: Input, ctx: Context) -> Out:
    if isinstance(event, Tick):
        return _tick(gs, ctx)
    if isinstance(event, Applied):
        return _applied(gs, event, ctx)
    if isinstance(event, Refused) and event.error.key == "card_full":
        # Not saved: the card's own notice (with the beep), then back to where the action was asked.
        return _go(gs, Notice("card_full", until=ctx.now + FAULT_S, then=_back_of(gs.step), error=True),
                   Beep("error"))
    if isinstance(event, CardIsFull):
        return _go(gs, Notice("card_full", until=ctx.now + FAULT_S,
                              then=gs.step if not isinstance(gs.step, Notice) else Idle(), error=True), Beep("error"))
    if isinstance(event, Refused):
        return _go(gs, Notice("", until=ctx.now + ERROR_S, then=_back_of(gs.step), error=True,
                              text=event.error.translated(ctx.language)), Beep("error"))
    if isinstance(event, BankerRequest):
        held = [*([gs.step.who] if isinstance(gs.step, BankerAsk) else []), *(r.who for r in gs.requests)]
        if len(held) >= MAX_REQUESTS or event.who in held:
            return gs, [Answer(event.token, None)]
        gs = replace(gs, requests=(*gs.requests, event))
        return _offer_request(gs, ctx)
    if isinstance(event, PinMade):
        return _go(gs, Notice("pin_made", params(pin=event.pin), until=ctx.now + PIN_SHOWN_S, then=Idle()),
                   Beep("attention"))
    if isinstance(event, StartEnrollment):
        return _go(replace(gs, last_input=ctx.now), enrollment(Idle(page_at=ctx.now)), Beep("attention"))
    if isinstance(event, ReaderFault):
        notice = Notice("reader_fault", params(number=event.number, bus=event.bus, more=event.more,
                                               working=event.working),
                        until=ctx.now + FAULT_S, then=gs.step if not isinstance(gs.step, Notice) else Idle(),
                        error=True)
        return _go(gs, notice, Beep("error"))
    if isinstance(event, ButtonStuck):
        if not event.stuck:
            return _go(gs, Notice("button_free", params(button=event.button), until=ctx.now + NOTICE_S,
                                  then=Idle(page_at=ctx.now)))
        # Whatever the stuck button opened (a long OK opens setup) is dropped: the table starts afresh.
        return _go(gs, Notice("button_stuck", params(button=event.button), until=ctx.now + FAULT_S,
                              then=Idle(page_at=ctx.now), error=True), Beep("error"))
    if isinstance(event, Resumed):
        gs = replace(gs, last_input=ctx.now)
        notice = (Notice("switched", params(actions=event.actions, label=event.switched_to),
                         until=ctx.now + NOTICE_S + 1, then=Idle()) if event.switched_to else
                  Notice("resumed", params(actions=event.actions), until=ctx.now + NOTICE_S + 1, then=Idle()))
        return _go(gs, notice, Beep("attention"))
    gs = replace(gs, last_input=ctx.now)
    if isinstance(event, TapIn):
        return _tap(gs, event.meaning, ctx)
    return _press(gs, event, ctx)


def _go(gs: GrammarState, new: Step, *effects: Effect) -> Out:
    return replace(gs, step=new), list(effects)


def _back_of(current: Step) -> Step:
    back = getattr(current, "back", None)
    return back if back is not None else Idle()


def _tick(gs: GrammarState, ctx: Context) -> Out:
    now = ctx.now
    current = gs.step
    effects: list[Effect] = []
    game = ctx.game
    if game is not None and not game.ended and ctx.time_left is not None:
        if ctx.time_left <= 0:
            if game.auction is None and not game.debts and not game.decisions:
                return _go(gs, Idle(), Submit(EndGame()))
            if not gs.time_up:
                # The count waits for the open auction, debt or decision to be settled.
                gs = replace(gs, time_up=True)
                return _go(gs, Notice("time_up_pending", until=now + NOTICE_S + 2, then=Idle()), Beep("attention"))
        if ctx.time_left <= WARN_LEFT_S and not gs.warned:
            gs = replace(gs, warned=True)
            return _go(gs, Notice("timer_warning", params(minutes=max(1, round(ctx.time_left / 60))),
                                  until=now + NOTICE_S + 2, then=Idle()), Beep("attention"))
    if isinstance(current, Notice):
        if now >= current.until:
            gs = replace(gs, step=current.then if current.then is not None else Idle())
            return _offer_request(gs, ctx)
        return gs, effects
    if isinstance(current, Waiting) and now - current.since >= WAIT_FOR_CARD_S:
        return _go(gs, Idle(page_at=now))
    if isinstance(current, BankerAsk):
        # The question waits for its own time, not the idle fallback: the table is usually untouched then.
        if now - current.since < BANKER_ASK_S:
            return gs, effects
        gs, more = _offer_request(replace(gs, step=current.back), ctx)
        return gs, [Answer(current.token, None), *more]
    if isinstance(current, Idle):
        pages = _idle_pages(ctx)
        if pages > 1 and now - current.page_at >= PAGE_S:
            return _go(gs, Idle((current.page + 1) % pages, now))
        return gs, effects
    if isinstance(current, (Enrolling, NewGameWizard, ShowJoin)):
        return gs, effects  # setup waits for the people at the table
    if now - gs.last_input >= IDLE_TIMEOUT_S:
        return _offer_request(replace(gs, step=Idle(page_at=now)), ctx)  # a phone's request may be waiting
    return gs, effects


def _idle_pages(ctx: Context) -> int:
    if ctx.game is None or ctx.game.ended or ctx.game.auction is not None or ctx.game.debts:
        return 1
    count = len(ctx.game.players)
    return max(1, -(-count // PLAYERS_PER_PAGE))


def _offer_request(gs: GrammarState, ctx: Context) -> Out:
    """Show the oldest phone request when the table is idle (never in the middle of a flow)."""
    if gs.requests and isinstance(gs.step, Idle):
        request, rest = gs.requests[0], gs.requests[1:]
        return _go(replace(gs, requests=rest), BankerAsk(request.who, request.token, ctx.now, Idle()),
                   Beep("attention"))
    return gs, []


# --- results of submitted actions ------------------------------------------------------------------
def _applied(gs: GrammarState, event: Applied, ctx: Context) -> Out:
    action = event.action
    after: Step = Idle(page_at=ctx.now)
    game = ctx.game
    if isinstance(action, DrawCard) and game is not None:
        follow = _after_card(action, event.events, ctx)
        if follow is not None:
            after = follow
    if isinstance(action, NewGame):
        gs = replace(gs, warned=False, time_up=False)
    # Long enough for every page of board moves (firmware.moves) to be seen.
    extra = notice_seconds(moves_of(event.events))
    notice = Notice("done", until=ctx.now + NOTICE_S + extra, then=after, events=event.events, since=ctx.now)
    return _go(gs, notice, Beep("confirm"))


def _after_card(action: DrawCard, events: tuple[Event, ...], ctx: Context) -> Step | None:
    """After a card moved the player onto a deed: offer its rent (with the card's rule) or its purchase;
    after "take a Chance instead": the other deck's cards."""
    game = ctx.game
    assert game is not None
    seat = game.seats.get(action.player)
    if seat is None:
        return None
    for ev in events:
        if ev.kind == "draw_instead":
            deck = str(ev.params.get("deck", "chance"))
            return _card_menu(ctx, seat, deck, Idle())
        if ev.kind == "moved":
            prop = game.edition.by_id.get(str(ev.params.get("square", "")))
            if prop is None:
                return None
            rent_card = ev.params.get("rent_card")
            return _pair(ctx, seat, prop.id, Idle(), card=str(rent_card) if rent_card else None)
    return None


# --- taps ------------------------------------------------------------------------------------------
def _tap(gs: GrammarState, meaning: Meaning, ctx: Context) -> Out:
    last_uid, last_at = gs.last_tap
    if meaning.uid and meaning.uid == last_uid and ctx.now - last_at < DEDUPE_S:
        return gs, []  # the same placement seen twice is one tap
    gs = replace(gs, last_tap=(meaning.uid, ctx.now))
    current = gs.step
    if isinstance(current, Enrolling):
        return _enroll_tap(gs, current, meaning, ctx)
    restart: list[Effect] = []
    if isinstance(current, (Confirm, Dice, Amount, UndoAsk, BankerAsk, NewGameWizard)):
        # A tap never confirms anything: it abandons the confirmation and starts afresh.
        if isinstance(current, BankerAsk):
            gs = replace(gs, requests=(BankerRequest(current.who, current.token), *gs.requests))
        restart.append(Beep("attention"))
        current = Idle(page_at=ctx.now)
        gs = replace(gs, step=current)
    if meaning.kind == "unknown":
        return _go(gs, UnknownTag(meaning.uid), Beep("attention"), *restart[:0])
    game = ctx.game
    if game is None:
        return _notice(gs, ctx, "no_game_tap", error=True)
    if game.ended:
        return _notice(gs, ctx, "game_over_tap", error=True)
    if meaning.kind == "player":
        gs, effects = _player_tap(gs, meaning.seat, current, ctx)
        return gs, restart + effects
    actor = _actor(current)
    if meaning.kind == "deed":
        prop = game.edition.by_square.get(meaning.square)
        if prop is None:  # pragma: no cover - every deed square has a deed on every edition
            return _notice(gs, ctx, "unknown_deed", error=True)
        if actor is not None:
            return _go(gs, _pair(ctx, actor, prop.id, current), *restart)
        return _go(gs, Waiting(meaning, ctx.now), *restart)
    if actor is not None:
        return _go(gs, _special(ctx, actor, meaning, current), *restart)
    return _go(gs, Waiting(meaning, ctx.now), *restart)


def _actor(current: Step) -> int | None:
    if isinstance(current, PlayerStep):
        return current.seat
    if isinstance(current, Menu) and current.seat >= 0 and current.title_key == "player_menu":
        return current.seat
    return None


def _player_tap(gs: GrammarState, seat: int, current: Step, ctx: Context) -> Out:
    game = ctx.game
    assert game is not None
    if seat >= len(game.players):
        return _notice(gs, ctx, "card_not_in_game", params(number=seat + 1), error=True)
    player = game.players[seat]
    if player.bankrupt:
        return _notice(gs, ctx, "player_is_bankrupt", params(player=player.name), error=True)
    if game.auction is not None:
        return _go(gs, _bid_step(ctx, seat, Idle()))
    if isinstance(current, RentFrom):
        if seat == current.seat:
            return gs, []
        return _go(gs, _pair(ctx, seat, current.property, current.back))
    if isinstance(current, Waiting):
        if current.meaning.kind == "deed":
            prop = game.edition.by_square[current.meaning.square]
            return _go(gs, _pair(ctx, seat, prop.id, Idle()))
        return _go(gs, _special(ctx, seat, current.meaning, Idle()))
    actor = _actor(current)
    if actor is not None and actor != seat:
        payer = game.players[actor].name
        transfer = next(o for o in offering.player_offers(game, payer) if o.kind == "transfer")
        return _go(gs, replace(_amount_of(transfer, actor, current, "transfer", 0, to=player.name), value=0))
    if actor == seat:
        return gs, []
    return _go(gs, PlayerStep(seat))


def _bid_step(ctx: Context, seat: int, back: Step) -> Step:
    game = ctx.game
    assert game is not None and game.auction is not None
    auction = game.auction
    bid = offering.bid_offer(game, game.players[seat].name)
    if bid.refusal is not None:
        return Notice("", until=ctx.now + ERROR_S, then=back, error=True, text=bid.refusal.translated(ctx.language))
    if bid.choices:
        items = tuple(Item("offer", (), choice) for choice in bid.choices)
        return Menu("bid_where", params(player=game.players[seat].name), items, back, seat=seat)
    start = auction.high_bid + 10 if auction.high_bid else 10
    return _amount_of(bid, seat, back, "bid", start)


def _amount_of(offer: Offer, seat: int, back: Step, purpose: str, value: int, to: str = "") -> Amount:
    """The Up/Down amount that completes ``offer``, kept within the offer's range."""
    if offer.maximum:
        value = min(value, offer.maximum)
    value = max(offer.minimum, value)
    action = offer.action
    prop = getattr(action, "property", None)
    return Amount(purpose, seat, back, value=value, to=to, minimum=offer.minimum, maximum=offer.maximum,
                  property=prop if isinstance(prop, str) else None, offer=offer)


CHOICE_MENUS = {"choice": "card_choice", "square": "card_where", "passed_go": "card_passed_go"}
"""The title of the menu a card's choice is picked from, by what it needs."""
AMOUNT_PURPOSES = {"pay_bank": "pay_bank", "pay_pot": "pay_pot", "collect": "collect", "transfer": "transfer",
                   "bid": "bid", "bid_on": "bid"}
"""The screen an amount still to choose is set on, by the offer's kind."""


def _offer_step(ctx: Context, seat: int, offer: Offer, back: Step, decline: Step | None = None) -> Step:
    """Where an offer leads: what it still needs chosen (dice, a payer, an amount, a card, a choice), what
    would raise the cash it is refused for, or its confirmation."""
    game = ctx.game
    assert game is not None
    if offer.refusal is not None and offer.short_by:
        return _short_menu(ctx, seat, offer, back, decline)
    if offer.needs and offer.needs[0] == "deed":
        return _deed_menu(ctx, seat, str(offer.figure("property")), back)
    if offer.needs and offer.action is not None:
        need = offer.needs[0]
        action = offer.action
        if need == "dice" and isinstance(action, (Rent, DrawCard)):
            return Dice(action, back)
        if need == "payer" and isinstance(action, Rent):
            return RentFrom(seat, action.property, back)
        if need == "card" and isinstance(action, DrawCard):
            return _card_menu(ctx, seat, action.deck, back)
        if need == "amount" or need == "to":
            return _amount_of(offer, seat, back, AMOUNT_PURPOSES.get(offer.kind, "pay_bank"), 10)
        title = CHOICE_MENUS.get(need, "card_choice")
        deck = game.edition.deck_names.get(action.deck, "") if isinstance(action, DrawCard) else ""
        title_params = params(text=str(offer.figure("text", "")), deck=deck)
        return Menu(title, title_params, tuple(Item("offer", (), c) for c in offer.choices), back, seat=seat)
    assert offer.action is not None
    return _confirm(ctx, offer.action, back, decline=decline)


def _short_menu(ctx: Context, seat: int, offer: Offer, back: Step, decline: Step | None) -> Step:
    """A refusal for cash: the ways the engine offers to raise it, one choice each (and the auction, for a
    purchase the buyer cannot pay)."""
    game = ctx.game
    assert game is not None and offer.action is not None
    name = game.players[seat].name
    ways = offering.raise_cash(game, name, offer.short_by)
    items = [Item("offer", (), way) for way in ways]
    if isinstance(decline, Confirm):
        items.append(Item("offer", (), offering.make(game, "auction", decline.action)))
    if not items:
        return _confirm(ctx, offer.action, back, decline=decline)
    return Menu("short_by", params(amount=game.money(offer.short_by), what=offer.kind), tuple(items), back,
                seat=seat)


def _pair(ctx: Context, seat: int, prop_id: str, back: Step, card: str | None = None) -> Step:
    """A player's card with a deed: buy it, pay its rent, or manage it."""
    game = ctx.game
    assert game is not None
    name = game.players[seat].name
    found = offering.deed_offers(game, name, prop_id, rent_card=card)
    first = found[0]
    if first.kind == "buy":
        auction = _offer_step(ctx, seat, found[1], back)
        return _offer_step(ctx, seat, first, back, decline=auction)
    if first.kind == "rent":
        return _offer_step(ctx, seat, first, back)
    return _deed_menu(ctx, seat, prop_id, back, found)


def _deed_menu(ctx: Context, seat: int, prop_id: str, back: Step, found: list[Offer] | None = None) -> Menu:
    """The owner's menu of a deed: the engine's offers for it (a refused one marked), then the card."""
    game = ctx.game
    assert game is not None
    prop = game.edition.property(prop_id)
    if found is None:
        found = offering.deed_offers(game, game.players[seat].name, prop_id)
    items = [Item("offer", (), o) for o in found]
    items.append(Item("show_card", (), Waiting(Meaning("deed", square=prop.square), -1e9)))
    return Menu("deed_menu", params(property=prop.name), tuple(items), back, seat=seat, deed=prop.id)


SQUARE_MENUS = {"go": "go_menu", "income_tax": "tax_menu", "luxury_tax": "tax_menu", "jail": "jail_menu",
                "go_to_jail": "jail_menu"}
"""The title of the menu a square's offers are picked from."""


def _special(ctx: Context, seat: int, meaning: Meaning, back: Step) -> Step:
    """A player's card with a special tag or a printed card: the square's offers."""
    game = ctx.game
    assert game is not None
    name = game.players[seat].name
    if meaning.kind == "card":
        return _card_chosen(ctx, seat, DrawCard(name, meaning.deck, meaning.card), back)
    kind = meaning.special
    found = offering.square_offers(game, name, kind)
    if not found:
        return Notice("free_parking_nothing", until=ctx.now + NOTICE_S, then=Idle())
    if len(found) == 1:
        return _offer_step(ctx, seat, found[0], back)
    title_params = params(player=name)
    if kind in ("income_tax", "luxury_tax"):
        title_params = params(player=name, square=game.edition.square(kind).name)
    return Menu(SQUARE_MENUS.get(kind, "go_menu"), title_params, tuple(Item("offer", (), o) for o in found), back,
                seat=seat)


def _card_menu(ctx: Context, seat: int, deck: str, back: Step) -> Menu:
    game = ctx.game
    assert game is not None
    name = game.players[seat].name
    items = tuple(Item("card_text", params(text=game.edition.card_text(card, ctx.language)),
                       DrawCard(name, deck, card.id)) for card in game.edition.decks[deck])
    return Menu("card_menu", params(deck=game.edition.deck_names[deck], player=name), items, back)


def _card_chosen(ctx: Context, seat: int, action: DrawCard, back: Step) -> Step:
    """Ask what the card needs to know (where it was drawn, whether GO was passed, pay or draw),
    then confirm it."""
    game = ctx.game
    assert game is not None
    try:
        offer = offering.card_offer(game, action)
    except BankerError as error:
        return Notice("", until=ctx.now + ERROR_S, then=back, error=True, text=error.translated(ctx.language))
    return _offer_step(ctx, seat, offer, back)


def _next_deed_name(edition: Edition, index: int) -> str:
    for offset in range(1, 40):
        prop = edition.by_square.get((index + offset) % 40)
        if prop is not None:
            return prop.name
    return ""  # pragma: no cover - every board has deeds


def _confirm(ctx: Context, action: Action, back: Step, decline: Step | None = None) -> Confirm:
    return Confirm(action, back, shown=preview_signature(ctx, action), decline=decline, since=ctx.now)


def preview(ctx: Context, action: Action) -> Offer:
    """What the action would do now, from the engine (:func:`banker.offer.preview`)."""
    if isinstance(action, NewGame):
        from banker.engine import new_game

        try:
            return Offer(action.name, action, events=new_game(action)[1])
        except BankerError as error:
            return Offer(action.name, action, refusal=error)
    if ctx.game is None:
        return Offer(action.name, action)
    return offering.preview(ctx.game, action)


def preview_signature(ctx: Context, action: Action) -> str:
    """A fingerprint of what the confirmation screen says (:func:`banker.offer.signature`)."""
    return offering.signature(preview(ctx, action))


def _notice(gs: GrammarState, ctx: Context, key: str, values: tuple[tuple[str, Any], ...] = (), *,
            error: bool = False) -> Out:
    notice = Notice(key, values, until=ctx.now + (ERROR_S if error else NOTICE_S), then=Idle(page_at=ctx.now),
                    error=error)
    return _go(gs, notice, Beep("error" if error else "attention"))


# --- enrollment ------------------------------------------------------------------------------------
def enrollment(back: Step | None = None) -> Enrolling:
    return Enrolling(0, tuple(all_meanings()), back=back)


def _enroll_tap(gs: GrammarState, current: Enrolling, meaning: Meaning, ctx: Context) -> Out:
    wanted = current.meanings[current.position]
    uid = meaning.uid
    owner = ctx.tags.meaning_of(uid)
    if owner is not None and owner != wanted:
        return _go(gs, Notice("tag_in_use", params(what=owner), until=ctx.now + ERROR_S, then=current, error=True),
                   Beep("error"))
    nxt = replace(current, position=current.position + 1, done=current.done + 1)
    if nxt.position >= len(current.meanings):
        return _go(gs, Notice("enroll_done", params(count=nxt.done), until=ctx.now + NOTICE_S,
                              then=current.back or Idle()), Enroll(uid, wanted), Beep("confirm"))
    return _go(gs, nxt, Enroll(uid, wanted), Beep("confirm"))


def _enroll_pick(uid: str, ctx: Context, back: Step) -> Menu:
    """What an unknown tag is: a bank card, a deed, a special tag or a printed card."""
    edition = ctx.edition
    players = ctx.players()

    def choice(meaning: str) -> Item:
        return Item("enroll_as", params(meaning=meaning), (Enroll(uid, meaning), Beep("confirm")))

    cards = Menu("enroll_pick_card", (), tuple(choice(f"player:{n}") for n in range(1, 9)), back)
    deeds = Menu("enroll_pick_deed", (), tuple(choice(f"deed:{sq}") for sq in DEED_SQUARES), back)
    specials = Menu("enroll_pick_special", (), tuple(choice(f"square:{s}") for s in SPECIAL_SQUARES), back)
    items: list[Item] = [Item("enroll_bank_card", (), cards), Item("enroll_deed", (), deeds),
                         Item("enroll_special", (), specials)]
    for deck in ("chance", "community_chest"):
        printed = Menu("enroll_pick_card", (), tuple(choice(f"card:{deck}:{c.id}") for c in edition.decks[deck]),
                       back)
        items.append(Item("enroll_printed", params(deck=edition.deck_names[deck]), printed))
    del players
    return Menu("enroll_what", params(uid=uid), tuple(items), back)


# --- buttons ---------------------------------------------------------------------------------------
def _press(gs: GrammarState, press: Press, ctx: Context) -> Out:
    current = gs.step
    button = press.button
    if button == "cancel" and press.long:
        if isinstance(current, (Enrolling, NewGameWizard)):
            return _go(gs, current.back or Idle(page_at=ctx.now))
        if ctx.game is None or ctx.game.history is None:
            return _notice(gs, ctx, "nothing_to_undo", error=True)
        return _go(gs, UndoAsk(current), Beep("attention"))
    if isinstance(current, Notice):
        nxt = current.then if current.then is not None else Idle(page_at=ctx.now)
        gs = replace(gs, step=nxt)
        if button == "cancel" and not (current.error and isinstance(nxt, Menu)):
            # ✕ on a refusal from a menu goes back to that menu (to pick something else); otherwise home.
            gs = replace(gs, step=Idle(page_at=ctx.now))
        return _offer_request(gs, ctx)
    handler = _HANDLERS.get(type(current))
    if handler is not None:
        result: Out = handler(gs, current, press, ctx)
        return result
    return gs, []  # pragma: no cover - every step has a handler


def _idle_press(gs: GrammarState, current: Idle, press: Press, ctx: Context) -> Out:
    button = press.button
    if button == "ok" and press.long:
        return _go(gs, setup_menu(ctx, current))
    game = ctx.game
    if game is not None and game.auction is not None and button == "ok" and not game.ended:
        return _go(gs, _confirm(ctx, AuctionClose(), current))
    if game is None and button == "ok":
        return _go(gs, setup_menu(ctx, current))
    pages = _idle_pages(ctx)
    if button in ("up", "down") and pages > 1:
        delta = 1 if button == "down" else -1
        return _go(gs, Idle((current.page + delta) % pages, ctx.now))
    return gs, []


def setup_menu(ctx: Context, back: Step) -> Menu:
    items: list[Item] = [Item("setup_new_game", (), NewGameWizard(edition=_default_edition(ctx), back=back))]
    if len(ctx.games) > 1 or (ctx.games and ctx.game_id is None):
        saved = tuple(Item("setup_game", params(label=label, id=game_id), SwitchGame(game_id))
                      for game_id, label in reversed(ctx.games) if game_id != ctx.game_id)
        items.append(Item("setup_switch", (), Menu("setup_switch", (), saved, back)))
    items.append(Item("setup_enroll", (), enrollment(back)))
    languages = tuple(Item("language_" + lang, (), SetLanguage(lang)) for lang in LANGUAGES)
    items.append(Item("setup_language", (), Menu("setup_language", (), languages, back)))
    if ctx.join_url:
        items.append(Item("setup_phones", (), ShowJoin(back, page=0 if ctx.wifi_join else 1)))
        items.append(Item("setup_new_code", (), Reset("code")))
        items.append(Item("setup_new_pin", (), Reset("pin")))
    if ctx.speech is not None:
        items.append(Item("setup_speech", (), speech_menu(ctx.speech, back)))
    if ctx.can_switch_off:
        sure = Menu("switch_off", (), (Item("switch_off_now", (), SwitchOff()),), back)
        items.append(Item("setup_switch_off", (), sure))
    return Menu("setup", (), tuple(items), back)


def _default_edition(ctx: Context) -> int:
    if ctx.game is not None and ctx.game.edition.id in EDITIONS:
        return EDITIONS.index(ctx.game.edition.id)
    return 2 if ctx.language in ("ru", "bg") else 0


def player_items(ctx: Context, seat: int) -> tuple[Item, ...]:
    """What a player's card alone offers: the engine's offers for it (decisions and debts first, the trade
    proposals made to them to accept or refuse, jail, paying the bank); a transfer is made by tapping the
    other player's card. Proposing a trade, and withdrawing one, stay on the phone."""
    game = ctx.game
    assert game is not None
    found = offering.player_offers(game, game.players[seat].name)
    items = [Item("offer", (), o) for o in found if o.kind not in ("transfer", "cancel_trade")]
    if game.turn == seat and not game.ended:
        end = offering.preview(game, EndTurn())
        following = next((e.params.get("player") for e in end.events if e.kind == "turn"), None)
        if end.refusal is None and following is not None:
            items.append(Item("end_turn", params(player=following), Submit(EndTurn())))
    return tuple(items)


def _player_press(gs: GrammarState, current: PlayerStep, press: Press, ctx: Context) -> Out:
    if ctx.game is None:
        return _go(gs, Idle(page_at=ctx.now))
    items = player_items(ctx, current.seat)
    if press.button == "cancel":
        return _go(gs, Idle(page_at=ctx.now))
    if press.button in ("up", "down"):
        delta = 1 if press.button == "down" else -1
        return _go(gs, replace(current, index=(current.index + delta) % len(items)))
    if press.button == "ok":
        index = min(current.index, len(items) - 1)
        return _choose(gs, items[index], current, ctx)
    return gs, []


def _choose(gs: GrammarState, item: Item, current: Step, ctx: Context) -> Out:
    target = item.target
    if isinstance(target, Offer):
        return _choose_offer(gs, target, current, ctx)
    if isinstance(target, DrawCard):
        game = ctx.game
        assert game is not None
        seat = game.seats.get(target.player, 0)
        return _go(gs, _card_chosen(ctx, seat, target, current))
    if isinstance(target, Action):
        return _go(gs, _confirm(ctx, target, current))
    if isinstance(target, SwitchOff):
        # The screen stays on this until the table has stopped and says that the plug may be pulled.
        return _go(gs, Notice("switching_off", until=float("inf"), then=None), target)
    if isinstance(target, tuple):
        effects = list(target)
        return _go(gs, Idle(page_at=ctx.now), *effects)
    if isinstance(target, Reset):
        # A new code is shown at once, as the Phones item shows it; a new PIN when the table has made it.
        return _go(gs, ShowJoin(current, page=1) if target.what == "code" else Idle(page_at=ctx.now), target)
    if isinstance(target, (Submit, Beep, Enroll, Answer, SetLanguage, SwitchGame, StartTimer)):
        return _go(gs, Idle(page_at=ctx.now), target)
    if isinstance(target, Waiting):
        return _go(gs, replace(target, since=ctx.now, back=current))
    if isinstance(target, Amount):
        return _go(gs, replace(target, back=current, last=0.0))
    if isinstance(target, (Menu, NewGameWizard, Enrolling, ShowJoin, RentFrom)):
        return _go(gs, replace(target, back=current))
    return _go(gs, target)


def _choose_offer(gs: GrammarState, offer: Offer, current: Step, ctx: Context) -> Out:
    game = ctx.game
    assert game is not None
    offer = offering.refresh(game, offer)
    if offer.refusal is not None and not offer.short_by:
        return _go(gs, Notice("", until=ctx.now + ERROR_S, then=current, error=True,
                              text=offer.refusal.translated(ctx.language)), Beep("error"))
    seat = current.seat if isinstance(current, (Menu, PlayerStep)) and current.seat >= 0 else -1
    actor = offer.action.actor if offer.action is not None else None
    if seat < 0 and actor:
        seat = game.seats.get(actor, 0)
    return _go(gs, _offer_step(ctx, max(seat, 0), offer, current))


def _menu_press(gs: GrammarState, current: Menu, press: Press, ctx: Context) -> Out:
    if press.button == "cancel":
        return _go(gs, current.back)
    if not current.items:
        return _go(gs, current.back) if press.button == "ok" else (gs, [])
    if press.button in ("up", "down"):
        delta = 1 if press.button == "down" else -1
        return _go(gs, replace(current, index=(current.index + delta) % len(current.items)))
    if press.button == "ok":
        return _choose(gs, current.items[min(current.index, len(current.items) - 1)], current, ctx)
    return gs, []


def _rent_from_press(gs: GrammarState, current: RentFrom, press: Press, ctx: Context) -> Out:
    if press.button == "cancel":
        return _go(gs, current.back)
    return gs, []


def _waiting_press(gs: GrammarState, current: Waiting, press: Press, ctx: Context) -> Out:
    if press.button == "cancel" and current.back is not None:
        return _go(gs, current.back)
    if press.button in ("cancel", "ok"):
        return _go(gs, Idle(page_at=ctx.now))
    return gs, []


def _confirm_press(gs: GrammarState, current: Confirm, press: Press, ctx: Context) -> Out:
    if press.button == "cancel":
        return _go(gs, current.decline if current.decline is not None else current.back)
    if press.button != "ok" or press.long:
        return gs, []
    if ctx.now - current.since < CONFIRM_GUARD_S:
        return gs, [Beep("attention")]
    shown = preview(ctx, current.action)
    if shown.refusal is not None:
        if shown.short_by and ctx.game is not None and current.action.actor in ctx.game.seats:
            seat = ctx.game.seats[str(current.action.actor)]
            return _go(gs, _short_menu(ctx, seat, shown, current.back, current.decline), Beep("error"))
        return _go(gs, Notice("", until=ctx.now + ERROR_S, then=current.back, error=True,
                              text=shown.refusal.translated(ctx.language)), Beep("error"))
    signature = offering.signature(shown)
    if signature != current.shown:
        # The game changed since the screen was drawn (a phone acted): show the new figures first.
        return _go(gs, replace(current, shown=signature), Beep("attention"))
    effects: list[Effect] = [Submit(current.action)]
    return replace(gs, step=replace(current, shown=signature)), effects


def _dice_press(gs: GrammarState, current: Dice, press: Press, ctx: Context) -> Out:
    if press.button == "cancel":
        return _go(gs, current.back)
    if press.button == "up":
        return _go(gs, replace(current, value=min(12, current.value + 1)))
    if press.button == "down":
        return _go(gs, replace(current, value=max(2, current.value - 1)))
    action = current.action
    if isinstance(action, (Rent, DrawCard)):
        return _go(gs, _confirm(ctx, replace(action, dice=current.value), current))
    return gs, []  # pragma: no cover - only rent and cards ask for dice


def _amount_press(gs: GrammarState, current: Amount, press: Press, ctx: Context) -> Out:
    button = press.button
    if button == "cancel":
        return _go(gs, current.back)
    if button == "ok" and press.long:
        return _go(gs, replace(current, step_index=(current.step_index + 1) % len(AMOUNT_STEPS), run=0))
    if button in ("up", "down"):
        direction = 1 if button == "up" else -1
        quick = direction == current.direction and ctx.now - current.last <= AMOUNT_RUN_S
        run = current.run + 1 if quick else 1
        size = amount_step(current.step_index, run)
        value = max(current.minimum, current.value + direction * size)
        if current.maximum:
            value = min(current.maximum, value)
        return _go(gs, replace(current, value=value, run=run, direction=direction, last=ctx.now))
    if button != "ok":
        return gs, []
    action = amount_action(current, ctx)
    if action is None:
        return gs, []
    if isinstance(action, Bid):
        # A bid moves no money until the auction closes; OK on the amount is the bid.
        return _go(gs, current, Submit(action))
    return _go(gs, _confirm(ctx, action, current))


def amount_step(step_index: int, run: int) -> int:
    """The size of one Up/Down step: the chosen step, ×10 after 5 quick presses, ×100 after 15."""
    base = AMOUNT_STEPS[step_index]
    if run > 15:
        return base * 100
    if run > 5:
        return base * 10
    return base


def amount_action(current: Amount, ctx: Context) -> Action | None:
    game = ctx.game
    if game is None or current.value <= 0:
        return None
    offer = current.offer
    if offer is None:
        name = game.players[current.seat].name
        found = offering.player_offers(game, name)
        offer = next((o for o in found if o.kind == current.purpose), None)
        if offer is None:
            return None
    chosen: dict[str, object] = {"amount": current.value}
    if current.to and "to" in offer.needs:
        chosen["to"] = current.to
    done = offering.complete(game, offer, **chosen)
    return done.action if done.complete else None


def _undo_press(gs: GrammarState, current: UndoAsk, press: Press, ctx: Context) -> Out:
    if press.button == "cancel":
        return _go(gs, current.back)
    if press.button == "ok" and not press.long:
        return _go(gs, current, Submit(Undo()))
    return gs, []


def _unknown_press(gs: GrammarState, current: UnknownTag, press: Press, ctx: Context) -> Out:
    if press.button == "ok":
        return _go(gs, _enroll_pick(current.uid, ctx, Idle(page_at=ctx.now)))
    if press.button == "cancel":
        return _go(gs, Idle(page_at=ctx.now))
    return gs, []


def _banker_press(gs: GrammarState, current: BankerAsk, press: Press, ctx: Context) -> Out:
    if press.button in ("ok", "cancel") and not press.long:
        granted = press.button == "ok"
        gs = replace(gs, step=current.back)
        state, effects = _offer_request(gs, ctx)
        return state, [Answer(current.token, granted), Beep("confirm" if granted else "attention"), *effects]
    return gs, []


def _enrolling_press(gs: GrammarState, current: Enrolling, press: Press, ctx: Context) -> Out:
    if press.button == "cancel":
        return _go(gs, Notice("enroll_done", params(count=current.done), until=ctx.now + NOTICE_S,
                              then=current.back or Idle()))
    if press.button in ("ok", "down"):
        position = current.position + 1
        if position >= len(current.meanings):
            return _go(gs, Notice("enroll_done", params(count=current.done), until=ctx.now + NOTICE_S,
                                  then=current.back or Idle()))
        return _go(gs, replace(current, position=position))
    if press.button == "up":
        return _go(gs, replace(current, position=max(0, current.position - 1)))
    return gs, []


WIZARD_QUESTIONS = ("edition", "count", "names", "preset", "mode", "minutes", "start")


def wizard_question(w: NewGameWizard) -> tuple[str, int]:
    """The question the wizard asks now, and for names which player (0-based)."""
    if w.question < 2:
        return WIZARD_QUESTIONS[w.question], 0
    if w.question < 2 + w.count:
        return "names", w.question - 2
    rest = w.question - 2 - w.count
    order = ("preset", "mode", "minutes", "start")
    name = order[min(rest, 3)]
    if name == "minutes" and MODES[w.mode] != "timed":
        name = "start"
    return name, 0


def wizard_action(w: NewGameWizard, ctx: Context) -> NewGame:
    language = ctx.language if ctx.language in NAMES else "en"
    names = tuple(NAMES[language][w.names[i]] for i in range(w.count))
    rules: dict[str, Any] = dict(PRESETS[list(PRESETS)[w.preset]])
    mode = MODES[w.mode]
    if mode == "short":
        rules["short_game"] = True
    elif mode == "timed":
        rules["timed_game"] = True
    return NewGame(EDITIONS[w.edition], names, rules)


def _wizard_press(gs: GrammarState, w: NewGameWizard, press: Press, ctx: Context) -> Out:
    question, index = wizard_question(w)
    button = press.button
    if button == "cancel":
        if w.question == 0:
            return _go(gs, w.back or Idle(page_at=ctx.now))
        back_one = w.question - 1
        if question == "start" and MODES[w.mode] != "timed":
            back_one = 2 + w.count + 1
        return _go(gs, replace(w, question=back_one))
    if button in ("up", "down"):
        delta = 1 if button == "up" else -1
        if question == "edition":
            return _go(gs, replace(w, edition=(w.edition + delta) % len(EDITIONS)))
        if question == "count":
            return _go(gs, replace(w, count=min(8, max(2, w.count + delta))))
        if question == "names":
            names = list(w.names)
            pool = len(NAMES["en"])
            taken = {names[i] for i in range(w.count) if i != index}
            choice = names[index]
            for _ in range(pool):
                choice = (choice + delta) % pool
                if choice not in taken:
                    break
            names[index] = choice
            return _go(gs, replace(w, names=tuple(names)))
        if question == "preset":
            return _go(gs, replace(w, preset=(w.preset + delta) % len(PRESETS)))
        if question == "mode":
            return _go(gs, replace(w, mode=(w.mode + delta) % len(MODES)))
        if question == "minutes":
            return _go(gs, replace(w, minutes=min(len(TIMED_MINUTES) - 1, max(0, w.minutes + delta))))
        return gs, []
    if button != "ok" or press.long:
        return gs, []
    if question == "start":
        action = wizard_action(w, ctx)
        effects: list[Effect] = [Submit(action)]
        if MODES[w.mode] == "timed":
            effects.append(StartTimer(TIMED_MINUTES[w.minutes]))
        return replace(gs, step=w), effects
    nxt = w.question + 1
    if question == "mode" and MODES[w.mode] != "timed":
        nxt += 1
    return _go(gs, replace(w, question=nxt))


def _join_press(gs: GrammarState, current: ShowJoin, press: Press, ctx: Context) -> Out:
    if press.button == "ok" and ctx.wifi_join and current.page == 0:
        return _go(gs, replace(current, page=1))
    if press.button in ("ok", "cancel"):
        return _go(gs, current.back)
    return gs, []


_HANDLERS: dict[type, Any] = {
    Idle: _idle_press,
    PlayerStep: _player_press,
    Menu: _menu_press,
    Waiting: _waiting_press,
    RentFrom: _rent_from_press,
    Confirm: _confirm_press,
    Dice: _dice_press,
    Amount: _amount_press,
    UndoAsk: _undo_press,
    UnknownTag: _unknown_press,
    BankerAsk: _banker_press,
    Enrolling: _enrolling_press,
    NewGameWizard: _wizard_press,
    ShowJoin: _join_press,
}


# --- presses handled before the steps' own: re-teaching a tag, the speaker's settings ----------------
RETAG_FROM = (Waiting, Confirm, Dice, Menu, PlayerStep, Notice, RentFrom)
"""Screens a tap opens on which holding OK re-teaches the tapped tag (an amount keeps its long OK,
which changes the step; an unknown tag's screen teaches it with OK)."""


def _local_press(gs: GrammarState, press: Press, ctx: Context) -> Out | None:
    """Hold OK on the screen a tap opened: what is this tag really? And OK on an item of those menus
    or of the speaker's menu. ``None``: the press is the steps' own."""
    current = gs.step
    if press.button != "ok":
        return None
    if press.long:
        meaning = ctx.tags.meaning_of(gs.tapped) if gs.tapped else None
        if meaning is None or not isinstance(current, RETAG_FROM) or _is_retag_menu(current):
            return None
        return _go(replace(gs, last_input=ctx.now), retag_menu(gs.tapped, meaning, ctx, current), Beep("attention"))
    if not isinstance(current, Menu) or not current.items:
        return None
    target = current.items[min(current.index, len(current.items) - 1)].target
    gs = replace(gs, last_input=ctx.now)
    if isinstance(target, Retag):
        what = label(target.meaning, ctx.edition, ctx.players(), ctx.language)
        if target.other is not None:
            was = label(target.previous, ctx.edition, ctx.players(), ctx.language)
            notice = Notice("retaught_swap", params(what=what, other=was), until=ctx.now + NOTICE_S + 2, then=Idle())
        else:
            notice = Notice("retaught", params(what=what), until=ctx.now + NOTICE_S, then=Idle())
        return _go(gs, notice, target, Beep("confirm"))
    if isinstance(target, SetSpeech):
        menu = replace(speech_menu(target.settings, current.back), index=current.index)
        return _go(gs, menu, target, Beep("confirm"))
    return None


def _is_retag_menu(step: Step) -> bool:
    return isinstance(step, Menu) and step.title_key.startswith("retag")


def _retag_items(uid: str, previous: str, meanings: list[str], ctx: Context) -> tuple[Item, ...]:
    return tuple(Item("enroll_as", params(meaning=m), Retag(uid, m, previous, ctx.tags.uid_of(m)))
                 for m in meanings if m != previous)


def retag_menu(uid: str, meaning: str, ctx: Context, back: Step) -> Menu:
    """What the tag ``uid`` (read as ``meaning``) really is: the others of its kind, the cursor near
    it, then every other kind."""
    parsed = parse_meaning(meaning)
    edition = ctx.edition
    decks = {deck: [f"card:{deck}:{c.id}" for c in edition.decks[deck]] for deck in ("chance", "community_chest")}
    kinds: dict[str, list[str]] = {
        "player": [f"player:{n}" for n in range(1, 9)],
        "deed": [f"deed:{sq}" for sq in DEED_SQUARES],
        "square": [f"square:{name}" for name in SPECIAL_SQUARES],
    }
    same = decks[parsed.deck] if parsed.kind == "card" else kinds[parsed.kind]
    items = list(_retag_items(uid, meaning, same, ctx))
    index = min(same.index(meaning), max(0, len(items) - 1)) if meaning in same else 0
    others = [Item("enroll_bank_card", (), Menu("retag_pick", (), _retag_items(uid, meaning, kinds["player"], ctx),
                                                back)),
              Item("enroll_deed", (), Menu("retag_pick", (), _retag_items(uid, meaning, kinds["deed"], ctx), back)),
              Item("enroll_special", (), Menu("retag_pick", (), _retag_items(uid, meaning, kinds["square"], ctx),
                                              back))]
    for deck, cards in decks.items():
        others.append(Item("enroll_printed", params(deck=edition.deck_names[deck]),
                           Menu("retag_pick", (), _retag_items(uid, meaning, cards, ctx), back)))
    items.append(Item("retag_other", (), Menu("retag_kind", (), tuple(others), back)))
    what = label(meaning, edition, ctx.players(), ctx.language)
    return Menu("retag_what", params(what=what), tuple(items), back, index=index)


def speech_menu(settings: SpeechSettings, back: Step) -> Menu:
    """The speaker's settings at the table: on or off, louder, quieter, the voice."""
    voice = "woman" if settings.voice == "man" else "man"
    items = (Item("speech_on" if settings.on else "speech_off", (), SetSpeech(settings.changed(on=not settings.on))),
             Item("speech_louder", params(volume=settings.volume), SetSpeech(settings.louder())),
             Item("speech_quieter", params(volume=settings.volume), SetSpeech(settings.louder(-1))),
             Item("speech_voice_" + settings.voice, (), SetSpeech(settings.changed(voice=voice))))
    return Menu("speech", (), items, back)
