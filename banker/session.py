"""The one object the table and the phone page share.

It holds the current immutable state behind a lock; :meth:`Session.submit` validates an action,
journals it, swaps the state in and tells the subscribers. Readers take :attr:`Session.state`, a
snapshot, without waiting.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from banker.actions import Action, NewGame
from banker.edition import load_edition
from banker.engine import apply
from banker.errors import IllegalAction
from banker.journal import Journal
from banker.ledger import Event
from banker.rules import Rules
from banker.state import GameState

Subscriber = Callable[[GameState, tuple[Event, ...], Action], None]


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

    @classmethod
    def resume(cls, journal: Journal, game_id: int | None = None, **kwargs: object) -> Session:
        """Open the journal's current game (or ``game_id``) where it stopped."""
        session = cls(journal, **kwargs)  # type: ignore[arg-type]
        target = game_id if game_id is not None else journal.current_game()
        if target is not None:
            session._state = journal.load(target)
            session._game_id = target
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
        """Apply, journal, publish. Raises :class:`BankerError` with nothing changed."""
        with self._lock:
            if isinstance(action, NewGame):
                action = self.resolve_randomness(action)
                state, events = apply(None, action)
                self._game_id = self.journal.create_game(action, events, self._clock())
            else:
                if self._state is None or self._game_id is None:
                    raise IllegalAction("no_game")
                state, events = apply(self._state, action)
                self.journal.append(self._game_id, state.seq, action, events, self._clock())
            self._state = state
            subscribers = list(self._subscribers)
            for callback in subscribers:
                callback(state, events, action)
        return state, events

    def switch(self, game_id: int) -> GameState:
        with self._lock:
            state = self.journal.load(game_id)
            self.journal.set_current(game_id)
            self._state, self._game_id = state, game_id
        return state
