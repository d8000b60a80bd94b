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
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from banker.actions import Action, NewGame, parse_action
from banker.engine import apply
from banker.errors import BadInput, BankerError, UnknownName
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
CREATE TABLE IF NOT EXISTS table_log (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    key TEXT NOT NULL,
    params TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    at REAL NOT NULL,
    digest TEXT
);
"""
GUARD_SCHEMA = """
CREATE TABLE IF NOT EXISTS banker_grants (
    phone TEXT PRIMARY KEY,
    game INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS misses (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    until REAL NOT NULL,
    last REAL NOT NULL
);
"""
"""Who holds the banker role, and the wrong guesses of join codes and PINs: decided on the table's side and
kept across a restart, like the games."""
DAMAGE_SCHEMA = """
CREATE TABLE IF NOT EXISTS damaged_actions (
    game_id INTEGER NOT NULL,
    found REAL NOT NULL,
    seq INTEGER NOT NULL,
    action BLOB,
    events BLOB,
    at REAL,
    problem TEXT NOT NULL,
    PRIMARY KEY (game_id, found, seq)
);
"""
"""Rows of a game that could not be restored, set aside (not deleted) when the game was loaded: ``found`` is
when, ``problem`` why (the message's key and parameters as JSON, on the row where it started)."""
BANKER_GENERATION = "banker_generation"
"""The setting that counts the banker role's generations: a grant of an older one no longer holds."""
UPGRADES = (("requests", "digest", "ALTER TABLE requests ADD COLUMN digest TEXT"),)
"""Columns added since the first journals: (table, column, the statement that adds it)."""


T = TypeVar("T")


class JournalError(Exception):
    """A journal file that cannot be used; the message says which file and why, in one line."""


class DamagedRow(Exception):
    """A saved action that cannot be read or replayed: its ``seq``, the ``error`` and the ``state`` before it
    (None when it is the game's first row)."""

    def __init__(self, seq: int, error: BankerError, state: GameState | None) -> None:
        super().__init__(f"action {seq}: {error}")
        self.seq, self.error, self.state = seq, error, state


class GameLost(Exception):
    """A saved game whose first row (its new_game) is damaged: nothing of it can be restored."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id}: its first action is damaged")
        self.game_id = game_id


@dataclass(frozen=True, slots=True)
class Damage:
    """What a load set aside of a damaged game: from action ``first_seq`` on, ``lost`` actions, because of
    the message ``key`` with ``params`` (for the player's language), found at the time ``found``."""

    game_id: int
    first_seq: int
    lost: int
    key: str
    params: dict[str, str]
    found: float


@dataclass(frozen=True, slots=True)
class TableLogEntry:
    """A line the table added to a game's log that is no action (a tag re-taught): after action ``seq``,
    at the time ``at``, the kind ``key`` with its ``params``."""

    seq: int
    at: float
    key: str
    params: dict[str, object]


def _unusable(path: str, error: sqlite3.Error) -> str:
    where = Path(path)
    if where.is_dir():
        return f"the journal {path} is a directory, not a file: move it away or choose another data directory"
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
        return f"{path} is not a journal (not an SQLite database): move it away or choose another data directory"
    return f"cannot open the journal {path} ({error})"


@dataclass(frozen=True, slots=True)
class Miss:
    """A counter of wrong guesses: how many, locked until when, and when the last one was counted."""

    count: int
    until: float
    last: float


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
        """Open (or create) the journal at ``path``.

        Raises:
            JournalError: it cannot be used: its directory cannot be made, the file is not an SQLite
                database, is a directory, or cannot be written.
        """
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except OSError as error:
            raise JournalError(f"cannot make the directory of the journal {self.path} "
                               f"({error.strerror or error})") from error
        except sqlite3.Error as error:
            raise JournalError(_unusable(self.path, error)) from error
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(SCHEMA)
            self._db.executescript(GUARD_SCHEMA)
            self._db.executescript(DAMAGE_SCHEMA)
            self._upgrade()
        except sqlite3.Error as error:
            self._db.close()
            raise JournalError(_unusable(self.path, error)) from error

    def _upgrade(self) -> None:
        """Add the columns that a journal written by an older version lacks."""
        for table, column, statement in UPGRADES:
            present = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                self._db.execute(statement)

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
               request: tuple[str, int, str] | tuple[str, int, str, str] | None = None,
               state: GameState | None = None) -> None:
        """Write one action and its events in one durable transaction.

        ``request`` is (idempotency key, status, answer body[, digest of the request]) of the request
        that submitted the action: it is written in the same transaction, so a retried request finds
        its first answer exactly when the action is in the journal. ``state`` is the state the action led to: every
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
                    key, status, body, *digest = request
                    self._db.execute("INSERT INTO requests (key, status, body, at, digest) VALUES (?, ?, ?, ?, ?)",
                                     (key, status, body, at, digest[0] if digest else None))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _insert(self, game_id: int, seq: int, action: Action, events: Iterable[Event], at: float) -> None:
        self._db.execute(
            "INSERT INTO actions (game_id, seq, action, events, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, action.to_line(), json.dumps([e.to_json() for e in events], ensure_ascii=False), at),
        )

    def record_request(self, key: str, status: int, body: str, at: float, digest: str | None = None) -> None:
        """Remember the answer to a request that moved nothing (a refusal), for its retries."""
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO requests (key, status, body, at, digest) VALUES (?, ?, ?, ?, ?)",
                             (key, status, body, at, digest))

    def request(self, key: str) -> tuple[int, str] | None:
        """The first answer (status, body) given to the request with this idempotency key."""
        found = self.request_with_digest(key)
        return None if found is None else (found[0], found[1])

    def request_with_digest(self, key: str) -> tuple[int, str, str | None] | None:
        """The first answer to the request with this key, and the digest of that request (None when it
        was not kept)."""
        with self._lock:
            row = self._db.execute("SELECT status, body, digest FROM requests WHERE key = ?", (key,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), None if row[2] is None else str(row[2]))

    # --- the banker role: which phones hold it, for which game ------------------------------------------
    def banker_generation(self) -> int:
        value = self.setting(BANKER_GENERATION)
        return int(value) if value is not None and value.isdigit() else 0

    def grant_banker(self, phone: str, game: int | None, at: float) -> None:
        """``phone`` holds the banker role for ``game`` (None: before the first game), at the current
        generation."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (BANKER_GENERATION,)).fetchone()
            generation = int(row[0]) if row is not None and str(row[0]).isdigit() else 0
            self._db.execute("INSERT OR REPLACE INTO banker_grants (phone, game, generation, at) VALUES (?, ?, ?, ?)",
                             (phone, game or 0, generation, at))

    def holds_banker(self, phone: str, game: int | None) -> bool:
        """Whether ``phone`` was granted the banker role for ``game`` in the current generation."""
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM banker_grants g WHERE g.phone = ? AND g.game = ? AND g.generation = "
                "COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?), 0)",
                (phone, game or 0, BANKER_GENERATION)).fetchone()
        return row is not None

    def move_banker_grants(self, old: str, new: str) -> int:
        """The phone ``old`` is ``new`` from now on (it was given a new id): its grants, of every game, go
        with it, and ``old`` holds none. Returns how many moved."""
        with self._lock:
            cur = self._db.execute("UPDATE OR REPLACE banker_grants SET phone = ? WHERE phone = ?", (new, old))
        return int(cur.rowcount)

    def end_banker_grants(self) -> int:
        """Start a new generation of the banker role: every grant so far lapses. Returns the new one."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT value FROM settings WHERE key = ?", (BANKER_GENERATION,)).fetchone()
                generation = (int(row[0]) if row is not None and str(row[0]).isdigit() else 0) + 1
                self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (BANKER_GENERATION, str(generation)))
                self._db.execute("DELETE FROM banker_grants")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return generation

    # --- counters of wrong guesses (join codes, PINs) -------------------------------------------------
    def update_misses(self, keys: Sequence[str], change: Callable[[dict[str, Miss]], tuple[dict[str, Miss | None], T]]
                      ) -> T:
        """Read the counters of ``keys``, let ``change`` decide, and write what it returns (None: forget that
        counter), all in one transaction: two guesses at once cannot both read the same count.
        ``change`` gets only the counters that exist and returns its answer beside the new counters."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                rows = self._db.execute(
                    f"SELECT key, count, until, last FROM misses WHERE key IN ({','.join('?' * len(keys))})",
                    tuple(keys)).fetchall()
                current = {str(r[0]): Miss(int(r[1]), float(r[2]), float(r[3])) for r in rows}
                updated, answer = change(current)
                for key, miss in updated.items():
                    if miss is None:
                        self._db.execute("DELETE FROM misses WHERE key = ?", (key,))
                    else:
                        self._db.execute("INSERT OR REPLACE INTO misses (key, count, until, last) VALUES (?, ?, ?, ?)",
                                         (key, miss.count, miss.until, miss.last))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return answer

    def forget_misses(self, before: float, prefix: str = "") -> int:
        """Forget the counters (whose key starts with ``prefix``) last counted before ``before`` that
        hold no lock-out any more; returns how many."""
        with self._lock:
            cur = self._db.execute("DELETE FROM misses WHERE last < ? AND until < ? AND key LIKE ? || '%'",
                                   (before, before, prefix))
        return int(cur.rowcount)

    def clear_misses(self, prefix: str) -> int:
        """Forget every counter whose key starts with ``prefix``, lock-outs too; returns how many."""
        with self._lock:
            cur = self._db.execute("DELETE FROM misses WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
        return int(cur.rowcount)

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

    def retag(self, uid: str, meaning: str, previous: str, other: str | None, *, game_id: int, seq: int,
              at: float) -> None:
        """Re-teach the tag ``uid`` (it meant ``previous``) as ``meaning``; the tag ``other`` that meant
        ``meaning`` takes ``previous``. One transaction with its line in the game's table log."""
        params = json.dumps({"uid": uid, "meaning": meaning, "previous": previous, "other": other})
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM tags WHERE meaning IN (?, ?) OR uid IN (?, ?)",
                                 (meaning, previous, uid, other or uid))
                self._db.execute("INSERT INTO tags (uid, meaning, added) VALUES (?, ?, ?)", (uid, meaning, at))
                if other is not None and other != uid:
                    self._db.execute("INSERT INTO tags (uid, meaning, added) VALUES (?, ?, ?)", (other, previous, at))
                self._db.execute("INSERT INTO table_log (game_id, seq, at, key, params) VALUES (?, ?, ?, ?, ?)",
                                 (game_id, seq, at, "retaught", params))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def table_log(self, game_id: int) -> list[TableLogEntry]:
        """The table's own lines in the log of game ``game_id``, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT seq, at, key, params FROM table_log WHERE game_id = ? ORDER BY at, rowid",
                                    (game_id,)).fetchall()
        entries = []
        for seq, at, key, params in rows:
            try:
                values = json.loads(params)
            except ValueError:
                continue
            if isinstance(values, dict):
                entries.append(TableLogEntry(int(seq), float(at), str(key), values))
        return entries

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
            rows = self._db.execute(
                "SELECT seq, CAST(action AS BLOB), CAST(events AS BLOB), at FROM actions "
                "WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, since)).fetchall()
        # Read as bytes: a damaged row shows replacement marks instead of failing the whole history.
        return [(int(seq), bytes(action).decode("utf-8", "replace"), bytes(events).decode("utf-8", "replace"), at)
                for seq, action, events, at in rows]

    def actions(self, game_id: int) -> Iterator[Action]:
        for line in self.action_lines(game_id):
            yield parse_action(line)

    def load(self, game_id: int) -> GameState:
        """The saved game's current state: from its newest usable snapshot, else by a full replay.

        A row that cannot be read or replayed (a damaged disk, a hand-edited file) does not stop the
        table: it and the rows after it are set aside (kept in ``damaged_actions``, see :meth:`damage`)
        and the game goes on from the action before it.

        Raises:
            UnknownName: no such game.
            GameLost: the game's first row (its new_game) is the damaged one: nothing can be restored.
        """
        self._require(game_id)
        self._set_aside_unreadable(game_id)
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
        try:
            return self.replay(game_id)
        except DamagedRow as damaged:
            self._set_aside(game_id, damaged.seq, damaged.error)
            if damaged.state is None:
                raise GameLost(game_id) from damaged
            return damaged.state

    def _set_aside_unreadable(self, game_id: int) -> None:
        """Set aside the rows from the first one that is not an action's JSON, or is out of sequence."""
        with self._lock:
            rows = self._db.execute("SELECT seq, CAST(action AS BLOB) FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        for expected, (seq, raw) in enumerate(rows):
            try:
                if seq != expected:
                    raise BadInput("journal_row_missing", seq=expected)
                parse_action(bytes(raw))
            except BankerError as error:
                self._set_aside(game_id, expected, error)
                if expected == 0:
                    raise GameLost(game_id) from error
                return

    def _set_aside(self, game_id: int, seq: int, error: BankerError) -> None:
        """Move the actions from ``seq`` on (and the snapshots they made) out of the game, in one transaction."""
        problem = json.dumps({"key": error.key, "params": {k: str(v) for k, v in error.params.items()}},
                             ensure_ascii=False)
        found = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO damaged_actions (game_id, found, seq, action, events, at, problem) "
                    "SELECT game_id, ?, seq, CAST(action AS BLOB), CAST(events AS BLOB), at, "
                    "CASE WHEN seq = (SELECT MIN(seq) FROM actions WHERE game_id = ? AND seq >= ?) THEN ? ELSE '' END "
                    "FROM actions WHERE game_id = ? AND seq >= ?", (found, game_id, seq, problem, game_id, seq))
                self._db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
                self._db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, seq))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def damage(self, game_id: int | None) -> Damage | None:
        """What was set aside of ``game_id`` the last time a load found damage, or None."""
        if game_id is None:
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT found, MIN(seq), COUNT(*) FROM damaged_actions WHERE game_id = ? "
                "AND found = (SELECT MAX(found) FROM damaged_actions WHERE game_id = ?)", (game_id, game_id)).fetchone()
            if row is None or row[0] is None:
                return None
            problem = self._db.execute(
                "SELECT problem FROM damaged_actions WHERE game_id = ? AND found = ? AND seq = ?",
                (game_id, row[0], row[1])).fetchone()
        try:
            detail = json.loads(problem[0]) if problem else {}
            key, params = str(detail["key"]), dict(detail["params"])
        except (ValueError, KeyError, TypeError):
            key, params = "journal_row_unreadable", {}
        return Damage(game_id, int(row[1]), int(row[2]), key, params, float(row[0]))

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
        """Replay a saved game from its first action to its current state (no snapshot used).

        Raises:
            DamagedRow: a row that cannot be read or replayed (with the state before it).
        """
        state: GameState | None = None
        with self._lock:
            rows = self._db.execute("SELECT seq, CAST(action AS BLOB) FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        for seq, raw in rows:
            try:
                state, _ = apply(state, parse_action(bytes(raw)))
            except BankerError as error:
                raise DamagedRow(seq, error, state) from error
        if state is None:  # pragma: no cover - a game row always has its new_game row
            raise UnknownName("unknown_game", game=game_id)
        return state

    def export_script(self, game_id: int) -> str:
        """The game as the JSON-lines script of ``banker replay``."""
        return "".join(line + "\n" for line in self.action_lines(game_id))
