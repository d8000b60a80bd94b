import pytest

from hardware import iso14443


@pytest.mark.parametrize(
    ("frame", "crc"),
    [
        ("5000", "57cd"),  # HLTA, the vector in ISO 14443-3
        ("3000", "02a8"),  # MIFARE READ block 0, as seen in every reader trace
        ("e050", "bca5"),  # RATS
    ],
)
def test_crc_a_matches_known_frames(frame: str, crc: str) -> None:
    assert iso14443.crc_a(bytes.fromhex(frame)).hex() == crc


def test_uid_parts_put_the_cascade_tag_in_front_of_incomplete_parts() -> None:
    assert iso14443.uid_parts(bytes.fromhex("DEADBEEF")) == [bytes.fromhex("DEADBEEF")]
    assert iso14443.uid_parts(bytes.fromhex("046E51C2B33480")) == [
        bytes.fromhex("88046E51"),
        bytes.fromhex("C2B33480"),
    ]
    assert len(iso14443.uid_parts(bytes(range(10)))) == 3
    with pytest.raises(ValueError, match="4, 7 or 10 bytes"):
        iso14443.uid_parts(b"\x01\x02")


def test_bcc_is_the_xor_of_the_part() -> None:
    assert iso14443.bcc(bytes.fromhex("DEADBEEF")) == 0x22
    assert iso14443.bcc(bytes.fromhex("88046E51")) == 0xB3


def test_uids_parse_from_the_forms_people_copy_from_phone_apps() -> None:
    expected = bytes.fromhex("046E51C2B33480")
    assert iso14443.parse_uid("04:6E:51:C2:B3:34:80") == expected
    assert iso14443.parse_uid("04 6e 51 c2 b3 34 80") == expected
    assert iso14443.parse_uid(expected) == expected
    assert iso14443.format_uid(expected) == "04:6E:51:C2:B3:34:80"
    with pytest.raises(ValueError, match="hex bytes"):
        iso14443.parse_uid("not a uid")
    with pytest.raises(ValueError, match="not 5"):
        iso14443.parse_uid("0102030405")
