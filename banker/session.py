"""The one object the table and the phone page share.

It holds the current immutable state behind a lock; :meth:`Session.submit` validates an action,
journals it, swaps the state in and tells the subscribers. Readers take :attr:`Session.state`, a
snapshot, without waiting.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace

from banker.actions import Action, NewGame, Undo
from banker.board import board_event
from banker.chronicle import Chronicle
from banker.edition import load_edition
from banker.engine import apply, trim_history, undo_depth
from banker.errors import AskAgain, BadInput, BankerError, CardFull, IllegalAction
from banker.journal import SNAPSHOT_EVERY, UNDO_DEPTH, GameLost, Journal
from banker.ledger import Event
from banker.records import GameRecord, chronicle_record
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
REFUSALS_KEPT = 2000
"""How many refusals the session remembers (in memory, the oldest forgotten first) for their retries: a refusal
moved nothing, so it is not written to the card, and a phone that sends refused requests all evening does
not fill it."""


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
        self._refusals: OrderedDict[str, tuple[int, str, str]] = OrderedDict()
        """The first answers of refused requests by idempotency key: (status, body, digest of the request)."""
        self._chronicle: Chronicle | None = None
        """The current game's figures for the pages (:mod:`banker.chronicle`), kept as it goes on; None when it
        must be read from the journal again."""

    @classmethod
    def resume(cls, journal: Journal, game_id: int | None = None, **kwargs: object) -> Session:
        """Open the journal's current game (or ``game_id``) where it stopped."""
        session = cls(journal, **kwargs)  # type: ignore[arg-type]
        target = game_id if game_id is not None else journal.current_game()
        if target is not None:
            try:
                session._state, session._chronicle = journal.load_with_chronicle(target)
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

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the session's lock while the ``with`` block runs: no action is applied meanwhile, so a change
        of who may act (a new banker PIN, the role given back) falls between two actions, never inside
        one. The block must not submit an action."""
        with self._lock:
            yield

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
            kept = self._journal(state, events, action, None)
            state = self._publish(state, events, action, kept)
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
                 request: tuple[str, int, str, str] | None) -> tuple[float, Chronicle | None]:
        """Write the action; (when, and the chronicle after it when one was made for a new game or a snapshot)."""
        at = self._clock()
        if isinstance(action, NewGame):
            left = self._summary()
            self._game_id = self.journal.create_game(action, events, at, request=request)
            self._keep(left)
            return at, Chronicle.start(state, at, events)
        assert self._game_id is not None
        folded = None
        if state.seq % SNAPSHOT_EVERY == 0 and self._chronicle is not None:
            folded = self._chronicle.copy()
            try:
                folded.fold(self._state, action, state, events, at)
            except ValueError:
                folded = None
        self.journal.append(self._game_id, state.seq, action, events, at, request, state,
                            chronicle=folded.to_bytes() if folded is not None else None)
        return at, folded

    def _publish(self, state: GameState, events: tuple[Event, ...], action: Action,
                 kept: tuple[float, Chronicle | None]) -> GameState:
        """Swap the state in, fold the action into the chronicle and tell the subscribers (who must only
        enqueue: they run under the lock)."""
        at, folded = kept
        if folded is not None:
            self._chronicle = folded
        elif self._chronicle is not None:
            try:
                self._chronicle.fold(self._state, action, state, events, at)
            except ValueError:
                self._chronicle = None  # read from the journal again when a page asks for it
        if isinstance(action, NewGame):
            self._depth = 0
        elif isinstance(action, Undo):
            self._depth = max(0, self._depth - 1)
        else:
            self._depth += 1
            if self._depth > UNDO_KEPT:
                state = trim_history(state, UNDO_DEPTH)
                self._depth = UNDO_DEPTH
                if self._chronicle is not None:
                    self._chronicle.trim(UNDO_DEPTH)
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
        check: Callable[[], None] | None = None,
    ) -> tuple[int, str, bool]:
        """Submit ``action`` at most once for the idempotency ``key``: (status, body, replayed).

        The first request applies the action and answers ``respond(state, events)``, journaled with
        the action in one transaction; a refusal answers ``refuse(error)`` and is remembered too, in memory
        (the last :data:`REFUSALS_KEPT`; after a restart the request is judged again).
        Every later request with the same key gets that first answer and changes nothing; one with the
        same key and another action is refused (``idempotency_key_reused``) and not remembered.

        When the action cannot be saved (:class:`banker.errors.CardFull`: the card is full) it answers
        ``refuse`` with that error, nothing changed and nothing remembered: the same request goes through
        once there is room.

        ``check`` runs under the lock before the action is applied (after a first answer is looked up):
        whatever it raises comes out with nothing applied or remembered; the phone page checks there that
        the phone still holds the role the action needs.

        The same money-taking action sent again within :data:`AGAIN_S` (see :meth:`repeated`) is not
        applied unless ``again``: it answers ``refuse(AskAgain)``, not remembered, so the same request
        with ``again`` goes through.
        """
        digest = hashlib.sha256(action.to_line().encode()).hexdigest()
        with self._lock:
            first = self._refusals.get(key) or self.journal.request_with_digest(key)
            if first is not None:
                if first[2] is not None and first[2] != digest:
                    status, body = refuse(BadInput("idempotency_key_reused"))
                    return status, body, False
                return first[0], first[1], True
            if check is not None:
                check()
            try:
                state, events, action = self._apply(action)
            except BankerError as error:
                status, body = refuse(error)
                self._refusals[key] = (status, body, digest)
                while len(self._refusals) > REFUSALS_KEPT:
                    self._refusals.popitem(last=False)
                return status, body, False
            question = None if again else self.repeated(action)
            if question is not None:
                status, body = refuse(question)
                return status, body, False
            status, body = respond(state, events)
            try:
                kept = self._journal(state, events, action, (key, status, body, digest))
            except CardFull as full:
                status, body = refuse(full)
                return status, body, False
            self._publish(state, events, action, kept)
        return status, body, False

    def switch(self, game_id: int) -> GameState:
        with self._lock:
            left = self._summary()
            state, chronicle = self.journal.load_with_chronicle(game_id)
            self.journal.set_current(game_id)
            self._state, self._game_id, self._chronicle = state, game_id, chronicle
            self._depth = undo_depth(state)
            self._keep(left)
        return state

    # --- the current game's figures -----------------------------------------------------------------------
    def chronicle(self) -> tuple[GameState, Chronicle] | None:
        """The current state and a copy of its chronicle (None without a game): what the pages of the whole
        game read, in time that does not depend on its length."""
        with self._lock:
            state, game_id = self._state, self._game_id
            if state is None or game_id is None:
                return None
            if self._chronicle is None:
                # It lost track (an undo it had nothing to take back for): read it from the journal again.
                self._state, self._chronicle = self.journal.load_with_chronicle(game_id)
                self._depth = undo_depth(self._state)
                state = self._state
            return state, self._chronicle.copy()

    def record(self) -> GameRecord | None:
        """The records' summary of the current game, from its chronicle."""
        found = self.chronicle()
        info = self.journal.game_info(self._game_id) if self._game_id is not None else None
        if found is None or info is None:
            return None
        return chronicle_record(found[1], found[0], info.id, info.name)

    def _summary(self) -> tuple[int, int, str] | None:
        """The current game's summary to keep when the session leaves it: (game, its rows, the record)."""
        state, game_id, chronicle = self._state, self._game_id, self._chronicle
        if state is None or game_id is None or chronicle is None:
            return None
        info = self.journal.game_info(game_id)
        if info is None:
            return None
        return game_id, info.actions, chronicle_record(chronicle, state, game_id, info.name).to_json()

    def _keep(self, summary: tuple[int, int, str] | None) -> None:
        if summary is None:
            return
        with contextlib.suppress(CardFull):  # else made again from the game's rows when the records need it
            self.journal.keep_summary(*summary)
