"""The action vocabulary: small frozen dataclasses with one JSON form.

The same JSON is the web API's request body, the journal's row and a line of a replay script:
``{"action": "rent", "player": "Bob", "property": "park_place"}``. See ``docs/actions.md``.
"""

from __future__ import annotations

import json
import types
import typing
import unicodedata
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, ClassVar, Union

from banker.errors import BadInput
from banker.rules import MAX_AMOUNT


@dataclass(frozen=True, slots=True)
class Bundle:
    """One side of a trade: what a player hands over."""

    cash: int = 0
    properties: tuple[str, ...] = ()
    jail_cards: int = 0

    def is_empty(self) -> bool:
        return self.cash == 0 and not self.properties and self.jail_cards == 0

    def to_json(self) -> dict[str, Any]:
        return {"cash": self.cash, "properties": list(self.properties), "jail_cards": self.jail_cards}


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; ``name`` is the JSON ``"action"`` value."""

    name: ClassVar[str] = ""
    money_out: ClassVar[bool] = False
    """Whether the action spends money by choice (refused while the player is in debt)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.name}
        for f in fields(self):
            value = getattr(self, f.name)
            default = f.default if f.default is not MISSING else (
                f.default_factory() if f.default_factory is not MISSING else MISSING)
            if value == default and f.default is not MISSING:
                continue
            key = f.name.rstrip("_")
            if isinstance(value, Bundle):
                out[key] = value.to_json()
            elif isinstance(value, tuple):
                out[key] = list(value)
            elif isinstance(value, dict):
                out[key] = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
            else:
                out[key] = value
        return out

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @property
    def actor(self) -> str | None:
        """The player who acts, if any."""
        value = getattr(self, "player", None)
        if value is None:
            value = getattr(self, "from_", None)
        return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class NewGame(Action):
    name: ClassVar[str] = "new_game"
    edition: str
    players: tuple[str, ...]
    rules: dict[str, Any] = field(default_factory=dict)
    deal: dict[str, tuple[str, ...]] | None = None
    """Deeds dealt to each player in a short or timed game; drawn from ``seed`` when absent."""
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Salary(Action):
    name: ClassVar[str] = "salary"
    player: str
    landed: bool = False
    """Landed exactly on GO (pays double under that house rule)."""


@dataclass(frozen=True, slots=True)
class Buy(Action):
    name: ClassVar[str] = "buy"
    money_out: ClassVar[bool] = True
    player: str
    property: str
    price: int | None = None


@dataclass(frozen=True, slots=True)
class StartAuction(Action):
    name: ClassVar[str] = "auction"
    property: str
    declined_by: str | None = None


@dataclass(frozen=True, slots=True)
class BuildingAuction(Action):
    name: ClassVar[str] = "building_auction"
    building: str
    """"house" or "hotel"."""


@dataclass(frozen=True, slots=True)
class Bid(Action):
    name: ClassVar[str] = "bid"
    money_out: ClassVar[bool] = True
    player: str
    amount: int
    property: str | None = None
    """In a building auction: the street to build on."""


@dataclass(frozen=True, slots=True)
class AuctionClose(Action):
    name: ClassVar[str] = "auction_close"


@dataclass(frozen=True, slots=True)
class Rent(Action):
    name: ClassVar[str] = "rent"
    player: str
    property: str
    dice: int | None = None
    card: str | None = None
    """"nearest_railroad" (pay twice) or "nearest_utility" (pay 10 × dice)."""


@dataclass(frozen=True, slots=True)
class Pay(Action):
    name: ClassVar[str] = "pay"
    player: str
    amount: int
    to: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Collect(Action):
    name: ClassVar[str] = "collect"
    player: str
    amount: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FreeParking(Action):
    name: ClassVar[str] = "free_parking"
    player: str


@dataclass(frozen=True, slots=True)
class Tax(Action):
    name: ClassVar[str] = "tax"
    player: str
    square: str
    choice: str | None = None
    """"flat" or "percent" where the income tax offers a choice."""


@dataclass(frozen=True, slots=True)
class DrawCard(Action):
    name: ClassVar[str] = "card"
    player: str
    deck: str
    card: str
    square: str | None = None
    """Where the card was drawn (a square id or board index), for "nearest" and passing GO."""
    dice: int | None = None
    passed_go: bool | None = None
    choice: str | None = None
    """"pay" or "draw" for a "pay a fine or take a Chance" card."""


