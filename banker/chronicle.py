"""What the pages show of a whole game, kept as the game goes on: the net-worth chart, the records' figures,
the actions an undo took back and each player's last payment.

A :class:`Chronicle` folds every action forward (:meth:`Chronicle.fold`) in time that does not depend on the
length of the game, and an undo takes back exactly what the undone action added: each action that counts
leaves an :class:`Entry` on a stack as deep as the engine's undo chain (the session cuts both back
together, :meth:`Chronicle.trim`). The chart keeps every ``stride``-th point, between
:data:`SERIES_POINTS` and twice as many, the stride doubling as the game grows; its last point is always
the current state's. The journal writes a chronicle beside each snapshot of the state (:meth:`to_bytes`),
so a restart reads it and folds only the actions after it.

It reads the game as :func:`banker.records.game_record` does from a replay, and gives the same record
(:meth:`Chronicle.record`); what counts is what the engine's undo chain holds: not the new game, not an
undo, not what an undo took back.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from banker.actions import Action, NewGame, Undo
from banker.ledger import Event
from banker.state import GameState
from banker.worth import net_worth

SERIES_POINTS = 100
"""The chart keeps at least this many points of a long game (and at most twice as many), plus the current
state's: enough for a chart a phone's width, and the same cost at any length."""
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Peak:
    """The richest moment so far: ``seat``'s net worth ``amount`` after action ``seq``, at the time ``at``."""

    amount: int
    seat: int
    seq: int
    at: float


@dataclass(frozen=True, slots=True)
class Entry:
    """What one action that counts added, to be taken back by an undo."""

    seq: int
    turn_passed: bool
    landings: tuple[int, ...]
    """The deeds (edition indexes) whose rent it charged."""
    peak_before: Peak
    last_before: float
    paid_before: tuple[tuple[int, int | None], ...]
    """The last payment (its seq) of each player it paid or charged, before it."""


def rent_landings(state: GameState, events: Iterable[Event]) -> tuple[int, ...]:
    """The deeds (indexes in the edition) whose rent ``events`` charged: paid, owed, or nothing on a mortgaged one."""
    found = []
    for event in events:
        prop = event.params.get("property")
        if not isinstance(prop, str):
            continue
        if event.kind == "no_rent" or (event.kind in ("paid", "debt") and event.params.get("reason") == "rent"):
            deed = state.edition.by_id.get(prop)
            if deed is not None:
                found.append(deed.number)
    return tuple(found)


def paid_seats(state: GameState, events: Iterable[Event]) -> tuple[int, ...]:
    """The seats whose cash an event of ``events`` moved (a payment to or from the player)."""
    names = {p.name: seat for seat, p in enumerate(state.players)}
    seats: list[int] = []
    for event in events:
        txn = event.transaction
        if txn is None:
            continue
        moved: dict[str, int] = {}
        for account, amount in txn.postings:
            if account in names:
                moved[account] = moved.get(account, 0) + amount
        for name, amount in moved.items():
            if amount and names[name] not in seats:
                seats.append(names[name])
    return tuple(seats)


def worths(state: GameState) -> tuple[int, ...]:
    return tuple(net_worth(state, seat) for seat in range(len(state.players)))


def peak_of(state: GameState, values: tuple[int, ...], at: float) -> Peak:
    """The richest player of ``state`` (the first seat among equals)."""
    seat = max(range(len(values)), key=lambda s: (values[s], -s))
    return Peak(values[seat], seat, state.seq, at)


