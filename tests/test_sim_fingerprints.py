"""The same seed plays the same games: the action logs of seeded self-play match the committed fingerprints.

A change that only makes the engine or the bots faster must leave these alone. To check all 300 games:
``python benchmarks/fingerprint.py --games 300 --compare benchmarks/fingerprints.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from fingerprint import fingerprints  # noqa: E402


def test_seeded_games_play_as_before() -> None:
    expected = json.loads((ROOT / "benchmarks" / "fingerprints.json").read_text())
    assert fingerprints(20) == expected[:20]
