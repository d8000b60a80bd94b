"""Hidden balances (the house rule ``hidden_balances``): what a viewer sees of a player's cash.

With the rule off every phone and the table show everybody's cash. With ``"bands"`` a phone shows its own
player's cash and only a band of the others' ("under $500", "$500–$1,000", "over $2,000"); with
``"hidden"`` nothing of the others' cash. The banker role sees everything, and once the game is over the
count is everybody's business (§10). What gives a player's cash away besides the figure itself is hidden
with it: the net worth and the liquidation value (the deeds are on the table, so either one minus the
deeds is the cash), what a debtor is still missing, the bank's balance (all the money there is, minus the
players' and the pot's), and the figures of a refusal or a log line that name another player's cash.

The fronts ask this module and render what it answers: none of them works out a band or decides who may
see what. The table's own screens are seen by everybody (:data:`TABLE`): with the rule on they show a
player's cash only on that player's own card (the table's menu after the tap).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from banker.errors import BankerError
from banker.ledger import Event
from banker.messages import render
from banker.state import GameState
from banker.text import describe_event


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: a phone's player (None for a watcher or the table's shared screens) and whether it holds
    the banker role."""

    player: str | None = None
    banker: bool = False


TABLE = Viewer()
"""The table's screens and speaker, and a watcher: seen by everybody at the table."""
BANKER = Viewer(banker=True)

BAND_FRACTIONS = ((1, 3), (2, 3), (4, 3))
"""The band limits as fractions of the starting cash: $500, $1,000 and $2,000 of the classic $1,500."""
HIDDEN_KEYS = {"not_enough_cash": "not_enough_cash_hidden", "debt_short": "debt_short_hidden",
               "debt_short_bankrupt": "debt_short_bankrupt_hidden"}
"""The refusals that name a player's cash, and their text without it."""


@dataclass(frozen=True, slots=True)
class CashSeen:
    """What a viewer sees of one player's cash: the exact amount, a band, or nothing."""

    exact: int | None = None
    """The cash itself, when the viewer may see it."""
    low: int | None = None
    """A band's lower limit (the cash is at least this); None: no lower limit."""
    high: int | None = None
    """A band's upper limit (the cash is below this); None: no upper limit."""
    band: bool = False
    """Whether a band is shown (else, with no exact amount, nothing is)."""

    def to_json(self) -> dict[str, int | None] | None:
        """The band as the state JSON of a phone shows it (``cash_band``), or None."""
        return {"low": self.low, "high": self.high} if self.band else None


