"""Who a phone is and what it may do: the signed cookie, the banker PIN and the authorization rule.

A phone is remembered by Flask's signed session cookie (the key is kept in ``DATA_DIR``, so it
survives a restart of the Pi): a random phone id, the player it plays (or none: a watcher) and its
language. Whether it holds the banker role is kept on the table's side, in the journal, for one game
and one generation of the role (a new PIN and "stop being the banker" start a new one).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import session

from banker.actions import Action, StartAuction
from banker.journal import Journal, Miss
from banker.messages import LANGUAGES, render

PLAYER_ACTIONS = frozenset({
    "salary", "buy", "bid", "rent", "pay", "tax", "card", "free_parking", "build", "sell_building",
    "sell_all_buildings", "mortgage", "unmortgage", "keep_mortgaged", "go_to_jail", "jail_fine",
    "use_jail_card", "leave_jail", "pay_debt", "bankrupt", "sell_buildings",
    "propose_trade", "accept_trade", "refuse_trade", "cancel_trade",
})
"""Actions a player's phone may submit for its own player (the actor pays or acts). Of a trade proposal,
the engine lets only its receiver accept or refuse it and only its proposer cancel it; the phone's own
answers (``/api/trades/<id>/…``) are refused with 403 before that for a phone whose player is not that
side."""
BANKER_ACTIONS = frozenset({
    "collect", "auction_close", "building_auction", "end_turn", "undo", "end_game", "new_game",
})
"""Actions that move the bank's money or the game itself: the banker role only."""
TRADE_FLOW_ONLY = frozenset({"trade"})
"""A trade needs both sides: proposed on one phone (``propose_trade``) and accepted on the other
(``accept_trade``); only the banker applies a ``trade`` at once."""

PIN_SETTING = "webui_banker_pin"
PIN_MIN, PIN_MAX = 4, 12


