"""The one object the table and the phone page share.

It holds the current immutable state behind a lock; :meth:`Session.submit` validates an action,
journals it, swaps the state in and tells the subscribers. Readers take :attr:`Session.state`, a
snapshot, without waiting.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from banker.actions import Action, NewGame, Undo
from banker.board import board_event
from banker.edition import load_edition
from banker.engine import apply, trim_history, undo_depth
from banker.errors import AskAgain, BadInput, BankerError, IllegalAction
from banker.journal import UNDO_DEPTH, GameLost, Journal
from banker.ledger import Event
from banker.rules import Rules
from banker.state import GameState

Subscriber = Callable[[GameState, tuple[Event, ...], Action], None]

UNDO_KEPT = 2 * UNDO_DEPTH
"""The undo chain held in memory is cut back to :data:`UNDO_DEPTH` actions when it grows past this: undo
reaches at least as far back as after a restart, and a table running for hours holds a bounded number
of old states."""

AGAIN_S = 30.0
"""The same money-taking action for the same player sent again from a phone within this many seconds is
asked (:class:`banker.errors.AskAgain`), not applied: two taps on a phone are one payment unless the
player says "again"."""
ASKS_AGAIN = frozenset({"salary", "tax", "card", "jail_fine", "pay", "rent", "collect", "free_parking"})
"""The actions :data:`AGAIN_S` guards: those that move money for one player, which nobody makes twice in a
few seconds on purpose. Building, bidding and mortgaging are repeated on purpose; the rules refuse a
second purchase of a deed by themselves."""
RECENT_ROWS = 64
"""How many of the journal's last actions the repeat guard reads (far more than a table makes in
:data:`AGAIN_S`)."""


def earlier_amount(events: str, player: str | None) -> int:
    """The money ``player``'s journaled action moved (paid, received, or owed as a debt), from its row's
    events; 0 when it moved none (the rent of a mortgaged deed) or the row cannot be read."""
    try:
        found = json.loads(events)
    except ValueError:
        return 0
    for event in found if isinstance(found, list) else []:
        amount = event.get("amount") if isinstance(event, dict) else None
        if isinstance(amount, int) and not isinstance(amount, bool) and event.get("player") == player:
            return amount
    return 0


class Session:
    def __init__(self, journal: Journal, *, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None) -> None:
        self.journal = journal
        self._clock = clock
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._state: GameState | None = None
        self._game_id: int | None = None
        self._subscribers: list[Subscriber] = []
        self._depth = 0
        """Length of the current state's undo chain."""

    @classmethod
    def resume(cls, journal: Journal, game_id: int | None = None, **kwargs: object) -> Session:
        """Open the journal's current game (or ``game_id``) where it stopped."""
        session = cls(journal, **kwargs)  # type: ignore[arg-type]
        target = game_id if game_id is not None else journal.current_game()
        if target is not None:
            try:
                session._state = journal.load(target)
            except GameLost:
                # Nothing of it can be restored (journal.damage says so): the table starts without a game.
                return session
            session._game_id = target
            session._depth = undo_depth(session._state)
            journal.set_current(target)
        return session

    @property
    def state(self) -> GameState | None:
        return self._state

    @property
    def game_id(self) -> int | None:
        return self._game_id

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def resolve_randomness(self, action: NewGame) -> NewGame:
        """Deal the short game's deeds now, so the journal holds the deal and replay is exact."""
        if action.deal is not None:
            return action
        rules = Rules.build(load_edition(action.edition).defaults, action.rules)
        if rules.deeds_dealt == 0:
            return action
        return replace(action, seed=self._rng.randrange(2**31))

    def submit(self, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        """Apply, journal, publish. Raises :class:`BankerError` with nothing changed.

        The events end with the ``"board"`` event of :func:`banker.board.board_event`: the moves to make
        on the cardboard (and, for an undo, what was undone, which the table says).
        """
        with self._lock:
            state, events, action = self._apply(action)
            self._journal(state, events, action, None)
            state = self._publish(state, events, action)
        return state, events

    def preview(self, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        """What ``action`` would do now, without doing it (the engine is pure): for confirmations.

        Raises:
            BankerError: the rules refuse it.
        """
        if isinstance(action, NewGame):
            return apply(None, action)
        state = self._state
        if state is None:
            raise IllegalAction("no_game")
        return apply(state, action)

    def _apply(self, action: Action) -> tuple[GameState, tuple[Event, ...], Action]:
        """Apply ``action``; its events end with the ``"board"`` event (what to move on the cardboard)."""
        if isinstance(action, NewGame):
            action = self.resolve_randomness(action)
            state, events = apply(None, action)
            return state, (*events, board_event(None, state, action)), action
        if self._state is None or self._game_id is None:
            raise IllegalAction("no_game")
        state, events = apply(self._state, action)
        return state, (*events, board_event(self._state, state, action)), action

    def _journal(self, state: GameState, events: tuple[Event, ...], action: Action,
                 request: tuple[str, int, str, str] | None) -> None:
        at = self._clock()
        if isinstance(action, NewGame):
            self._game_id = self.journal.create_game(action, events, at)
            if request is not None:
                self.journal.record_request(*request[:3], at, request[3])
        else:
            assert self._game_id is not None
            self.journal.append(self._game_id, state.seq, action, events, at, request, state)

    def _publish(self, state: GameState, events: tuple[Event, ...], action: Action) -> GameState:
        """Swap the state in and tell the subscribers (who must only enqueue: they run under the lock)."""
        if isinstance(action, NewGame):
            self._depth = 0
        elif isinstance(action, Undo):
            self._depth = max(0, self._depth - 1)
        else:
            self._depth += 1
            if self._depth > UNDO_KEPT:
                state = trim_history(state, UNDO_DEPTH)
                self._depth = UNDO_DEPTH
        self._state = state
        for callback in list(self._subscribers):
            callback(state, events, action)
        return state

    def repeated(self, action: Action) -> AskAgain | None:
        """The question to ask before applying ``action``, when the same action (the same JSON: the same
        player, tax, card, amount…) of :data:`ASKS_AGAIN` is among the game's actions of the last
        :data:`AGAIN_S` seconds of the journal's clock and was not undone; else None."""
        state, game_id = self._state, self._game_id
        if action.name not in ASKS_AGAIN or state is None or game_id is None:
            return None
        now = self._clock()
        line = action.to_line()
        done: list[tuple[str, str, float]] = []
        for seq, text, events, at in self.journal.rows(game_id, max(1, state.seq - RECENT_ROWS)):
            if seq > state.seq:
                break  # rows set aside as damaged are not part of the game
            try:
                name = json.loads(text).get("action")
            except (ValueError, AttributeError):
                name = None
            if name == "undo":
                if done:
                    done.pop()
            else:
                done.append((text, events, at))
        for text, events, at in reversed(done):
            if now - at >= AGAIN_S:
                break
            if text == line:
                seconds = max(1, math.floor(now - at))
                # The question says what the first one was (the deed, the amount paid then): a new landing
                # after a house was built is the same action at another rent.
                prop = state.edition.by_id.get(getattr(action, "property", "") or "")
                return AskAgain(f"again_{action.name}", player=action.actor or "", seconds=seconds,
                                property=prop.name if prop is not None else "",
                                amount=state.money(earlier_amount(events, action.actor)))
        return None

    def submit_once(
        self,
        action: Action,
        key: str,
        respond: Callable[[GameState, tuple[Event, ...]], tuple[int, str]],
        refuse: Callable[[BankerError], tuple[int, str]],
        *,
        again: bool = False,
    ) -> tuple[int, str, bool]:
        """Submit ``action`` at most once for the idempotency ``key``: (status, body, replayed).

        The first request applies the action and answers ``respond(state, events)``, journaled with
        the action in one transaction; a refusal answers ``refuse(error)`` and is remembered too.
        Every later request with the same key gets that first answer and changes nothing; one with the
        same key and another action is refused (``idempotency_key_reused``) and not remembered.

        The same money-taking action sent again within :data:`AGAIN_S` (see :meth:`repeated`) is not
        applied unless ``again``: it answers ``refuse(AskAgain)``, not remembered, so the same request
        with ``again`` goes through.
        """
        digest = hashlib.sha256(action.to_line().encode()).hexdigest()
        with self._lock:
            first = self.journal.request_with_digest(key)
            if first is not None:
                if first[2] is not None and first[2] != digest:
                    status, body = refuse(BadInput("idempotency_key_reused"))
                    return status, body, False
                return first[0], first[1], True
            try:
                state, events, action = self._apply(action)
            except BankerError as error:
                status, body = refuse(error)
                self.journal.record_request(key, status, body, self._clock(), digest)
                return status, body, False
            question = None if again else self.repeated(action)
            if question is not None:
                status, body = refuse(question)
                return status, body, False
            status, body = respond(state, events)
            self._journal(state, events, action, (key, status, body, digest))
            self._publish(state, events, action)
        return status, body, False

    def switch(self, game_id: int) -> GameState:
        with self._lock:
            state = self.journal.load(game_id)
            self.journal.set_current(game_id)
            self._state, self._game_id = state, game_id
            self._depth = undo_depth(state)
        return state
