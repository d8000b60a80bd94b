"""The table's event loop: taps, buttons and the clock in; engine actions, screens and beeps out.

One thread (:meth:`TableLoop.run`) takes one input at a time from one queue, feeds it to the pure
grammar (:func:`firmware.grammar.step`), performs the effects (submitting to the shared
:class:`banker.session.Session`, beeping, enrolling) and draws the screen when it changed. Feeder
threads only move taps and button events into that queue; the phone page's requests and the
Session's notifications only enqueue too, so nothing waits on a slow phone.

Tests and ``banker table`` scripts drive the same object synchronously with :meth:`TableLoop.handle`
and :meth:`TableLoop.pump`, with an injected clock.
"""

from __future__ import annotations

import datetime
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from banker.actions import NewGame, Undo
from banker.edition import load_edition
from banker.errors import BankerError
from banker.journal import GameInfo
from banker.ledger import Event
from banker.messages import render
from banker.session import Session
from banker.state import GameState
from firmware import grammar as g
from firmware import screens
from firmware.tags import TagError, TagSet, label, parse_meaning, simulated_tags
from firmware.texts import PREFIX
from firmware.voice import SETTING as SPEECH_SETTING
from firmware.voice import SpeechSettings, sentence
from hardware.controls import STUCK_S
from hardware.display import ScreenView, render_view
from hardware.errors import HardwareError
from hardware.factory import Table
from hardware.iso14443 import format_uid
from hardware.oled import SimulatedDisplay
from hardware.power import THROTTLED, UNDER_VOLTAGE_NOW, UNDER_VOLTAGE_SINCE_BOOT, read_throttled
from hardware.speaker import SpeechQueue
from hardware.taps import SimulatedReader

if TYPE_CHECKING:
    from webui.tableport import CardInfo, TableFault

log = logging.getLogger(__name__)

TICK_S = 0.5
"""The clock input's period: timeouts and the timed game's countdown move this often."""
TIMER_SAVE_S = 15.0
"""A timed game's elapsed time is saved this often, so a power cut loses at most this much."""
@dataclass
class _Redraw:
    """The game changed elsewhere (a phone acted): draw the screen again."""


@dataclass
class GameTimer:
    """The clock of a timed game: counts only while the table runs, saved in the journal's settings
    under ``timer:<game id>`` as ``{"limit": seconds, "elapsed": seconds}`` (the phone page starts a
    timed game by writing that setting right after ``new_game``)."""

    limit_s: float
    elapsed_s: float = 0.0
    saved_at: float = field(default=0.0, compare=False)

    @property
    def left_s(self) -> float:
        return self.limit_s - self.elapsed_s

    def to_json(self) -> str:
        return json.dumps({"limit": self.limit_s, "elapsed": round(self.elapsed_s, 1)})

    @classmethod
    def from_json(cls, text: str) -> GameTimer | None:
        try:
            data = json.loads(text)
            return cls(float(data["limit"]), float(data["elapsed"]))
        except (ValueError, KeyError, TypeError):
            return None


def game_label(info: GameInfo, language: str, now: float) -> str:
    """A saved game as the setup menu lists it: its players, its edition and when it was started
    ("Ann · Bob (Atlantic City, today 14:05)")."""
    edition = load_edition(info.edition).name if info.edition else ""
    # The edition's city (its name is "Country (City)"), shorter on the small screen.
    if edition.endswith(")") and "(" in edition:
        edition = edition[edition.rindex("(") + 1:-1]
    started, today = time.localtime(info.created), time.localtime(now)
    at = time.strftime("%H:%M", started)
    days = (datetime.date(*today[:3]) - datetime.date(*started[:3])).days
    if days == 0:
        when = render(PREFIX + "game_today", {"time": at}, language)
    elif days == 1:
        when = render(PREFIX + "game_yesterday", {"time": at}, language)
    else:
        when = render(PREFIX + "game_date", {"day": started.tm_mday, "month": started.tm_mon,
                                            "year": started.tm_year}, language)
    return render(PREFIX + "game_label", {"players": info.name, "edition": edition, "when": when}, language)


