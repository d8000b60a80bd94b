"""The soak runner's parts on a small scale: self-play in parallel chunks with invariants checked
(``make soak`` plays 100,000 games), and its report."""

from __future__ import annotations

import pytest

from tests.soak import run


def test_selfplay_in_parallel_chunks_has_no_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "CHUNK", 20)
    result = run.selfplay(60, workers=2, seed=11)
    assert result["games"] == 60
    assert result["violations"] == 0, result["failures"]


def test_a_failing_chunk_is_counted_and_the_rest_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "CHUNK", 10)
    # 2 players of a 9-player game cannot start: every chunk fails, and each is counted.
    result = run.selfplay(30, players=9, workers=2)
    assert result["games"] == 0 and result["violations"] == 3


def test_the_report_names_every_goal_figure() -> None:
    text = run.markdown({
        "selfplay": {"games": 100000, "players": 4, "processes": 2, "violations": 0, "games_per_second": 70.0,
                     "seconds": 1400},
        "kills": {"kills": 200, "requests": 50000, "table_rounds": 300, "actions": 51000, "resent": 300,
                  "already_done": 70, "lost": 0},
        "session": {"minutes": 60, "actions": 9000, "phone_requests": 7000, "table_rounds": 2000, "violations": 0,
                    "rss_mb_start": 50.0, "rss_mb_settled": 55.0, "rss_mb_end": 55.5, "rss_mb_max": 56.0,
                    "fds_start": 10, "fds_end": 10, "threads_start": 77, "threads_end": 77},
    })
    assert text.startswith("## Soak")
    assert "100,000 games" in text and "0 violations" in text and "0 acknowledged actions lost" in text
    assert "threads 77 → 77" in text


def test_memory_growth_is_the_slope_of_the_samples_after_the_given_minute() -> None:
    # 10 kB every half minute from minute 0, then flat from minute 60: 1.17 MB an hour, then 0.
    timeline = [(i / 2, 50_000 + 10 * min(i, 120)) for i in range(241)]
    assert 0 < run.per_hour(timeline, 0) < 1.17  # type: ignore[operator]
    assert run.per_hour(timeline[:121], 0) == pytest.approx(1.17, abs=0.01)
    assert run.per_hour(timeline, 60) == 0
    assert run.per_hour(timeline, 200) is None


def test_the_memory_timeline_takes_one_sample_a_step_and_the_last() -> None:
    timeline = [(i / 2, 51_200 + 1024 * i) for i in range(25)]  # 50 MB at minute 0, +1 MB a sample
    assert run.every(timeline, 5) == [(0, 50.0), (5, 60.0), (10, 70.0), (12, 74.0)]
    text = run.markdown({"session": {
        "minutes": 12, "actions": 90, "phone_requests": 70, "table_rounds": 20, "violations": 0,
        "rss_mb_start": 50.0, "rss_mb_settled": 55.0, "rss_mb_end": 74.0, "rss_mb_max": 74.0, "fds_start": 10,
        "fds_end": 10, "threads_start": 77, "threads_end": 77, "rss_mb_timeline": run.every(timeline, 5),
        "rss_mb_per_hour_last_third": 120.0}})
    assert "(minute: MB): 0: 50.0, 5: 60.0, 10: 70.0, 12: 74.0; in the last third 120.0 MB an hour" in text
