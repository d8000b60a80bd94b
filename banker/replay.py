"""Replay a JSON-lines script: the contract behind ``banker replay``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from banker.actions import Action, NewGame, parse_action
from banker.board import board_event
from banker.engine import apply
from banker.errors import BadInput, BankerError
from banker.ledger import Event
from banker.state import GameState


class ScriptError(Exception):
    """A script line that could not be applied; ``line`` is 1-based."""

    def __init__(self, line: int, error: BankerError) -> None:
        self.line = line
        self.error = error
        super().__init__(f"line {line}: {error}")


@dataclass
class ReplayResult:
    state: GameState
    events: list[tuple[int, tuple[Event, ...]]] = field(default_factory=list)
    """(line number, the line's events) of every applied line."""
    states: list[GameState] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    """The action of every applied line, in the order of :attr:`events`."""


def replay_lines(lines: Iterable[str], *, keep_states: bool = False,
                 check: bool = False, board: bool = False) -> ReplayResult:
    """Apply each non-blank line; raises :class:`ScriptError` naming the first bad line.

    ``check`` runs :func:`banker.invariants.check_invariants` after every line (for tests). ``board``
    ends each line's events with its ``"board"`` event (:func:`banker.board.board_event`), as the
    session's are.
    """
    from banker.invariants import check_invariants

    state: GameState | None = None
    result: ReplayResult | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            action = parse_action(line)
            if state is None and not isinstance(action, NewGame):
                raise BadInput("script_needs_new_game")
            before = state
            state, events = apply(state, action)
        except BankerError as exc:
            raise ScriptError(number, exc) from exc
        if check:
            check_invariants(state)
        if result is None:
            result = ReplayResult(state)
        if board:
            events = (*events, board_event(before, state, action))
        result.state = state
        result.events.append((number, events))
        result.actions.append(action)
        if keep_states:
            result.states.append(state)
    if result is None:
        raise ScriptError(1, BadInput("script_needs_new_game"))
    return result
