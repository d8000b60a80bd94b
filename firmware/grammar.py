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

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from banker.actions import (
    Action,
    AuctionClose,
    Bankrupt,
    Bid,
    Build,
    Buy,
    Collect,
    DrawCard,
    EndGame,
    EndTurn,
    FreeParking,
    GoToJail,
    JailFine,
    KeepMortgaged,
    LeaveJail,
    Mortgage,
    NewGame,
    Pay,
    PayDebt,
    Rent,
    Salary,
    SellBuilding,
    SellBuildings,
    StartAuction,
    Tax,
    Undo,
    Unmortgage,
    UseJailCard,
)
from banker.board import moves_of
from banker.edition import Edition, load_edition
from banker.engine import apply
from banker.errors import BankerError
from banker.ledger import Event
from banker.messages import LANGUAGES
from banker.state import GameState
from firmware.moves import notice_seconds
from firmware.tags import DEED_SQUARES, SPECIAL_SQUARES, Meaning, TagSet, all_meanings

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
class Resumed:
    """The program started again with a game in progress (after a power cut or a restart), or the
    setup menu switched to a saved game (``switched_to``: its label)."""

    actions: int
    switched_to: str = ""


@dataclass(frozen=True)
class ReaderFault:
    """Reader ``number`` (1-based) on ``bus`` stopped answering; the others keep working."""

    number: int
    bus: str


@dataclass(frozen=True)
class StartEnrollment:
    """The banker's phone asks the table to enroll its cards."""


Input = TapIn | Press | Tick | Applied | Refused | BankerRequest | Resumed | ReaderFault | StartEnrollment


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
    granted: bool


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


Effect = Submit | Beep | Enroll | Answer | SetLanguage | SwitchGame | StartTimer


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


Out = tuple[GrammarState, list[Effect]]