class TableLoop:
    """The table program around the grammar. Implements :class:`webui.tableport.TablePort`."""

    def __init__(
        self,
        session: Session,
        table: Table,
        *,
        tags: TagSet | None = None,
        language: str = "en",
        clock: Callable[[], float] = time.monotonic,
        join_code: str = "",
        join_url: str = "",
        speech: SpeechSettings | None = None,
        can_switch_off: bool = False,
    ) -> None:
        self.session = session
        self.table = table
        self.journal = session.journal
        self.simulated = table.mode == "simulated"
        stored = self.journal.tags()
        if tags is None:
            tags = TagSet(simulated_tags()) if table.mode != "pi" else TagSet()
            for uid, meaning in stored.items():
                try:
                    tags.add(uid, meaning)
                except TagError as error:
                    # One damaged row must not keep the table from starting: that card reads as unknown.
                    log.warning("the journal's tag %s is left out: %s", uid, error)
        self.tags = tags
        self.language = self.journal.setting("language") or language
        self.clock = clock
        self.join_code = join_code
        self.join_url = join_url
        self.wifi_join = ""
        self.resets: dict[str, Callable[[], str]] = {}
        """What the setup's *New join code* and *New banker PIN* call (``code``, ``pin``; set by ``banker
        run`` from the phone page): each makes the new one and returns it."""
        """``WIFI:T:WPA;S:…;P:…;;`` while the table is its own Wi-Fi hotspot (set by ``banker run``):
        the text of a QR code that joins the phones to that Wi-Fi, to show before the join QR code."""
        self.grammar = g.GrammarState(last_input=clock())
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.view: ScreenView | None = None
        self._shown: ScreenView | None = None
        """The view the display last took (``view`` is waiting for it while they differ)."""
        self.display_fault: HardwareError | None = None
        self.throttled = THROTTLED
        """Where the Pi's firmware gives its throttled flags (:mod:`hardware.power`; absent off a Pi)."""
        """The display's error while it does not take frames, else ``None``."""
        self._frame_number = 0
        self._frame_listeners: list[Callable[[int], None]] = []
        self._lock = threading.RLock()
        self._answers: dict[int, Callable[[bool | None], None]] = {}
        self._next_token = 1
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.timer: GameTimer | None = self._load_timer()
        self._timer_game = session.game_id
        self._last_clock = clock()
        self.screens_shown = 0
        self._known_faults: set[int] = set()
        self._card_full = False
        """The card was full at the last look (its notice is shown when it becomes full)."""
        self._log_listeners: list[Callable[[], None]] = []
        self._speech_listeners: list[Callable[[], None]] = []
        self.speech_queue: SpeechQueue | None = SpeechQueue(table.speaker) if table.speaker is not None else None
        """What the speaker says goes through this queue (``None``: the table has no speaker)."""
        self.speech_settings: SpeechSettings | None = None
        if self.speech_queue is not None:
            self.speech_settings = SpeechSettings.from_json(self.journal.setting(SPEECH_SETTING),
                                                            speech or SpeechSettings())
        self._games_cache: tuple[tuple[int | None, int | None], list[Any]] | None = None
        self._labels_cache: tuple[tuple[int, str, tuple[int, ...]], tuple[tuple[int, str], ...]] | None = None
        self._beeps: list[str] = []
        """Beeps of the input being handled, sounded once its frame is on the display."""
        self.can_switch_off = can_switch_off
        """Setup offers "Switch off" (``banker run`` on a Pi whose service may switch it off)."""
        self.switch_off_requested = False
        """Setup's "Switch off" was chosen: the loop has stopped, and ``banker run`` switches off once
        the journal is closed."""
        self._unsubscribe = session.subscribe(self._on_game_change)

    # --- the context the grammar reads ----------------------------------------------------------
    def _games(self) -> list[Any]:
        """The journal's games, read again only when the game or its length changed (a tap reads them for
        its context: a long journal's count of actions is not made again on every tap)."""
        state = self.session.state
        key = (self.session.game_id, state.seq if state is not None else None)
        if self._games_cache is None or self._games_cache[0] != key:
            self._games_cache = (key, self.journal.games())
        return self._games_cache[1]

    def _game_labels(self) -> tuple[tuple[int, str], ...]:
        """Each saved game's id and label (:func:`game_label`), made again only when the games, the
        language or the day changed: every tap reads them for its context, and a Zero 2 W took about
        1 ms a tap making them."""
        games = self._games()
        now = time.time()
        key = (id(games), self.language, time.localtime(now)[:3])
        if self._labels_cache is None or self._labels_cache[0] != key:
            self._labels_cache = (key, tuple((info.id, game_label(info, self.language, now)) for info in games))
        return self._labels_cache[1]

    def context(self) -> g.Context:
        games = self._game_labels()
        return g.Context(
            game=self.session.state,
            now=self.clock(),
            language=self.language,
            tags=self.tags,
            games=games,
            game_id=self.session.game_id,
            time_left=self.timer.left_s if self.timer is not None else None,
            join_code=self.join_code,
            join_url=self.join_url,
            wifi_join=self.wifi_join,
            speech=self.speech_settings,
            can_switch_off=self.can_switch_off,
        )

    # --- one input ------------------------------------------------------------------------------
    def handle(self, event: Any) -> None:
        """Process one input: a grammar input, a hardware tap or button event, or a redraw."""
        with self._lock:
            grammar_input = self._translate(event)
            if isinstance(grammar_input, g.Tick):
                self._watch_readers()
                self._watch_card()
            elif isinstance(grammar_input, g.Press | g.ButtonStuck):
                self.table.hub.wake()  # somebody is at the table: the readers are polled at full speed
            if grammar_input is not None:
                self._advance_timer()
                self._step(grammar_input)
            self.render()
            # The beep after the frame: starting the buzzer's pattern (a thread) would hold the screen up.
            beeps, self._beeps = self._beeps, []
            for kind in beeps:
                self.table.controls.beep(kind)  # type: ignore[arg-type]

    # --- reader faults --------------------------------------------------------------------------
    def reader_faults(self) -> dict[int, HardwareError]:
        """The readers failing now, by index (empty while all answer); each error names the bus and
        the fix. The hub keeps polling the others, and a failing reader is tried again by itself."""
        return {health.reader: health.fault for health in self.table.hub.health() if health.fault is not None}

    def set_addresses(self, join_url: str, wifi_join: str) -> None:
        """New addresses for the QR codes (the Pi's address or the hotspot changed): the screen is
        drawn again with them."""
        with self._lock:
            self.join_url, self.wifi_join = join_url, wifi_join
        self.inbox.put(_Redraw())

    def faults(self) -> list[TableFault]:
        """The parts not working now, for the phones: readers in the hub's fault list, a display that
        does not take frames (or never opened), buttons and buzzer that did not open."""
        from webui.tableport import TableFault

        found = [TableFault("reader", index + 1, error.bus.split(" (")[0])
                 for index, error in sorted(self.reader_faults().items())]
        parts = self.table.faults()
        if self.display_fault is not None or "display" in parts:
            found.append(TableFault("display"))
        stuck = getattr(self.table.controls, "stuck", None)
        if "controls" in parts or (stuck is not None and stuck()):
            found.append(TableFault("controls"))
        # The Pi's own record of its supply: a weak one is the first suspect when readers reset.
        flags = read_throttled(self.throttled) if self.throttled else None
        if flags is not None and flags & UNDER_VOLTAGE_NOW:
            found.append(TableFault("power"))
        elif flags is not None and flags & UNDER_VOLTAGE_SINCE_BOOT:
            found.append(TableFault("power_since_boot"))
        return found

    def _watch_readers(self) -> None:
        keep_alive = getattr(self.table.display, "keep_alive", None)
        if keep_alive is not None:
            try:
                keep_alive()  # the OLED's init sequence again now and then: a browned-out panel comes back
            except HardwareError as error:
                log.warning("the display: %s", error)
        faults = self.reader_faults()
        new = sorted(set(faults) - self._known_faults)
        self._known_faults = set(faults)
        if not new:
            return
        for index in new:
            log.error("reader %d fault: %s", index, faults[index])
        buses = [(index + 1, faults[index].bus.split(" (")[0]) for index in new]
        working = len(faults) < len(self.table.hub.readers)
        self._step(g.ReaderFault(*buses[0], more=tuple(buses[1:]), working=working))

    def _watch_card(self) -> None:
        """Show the full card's notice (and beep) when the card becomes full; the phones list it as a fault."""
        full = self.journal.space().full
        if full and not self._card_full:
            log.error("the card is full: %s bytes free, %s kept in reserve; nothing new is saved",
                      self.journal.free_bytes(), self.journal.reserve)
            self._step(g.CardIsFull())
        elif self._card_full and not full:
            log.warning("the card has room again: the table saves again")
        self._card_full = full

    def _translate(self, event: Any) -> g.Input | None:
        from hardware.protocols import ControlEvent
        from hardware.taps import Tap

        if isinstance(event, Tap):
            meaning = self.tags.resolve(format_uid(event.uid))
            return g.TapIn(meaning, event.reader)
        if isinstance(event, ControlEvent):
            if event.stuck is not None:
                if event.stuck:
                    log.error("the %s button has been held down for %g s: it is ignored until it is released",
                              event.button, STUCK_S)
                else:
                    log.warning("the %s button was released: it works again", event.button)
                return g.ButtonStuck(event.button, event.stuck)
            return g.Press(event.button, event.long)
        if isinstance(event, _Redraw):
            return None
        result: g.Input = event
        return result

    def _step(self, event: g.Input) -> None:
        ctx = self.context()
        self.grammar, effects = g.step(self.grammar, event, ctx)
        for effect in effects:
            if not self._perform(effect):
                break  # an action was refused: the effects after it no longer apply

    def _perform(self, effect: g.Effect) -> bool:
        if isinstance(effect, g.Submit):
            try:
                _, events = self.session.submit(effect.action)
            except BankerError as error:
                if error.key == "card_full":
                    self._card_full = True  # its notice is this refusal's
                self._step(g.Refused(effect.action, error))
                return False
            self._after_submit(effect.action, events)
            self._step(g.Applied(effect.action, events))
            return True
        if isinstance(effect, g.Beep):
            self._beeps.append(effect.kind)
        elif isinstance(effect, g.Enroll):
            self.tags.add(effect.uid, effect.meaning)
            self.journal.set_tag(effect.uid, effect.meaning, time.time())
        elif isinstance(effect, g.Answer):
            answer = self._answers.pop(effect.token, None)
            if answer is not None:
                try:
                    answer(effect.granted)
                except Exception:  # a phone's callback must not stop the table
                    log.exception("answering a phone's request failed")
        elif isinstance(effect, g.SetLanguage):
            self.language = effect.language
            self.journal.set_setting("language", effect.language, keep_if_full=True)
        elif isinstance(effect, g.SwitchGame):
            try:
                self.session.switch(effect.game_id)
            except BankerError as error:
                self._step(g.Refused(Undo(), error))
                return False
            self.timer = self._load_timer()
            self._timer_game = self.session.game_id
            info = next((i for i in self.journal.games() if i.id == effect.game_id), None)
            self._step(g.Resumed(self.session.state.seq if self.session.state is not None else 0,
                                 switched_to=game_label(info, self.language, time.time()) if info else "-"))
        elif isinstance(effect, g.StartTimer):
            self.timer = GameTimer(effect.minutes * 60.0)
            self._timer_game = self.session.game_id
            self._save_timer()
        elif isinstance(effect, g.Retag):
            self._retag(effect)
        elif isinstance(effect, g.SetSpeech):
            self.set_speech(effect.settings)
        elif isinstance(effect, g.SwitchOff):
            log.info("switching off (setup at the table)")
            self.switch_off_requested = True
            self._stop.set()
        elif isinstance(effect, g.Reset):
            self._reset(effect.what)
        return True

    def _reset(self, what: str) -> None:
        """A new join code or banker PIN from the table's setup (``resets``, set by ``banker run``)."""
        make = self.resets.get(what)
        if make is None:
            log.warning("the table cannot make a new %s: no phone page is served", what)
            return
        try:
            made = make()
        except Exception:  # the phones' side must not stop the table
            log.exception("making a new %s at the table failed", what)
            return
        if what == "pin":
            self._step(g.PinMade(made))

    # --- a tag re-taught from its screen --------------------------------------------------------
    def _retag(self, effect: g.Retag) -> None:
        """The tag is what the players picked, the tag that had that meaning takes the old one, and
        the game's log says so (the banker's phone shows it under the last action)."""
        game_id, state = self.session.game_id, self.session.state
        self.journal.retag(effect.uid, effect.meaning, effect.previous, effect.other,
                           game_id=game_id if game_id is not None else 0,
                           seq=state.seq if state is not None else 0, at=time.time())
        self.tags.add(effect.uid, effect.meaning)
        if effect.other is not None and effect.other != effect.uid:
            self.tags.add(effect.other, effect.previous)
        log.info("tag %s re-taught as %s (it was %s)%s", effect.uid, effect.meaning, effect.previous,
                 f"; tag {effect.other} is now {effect.previous}" if effect.other else "")
        for listener in list(self._log_listeners):
            listener()

    def table_log(self, language: str) -> list[tuple[int, str]]:
        """The table's own lines in the current game's log (tags re-taught), each after the action
        number it followed: ``[(12, "Tag D0:00:00:03 re-taught at the table: …")]``."""
        from banker.messages import render

        game_id = self.session.game_id
        game = self.session.state
        edition = game.edition if game is not None else load_edition("us")
        players = tuple(p.name for p in game.players) if game is not None else ()
        lines: list[tuple[int, str]] = []
        for entry in self.journal.table_log(game_id if game_id is not None else 0):
            if entry.key != "retaught":
                continue
            values = dict(entry.params)
            try:
                what = label(str(values["meaning"]), edition, players, language)
                was = label(str(values["previous"]), edition, players, language)
            except (KeyError, TagError):
                continue
            other = values.get("other")
            key = "web_log_retaught_swap" if other else "web_log_retaught"
            lines.append((entry.seq, render(key, {"uid": values.get("uid", ""), "what": what, "was": was,
                                                  "other_uid": other or ""}, language)))
        return lines

    def add_log_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after the table adds a line to the log (it must only enqueue)."""
        self._log_listeners.append(callback)

        def remove() -> None:
            if callback in self._log_listeners:
                self._log_listeners.remove(callback)

        return remove

    # --- the speaker ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """Say ``text`` in the table's language if the speaker is on (never waits for it)."""
        settings = self.speech_settings
        if self.speech_queue is not None and settings is not None and settings.on and text:
            self.speech_queue.say(settings.utterance(text, self.language))

    def speech(self) -> dict[str, Any] | None:
        settings = self.speech_settings
        if self.speech_queue is None or settings is None:
            return None
        return {"on": settings.on, "volume": settings.volume, "voice": settings.voice, "short": settings.short}

    def change_speech(self, on: bool, volume: int, voice: str, short: bool | None = None) -> None:
        """The banker's phone sets the table's voice (as setup does at the table)."""
        with self._lock:
            if self.speech_settings is None:
                raise ValueError("this table has no speaker")
            self.set_speech(self.speech_settings.changed(on=on, volume=volume, voice=voice, short=short))

    def set_speech(self, settings: SpeechSettings) -> None:
        """New speaker settings, kept in the journal; the speaker says a sample at the new volume."""
        from banker.messages import render

        if self.speech_queue is None:
            raise ValueError("this table has no speaker")
        self.speech_settings = settings
        self.journal.set_setting(SPEECH_SETTING, settings.to_json(), keep_if_full=True)
        self.say(render("say_speech_sample", {"volume": settings.volume}, self.language))
        self.inbox.put(_Redraw())
        for listener in list(self._speech_listeners):
            listener()

    def add_speech_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after the table's voice changes (it must only enqueue)."""
        self._speech_listeners.append(callback)

        def remove() -> None:
            if callback in self._speech_listeners:
                self._speech_listeners.remove(callback)

        return remove

    def _after_submit(self, action: Any, events: tuple[Event, ...]) -> None:
        if isinstance(action, NewGame):
            self.timer = None
            self._timer_game = self.session.game_id

    # --- the timed game -------------------------------------------------------------------------
    def _timer_key(self) -> str | None:
        game_id = self.session.game_id
        return None if game_id is None else f"timer:{game_id}"

    def _load_timer(self) -> GameTimer | None:
        key = self._timer_key()
        if key is None:
            return None
        text = self.journal.setting(key)
        return GameTimer.from_json(text) if text else None

    def _save_timer(self) -> None:
        key = self._timer_key()
        if key is not None and self.timer is not None:
            self.journal.set_setting(key, self.timer.to_json(), keep_if_full=True)
            self.timer.saved_at = self.timer.elapsed_s

    def _advance_timer(self) -> None:
        now = self.clock()
        delta, self._last_clock = max(0.0, now - self._last_clock), now
        if self.session.game_id != self._timer_game:
            # Another game is on (started or switched to from a phone): its own clock, if it has one.
            self._timer_game = self.session.game_id
            self.timer = self._load_timer()
        state = self.session.state
        timer = self.timer
        if timer is None or state is None or state.ended:
            return
        timer.elapsed_s = min(timer.limit_s, timer.elapsed_s + min(delta, 5.0))
        if timer.elapsed_s - timer.saved_at >= TIMER_SAVE_S or timer.left_s <= 0:
            self._save_timer()

    # --- the screen -----------------------------------------------------------------------------
    def render(self) -> None:
        """Draw the screen if it changed since the last frame, and send the display a frame it missed.

        A display that does not take the frame (an I²C glitch, a loose wire, no display at all) is
        logged and recorded in :attr:`display_fault`, and the frame is sent again with the next input
        or clock tick; the grammar's step is kept, so the players' flow goes on (the phones see the
        same screen meanwhile)."""
        view = screens.view(self.grammar, self.context())
        if view != self.view:
            self.view = view
            self.screens_shown += 1
            with self._lock:
                self._frame_number += 1
                number = self._frame_number
                listeners = list(self._frame_listeners)
            for listener in listeners:
                listener(number)
        if view != self._shown:
            self._send_frame(view)

    def _send_frame(self, view: ScreenView) -> None:
        try:
            self.table.display.show(view)
        except HardwareError as error:
            if self.display_fault is None:
                log.error("the display did not take the frame (it is sent again on the next tick): %s", error)
            self.display_fault = error
            return
        if self.display_fault is not None:
            log.warning("the display takes frames again")
        self.display_fault = None
        self._shown = view

    # --- feeding the loop -----------------------------------------------------------------------
    def _on_game_change(self, state: GameState, events: tuple[Event, ...], action: Any) -> None:
        self.inbox.put(_Redraw())  # runs under the session's lock: only enqueue
        self.table.hub.wake()  # a phone acted: the players are at the table, a card may come next
        if self.speech_queue is not None:
            settings = self.speech_settings
            short = settings is not None and settings.short
            self.say(sentence(state.edition, events, self.language, short=short))  # every action, the phones' too

    def pump(self) -> int:
        """Move every waiting tap and button event into the grammar (synchronous use); returns how many."""
        count = 0
        for tap in self.table.hub.poll_once():
            self.table.hub.get(0)
            self.handle(tap)
            count += 1
        while (event := self.table.controls.get_event(0)) is not None:
            self.handle(event)
            count += 1
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            self.handle(item)
            count += 1
        return count

    def run(self, stop: threading.Event | None = None) -> None:
        """Run until ``stop`` is set (or :meth:`stop`): the table program's main loop."""
        if stop is not None:
            self._stop = stop
        hub = self.table.hub
        hub.start()
        self._start_feeder("taps", lambda: hub.get(timeout=0.5))
        self._start_feeder("buttons", lambda: self.table.controls.get_event(timeout=0.5))
        state = self.session.state
        if state is not None and state.seq > 0:
            self.handle(g.Resumed(state.seq))
        with self._lock:
            self._watch_card()  # a table started on a full card says so at once
        if self.wifi_join:
            # On the table's own hotspot the phones need the Wi-Fi first: its QR code comes first.
            self.grammar = replace(self.grammar, step=g.ShowJoin(g.Idle(), page=0))
        self.render()
        next_tick = self.clock() + TICK_S
        while not self._stop.is_set():
            try:
                item = self.inbox.get(timeout=max(0.0, min(TICK_S, next_tick - self.clock())))
            except queue.Empty:
                item = None
            if item is not None:
                self._safe(item)
            if self.clock() >= next_tick:
                self._safe(g.Tick())
                next_tick = self.clock() + TICK_S
        self._save_timer()

    def _safe(self, item: Any) -> None:
        try:
            self.handle(item)
        except Exception:
            # A bug in one flow must not take the table down: log it and go back to idle.
            log.exception("the table could not handle %r", item)
            with self._lock:
                self.grammar = g.GrammarState(last_input=self.clock())

    def _start_feeder(self, name: str, source: Callable[[], Any]) -> None:
        def feed() -> None:
            while not self._stop.is_set():
                try:
                    item = source()
                except Exception:
                    log.exception("reading the %s failed", name)
                    self._stop.wait(1.0)
                    continue
                if item is not None:
                    self.inbox.put(item)

        thread = threading.Thread(target=feed, name=f"table-{name}", daemon=True)
        thread.start()
        self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=2)
        self._threads.clear()
        self._unsubscribe()
        if self.speech_queue is not None:
            self.speech_queue.close()

    # --- TablePort: what the phone page may do --------------------------------------------------
    def cards(self) -> list[CardInfo]:
        from webui.tableport import CardInfo

        game = self.session.state
        edition = game.edition if game is not None else load_edition("us")
        players = tuple(p.name for p in game.players) if game is not None else ()
        out: list[CardInfo] = []
        order = {"player": 0, "deed": 1, "square": 2, "card": 3}
        for uid, meaning in self.tags.items():
            parsed = parse_meaning(meaning)
            if parsed.kind == "player" and players and parsed.seat >= len(players):
                continue
            group = ""
            if parsed.kind == "deed":
                prop = edition.by_square.get(parsed.square)
                group = prop.group if prop is not None else ""
            out.append(CardInfo(meaning, label(parsed, edition, players, self.language), parsed.kind, group, uid))

        def key(card: CardInfo) -> tuple[int, int]:
            parsed = parse_meaning(card.meaning)
            return order[card.kind], parsed.seat if parsed.kind == "player" else parsed.square

        return sorted(out, key=key)

    def tap(self, meaning: str) -> None:
        uid = self.tags.uid_of(meaning)
        if uid is None:
            raise ValueError(f"no card is enrolled as {meaning!r}")
        self.tap_uid(uid)

    def tap_uid(self, uid: str) -> None:
        """Put a card with this UID on the first reader for one placement (simulated or emulated)."""
        if self.table.mode == "simulated":
            reader = self.table.readers[0]
            assert isinstance(reader, SimulatedReader)
            reader.tap(uid)
            return
        if self.table.emulation is not None:
            from hardware.emulator import EmulatedCard
            from hardware.iso14443 import parse_uid

            raw = parse_uid(uid)
            card = EmulatedCard.classic(raw) if len(raw) == 4 else EmulatedCard.ntag(raw)
            chip = self.table.emulation.chips[0]
            chip.place(card)
            timer = threading.Timer(0.3, chip.remove, args=(card,))
            timer.daemon = True
            timer.start()
            return
        raise ValueError("cards can be tapped from the page only on a simulated table")

    def press(self, button: str, long: bool = False) -> None:
        if button not in ("ok", "cancel", "up", "down"):
            raise ValueError(f"button is ok, cancel, up or down, not {button!r}")
        controls: Any = self.table.controls
        if self.table.mode == "simulated":
            controls.press(button, long=long)
            return
        if self.table.emulation is not None:
            from hardware.protocols import ControlEvent

            controls.events.put(ControlEvent(button, long))  # type: ignore[arg-type]
            return
        raise ValueError("buttons can be pressed from the page only on a simulated table")

    def frame_png(self, scale: int = 1) -> bytes:
        display = self.table.display
        if isinstance(display, SimulatedDisplay):
            return display.png_bytes(scale=scale)
        import io

        from PIL import Image

        image = render_view(self.view or ScreenView())
        if scale != 1:
            image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()

    @property
    def frame_number(self) -> int:
        return self._frame_number

    def add_frame_listener(self, callback: Callable[[int], None]) -> Callable[[], None]:
        with self._lock:
            self._frame_listeners.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._frame_listeners:
                    self._frame_listeners.remove(callback)

        return remove

    def start_enrollment(self) -> None:
        self.inbox.put(g.StartEnrollment())

    def forget_tag(self, uid: str) -> None:
        with self._lock:
            if self.tags.meaning_of(uid) is None:
                raise ValueError(f"no tag {uid!r} is enrolled")
            self.tags.remove(uid)
            self.journal.delete_tag(uid)
        self.inbox.put(_Redraw())

    def ask_banker(self, who: str, answer: Callable[[bool | None], None]) -> None:
        with self._lock:
            token = self._next_token
            self._next_token += 1
            self._answers[token] = answer
        self.inbox.put(g.BankerRequest(who, token))