def sees_all(state: GameState, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees every player's cash: the rule is off, the banker, or the game is over."""
    return state.rules.hidden_balances == "off" or viewer.banker or state.ended


def sees_cash_of(state: GameState, viewer: Viewer, seat: int) -> bool:
    """Whether ``viewer`` sees the exact cash of the player in ``seat`` (always their own)."""
    return sees_all(state, viewer) or state.players[seat].name == viewer.player


def sees_cash_of_name(state: GameState, viewer: Viewer, player: object) -> bool:
    """:func:`sees_cash_of` by name; an account that is not a player ("bank", "pot") is no secret."""
    if not isinstance(player, str) or player not in state.seats:
        return True
    return sees_cash_of(state, viewer, state.seats[player])


def nice(amount: int) -> int:
    """``amount`` rounded to a round figure (1, 2, 2.5 or 5 times a power of ten) for a band's limit."""
    if amount <= 1:
        return 1
    power = 1
    while power * 10 <= amount:
        power *= 10
    steps = [power * m for m in (1, 2, 5, 10)] + ([power * 5 // 2] if power >= 10 else [])
    return min(steps, key=lambda step: (abs(step - amount), step))


def band_limits(state: GameState) -> tuple[int, ...]:
    """The limits between the bands, from the starting cash: 500, 1000 and 2000 for 1500."""
    start = state.rules.starting_cash
    limits: list[int] = []
    for top, bottom in BAND_FRACTIONS:
        limit = nice(start * top // bottom)
        if not limits or limit > limits[-1]:
            limits.append(limit)
    return tuple(limits)


def cash_seen(state: GameState, viewer: Viewer, seat: int) -> CashSeen:
    """What ``viewer`` sees of the cash of the player in ``seat``."""
    cash = state.players[seat].cash
    if sees_cash_of(state, viewer, seat):
        return CashSeen(exact=cash)
    if state.rules.hidden_balances != "bands":
        return CashSeen()
    low: int | None = None
    for limit in band_limits(state):
        if cash < limit:
            return CashSeen(low=low, high=limit, band=True)
        low = limit
    return CashSeen(low=low, band=True)


def cash_text(state: GameState, seen: CashSeen, language: str) -> str:
    """What a screen shows of the cash: "$1,234", "under $500", "$500–$1,000", "over $2,000", or the
    word for a hidden balance."""
    money = state.money
    if seen.exact is not None:
        return money(seen.exact)
    if not seen.band:
        return render("cash_hidden", {}, language)
    if seen.low is None and seen.high is not None:
        return render("cash_under", {"amount": money(seen.high)}, language)
    if seen.high is None and seen.low is not None:
        return render("cash_over", {"amount": money(seen.low)}, language)
    return render("cash_between", {"low": money(seen.low or 0), "high": money(seen.high or 0)}, language)


def player_cash_text(state: GameState, viewer: Viewer, seat: int, language: str) -> str:
    return cash_text(state, cash_seen(state, viewer, seat), language)


def worth_seen(state: GameState, viewer: Viewer, seat: int, worth: int) -> int | None:
    """A net worth (or any figure that holds the cash: a liquidation value) if ``viewer`` may see it."""
    return worth if sees_cash_of(state, viewer, seat) else None


def state_json(state: GameState, full: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The state JSON ``full`` (:func:`banker.export.state_to_json` of ``state``) as ``viewer`` may see it:
    for each player whose cash it may not see, ``cash``, ``net_worth``, ``liquidation_value`` and
    ``missing`` are null and ``cash_band`` is the band (null when nothing is shown); the bank's balance
    is null. Unchanged when the viewer sees all."""
    if sees_all(state, viewer):
        return full
    players = dict(full["players"])
    for seat, p in enumerate(state.players):
        if sees_cash_of(state, viewer, seat):
            continue
        players[p.name] = {**players[p.name], "cash": None, "cash_band": cash_seen(state, viewer, seat).to_json(),
                           "net_worth": None, "liquidation_value": None, "missing": None}
    return {**full, "players": players, "bank": {**full["bank"], "balance": None}}


def worth_series(state: GameState, series: list[dict[str, int]], viewer: Viewer) -> list[dict[str, int]]:
    """The net-worth chart's points with only the players whose cash ``viewer`` may see."""
    if sees_all(state, viewer):
        return series
    hidden = {p.name for seat, p in enumerate(state.players) if not sees_cash_of(state, viewer, seat)}
    return [{k: v for k, v in point.items() if k not in hidden} for point in series]


def visible_event(state: GameState, event: Event, viewer: Viewer) -> Event:
    """``event`` as ``viewer`` may read it: a debt of a player whose cash it may not see does not say how
    much more cash is needed (that is the debt less the cash)."""
    if event.kind == "debt" and not sees_cash_of_name(state, viewer, event.params.get("player")):
        return Event("debt_hidden", {k: v for k, v in event.params.items() if k != "missing"}, event.transaction)
    return event


def log_lines(state: GameState, events: Iterable[Event], language: str, viewer: Viewer) -> list[str]:
    """The log lines of ``events`` (:func:`banker.text.log_lines`) as ``viewer`` may read them."""
    edition = state.edition
    lines = (describe_event(edition, visible_event(state, e, viewer), language) for e in events)
    return [line for line in lines if line]


def refusal_text(state: GameState, error: BankerError, language: str, viewer: Viewer) -> str:
    """A refusal in ``language`` as ``viewer`` may read it: one that names the cash of a player whose cash
    the viewer may not see says what is needed without it."""
    hidden = HIDDEN_KEYS.get(error.key)
    if hidden is not None and not sees_cash_of_name(state, viewer, error.params.get("player")):
        params = {k: v for k, v in error.params.items() if k not in ("cash", "missing", "short")}
        return render(hidden, params, language)
    return error.translated(language)


def short_by(state: GameState, error: BankerError, viewer: Viewer, short: int) -> int:
    """The cash a refusal says is missing (``short``), if ``viewer`` may know it, else 0."""
    return short if sees_cash_of_name(state, viewer, error.params.get("player")) else 0