@dataclass(frozen=True, slots=True)
class Build(Action):
    name: ClassVar[str] = "build"
    money_out: ClassVar[bool] = True
    player: str
    property: str


@dataclass(frozen=True, slots=True)
class SellBuilding(Action):
    name: ClassVar[str] = "sell_building"
    player: str
    property: str


@dataclass(frozen=True, slots=True)
class SellAllBuildings(Action):
    name: ClassVar[str] = "sell_all_buildings"
    player: str
    property: str
    """Any street of the group: every building on the group goes back to the bank."""


@dataclass(frozen=True, slots=True)
class SellBuildings(Action):
    name: ClassVar[str] = "sell_buildings"
    player: str
    levels: dict[str, int]
    """The level each listed street of one group comes down to: houses, or 5 (4 in the short game) for
    a hotel kept. Streets of the group not listed keep their buildings (§6.7, a hotel broken down as
    far as the bank's houses allow)."""


@dataclass(frozen=True, slots=True)
class Mortgage(Action):
    name: ClassVar[str] = "mortgage"
    player: str
    property: str


@dataclass(frozen=True, slots=True)
class Unmortgage(Action):
    name: ClassVar[str] = "unmortgage"
    money_out: ClassVar[bool] = True
    player: str
    property: str


@dataclass(frozen=True, slots=True)
class KeepMortgaged(Action):
    name: ClassVar[str] = "keep_mortgaged"
    player: str
    property: str


@dataclass(frozen=True, slots=True)
class Trade(Action):
    name: ClassVar[str] = "trade"
    from_: str
    to: str
    give: Bundle = Bundle()
    take: Bundle = Bundle()
    settles_debt: bool = False
    """The creditor ``to`` accepts this trade in full payment of what ``from`` owes them (§8.2)."""

    @property
    def actor(self) -> str | None:
        return self.from_


@dataclass(frozen=True, slots=True)
class ProposeTrade(Action):
    """``from`` offers ``to`` a trade, to be answered later by ``to`` (:mod:`banker.proposals`)."""

    name: ClassVar[str] = "propose_trade"
    from_: str
    to: str
    give: Bundle = Bundle()
    take: Bundle = Bundle()
    settles_debt: bool = False

    @property
    def actor(self) -> str | None:
        return self.from_

    def trade(self) -> Trade:
        """The trade that accepting this proposal applies."""
        return Trade(self.from_, self.to, self.give, self.take, self.settles_debt)


@dataclass(frozen=True, slots=True)
class AcceptTrade(Action):
    name: ClassVar[str] = "accept_trade"
    player: str
    """The receiver of the proposal."""
    proposal: int
    """The proposal's id (``proposals`` of the state)."""
    terms: str = ""
    """The proposal's terms as the receiver was shown them (:func:`banker.proposals.terms`); when given,
    the accept is refused if the proposal is not those terms."""


@dataclass(frozen=True, slots=True)
class RefuseTrade(Action):
    name: ClassVar[str] = "refuse_trade"
    player: str
    """The receiver of the proposal."""
    proposal: int
    reason: str = ""
    """What the receiver says to the proposer (both phones show it)."""


@dataclass(frozen=True, slots=True)
class CancelTrade(Action):
    name: ClassVar[str] = "cancel_trade"
    player: str
    """The proposer: withdraws an open proposal, or puts away a refused one."""
    proposal: int


@dataclass(frozen=True, slots=True)
class GoToJail(Action):
    name: ClassVar[str] = "go_to_jail"
    player: str


@dataclass(frozen=True, slots=True)
class JailFine(Action):
    name: ClassVar[str] = "jail_fine"
    player: str


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    name: ClassVar[str] = "use_jail_card"
    player: str


@dataclass(frozen=True, slots=True)
class LeaveJail(Action):
    name: ClassVar[str] = "leave_jail"
    player: str
    """Rolled a double in jail."""


@dataclass(frozen=True, slots=True)
class PayDebt(Action):
    name: ClassVar[str] = "pay_debt"
    player: str


