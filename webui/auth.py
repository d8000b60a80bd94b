"""Who a phone is and what it may do: the signed cookie, the banker PIN and the authorization rule.

A phone is remembered by Flask's signed session cookie (the key is kept in ``DATA_DIR``, so it
survives a restart of the Pi): a random phone id, the player it plays (or none: a watcher) and its
language. Whether it holds the banker role is kept on the table's side, in the journal, for one game
and one generation of the role (a new PIN and "stop being the banker" start a new one).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import session

from banker.actions import Action
from banker.choice import NotOffered, offered
from banker.errors import BankerError, IllegalAction
from banker.journal import Journal, Miss
from banker.messages import LANGUAGES, render
from banker.state import GameState

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
        pid = new_phone_id()
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


def may_send(phone: Phone, action: Action, state: GameState | None) -> None:
    """Whether this phone may send ``action`` now: the banker role sends anything (its corrections are its
    own); a player's phone only one of the offers the engine made to its player, completed inside the
    offered ranges (:func:`banker.choice.offered`); a watcher nothing. Run under the session's lock, on the
    state the action is applied to.

    Raises:
        NotAllowed: a watcher (``web_watcher``), another player's action (``web_not_yours``), an action of
            the game rather than a player's, or one the table offers and a phone does not (``web_banker_only``).
        BankerError: the rules refuse it anyway (their reason), or :class:`banker.choice.NotOffered` (403).
    """
    if phone.banker:
        return
    if phone.player is None:
        raise NotAllowed("web_watcher")
    whose = action.actor or getattr(action, "declined_by", None)
    if state is None:
        raise NotAllowed("web_banker_only") if whose is None else IllegalAction("no_game")
    try:
        offered(state, phone.player, action)
    except NotOffered:
        # The engine decided; these say who could do it instead.
        if whose is not None and whose != phone.player:
            raise NotAllowed("web_not_yours", player=phone.player) from None
        if whose is None or offered_at_table(state, phone.player, action):
            raise NotAllowed("web_banker_only") from None
        raise
    except BankerError:
        # Another player's action, or the game's own (closing an auction, undo), is never this player's,
        # whatever the rules would say of it.
        if whose is not None and whose != phone.player:
            raise NotAllowed("web_not_yours", player=phone.player) from None
        if whose is None:
            raise NotAllowed("web_banker_only") from None
        raise


def offered_at_table(state: GameState, player: str, action: Action) -> bool:
    """Whether the table offers ``player`` the action a phone does not (money from the bank)."""
    try:
        offered(state, player, action, front="table")
    except BankerError:
        return False
    return True


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


PIN_PATTERN = re.compile(f"[0-9]{{{PIN_MIN},{PIN_MAX}}}")
"""A PIN: ASCII digits only (``str.isdigit`` would take "١٢٣٤", "１２３４" or "²³¹⁴", which no phone's
numeric keypad types back the same)."""


def valid_pin(pin: str) -> bool:
    return PIN_PATTERN.fullmatch(pin) is not None


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


def _left(miss: Miss, now: float) -> float:
    """The seconds the lock-out of ``miss`` has left: never more than the lock it was given, even when the
    clock went back since it was counted (a Pi without a real-time clock after a power cut)."""
    return min(miss.until - now, miss.until - miss.last)


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
            waits = [left for miss in current.values() if (left := _left(miss, now)) > 0]
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
            waits = [left for miss in current.values() if (left := _left(miss, now)) > 0]
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

    def locks_everyone(self, table_key: str) -> bool:
        """Whether the table's count (``table_key``) is what locks the phones out now: then only the table
        lets people in (a new join code, its OK, a new PIN in its setup)."""
        now = self._clock()

        def look(current: dict[str, Miss]) -> tuple[dict[str, Miss | None], bool]:
            miss = current.get(table_key)
            return {}, miss is not None and _left(miss, now) > 0

        return self._journal.update_misses((table_key,), look)

    def clear(self, kind: str) -> int:
        """Forget every counter of ``kind`` (``code``, ``pin``), the devices' and the table's: a new join code
        or a new PIN makes every earlier guess worthless. Returns how many were forgotten."""
        return self._journal.clear_misses(f"{kind}:")


PHONE_CODE_LENGTH = 4


def phone_code(pid: str, secret: str | bytes) -> str:
    """The short code the table's question and the asking phone both show: made from the phone id
    with the table's secret key, so a phone can neither choose it nor work it out from its cookie
    (which carries the id in the clear)."""
    from webui.join import CODE_ALPHABET

    key = secret.encode() if isinstance(secret, str) else secret
    number = int.from_bytes(hmac.new(key, b"phone-code:" + pid.encode(), hashlib.sha256).digest()[:8], "big")
    letters = []
    for _ in range(PHONE_CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[index])
    return "".join(letters)


def new_phone_id() -> str:
    return secrets.token_urlsafe(12)


def renew_phone_id(new: str | None = None) -> tuple[str | None, str]:
    """Give this phone a new id, ``new`` or a random one (and so a new cookie): (the old id or None, the
    new one). A copy of the cookie made before is another phone from now on."""
    old = known_phone_id()
    new = new or new_phone_id()
    session["phone"] = new
    session.permanent = True
    return old, new


class AskRefused(Exception):
    """A question to the table that is not put: ``key`` names the message, ``params`` its values."""

    def __init__(self, key: str, status: int = 429, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.params = params


@dataclass
class _Question:
    device: str
    words: str
    since: float


class Approvals:
    """Banker requests answered on the table, per phone id: ``waiting`` (asked), then ``granted`` (OK),
    ``refused`` (Cancel) or ``expired`` (nobody answered in time), kept until the phone reads it.

    The table is asked at most :attr:`MAX_WAITING` questions at once, one per device (its address; on
    the table's own computer, its cookie), each with words no other waiting question has; a device asks
    again :attr:`ASK_EVERY_S` after its last question at the soonest (at once when the table showed it
    and nobody answered), and :attr:`AFTER_NO_S` after the table said no to it. So a flood of questions
    from one device is one question, and a question the table turned down is not back at once.

    A question the table never answers (its program lost it) counts as expired after :attr:`GIVE_UP_S`,
    so the phone can always ask again."""

    MAX_WAITING = 3
    ASK_EVERY_S = 10.0
    AFTER_NO_S = 120.0
    SHOWN_S = 30.0
    """How long the table shows one question (firmware.grammar.BANKER_ASK_S)."""
    GIVE_UP_S = SHOWN_S * MAX_WAITING + 15.0
    """Longer than the table takes to show every waiting question in turn, so that the table's own answer
    comes first."""
    KEEP_ANSWER_S = 3600.0
    """An answer nobody read is forgotten after this long."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._answers: dict[str, tuple[str, float]] = {}
        self._waiting: dict[str, _Question] = {}
        self._next_ask: dict[str, float] = {}
        """When each device may ask again."""
        self._earlier: dict[str, tuple[str, ...]] = {}
        """The ids a phone had before each question gave it a new one (its open page may still listen
        under the first)."""

    EARLIER_KEPT = 256

    def link(self, pid: str, old: str | None) -> tuple[str, ...]:
        """Record that the phone ``old`` is now ``pid``; the ids it had before (``old`` first)."""
        with self._lock:
            chain = () if old is None else (old, *self._earlier.get(old, ())[:4])
            self._earlier[pid] = chain
            while len(self._earlier) > self.EARLIER_KEPT:
                del self._earlier[next(iter(self._earlier))]
            return chain

    def _expire(self, now: float) -> None:
        for pid, question in list(self._waiting.items()):
            if now - question.since >= self.GIVE_UP_S:
                del self._waiting[pid]
                self._answers[pid] = ("expired", question.since)
        for pid, (_outcome, since) in list(self._answers.items()):
            if now - since >= self.KEEP_ANSWER_S:
                del self._answers[pid]
        for device, until in list(self._next_ask.items()):
            if until <= now:
                del self._next_ask[device]

    def _current(self, pid: str) -> str:
        if pid in self._waiting:
            return "waiting"
        found = self._answers.get(pid)
        return "" if found is None else found[0]

    def waiting(self, pid: str) -> bool:
        """Whether the table has a question of ``pid`` waiting for its answer."""
        with self._lock:
            self._expire(self._clock())
            return pid in self._waiting

    def words(self, pid: str) -> str:
        """The words the table shows for ``pid``'s waiting question ("" if none waits)."""
        with self._lock:
            self._expire(self._clock())
            found = self._waiting.get(pid)
            return found.words if found is not None else ""

    def ask(self, pid: str, device: str, words: str) -> None:
        """Record the question of ``pid`` from ``device``, shown on the table as ``words``.

        Raises:
            AskRefused: the table has :attr:`MAX_WAITING` questions, one of them from this device or with
                the same words, or the device asked too recently or was told no.
        """
        with self._lock:
            now = self._clock()
            self._expire(now)
            if any(q.words == words for q in self._waiting.values()):
                raise AskRefused("web_ask_same_words", status=409, name=words)
            if any(q.device == device for q in self._waiting.values()):
                raise AskRefused("web_ask_one_per_device")
            until = self._next_ask.get(device, 0.0)
            if until > now:
                raise AskRefused("web_ask_too_soon", seconds=int(until - now) + 1)
            if len(self._waiting) >= self.MAX_WAITING:
                raise AskRefused("web_ask_table_busy", count=len(self._waiting))
            self._waiting[pid] = _Question(device, words, now)
            self._answers.pop(pid, None)
            self._next_ask[device] = now + self.ASK_EVERY_S

    def answer(self, pid: str, granted: bool | None) -> None:
        """The table's answer: True (OK), False (Cancel) or None (nobody answered)."""
        with self._lock:
            now = self._clock()
            question = self._waiting.pop(pid, None)
            if granted is False and question is not None:
                self._next_ask[question.device] = max(self._next_ask.get(question.device, 0.0),
                                                      now + self.AFTER_NO_S)
            elif granted is None and question is not None and self._next_ask.get(question.device, 0.0) \
                    <= question.since + self.ASK_EVERY_S:
                # Shown for its whole time and not answered: the device may ask again at once.
                self._next_ask.pop(question.device, None)
            outcome = "expired" if granted is None else "granted" if granted else "refused"
            self._answers[pid] = (outcome, now)

    def take(self, pid: str) -> str:
        """``waiting``, or the answer for ``pid`` (``granted``, ``refused``, ``expired``; forgotten once
        read), or "" if it never asked."""
        with self._lock:
            self._expire(self._clock())
            outcome = self._current(pid)
            if outcome not in ("", "waiting"):
                del self._answers[pid]
            return outcome
