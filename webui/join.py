"""The join code and its QR code, shown on the table's OLED and on the page."""

from __future__ import annotations

import io
import secrets

import segno
from PIL import Image

from banker.journal import Journal

CODE_SETTING = "webui_join_code"
CODE_ALPHABET = "ACEFHJKMNPRTWXY3479"
"""Letters and digits that cannot be mistaken for one another on a small screen (no 0/O, 1/I/L, 5/S…)."""
CODE_LENGTH = 4


def join_code(journal: Journal) -> str:
    """The table's short join code, made once and kept in the journal's settings."""
    code = journal.setting(CODE_SETTING)
    if code is None:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        journal.set_setting(CODE_SETTING, code)
    return code


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
