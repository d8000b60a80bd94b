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
