"""The whole choice: what a person is asked at a moment of the game, in which order and in which words.

:mod:`banker.offer` says what can be done and what it costs; this module adds everything else a front would
otherwise decide: the title of the choice, its offers in the order they are shown, what is still to choose
(an amount with its range, start and steps, a player, a deed or a card from the engine's list, the dice),
the refused offers with their reasons, and the words of each in the chosen language: the table's menu line
(:data:`MENU_WIDTH` characters, exactly what the OLED shows), the phone's button and the sentence. As
python-chess writes both a move and its name, the engine writes both an offer and its words; the table and
the phone lay them out and never name, order or filter offers themselves.

The moments (:class:`Choice` ``moment``): a player's ``card``, a ``deed``, a ``square``, a ``deck`` (which
printed card was drawn) and a ``drawn`` card (what it still needs), a ``debt``, an ``auction``, a
``proposal``, a refusal for cash (``short``), a decision on a received mortgaged deed (``decide``) and the
``table`` (nobody's card). :func:`offered` is the other half: the offer an action sent from a phone
completes, or :class:`NotOffered`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from banker import balances
from banker import offer as offering
from banker.actions import (
    MAX_TEXT,
    AcceptTrade,
    Action,
    AuctionClose,
    Bankrupt,
    Bid,
    Build,
    Buy,
    CancelTrade,
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
    ProposeTrade,
    RefuseTrade,
    Rent,
    Salary,
    SellAllBuildings,
    SellBuilding,
    SellBuildings,
    StartAuction,
    Tax,
    Undo,
    Unmortgage,
    UseJailCard,
)
from banker.balances import Viewer
from banker.edition import Edition, Property
from banker.errors import IllegalAction
from banker.ledger import Event
from banker.messages import label, render, template
from banker.offer import Offer
from banker.state import GameState
from banker.text import bundle_words, card_title, describe_action, describe_event

MENU_WIDTH = 21
"""Characters of the table's screen line (the 6-pixel font on a 128-pixel OLED): every menu line, title and
footer the engine writes for the table fits it."""
MENU_ROWS = 2
"""Screen lines a menu line may take when its words do not fit one (the table wraps it): its money, a
break-down's streets and levels, are never cut."""
COUNTED_FIRST = frozenset({"repairs", "pay_each", "collect_each"})
"""The printed cards listed first when a player says which card was drawn: those whose money the banker
counts from the board (the repairs, paying or collecting from every player); the others in printed order."""
REFUSED_MARK = "✕ "
"""Before a refused offer's menu line."""
DICE_RANGE = (2, 12)
"""The total of two dice."""
DICE_START = 7
AMOUNT_STEPS = (10, 1, 100)
"""The step sizes of an amount set with the table's Up/Down, the first one used first."""
AMOUNT_START = 10
"""Where an amount to choose starts (a bid: 10 above the high bid)."""
FRONTS = ("table", "phone")

TABLE_HIDDEN = frozenset({"transfer", "cancel_trade"})
"""A player's own offers the table does not list on the card's menu: a transfer is made by tapping the other
player's card, and withdrawing a proposal stays on the phone, where it was made."""
PHONE_HIDDEN = frozenset({"collect", "collect_rent"})
"""Offers the table makes that a player's phone does not: a phone spends only its own player's money, so it
neither takes money from the bank (the banker's correction) nor charges another player's rent (the payer's
phone pays it)."""
DANGER = frozenset({"sell_all_buildings", "sell_down", "bankrupt"})
"""Offers a front shows as dangerous (they cannot be taken back by buying again)."""
NEEDS_TO_FIELD = {"payer": "player", "deed": "property"}
"""An offer's need, as the action's field it fills (the others are the field itself)."""
FREE_TEXT = {"reason": 40}
"""Fields a player writes freely (a payment's reason), with their longest length; a receiver's words to the
proposer of a trade may be as long as any text of an action (:data:`banker.actions.MAX_TEXT`)."""


class NotOffered(IllegalAction):
    """An action from a player's phone that is not one of the offers the engine made to that player (a field
    nobody offered, a value outside the offered range): refused by construction. Its ``action`` parameter is
    the action in words, written in the language the refusal is read in."""

    def __init__(self, key: str, *, edition: Edition | None = None, action: Action | None = None,
                 **params: Any) -> None:
        super().__init__(key, **params)
        self.edition = edition
        self.action = action

    def translated(self, language: str) -> str:
        params = dict(self.params)
        if self.edition is not None and self.action is not None:
            params["action"] = describe_action(self.edition, self.action, language)
        return render(self.key, params, language)

    def __str__(self) -> str:
        return self.translated("en")


# --- the data ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One value of a list to choose from: what is sent and how it is named."""

    value: str
    words: str
    menu: str = ""
    """The table's line for it (fits :data:`MENU_WIDTH`)."""


@dataclass(frozen=True)
class Ask:
    """Something still to choose before an offer is complete."""

    field: str
    """The action's field it fills: ``amount``, ``dice``, ``to``, ``player`` (a payer), ``card``,
    ``property``."""
    words: str
    """The question ("Dice total?", "Which card?"), fitted to the table's line."""
    minimum: int = 0
    maximum: int = 0
    """0: no ceiling."""
    start: int = 0
    steps: tuple[int, ...] = ()
    options: tuple[Option, ...] = ()
    """The values to pick from (a list ask); empty for a number."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "words": self.words}
        if self.options:
            out["options"] = [{"value": o.value, "words": o.words} for o in self.options]
        else:
            out.update(minimum=self.minimum, maximum=self.maximum, start=self.start, steps=list(self.steps))
        return out


@dataclass(frozen=True)
class Item:
    """An offer as it is shown: the offer and its words (the phone's button and the sentence are written when
    they are first read: the table reads only the menu line)."""

    offer: Offer
    menu: str
    """The table's menu line, "✕ " first when refused: :data:`MENU_WIDTH` characters when its words fit them
    (a long deed name gives way to its short form first), else up to :data:`MENU_ROWS` screen lines."""
    refused: str = ""
    """The reason it is refused, as the viewer may read it ("" when allowed)."""
    asks: tuple[Ask, ...] = ()
    danger: bool = False
    context: tuple[GameState, str, Viewer] | None = field(default=None, compare=False, repr=False)
    """The state, the language and the viewer its other words are written for."""

    @cached_property
    def button(self) -> str:
        """The phone's button (or line)."""
        assert self.context is not None
        state, language, _ = self.context
        return button_words(state, self.offer, language)

    @cached_property
    def sentence(self) -> str:
        """What doing it would do, in a sentence (the preview's log), or why not."""
        assert self.context is not None
        state, language, viewer = self.context
        return sentence_words(state, self.offer, language, viewer)

    @property
    def kind(self) -> str:
        return self.offer.kind

    @property
    def action(self) -> Action | None:
        return self.offer.action

    @property
    def allowed(self) -> bool:
        return self.offer.refusal is None

    def to_json(self, state: GameState, language: str) -> dict[str, Any]:
        out = self.offer.to_json(state, language)
        out["menu"], out["button"], out["sentence"] = self.menu, self.button, self.sentence
        if self.refused:
            out.setdefault("refused", {})["text"] = self.refused
        if self.asks:
            out["asks"] = [a.to_json() for a in self.asks]
        if self.danger:
            out["danger"] = True
        return out