@dataclass(frozen=True, slots=True)
class Bankrupt(Action):
    name: ClassVar[str] = "bankrupt"
    player: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    name: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class Undo(Action):
    name: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class EndGame(Action):
    name: ClassVar[str] = "end_game"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (
        NewGame, Salary, Buy, StartAuction, BuildingAuction, Bid, AuctionClose, Rent, Pay, Collect,
        FreeParking, Tax, DrawCard, Build, SellBuilding, SellAllBuildings, SellBuildings, Mortgage, Unmortgage,
        KeepMortgaged, Trade, ProposeTrade, AcceptTrade, RefuseTrade, CancelTrade,
        GoToJail, JailFine, UseJailCard, LeaveJail, PayDebt, Bankrupt, EndTurn,
        Undo, EndGame,
    )
}


MAX_DEPTH = 16
"""Nesting deeper than this is refused: no action needs more than three levels."""
MAX_SEED = 2**53 - 1
JSON_TYPES = {list: "json_list", str: "json_text", int: "json_number", float: "json_number",
              bool: "json_boolean", type(None): "json_null"}
"""The kind of a JSON value, as a label of :mod:`banker.messages`."""


MAX_TEXT = 80
"""Characters in any text of an action (a name, an id, a payment's reason): a line that the table's screen
and every phone can show."""
DIRECTION_MARKS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's bidirectional controls: one of them makes "$1,500" after it read as "005,1$"."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadInput("duplicate_key", field=key)
        out[key] = value
    return out


def parse_json(text: str | bytes) -> Any:
    """One JSON value, read as the journal, a replay script and the web API all read it.

    Raises:
        BadInput: not JSON (``bad_json``), a key given twice, nesting too deep for Python's reader, or a
            number with more digits than Python reads. Texts are checked later, by :func:`parse_action`.
    """
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except BadInput:
        raise
    except json.JSONDecodeError as exc:
        raise BadInput("bad_json", problem=exc.msg, column=exc.colno) from exc
    except RecursionError as exc:
        raise BadInput("too_deep", limit=MAX_DEPTH) from exc
    except UnicodeDecodeError as exc:
        raise BadInput("bad_text", position=exc.start + 1) from exc
    except ValueError as exc:  # an integer of more digits than int() accepts
        raise BadInput("number_too_long") from exc


