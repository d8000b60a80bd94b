"""``banker bench --long`` on small journals: every figure is measured, and its section of docs/performance.md is
written in place of the old one, keeping the rest of the file."""

from __future__ import annotations

from pathlib import Path

from firmware.bench_long import PAGES, SECTION, markdown, run_long, write_section


def test_the_long_bench_measures_every_figure_and_writes_its_section(tmp_path: Path) -> None:
    figures = run_long((30, 60), (2,), memory_actions=150)
    for axis in ("length:30", "length:60", "games:2"):
        found = figures[axis]
        assert all(page in found and f"first:{page}" in found for page in PAGES), found
        assert found["card_bytes"] > 0 and found["startup_s"] > 0 and found["rss_after_pages_mb"] > 0
        assert found["commit_median_ms"] > 0
    assert figures["games:2"]["actions"] == 2 * 200
    assert figures["phone"]["phone_action_bytes"] > 0 and figures["phone"]["refusal_bytes"] < 10
    memory = figures["memory"]
    assert set(memory) == {"rss_at:0", "rss_at:150", "rss_growth_mb"} and memory["rss_at:150"] > 0
    text = markdown(figures, "today", "here")
    assert text.startswith(SECTION) and "30 actions" in text and "2 games" in text and "A year of evenings" in text
    assert "**Memory over a game**" in text and "after 150" in text
    path = tmp_path / "performance.md"
    path.write_text("# Performance\n\nfigures\n\n## Soak\n\nsoak\n\n" + SECTION + "\n\nold figures\n",
                    encoding="utf-8")
    write_section(path, text)
    written = path.read_text(encoding="utf-8")
    assert written.startswith("# Performance\n\nfigures\n\n## Soak\n\nsoak\n\n" + SECTION)
    assert "old figures" not in written and written.count(SECTION) == 1
