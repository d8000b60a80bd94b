"""Who a phone is and what it may do: the signed cookie, the banker PIN and the authorization rule.

A phone is remembered by Flask's signed session cookie (the key is kept in ``DATA_DIR``, so it
survives a restart of the Pi): a random phone id, the player it plays (or none: a watcher), whether
it holds the banker role, and its language.
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
from banker.journal import Journal
from banker.messages import LANGUAGES, render

PLAYER_ACTIONS = frozenset({
    "salary", "buy", "bid", "rent", "pay", "tax", "card", "free_parking", "build", "sell_building",
    "sell_all_buildings", "mortgage", "unmortgage", "keep_mortgaged", "go_to_jail", "jail_fine",
    "use_jail_card", "leave_jail", "pay_debt", "bankrupt", "sell_buildings",
})
"""Actions a player's phone may submit for its own player (the actor pays or acts)."""
BANKER_ACTIONS = frozenset({
    "collect", "auction_close", "building_auction", "end_turn", "undo", "end_game", "new_game",
})
"""Actions that move the bank's money or the game itself: the banker role only."""
TRADE_FLOW_ONLY = frozenset({"trade"})
"""A trade needs both sides: proposed on one phone and accepted on the other (see webui.trades)."""

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


def current_phone(default_lang: str) -> Phone | None:
    """The joined phone of this request, or None before it joined (picked a player or to watch)."""
    if not session.get("joined"):
        return None
    player = session.get("player")
    return Phone(phone_id(), player if isinstance(player, str) else None, bool(session.get("banker")),
                 language(default_lang))


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
    if not valid_pin(pin):
        raise NotAllowed("web_pin_format", status=422, low=PIN_MIN, high=PIN_MAX)
    journal.set_setting(PIN_SETTING, hash_pin(pin))


class Limiter:
    """Wrong PINs and join codes: 5 tries, then a lock-out that doubles with each further miss."""

    FREE_TRIES = 5
    FIRST_LOCK = 30.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._misses: dict[str, tuple[int, float]] = {}

    def wait(self, who: str) -> int:
        """Seconds ``who`` must still wait before trying again (0: may try now)."""
        with self._lock:
            misses, until = self._misses.get(who, (0, 0.0))
        left = until - self._clock()
        return int(left) + 1 if left > 0 else 0

    def miss(self, who: str) -> None:
        with self._lock:
            misses, _ = self._misses.get(who, (0, 0.0))
            misses += 1
            until = 0.0
            if misses >= self.FREE_TRIES:
                until = self._clock() + self.FIRST_LOCK * 2 ** (misses - self.FREE_TRIES)
            self._misses[who] = (misses, until)
            if len(self._misses) > 10_000:  # keep the table small if someone sprays addresses
                self._misses.pop(next(iter(self._misses)))

    def success(self, who: str) -> None:
        with self._lock:
            self._misses.pop(who, None)


class Approvals:
    """Banker requests answered on the table: phone id -> True (granted) / False (refused) / None (asked)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: dict[str, bool | None] = {}

    def ask(self, pid: str) -> bool:
        """Record a question; False if one is already waiting for this phone."""
        with self._lock:
            if pid in self._answers and self._answers[pid] is None:
                return False
            self._answers[pid] = None
            return True

    def answer(self, pid: str, granted: bool) -> None:
        with self._lock:
            self._answers[pid] = granted

    def take(self, pid: str) -> bool | None | str:
        """The answer for ``pid`` (forgotten once read), ``None`` while waiting, "" if never asked."""
        with self._lock:
            if pid not in self._answers:
                return ""
            answer = self._answers[pid]
            if answer is not None:
                del self._answers[pid]
            return answer
