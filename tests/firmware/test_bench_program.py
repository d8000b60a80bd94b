"""``banker bench --program``: the running program's figures, measured on a small scale, and the
Markdown of docs/performance.md (the figures themselves are not asserted: they depend on the machine)."""

from __future__ import annotations

from pathlib import Path

from firmware.bench import bench_advice, bench_program, performance_markdown
from firmware.cli import SOAK_MARK, main


def test_the_program_bench_measures_every_figure() -> None:
    figures = bench_program(streams=2, actions=5, held=4, taps=6, resume_actions=5, advice_requests=3)
    for key in ("rss_idle_mb", "program_tap_to_frame_event_median_ms", "stream_latency_p99_ms",
                "answer_with_phones_held_worst_ms", "rss_with_2_phones_mb", "rss_with_4_phones_mb",
                "resume_to_first_answer_s", "journal_commit_median_ms", "advice_first_ms", "advice_median_ms"):
        assert isinstance(figures[key], float), key
    assert figures["program_tap_frames"] == 6
    assert figures["resume_actions"] >= 5
    assert figures["advice_requests"] == 3


def test_the_advice_bench_asks_the_running_program() -> None:
    figures = bench_advice(requests=3)
    assert set(figures) == {"advice_first_ms", "advice_median_ms", "advice_p99_ms", "advice_requests"}
    assert all(isinstance(figures[key], float) for key in ("advice_first_ms", "advice_median_ms", "advice_p99_ms"))


def test_the_document_names_the_date_the_machine_and_every_goal() -> None:
    text = performance_markdown({"streams": 8, "phones_held": 56, "stream_latency_p99_ms": 4.2}, "2026-01-01",
                                "a test machine")
    assert "2026-01-01" in text and "a test machine" in text
    assert "4.2 ms" in text and "not measured" in text
    for goal in ("< 5 ms", "< 60 MB", "< 100 ms", "50 phones"):
        assert goal in text


def test_writing_keeps_the_soak_section(tmp_path: Path) -> None:
    path = tmp_path / "performance.md"
    path.write_text(f"old figures\n\n{SOAK_MARK}\nkills: 200, lost: 0\n", encoding="utf-8")
    assert main(["bench", "--table", "--write", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    assert "old figures" not in text
    assert text.endswith(f"{SOAK_MARK}\nkills: 200, lost: 0\n")
    assert "table_tap_to_frame" not in text and "ms | < 5 ms |" in text