class NotAllowed(Exception):
    """A request the phone's role does not allow; ``key`` names the message for the player."""

    def __init__(self, key: str, status: int = 403, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.params = params

    def translated(self, language: str) -> str:
        return render(self.key, self.params, language)


@dataclass(frozen=True)
class Phone:
    id: str
    player: str | None
    banker: bool
    lang: str
    absent: str | None = None
    """The player this phone picked when that player is not in the current game (another game is on):
    the phone is then a watcher (``player`` is None) and its pages say why."""

    @property
    def role(self) -> str:
        if self.banker:
            return "banker"
        return "player" if self.player else "watcher"


def phone_id() -> str:
    """This phone's id, created (and the cookie set) on its first request."""
    pid = session.get("phone")
    if not isinstance(pid, str):
        pid = secrets.token_urlsafe(12)
        session["phone"] = pid
        session.permanent = True
    return pid


def language(default: str) -> str:
    lang = session.get("lang")
    return lang if isinstance(lang, str) and lang in LANGUAGES else default


def current_phone(default_lang: str, holds_banker: Callable[[str], bool]) -> Phone | None:
    """The joined phone of this request, or None before it joined (picked a player or to watch).

    The banker role is not in the cookie: ``holds_banker(phone id)`` asks the table (the journal), so a
    saved copy of an old cookie does not bring it back."""
    if not session.get("joined"):
        return None
    player = session.get("player")
    pid = phone_id()
    return Phone(pid, player if isinstance(player, str) else None, holds_banker(pid), language(default_lang))


def known_phone_id() -> str | None:
    """The phone id the request's cookie carried (None: a first visit, no id made yet)."""
    pid = session.get("phone")
    return pid if isinstance(pid, str) else None


def authorize(phone: Phone, action: Action) -> None:
    """Raise :class:`NotAllowed` unless this phone may submit ``action`` (the rules are checked later)."""
    if phone.banker:
        return
    name = action.name
    if name in TRADE_FLOW_ONLY:
        raise NotAllowed("web_trade_flow")
    if name in BANKER_ACTIONS:
        raise NotAllowed("web_banker_only", action=name)
    if phone.player is None:
        raise NotAllowed("web_watcher")
    if isinstance(action, StartAuction):
        if action.declined_by != phone.player:
            raise NotAllowed("web_not_yours", player=phone.player)
        return
    if name in PLAYER_ACTIONS or action.actor is not None:
        # An action of the vocabulary not listed here that names its player is that player's too.
        if action.actor != phone.player:
            raise NotAllowed("web_not_yours", player=phone.player)
        return
    raise NotAllowed("web_banker_only", action=name)


# --- the banker PIN -----------------------------------------------------------------------------

def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """scrypt with a random salt, as ``scrypt$<salt hex>$<hash hex>``."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return f"scrypt${salt.hex()}${digest.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    try:
        scheme, salt_hex, digest_hex = stored.split("$")
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    return hmac.compare_digest(hash_pin(pin, salt), stored)


def valid_pin(pin: str) -> bool:
    return pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX


def pin_is_set(journal: Journal) -> bool:
    return journal.setting(PIN_SETTING) is not None


def set_pin(journal: Journal, pin: str) -> None:
    """Keep a new banker PIN; every phone that held the banker role with the old one loses it.

    Raises:
        NotAllowed: not 4-12 digits (422).
    """
    if not valid_pin(pin):
        raise NotAllowed("web_pin_format", status=422, low=PIN_MIN, high=PIN_MAX)
    journal.set_setting(PIN_SETTING, hash_pin(pin))
    journal.end_banker_grants()


class Limiter:
    """Wrong join codes and PINs, counted in the journal: atomically (two guesses at once cannot both
    see the same count), across a restart, and never forgotten while they still lock someone out.

    A guess counts against its own key (the device's address; on the table's own computer, the
    phone's cookie) and against the table's key of that kind, before it is checked: the fifth wrong
    guess of a key locks it out for 30 s, doubling with each further one (at most an hour); the
    twentieth wrong guess in all locks every phone out the same way, so that guessing from many
    addresses gains nothing. A right guess clears its own key and takes itself off the table's.
    A counter is forgotten an hour after its last wrong guess, once it locks nobody out.
    """

    FREE_TRIES = 5
    FREE_IN_ALL = 20
    FIRST_LOCK = 30.0
    LONGEST_LOCK = 3600.0
    FORGET_AFTER = 3600.0

    def __init__(self, journal: Journal, clock: Callable[[], float] = time.time) -> None:
        self._journal = journal
        self._clock = clock
        self._next_cleanup = 0.0

    def _locked_until(self, count: int, free: int, now: float) -> float:
        if count < free:
            return 0.0
        lock: float = self.FIRST_LOCK * float(2 ** min(count - free, 20))
        return now + min(self.LONGEST_LOCK, lock)

    def attempt(self, key: str, table_key: str) -> int:
        """Count a guess of ``key`` (and of the table's ``table_key``) before it is checked: the seconds
        to wait instead when either is locked out (0: counted, check the guess now)."""
        now = self._clock()
        if now >= self._next_cleanup:
            self._next_cleanup = now + 60
            self._journal.forget_misses(now - self.FORGET_AFTER)

        def change(current: dict[str, Miss]) -> tuple[dict[str, Miss | None], int]:
            waits = [miss.until - now for miss in current.values() if miss.until > now]
            if waits:
                return {}, int(max(waits)) + 1
            counted: dict[str, Miss | None] = {}
            for name, free in ((key, self.FREE_TRIES), (table_key, self.FREE_IN_ALL)):
                miss = current.get(name)
                count = 1 if miss is None or now - miss.last > self.FORGET_AFTER else miss.count + 1
                counted[name] = Miss(count, self._locked_until(count, free, now), now)
            return counted, 0

        return self._journal.update_misses((key, table_key), change)

    def wait(self, key: str, table_key: str) -> int:
        """Seconds until ``key`` may guess again (0: now), without counting anything."""
        now = self._clock()

        def look(current: dict[str, Miss]) -> tuple[dict[str, Miss | None], int]:
            waits = [miss.until - now for miss in current.values() if miss.until > now]
            return {}, int(max(waits)) + 1 if waits else 0

        return self._journal.update_misses((key, table_key), look)

    def success(self, key: str, table_key: str) -> None:
        """The guess of ``key`` was right: forget its wrong guesses and take this one off the table's."""

        def change(current: dict[str, Miss]) -> tuple[dict[str, Miss | None], None]:
            updated: dict[str, Miss | None] = {key: None}
            table = current.get(table_key)
            if table is not None:
                count = max(0, table.count - 1)
                until = table.until if count >= self.FREE_IN_ALL else 0.0
                updated[table_key] = Miss(count, until, table.last)
            return updated, None

        self._journal.update_misses((key, table_key), change)

    def clear(self, table_key: str) -> None:
        """Forget the table's counter (a new join code makes every earlier guess worthless)."""
        self._journal.update_misses((table_key,), lambda current: ({table_key: None}, None))


class Approvals:
    """Banker requests answered on the table, per phone id: ``waiting`` (asked), then ``granted`` (OK),
    ``refused`` (Cancel) or ``expired`` (nobody answered in time), kept until the phone reads it.

    A question the table never answers (its program lost it) counts as expired after :attr:`GIVE_UP_S`,
    so the phone can always ask again."""

    GIVE_UP_S = 45.0
    """Longer than the table shows a question (30 s), so that the table's own answer comes first."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._answers: dict[str, tuple[str, float]] = {}

    def _current(self, pid: str) -> str:
        found = self._answers.get(pid)
        if found is None:
            return ""
        outcome, since = found
        if outcome == "waiting" and self._clock() - since >= self.GIVE_UP_S:
            self._answers[pid] = ("expired", since)
            return "expired"
        return outcome

    def ask(self, pid: str) -> bool:
        """Record a question; False if one is already waiting for this phone."""
        with self._lock:
            if self._current(pid) == "waiting":
                return False
            self._answers[pid] = ("waiting", self._clock())
            return True

    def answer(self, pid: str, granted: bool | None) -> None:
        """The table's answer: True (OK), False (Cancel) or None (nobody answered)."""
        with self._lock:
            outcome = "expired" if granted is None else "granted" if granted else "refused"
            self._answers[pid] = (outcome, self._clock())

    def take(self, pid: str) -> str:
        """``waiting``, or the answer for ``pid`` (``granted``, ``refused``, ``expired``; forgotten once
        read), or "" if it never asked."""
        with self._lock:
            outcome = self._current(pid)
            if outcome not in ("", "waiting"):
                del self._answers[pid]
            return outcome
