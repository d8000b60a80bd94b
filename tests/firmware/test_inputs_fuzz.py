"""Random files and tags at every door of the table program besides the HTTP API: the settings file,
the enrolled tags kept in the journal, the edition files and NFC UIDs of every length. Each gives a
usable value or a named error (ConfigError, EditionError, TagError), never anything else."""

from __future__ import annotations

import contextlib
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.actions import NewGame
from banker.edition import EDITIONS_DIR, load_edition_file
from banker.errors import EditionError
from banker.journal import Journal
from banker.session import Session
from firmware.config import ConfigError, load_config
from firmware.loop import TableLoop
from firmware.tags import TagError, TagSet, parse_meaning
from hardware.factory import TableConfig, open_table
from hardware.iso14443 import format_uid, parse_uid
from hardware.taps import Tap

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

SCALARS = (st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
           | st.text(max_size=12) | st.sampled_from(["en", "ru", "xx", "us", "0.0.0.0", "sh1106", "0x3C", "lgpio"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
KEYS = st.sampled_from(["language", "edition", "data_dir", "host", "port", "readers", "display", "controls",
                        "pin_factory", "bus", "device", "rst_pin", "chip", "address", "ok", "junk"])


def toml_value(value: Any) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if value == value and abs(value) != float("inf") else "0"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f'"{k}" = {toml_value(v)}'.replace('"', '"') for k, v in value.items()) + "}"


@st.composite
def config_texts(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=80))  # not TOML at all, most likely
    lines = []
    for section in draw(st.lists(st.sampled_from(["table", "hardware", "network", "table"]), max_size=3,
                                 unique=True)):
        lines.append(f"[{section}]")
        for key, value in draw(st.dictionaries(KEYS, VALUES, max_size=4)).items():
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines)


@FUZZ
@given(text=config_texts())
def test_any_settings_file_is_usable_or_a_config_error(text: str, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("config") / "banker.toml"
    path.write_text(text, encoding="utf-8")
    try:
        config = load_config(path)
        for mode in ("simulated", "emulated", "pi"):
            config.table_config(mode)
    except ConfigError as error:
        assert str(path) in str(error) or "banker.toml" in str(error)


def test_a_settings_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "banker.toml"
    path.write_bytes(b"[table]\nlanguage = \"\xff\xfe\"\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(path)


EDITION = (EDITIONS_DIR / "us.toml").read_text(encoding="utf-8")
EDITION_DATA = tomllib.loads(EDITION)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data[:3]):
            out += paths(value, (*prefix, index))
    return out


EDITION_PATHS = paths(EDITION_DATA)


def dumps(data: Any, prefix: str = "") -> str:
    """A small TOML writer for the edition's shape (tables, arrays of tables, inline values)."""
    lines: list[str] = []
    tables: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict) or (isinstance(value, list) and value
                                       and all(isinstance(v, dict) for v in value)):
            tables.append((key, value))
        else:
            lines.append(f'"{key}" = {toml_value(value)}')
    for key, value in tables:
        name = f"{prefix}.{key}" if prefix else f'"{key}"'
        if isinstance(value, dict):
            lines.append(f"[{name}]")
            lines.append(dumps(value, name))
        else:
            for item in value:
                lines.append(f"[[{name}]]")
                lines.append(dumps({k: v for k, v in item.items()}, name))
    return "\n".join(lines)


@FUZZ
@given(edits=st.lists(st.tuples(st.sampled_from(EDITION_PATHS), st.booleans(), VALUES), min_size=1, max_size=4))
def test_any_edited_edition_file_loads_or_is_an_edition_error(edits: list[Any], tmp_path_factory: Any) -> None:
    import copy

    data = copy.deepcopy(EDITION_DATA)
    for where, delete, value in edits:
        parent: Any = data
        try:
            for step in where[:-1]:
                parent = parent[step]
            if delete and isinstance(parent, dict):
                parent.pop(where[-1], None)
            else:
                parent[where[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    path = tmp_path_factory.mktemp("edition") / "edited.toml"
    path.write_text(dumps(data), encoding="utf-8")
    with contextlib.suppress(EditionError):
        load_edition_file(path)


def test_the_edition_writer_round_trips() -> None:
    """The fuzz above edits real editions: unedited, the written file loads as the bundled one."""
    assert tomllib.loads(dumps(EDITION_DATA)) == EDITION_DATA


@FUZZ
@given(uid=st.binary(min_size=0, max_size=16))
def test_a_uid_of_any_length_is_shown_as_an_unknown_card(uid: bytes) -> None:
    text = format_uid(uid)
    if len(uid) in (4, 7, 10):  # the lengths ISO 14443 type A allows
        assert parse_uid(text) == uid
    with Journal(":memory:") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        table = open_table(TableConfig(mode="simulated", readers=TableConfig().readers[:1]))
        try:
            loop = TableLoop(session, table)
            loop.handle(Tap(0, uid))
            assert loop.view is not None
            assert session.state is not None and session.state.seq == 0
        finally:
            table.close()


@FUZZ
@given(uid=st.text(max_size=30), meaning=st.text(max_size=30) | st.sampled_from(
    ["player:1", "player:0", "player:9", "deed:39", "deed:40", "deed:-1", "square:go", "square:mars",
     "card:chance:advance_go", "card:chance:nothing", "card::"]))
def test_a_tag_of_any_meaning_is_enrolled_or_a_tag_error(uid: str, meaning: str) -> None:
    tags = TagSet()
    try:
        parse_meaning(meaning)
    except TagError:
        with pytest.raises(TagError):
            tags.add(uid, meaning)
        return
    tags.add(uid, meaning)
    assert tags.meaning_of(uid) == meaning


@FUZZ
@given(stored=st.dictionaries(st.text(min_size=1, max_size=20), st.text(max_size=20) | st.sampled_from(
    ["player:1", "deed:39", "deed:99", "square:go", "nonsense"]), max_size=5))
def test_the_table_starts_whatever_tags_the_journal_holds(stored: dict[str, str]) -> None:
    """A journal whose tags table holds junk (written by an older version, or damaged) still starts the table:
    the good tags are used and the bad ones are left out."""
    with Journal(":memory:") as journal:
        for uid, meaning in stored.items():
            journal._db.execute("INSERT OR REPLACE INTO tags (uid, meaning, added) VALUES (?, ?, 0)", (uid, meaning))
        session = Session(journal)
        table = open_table(TableConfig(mode="simulated", readers=TableConfig().readers[:1]))
        try:
            loop = TableLoop(session, table)
            loop.render()
            for uid, meaning in stored.items():
                try:
                    parse_meaning(meaning)
                except TagError:
                    continue
                assert loop.tags.meaning_of(uid) == meaning or loop.tags.uid_of(meaning) is not None
        finally:
            table.close()
