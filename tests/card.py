"""A small card for the journal's full-card tests: a 2 MB tmpfs mounted for the test, filled and freed with a
file beside the journal, so that SQLite fails for space for real (SQLITE_FULL).

Where mounting is refused (not root, a container without the right), the same failure is made another
way: SQLite's ``max_page_count`` stops the journals adopted by the card from growing (SQLite answers
SQLITE_FULL, as on a full disk), and the journals are told the card's free space is the filler's leftover.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from banker.journal import Journal

SIZE = 2 * 1024 * 1024


class Card:
    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.path = root / "card"
        self.path.mkdir()
        self._monkeypatch = monkeypatch
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE}", "tmpfs", str(self.path)],
                                 capture_output=True, check=False)
        self.mounted = mounted.returncode == 0
        self.filler = self.path / "filler"
        self._journals: list[Journal] = []
        self._left: int | None = None
        if not self.mounted:
            card = self

            def free_bytes(journal: Journal) -> int | None:
                return card._left if card._left is not None else SIZE

            monkeypatch.setattr(Journal, "free_bytes", free_bytes)

    @property
    def journal_path(self) -> Path:
        return self.path / "banker.sqlite3"

    def open(self, **options: object) -> Journal:
        journal = Journal(self.journal_path, **options)  # type: ignore[arg-type]
        return self.adopt(journal)

    def adopt(self, journal: Journal) -> Journal:
        """A journal on this card (only needed where mounting is refused)."""
        self._journals.append(journal)
        return journal

    def free_bytes(self) -> int:
        found = os.statvfs(self.path)
        return found.f_bavail * found.f_frsize

    def fill(self, leave: int = 0) -> None:
        """Take the card's space, leaving about ``leave`` bytes."""
        if not self.mounted:
            self._left = leave
            if leave == 0:
                for journal in self._journals:
                    pages = journal.pragma("page_count")
                    journal.pragma(f"max_page_count={pages}")
            return
        with open(self.filler, "ab") as out:
            chunk = 64 * 1024
            while self.free_bytes() > leave:
                try:
                    out.write(b"\0" * max(4096, min(chunk, self.free_bytes() - leave)))
                    out.flush()
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break

    def free(self) -> None:
        """Give the space back."""
        if not self.mounted:
            self._left = None
            for journal in self._journals:
                journal.pragma("max_page_count=2147483646")
            return
        if self.filler.exists():
            self.filler.unlink()

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True, check=False)


def card_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Card]:
    card = Card(tmp_path, monkeypatch)
    try:
        yield card
    finally:
        card.close()
