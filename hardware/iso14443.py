"""The small part of ISO/IEC 14443-3 type A that a tag reader and its emulator share.

Commands a reader (PCD) sends to a card (PICC), the CRC_A checksum, the BCC check byte and how a
UID is split over cascade levels.
"""

from __future__ import annotations

from collections.abc import Iterable

REQA = 0x26
"""Request, type A (7-bit short frame): wakes cards in the IDLE state only."""
WUPA = 0x52
"""Wake-up, type A (7-bit short frame): wakes cards in IDLE *and* HALT."""
HLTA = 0x50
"""Halt (``50 00`` + CRC_A): sends the selected card to HALT; it does not answer."""
SEL_CL1, SEL_CL2, SEL_CL3 = 0x93, 0x95, 0x97
"""SEL codes of the three cascade levels (anticollision and SELECT)."""
CASCADE_LEVELS = (SEL_CL1, SEL_CL2, SEL_CL3)
NVB_ANTICOLLISION = 0x20
"""Number of valid bits: only SEL and NVB are sent, every card answers its UID part + BCC."""
NVB_SELECT = 0x70
"""Number of valid bits: SEL, NVB and all 40 bits of the UID part follow (then CRC_A)."""
CASCADE_TAG = 0x88
"""First byte of a UID part that is not the last one: the UID continues at the next level."""
SAK_UID_INCOMPLETE = 0x04
"""SAK bit that says: the UID is not complete, select the next cascade level."""
READ = 0x30
"""MIFARE READ (``30 block`` + CRC_A): returns 16 bytes + CRC_A."""


def crc_a(data: Iterable[int]) -> bytes:
    """CRC_A of ISO 14443-3 (initial value 0x6363, reflected polynomial 0x8408), low byte first.

    >>> crc_a([0x50, 0x00]).hex()
    '57cd'
    """
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, crc >> 8])


def bcc(part: Iterable[int]) -> int:
    """The block check character of a 4-byte UID part: the XOR of its bytes."""
    check = 0
    for byte in part:
        check ^= byte
    return check


def uid_parts(uid: bytes) -> list[bytes]:
    """Split a 4-, 7- or 10-byte UID into the 4-byte parts sent at each cascade level.

    A UID that continues at the next level is sent as the cascade tag 0x88 plus three UID bytes.

    Raises:
        ValueError: the UID is not 4, 7 or 10 bytes long.
    """
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
    if len(uid) == 10:
        return [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
    raise ValueError(f"a type A UID has 4, 7 or 10 bytes, not {len(uid)}: {uid.hex()}")


def parse_uid(text: str | bytes) -> bytes:
    """A UID from bytes or from hex text with optional ``:``, ``-`` or space separators.

    Raises:
        ValueError: not hex, or not 4, 7 or 10 bytes.
    """
    if isinstance(text, bytes):
        uid = text
    else:
        cleaned = text.replace(":", "").replace("-", "").replace(" ", "")
        try:
            uid = bytes.fromhex(cleaned)
        except ValueError:
            raise ValueError(f"a UID is hex bytes like 04:6E:51:C2:B3:34:80, not {text!r}") from None
    if len(uid) not in (4, 7, 10):
        raise ValueError(f"a type A UID has 4, 7 or 10 bytes, not {len(uid)}: {uid.hex()}")
    return uid


def format_uid(uid: bytes) -> str:
    """The UID as the colon-separated hex a phone NFC app shows, e.g. ``04:6E:51:C2:B3:34:80``."""
    return ":".join(f"{byte:02X}" for byte in uid)
