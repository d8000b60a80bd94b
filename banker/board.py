"""What people must do with the cardboard after an action: the board moves, worked out from two states.

The money is cashless, but the deeds, the houses, the hotels and the Get Out of Jail Free cards are
real. :func:`board_moves` compares the state before an action with the state after it, so the moves
are exactly the change the action made: replayed on the board as it was, they give the board as it is
now (the tests hold that over whole self-played games). A move is one of

- ``house`` / ``hotel``: ``count`` buildings from ``"bank"`` onto a street (``to`` is its deed id) or
  back from it to the bank; ``what`` is the street;
- ``deed``: a title deed ``what`` from its holder (a player's name or ``"bank"``) to its new one;
- ``turn_over``: the deed ``what`` turned face down (``"to": "mortgaged"``) or face up (``"unmortgaged"``);
- ``jail_card``: the Get Out of Jail Free card of the deck ``what`` from a player, or from the deck
  (``"bank"``), to a player or back under its deck.

It is not part of :func:`banker.engine.apply`: self-play never looks at the cardboard. The session and
``banker replay`` add it to the events as one event of kind ``"board"`` (see :func:`board_event`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from banker.actions import Action, Undo
from banker.edition import DECKS
from banker.ledger import Event
from banker.state import BANK, GameState, PlayerState, PropertyState

MORTGAGED, UNMORTGAGED = "mortgaged", "unmortgaged"
MOVES = ("house", "hotel", "deed", "turn_over", "jail_card")


@dataclass(frozen=True, slots=True)
class BoardMove:
    move: str
    """"house", "hotel", "deed", "turn_over" or "jail_card"."""
    what: str
    """The deed id (for buildings: the street they stand on), or the deck of a jail card."""
    count: int
    from_: str
    """A player's name, "bank", a deed id (buildings on that street), or "mortgaged"/"unmortgaged"."""
    to: str

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "what": self.what, "count": self.count, "from": self.from_, "to": self.to}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardMove:
        return cls(str(data["move"]), str(data["what"]), int(data["count"]), str(data["from"]), str(data["to"]))

    def reversed(self) -> BoardMove:
        """The move that puts back what this one did."""
        return BoardMove(self.move, self.what, self.count, self.to, self.from_)


def board_moves(before: GameState | None, after: GameState, action: Action | None = None) -> tuple[BoardMove, ...]:
    """The moves that turn the board of ``before`` into the board of ``after``.

    ``before`` is None for ``new_game`` (the deeds dealt in a short game move from the bank). For an
    undo the moves are those of the undone action, reversed and in reverse order. Buildings that leave
    a street come first (so the bank's stock never runs short while the moves are made), then the
    deeds, the deeds turned over, the buildings put up, and the jail cards.
    """
    if isinstance(action, Undo) and before is not None:
        return tuple(move.reversed() for move in reversed(board_moves(after, before)))
    edition = after.edition
    names = [p.name for p in after.players]
    blank = PropertyState()
    old_props = before.props if before is not None else tuple(blank for _ in after.props)
    removed: list[BoardMove] = []
    deeds: list[BoardMove] = []
    turned: list[BoardMove] = []
    added: list[BoardMove] = []
    if old_props is not after.props:
        for prop, old, new in zip(edition.properties, old_props, after.props, strict=True):
            if old is new or old == new:
                continue
            deed = prop.id
            if old.owner != new.owner:
                deeds.append(BoardMove("deed", deed, 1, _holder(names, old.owner), _holder(names, new.owner)))
            if old.mortgaged != new.mortgaged:
                turned.append(BoardMove("turn_over", deed, 1, *((UNMORTGAGED, MORTGAGED) if new.mortgaged
                                                                 else (MORTGAGED, UNMORTGAGED))))
            if old.hotel and not new.hotel:
                removed.append(BoardMove("hotel", deed, 1, deed, BANK))
            if old.houses > new.houses:
                removed.append(BoardMove("house", deed, old.houses - new.houses, deed, BANK))
            if new.hotel and not old.hotel:
                added.append(BoardMove("hotel", deed, 1, BANK, deed))
            if new.houses > old.houses:
                added.append(BoardMove("house", deed, new.houses - old.houses, BANK, deed))
    old_players = before.players if before is not None else ()
    cards = _jail_cards(old_players, after.players) if old_players is not after.players else []
    return (*removed, *deeds, *turned, *added, *cards)


def _holder(names: list[str], seat: int | None) -> str:
    return BANK if seat is None else names[seat]


def _jail_cards(old: tuple[PlayerState, ...], new: tuple[PlayerState, ...]) -> list[BoardMove]:
    """Jail cards that changed hands: each deck's card from whoever lost it to whoever got it."""
    if all(not p.jail_cards for p in old) and all(not p.jail_cards for p in new):
        return []
    moves: list[BoardMove] = []
    decks = [*DECKS, *sorted({d for p in (*old, *new) for d in p.jail_cards} - set(DECKS))]
    for deck in decks:
        losers: list[str] = []
        gainers: list[str] = []
        for seat, player in enumerate(new):
            had = old[seat].jail_cards.count(deck) if seat < len(old) else 0
            has = player.jail_cards.count(deck)
            losers += [player.name] * (had - has)
            gainers += [player.name] * (has - had)
        for giver, taker in zip(losers, gainers, strict=False):
            moves.append(BoardMove("jail_card", deck, 1, giver, taker))
        moves += [BoardMove("jail_card", deck, 1, giver, BANK) for giver in losers[len(gainers):]]
        moves += [BoardMove("jail_card", deck, 1, BANK, taker) for taker in gainers[len(losers):]]
    return moves


def board_event(before: GameState | None, after: GameState, action: Action) -> Event:
    """The ``"board"`` event the session and ``banker replay`` add after an action's own events.

    For an undo it also holds the undone action's events (``undone``): what the table says is undone.
    """
    moves = [move.to_json() for move in board_moves(before, after, action)]
    params: dict[str, Any] = {"moves": moves}
    if isinstance(action, Undo) and before is not None and before.history is not None:
        from banker.engine import apply

        history = before.history
        _, undone = apply(history.previous, history.action)
        params["undone"] = [e.to_json() for e in undone]
    return Event("board", params)


def moves_of(events: tuple[Event, ...] | list[Event]) -> list[BoardMove]:
    """The board moves carried by ``events`` (none if they have no board event)."""
    for event in events:
        if event.kind == "board":
            return [BoardMove.from_json(m) for m in event.params.get("moves", [])]
    return []


def take_back(state: GameState) -> list[BoardMove]:
    """What undoing the last action will move on the board: that action's moves, reversed (none when there is
    nothing to undo)."""
    history = state.history
    if history is None:
        return []
    return [m.reversed() for m in reversed(board_moves(history.previous, state, history.action))]
