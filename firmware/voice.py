"""What the table's speaker is set to, and the sentence it says after an action.

The settings (on or off, volume, voice, short) start from ``[hardware] speaker`` and are kept in the
journal's settings under ``speech`` once the table's setup or the banker's phone changes them, so a
restart keeps them. The sentence is the engine's (:func:`banker.speech.say`), in the table's language.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace

from banker.edition import Edition
from banker.ledger import Event
from banker.speech import say
from hardware.speaker import VOICES, SpeakerConfig, Utterance

SETTING = "speech"
"""The journal setting that keeps the speaker's settings, as JSON."""
VOLUME_STEP = 10


@dataclass(frozen=True)
class SpeechSettings:
    on: bool = True
    volume: int = 80
    """0-100."""
    voice: str = "man"
    """``man`` or ``woman``."""
    short: bool = False
    """The short voice: the common announcements (a rent, a purchase, the salary, a tax, a payment) say only
    the names and the amount ("Bob to Ann, 550.")."""

    @classmethod
    def starting(cls, config: SpeakerConfig | None) -> SpeechSettings:
        """The settings ``[hardware] speaker`` starts with (a table without one starts silent)."""
        if config is None:
            return cls(on=False)
        return cls(on=config.enabled, volume=config.volume, voice=config.voice)

    def to_json(self) -> str:
        return json.dumps({"on": self.on, "volume": self.volume, "voice": self.voice, "short": self.short})

    @classmethod
    def from_json(cls, text: str | None, default: SpeechSettings) -> SpeechSettings:
        """The saved settings, each field that is missing or unusable taken from ``default``."""
        try:
            data = json.loads(text or "{}")
        except ValueError:
            return default
        if not isinstance(data, dict):
            return default
        return default.changed(on=data.get("on"), volume=data.get("volume"), voice=data.get("voice"),
                               short=data.get("short"))

    def changed(self, *, on: object = None, volume: object = None, voice: object = None,
                short: object = None) -> SpeechSettings:
        """These settings with the given ones changed; a value that cannot be used leaves its field as
        it is (a volume is brought into 0-100)."""
        new = self
        if isinstance(on, bool):
            new = replace(new, on=on)
        if isinstance(volume, int) and not isinstance(volume, bool):
            new = replace(new, volume=max(0, min(100, volume)))
        if voice in VOICES:
            new = replace(new, voice=str(voice))
        if isinstance(short, bool):
            new = replace(new, short=short)
        return new

    def louder(self, steps: int = 1) -> SpeechSettings:
        return self.changed(volume=self.volume + steps * VOLUME_STEP)

    def utterance(self, text: str, language: str) -> Utterance:
        return Utterance(text, language, self.volume, self.voice)


def sentence(edition: Edition, events: Iterable[Event], language: str, *, short: bool = False) -> str:
    """What the table says after an action with these events (empty: nothing to say); ``short``: the short
    voice's sentence."""
    return say(edition, tuple(events), language, short=short)