@dataclass(frozen=True)
class Choice:
    """What a person is asked at a moment: a title, the offers in the order shown, and the words around them."""

    moment: str
    title: str
    """Fits the table's line."""
    items: tuple[Item, ...]
    player: str | None = None
    hint: str = ""
    """A line above the items (the advisor's payback of the next building), "" for none."""
    footer: str = ""
    """The table's hint line for the choice ("▲▼  OK  ✕ back")."""
    direct: int | None = None
    """The item to go to at once instead of a menu (a purchase or a rent is confirmed straight away)."""
    decline: int | None = None
    """The item ✕ on the direct one leads to (a purchase declined goes to auction)."""
    language: str = "en"

    def __iter__(self) -> Any:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def offers(self) -> list[Offer]:
        return [item.offer for item in self.items]

    def to_json(self, state: GameState) -> dict[str, Any]:
        out: dict[str, Any] = {"moment": self.moment, "title": self.title,
                               "items": [item.to_json(state, self.language) for item in self.items]}
        if self.hint:
            out["hint"] = self.hint
        if self.direct is not None:
            out["direct"] = self.direct
        if self.decline is not None:
            out["decline"] = self.decline
        return out


@dataclass(frozen=True)
class Confirmation:
    """The screen that waits for OK on a complete offer: the engine's dry run in words."""

    title: str
    lines: tuple[str, ...]
    amount: str | None
    """The big line: the money the actor pays or gets ("+$200" when received), or None."""
    footer: str
    sentence: str
    refused: str = ""


# --- words ----------------------------------------------------------------------------------------------
def t(key: str, language: str, **params: Any) -> str:
    return render(key, params, language)


def fit(text: str, width: int = MENU_WIDTH) -> str:
    """``text`` in ``width`` characters: cut with "…" when it is longer."""
    return text if len(text) <= width else text[: max(1, width - 1)].rstrip() + "…"


def titled(text: str, short: str) -> tuple[str, str]:
    """A choice's title and hint: ``text`` as the title when it fits the table's line, else ``short`` as the
    title and the whole ``text`` as the hint line under it (a title is never cut: "Цветан: $600, bankrupt?")."""
    if len(text) <= MENU_WIDTH:
        return text, ""
    return fit(short), text


def short_deed_name(edition: Edition, property_id: str) -> str:
    """The word of a deed's name that tells it from the other deeds: the longest that no other deed of the
    edition has ("Park" of Park Place, "Полянка" of Улица Полянка; never an abbreviation like "St."), else the
    longest that no other deed of its group has ("Pennsylvania" Avenue beside Pacific and North Carolina)."""
    prop = edition.property(property_id)
    for numbers in ([p.number for p in edition.properties], edition.groups[prop.group]):
        others = [edition.properties[n].name.split() for n in numbers if n != prop.number]
        words = [w for w in prop.name.split() if not w.endswith(".") and all(w not in other for other in others)]
        if words:
            return max(words, key=len)
    return prop.name


def deed_title(edition: Edition, property_id: str, words: Callable[[str], str] | None = None) -> str:
    """A title naming a deed in the table's line (:data:`MENU_WIDTH`): ``words(name)`` with the deed's printed
    name when it fits, else with the edition's short form of it ("Рижская ж. д."), else with the word that
    tells it from the other deeds; when none fits, the short form alone (the lines under the title say the
    rest: "Auction: Ленинградская ж. д." is "Ленинградская ж. д." over "No bids yet.")."""
    prop = edition.property(property_id)
    say = words or (lambda name: name)
    short = prop.short or prop.name
    for name in dict.fromkeys((prop.name, short, short_deed_name(edition, property_id))):
        if len(said := say(name)) <= MENU_WIDTH:
            return said
    return fit(short)


def levels_menu(state: GameState, levels: dict[str, int]) -> str:
    """Break-down levels in a menu line: "Park 3, Boardwalk 4" (H for a hotel kept)."""
    hotel = state.rules.hotel_level
    return ", ".join(f"{short_deed_name(state.edition, pid)} {'H' if level == hotel else level}"
                     for pid, level in levels.items())


def levels_words(state: GameState, levels: dict[str, int], language: str) -> str:
    from banker.text import levels_text

    return levels_text(state.edition, dict(levels), language, state.rules.hotel_level)


def next_deed(edition: Edition, index: int) -> Property | None:
    """The first deed after square ``index`` going round the board (where a card's "nearest" leads)."""
    size = len(edition.squares)
    for offset in range(1, size):
        prop = edition.by_square.get((index + offset) % size)
        if prop is not None:
            return prop
    return None  # pragma: no cover - every board has deeds


def _debt_of(offer: Offer) -> Event | None:
    return next((e for e in offer.events if e.kind == "debt"), None) if offer.complete and not offer.refused else None


