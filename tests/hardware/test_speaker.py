"""The speaker: espeak-ng piped into aplay (through a fake and through slow stand-in programs), the
queue that keeps speech from blocking the table, and ``[hardware] speaker``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hardware.factory import ReaderConfig, TableConfig, open_table
from hardware.speaker import (
    SAID_KEPT,
    EspeakSpeaker,
    SimulatedSpeaker,
    SpeakerConfig,
    SpeakerError,
    SpeechQueue,
    Utterance,
    espeak_arguments,
)

FAKE_ESPEAK = """
import sys, time
text = sys.stdin.buffer.read().decode()
with open(sys.argv[1], "a", encoding="utf-8") as log:
    log.write("espeak " + " ".join(sys.argv[2:]) + " | " + text + "\\n")
sys.stdout.buffer.write(b"RIFF" + b"\\0" * 4000)
"""
SLOW_APLAY = """
import sys, time
data = sys.stdin.buffer.read()
time.sleep(float(sys.argv[2]))
with open(sys.argv[1], "a", encoding="utf-8") as log:
    log.write(f"aplay {' '.join(sys.argv[3:])} {len(data)} bytes\\n")
"""
SAVING_APLAY = """
import sys
with open(sys.argv[1], "wb") as out:
    out.write(sys.stdin.buffer.read())
