"""The journal: every action of every game in SQLite (WAL, ``synchronous=FULL``).

One row per action with its events, written in one transaction, so a committed payment survives
pulling the plug. Nothing is deleted: undo is a row of its own. Restart replays the rows.
Every :data:`SNAPSHOT_EVERY` actions the state is written beside its action (a snapshot), so that a
restart replays only the actions after the newest snapshot at least :data:`UNDO_DEPTH` actions old: undo
after a restart still reaches that far back (and when undos after that snapshot reach back before it,
an older one is used). A snapshot that cannot be read, or whose replay fails, is
ignored and the whole game is replayed. Journals written before snapshots load by a full replay.
Beside each snapshot the game's chronicle (:mod:`banker.chronicle`: the figures of the whole game that the
pages show) is kept, so a resume reads only the rows after the snapshot; each game's record for the
family's records is kept as a summary.

The card is watched: below a free-space reserve new actions are refused (:class:`banker.errors.CardFull`)
before SQLite fails for space, a write that fails for space is the same error with nothing written, and
the first write that succeeds after it clears the state. The answers to phones' requests are pruned after a
day; refusals are never written (the session remembers them).
This is the only module of :mod:`banker` that touches the disk.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from banker.actions import Action, NewGame, parse_action
from banker.chronicle import Chronicle
from banker.engine import apply
from banker.errors import BadInput, BankerError, CardFull, UnknownName
from banker.ledger import Event
from banker.snapshot import from_snapshot, to_snapshot
from banker.state import GameState

SNAPSHOT_EVERY = 200
"""Actions between two snapshots of a game's state."""
CHRONICLES_KEPT = 3
"""Snapshots of a game that keep their chronicle (:mod:`banker.chronicle`): the newest ones, which a resume
may start from; older ones drop it as the game goes on (their state stays)."""
UNDO_DEPTH = 100
"""A resume starts from a snapshot at least this many actions old, so that undo still goes this far back."""
RESERVE_BYTES = 8 * 1024 * 1024
"""Free space on the journal's card below which new actions are refused (:class:`banker.errors.CardFull`)
before SQLite would fail for space: what is left lets the journal finish a checkpoint and keep its
settings. On a small file system (under :data:`RESERVE_SHARE` times this) the reserve is that share of it."""
RESERVE_SHARE = 20
"""The reserve is at most a twentieth of the file system the journal is on."""
REQUESTS_KEPT_S = 24 * 3600.0
"""How long the first answer to a phone's action is kept for its retries: a retry comes within seconds, so a
day is plenty; older answers are pruned as the game goes on."""
PRUNE_EVERY = 256
"""Every this many actions (by ``seq``) the answers older than :data:`REQUESTS_KEPT_S` are pruned, in the
action's own transaction."""
WAL_LIMIT_BYTES = 4 * 1024 * 1024
"""The WAL is cut back to this size after each checkpoint (SQLite checkpoints it every 1,000 pages by
itself), so that it does not keep the largest size it ever reached."""
SQLITE_FULL = 13
SQLITE_IOERR_SHMSIZE = 4874
"""SQLite cannot size the WAL's shared index beside the file: what opening a journal on a full card answers."""

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
CREATE TABLE IF NOT EXISTS summaries (
    game_id INTEGER PRIMARY KEY,
    actions INTEGER NOT NULL,
    record TEXT NOT NULL
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
    phone TEXT NOT NULL,
    game INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (phone, game)
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
UPGRADES = (("requests", "digest", "ALTER TABLE requests ADD COLUMN digest TEXT"),
            ("snapshots", "chronicle", "ALTER TABLE snapshots ADD COLUMN chronicle BLOB"))
"""Columns added since the first journals: (table, column, the statement that adds it)."""


T = TypeVar("T")


class JournalError(Exception):
    """A journal file that cannot be used; the message says which file and why, in one line."""


class DamagedRow(Exception):
    """A saved action that cannot be read or replayed: its ``seq``, the ``error`` and the ``state`` before it
    (None when it is the game's first row)."""

    def __init__(self, seq: int, error: BankerError, state: GameState | None,
                 chronicle: Chronicle | None = None) -> None:
        super().__init__(f"action {seq}: {error}")
        self.seq, self.error, self.state, self.chronicle = seq, error, state, chronicle


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


def _unusable(path: str, error: sqlite3.Error, *, full: bool = False) -> str:
    where = Path(path)
    if full or out_of_space(error):
        return (f"cannot open the journal {path}: the card is full; free some space on it (or choose another "
                "data directory) and start again")
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


@dataclass(frozen=True, slots=True)
class Space:
    """The journal's card: its ``free`` bytes (None: a journal in memory), the ``reserve`` below which new
    actions are refused, and whether the card is ``full`` now (below the reserve, or the last write failed
    for space)."""

    free: int | None
    reserve: int
    full: bool


def out_of_space(error: BaseException) -> bool:
    """Whether ``error`` is a write that failed because the disk is full (SQLITE_FULL, or ENOSPC)."""
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        return (code is not None and code & 0xFF == SQLITE_FULL) or "disk is full" in str(error)
    return isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)


