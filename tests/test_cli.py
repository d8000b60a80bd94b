"""The other ``banker`` commands: demo (``make run``), saved games, export, bench."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banker.bench import bench_engine, bench_journal, bench_offers, game_actions
from banker.cli import main


def test_demo_plays_through_the_journal_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "demo.sqlite3"
    assert main(["demo", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Ann wins the auction: New York Avenue for $210." in out
    assert "Undone: " in out and "Undone: mortgage" not in out  # the action in words
    assert "the game resumes at action 17" in out
    assert main(["games", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "us" in listing and "18 actions" in listing and "Ann, Bob, Cat" in listing
    assert main(["export", "1", "--db", str(db)]) == 0
    script = capsys.readouterr().out.splitlines()
    assert len(script) == 18 and json.loads(script[0])["action"] == "new_game"
    assert main(["export", "9", "--db", str(db)]) == 1
    assert "There is no saved game 9" in capsys.readouterr().err


def test_demo_in_russian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--db", str(tmp_path / "d.sqlite3"), "--lang", "ru"]) == 0
    assert "аукцион" in capsys.readouterr().out.lower()


def test_bench_parts_report_their_figures() -> None:
    actions = game_actions(300)
    assert len(actions) == 300
    assert bench_engine(actions)["engine_actions_per_second"] > 0
    offers = bench_offers(rounds=2)
    assert offers["legal_actions_found"] == 242 and offers["legal_actions_ms"] > 0
    figures = bench_journal(actions, 50)
    assert figures["journal_synchronous"] == "FULL"
    assert figures["resume_actions"] == 300
    assert 0 < figures["commit_median_ms"] <= figures["commit_p99_ms"]


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "replay" in capsys.readouterr().out


def test_bench_sim_reports_both_builds_and_the_ratios_to_the_peer(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    from banker import bench
    from banker.sim import peer

    def ours(games: int, check: bool, compiled: Path | None = None) -> dict[str, float]:
        seconds = (2.0 if check else 1.0) / (2 if compiled else 1)
        return {"games": games, "seconds": seconds, "turns": games * 200}

    monkeypatch.setattr(peer, "measure_ours", ours)
    monkeypatch.setattr(peer, "measure_peer",
                        lambda path, games: {"games": games, "seconds": 1.0, "turns": games * 500})
    monkeypatch.setattr(peer, "peer_path", lambda given: tmp_path)
    monkeypatch.setattr(peer, "compiled_build", lambda: tmp_path)
    figures = bench.bench_sim(games=100, peer=str(tmp_path))
    assert figures["sim_games_per_second_checked"] == 50.0
    assert figures["sim_compiled_games_per_second_checked"] == 100.0
    assert figures["sim_compiled_games_ratio_to_peer_checked"] == 1.0
    assert figures["sim_compiled_turns_ratio_to_peer_checked"] == 0.4
    assert figures["sim_games_ratio_to_peer_unchecked"] == 1.0

    monkeypatch.setattr(peer, "compiled_build", lambda: None)
    monkeypatch.setattr(peer, "peer_path", lambda given: None)
    figures = bench.bench_sim(games=100)
    assert figures["sim_compiled"] == "not built (make compiled)"
    assert not any(key.startswith(("sim_compiled_", "peer_")) for key in figures)