def _values(state: GameState, offer: Offer, language: str, *, table: bool) -> dict[str, Any]:
    """The parameters of an offer's words: its money and figures, in the edition's money and ``language``."""
    money = state.money
    amount = abs(offer.amount)
    debt = _debt_of(offer)
    if debt is not None:
        amount = int(debt.params.get("amount", 0))  # what the payment is, though it becomes a debt
    values: dict[str, Any] = {"amount": money(amount)}
    for key, value in offer.figures:
        if key in ("value", "interest", "lift", "pot"):
            values[key] = money(int(value))
        elif key == "levels":
            levels = dict(value)
            values[key] = levels_menu(state, levels) if table else levels_words(state, levels, language)
        elif key == "property" and isinstance(value, str) and value in state.edition.by_id:
            values[key] = state.edition.by_id[value].name
        elif key == "square" and offer.kind == "card":
            following = next_deed(state.edition, int(value))
            values["next"] = following.name if following is not None else ""
            values["next_short"] = short_deed_name(state.edition, following.id) if following is not None else ""
        elif key == "text":
            values[key] = card_title(str(value))
        else:
            values[key] = value
    action = offer.action
    prop = getattr(action, "property", None)
    if isinstance(prop, str) and prop in state.edition.by_id:
        values["property"] = state.edition.by_id[prop].name
        values["deed"] = short_deed_name(state.edition, prop)
    square = getattr(action, "square", None)
    if isinstance(square, str) and isinstance(action, Tax):
        values["square"] = state.edition.square(square).name
    if isinstance(action, DrawCard):
        values["deck"] = state.edition.deck_names.get(action.deck, action.deck)
    if isinstance(action, Bid) and state.auction is not None and state.auction.building:
        values["building"] = label(state.auction.building, language)
    if isinstance(action, (Mortgage, Unmortgage, KeepMortgaged)) and isinstance(prop, str):
        deed = state.edition.property(prop)
        rules = state.rules
        values.setdefault("lift", money(rules.lift_cost(deed.mortgage)))
        values.setdefault("value", money(deed.mortgage))
        values.setdefault("interest", money(rules.interest(deed.mortgage)))
        values.setdefault("percent", rules.mortgage_interest_percent)
    if offer.kind == "end_turn":
        following = next((e.params.get("player") for e in offer.events if e.kind == "turn"), None)
        values["player"] = following or ""
    if offer.kind == "undo" and state.history is not None:
        values["what"] = describe_action(state.edition, state.history.action, language, state.rules.hotel_level)
    if debt is not None:
        values["missing"] = money(int(debt.params.get("missing", 0)))
    if offer.short_by:
        values["short"] = money(offer.short_by)
    return values


def _word(offer: Offer, kind: str, part: str, language: str, values: dict[str, Any],
          fallback: Callable[[], str]) -> str:
    """The ``part`` (``menu``, ``button``) of an offer's words: ``choice_<part>_<kind>``, or for an offer with
    something still to choose ``choice_<part>_<kind>_open`` where the catalogue has it."""
    for key in ((f"choice_{part}_{kind}_open",) if offer.needs else ()) + (f"choice_{part}_{kind}",):
        if template(key, language) is not None:
            return render(key, values, language)
    return fallback()


def _kind(offer: Offer, values: dict[str, Any]) -> str:
    """The kind whose words an offer takes: a printed card's offer is the card read out (``card``), or one of
    the squares it may have been drawn on (``card_square``)."""
    if offer.kind == "card" and "number" in values:
        return "card_square"
    return offer.kind


def menu_line(state: GameState, offer: Offer, language: str) -> str:
    """The table's menu line of ``offer``: what it does and its money, "✕ " first when refused, in
    :data:`MENU_WIDTH` characters (a long deed name gives way to its short form first), else in
    :data:`MENU_ROWS` lines of the screen rather than cut."""
    values = _values(state, offer, language, table=True)
    kind = _kind(offer, values)
    def fallback() -> str:
        action = offer.action
        return fit(describe_action(state.edition, action, language, state.rules.hotel_level)) \
            if action is not None else kind

    mark = REFUSED_MARK if offer.refusal is not None else ""
    room = MENU_WIDTH - len(mark)
    text = _word(offer, kind, "menu", language, values, fallback)
    if len(text) > room and ("deed" in values or "next_short" in values):
        shorter = {**values, "property": values.get("deed", values.get("property")),
                   "next": values.get("next_short", values.get("next"))}
        text = _word(offer, kind, "menu", language, shorter, fallback)
    if len(text) > room:
        room = MENU_WIDTH * MENU_ROWS - len(mark)
    return mark + fit(text, room)


def button_words(state: GameState, offer: Offer, language: str) -> str:
    """The phone's button of ``offer``: what it does, naming its deed, with the engine's figures (a payment that
    would become a debt says so: "Pay Income Tax ($200: $168 short)")."""
    values = _values(state, offer, language, table=False)
    kind = _kind(offer, values)
    def fallback() -> str:
        action = offer.action
        return describe_action(state.edition, action, language, state.rules.hotel_level) \
            if action is not None else kind

    text = _word(offer, kind, "button", language, values, fallback)
    if _debt_of(offer) is not None:
        text = t("choice_becomes_debt", language, text=text, missing=values["missing"])
    return text


def refusal_words(state: GameState, offer: Offer, language: str, viewer: Viewer) -> str:
    if offer.refusal is None:
        return ""
    return balances.refusal_text(state, offer.refusal, language, viewer)


def sentence_words(state: GameState, offer: Offer, language: str, viewer: Viewer) -> str:
    """What doing ``offer`` would do: its preview's log lines (as ``viewer`` may read them), or why not."""
    if offer.refusal is not None:
        return refusal_words(state, offer, language, viewer)
    if offer.complete:
        lines = balances.log_lines(state, [e for e in offer.events if e.kind != "board"], language, viewer)
        if lines:
            return " ".join(lines)
    return button_words(state, offer, language)