def _check_text(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadInput("bad_text", position=exc.start + 1) from exc
    value = unicodedata.normalize("NFC", value)
    if len(value) > MAX_TEXT:
        raise BadInput("text_too_long", text=value[:20] + "…", length=len(value), limit=MAX_TEXT)
    for position, char in enumerate(value, start=1):
        if char in DIRECTION_MARKS or unicodedata.category(char) == "Cc":
            raise BadInput("text_control", text=value.encode("unicode_escape").decode("ascii"), position=position)
    return value


def _clean(value: Any, depth: int = 0) -> Any:
    """Every text in NFC, at most :data:`MAX_TEXT` characters, without control characters or direction
    marks and without lone surrogates; no nesting beyond :data:`MAX_DEPTH`."""
    if depth > MAX_DEPTH:
        raise BadInput("too_deep", limit=MAX_DEPTH)
    if isinstance(value, str):
        return _check_text(value)
    if isinstance(value, list):
        return [_clean(v, depth + 1) for v in value]
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            key = _clean(k, depth + 1)
            if key in out:
                raise BadInput("duplicate_key", field=key)
            out[key] = _clean(v, depth + 1)
        return out
    return value


def parse_object(text: str | bytes) -> dict[str, Any]:
    """A JSON object whose texts are checked as an action's are (:func:`parse_action`): for requests that
    carry other things than an action (joining, the banker's PIN).

    Raises:
        BadInput: not JSON, not an object, or a key, a text or the nesting refused as in an action.
    """
    data = parse_json(text)
    if not isinstance(data, dict):
        raise BadInput("not_an_object", got=JSON_TYPES.get(type(data), "json_text"))
    checked: dict[str, Any] = _clean(data)
    return checked


def parse_action(data: dict[str, Any] | str | bytes) -> Action:
    """Build an action from its JSON form (a dict or one JSON line); :class:`BadInput` if malformed.

    Texts are normalised to NFC; a key given twice, a lone surrogate, a text longer than :data:`MAX_TEXT`
    or with a control character or a direction mark, nesting deeper than :data:`MAX_DEPTH` and a number
    with more digits than Python reads are refused like any bad field.
    """
    if isinstance(data, (str, bytes)):
        data = parse_json(data)
    if not isinstance(data, dict):
        raise BadInput("not_an_object", got=JSON_TYPES.get(type(data), "json_text"))
    fields_: dict[str, Any] = _clean(data)
    data = fields_
    name = data.get("action")
    if not isinstance(name, str):
        raise BadInput("missing_action_name", known=", ".join(sorted(ACTION_TYPES)))
    cls = ACTION_TYPES.get(name)
    if cls is None:
        raise BadInput("unknown_action", action=name, known=", ".join(sorted(ACTION_TYPES)))
    hints, by_json = _schema(cls)
    for key in data:
        if key != "action" and key not in by_json:
            if not by_json:
                raise BadInput("unknown_field_none", action=name, field=key)
            raise BadInput("unknown_field", action=name, field=key, known=", ".join(sorted(by_json)))
    kwargs: dict[str, Any] = {}
    for key, f in by_json.items():
        if key not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise BadInput("missing_field", action=name, field=key)
            continue
        kwargs[f.name] = _convert(data[key], hints[f.name], name, key)
    return cls(**kwargs)


def _whole(value: Any, key: str) -> bool:
    """Whether ``value`` is a whole number (not a bool); :class:`BadInput` if beyond the ceiling."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    limit = MAX_SEED if key == "seed" else MAX_AMOUNT
    if abs(value) > limit:
        raise BadInput("amount_too_large", field=key, limit=limit)
    return True


_SCHEMAS: dict[str, tuple[dict[str, Any], dict[str, Field[Any]]]] = {}


def _schema(cls: type[Action]) -> tuple[dict[str, Any], dict[str, Field[Any]]]:
    """The field types and the JSON names of an action class (worked out once per class)."""
    schema = _SCHEMAS.get(cls.name)
    if schema is None:
        schema = _SCHEMAS[cls.name] = (typing.get_type_hints(cls), {f.name.rstrip("_"): f for f in fields(cls)})
    return schema


def _convert(value: Any, hint: Any, action: str, key: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        return _convert(value, options[0], action, key)

    def bad(expected: str) -> BadInput:
        return BadInput("bad_field", action=action, field=key, value=json.dumps(value, ensure_ascii=False),
                        expected=expected)

    if hint is str:
        if isinstance(value, int) and not isinstance(value, bool) and key == "square":
            return str(value)
        if not isinstance(value, str) or not value:
            raise bad("a non-empty text")
        return value
    if hint is int:
        if not _whole(value, key):
            raise bad("a whole number")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if hint is Bundle:
        if not isinstance(value, dict):
            raise bad("an object with cash, properties and jail_cards")
        unknown = set(value) - {"cash", "properties", "jail_cards"}
        if unknown:
            raise bad("only cash, properties and jail_cards")
        cash = value.get("cash", 0)
        cards = value.get("jail_cards", 0)
        props = value.get("properties", [])
        if not _whole(cash, "cash") or not _whole(cards, "jail_cards"):
            raise bad("whole numbers for cash and jail_cards")
        if not isinstance(props, list) or not all(isinstance(p, str) for p in props):
            raise bad("a list of property ids")
        return Bundle(cash, tuple(props), cards)
    if origin is tuple:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad("a list of names")
        return tuple(value)
    if origin is dict:
        if not isinstance(value, dict):
            raise bad("an object")
        args = typing.get_args(hint)
        if len(args) == 2 and typing.get_origin(args[1]) is tuple:
            out: dict[str, tuple[str, ...]] = {}
            for k, v in value.items():
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise bad("an object of lists of property ids")
                out[k] = tuple(v)
            return out
        if len(args) == 2 and args[1] is int:
            levels: dict[str, int] = {}
            for k, v in value.items():
                if not _whole(v, key):
                    raise bad("an object of whole numbers")
                levels[k] = v
            return levels
        return dict(value)
    raise bad(str(hint))  # pragma: no cover - every field type is handled above