def params(**values: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(values.items())


# --- the step function -----------------------------------------------------------------------------
def step(gs: GrammarState, event: Input, ctx: Context) -> Out:
    """The one function of the grammar: the next state and the effects for ``event``."""
    gs, effects = _step(gs, event, ctx)
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
    if isinstance(event, Refused):
        return _go(gs, Notice("", until=ctx.now + ERROR_S, then=_back_of(gs.step), error=True,
                              text=event.error.translated(ctx.language)), Beep("error"))
    if isinstance(event, BankerRequest):
        gs = replace(gs, requests=(*gs.requests, event))
        return _offer_request(gs, ctx)
    if isinstance(event, StartEnrollment):
        return _go(replace(gs, last_input=ctx.now), enrollment(Idle(page_at=ctx.now)), Beep("attention"))
    if isinstance(event, ReaderFault):
        notice = Notice("reader_fault", params(number=event.number, bus=event.bus), until=ctx.now + FAULT_S,
                        then=gs.step if not isinstance(gs.step, Notice) else Idle(), error=True)
        return _go(gs, notice, Beep("error"))
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
    if isinstance(current, BankerAsk) and now - current.since >= BANKER_ASK_S:
        gs = replace(gs, step=current.back)
        return gs, [Answer(current.token, False)]
    if isinstance(current, Idle):
        pages = _idle_pages(ctx)
        if pages > 1 and now - current.page_at >= PAGE_S:
            return _go(gs, Idle((current.page + 1) % pages, now))
        return gs, effects
    if isinstance(current, (Enrolling, NewGameWizard, ShowJoin)):
        return gs, effects  # setup waits for the people at the table
    if now - gs.last_input >= IDLE_TIMEOUT_S:
        return _go(gs, Idle(page_at=now))
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
        return _go(gs, Amount("transfer", actor, current, value=0, to=player.name))
    if actor == seat:
        return gs, []
    return _go(gs, PlayerStep(seat))


def _bid_step(ctx: Context, seat: int, back: Step) -> Step:
    game = ctx.game
    assert game is not None and game.auction is not None
    auction = game.auction
    name = game.players[seat].name
    if auction.building:
        streets = [p for p in game.edition.properties if p.kind == "street"
                   and game.props[p.number].owner == seat]
        items = tuple(Item("bid_on", params(property=p.name),
                           Amount("bid", seat, back, value=max(auction.high_bid + 1, p.house_price),
                                  minimum=max(auction.high_bid + 1, p.house_price), property=p.id))
                      for p in streets)
        if not items:
            return Notice("cannot_bid_building", params(player=name), until=ctx.now + ERROR_S, then=back, error=True)
        return Menu("bid_where", params(player=name), items, back)
    start = auction.high_bid + 10 if auction.high_bid else 10
    return Amount("bid", seat, back, value=start, minimum=auction.high_bid + 1)


def _pair(ctx: Context, seat: int, prop_id: str, back: Step, card: str | None = None) -> Step:
    """A player's card with a deed: buy it, pay its rent, or manage it."""
    game = ctx.game
    assert game is not None
    prop = game.edition.property(prop_id)
    ps = game.props[prop.number]
    name = game.players[seat].name
    if ps.owner is None:
        buy = Buy(name, prop.id)
        auction = _confirm(ctx, StartAuction(prop.id, declined_by=name), back)
        return _confirm(ctx, buy, back, decline=auction)
    if ps.owner == seat:
        return _deed_menu(ctx, seat, prop_id, back)
    rent = Rent(name, prop.id, card=card)
    if prop.kind == "utility" and not ps.mortgaged:
        return Dice(rent, back)
    return _confirm(ctx, rent, back)


def _deed_menu(ctx: Context, seat: int, prop_id: str, back: Step) -> Menu:
    game = ctx.game
    assert game is not None
    prop = game.edition.property(prop_id)
    ps = game.props[prop.number]
    name = game.players[seat].name
    money = game.money
    items: list[Item] = []
    if any(d.player == seat and d.property == prop.number for d in game.decisions):
        items.append(Item("lift_mortgage", params(amount=money(game.rules.lift_cost(prop.mortgage))),
                          Unmortgage(name, prop.id)))
        items.append(Item("keep_mortgaged", params(amount=money(game.rules.interest(prop.mortgage))),
                          KeepMortgaged(name, prop.id)))
    else:
        if any(other != seat and not p.bankrupt for other, p in enumerate(game.players)):
            items.append(Item("collect_rent", (), RentFrom(seat, prop.id, back)))
        whole_group = all(game.props[n].owner == seat for n in game.edition.groups[prop.group])
        if prop.kind == "street" and whole_group and not ps.hotel and not ps.mortgaged:
            next_is_hotel = ps.houses + 1 == game.rules.hotel_level
            items.append(Item("build_hotel" if next_is_hotel else "build_house",
                              params(amount=money(prop.house_price)), Build(name, prop.id)))
        if prop.kind == "street" and (ps.houses or ps.hotel):
            items.append(Item("sell_hotel" if ps.hotel else "sell_house",
                              params(amount=money(prop.house_price // 2)), SellBuilding(name, prop.id)))
            breakdown = shortage_breakdown(game, seat, prop.id)
            if breakdown is not None:
                items.append(Item("sell_down", params(levels=_levels_text(game, breakdown)), breakdown))
        if ps.mortgaged:
            items.append(Item("lift_mortgage", params(amount=money(game.rules.lift_cost(prop.mortgage))),
                              Unmortgage(name, prop.id)))
        else:
            items.append(Item("mortgage", params(amount=money(prop.mortgage)), Mortgage(name, prop.id)))
    menu = Menu("deed_menu", params(property=prop.name), (), back, seat=seat)
    items.append(Item("show_card", (), Waiting(Meaning("deed", square=prop.square), -1e9)))
    return replace(menu, items=tuple(items))


def shortage_breakdown(game: GameState, seat: int, prop_id: str) -> SellBuildings | None:
    """When the bank lacks the houses to take a hotel down one step (§6.7), the even levels of the
    group that keep the most buildings and that the bank's houses allow; ``None`` when one step works."""
    prop = game.edition.property(prop_id)
    name = game.players[seat].name
    if not game.props[prop.number].hotel:
        return None
    try:
        apply(game, SellBuilding(name, prop.id))
        return None
    except BankerError as error:
        if error.key != "hotel_breakdown_short":
            return None
    members = game.edition.groups[prop.group]
    current = [game.level(n) for n in members]
    best: tuple[int, SellBuildings] | None = None
    for levels in itertools.product(*(range(level + 1) for level in current)):
        if max(levels) - min(levels) > 1 or list(levels) == current:
            continue
        kept = sum(levels)
        if best is not None and kept <= best[0]:
            continue
        action = SellBuildings(name, {game.edition.properties[n].id: level
                                      for n, level, now in zip(members, levels, current, strict=True)
                                      if level != now})
        try:
            apply(game, action)
        except BankerError:
            continue
        best = (kept, action)
    return best[1] if best is not None else None


def _levels_text(game: GameState, action: SellBuildings) -> str:
    hotel = game.rules.hotel_level
    return ", ".join(f"{game.edition.property(pid).name.split()[0]} {'H' if level == hotel else level}"
                     for pid, level in action.levels.items())


def _special(ctx: Context, seat: int, meaning: Meaning, back: Step) -> Step:
    """A player's card with a special tag or a printed card."""
    game = ctx.game
    assert game is not None
    player = game.players[seat]
    name = player.name
    rules = game.rules
    money = game.money
    if meaning.kind == "card":
        return _card_chosen(ctx, seat, DrawCard(name, meaning.deck, meaning.card), back)
    kind = meaning.special
    if kind == "go":
        if rules.double_salary_on_go:
            items = (Item("passed_go", params(amount=money(rules.salary)), Salary(name)),
                     Item("landed_on_go", params(amount=money(rules.salary * 2)), Salary(name, landed=True)))
            return Menu("go_menu", params(player=name), items, back)
        return _confirm(ctx, Salary(name), back)
    if kind in ("income_tax", "luxury_tax"):
        square = game.edition.square(kind)
        if kind == "income_tax" and rules.income_tax_percent > 0:
            items = (Item("tax_flat", params(amount=money(square.amount)), Tax(name, kind, "flat")),
                     Item("tax_percent", params(percent=rules.income_tax_percent), Tax(name, kind, "percent")))
            return Menu("tax_menu", params(player=name, square=square.name), items, back)
        return _confirm(ctx, Tax(name, kind), back)
    if kind == "jail":
        if player.in_jail:
            jail: list[Item] = [Item("jail_pay_fine", params(amount=money(rules.jail_fine)), JailFine(name))]
            if player.jail_cards:
                jail.append(Item("jail_use_card", (), UseJailCard(name)))
            jail.append(Item("jail_double", (), LeaveJail(name)))
            return Menu("jail_menu", params(player=name), tuple(jail), back)
        return _confirm(ctx, GoToJail(name), back)
    if kind == "free_parking":
        if not rules.free_parking_pot:
            return Notice("free_parking_nothing", until=ctx.now + NOTICE_S, then=Idle())
        return _confirm(ctx, FreeParking(name), back)
    return _card_menu(ctx, seat, kind, back)


def _card_menu(ctx: Context, seat: int, deck: str, back: Step) -> Menu:
    game = ctx.game
    assert game is not None
    name = game.players[seat].name
    items = tuple(Item("card_text", params(text=card.text), DrawCard(name, deck, card.id))
                  for card in game.edition.decks[deck])
    return Menu("card_menu", params(deck=game.edition.deck_names[deck], player=name), items, back)


def _card_chosen(ctx: Context, seat: int, action: DrawCard, back: Step) -> Step:
    """Ask what the card needs to know (where it was drawn, whether GO was passed, pay or draw),
    then confirm it."""
    game = ctx.game
    assert game is not None
    try:
        card = game.edition.card(action.deck, action.card)
    except BankerError as error:
        return Notice("", until=ctx.now + ERROR_S, then=back, error=True, text=error.translated(ctx.language))
    items: tuple[Item, ...]
    if card.kind == "pay_or_draw" and action.choice is None:
        items = (Item("card_pay", params(amount=game.money(card.amount)), replace(action, choice="pay")),
                 Item("card_draw", params(deck=game.edition.deck_names[card.draw]), replace(action, choice="draw")))
        return Menu("card_choice", params(text=card.text), items, back)
    if card.kind in ("nearest", "back") and action.square is None:
        squares = [sq for sq in game.edition.squares if sq.kind == action.deck]
        items = tuple(Item("card_square", params(number=i + 1, square=sq.index,
                                                 next=_next_deed_name(game.edition, sq.index)),
                           replace(action, square=sq.id)) for i, sq in enumerate(squares))
        return Menu("card_where", params(deck=game.edition.deck_names[action.deck]), items, back)
    if card.kind == "advance" and action.square is None and action.passed_go is None:
        try:
            apply(game, action)
        except BankerError as error:
            if error.key == "card_needs_square":
                items = (Item("passed_go_yes", (), replace(action, passed_go=True)),
                         Item("passed_go_no", (), replace(action, passed_go=False)))
                return Menu("card_passed_go", params(text=card.text), items, back)
    return _confirm(ctx, action, back)


def _next_deed_name(edition: Edition, index: int) -> str:
    for offset in range(1, 40):
        prop = edition.by_square.get((index + offset) % 40)
        if prop is not None:
            return prop.name
    return ""  # pragma: no cover - every board has deeds


def _confirm(ctx: Context, action: Action, back: Step, decline: Step | None = None) -> Confirm:
    return Confirm(action, back, shown=preview_signature(ctx, action), decline=decline, since=ctx.now)


def preview(ctx: Context, action: Action) -> tuple[tuple[Event, ...], BankerError | None]:
    """What the action would do now (the engine is pure, so this is exact): its events, or the refusal."""
    if isinstance(action, NewGame):
        try:
            return apply(None, action)[1], None
        except BankerError as error:
            return (), error
    if ctx.game is None:
        return (), None
    try:
        return apply(ctx.game, action)[1], None
    except BankerError as error:
        return (), error


def preview_signature(ctx: Context, action: Action) -> str:
    """A fingerprint of what the confirmation screen says: the money each event moves, or the refusal."""
    events, error = preview(ctx, action)
    if error is not None:
        return f"refused:{error.key}:{sorted(error.params.items())!r}"
    return "|".join(f"{e.kind}:{e.params.get('amount', '')}:{e.params.get('to', '')}" for e in events)


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
        if button == "cancel":
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
    return Menu("setup", (), tuple(items), back)


def _default_edition(ctx: Context) -> int:
    if ctx.game is not None and ctx.game.edition.id in EDITIONS:
        return EDITIONS.index(ctx.game.edition.id)
    return 2 if ctx.language in ("ru", "bg") else 0


def player_items(ctx: Context, seat: int) -> tuple[Item, ...]:
    """What a player's card alone offers: decisions and debts first, jail, paying the bank."""
    game = ctx.game
    assert game is not None
    player = game.players[seat]
    name = player.name
    money = game.money
    items: list[Item] = []
    for decision in game.decisions:
        if decision.player == seat:
            prop = game.edition.properties[decision.property]
            menu = _deed_menu(ctx, seat, prop.id, PlayerStep(seat))
            items.append(Item("decide_on", params(property=prop.name), menu))
    debt = game.debt_total(seat)
    if debt:
        items.append(Item("pay_debt", params(amount=money(debt)), PayDebt(name)))
        items.append(Item("go_bankrupt", (), Bankrupt(name)))
    if player.in_jail:
        items.append(Item("jail_pay_fine", params(amount=money(game.rules.jail_fine)), JailFine(name)))
        if player.jail_cards:
            items.append(Item("jail_use_card", (), UseJailCard(name)))
        items.append(Item("jail_double", (), LeaveJail(name)))
    items.append(Item("pay_bank", (), Amount("pay_bank", seat, PlayerStep(seat), value=10, to="bank")))
    items.append(Item("collect_bank", (), Amount("collect", seat, PlayerStep(seat), value=10, to="bank")))
    if game.turn == seat and not game.ended:
        events, error = preview(ctx, EndTurn())
        following = next((e.params.get("player") for e in events if e.kind == "turn"), None)
        if error is None and following is not None:
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
    if isinstance(target, DrawCard):
        game = ctx.game
        assert game is not None
        seat = game.seats.get(target.player, 0)
        return _go(gs, _card_chosen(ctx, seat, target, current))
    if isinstance(target, Action):
        return _go(gs, _confirm(ctx, target, current))
    if isinstance(target, tuple):
        effects = list(target)
        return _go(gs, Idle(page_at=ctx.now), *effects)
    if isinstance(target, (Submit, Beep, Enroll, Answer, SetLanguage, SwitchGame, StartTimer)):
        return _go(gs, Idle(page_at=ctx.now), target)
    if isinstance(target, Waiting):
        return _go(gs, replace(target, since=ctx.now, back=current))
    if isinstance(target, Amount):
        return _go(gs, replace(target, back=current, last=0.0))
    if isinstance(target, (Menu, NewGameWizard, Enrolling, ShowJoin, RentFrom)):
        return _go(gs, replace(target, back=current))
    return _go(gs, target)


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
    events, error = preview(ctx, current.action)
    if error is not None:
        return _go(gs, Notice("", until=ctx.now + ERROR_S, then=current.back, error=True,
                              text=error.translated(ctx.language)), Beep("error"))
    signature = preview_signature(ctx, current.action)
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
    name = game.players[current.seat].name
    if current.purpose == "transfer":
        return Pay(name, current.value, current.to, reason="transfer")
    if current.purpose == "bid":
        return Bid(name, current.value, current.property)
    if current.purpose == "pay_bank":
        return Pay(name, current.value, "bank")
    return Collect(name, current.value)


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