def asks_of(state: GameState, offer: Offer, language: str) -> tuple[Ask, ...]:
    """What is still to choose for ``offer``, each with its range or its list, in the order it is asked."""
    out: list[Ask] = []
    action = offer.action
    for need in offer.needs:
        field = NEEDS_TO_FIELD.get(need, need)
        if need == "dice":
            low, high = (offer.minimum or DICE_RANGE[0], offer.maximum or DICE_RANGE[1])
            out.append(Ask("dice", fit(t("choice_ask_dice", language)), low, high, DICE_START, (1,)))
        elif need == "amount":
            start = AMOUNT_START
            if isinstance(action, Bid) and state.auction is not None and state.auction.high_bid:
                start = state.auction.high_bid + AMOUNT_START
            start = max(offer.minimum, start)
            if offer.maximum:
                start = min(start, offer.maximum)
            out.append(Ask("amount", fit(t("choice_ask_amount", language)), offer.minimum, offer.maximum,
                           start, AMOUNT_STEPS))
        elif need in ("to", "payer"):
            actor = action.actor if action is not None else None
            owner = _owner_name(state, action) if need == "payer" else None
            names = [p.name for p in state.players if not p.bankrupt and p.name not in (actor, owner)]
            out.append(Ask(field, fit(t(f"choice_ask_{need}", language)),
                           options=tuple(Option(n, n, fit(n)) for n in names)))
        elif need == "card" and isinstance(action, DrawCard):
            edition = state.edition
            cards = sorted(edition.decks[action.deck], key=lambda c: c.kind not in COUNTED_FIRST)
            titles = [card_title(edition.card_text(c, language)) for c in cards]
            out.append(Ask("card", fit(t("choice_ask_card", language,
                                         deck=edition.deck_names.get(action.deck, action.deck))),
                           options=tuple(Option(c.id, title, fit(title + ".", MENU_ROWS * MENU_WIDTH - 2))
                                         for c, title in zip(cards, titles, strict=True))))
        elif need == "property" and offer.choices:
            out.append(Ask("property", fit(t("choice_ask_property", language)),
                           options=tuple(Option(str(c.figure("property")),
                                                state.edition.property(str(c.figure("property"))).name,
                                                fit(state.edition.property(str(c.figure("property"))).name))
                                         for c in offer.choices)))
        elif offer.choices:
            continue  # a choice among complete offers: the follow-up choice lists them (:func:`follow`)
        else:
            out.append(Ask(field, fit(t("choice_ask_other", language))))
    return tuple(out)


def _owner_name(state: GameState, action: Action | None) -> str | None:
    prop = getattr(action, "property", None)
    if not isinstance(prop, str) or prop not in state.edition.by_id:
        return None
    owner = state.props[state.edition.by_id[prop].number].owner
    return state.players[owner].name if owner is not None else None


def item(state: GameState, offer: Offer, language: str = "en", viewer: Viewer = balances.TABLE) -> Item:
    """``offer`` with its words in ``language`` (refusals as ``viewer`` may read them)."""
    return Item(offer, menu_line(state, offer, language), refusal_words(state, offer, language, viewer),
                asks_of(state, offer, language), danger=offer.kind in DANGER, context=(state, language, viewer))


def _items(state: GameState, found: Iterable[Offer], language: str, viewer: Viewer) -> tuple[Item, ...]:
    return tuple(item(state, o, language, viewer) for o in found)


def _menu_footer(language: str) -> str:
    return t("table_footer_menu_ok", language)


def visible(found: Iterable[Offer], front: str) -> list[Offer]:
    """The offers ``front`` (``table`` or ``phone``) shows of ``found``."""
    hidden = TABLE_HIDDEN if front == "table" else PHONE_HIDDEN
    return [o for o in found if o.kind not in hidden]


# --- the moments ----------------------------------------------------------------------------------------
def card_choice(state: GameState, player: str, language: str = "en", viewer: Viewer = balances.TABLE, *,
                front: str = "phone") -> Choice:
    """What a player's own card offers: decisions on received mortgaged deeds, the debt (pay or go bankrupt),
    the trade proposals to answer or withdraw, jail, paying and collecting, and on the table ending the turn
    when it is theirs. The table leaves out a transfer (tap the other player's card) and withdrawing a
    proposal (on the phone, where it was made)."""
    found = visible(offering.player_offers(state, player), front)
    if front == "table":
        seat = state.seat(player)
        if state.turn == seat and not state.ended:
            end = offering.make(state, "end_turn", EndTurn())
            if end.refusal is None and any(e.kind == "turn" for e in end.events):
                found.append(end)
    name = state.players[state.seat(player)].name
    return Choice("card", fit(name), _items(state, found, language, viewer), player=player,
                  footer=t("table_footer_menu", language), language=language)


def deed_choice(state: GameState, player: str, deed: str, language: str = "en", viewer: Viewer = balances.TABLE, *,
                rent_card: str | None = None, hint: str = "", front: str = "phone") -> Choice:
    """A player and a deed: buy it (✕ puts it up for auction), pay its rent, or, as its owner, the owner's
    menu (collect rent, build, sell, break down in a shortage, mortgage, lift)."""
    found = visible(offering.deed_offers(state, player, deed, rent_card=rent_card), front)
    prop = state.edition.property(deed)
    items = _items(state, found, language, viewer)
    direct = decline = None
    footer = _menu_footer(language)
    if found and found[0].kind == "buy":
        direct, decline = 0, 1
        footer = t("table_footer_decline", language)
    elif found and found[0].kind == "rent":
        direct = 0
    return Choice("deed", deed_title(state.edition, prop.id), items, player=player, hint=hint, footer=footer,
                  direct=direct, decline=decline, language=language)


SQUARE_TITLES = {"go": "go", "income_tax": "tax", "luxury_tax": "tax", "jail": "jail", "go_to_jail": "jail",
                 "free_parking": "free_parking", "chance": "deck", "community_chest": "deck"}
"""The title of each special square's choice (``choice_title_…``)."""


def square_choice(state: GameState, player: str, square: str, language: str = "en",
                  viewer: Viewer = balances.TABLE) -> Choice:
    """A player on a square that is not a deed: GO, a tax, Jail, Free Parking, a deck. A single offer is
    taken at once; nothing to do (Free Parking under the printed rules) is an empty choice with its reason."""
    found = offering.square_offers(state, player, square)
    name = state.players[state.seat(player)].name
    what = state.edition.deck_names[square] if square in state.edition.decks else state.edition.square(square).name
    title = fit(t("choice_title_" + SQUARE_TITLES.get(square, "go"), language, player=name, square=what,
                  deck=state.edition.deck_names.get(square, what)))
    items = _items(state, found, language, viewer)
    hint = t("choice_nothing_free_parking", language) if not found and square == "free_parking" else ""
    return Choice("square", title, items, player=player, hint=hint, footer=_menu_footer(language),
                  direct=0 if len(items) == 1 else None, language=language)


