"""The table says each action aloud (the speaker's simulated twin records it), in its language, for the
phones' actions too; setup switches it, makes it louder or quieter and changes the voice, and the
settings survive a restart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from banker.actions import Salary
from banker.journal import Journal
from banker.session import Session
from firmware.loop import TableLoop
from firmware.voice import SpeechSettings
from hardware.factory import TableConfig, open_table
from hardware.speaker import SimulatedSpeaker, SpeakerConfig
from tests.firmware.conftest import Play


def said(game: Play) -> list[str]:
    loop = game.script.loop
    assert loop.speech_queue is not None and loop.speech_queue.wait_idle()
    speaker = game.script.table.speaker
    assert isinstance(speaker, SimulatedSpeaker)
    return speaker.texts


def test_the_table_says_what_was_done(make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    game.do("tap:Ann", "tap:baltic", "ok")
    assert said(game)[-1] == "Ann buys Baltic Avenue for 60."
    game.script.session.submit(Salary("Bob"))  # from a phone: the table says it too
    game.do("wait:1")
    assert said(game)[-1] == "Bob collects 200 dollars salary."
    speaker = game.script.table.speaker
    assert isinstance(speaker, SimulatedSpeaker)
    assert {(u.language, u.volume, u.voice) for u in speaker.said} == {("en", 80, "man")}


def test_it_speaks_the_tables_language(make_play: Callable[..., Play]) -> None:
    game = make_play("Аня", "Боря", edition="ru", language="ru")
    game.do("tap:Аня", "tap:arbat", "ok")
    sentence = said(game)[-1]
    assert "Аня" in sentence and "Арбат" in sentence and not any("a" <= ch <= "z" for ch in sentence.lower())


def test_setup_switches_the_speaker_and_changes_its_volume_and_voice(make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    heard: list[dict[str, object] | None] = []
    game.script.loop.add_speech_listener(lambda: heard.append(game.script.loop.speech()))
    game.do("hold:ok")
    game.choose("Speech")
    assert game.screen().splitlines()[1:5] == ["Speech: on", "Louder (80 %)", "Quieter (80 %)", "Voice: a man's"]
    game.choose("Louder")
    assert "Louder (90 %)" in game.screen()  # the menu stays, with the new volume
    assert said(game)[-1] == "The table speaks at 90 percent."
    game.choose("Voice: a man's")
    assert "Voice: a woman's" in game.screen()
    game.choose("Speech: on")
    assert "Speech: off" in game.screen()
    settings = game.script.loop.speech_settings
    assert settings == SpeechSettings(on=False, volume=90, voice="woman")
    assert SpeechSettings.from_json(game.script.journal.setting("speech"), SpeechSettings()) == settings
    # Each change is told at once (the phones' stream sends it to the simulated table's page).
    assert [h["volume"] if h else None for h in heard] == [90, 90, 90]
    assert heard[-1] == {"on": False, "volume": 90, "voice": "woman", "short": False}
    before = len(said(game))
    game.do("cancel", "cancel", "tap:Ann", "tap:go", "ok")
    assert len(said(game)) == before  # off: nothing more is said


def test_the_short_voice_says_only_the_names_and_the_amount(make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    game.do("tap:Ann", "tap:baltic", "ok")
    assert said(game)[-1] == "Ann buys Baltic Avenue for 60."
    game.script.loop.change_speech(True, 80, "man", short=True)
    game.do("tap:Bob", "tap:baltic", "ok")
    assert said(game)[-1] == "Bob to Ann, 4."
    game.do("tap:Bob", "tap:go", "ok")
    assert said(game)[-1] == "Bob, plus 200."
    saved = SpeechSettings.from_json(game.script.journal.setting("speech"), SpeechSettings())
    assert saved.short and game.script.loop.speech() == {"on": True, "volume": 80, "voice": "man", "short": True}


def test_the_settings_start_from_the_config_and_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    config = TableConfig(mode="emulated", speaker=SpeakerConfig(volume=40, voice="woman"))
    with Journal(path) as journal, open_table(config) as table:
        loop = TableLoop(Session(journal), table, speech=SpeechSettings.starting(config.speaker))
        assert loop.speech_settings == SpeechSettings(True, 40, "woman")
        loop.set_speech(SpeechSettings(True, 70, "man"))
        loop.stop()
    with Journal(path) as journal, open_table(config) as table:
        loop = TableLoop(Session(journal), table, speech=SpeechSettings.starting(config.speaker))
        assert loop.speech_settings == SpeechSettings(True, 70, "man")
        loop.stop()
    with Journal(tmp_path / "other.sqlite3") as journal, open_table(TableConfig(mode="emulated")) as table:
        loop = TableLoop(Session(journal), table)
        assert loop.speech_queue is None and loop.speech_settings is None
        assert loop.context().speech is None  # no speaker: setup has no Speech item
        loop.stop()


def test_unusable_saved_settings_fall_back_field_by_field() -> None:
    default = SpeechSettings(True, 80, "man")
    assert SpeechSettings.from_json("not json", default) == default
    assert SpeechSettings.from_json('{"volume": 250, "voice": "robot", "on": "yes"}', default) == \
        SpeechSettings(True, 100, "man")
    assert SpeechSettings.starting(None) == SpeechSettings(on=False)
