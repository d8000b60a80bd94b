"""The running program (``banker run --simulated``) killed with SIGKILL while phones and the table
act on it: no acknowledged action is lost, the state is the journal's replay, the table resumes on
its notice, the phones' streams reconnect, and a retried request pays once. The long run (200 kills)
is ``make soak``."""

from __future__ import annotations

from pathlib import Path

from tests.soak.kill import run


def test_kills_lose_no_acknowledged_action(tmp_path: Path) -> None:
    totals = run(kills=6, data_dir=tmp_path, seed=7, max_alive_s=2.5)
    assert totals.kills == 6
    assert totals.acknowledged > 0
    assert totals.table_rounds > 0
    assert totals.actions > totals.acknowledged
