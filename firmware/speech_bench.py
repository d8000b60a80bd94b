"""``banker bench --speech``: how long the table's common announcements take to say, and to write.

Every edition's common announcements (each deed bought, each deed's rent unbuilt and, for a street, with a
hotel, the salary, both taxes, a payment between players) are said in every language, full and short,
by espeak-ng at the table's rate into a WAV file; a sentence's length is from its first sound to its last
(the silence espeak-ng puts around it left out). The time to write a sentence is measured too: the first
Russian one loads the dictionaries (pymorphy3, petrovich), the later ones reuse what was made.
"""

from __future__ import annotations

import array
import json
import shutil
import statistics
import subprocess
import tempfile
import time
import wave
from pathlib import Path
from typing import Any

from banker.edition import available_editions, load_edition
from banker.ledger import Event
from banker.messages import LANGUAGES
from banker.replay import replay_lines
from banker.speech import say
from hardware.speaker import DEFAULT_RATE, LANGUAGE_VOICES

KINDS = ("rent", "buy", "salary", "tax", "payment")
"""The common announcements, said after nearly every turn."""
SILENCE = 300
"""Samples quieter than this (of 32767) are the silence around a sentence."""


def announcements(edition_id: str) -> list[tuple[str, tuple[Event, ...]]]:
    """(kind, events) of every common announcement of an edition, with two players rich enough for all."""
    edition = load_edition(edition_id)
    start = {"action": "new_game", "edition": edition_id, "players": ["Ann", "Bob"],
             "rules": {"starting_cash": 100_000}}
    found: list[tuple[str, tuple[Event, ...]]] = []

    def run(kind: str, *lines: dict[str, Any]) -> None:
        result = replay_lines([json.dumps(line) for line in (start, *lines)], board=True)
        found.append((kind, result.events[-1][1]))

    for prop in edition.properties:
        buy = {"action": "buy", "player": "Ann", "property": prop.id}
        run("buy", buy)
        rent: dict[str, Any] = {"action": "rent", "player": "Bob", "property": prop.id}
        if prop.kind == "utility":
            rent["dice"] = 7
        run("rent", buy, rent)
        if prop.kind == "street":
            group = [edition.properties[n].id for n in edition.groups[prop.group]]
            buys = [{"action": "buy", "player": "Ann", "property": p} for p in group]
            builds = [{"action": "build", "player": "Ann", "property": p} for _ in range(5) for p in group]
            run("rent", *buys, *builds, rent)
    run("salary", {"action": "salary", "player": "Ann"})
    for square in edition.squares:
        if square.kind == "tax":
            run("tax", {"action": "tax", "player": "Ann", "square": square.id})
    run("payment", {"action": "pay", "player": "Ann", "amount": 50, "to": "Bob"})
    return found


def spoken_seconds(text: str, language: str, rate: int = DEFAULT_RATE, espeak: str = "espeak-ng") -> float:
    """How long espeak-ng takes to say ``text`` in ``language`` at ``rate`` words a minute."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sentence.wav"
        subprocess.run([espeak, "-v", LANGUAGE_VOICES[language], "-s", str(rate), "-w", str(path)],
                       input=text.encode("utf-8"), check=True, capture_output=True, timeout=30)
        with wave.open(str(path)) as sound:
            rate_hz = sound.getframerate()
            samples = array.array("h", sound.readframes(sound.getnframes()))
    loud = [i for i, sample in enumerate(samples) if abs(sample) > SILENCE]
    return (loud[-1] - loud[0]) / rate_hz if loud else 0.0


def bench_writing() -> dict[str, float]:
    """Milliseconds to write a Russian sentence: the first (loading the dictionaries) and a later one."""
    import banker.inflect as inflect

    inflect._analyzer.cache_clear()
    inflect._petrovich.cache_clear()
    events = announcements("ru")
    started = time.perf_counter()
    say(load_edition("ru"), events[0][1], "ru")
    first = time.perf_counter() - started
    started = time.perf_counter()
    for _, sentence_events in events:
        say(load_edition("ru"), sentence_events, "ru")
    later = (time.perf_counter() - started) / len(events)
    return {"speech_first_russian_sentence_ms": round(first * 1000, 1),
            "speech_russian_sentence_ms": round(later * 1000, 2)}


def bench_speech(rate: int = DEFAULT_RATE) -> dict[str, Any]:
    """The spoken length of the common announcements (the longest and the median, seconds) per language,
    kind and voice ("full", "short"), over every edition; and the time to write them."""
    figures: dict[str, Any] = dict(bench_writing())
    if shutil.which("espeak-ng") is None:
        figures["speech_lengths"] = "not measured: espeak-ng is not installed"
        return figures
    lengths: dict[tuple[str, str, str], list[float]] = {}
    for edition_id in available_editions():
        edition = load_edition(edition_id)
        for kind, events in announcements(edition_id):
            for language in LANGUAGES:
                for voice in ("full", "short"):
                    text = say(edition, events, language, short=voice == "short")
                    lengths.setdefault((language, kind, voice), []).append(spoken_seconds(text, language, rate))
    for (language, kind, voice), seconds in sorted(lengths.items()):
        figures[f"speech_{language}_{kind}_{voice}_longest_s"] = round(max(seconds), 2)
        figures[f"speech_{language}_{kind}_{voice}_median_s"] = round(statistics.median(seconds), 2)
    return figures
