"""A small table that implements webui.tableport.TablePort for the tests: a player's card, a deed's
card and OK charge the rent, as the real table loop does; its screens are drawn by the real renderer."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

from banker.actions import Rent
from banker.errors import BankerError
from banker.session import Session
from hardware.display import ScreenView, render_view
from webui.tableport import CardInfo, TableFault

BUTTONS = ("ok", "cancel", "up", "down")


class FakeTable:
    simulated = True

    def __init__(self, session: Session) -> None:
        self.session = session
        self._lock = threading.Lock()
        self._frame = 0
        self._view = ScreenView(title="Table banker", lines=("Tap a card",))
        self._listeners: list[Callable[[int], None]] = []
        self._player: str | None = None
        self._deed: str | None = None
        self.presses: list[tuple[str, bool]] = []
        self.banker_questions: list[tuple[str, Callable[[bool | None], None]]] = []
        self.enrolling = False
        self.forgotten: list[str] = []
        self.broken: list[TableFault] = []
        """What :meth:`faults` answers: a test breaks a part by appending to it."""
        self.voice: dict[str, object] | None = {"on": True, "volume": 80, "voice": "man"}
        """The table's voice (``None``: no speaker)."""
        self.log_lines: list[tuple[int, str]] = []
        self.log_listeners: list[Callable[[], None]] = []
        self.speech_listeners: list[Callable[[], None]] = []

    # --- TablePort ---------------------------------------------------------------------------------
    def cards(self) -> list[CardInfo]:
        state = self.session.state
        if state is None:
            return []
        out = [CardInfo(f"player:{seat + 1}", p.name, "player", uid=f"04:00:00:{seat:02X}")
               for seat, p in enumerate(state.players)]
        out += [CardInfo(f"deed:{prop.square}", prop.name, "deed", prop.group) for prop in state.edition.properties]
        out.append(CardInfo("square:go", "GO", "square"))
        return out

    def tap(self, meaning: str) -> None:
        state = self.session.state
        if state is None or meaning not in {c.meaning for c in self.cards()}:
            raise ValueError(f"no card {meaning!r}")
        kind, _, rest = meaning.partition(":")
        with self._lock:
            if kind == "player":
                self._player = state.players[int(rest) - 1].name
                self._deed = None
                self._show(ScreenView(title=self._player, lines=("Tap a deed",)))
            elif kind == "deed" and self._player is not None:
                prop = state.edition.by_square[int(rest)]
                self._deed = prop.id
                try:
                    after, _ = self.session.preview(Rent(self._player, prop.id))
                    paid = state.players[state.seat(self._player)].cash - after.players[after.seat(self._player)].cash
                    self._show(ScreenView(title=prop.name, lines=(f"{self._player} pays rent",),
                                          amount=state.money(paid), footer="OK pay  ✕ back"))
                except BankerError as error:
                    self._deed = None
                    self._show(ScreenView(title=prop.name, lines=(str(error),)))

    def start_enrollment(self) -> None:
        with self._lock:
            self.enrolling = True
            self._show(ScreenView(title="Enroll 1/43", lines=("Tap:", "Bank card 1")))

    def speech(self) -> dict[str, object] | None:
        return dict(self.voice) if self.voice is not None else None

    def change_speech(self, on: bool, volume: int, voice: str, short: bool | None = None) -> None:
        if self.voice is None:
            raise ValueError("no speaker")
        was_short = bool(self.voice.get("short", False))
        self.voice = {"on": on, "volume": volume, "voice": voice, "short": was_short if short is None else short}
        for listener in list(self.speech_listeners):
            listener()

    def add_speech_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.speech_listeners.append(callback)
        return lambda: self.speech_listeners.remove(callback)

    def table_log(self, language: str) -> list[tuple[int, str]]:
        return list(self.log_lines)

    def add_log_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.log_listeners.append(callback)
        return lambda: self.log_listeners.remove(callback)

    def forget_tag(self, uid: str) -> None:
        if uid not in {card.uid for card in self.cards()}:
            raise ValueError(f"no tag {uid!r}")
        self.forgotten.append(uid)

    def press(self, button: str, long: bool = False) -> None:
        if button not in BUTTONS:
            raise ValueError(f"no button {button!r}")
        with self._lock:
            self.presses.append((button, long))
            if button == "ok" and self._player and self._deed:
                try:
                    self.session.submit(Rent(self._player, self._deed))
                    self._show(ScreenView(title="Paid", lines=(f"{self._player} paid the rent",)))
                except BankerError as error:
                    self._show(ScreenView(title="Refused", lines=(str(error),)))
                self._player = self._deed = None
            elif button == "cancel":
                self._player = self._deed = None
                self._show(ScreenView(title="Table banker", lines=("Tap a card",)))

    def faults(self) -> list[TableFault]:
        return list(self.broken)

    def frame_png(self, scale: int = 1) -> bytes:
        image = render_view(self._view).convert("L")
        if scale > 1:
            image = image.resize((image.width * scale, image.height * scale))
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    @property
    def frame_number(self) -> int:
        return self._frame

    def add_frame_listener(self, callback: Callable[[int], None]) -> Callable[[], None]:
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def ask_banker(self, who: str, answer: Callable[[bool | None], None]) -> None:
        self.banker_questions.append((who, answer))

    # --- helpers ----------------------------------------------------------------------------------------
    def _show(self, view: ScreenView) -> None:
        self._view = view
        self._frame += 1
        for listener in list(self._listeners):
            listener(self._frame)
