"""The journal: every action of every game in SQLite (WAL, ``synchronous=FULL``).

One row per action with its events, written in one transaction, so a committed payment survives
pulling the plug. Nothing is deleted: undo is a row of its own. Restart replays the rows.
Every :data:`SNAPSHOT_EVERY` actions the state is written beside its action (a snapshot), so that a
restart replays only the actions after the newest snapshot at least :data:`UNDO_DEPTH` actions old: undo
after a restart still reaches that far back (and when undos after that snapshot reach back before it,
an older one is used). A snapshot that cannot be read, or whose replay fails, is
ignored and the whole game is replayed. Journals written before snapshots load by a full replay.
This is the only module of :mod:`banker` that touches the disk.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from banker.actions import Action, NewGame, parse_action
from banker.engine import apply
from banker.errors import BankerError, UnknownName
from banker.ledger import Event
from banker.snapshot import from_snapshot, to_snapshot
from banker.state import GameState

SNAPSHOT_EVERY = 200
"""Actions between two snapshots of a game's state."""
UNDO_DEPTH = 100
"""A resume starts from a snapshot at least this many actions old, so that undo still goes this far back."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    edition TEXT NOT NULL,
    players TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY,
    meaning TEXT NOT NULL UNIQUE,
    added REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    at REAL NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    name: str
    edition: str
    players: tuple[str, ...]
    created: float
    actions: int


class Journal:
    """A SQLite file of saved games. Thread-safe: one connection, one lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pragma(self, name: str) -> str:
        with self._lock:
            return str(self._db.execute(f"PRAGMA {name}").fetchone()[0])

    # --- writing ---------------------------------------------------------------------------------
    def create_game(self, action: NewGame, events: Iterable[Event], at: float, name: str = "") -> int:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "INSERT INTO games (name, edition, players, created) VALUES (?, ?, ?, ?)",
                    (name or " · ".join(action.players), action.edition, json.dumps(action.players), at),
                )
                game_id = int(cur.lastrowid or 0)
                self._insert(game_id, 0, action, events, at)
                self._db.execute("INSERT OR REPLACE INTO settings VALUES ('current_game', ?)", (str(game_id),))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return game_id

    def append(self, game_id: int, seq: int, action: Action, events: Iterable[Event], at: float,
               request: tuple[str, int, str] | None = None, state: GameState | None = None) -> None:
        """Write one action and its events in one durable transaction.

        ``request`` is (idempotency key, status, answer body) of the request that submitted the
        action: it is written in the same transaction, so a retried request finds its first answer
        exactly when the action is in the journal. ``state`` is the state the action led to: every
        :data:`SNAPSHOT_EVERY` actions it is written as a snapshot, in the same transaction.
        """
        snapshot = None
        if state is not None and seq % SNAPSHOT_EVERY == 0:
            text = to_snapshot(state)
            snapshot = (game_id, seq, text, hashlib.sha256(text.encode()).hexdigest())
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._insert(game_id, seq, action, events, at)
                if snapshot is not None:
                    self._db.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, state, digest) "
                                     "VALUES (?, ?, ?, ?)", snapshot)
                if request is not None:
                    self._db.execute("INSERT INTO requests (key, status, body, at) VALUES (?, ?, ?, ?)",
                                     (*request, at))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _insert(self, game_id: int, seq: int, action: Action, events: Iterable[Event], at: float) -> None:
        self._db.execute(
            "INSERT INTO actions (game_id, seq, action, events, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, action.to_line(), json.dumps([e.to_json() for e in events], ensure_ascii=False), at),
        )

    def record_request(self, key: str, status: int, body: str, at: float) -> None:
        """Remember the answer to a request that moved nothing (a refusal), for its retries."""
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO requests (key, status, body, at) VALUES (?, ?, ?, ?)",
                             (key, status, body, at))

    def request(self, key: str) -> tuple[int, str] | None:
        """The first answer (status, body) given to the request with this idempotency key."""
        with self._lock:
            row = self._db.execute("SELECT status, body FROM requests WHERE key = ?", (key,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    # --- tags: the NFC cards and stickers of the table ------------------------------------------
    def tags(self) -> dict[str, str]:
        """Every enrolled tag: UID (hex text) -> meaning."""
        with self._lock:
            rows = self._db.execute("SELECT uid, meaning FROM tags ORDER BY added, uid").fetchall()
        return {str(r[0]): str(r[1]) for r in rows}

    def set_tag(self, uid: str, meaning: str, at: float) -> None:
        """Enroll ``uid`` as ``meaning``; a tag that had this meaning before is forgotten."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM tags WHERE meaning = ? OR uid = ?", (meaning, uid))
                self._db.execute("INSERT INTO tags (uid, meaning, added) VALUES (?, ?, ?)", (uid, meaning, at))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def delete_tag(self, uid: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM tags WHERE uid = ?", (uid,))

    def set_current(self, game_id: int) -> None:
        self._require(game_id)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES ('current_game', ?)", (str(game_id),))

    def set_setting(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # --- reading ---------------------------------------------------------------------------------
    def current_game(self) -> int | None:
        value = self.setting("current_game")
        return int(value) if value is not None else None

    def games(self) -> list[GameInfo]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.name, g.edition, g.players, g.created, COUNT(a.seq) FROM games g "
                "LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id ORDER BY g.id"
            ).fetchall()
        return [GameInfo(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], r[5]) for r in rows]

    def _require(self, game_id: int) -> None:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownName("unknown_game", game=game_id)

    def action_lines(self, game_id: int) -> list[str]:
        self._require(game_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [r[0] for r in rows]

    def rows(self, game_id: int, since: int = 0) -> list[tuple[int, str, str, float]]:
        """(seq, action JSON, events JSON, time) from ``since`` on, for the history view."""
        with self._lock:
            return list(self._db.execute(
                "SELECT seq, action, events, at FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq",
                (game_id, since),
            ).fetchall())

    def actions(self, game_id: int) -> Iterator[Action]:
        for line in self.action_lines(game_id):
            yield parse_action(line)

    def load(self, game_id: int) -> GameState:
        """The saved game's current state: from its newest usable snapshot, else by a full replay."""
        self._require(game_id)
        with self._lock:
            last = self._db.execute("SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
            snapshots = [] if last is None else self._db.execute(
                "SELECT seq, state, digest FROM snapshots WHERE game_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 3",
                (game_id, last - UNDO_DEPTH)).fetchall()
        # The newest first; an older one when undos after the newest reach back before it.
        for seq, text, digest in snapshots:
            state = self._from_snapshot(game_id, seq, text, digest)
            if state is not None and state.seq == last:
                return state
        return self.replay(game_id)

    def _from_snapshot(self, game_id: int, seq: int, text: str, digest: str) -> GameState | None:
        """The current state from the snapshot taken at ``seq``; None if that does not work out."""
        if hashlib.sha256(text.encode()).hexdigest() != digest:
            return None
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND (seq = 0 OR seq > ?) ORDER BY seq",
                (game_id, seq)).fetchall()
        try:
            start, _ = apply(None, parse_action(rows[0][1]))
            state = from_snapshot(text, start)
            if rows[0][0] != 0 or state.seq != seq:
                return None
            for _, line in rows[1:]:
                state, _ = apply(state, parse_action(line))
        except (ValueError, IndexError, BankerError):
            # An undo reaching back before the snapshot, or a snapshot of something else: not this one.
            return None
        return state

    def replay(self, game_id: int) -> GameState:
        """Replay a saved game from its first action to its current state (no snapshot used)."""
        state: GameState | None = None
        for action in self.actions(game_id):
            state, _ = apply(state, action)
        if state is None:  # pragma: no cover - a game row always has its new_game row
            raise UnknownName("unknown_game", game=game_id)
        return state

    def export_script(self, game_id: int) -> str:
        """The game as the JSON-lines script of ``banker replay``."""
        return "".join(line + "\n" for line in self.action_lines(game_id))