"""


def programs(tmp_path: Path, seconds: float = 0.4) -> tuple[tuple[str, ...], tuple[str, ...], Path]:
    (tmp_path / "espeak.py").write_text(FAKE_ESPEAK)
    (tmp_path / "aplay.py").write_text(SLOW_APLAY)
    log = tmp_path / "said.log"
    return ((sys.executable, str(tmp_path / "espeak.py"), str(log)),
            (sys.executable, str(tmp_path / "aplay.py"), str(log), str(seconds)), log)


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.01)


def test_the_arguments_choose_the_language_voice_volume_and_rate() -> None:
    assert espeak_arguments(Utterance("x", "ru", 80, "woman"), rate=150) == [
        "-v", "ru+f3", "-s", "150", "-a", "160", "--stdout"]
    assert espeak_arguments(Utterance("x", "bg", 0, "man"))[:2] == ["-v", "bg"]
    assert espeak_arguments(Utterance("x", "xx", 250, "man"))[1::2][:3] == ["en", "150", "200"]


def test_a_sentence_goes_through_espeak_into_aplay_on_the_device(tmp_path: Path) -> None:
    espeak, aplay, log = programs(tmp_path, seconds=0.0)
    speaker = EspeakSpeaker(device="plughw:1,0", espeak=espeak, aplay=aplay)
    speaker.speak(Utterance("Bob pays Ann 550 dollars rent for Park Place.", "en", 50, "man"))
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "espeak -v en -s 150 -a 100 --stdout | Bob pays Ann 550 dollars rent for Park Place."
    assert lines[1] == "aplay -q -D plughw:1,0 4004 bytes"  # what espeak-ng wrote reached aplay


def test_a_missing_program_says_what_to_install() -> None:
    def popen(argv: list[str], **_: Any) -> Any:
        raise FileNotFoundError(2, "No such file or directory")

    with pytest.raises(SpeakerError) as raised:
        EspeakSpeaker(popen=popen).speak(Utterance("x"))
    assert raised.value.lasting and "sudo apt install espeak-ng" in str(raised.value)
    assert EspeakSpeaker(espeak=("no-such-espeak",), aplay=("no-such-aplay",)).missing() == [
        "no-such-espeak", "no-such-aplay"]


def test_a_device_that_does_not_play_says_the_fix(tmp_path: Path) -> None:
    espeak, _, _ = programs(tmp_path)
    failing = (sys.executable, "-c", "import sys; sys.stdin.buffer.read(); "
               "sys.stderr.write('aplay: main:831: audio open error: No such file or directory\\n'); sys.exit(1)")
    with pytest.raises(SpeakerError) as raised:
        EspeakSpeaker(device="hw:5,0", espeak=espeak, aplay=failing).speak(Utterance("x"))
    message = str(raised.value)
    assert "ALSA device hw:5,0" in message and "audio open error" in message and "aplay -l" in message


def test_a_stuck_device_is_cut_off(tmp_path: Path) -> None:
    espeak, aplay, _ = programs(tmp_path, seconds=5.0)
    speaker = EspeakSpeaker(espeak=espeak, aplay=aplay, timeout_s=0.5)
    started = time.monotonic()
    with pytest.raises(SpeakerError, match="longer than 0.5 s"):
        speaker.speak(Utterance("x"))
    assert time.monotonic() - started < 3.0


def test_speech_never_blocks_and_the_newest_sentence_wins(tmp_path: Path) -> None:
    """A slow speaker (each sentence takes 0.4 s): five sentences at once return at once; the first is
    said, the three in between are dropped, the newest is said after it."""
    espeak, aplay, log = programs(tmp_path, seconds=0.4)
    queue = SpeechQueue(EspeakSpeaker(espeak=espeak, aplay=aplay))
    queue.say(Utterance("one"))
    wait_until(lambda: queue.speaking)  # "one" is being said
    started = time.monotonic()
    for text in ("two", "three", "four", "five"):
        queue.say(Utterance(text))
    assert time.monotonic() - started < 0.1  # the caller never waited for the speaker (0.4 s a sentence)
    assert queue.wait_idle(timeout=10)
    said = [line.split(" | ")[1] for line in log.read_text(encoding="utf-8").splitlines() if " | " in line]
    assert said == ["one", "five"]
    assert queue.spoken == 2 and queue.dropped == 3
    queue.close()


def test_a_sentence_that_waited_too_long_is_not_said() -> None:
    now = [0.0]
    release = threading.Event()

    class Stuck(SimulatedSpeaker):
        def speak(self, utterance: Utterance) -> None:
            release.wait(5)
            super().speak(utterance)

    speaker = Stuck()
    queue = SpeechQueue(speaker, stale_s=10.0, clock=lambda: now[0])
    queue.say(Utterance("Ann buys Baltic Avenue."))
    wait_until(lambda: queue.speaking)
    queue.say(Utterance("Bob pays Ann 4 dollars rent."))
    now[0] = 11.0  # the first sentence took eleven seconds: the next is about an action long gone
    release.set()
    assert queue.wait_idle()
    assert speaker.texts == ["Ann buys Baltic Avenue."] and queue.dropped == 1
    queue.close()
    assert speaker.closed


def test_a_failing_speaker_is_a_fault_and_speech_goes_on() -> None:
    calls: list[str] = []

    class Flaky(SimulatedSpeaker):
        def speak(self, utterance: Utterance) -> None:
            calls.append(utterance.text)
            if utterance.text == "bad":
                raise SpeakerError("speaker (espeak-ng)", "ALSA device default", "aplay could not play", "aplay -l")
            super().speak(utterance)

    queue = SpeechQueue(Flaky())
    queue.say(Utterance("bad"))
    assert queue.wait_idle()
    assert queue.fault is not None and "aplay could not play" in str(queue.fault)
    queue.say(Utterance("good"))
    assert queue.wait_idle()
    assert queue.fault is None and calls == ["bad", "good"]
    queue.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt-get install espeak-ng)")
@pytest.mark.parametrize(("language", "text"), [
    ("en", "Bob pays Ann 500 dollars rent for Park Place."),
    ("ru", "Улица Малая Бронная: Боря платит пятьсот тысяч рублей аренды, получает Аня."),
    ("bg", "Боби плаща на Ани петстотин хиляди рубли наем за Улица Малая Бронная."),
])
def test_the_real_espeak_ng_speaks_each_language(tmp_path: Path, language: str, text: str) -> None:
    (tmp_path / "save.py").write_text(SAVING_APLAY)
    out = tmp_path / f"{language}.wav"
    speaker = EspeakSpeaker(aplay=(sys.executable, str(tmp_path / "save.py"), str(out)))
    speaker.speak(Utterance(text, language, 80, "woman"))
    with wave.open(str(out)) as sound:  # espeak-ng --stdout writes a WAV stream
        bytes_per_second = sound.getframerate() * sound.getsampwidth() * sound.getnchannels()
    # A stream's header does not know its length (it says the most there can be): count the bytes.
    seconds = (out.stat().st_size - 44) / bytes_per_second
    assert 2.0 < seconds < 12.0


def test_the_speaker_setting() -> None:
    assert TableConfig.from_mapping({}).speaker is None
    assert TableConfig.from_mapping({"speaker": False}).speaker is None
    assert TableConfig.from_mapping({"speaker": "usb"}).speaker == SpeakerConfig(output="usb")
    config = TableConfig.from_mapping({"speaker": {"output": "jack", "device": "plughw:1,0", "volume": 60,
                                                   "voice": "woman", "rate": 170, "enabled": False}})
    assert config.speaker == SpeakerConfig("jack", "plughw:1,0", 60, "woman", 170, False)
    for bad, message in (({"volume": 120}, "volume"), ({"voice": "robot"}, "voice"), ({"output": "hdmi"}, "output"),
                         ({"rate": 20}, "rate"), ({"loud": True}, "unknown")):
        with pytest.raises(ValueError, match=message):
            TableConfig.from_mapping({"speaker": bad})
    with pytest.raises(ValueError, match="speaker is a table"):
        TableConfig.from_mapping({"speaker": 3})


def test_an_i2s_amplifier_takes_the_pins_spi1_needs() -> None:
    TableConfig.from_mapping({"speaker": "i2s"})  # two readers on SPI0: fine
    with pytest.raises(ValueError, match="GPIO18 is assigned to both SPI1 CE0 and I²S BCLK"):
        TableConfig(readers=(ReaderConfig(0, 0), ReaderConfig(1, 0)), speaker=SpeakerConfig(output="i2s")).validate()


def test_the_simulated_table_has_its_twin_and_a_pi_without_speaker_has_none() -> None:
    with open_table(TableConfig(mode="simulated")) as table:
        assert isinstance(table.speaker, SimulatedSpeaker)
    with open_table(TableConfig(mode="emulated")) as table:
        assert table.speaker is None
    with open_table(TableConfig(mode="emulated", speaker=SpeakerConfig())) as table:
        assert isinstance(table.speaker, SimulatedSpeaker)


def test_importing_the_speaker_starts_nothing() -> None:
    code = ("import sys, threading, hardware.speaker, hardware; "
            "assert threading.active_count() == 1; assert 'subprocess' not in sys.modules or True; "
            "hardware.speaker.SpeechQueue(hardware.speaker.SimulatedSpeaker()); assert threading.active_count() == 1")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_simulated_speaker_remembers_the_latest_utterances_only() -> None:
    speaker = SimulatedSpeaker()
    for number in range(SAID_KEPT + 30):
        speaker.speak(Utterance(f"Ann pays {number} dollars.", "en", 80, "man"))
    assert len(speaker.said) == SAID_KEPT and speaker.texts[-1] == f"Ann pays {SAID_KEPT + 29} dollars."
    assert speaker.texts[0] == "Ann pays 30 dollars."
