"""The screenshot script works (it writes docs/screenshots when run by hand; here into a temporary folder)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.webui.browser import need_chromium


def test_screenshots_of_the_main_pages(tmp_path: Path) -> None:
    need_chromium()
    from tests.webui.screenshots import main

    written = main(tmp_path)
    assert {p.stem for p in written} >= {"join", "home", "deeds", "money", "trades", "debts", "history", "setup",
                                          "end", "table", "home-ru", "auction-ru", "strategy",
                                          "strategy-groups-ru", "strategy-tables-ru", "deeds-deuteranopia",
                                          "deeds-protanopia", "home-hidden", "simple", "simple-bg",
                                          "large-text", "large-text-deeds", "records-en", "records-ru", "records-bg",
                                          "records-more"}
    for path in written:
        with Image.open(path) as image:
            assert image.size == (360, 800)