def deck_choice(state: GameState, player: str, deck: str, language: str = "en",
                viewer: Viewer = balances.TABLE) -> Choice:
    """Which printed card of ``deck`` was drawn: one offer whose ask lists the deck's cards."""
    offer = Offer("card", DrawCard(player, deck, ""), needs=("card",),
                  figures=(("deck", state.edition.deck_names.get(deck, deck)),))
    name = state.players[state.seat(player)].name
    deck_name = state.edition.deck_names.get(deck, deck)
    title, hint = titled(t("table_menu_card_menu", language, deck=deck_name, player=name), deck_name)
    return Choice("deck", title, (item(state, offer, language, viewer),), player=player, hint=hint, direct=0,
                  footer=_menu_footer(language), language=language)


FOLLOW_TITLES = {"choice": "table_menu_card_choice", "square": "table_menu_card_where",
                 "passed_go": "table_menu_card_passed_go", "deed": "choice_title_decide",
                 "property": "table_menu_bid_where"}
"""The title of the choice an offer's own choices are picked from, by what it needs."""


def drawn_choice(state: GameState, action: DrawCard, language: str = "en", viewer: Viewer = balances.TABLE) -> Choice:
    """A printed card drawn by a player: complete (confirm it), or what it still needs (pay or draw, where it
    was drawn, whether GO was passed: a choice of complete offers; the dice: an ask).

    Raises:
        BankerError: no such card in that deck.
    """
    offer = offering.card_offer(state, action)
    if offer.choices:
        return follow(state, item(state, offer, language, viewer), language, viewer)
    title = fit(state.edition.deck_names.get(action.deck, action.deck))
    return Choice("drawn", title, (item(state, offer, language, viewer),), player=action.player, direct=0,
                  footer=_menu_footer(language), language=language)


def follow(state: GameState, shown: Item, language: str = "en", viewer: Viewer = balances.TABLE) -> Choice:
    """The choice an item leads to when it is a choice among complete offers (a card's pay or draw, where it
    was drawn, whether GO was passed; a decision on a received mortgaged deed; the street to bid for)."""
    offer = shown.offer
    need = offer.needs[0] if offer.needs else "choice"
    action = offer.action
    deck = state.edition.deck_names.get(action.deck, action.deck) if isinstance(action, DrawCard) else ""
    player = action.actor if action is not None else None
    prop = offer.figure("property")

    def words(name: str) -> str:
        return t(FOLLOW_TITLES.get(need, "table_menu_card_choice"), language, deck=deck, property=name,
                 player=player or "", text="")

    title = deed_title(state.edition, prop, words) if isinstance(prop, str) else fit(words(""))
    hint = card_title(str(offer.figure("text"))) if offer.figure("text") else ""
    return Choice("decide" if need == "deed" else "drawn", title, _items(state, offer.choices, language, viewer),
                  player=player, hint=hint, footer=_menu_footer(language), language=language)


def debt_choice(state: GameState, player: str, language: str = "en", viewer: Viewer = balances.TABLE) -> Choice:
    """A debtor's choice: pay the debt or go bankrupt, then the engine's ways to raise what is missing."""
    from banker.worth import missing

    seat = state.seat(player)
    found = [o for o in offering.player_offers(state, player) if o.kind in ("pay_debt", "bankrupt")]
    short = missing(state, seat)
    ways = offering.raise_cash(state, player, short) if short else []
    name = state.players[seat].name
    total = state.debt_total(seat)
    key = "table_title_owes_bankrupt" if must_go_bankrupt(state, seat) else "table_title_owes"
    title = t(key, language, player=name, amount=state.money(total))
    if len(title) > MENU_WIDTH:  # the amount is on the creditors' lines: the title keeps what it asks
        title = fit(t(key.replace("table_", "choice_") + "_short", language, player=name))
    return Choice("debt", title, _items(state, [*found, *ways], language, viewer), player=player,
                  footer=_menu_footer(language), language=language)


def must_go_bankrupt(state: GameState, seat: int) -> bool:
    """Whether everything the debtor has, sold and mortgaged, would not cover their debts."""
    from banker.worth import liquidation_value

    return liquidation_value(state, seat) < state.debt_total(seat)


def auction_choice(state: GameState, player: str, language: str = "en", viewer: Viewer = balances.TABLE) -> Choice:
    """A bid in the open auction: its amount to choose (above the high bid, up to the bidder's cash), or, for
    a building, the bidder's streets to choose from first; refused with the reason when the player may not bid."""
    bid = offering.bid_offer(state, player)
    name = state.players[state.seat(player)].name
    if bid.choices:
        return Choice("auction", fit(t("table_menu_bid_where", language, player=name)),
                      _items(state, bid.choices, language, viewer), player=player, footer=_menu_footer(language),
                      language=language)
    return Choice("auction", fit(t("table_title_bid", language, player=name)),
                  (item(state, bid, language, viewer),), player=player, direct=0, language=language)


def proposal_choice(state: GameState, player: str, proposal: int, language: str = "en",
                    viewer: Viewer = balances.TABLE) -> Choice:
    """The answers ``player`` can give to one trade proposal (accept or refuse as its receiver, withdraw as
    its proposer), with what each side gives as the hint."""
    found = [o for o in offering.proposal_offers(state, player) if o.figure("proposal") == proposal]
    hint = ""
    chosen = next((p for p in state.proposals if p.id == proposal), None)
    if chosen is not None:
        hint = trade_words(state, chosen.trade.from_, chosen.trade.to, chosen.trade.give.to_json(),
                           chosen.trade.take.to_json(), language)
    return Choice("proposal", fit(t("table_title_trade", language)), _items(state, found, language, viewer),
                  player=player, hint=hint, footer=_menu_footer(language), language=language)