def default_reserve(path: str) -> int:
    """The free space kept in reserve on the file system of the journal at ``path`` (see :data:`RESERVE_BYTES`)."""
    if path == ":memory:":
        return 0
    where = Path(path).parent
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        found = os.statvfs(where)
    except OSError:
        return RESERVE_BYTES
    return min(RESERVE_BYTES, found.f_blocks * found.f_frsize // RESERVE_SHARE)


class Journal:
    """A SQLite file of saved games. Thread-safe: one connection, one lock."""

    def __init__(self, path: str | Path, *, reserve: int | None = None) -> None:
        """Open (or create) the journal at ``path``; below ``reserve`` free bytes on its card new actions are
        refused (:class:`banker.errors.CardFull`; default :data:`RESERVE_BYTES`, or a twentieth of a smaller
        file system).

        Raises:
            JournalError: it cannot be used: its directory cannot be made, the file is not an SQLite
                database, is a directory, or cannot be written.
        """
        self.path = str(path)
        self.reserve = default_reserve(self.path) if reserve is None else reserve
        self._lock = threading.Lock()
        self._failed_for_space = False
        """The last write failed because the card is full (cleared by the next write that succeeds)."""
        self._unsaved_settings: dict[str, str] = {}
        """Settings not written for want of space (``keep_if_full``): written with the next action saved."""
        self._written: dict[int, int] = {}
        """Game id -> how many times its actions were written or set aside through this object."""
        self._written_all = 0
        """The sum of :attr:`_written`, and the games made."""
        self.exclusive = False
        """Opened for this program alone: on a full card, where SQLite cannot make the WAL's shared index
        beside the file (other programs cannot read the journal until the table restarts)."""
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = self._open(exclusive=False)
        except OSError as error:
            raise JournalError(f"cannot make the directory of the journal {self.path} "
                               f"({error.strerror or error})") from error
        except sqlite3.Error as error:
            free = self.free_bytes()
            no_room = out_of_space(error) or getattr(error, "sqlite_errorcode", None) == SQLITE_IOERR_SHMSIZE
            if free is None or not (no_room or free < self.reserve):
                raise JournalError(_unusable(self.path, error)) from error
            try:
                self._db = self._open(exclusive=True)
            except sqlite3.Error as again:
                raise JournalError(_unusable(self.path, again, full=True)) from again
            self.exclusive = True
            self._failed_for_space = True

    def _open(self, *, exclusive: bool) -> sqlite3.Connection:
        """The connection, set up (WAL, synchronous=FULL, the tables); closed again when that fails."""
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            if exclusive:
                db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
            db.executescript(SCHEMA)
            db.executescript(GUARD_SCHEMA)
            db.executescript(DAMAGE_SCHEMA)
            self._upgrade(db)
        except sqlite3.Error:
            db.close()
            raise
        return db

    @staticmethod
    def _upgrade(db: sqlite3.Connection) -> None:
        """Add the columns that a journal written by an older version lacks, and key its banker grants by
        phone and game (an older journal kept one grant a phone)."""
        for table, column, statement in UPGRADES:
            present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if column not in present:
                db.execute(statement)
        keyed = {row[1] for row in db.execute("PRAGMA table_info(banker_grants)") if row[5]}
        if keyed == {"phone"}:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("ALTER TABLE banker_grants RENAME TO banker_grants_by_phone")
                db.execute(GUARD_SCHEMA.split(";")[0])
                db.execute("INSERT INTO banker_grants SELECT phone, game, generation, at FROM banker_grants_by_phone")
                db.execute("DROP TABLE banker_grants_by_phone")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as error:
                if not out_of_space(error):
                    raise
                # A full card: the WAL stays as it is, and the next open reads it (nothing is lost).
            finally:
                self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pragma(self, name: str) -> str:
        with self._lock:
            return str(self._db.execute(f"PRAGMA {name}").fetchone()[0])

    # --- the card's space ---------------------------------------------------------------------------
    def free_bytes(self) -> int | None:
        """Free bytes on the journal's card for this program (None: a journal in memory, or unknown)."""
        if self.path == ":memory:":
            return None
        try:
            found = os.statvfs(Path(self.path).parent)
        except OSError:
            return None
        return found.f_bavail * found.f_frsize

    def space(self) -> Space:
        """The card's free space and whether the journal can save new actions now."""
        free = self.free_bytes()
        return Space(free, self.reserve, self._failed_for_space or (free is not None and free < self.reserve))

    def _check_reserve(self) -> None:
        """Refuse a new action while the card's free space is below the reserve.

        Raises:
            CardFull: it is.
        """
        free = self.free_bytes()
        if free is not None and free < self.reserve:
            raise CardFull("card_full")

    def _rollback(self) -> None:
        """Roll back the open transaction, if any: a COMMIT that failed may have ended it already, and a
        ROLLBACK then would only hide the real error behind "no transaction is active"."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _failed(self, error: BaseException) -> BaseException:
        """The error to raise for a write that failed: :class:`CardFull` when it failed for space."""
        if out_of_space(error):
            self._failed_for_space = True
            return CardFull("card_full")
        return error

    # --- writing ---------------------------------------------------------------------------------
    def create_game(self, action: NewGame, events: Iterable[Event], at: float, name: str = "",
                    request: tuple[str, int, str, str] | None = None) -> int:
        """Write a new game's first action; it becomes the current game. ``request`` is (idempotency key,
        status, answer body, digest) of the request that started it, written in the same transaction.

        Raises:
            CardFull: the card is full (nothing was written).
        """
        with self._lock:
            self._check_reserve()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                cur = self._db.execute(
                    "INSERT INTO games (name, edition, players, created) VALUES (?, ?, ?, ?)",
                    (name or " · ".join(action.players), action.edition, json.dumps(action.players), at),
                )
                game_id = int(cur.lastrowid or 0)
                self._insert(game_id, 0, action, events, at)
                self._db.execute("INSERT OR REPLACE INTO settings VALUES ('current_game', ?)", (str(game_id),))
                if request is not None:
                    key, status, body, digest = request
                    self._db.execute("INSERT OR IGNORE INTO requests (key, status, body, at, digest) "
                                     "VALUES (?, ?, ?, ?, ?)", (key, status, body, at, digest))
                self._db.execute("COMMIT")
            except BaseException as error:
                self._rollback()
                failed = self._failed(error)
                if failed is error:
                    raise
                raise failed from error
            self._failed_for_space = False
            self._wrote(game_id)
        return game_id

    def append(self, game_id: int, seq: int, action: Action, events: Iterable[Event], at: float,
               request: tuple[str, int, str] | tuple[str, int, str, str] | None = None,
               state: GameState | None = None, chronicle: bytes | None = None) -> None:
        """Write one action and its events in one durable transaction.

        ``request`` is (idempotency key, status, answer body[, digest of the request]) of the request
        that submitted the action: it is written in the same transaction, so a retried request finds
        its first answer exactly when the action is in the journal. ``state`` is the state the action led to: every
        :data:`SNAPSHOT_EVERY` actions it is written as a snapshot, in the same transaction, with ``chronicle``
        (:meth:`banker.chronicle.Chronicle.to_bytes` after this action) beside it. Every
        :data:`PRUNE_EVERY` actions the answers older than :data:`REQUESTS_KEPT_S` (by ``at``) are pruned.

        Raises:
            CardFull: the card's free space is below the reserve, or the write failed for space: nothing
                was written.
        """
        snapshot = None
        if state is not None and seq % SNAPSHOT_EVERY == 0:
            text = to_snapshot(state)
            snapshot = (game_id, seq, text, hashlib.sha256(text.encode()).hexdigest(), chronicle)
        with self._lock:
            self._check_reserve()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._insert(game_id, seq, action, events, at)
                if snapshot is not None:
                    self._db.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, state, digest, chronicle) "
                                     "VALUES (?, ?, ?, ?, ?)", snapshot)
                    self._db.execute("UPDATE snapshots SET chronicle = NULL WHERE game_id = ? AND seq <= ? "
                                     "AND chronicle IS NOT NULL", (game_id, seq - CHRONICLES_KEPT * SNAPSHOT_EVERY))
                if request is not None:
                    key, status, body, *digest = request
                    self._db.execute("INSERT INTO requests (key, status, body, at, digest) VALUES (?, ?, ?, ?, ?)",
                                     (key, status, body, at, digest[0] if digest else None))
                if seq % PRUNE_EVERY == 0:
                    self._db.execute("DELETE FROM requests WHERE at < ?", (at - REQUESTS_KEPT_S,))
                for key, value in self._unsaved_settings.items():
                    self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))
                self._db.execute("COMMIT")
            except BaseException as error:
                self._rollback()
                failed = self._failed(error)
                if failed is error:
                    raise
                raise failed from error
            self._failed_for_space = False
            self._unsaved_settings.clear()
            self._wrote(game_id)

    def _wrote(self, game_id: int) -> None:
        """Count a change of ``game_id``'s actions (under the lock)."""
        self._written[game_id] = self._written.get(game_id, 0) + 1
        self._written_all += 1

    def revision(self, leaving_out: int | None = None) -> tuple[int, int, int | None]:
        """A mark of the saved games but ``leaving_out``: it changes when one of them gains or loses actions, or a
        game is made, here or (SQLite's ``data_version``) through another connection, so that what is worked out
        from them (the family's records) is kept while it stays the same. Reads no table."""
        with self._lock:
            others = int(self._db.execute("PRAGMA data_version").fetchone()[0])
            mine = self._written_all - (self._written.get(leaving_out, 0) if leaving_out is not None else 0)
        return others, mine, leaving_out

    def _insert(self, game_id: int, seq: int, action: Action, events: Iterable[Event], at: float) -> None:
        # Compact JSON, and no "board" event that moves nothing (most actions): a reader finds no moves either way.
        kept = [e.to_json() for e in events if e.kind != "board" or any(e.params.values())]
        self._db.execute(
            "INSERT INTO actions (game_id, seq, action, events, at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, action.to_line(), json.dumps(kept, ensure_ascii=False, separators=(",", ":")), at),
        )

    def record_request(self, key: str, status: int, body: str, at: float, digest: str | None = None) -> None:
        """Remember the answer to a request, for its retries (pruned with the others after
        :data:`REQUESTS_KEPT_S`). A refusal is not written here: the session keeps it in memory.

        Raises:
            CardFull: the write failed for space.
        """
        with self._lock:
            try:
                self._db.execute("INSERT OR IGNORE INTO requests (key, status, body, at, digest) "
                                 "VALUES (?, ?, ?, ?, ?)", (key, status, body, at, digest))
            except sqlite3.Error as error:
                failed = self._failed(error)
                if failed is error:
                    raise
                raise failed from error

    def prune_requests(self, before: float) -> int:
        """Forget the answers given before ``before``; returns how many."""
        with self._lock:
            cur = self._db.execute("DELETE FROM requests WHERE at < ?", (before,))
        return int(cur.rowcount)

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
        generation; its grants of other games stay."""
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
                generation = self._new_generation()
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return generation

    def _new_generation(self) -> int:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (BANKER_GENERATION,)).fetchone()
        generation = (int(row[0]) if row is not None and str(row[0]).isdigit() else 0) + 1
        self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (BANKER_GENERATION, str(generation)))
        self._db.execute("DELETE FROM banker_grants")
        return generation

    def replace_banker_pin(self, setting: str, hashed: str, *, asking: str, granted: str, game: int | None,
                           at: float, first: bool) -> bool:
        """Check and set the banker PIN in one transaction: when ``first``, only while no PIN is set; else
        only while the phone ``asking`` holds the banker role for ``game``. Then the PIN is ``hashed``
        (kept under ``setting``), a new generation of the role starts (every grant lapses) and the phone
        ``granted`` (``asking`` under its new id) holds the role for ``game``. False, with nothing
        changed, when the check fails: another phone set the first PIN, or the role was lost meanwhile."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if first:
                    allowed = self._db.execute("SELECT 1 FROM settings WHERE key = ?", (setting,)).fetchone() is None
                else:
                    allowed = self._db.execute(
                        "SELECT 1 FROM banker_grants g WHERE g.phone = ? AND g.game = ? AND g.generation = "
                        "COALESCE((SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?), 0)",
                        (asking, game or 0, BANKER_GENERATION)).fetchone() is not None
                if not allowed:
                    self._db.execute("ROLLBACK")
                    return False
                self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (setting, hashed))
                generation = self._new_generation()
                self._db.execute("INSERT INTO banker_grants (phone, game, generation, at) VALUES (?, ?, ?, ?)",
                                 (granted, game or 0, generation, at))
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return True

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
                self._rollback()
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
                self._rollback()
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
                self._rollback()
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
        """Make ``game_id`` the current game (nothing is written when it is already: a resume on a full card
        writes nothing)."""
        self._require(game_id)
        if self.current_game() == game_id:
            return
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO settings VALUES ('current_game', ?)", (str(game_id),))

    def set_setting(self, key: str, value: str, *, keep_if_full: bool = False) -> None:
        """Keep ``value`` under ``key``. ``keep_if_full``: on a full card the value is kept in memory (read back
        by :meth:`setting`) and written with the next action that is saved, instead of raising.

        Raises:
            CardFull: the card is full (and not ``keep_if_full``).
        """
        with self._lock:
            try:
                self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))
            except sqlite3.Error as error:
                failed = self._failed(error)
                if failed is error:
                    raise
                if not keep_if_full:
                    raise failed from error
                self._unsaved_settings[key] = value
                return
            self._unsaved_settings.pop(key, None)

    def setting(self, key: str) -> str | None:
        with self._lock:
            if key in self._unsaved_settings:
                return self._unsaved_settings[key]
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # --- reading ---------------------------------------------------------------------------------
    def current_game(self) -> int | None:
        value = self.setting("current_game")
        return int(value) if value is not None else None

    def games(self) -> list[GameInfo]:
        with self._lock:
            # Each game's last seq from the actions' primary key: no count of every row of the journal.
            rows = self._db.execute(
                "SELECT g.id, g.name, g.edition, g.players, g.created, "
                "COALESCE((SELECT MAX(a.seq) + 1 FROM actions a WHERE a.game_id = g.id), 0) FROM games g "
                "ORDER BY g.id").fetchall()
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

    def rows_before(self, game_id: int, before: int | None, limit: int) -> list[tuple[int, str, str, float]]:
        """At most ``limit`` rows (as :meth:`rows`) before the seq ``before`` (None: from the last one), the newest
        first: a page of the history, read by the actions' primary key."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, CAST(action AS BLOB), CAST(events AS BLOB), at FROM actions "
                "WHERE game_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                (game_id, before if before is not None else 2**62, limit)).fetchall()
        return [(int(seq), bytes(action).decode("utf-8", "replace"), bytes(events).decode("utf-8", "replace"), at)
                for seq, action, events, at in rows]

    def game_info(self, game_id: int) -> GameInfo | None:
        """One game of :meth:`games`, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT g.id, g.name, g.edition, g.players, g.created, "
                "COALESCE((SELECT MAX(a.seq) + 1 FROM actions a WHERE a.game_id = g.id), 0) FROM games g "
                "WHERE g.id = ?", (game_id,)).fetchone()
        return None if row is None else GameInfo(row[0], row[1], row[2], tuple(json.loads(row[3])), row[4], row[5])

    # --- per-game summaries for the records ------------------------------------------------------------
    def summaries(self) -> dict[int, tuple[int, str]]:
        """Every kept summary: game id -> (the game's count of rows when it was made, the record's JSON)."""
        with self._lock:
            rows = self._db.execute("SELECT game_id, actions, record FROM summaries").fetchall()
        return {int(r[0]): (int(r[1]), str(r[2])) for r in rows}

    def keep_summary(self, game_id: int, actions: int, record: str) -> None:
        """Keep ``record`` (:meth:`banker.records.GameRecord.to_json`) of ``game_id`` as of its ``actions`` rows.

        Raises:
            CardFull: the card is full (nothing is kept; it is made again when it is needed).
        """
        with self._lock:
            try:
                self._db.execute("INSERT OR REPLACE INTO summaries (game_id, actions, record) VALUES (?, ?, ?)",
                                 (game_id, actions, record))
            except sqlite3.Error as error:
                failed = self._failed(error)
                if failed is error:
                    raise
                raise failed from error

    def actions(self, game_id: int) -> Iterator[Action]:
        for line in self.action_lines(game_id):
            yield parse_action(line)

    def load(self, game_id: int) -> GameState:
        """The saved game's current state: from its newest usable snapshot, else by a full replay.

        A row that cannot be read or replayed (a damaged disk, a hand-edited file) does not stop the
        table: it and the rows after it are set aside (kept in ``damaged_actions``, see :meth:`damage`)
        and the game goes on from the action before it. From a snapshot only the rows after it are read
        (a start does not scan the whole game); a row after it that does not replay sends the load to the
        full replay, which finds the damage.

        Raises:
            UnknownName: no such game.
            GameLost: the game's first row (its new_game) is the damaged one: nothing can be restored.
        """
        return self._load(game_id, with_chronicle=False)[0]

    def load_with_chronicle(self, game_id: int) -> tuple[GameState, Chronicle]:
        """:meth:`load`, and the game's chronicle (:mod:`banker.chronicle`): from the snapshot's chronicle and the
        rows after it, or (a journal written before chronicles were kept) from a replay of the whole game.

        Raises:
            UnknownName: no such game.
            GameLost: the game's first row is damaged.
        """
        state, chronicle = self._load(game_id, with_chronicle=True)
        assert chronicle is not None
        return state, chronicle

    def _load(self, game_id: int, *, with_chronicle: bool) -> tuple[GameState, Chronicle | None]:
        self._require(game_id)
        with self._lock:
            last = self._db.execute("SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
            snapshots = [] if last is None else self._db.execute(
                "SELECT seq, state, digest, chronicle FROM snapshots WHERE game_id = ? AND seq <= ? "
                "ORDER BY seq DESC LIMIT 3", (game_id, last - UNDO_DEPTH)).fetchall()
        # The newest first; an older one when undos after the newest reach back before it.
        for seq, text, digest, kept in snapshots:
            if with_chronicle and kept is None:
                continue
            found = self._from_snapshot(game_id, seq, text, digest, bytes(kept) if with_chronicle else None)
            if found is not None and found[0].seq == last:
                return found
        self._set_aside_unreadable(game_id)
        try:
            return self._replay(game_id, with_chronicle)
        except DamagedRow as damaged:
            self._set_aside(game_id, damaged.seq, damaged.error)
            if damaged.state is None:
                raise GameLost(game_id) from damaged
            return damaged.state, damaged.chronicle

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
                self._rollback()
                raise
            self._wrote(game_id)

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

    def _from_snapshot(self, game_id: int, seq: int, text: str, digest: str, kept: bytes | None
                       ) -> tuple[GameState, Chronicle | None] | None:
        """The current state (and, from ``kept``, the chronicle) from the snapshot taken at ``seq``; None if that
        does not work out."""
        if hashlib.sha256(text.encode()).hexdigest() != digest:
            return None
        with self._lock:
            # Two reads by the primary key (an OR of both would read every row of the game).
            rows = self._db.execute("SELECT seq, action, at FROM actions WHERE game_id = ? AND seq = 0",
                                    (game_id,)).fetchall()
            rows += self._db.execute("SELECT seq, action, at FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                     (game_id, seq)).fetchall()
        try:
            start, _ = apply(None, parse_action(rows[0][1]))
            state = from_snapshot(text, start)
            chronicle = Chronicle.from_bytes(kept) if kept is not None else None
            if rows[0][0] != 0 or state.seq != seq:
                return None
            for _, line, at in rows[1:]:
                action = parse_action(line)
                after, events = apply(state, action)
                if chronicle is not None:
                    chronicle.fold(state, action, after, events, float(at))
                state = after
        except (ValueError, IndexError, BankerError):
            # An undo reaching back before the snapshot, or a snapshot of something else: not this one.
            return None
        return state, chronicle

    def replay(self, game_id: int) -> GameState:
        """Replay a saved game from its first action to its current state (no snapshot used).

        Raises:
            DamagedRow: a row that cannot be read or replayed (with the state before it).
        """
        return self._replay(game_id, False)[0]

    def _replay(self, game_id: int, with_chronicle: bool) -> tuple[GameState, Chronicle | None]:
        state: GameState | None = None
        chronicle: Chronicle | None = None
        with self._lock:
            rows = self._db.execute("SELECT seq, CAST(action AS BLOB), at FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        for seq, raw, at in rows:
            try:
                action = parse_action(bytes(raw))
                after, events = apply(state, action)
            except BankerError as error:
                raise DamagedRow(seq, error, state, chronicle) from error
            if with_chronicle:
                if chronicle is None or state is None:
                    chronicle = Chronicle.start(after, float(at), events)
                else:
                    chronicle.fold(state, action, after, events, float(at))
            state = after
        if state is None:  # pragma: no cover - a game row always has its new_game row
            raise UnknownName("unknown_game", game=game_id)
        return state, chronicle

    def export_script(self, game_id: int) -> str:
        """The game as the JSON-lines script of ``banker replay``."""
        return "".join(line + "\n" for line in self.action_lines(game_id))
