"""The join code, its address and its QR code (the OLED shows it; the page shows it as SVG)."""

from __future__ import annotations

from banker.journal import Journal
from webui.join import CODE_ALPHABET, join_code, join_url, qr_image, qr_svg


def test_the_code_is_made_once_and_kept(tmp_path: object) -> None:
    with Journal(":memory:") as journal:
        code = join_code(journal)
        assert len(code) == 4 and set(code) <= set(CODE_ALPHABET)
        assert join_code(journal) == code


def test_the_url() -> None:
    assert join_url("http://192.168.1.20:8080/", "AC7K") == "http://192.168.1.20:8080/j/AC7K"


def test_the_qr_fits_the_oled_area() -> None:
    image = qr_image(join_url("http://192.168.100.200:8080", "AC7K"), 64)
    assert image.size == (64, 64) and image.mode == "1"
    lit = image.convert("L").histogram()[255]
    assert 0 < lit < 64 * 64


def test_a_too_long_url_is_refused_clearly() -> None:
    import pytest

    with pytest.raises(ValueError, match="too small"):
        qr_image("http://example.org/" + "x" * 1000, 64)


def test_the_svg() -> None:
    svg = qr_svg("http://192.168.1.20:8080/j/AC7K")
    assert svg.startswith("<svg") and "</svg>" in svg