def trade_words(state: GameState, giver: str, receiver: str, give: dict[str, Any], take: dict[str, Any],
                language: str) -> str:
    """What each side of a trade gives, in words: "Ann gives Baltic Avenue; Bob gives $100"."""
    return "; ".join([t("table_trade_gives", language, player=giver, what=bundle_words(state.edition, give, language)),
                      t("table_trade_gives", language, player=receiver,
                        what=bundle_words(state.edition, take, language))])


def short_choice(state: GameState, offer: Offer, language: str = "en", viewer: Viewer = balances.TABLE) -> Choice:
    """A refusal for cash: the ways the engine offers to raise what is missing, cheapest sacrifice first (and
    the auction, for a purchase the buyer cannot pay)."""
    player = str(offer.action.actor) if offer.action is not None and offer.action.actor else ""
    ways = offering.raise_cash(state, player, offer.short_by) if player in state.seats else []
    if isinstance(offer.action, Buy):
        ways.append(offering.make(state, "auction", StartAuction(offer.action.property, declined_by=player)))
    return Choice("short", fit(t("table_menu_short_by", language, amount=state.money(offer.short_by))),
                  _items(state, ways, language, viewer), player=player or None, footer=_menu_footer(language),
                  language=language)


def table_choice(state: GameState, language: str = "en", viewer: Viewer = balances.TABLE) -> Choice:
    """What nobody's card is needed for: closing the auction, undoing, ending the turn or the game."""
    return Choice("table", fit(t("table_title_banker", language)),
                  _items(state, offering.table_offers(state), language, viewer), footer=_menu_footer(language),
                  language=language)


def choice(state: GameState, player: str | None = None, *, deed: str | None = None, square: str | None = None,
           language: str = "en", viewer: Viewer = balances.TABLE, front: str = "phone",
           rent_card: str | None = None) -> Choice:
    """The choice at ``deed`` or ``square`` for ``player``, at their own card when neither is given, or the
    table's when ``player`` is None: what ``banker offers`` prints and ``GET /api/offers`` answers."""
    if player is None:
        return table_choice(state, language, viewer)
    if deed is not None:
        return deed_choice(state, player, deed, language, viewer, rent_card=rent_card, front=front)
    if square is not None:
        return square_choice(state, player, square, language, viewer)
    return card_choice(state, player, language, viewer, front=front)


# --- confirming -------------------------------------------------------------------------------------------
def _signed(state: GameState, amount: int) -> str:
    return ("+" if amount > 0 else "") + state.money(abs(amount)) if amount else state.money(0)


def confirmation(state: GameState | None, offer: Offer, language: str = "en", viewer: Viewer = balances.TABLE, *,
                 declines_to_auction: bool = False) -> Confirmation:
    """What the screen that waits for OK says about a complete offer: a title (its deed, deck, square or what
    it is), the lines of what happens, the money as the big line, and the buttons' words (OK pay, OK owe)."""
    action = offer.action
    assert action is not None
    title = fit(action_title(state, action, language))
    if offer.refusal is not None:
        reason = refusal_words(state, offer, language, viewer) if state is not None \
            else offer.refusal.translated(language)
        return Confirmation(title, (reason,), None, t("table_footer_back", language), reason, reason)
    if state is None:
        if isinstance(action, NewGame):
            return Confirmation(title, (", ".join(action.players),), None, t("table_footer_ok", language),
                                describe_action(_edition_of(action), action, language))
        return Confirmation(title, (), None, t("table_footer_ok", language), "")
    events = offer.events
    actor = action.actor or ""
    flow = offering.flow(events, actor) if actor else 0
    sentence = sentence_words(state, offer, language, viewer)
    footer = t("table_footer_ok_pay" if flow < 0 else "table_footer_ok", language)
    if declines_to_auction:
        footer = t("table_footer_decline", language)
    debt = next((e for e in events if e.kind == "debt"), None)
    if debt is not None:
        to = str(debt.params.get("to", ""))
        creditor = label(to, language) if to in ("bank", "pot") else to
        lines = (t("table_becomes_debt", language, player=actor, creditor=creditor),
                 t("table_debt_missing", language, amount=state.money(int(debt.params.get("missing", 0)))))
        return Confirmation(title, lines, state.money(int(debt.params.get("amount", 0))),
                            t("table_footer_ok_owe", language), sentence)
    if isinstance(action, Bankrupt):
        footer = t("choice_footer_bankrupt", language)
    amount: str | None = None
    if flow:
        amount = _signed(state, flow) if flow > 0 else state.money(-flow)
    elif isinstance(action, AuctionClose):
        won = next((e for e in events if e.kind == "auction_won"), None)
        if won is not None:
            amount = state.money(int(won.params.get("amount", 0)))
    return Confirmation(title, tuple(action_lines(state, action, events, language)), amount, footer, sentence)


def _edition_of(action: NewGame) -> Edition:
    from banker.edition import load_edition

    return load_edition(action.edition)


TITLE_KEYS: dict[type[Action], str] = {
    Salary: "title_go", Pay: "title_pay", Collect: "title_collect", PayDebt: "title_pay_debt",
    Bankrupt: "title_bankrupt", AuctionClose: "title_close_auction", FreeParking: "title_free_parking",
    GoToJail: "title_jail", JailFine: "title_jail", UseJailCard: "title_jail", LeaveJail: "title_jail",
    Undo: "title_undo", EndGame: "title_end_game", NewGame: "title_new_game", SellBuildings: "title_sell_down",
    AcceptTrade: "title_trade", RefuseTrade: "title_trade", CancelTrade: "title_trade", EndTurn: "title_end_turn",
}
"""The confirmation's title of an action that names no deed, deck or square (``table_…``)."""


