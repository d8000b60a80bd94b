"""``banker demo`` (``make run``): a short game played through the journal, shown as it goes."""

from __future__ import annotations

import tempfile
from pathlib import Path

from banker.actions import parse_action
from banker.journal import Journal
from banker.messages import render
from banker.session import Session
from banker.text import describe_event, summary_lines

SCRIPT = Path(__file__).with_name("demo_game.jsonl")


def run_demo(db: str, language: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = db or str(Path(tmp) / "demo.sqlite3")
        journal = Journal(path)
        session = Session(journal)
        for line in SCRIPT.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            state, events = session.submit(parse_action(line))
            for event in events:
                print(describe_event(state.edition, event, language))
        journal.close()
        resumed = Session.resume(Journal(path))
        assert resumed.state is not None
        print()
        print(render("demo_resumed", {"path": path, "seq": resumed.state.seq}, language))
        print("\n".join(summary_lines(resumed.state, language)))
        resumed.journal.close()
        if not db:
            print(render("demo_deleted", {}, language))
    return 0
