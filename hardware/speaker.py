"""The speaker: espeak-ng to ALSA, and a queue that keeps speech from ever holding up the table.

- :class:`EspeakSpeaker` runs ``espeak-ng --stdout`` piped into ``aplay`` (both from Debian's
  packages: ``espeak-ng`` and ``alsa-utils``), once per sentence. The sound goes wherever the ALSA
  device points: the 3.5 mm jack of a Pi 3/4, a USB speaker, or an I²S amplifier (MAX98357A) on a
  Pi Zero 2 W (hardware/README.md, "The speaker"). Nothing is imported and nothing is started until
  a sentence is said; the two programs are started through ``popen``, which tests replace.
- :class:`SimulatedSpeaker` records what it would say (the simulated table and the tests).
- :class:`SpeechQueue` is what the table talks to: :meth:`SpeechQueue.say` returns at once; one
  thread of its own speaks. It holds at most ``max_waiting`` sentences: a newer one pushes the
  oldest waiting one out (newest wins), and a sentence that waited longer than ``stale_s`` is
  dropped unsaid (it is about an action long gone).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal, Protocol, runtime_checkable

from hardware.errors import HardwareError

log = logging.getLogger(__name__)

SpeakerOutput = Literal["jack", "usb", "i2s"]
SPEAKER_OUTPUTS: tuple[SpeakerOutput, ...] = ("jack", "usb", "i2s")
VOICES = ("man", "woman")
"""The voices offered at the table and on the banker's phone."""
VOICE_VARIANTS = {"man": "", "woman": "+f3"}
"""espeak-ng's variant for each voice (``-v ru+f3``); the plain voice is a man's."""
LANGUAGE_VOICES = {"en": "en", "ru": "ru", "bg": "bg"}
"""The espeak-ng voice of each table language."""
DEFAULT_RATE = 150
"""Words per minute: a little slower than espeak-ng's 175, for a table of people talking."""
SPEAK_TIMEOUT_S = 30.0
"""A sentence that takes longer than this to say is cut off (a stuck sound device)."""
I2S_PINS = {"I²S BCLK": 18, "I²S LRCLK": 19, "I²S DIN": 20, "I²S DOUT": 21}
"""BCM pins the Pi's I²S interface takes once ``dtoverlay=max98357a`` is on (the amplifier uses
BCLK, LRCLK and DOUT; the overlay claims the whole group)."""


I2S_CARD = "MAX98357A"
"""The ALSA card ``dtoverlay=max98357a`` makes (``aplay -l``: ``card 1: MAX98357A [MAX98357A]``)."""
I2S_DEVICE = f"plughw:CARD={I2S_CARD},DEV=0"
"""The amplifier by its card's name: with ``dtparam=audio=on`` still in config.txt the headphone output is
card 0 and ALSA's ``default``, and the amplifier would stay silent."""
ASOUND_CARDS = "/proc/asound/cards"