def action_title(state: GameState | None, action: Action, language: str) -> str:
    """The title of an action's confirmation: its deed, its deck, its square, or what it is."""
    prop_id = getattr(action, "property", None)
    named = state is not None and isinstance(prop_id, str) and prop_id in state.edition.by_id
    if named and state is not None and isinstance(prop_id, str) and not isinstance(action, Bid):
        return deed_title(state.edition, prop_id)
    if isinstance(action, DrawCard) and state is not None:
        return state.edition.deck_names.get(action.deck, action.deck)
    if isinstance(action, Tax) and state is not None:
        return state.edition.square(action.square).name
    if isinstance(action, (AcceptTrade, RefuseTrade)) and state is not None:
        found = next((p for p in state.proposals if p.id == action.proposal), None)
        if found is not None:  # what OK does: "Accept Ann's deal"
            kind = "accept_trade" if isinstance(action, AcceptTrade) else "refuse_trade"
            return t(f"choice_menu_{kind}", language, player=found.trade.from_)
    key = TITLE_KEYS.get(type(action), "title_confirm")
    return t(("choice_" if key == "title_end_turn" else "table_") + key, language)


def action_lines(state: GameState, action: Action, events: Sequence[Event], language: str) -> list[str]:
    """The lines of an action's confirmation: what happens, in short words for the table's screen."""
    actor = action.actor or ""
    money = state.money

    def line(key: str, **values: Any) -> list[str]:
        return [t("table_" + key, language, **values)]

    if isinstance(action, Rent):
        no_rent = next((e for e in events if e.kind == "no_rent"), None)
        if no_rent is not None:
            return line("no_rent", basis=label(str(no_rent.params.get("basis", "")), language))
        paid = next((e for e in events if e.kind == "paid"), None)
        basis = str(paid.params.get("basis", "")) if paid is not None else ""
        owner = str(paid.params.get("to", "")) if paid is not None else ""
        why = basis_words(basis, language)
        if action.dice is not None:  # what the dice made the rent, then why: a row each on the screen
            return [*line("rent_dice_line", player=actor, to=owner, dice=action.dice), why]
        return line("rent_line", player=actor, to=owner, basis=why)
    if isinstance(action, Buy):
        return line("buys", player=actor)
    if isinstance(action, StartAuction):
        return line("auction_offer")
    if isinstance(action, Build):
        built = next((e for e in events if e.kind == "built"), None)
        if built is not None and built.params.get("hotel"):
            return line("builds_hotel", player=actor)
        return line("builds_house", player=actor, number=int(built.params.get("houses", 0)) if built else 0)
    if isinstance(action, SellBuilding):
        return line("sells_building", player=actor)
    if isinstance(action, Mortgage):
        return line("mortgage_line", player=actor)
    if isinstance(action, Unmortgage):
        prop = state.edition.property(action.property)
        interest = -offering.flow(tuple(events), actor) - prop.mortgage
        return line("lift_line", value=money(prop.mortgage), interest=money(interest),
                    percent=state.rules.mortgage_interest_percent)
    if isinstance(action, KeepMortgaged):
        return line("keep_line", percent=state.rules.mortgage_interest_percent)
    if isinstance(action, Salary):
        return line("salary_line", player=actor)
    if isinstance(action, Pay):
        to = label(action.to, language) if action.to in ("bank", "pot") else action.to
        return line("pays_to", player=actor, to=to)
    if isinstance(action, Collect):
        return line("bank_pays", player=actor)
    if isinstance(action, Tax):
        return line("pays_tax", player=actor)
    if isinstance(action, DrawCard):
        return [state.edition.card_text(state.edition.card(action.deck, action.card), language)]
    if isinstance(action, PayDebt):
        return line("pays_debts", player=actor)
    if isinstance(action, Bankrupt):
        return [*line("bankrupt_line", player=actor), *line("bankrupt_settles")]
    if isinstance(action, AuctionClose):
        won = next((e for e in events if e.kind == "auction_won"), None)
        if won is not None:
            return line("auction_sold", player=str(won.params.get("player", "")))
        return line("auction_unsold")
    if isinstance(action, FreeParking):
        return line("takes_pot", player=actor)
    if isinstance(action, GoToJail):
        return line("goes_to_jail", player=actor)
    if isinstance(action, JailFine):
        return line("pays_fine", player=actor)
    if isinstance(action, UseJailCard):
        return line("uses_card", player=actor)
    if isinstance(action, LeaveJail):
        return line("rolled_double", player=actor)
    if isinstance(action, (AcceptTrade, RefuseTrade, CancelTrade)):
        found = next((p for p in state.proposals if p.id == action.proposal), None)
        if found is not None:
            trade = found.trade
            return [trade_words(state, trade.from_, trade.to, trade.give.to_json(), trade.take.to_json(), language)]
    return [describe_event(state.edition, e, language) for e in events[:3] if e.kind not in ("card", "board")]


def basis_words(basis: str, language: str) -> str:
    """Why the rent is what it is: "2 houses", "whole group: double", "3 railroads owned"."""
    kind, _, number = basis.partition("_")
    if kind in ("houses", "railroads", "utilities") and number.isdigit():
        return t("table_basis_" + kind, language, count=int(number))
    return t("table_basis_" + basis, language)


# --- what a phone may send --------------------------------------------------------------------------------
def _flatten(found: Iterable[Offer]) -> Iterable[Offer]:
    for offer in found:
        yield offer
        yield from _flatten(offer.choices)


def offers_for(state: GameState, player: str, action: Action, front: str = "phone") -> list[Offer]:
    """Every offer made to ``player`` on ``front`` that an action like ``action`` could complete: at its deed,
    at every square, on their own card, in the open auction, for its printed card."""
    out: list[Offer] = []
    prop = getattr(action, "property", None)
    if isinstance(action, (Buy, Rent, Build, SellBuilding, SellAllBuildings, Mortgage, Unmortgage, KeepMortgaged,
                           StartAuction)) and isinstance(prop, str) and prop in state.edition.by_id:
        card = action.card if isinstance(action, Rent) else None
        out += offering.deed_offers(state, player, prop, rent_card=card)
    elif isinstance(action, SellBuildings):
        for deed in action.levels:
            if deed in state.edition.by_id:
                out += offering.deed_offers(state, player, deed)
    elif isinstance(action, (Salary, Tax, GoToJail, JailFine, UseJailCard, LeaveJail, FreeParking)):
        for square in ("go", "income_tax", "luxury_tax", "jail", "free_parking"):
            out += offering.square_offers(state, player, square)
    elif isinstance(action, DrawCard):
        if action.deck in state.edition.decks and any(c.id == action.card for c in state.edition.decks[action.deck]):
            bare = DrawCard(player, action.deck, action.card)
            out.append(offering.card_offer(state, bare))
            squares = [sq for sq in state.edition.squares if sq.kind == action.deck]
            where = next((sq.id for sq in squares if action.square in (sq.id, str(sq.index))), None)
            if where is not None:  # where it was drawn, which says whether GO was passed
                out.append(offering.card_offer(state, replace(bare, square=action.square)))
    elif isinstance(action, Bid):
        out.append(offering.bid_offer(state, player))
    elif isinstance(action, ProposeTrade):
        out.append(propose_offer(state, player))
    else:
        out += offering.player_offers(state, player)
    return visible(_flatten(out), front)


