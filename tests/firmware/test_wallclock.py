"""A Pi without a real-time clock starts up to an hour early after a power cut: the repeat guard and
the lock-outs of wrong codes must not read the journal's times as if they were in the future."""

from __future__ import annotations

from pathlib import Path

import pytest

from banker.actions import NewGame, Pay
from banker.journal import Journal
from banker.session import Session
from firmware import run
from firmware.wallclock import SteadyClock, last_recorded
from webui.auth import Limiter

PAID_AT = 1_790_000_000.0
"""When Ann paid Bob, before the power cut (the clock was right then)."""
EARLY = 3000.0
"""How early the clock comes back after the cut (fake-hwclock saves the time once an hour)."""


class Time:
    def __init__(self, wall: float, monotonic: float) -> None:
        self.wall, self.monotonic = wall, monotonic

    def pass_(self, seconds: float) -> None:
        self.wall += seconds
        self.monotonic += seconds


@pytest.fixture
def cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Time]:
    """A journal where Ann paid Bob 10 at PAID_AT; then the power went, and the Pi came back with its
    clock EARLY seconds early, 30 s after it was switched on."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(str(path))
    session = Session(journal, clock=lambda: PAID_AT)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    session.submit(Pay("Ann", 10, "Bob"))
    journal.close()
    now = Time(PAID_AT + 120 - EARLY, 30.0)  # two minutes after the payment in truth
    monkeypatch.setattr("time.time", lambda: now.wall)
    monkeypatch.setattr("time.monotonic", lambda: now.monotonic)
    return path, now


def test_the_same_payment_after_a_power_cut_is_not_taken_for_a_double_tap(cut: tuple[Path, Time]) -> None:
    path, now = cut
    journal = Journal(str(path))
    try:
        assert last_recorded(journal) == PAID_AT
        # The wall clock as it is: the payment looks EARLY seconds in the future, so "a second ago".
        assert Session.resume(journal, clock=lambda: now.wall).repeated(Pay("Ann", 10, "Bob")) is not None
        session, clock = run.open_session(journal)
        assert clock() >= PAID_AT
        now.pass_(40)  # Ann lands on Bob's street again
        assert session.repeated(Pay("Ann", 10, "Bob")) is None
        session.submit(Pay("Ann", 10, "Bob"))
        # A real double tap is still caught: the same payment a second later.
        now.pass_(1)
        question = session.repeated(Pay("Ann", 10, "Bob"))
        assert question is not None and question.params["seconds"] == 1
    finally:
        journal.close()


def test_the_clock_never_goes_back_and_follows_a_clock_set_forward() -> None:
    now = Time(PAID_AT, 100.0)
    clock = SteadyClock(wall=lambda: now.wall, monotonic=lambda: now.monotonic)
    assert clock() == PAID_AT
    now.wall -= EARLY  # set back while it runs
    assert clock() == PAID_AT
    now.monotonic += 5
    assert clock() == PAID_AT + 5  # runs on by the monotonic clock meanwhile
    now.wall = PAID_AT + 600  # NTP sets it right
    assert clock() == PAID_AT + 600
    clock.not_before(PAID_AT + 900)
    assert clock() == PAID_AT + 900


def test_a_lock_out_lasts_no_longer_than_given_when_the_clock_went_back(tmp_path: Path) -> None:
    journal = Journal(str(tmp_path / "journal.sqlite3"))
    wall = [PAID_AT]
    limiter = Limiter(journal, clock=lambda: wall[0])
    try:
        for _ in range(Limiter.FREE_TRIES):
            assert limiter.attempt("device", "table") == 0  # wrong guesses, counted
        assert 0 < limiter.wait("device", "table") <= Limiter.FIRST_LOCK + 1
        wall[0] -= EARLY  # a power cut, and the clock back an hour early
        assert 0 < limiter.wait("device", "table") <= Limiter.FIRST_LOCK + 1  # not EARLY seconds more
        assert limiter.attempt("device", "table") <= Limiter.FIRST_LOCK + 1
    finally:
        journal.close()
