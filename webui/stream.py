"""Server-sent events: every phone's live view of the game.

One Session subscriber feeds a bounded queue per open stream. It runs under the session's lock,
so it only enqueues: a queue that is full marks its stream for a resync (the current state is sent
when the phone catches up) instead of waiting, and a slow phone never holds up the table.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from banker import balances
from banker.actions import Action
from banker.board import moves_of
from banker.export import state_to_json
from banker.ledger import Event
from banker.session import Session
from banker.speech import say
from banker.state import GameState
from webui.tableport import TablePort

KEEPALIVE_SECONDS = 15.0
QUEUE_SIZE = 64
PROPOSAL_ACTIONS = frozenset({"propose_trade", "accept_trade", "refuse_trade", "cancel_trade"})
"""The actions after which (or after whose undo) a stream also sends ``event: trades``."""
PROPOSALS_GONE = frozenset({"trade_withdrawn", "proposals_dropped"})
"""Events of other actions that take proposals away (a deed offered changed, a player went bankrupt): the
stream sends ``event: trades`` after them too."""
STREAMS_PER_PHONE = 4
"""Streams one phone (one cookie) may hold: one per open tab of the page."""
STREAMS_PER_ADDRESS = 8
"""Streams one device (one address) may hold, whatever cookies it shows; the table's own computer is not held
to this (it runs the simulated table and the load test's phones)."""

Item = tuple[str, Any]


class Client:
    """One open stream."""

    def __init__(self, phone: str, lang: str, address: str = "", player: str | None = None) -> None:
        self.phone = phone
        self.lang = lang
        self.address = address
        self.player = player
        """The phone's player when the stream opened (a phone that picks another player loads its page, and
        so opens a new stream): hidden balances show this player's cash only."""
        self.queue: queue.Queue[Item] = queue.Queue(QUEUE_SIZE)
        self.resync = False

    def offer(self, item: Item) -> None:
        """Enqueue without ever waiting: a full queue turns into a resync."""
        try:
            self.queue.put_nowait(item)
        except queue.Full:
            self.resync = True


class Broker:
    def __init__(self, session: Session, table: TablePort | None, max_streams: int,
                 keepalive: float = KEEPALIVE_SECONDS, instance: str = "") -> None:
        self.session = session
        self.table = table
        self.instance = instance
        """This run of the program: a page that reconnects to another instance (after a restart) knows that
        the frame numbers started again and that it missed whatever happened meanwhile."""
        self.max_streams = max_streams
        self.keepalive = keepalive
        self._lock = threading.Lock()
        self._clients: tuple[Client, ...] = ()
        self._closing = False
        self._json_cache: dict[tuple[int, int, str, str], str] = {}
        self._json_lock = threading.Lock()
        self._unsubscribe: list[Callable[[], None]] = [session.subscribe(self._on_action)]
        if table is not None and table.simulated:
            self._unsubscribe.append(table.add_frame_listener(self._on_frame))
        log_listener = getattr(table, "add_log_listener", None)
        if log_listener is not None:
            self._unsubscribe.append(log_listener(self._on_table_log))
        speech_listener = getattr(table, "add_speech_listener", None)
        if speech_listener is not None:
            self._unsubscribe.append(speech_listener(self._on_speech))

    # --- producers (must only enqueue) -----------------------------------------------------------
    def _on_action(self, state: GameState, events: tuple[Event, ...], action: Action) -> None:
        item: Item = ("state", (self.session.game_id, state, events, action))
        # A proposal made, answered or brought back by an undo: the pages that show trades re-read.
        trades = action.name in PROPOSAL_ACTIONS or any(
            e.kind in PROPOSALS_GONE or e.kind == "undone" and e.params.get("action", {}).get("action")
            in PROPOSAL_ACTIONS for e in events)
        for client in self._clients:
            client.offer(item)
            if trades:
                client.offer(("trades", None))

    def _on_table_log(self) -> None:
        for client in self._clients:
            client.offer(("log", None))

    def _on_speech(self) -> None:
        for client in self._clients:
            client.offer(("speech", None))

    def _on_frame(self, number: int) -> None:
        for client in self._clients:
            client.offer(("frame", number))

    def notify_role(self, phone: str, granted: bool | None) -> None:
        for client in self._clients:
            if client.phone == phone:
                client.offer(("role", granted))

    # --- streams ----------------------------------------------------------------------------------
    @property
    def open_streams(self) -> int:
        return len(self._clients)

    def open(self, phone: str, lang: str, address: str = "", own_computer: bool = True,
             player: str | None = None) -> Client | None:
        """A new stream, or None when MAX_STREAMS are open already, or :data:`STREAMS_PER_PHONE` of this
        phone, or :data:`STREAMS_PER_ADDRESS` of this address (unless it is the table's ``own_computer``)."""
        with self._lock:
            if self._closing or len(self._clients) >= self.max_streams:
                return None
            if sum(1 for c in self._clients if c.phone == phone) >= STREAMS_PER_PHONE:
                return None
            if not own_computer and sum(1 for c in self._clients if c.address == address) >= STREAMS_PER_ADDRESS:
                return None
            client = Client(phone, lang, address, player)
            self._clients = (*self._clients, client)
            return client

    def gone(self, client: Client) -> None:
        """The phone of ``client`` went away (its connection closed): end its stream now, freeing its place.
        Called from the server's loop: it only enqueues."""
        client.offer(("bye", None))

    def close(self, client: Client) -> None:
        with self._lock:
            self._clients = tuple(c for c in self._clients if c is not client)

    def shutdown(self) -> None:
        """End every stream (the server is stopping)."""
        with self._lock:
            self._closing = True
            clients = self._clients
        for client in clients:
            client.offer(("bye", None))
        for unsubscribe in self._unsubscribe:
            unsubscribe()

    def viewer(self, client: Client, game_id: int) -> balances.Viewer:
        """Who reads ``client``'s stream, for hidden balances: its player, and the banker role asked of the
        journal at each message (a role given back stops showing everything at once)."""
        return balances.Viewer(client.player, self.session.journal.holds_banker(client.phone, game_id))

    def state_json(self, game_id: int, state: GameState, viewer: balances.Viewer) -> str:
        """The state JSON as ``viewer`` may see it, built once per (game, seq, who sees it: everything, a
        player's own cash, or a watcher's nothing) however many phones listen. The role and the player are
        apart in the key: a player's name is whatever the family typed, "-" or "" too."""
        if balances.sees_all(state, viewer):
            key = (game_id, state.seq, "all", "")
        elif viewer.player is not None:
            key = (game_id, state.seq, "player", viewer.player)
        else:
            key = (game_id, state.seq, "watcher", "")
        with self._json_lock:
            text = self._json_cache.get(key)
        if text is None:
            shown = balances.state_json(state, state_to_json(state), viewer)
            text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
            with self._json_lock:
                if len(self._json_cache) > 8 + len(state.players):
                    self._json_cache.clear()
                self._json_cache[key] = text
        return text

    def _state_message(self, game_id: int, state: GameState, done: list[tuple[Action, tuple[Event, ...]]],
                       client: Client, resync: bool = False) -> str:
        """One state message: the state, the log lines of the actions since the last one, and each of
        those actions with its own log, sentence (``say``) and board moves, as the client's phone may see
        them (hidden balances)."""
        edition = state.edition
        lang = client.lang
        viewer = self.viewer(client, game_id)
        log = [line for _, events in done for line in balances.log_lines(state, events, lang, viewer)]
        actions = [{"action": action.to_json(),
                    "log": balances.log_lines(state, [e for e in events if e.kind != "board"], lang, viewer),
                    "say": say(edition, events, lang), "say_short": say(edition, events, lang, short=True),
                    "board": [m.to_json() for m in moves_of(events)]}
                   for action, events in done]
        # The state JSON is shared by every stream: spliced in, not encoded again per phone.
        flag = "true" if resync else "false"
        data = (f'{{"game":{game_id},"seq":{state.seq},"resync":{flag},'
                f'"log":{json.dumps(log, ensure_ascii=False)},"actions":{json.dumps(actions, ensure_ascii=False)},'
                f'"state":{self.state_json(game_id, state, viewer)}}}')
        return f"id: {game_id}-{state.seq}\nevent: state\ndata: {data}\n\n"

    def _current(self, client: Client, resync: bool) -> str | None:
        state, game_id = self.session.state, self.session.game_id
        if state is None or game_id is None:
            return None
        return self._state_message(game_id, state, [], client, resync)

    def events(self, client: Client, since: str) -> Iterator[str]:
        """The SSE body of one stream. Reads the session, never changes it.

        First the ``hello`` event, on every connection: this program's instance (a page that reconnects
        draws itself again, and after a restart knows that the frame numbers started again) and the
        simulated table's frame number. ``since`` is the id of the state the phone shows (Last-Event-ID
        after a reconnect): when the game moved on since, the current state comes next. Both are read now,
        when the stream opens, not when the body starts, so nothing that happens in between is missed.
        """
        state, game_id = self.session.state, self.session.game_id
        frame = self.table.frame_number if self.table is not None and self.table.simulated else 0
        hello = f"event: hello\ndata: {json.dumps({'instance': self.instance, 'frame': frame})}\n\n"
        first = ""
        if state is not None and game_id is not None and since != f"{game_id}-{state.seq}":
            first = self._state_message(game_id, state, [], client, resync=True)
        return self._body(client, hello, first)

    def _body(self, client: Client, hello: str, first: str) -> Iterator[str]:
        try:
            # A comment first so the headers and the connection reach the phone at once.
            yield ": connected\nretry: 2000\n\n" + hello
            if first:
                yield first
            while True:
                try:
                    items = [client.queue.get(timeout=self.keepalive)]
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                while True:
                    try:
                        items.append(client.queue.get_nowait())
                    except queue.Empty:
                        break
                out = self._coalesce(client, items)
                if out is None:
                    return
                if out:
                    yield out
        finally:
            self.close(client)

    def _coalesce(self, client: Client, items: list[Item]) -> str | None:
        """One write for everything waiting: the newest state with all the new log lines."""
        parts: list[str] = []
        latest: tuple[int, GameState] | None = None
        done: list[tuple[Action, tuple[Event, ...]]] = []
        frame: int | None = None
        trades = False
        table_log = False
        speech = False
        for kind, payload in items:
            if kind == "bye":
                return None
            if kind == "state":
                game_id, state, new_events, action = payload
                if latest is not None and latest[0] != game_id:
                    done = []
                latest = (game_id, state)
                done.append((action, new_events))
            elif kind == "frame":
                frame = payload
            elif kind == "role":
                parts.append(f"event: role\ndata: {json.dumps({'banker': payload})}\n\n")
            elif kind == "trades":
                trades = True
            elif kind == "log":
                table_log = True
            elif kind == "speech":
                speech = True
        if client.resync:
            client.resync = False
            current = self._current(client, resync=True)
            if current:
                parts.insert(0, current)
        elif latest is not None:
            parts.insert(0, self._state_message(latest[0], latest[1], done, client))
        if trades:
            parts.append("event: trades\ndata: {}\n\n")
        if table_log:
            parts.append("event: log\ndata: {}\n\n")
        if speech and self.table is not None:
            # The table's voice as it is now (several changes at once: the last one).
            parts.append(f"event: speech\ndata: {json.dumps(self.table.speech())}\n\n")
        if frame is not None:
            parts.append(f"event: frame\ndata: {frame}\n\n")
        return "".join(parts)