@dataclass
class Chronicle:
    """A game's figures for the pages, folded forward action by action (see the module)."""

    started: float = 0.0
    last: float = 0.0
    """When the last action that counts was made."""
    count: int = 0
    """Actions that count."""
    turns: int = 1
    """Turns the table was told about: the first one and every time the turn passed."""
    landings: list[int] = field(default_factory=list)
    """How often each deed's rent was charged (edition order)."""
    peak: Peak = field(default_factory=lambda: Peak(0, 0, 0, 0.0))
    stride: int = 1
    points: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    """The chart's kept points: (the count of actions then, the seq, each seat's net worth)."""
    undone: set[int] = field(default_factory=set)
    """The seqs of the actions an undo took back."""
    paid: dict[int, int] = field(default_factory=dict)
    """Each seat's last payment (to or from it) that counts: its seq."""
    stack: list[Entry] = field(default_factory=list)

    @classmethod
    def start(cls, state: GameState, at: float, events: Iterable[Event] = ()) -> Chronicle:
        """The chronicle of a game that just began with ``state`` (its new_game, which did ``events``: the
        starting money is each player's first payment)."""
        values = worths(state)
        return cls(started=at, last=at, landings=[0] * len(state.props), peak=peak_of(state, values, at),
                   points=[(0, state.seq, values)], paid={seat: state.seq for seat in paid_seats(state, events)})

    def fold(self, before: GameState | None, action: Action, after: GameState, events: Iterable[Event],
             at: float) -> None:
        """Fold one applied action in: ``before`` and ``after`` are the states around it, ``events`` what it
        did, ``at`` when it was journaled. A new game is :meth:`start` instead."""
        if isinstance(action, NewGame) or before is None:
            raise ValueError("a new game starts a new chronicle")
        if isinstance(action, Undo):
            assert before.history is not None
            self.undone.add(before.history.previous.seq + 1)
            self._take_back()
            return
        events = tuple(events)
        landings = rent_landings(after, events)
        paid = paid_seats(after, events)
        self.stack.append(Entry(after.seq, after.turn != before.turn, landings, self.peak, self.last,
                                tuple((seat, self.paid.get(seat)) for seat in paid)))
        self.count += 1
        self.turns += after.turn != before.turn
        for index in landings:
            self.landings[index] += 1
        for seat in paid:
            self.paid[seat] = after.seq
        values = worths(after)
        moment = peak_of(after, values, at)
        if moment.amount > self.peak.amount:
            self.peak = moment
        self.last = at
        if self.count % self.stride == 0:
            self.points.append((self.count, after.seq, values))
            if len(self.points) > 2 * SERIES_POINTS:
                self.stride *= 2
                self.points = [p for p in self.points if p[0] % self.stride == 0]

    def _take_back(self) -> None:
        if not self.stack:
            raise ValueError("the chronicle holds nothing to take back")
        entry = self.stack.pop()
        self.count -= 1
        self.turns -= entry.turn_passed
        for index in entry.landings:
            self.landings[index] -= 1
        for seat, seq in entry.paid_before:
            if seq is None:
                self.paid.pop(seat, None)
            else:
                self.paid[seat] = seq
        self.peak = entry.peak_before
        self.last = entry.last_before
        while self.points and self.points[-1][0] > self.count:
            self.points.pop()

    def trim(self, keep: int) -> None:
        """Forget what only undos further back than ``keep`` actions would need (the engine's chain was cut)."""
        if len(self.stack) > keep:
            del self.stack[:len(self.stack) - keep]

    def copy(self) -> Chronicle:
        return Chronicle(self.started, self.last, self.count, self.turns, list(self.landings), self.peak,
                         self.stride, list(self.points), set(self.undone), dict(self.paid), list(self.stack))

    # --- what the pages read ------------------------------------------------------------------------
    def series(self, state: GameState) -> list[dict[str, int]]:
        """The chart's points: each is ``{"seq": …, player: net worth, …}``; the last one is ``state``'s."""
        names = [p.name for p in state.players]
        out = [{"seq": seq, **dict(zip(names, values, strict=True))} for _, seq, values in self.points]
        current = {"seq": state.seq, **dict(zip(names, worths(state), strict=True))}
        if out and out[-1]["seq"] == state.seq:
            out[-1] = current
        else:
            out.append(current)
        return out

    def last_counted(self) -> int | None:
        """The seq of the latest action that counts (what an undo takes back now), if the stack holds it."""
        return self.stack[-1].seq if self.stack else None

    # --- kept beside a snapshot -------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The chronicle without its stack (a snapshot's state has no undo chain either), compressed."""
        data: dict[str, Any] = {
            "format": FORMAT, "started": self.started, "last": self.last, "count": self.count, "turns": self.turns,
            "landings": self.landings, "peak": [self.peak.amount, self.peak.seat, self.peak.seq, self.peak.at],
            "stride": self.stride, "points": [[n, seq, list(values)] for n, seq, values in self.points],
            "undone": sorted(self.undone), "paid": sorted(self.paid.items()),
        }
        return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 6)

    @classmethod
    def from_bytes(cls, raw: bytes) -> Chronicle:
        """The chronicle :meth:`to_bytes` wrote. Raises ``ValueError`` when it cannot be read."""
        try:
            data = json.loads(zlib.decompress(raw))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("unknown chronicle format")
            amount, seat, seq, at = data["peak"]
            return cls(started=float(data["started"]), last=float(data["last"]), count=int(data["count"]),
                       turns=int(data["turns"]), landings=[int(n) for n in data["landings"]],
                       peak=Peak(int(amount), int(seat), int(seq), float(at)), stride=int(data["stride"]),
                       points=[(int(n), int(s), tuple(int(v) for v in values)) for n, s, values in data["points"]],
                       undone={int(s) for s in data["undone"]}, paid={int(k): int(v) for k, v in data["paid"]})
        except (zlib.error, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"unreadable chronicle: {error}") from error


def replayed(rows: Iterable[tuple[Action, float]]) -> tuple[GameState, Chronicle]:
    """The state and chronicle of a whole game from its actions and their times.

    Raises:
        BankerError: an action does not apply.
        ValueError: there are none.
    """
    from banker.engine import apply

    state: GameState | None = None
    chronicle: Chronicle | None = None
    for action, at in rows:
        after, events = apply(state, action)
        if chronicle is None or isinstance(action, NewGame):
            chronicle = Chronicle.start(after, at, events)
        else:
            chronicle.fold(state, action, after, events, at)
        state = after
    if state is None or chronicle is None:
        raise ValueError("a game without actions")
    return state, chronicle