def alsa_cards(path: str = ASOUND_CARDS) -> dict[int, str]:
    """The sound cards the kernel has, by number: their short names (``{0: "Headphones", 1: "MAX98357A"}``),
    from ``/proc/asound/cards`` (lines `` 1 [MAX98357A      ]: RPi-simple - MAX98357A``); empty when there
    is none or the file cannot be read."""
    cards: dict[int, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as text:
            for line in text:
                head, _, _ = line.partition("]")
                number, _, name = head.partition("[")
                if number.strip().isdigit() and name:
                    cards[int(number)] = name.strip()
    except OSError:
        return {}
    return cards


def card_of(device: str) -> str | int | None:
    """The card an ALSA device names: ``plughw:CARD=MAX98357A,DEV=0`` → ``"MAX98357A"``, ``plughw:1,0`` →
    ``1``, ``default`` (or anything else) → ``None``."""
    _, _, rest = device.partition(":")
    if not rest:
        return None
    for part in rest.split(","):
        key, equals, value = part.partition("=")
        if equals and key == "CARD":
            return int(value) if value.isdigit() else value
        if not equals:
            return int(key) if key.isdigit() else key
    return None


class SpeakerError(HardwareError):
    """espeak-ng or aplay is missing, or the sound device does not take the sound."""


@dataclass(frozen=True)
class SpeakerConfig:
    """The speaker as ``[hardware] speaker`` sets it (every key optional)."""

    output: SpeakerOutput = "jack"
    """Where the sound leaves the Pi: the 3.5 mm ``jack``, a ``usb`` speaker, or an ``i2s`` amplifier
    (its pins are then taken: GPIO 18-21)."""
    device: str = "default"
    """The ALSA device ``aplay -D`` plays on (``aplay -L`` lists them; ``plughw:1,0``: the second card)."""
    volume: int = 80
    """0-100, the starting volume (the table's setup and the banker's phone change it)."""
    voice: str = "man"
    """``man`` or ``woman``, the starting voice."""
    rate: int = DEFAULT_RATE
    """Words per minute, 80-450."""
    enabled: bool = True
    """Whether the table speaks when it starts (setup and the banker's phone switch it)."""

    def __post_init__(self) -> None:
        if self.output == "i2s" and self.device == "default":
            object.__setattr__(self, "device", I2S_DEVICE)  # the amplifier's card, never the headphones'

    def validate(self) -> None:
        """Raises:
            ValueError: an unknown output or voice, a volume outside 0-100, a rate outside 80-450, an
                empty device.
        """
        if self.output not in SPEAKER_OUTPUTS:
            raise ValueError(f"speaker output is one of {', '.join(SPEAKER_OUTPUTS)}, not {self.output!r}")
        if self.voice not in VOICES:
            raise ValueError(f"speaker voice is one of {', '.join(VOICES)}, not {self.voice!r}")
        if isinstance(self.volume, bool) or not isinstance(self.volume, int) or not 0 <= self.volume <= 100:
            raise ValueError(f"speaker volume is a whole number 0-100, not {self.volume!r}")
        if isinstance(self.rate, bool) or not isinstance(self.rate, int) or not 80 <= self.rate <= 450:
            raise ValueError(f"speaker rate is 80-450 words a minute, not {self.rate!r}")
        if not isinstance(self.device, str) or not self.device:
            raise ValueError("speaker device is an ALSA device name such as default or plughw:1,0")
        if not isinstance(self.enabled, bool):
            raise ValueError(f"speaker enabled is true or false, not {self.enabled!r}")

    def assigned(self) -> dict[str, int]:
        """The GPIO pins the speaker takes (only an I²S amplifier takes any)."""
        return dict(I2S_PINS) if self.output == "i2s" else {}


@dataclass(frozen=True)
class Utterance:
    """One sentence as it is to be said."""

    text: str
    language: str = "en"
    volume: int = 80
    voice: str = "man"


@runtime_checkable
class Speaker(Protocol):
    """Says one sentence and returns when it has been said."""

    def speak(self, utterance: Utterance) -> None:
        """Raises:
            SpeakerError: the programs are missing or the sound device did not play.
        """
        ...

    def close(self) -> None: ...


def espeak_arguments(utterance: Utterance, rate: int = DEFAULT_RATE) -> list[str]:
    """espeak-ng's arguments for ``utterance`` (the text itself goes in on standard input):
    ``["-v", "ru+f3", "-s", "150", "-a", "160", "--stdout"]``. Volume 0-100 is espeak-ng's amplitude
    0-200 (its own default, 100, is volume 50)."""
    voice = LANGUAGE_VOICES.get(utterance.language, "en") + VOICE_VARIANTS.get(utterance.voice, "")
    amplitude = max(0, min(100, utterance.volume)) * 2
    return ["-v", voice, "-s", str(rate), "-a", str(amplitude), "--stdout"]


Popen = Callable[..., Any]


class EspeakSpeaker:
    """espeak-ng piped into aplay, one pair of processes per sentence.

    ``espeak`` and ``aplay`` are the commands (a path and leading arguments), ``popen`` starts them
    (:class:`subprocess.Popen`; tests pass fakes, or point the commands at slow stand-in programs).
    """

    def __init__(self, *, device: str = "default", rate: int = DEFAULT_RATE,
                 espeak: Sequence[str] = ("espeak-ng",), aplay: Sequence[str] = ("aplay",),
                 popen: Popen = subprocess.Popen, timeout_s: float = SPEAK_TIMEOUT_S) -> None:
        self.device = device
        self.rate = rate
        self.espeak = tuple(espeak)
        self.aplay = tuple(aplay)
        self._popen = popen
        self.timeout_s = timeout_s
        self.bus = f"ALSA device {device}"

    def _error(self, problem: str, fix: str, *, lasting: bool = False, key: str = "", fix_key: str = "",
               **values: Any) -> SpeakerError:
        return SpeakerError("speaker (espeak-ng)", self.bus, problem, fix, lasting=lasting, key=key, fix_key=fix_key,
                            values={"device": self.device, **values}, part="speaker")

    def missing(self) -> list[str]:
        """The programs that are not installed (empty when both are)."""
        return [command[0] for command in (self.espeak, self.aplay) if shutil.which(command[0]) is None]

    def speak(self, utterance: Utterance) -> None:
        """Say ``utterance`` on the device; returns when it has been said.

        Raises:
            SpeakerError: espeak-ng or aplay is not installed (lasting), espeak-ng failed, or aplay
                could not play on the device (both say the fix), or it took longer than ``timeout_s``.
        """
        synth_argv = [*self.espeak, *espeak_arguments(utterance, self.rate)]
        play_argv = [*self.aplay, "-q", "-D", self.device]
        try:
            synth = self._popen(synth_argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        except OSError as error:
            raise self._error(f"cannot start {self.espeak[0]} ({error.strerror or error})",
                              "sudo apt install espeak-ng (or firmware/install.sh --speaker jack)",
                              lasting=True, key="cannot_start", fix_key="espeak_fix", program=self.espeak[0],
                              error=str(error.strerror or error)) from error
        try:
            play = self._popen(play_argv, stdin=synth.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as error:
            synth.kill()
            synth.wait()
            raise self._error(f"cannot start {self.aplay[0]} ({error.strerror or error})",
                              "sudo apt install alsa-utils (or firmware/install.sh --speaker jack)",
                              lasting=True, key="cannot_start", fix_key="aplay_fix", program=self.aplay[0],
                              error=str(error.strerror or error)) from error
        if synth.stdout is not None:
            synth.stdout.close()  # aplay holds the pipe now; espeak-ng sees it close if aplay stops
        try:
            _write(synth.stdin, utterance.text)
            play.wait(timeout=self.timeout_s)
            synth.wait(timeout=self.timeout_s)
        except subprocess.TimeoutExpired as error:
            for process in (synth, play):
                process.kill()
                process.wait()
            raise self._error(f"saying one sentence took longer than {self.timeout_s:g} s",
                              "check that aplay -D " + self.device + " plays (speaker-test -c 2 -t wav)",
                              key="too_long", fix_key="too_long_fix", seconds=f"{self.timeout_s:g}") from error
        play_err = _read(play.stderr)
        synth_err = _read(synth.stderr)
        if play.returncode != 0:
            reason = play_err or "status " + str(play.returncode)
            raise self._error(f"aplay could not play ({reason})",
                              "aplay -l lists the sound cards: set [hardware] speaker device, e.g. "
                              "device = \"plughw:1,0\" for a USB speaker, and for an I²S amplifier "
                              "dtoverlay=max98357a in /boot/firmware/config.txt",
                              key="aplay_failed", fix_key="aplay_failed_fix", error=reason)
        if synth.returncode != 0:
            reason = synth_err or "status " + str(synth.returncode)
            raise self._error(f"espeak-ng failed ({reason})",
                              "espeak-ng --voices lists the installed voices: sudo apt install espeak-ng-data",
                              key="espeak_failed", fix_key="espeak_failed_fix", error=reason)

    def close(self) -> None:
        return None


def _write(stream: IO[bytes] | None, text: str) -> None:
    if stream is None:
        return
    try:
        stream.write(text.encode("utf-8"))
        stream.close()
    except (BrokenPipeError, OSError):
        pass  # the program ended early; its status says why


def _read(stream: IO[bytes] | None) -> str:
    if stream is None:
        return ""
    try:
        lines = stream.read().decode("utf-8", "replace").strip().splitlines()
    except (OSError, ValueError):
        return ""
    return lines[-1] if lines else ""


SAID_KEPT = 500
"""Utterances a simulated speaker remembers (the latest): a long game does not grow its memory."""


class SimulatedSpeaker:
    """Records what it would say: :attr:`said` is every utterance, oldest first (the latest :data:`SAID_KEPT`)."""

    def __init__(self, *, seconds: float = 0.0, sleep: Callable[[float], None] = time.sleep) -> None:
        self.said: deque[Utterance] = deque(maxlen=SAID_KEPT)
        self.seconds = seconds
        """How long each sentence takes (0: at once), to play a slow speaker in a test."""
        self._sleep = sleep
        self.closed = False

    def speak(self, utterance: Utterance) -> None:
        if self.seconds:
            self._sleep(self.seconds)
        self.said.append(utterance)

    @property
    def texts(self) -> list[str]:
        return [u.text for u in self.said]

    def close(self) -> None:
        self.closed = True


MAX_WAITING = 1
"""Sentences waiting behind the one being said: a newer one replaces the oldest."""
STALE_S = 10.0
"""A sentence not begun this long after its action is not said any more."""


class SpeechQueue:
    """Speech that never blocks the caller: a bounded queue, newest wins, stale sentences dropped."""

    def __init__(self, speaker: Speaker, *, max_waiting: int = MAX_WAITING, stale_s: float = STALE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.speaker = speaker
        self.max_waiting = max(1, max_waiting)
        self.stale_s = stale_s
        self._clock = clock
        self._waiting: deque[tuple[float, Utterance]] = deque()
        self._lock = threading.Condition()
        self._busy = False
        self._closed = False
        self.spoken = 0
        """Sentences said."""
        self.dropped = 0
        """Sentences dropped unsaid: pushed out by newer ones, or stale."""
        self.fault: SpeakerError | None = None
        """The speaker's last error while it fails, else ``None``."""
        self._thread: threading.Thread | None = None
        """Started with the first sentence."""

    def say(self, utterance: Utterance) -> None:
        """Queue ``utterance`` and return at once."""
        if not utterance.text.strip():
            return
        with self._lock:
            if self._closed:
                return
            self._waiting.append((self._clock(), utterance))
            while len(self._waiting) > self.max_waiting:
                self._waiting.popleft()
                self.dropped += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="table-speech", daemon=True)
                self._thread.start()
            self._lock.notify()

    @property
    def speaking(self) -> bool:
        """A sentence is being said now."""
        with self._lock:
            return self._busy

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until nothing is waiting or being said (for tests and ``banker check``); True if so."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._waiting or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True

    def _next(self) -> Utterance | None:
        with self._lock:
            while True:
                while not self._waiting and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return None
                queued_at, utterance = self._waiting.popleft()
                if self._clock() - queued_at > self.stale_s:
                    self.dropped += 1
                    self._lock.notify_all()
                    continue
                self._busy = True
                return utterance

    def _run(self) -> None:
        while (utterance := self._next()) is not None:
            try:
                self.speaker.speak(utterance)
                if self.fault is not None:
                    log.warning("the speaker speaks again")
                self.fault = None
                self.spoken += 1
            except SpeakerError as error:
                if self.fault is None:
                    log.error("the speaker did not say %r: %s", utterance.text, error)
                self.fault = error
            except Exception:  # a fault in the speaker must not end the speech thread
                log.exception("the speaker failed")
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()

    def close(self, timeout: float = 2.0) -> None:
        """Stop after the sentence being said (waiting ones are dropped) and close the speaker."""
        with self._lock:
            self._closed = True
            self._waiting.clear()
            self._lock.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
        self.speaker.close()
