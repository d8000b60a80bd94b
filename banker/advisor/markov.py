"""Where a token's rolls end in the long run: an exact Markov chain of its movement on one board.

A state is what one throw of the dice left behind:

* ``(square, doubles)``: the throw ended on ``square`` (0-39; the jail square means "just visiting")
  and ``doubles`` doubles have been thrown in a row this turn, so the next throw is the player's
  next throw in the same turn; 0 when the turn is over.
* ``(IN_JAIL, turns)``: the throw sent the token to jail (``turns`` = 0), or it was the
  ``turns``-th failed attempt to leave by throwing a double (long stay only).

Each transition is one throw, so the stationary distribution is the long-run share of throws ending
in each state. Rules modelled: two dice; a double throws again and the third double in a turn goes
to jail without moving; the Go to Jail square; every movement card of both decks ("advance",
"nearest", "back", "go to jail"), a card that moves onto another card square drawing again (Chance
36, back 3, is Community Chest 33); "pay a fine or take a Chance" when the table takes the Chance.
Cards come from a well-shuffled deck: every card of a deck is equally likely on every draw.

Jail: with the **short** stay the player pays the fine or uses a card at once and throws as on any
turn (a double throws again); with the **long** stay they throw for a double up to three times,
moving on a double (without throwing again) or after the third failure (paying the fine).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from banker.advisor.linalg import stationary
from banker.edition import Card, Edition
from banker.errors import BadInput

BOARD_SIZE = 40
IN_JAIL = BOARD_SIZE
"""The cell of a token in jail; cells 0-39 are the squares (the jail square is "just visiting")."""
CELLS = BOARD_SIZE + 1
JAIL_STAYS = ("short", "long")
FINE_OR_CHANCE = ("pay", "draw")
LONG_STAY_THROWS = 3
DOUBLES_TO_JAIL = 3
MAX_CARD_CHAIN = 6
"""Cards moving to card squares that draw again: a safety bound far beyond any printed deck."""

State = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MoveRules:
    """The house rules that change how a token moves."""

    jail: str = "short"
    """"short": leave jail at once (fine or card); "long": throw for a double up to three times."""
    fine_or_chance: str = "pay"
    """A "pay a fine or take a Chance" card: "pay" (no move) or "draw" (take the Chance card)."""

    def __post_init__(self) -> None:
        if self.jail not in JAIL_STAYS:
            raise BadInput("advisor_bad_option", option="jail", problem=f"{self.jail!r} is not short or long")
        if self.fine_or_chance not in FINE_OR_CHANCE:
            raise BadInput(
                "advisor_bad_option", option="fine_or_chance", problem=f"{self.fine_or_chance!r} is not pay or draw"
            )


@dataclass(frozen=True, slots=True)
class Landing:
    """The long-run share of throws ending on each cell, and what the rent depends on besides."""

    rules: MoveRules
    cells: tuple[float, ...]
    """Share of throws ending on each square 0-39 (the jail square: just visiting) and in jail (40)."""
    nearest_card: tuple[float, ...]
    """Share of throws that end on a square (0-39) by a "nearest railroad/utility" card."""
    dice_total: tuple[float, ...]
    """Per throw, the expected dice total times "the throw ended here, not by a nearest card"."""
    turn_share: float
    """Share of throws that end a turn; ``1 / turn_share`` is the number of throws per turn."""
    jail_square: int = 10

    @property
    def in_jail(self) -> float:
        return self.cells[IN_JAIL]

    @property
    def just_visiting(self) -> float:
        return self.cells[self.jail_square]

    def square(self, index: int) -> float:
        """Share of throws ending on the square, counting "in jail" on the jail square.

        Raises :class:`BadInput` for an index that is not on the board.
        """
        if not 0 <= index < BOARD_SIZE:
            raise BadInput("advisor_bad_option", option="square", problem=f"{index} is not a board index 0-39")
        return self.cells[index] + (self.in_jail if index == self.jail_square else 0.0)

    @property
    def throws_per_turn(self) -> float:
        return 1.0 / self.turn_share


def landing_distribution(edition: Edition, rules: MoveRules | None = None) -> Landing:
    """The stationary landing distribution of ``edition`` under ``rules`` (cached per board and rules).

    Raises :class:`BadInput` if the board has no single jail square.
    """
    rules = rules or MoveRules()
    key = (edition.squares, edition.decks.get("chance", ()), edition.decks.get("community_chest", ()), rules)
    found = _SOLVED.get(key)
    if found is None:
        found = solve_chain(edition, rules)
        if len(_SOLVED) >= _SOLVED_LIMIT:
            _SOLVED.clear()
        _SOLVED[key] = found
    return found


_SOLVED: dict[Hashable, Landing] = {}
_SOLVED_LIMIT = 32


def solve_chain(edition: Edition, rules: MoveRules) -> Landing:
    """Build the chain of ``edition`` under ``rules`` and solve it (uncached)."""
    chain = Chain(edition, rules)
    pi = stationary(chain.rows)
    cells = [0.0] * CELLS
    nearest = [0.0] * CELLS
    dice = [0.0] * CELLS
    turn_share = 0.0
    for (cell, counter), weight, by_nearest, by_dice in zip(
        chain.states, pi, chain.nearest_rewards, chain.dice_rewards, strict=True
    ):
        cells[cell] += weight
        if cell == IN_JAIL or counter == 0:
            turn_share += weight
        for target, amount in by_nearest.items():
            nearest[target] += weight * amount
        for target, amount in by_dice.items():
            dice[target] += weight * amount
    return Landing(rules, tuple(cells), tuple(nearest), tuple(dice), turn_share, chain.jail_square)


def throws() -> list[tuple[int, bool, float]]:
    """The outcomes of two dice as (total, double, probability), 15 distinct outcomes."""
    outcomes: dict[tuple[int, bool], float] = {}
    for first in range(1, 7):
        for second in range(1, 7):
            key = (first + second, first == second)
            outcomes[key] = outcomes.get(key, 0.0) + 1.0 / 36.0
    return [(total, double, p) for (total, double), p in sorted(outcomes.items())]


Ending = tuple[int, bool]
"""Where a move ends (a cell) and whether a "nearest" card put it there."""


class Chain:
    """The states and one-throw transitions of a token on ``edition``'s board under ``rules``."""

    def __init__(self, edition: Edition, rules: MoveRules) -> None:
        kinds = [square.kind for square in edition.squares]
        if len(kinds) != BOARD_SIZE:
            raise BadInput("advisor_bad_option", option="edition", problem=f"{len(kinds)} squares, not 40")
        jails = [i for i, kind in enumerate(kinds) if kind == "jail"]
        if len(jails) != 1:
            raise BadInput("advisor_bad_option", option="edition", problem="the board needs one jail square")
        self.kinds = kinds
        self.jail_square = jails[0]
        self.decks = edition.decks
        self.rules = rules
        self._endings: dict[int, dict[Ending, float]] = {}
        self._throws = throws()
        self.states: list[State] = []
        self.rows: list[dict[int, float]] = []
        self.nearest_rewards: list[dict[int, float]] = []
        self.dice_rewards: list[dict[int, float]] = []
        self._build()

    def landing(self, square: int) -> dict[Ending, float]:
        """Where a token that lands on ``square`` ends once the square and its cards are dealt with."""
        cached = self._endings.get(square)
        if cached is None:
            cached = self._land(square, 0)
            self._endings[square] = cached
        return cached

    def _land(self, square: int, depth: int) -> dict[Ending, float]:
        kind = self.kinds[square]
        if kind == "go_to_jail":
            return {(IN_JAIL, False): 1.0}
        if kind in ("chance", "community_chest") and depth < MAX_CARD_CHAIN:
            return self._draw(kind, square, depth)
        return {(square, False): 1.0}

    def _draw(self, deck: str, square: int, depth: int) -> dict[Ending, float]:
        cards = self.decks.get(deck, ())
        if not cards:
            return {(square, False): 1.0}
        result: dict[Ending, float] = {}
        share = 1.0 / len(cards)
        for card in cards:
            for ending, p in self._card(card, square, depth).items():
                result[ending] = result.get(ending, 0.0) + share * p
        return result

    def _card(self, card: Card, square: int, depth: int) -> dict[Ending, float]:
        if card.kind == "advance":
            return self._land(card.to, depth + 1)
        if card.kind == "back":
            return self._land((square - card.spaces) % BOARD_SIZE, depth + 1)
        if card.kind == "go_to_jail":
            return {(IN_JAIL, False): 1.0}
        if card.kind == "nearest":
            for step in range(1, BOARD_SIZE + 1):
                target = (square + step) % BOARD_SIZE
                if self.kinds[target] == card.target:
                    return {(target, True): 1.0}
            return {(square, False): 1.0}
        if card.kind == "pay_or_draw" and self.rules.fine_or_chance == "draw":
            return self._draw(card.draw, square, depth + 1)
        return {(square, False): 1.0}

    def _build(self) -> None:
        start: State = (0, 0)
        moves: dict[State, list[tuple[State, int, bool, float]]] = {}
        queue = [start]
        while queue:
            state = queue.pop()
            if state in moves:
                continue
            moves[state] = self._moves(state)
            queue.extend(target for target, _, _, _ in moves[state] if target not in moves)
        # The solver censors states from the last one: the states after a double, which are entered
        # from few others, go last so that removing them stays cheap.
        self.states = sorted(moves, key=lambda state: (0 if state[0] == IN_JAIL else state[1], state))
        index = {state: i for i, state in enumerate(self.states)}
        for state in self.states:
            row: dict[int, float] = {}
            by_nearest: dict[int, float] = {}
            by_dice: dict[int, float] = {}
            for target, total, by_card, p in moves[state]:
                key = index[target]
                row[key] = row.get(key, 0.0) + p
                cell = target[0]
                if cell == IN_JAIL:
                    continue
                if by_card:
                    by_nearest[cell] = by_nearest.get(cell, 0.0) + p
                else:
                    by_dice[cell] = by_dice.get(cell, 0.0) + p * total
            self.rows.append(row)
            self.nearest_rewards.append(by_nearest)
            self.dice_rewards.append(by_dice)

    def _moves(self, state: State) -> list[tuple[State, int, bool, float]]:
        """Each outcome of the next throw from ``state``: (next state, dice total, by a nearest card, p)."""
        cell, counter = state
        moves: list[tuple[State, int, bool, float]] = []
        if cell == IN_JAIL and self.rules.jail == "long":
            for total, double, p in self._throws:
                if not double and counter < LONG_STAY_THROWS - 1:
                    moves.append(((IN_JAIL, counter + 1), 0, False, p))
                    continue
                moves.extend(self._move(self.jail_square, total, 0, p))
            return moves
        origin = self.jail_square if cell == IN_JAIL else cell
        doubles = 0 if cell == IN_JAIL else counter
        for total, double, p in self._throws:
            if double and doubles + 1 >= DOUBLES_TO_JAIL:
                moves.append(((IN_JAIL, 0), 0, False, p))
                continue
            moves.extend(self._move(origin, total, doubles + 1 if double else 0, p))
        return moves

    def _move(self, origin: int, total: int, doubles: int, p: float) -> list[tuple[State, int, bool, float]]:
        moves: list[tuple[State, int, bool, float]] = []
        for (cell, by_card), q in self.landing((origin + total) % BOARD_SIZE).items():
            target: State = (IN_JAIL, 0) if cell == IN_JAIL else (cell, doubles)
            moves.append((target, total, by_card, p * q))
        return moves