def propose_offer(state: GameState, player: str) -> Offer:
    """A trade proposal from ``player``: to another player still in the game, giving and asking for deeds they
    hold, cash and jail cards (the engine's own checks decide the rest when it is sent)."""
    return Offer("propose_trade", ProposeTrade(player, ""), needs=("to", "give", "take"))


def _field_names(action: Action) -> list[str]:
    return [f.name for f in fields(action)]


def _within(state: GameState, offer: Offer, player: str, name: str, value: Any, template_value: Any) -> bool:
    """Whether ``value`` of field ``name`` is inside what ``offer`` left to choose."""
    if name == "amount":
        return isinstance(value, int) and not isinstance(value, bool) and value >= max(1, offer.minimum) and \
            (not offer.maximum or value <= offer.maximum)
    if name == "dice":
        low, high = offer.minimum or DICE_RANGE[0], offer.maximum or DICE_RANGE[1]
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    if name in ("to", "player"):
        allowed = {o.value for a in asks_of(state, offer, "en") if a.field == name for o in a.options}
        return isinstance(value, str) and value in allowed
    if name == "card" and isinstance(offer.action, DrawCard):
        return isinstance(value, str) and any(c.id == value for c in state.edition.decks[offer.action.deck])
    if name in ("give", "take"):
        return _bundle_within(state, player, value, own=name == "give")
    return False


def _bundle_within(state: GameState, player: str, bundle: Any, *, own: bool) -> bool:
    from banker.actions import Bundle

    if not isinstance(bundle, Bundle):
        return False
    if bundle.cash < 0 or bundle.jail_cards < 0:
        return False
    if own:
        me = state.players[state.seat(player)]
        if bundle.jail_cards > len(me.jail_cards):
            return False
    return all(p in state.edition.by_id for p in bundle.properties)


def offered(state: GameState, player: str, action: Action, front: str = "phone") -> Offer:
    """The offer made to ``player`` that ``action`` is, previewed: every field the offer fixed has the offered
    value, every field it left open is inside the offered range or list, and free text (a payment's reason)
    is short. What a phone sends is accepted only this way.

    Raises:
        BankerError: the rules refuse ``action`` now (their own reason), or :class:`NotOffered`: they would
        allow it but it is none of the offers made to ``player`` (a price, the bank's money, another
        player's salary). The state is unchanged.
    """
    if player not in state.seats or state.players[state.seat(player)].bankrupt:
        raise NotOffered("not_offered", player=player, edition=state.edition, action=action)
    if action.actor is not None and action.actor != player:
        # Another player's action is never offered to this one, and the rules' reason would be about that
        # player (under hidden balances it would tell their cash).
        raise NotOffered("not_offered", player=player, edition=state.edition, action=action)
    names = _field_names(action)
    for offer in offers_for(state, player, action, front):
        template_action = offer.action
        if template_action is None or type(template_action) is not type(action):
            continue
        open_fields = {NEEDS_TO_FIELD.get(n, n) for n in offer.needs}
        if isinstance(action, ProposeTrade):
            open_fields |= {"settles_debt"}
        if isinstance(template_action, DrawCard) and template_action.square is None:
            open_fields |= {"where"}  # where a card that goes nowhere was drawn: any square of its deck
        good = True
        for name in names:
            mine, theirs = getattr(action, name), getattr(template_action, name)
            key = name.rstrip("_")
            if key in FREE_TEXT:
                longest = MAX_TEXT if isinstance(action, RefuseTrade) else FREE_TEXT[key]
                if not isinstance(mine, str) or len(mine) > longest:
                    good = False
                    break
                continue
            if key == "terms" and isinstance(action, AcceptTrade):
                # The terms the receiver was shown, or none: other terms are refused by the rules (they changed).
                if mine == "" or mine == _terms_of(state, action.proposal):
                    continue
                good = False
                break
            if key == "square" and "where" in open_fields and isinstance(template_action, DrawCard):
                squares = [sq for sq in state.edition.squares if sq.kind == template_action.deck]
                if mine is None or mine in [sq.id for sq in squares] + [str(sq.index) for sq in squares]:
                    continue
                good = False
                break
            if key in open_fields:
                if key == "settles_debt":
                    continue
                if not _within(state, offer, player, key, mine, theirs):
                    good = False
                    break
            elif mine != theirs:
                good = False
                break
        if not good:
            continue
        if offer.needs:
            chosen = {NEEDS_TO_FIELD.get(n, n): getattr(action, NEEDS_TO_FIELD.get(n, n)) for n in offer.needs
                      if hasattr(action, NEEDS_TO_FIELD.get(n, n))}
            if isinstance(action, (DrawCard, ProposeTrade)):
                return offering.make(state, offer.kind, action)
            done = offering.complete(state, offer, **{_need_name(offer, k): v for k, v in chosen.items()})
            if done.complete:
                return replace(done, action=action) if done.action != action else done
            continue
        return offer
    refusal = offering.attempt(state, action)[1]
    if refusal is not None:
        raise refusal  # the rules refuse it anyway: their reason says more than "not offered"
    raise NotOffered("not_offered", player=player, edition=state.edition, action=action)


def _terms_of(state: GameState, proposal: int) -> str:
    from banker.proposals import terms

    found = next((p for p in state.proposals if p.id == proposal), None)
    return terms(found) if found is not None else ""


def _need_name(offer: Offer, field: str) -> str:
    for need in offer.needs:
        if NEEDS_TO_FIELD.get(need, need) == field:
            return need
    return field

