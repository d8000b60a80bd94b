"""The join code and its QR code, shown on the table's OLED and on the page."""

from __future__ import annotations

import io
import secrets
import threading
from collections.abc import Callable

import segno
from PIL import Image

from banker.actions import Action, NewGame
from banker.journal import Journal

CODE_SETTING = "webui_join_code"
CODE_ALPHABET = "ACEFHJKMNPRTWXY3479"
"""Letters and digits that cannot be mistaken for one another on a small screen (no 0/O, 1/I/L, 5/S…)."""
CODE_LENGTH = 4


def join_code(journal: Journal) -> str:
    """The table's short join code, made on first use and kept in the journal's settings."""
    code = journal.setting(CODE_SETTING)
    if code is None:
        code = new_join_code(journal)
    return code


def new_join_code(journal: Journal) -> str:
    """Make and keep a new join code (never the one it replaces)."""
    old = journal.setting(CODE_SETTING)
    code = old
    while code == old:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    assert code is not None
    journal.set_setting(CODE_SETTING, code, keep_if_full=True)  # on a full card the table still lets phones in
    return code


class JoinCodes:
    """The table's join code as the phone page and the table show it: a new one for every game after
    the first (the code a table starts with belongs to its first game) and whenever the banker asks.
    Phones that joined stay joined; only new phones need the new code."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._listeners: list[Callable[[str], None]] = []
        self._lock = threading.Lock()

    @property
    def current(self) -> str:
        return join_code(self.journal)

    def renew(self) -> str:
        """A new code; every listener hears it (they must only enqueue: this may run under the session's lock)."""
        with self._lock:
            code = new_join_code(self.journal)
            listeners = list(self._listeners)
        for listener in listeners:
            listener(code)
        return code

    def listen(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(code)`` with each new code (the table's screen, the program's output)."""
        with self._lock:
            self._listeners.append(callback)

    def on_action(self, _state: object, _events: object, action: Action) -> None:
        """A Session subscriber: a new game after the first gets a new code."""
        if isinstance(action, NewGame) and len(self.journal.games()) > 1:
            self.renew()


def normalize_code(text: str) -> str:
    return text.strip().upper().replace(" ", "")


def join_url(base_url: str, code: str) -> str:
    """The address in the QR code: opening it joins the table without typing the code."""
    return f"{base_url.rstrip('/')}/j/{code}"


def _qr(url: str) -> segno.QRCode:
    return segno.make_qr(url, error="l", boost_error=False)


def qr_image(url: str, size_px: int = 64) -> Image.Image:
    """A 1-bit QR code of ``url`` no larger than ``size_px`` square (white modules on black, as the
    OLED lights them), with the largest whole-pixel module size that fits and a quiet zone of
    what is left (at least one module where there is room).

    Raises:
        ValueError: the code does not fit ``size_px`` at one pixel per module.
    """
    qr = _qr(url)
    modules = qr.symbol_size(scale=1, border=0)[0]
    if modules > size_px:
        raise ValueError(f"a QR code of {len(url)} characters needs {modules} px; {size_px} px is too small")
    scale = max(1, size_px // (modules + 2))
    if modules * scale > size_px:
        scale = 1
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=scale, border=0, dark="white", light="black")
    buffer.seek(0)
    code = Image.open(buffer).convert("1")
    image = Image.new("1", (size_px, size_px), 0)
    offset = (size_px - code.width) // 2
    image.paste(code, (offset, offset))
    return image


def qr_svg(url: str, scale: int = 6) -> str:
    """The QR code as an inline SVG for the page (dark on light, with the standard quiet zone)."""
    buffer = io.BytesIO()
    _qr(url).save(buffer, kind="svg", scale=scale, border=4, xmldecl=False, svgns=True,
                  title="QR", dark="#111", light="#fff")
    return buffer.getvalue().decode()
