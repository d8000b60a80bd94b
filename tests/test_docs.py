"""The examples in docs/*.md, replayed through the real ``banker replay SCRIPT --json``.

A `jsonl` block is a script; the `json` block after it is a subset of the state the script must print.
A `jsonl error` block is a script that must be refused; the `text` block after it is the start of
the expected stderr line (``line N: <message>``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest

from banker import cli
from banker.actions import ACTION_TYPES
from banker.rules import Rules

DOCS = Path(__file__).resolve().parent.parent / "docs"
DOC_FILES = ("actions.md", "state.md", "rules.md")
FENCE = re.compile(r"^```(.*)$")
ERROR_LINE = re.compile(r"^line \d+: \S")


@dataclass(frozen=True)
class Block:
    line: int
    """Line of the opening fence in the document (1-based)."""
    info: str
    body: str


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    script: str
    error: bool
    expected: str
    """The expect object (JSON text), or the start of the expected error line."""

    @property
    def last_action(self) -> str:
        lines = [line for line in self.script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        name = json.loads(lines[-1]).get("action")
        return name if isinstance(name, str) else ""

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced code block of a Markdown text, in order."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"unclosed code block at line {start + 1}")
        blocks.append(Block(start + 1, opening.group(1).strip(), "\n".join(body)))
        i += 1
    return blocks


def examples_of(doc: str, text: str) -> list[Example]:
    """The script examples of one document, each paired with the block that follows it."""
    blocks = fenced_blocks(text)
    found: list[Example] = []
    for index, block in enumerate(blocks):
        if block.info not in ("jsonl", "jsonl error"):
            continue
        error = block.info == "jsonl error"
        wanted = "text" if error else "json"
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        if following is None or following.info != wanted:
            raise ValueError(f"{doc}:{block.line}: a `{block.info}` block must be followed by a `{wanted}` block")
        found.append(Example(doc, block.line, block.body, error, following.body))
    return found


def all_examples() -> list[Example]:
    found: list[Example] = []
    for doc in DOC_FILES:
        path = DOCS / doc
        if path.exists():
            found += examples_of(doc, path.read_text(encoding="utf-8"))
    return found


EXAMPLES = all_examples()


def mismatches(expected: Any, actual: Any, where: str = "$") -> list[str]:
    """Where ``expected`` is not a subset of ``actual``: objects may have more keys; lists and values must match."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {json.dumps(actual)}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{where}.{key}: missing")
            else:
                out += mismatches(value, actual[key], f"{where}.{key}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
        pairs = enumerate(zip(expected, actual, strict=True))
        return [m for i, (e, a) in pairs for m in mismatches(e, a, f"{where}[{i}]")]
    if type(expected) is not type(actual) or expected != actual:
        return [f"{where}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
    return []


def replay(script: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "example.jsonl"
    path.write_text(script + "\n", encoding="utf-8")
    code = cli.main(["replay", str(path), "--json"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_docs_have_examples() -> None:
    for doc in DOC_FILES:
        assert (DOCS / doc).exists(), f"docs/{doc} is missing"
    assert len([e for e in EXAMPLES if e.doc == "actions.md"]) >= len(ACTION_TYPES)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_example(example: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(example.script, tmp_path, capsys)
    if example.error:
        expected = example.expected.strip()
        assert ERROR_LINE.match(expected), f"{example}: the expected error must read 'line N: <message>'"
        assert code == 1, f"{example}: the script was accepted; expected {expected!r}"
        assert out == ""
        assert err.strip().startswith(expected), f"{example}: expected {expected!r}, got {err.strip()!r}"
        return
    assert code == 0, f"{example}: refused: {err.strip()}"
    state = json.loads(out)
    expect = json.loads(example.expected)
    assert isinstance(expect, dict) and expect, f"{example}: the expect block must be a non-empty object"
    problems = mismatches(expect, state)
    assert not problems, f"{example}:\n" + "\n".join(problems)


def offers_examples() -> list[tuple[str, int, list[str], str, str]]:
    """The `jsonl offers ARGS` blocks of the docs: a script, the arguments of ``banker offers``, and the
    `json` list after it (each offer printed, as a subset)."""
    found = []
    for doc in DOC_FILES:
        path = DOCS / doc
        if not path.exists():
            continue
        blocks = fenced_blocks(path.read_text(encoding="utf-8"))
        for index, block in enumerate(blocks):
            if block.info.startswith("jsonl offers"):
                following = blocks[index + 1]
                assert following.info == "json", f"{doc}:{block.line}: a `jsonl offers` block needs a `json` block"
                found.append((doc, block.line, block.info.split()[2:], block.body, following.body))
    return found


OFFERS_EXAMPLES = offers_examples()


def test_the_offers_are_documented_with_examples() -> None:
    assert len([e for e in OFFERS_EXAMPLES if e[0] == "actions.md"]) >= 3


@pytest.mark.parametrize("example", OFFERS_EXAMPLES, ids=lambda e: f"{e[0]}:{e[1]}")
def test_offers_example(example: tuple[str, int, list[str], str, str], tmp_path: Path,
                        capsys: pytest.CaptureFixture[str]) -> None:
    doc, line, args, script, expected = example
    path = tmp_path / "example.jsonl"
    path.write_text(script + "\n", encoding="utf-8")
    code = cli.main(["offers", str(path), *args])
    captured = capsys.readouterr()
    assert code == 0, f"{doc}:{line}: {captured.err}"
    printed = [json.loads(text) for text in captured.out.splitlines()]
    problems = mismatches(json.loads(expected), printed)
    assert not problems, f"{doc}:{line}:\n" + "\n".join(problems)


def test_every_action_has_an_example() -> None:
    ending = {e.last_action for e in EXAMPLES if e.doc == "actions.md" and not e.error}
    missing = sorted(set(ACTION_TYPES) - ending)
    assert not missing, f"docs/actions.md has no example ending with: {', '.join(missing)}"


def test_every_action_has_a_section() -> None:
    text = (DOCS / "actions.md").read_text(encoding="utf-8")
    missing = [name for name in ACTION_TYPES if f"### `{name}`" not in text]
    assert not missing, f"docs/actions.md has no section for: {', '.join(missing)}"


def test_every_rule_is_documented() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [f.name for f in fields(Rules) if f"`{f.name}`" not in text]
    assert not missing, f"docs/rules.md does not mention: {', '.join(missing)}"


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def test_every_state_field_is_documented(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A state with a debt, a pending decision, a trade proposal and an open auction shows every field there is.
    script = "\n".join(json.dumps(line) for line in (
        {"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}},
        {"action": "buy", "player": "Ann", "property": "park_place"},
        {"action": "propose_trade", "from": "Bob", "to": "Ann", "give": {"cash": 10}},
        {"action": "mortgage", "player": "Ann", "property": "park_place"},
        {"action": "trade", "from": "Ann", "to": "Bob", "give": {"properties": ["park_place"]}},
        {"action": "pay", "player": "Ann", "amount": 5000, "to": "bank"},
        {"action": "auction", "property": "boardwalk"},
    ))
    code, out, err = replay(script, tmp_path, capsys)
    assert code == 0, err
    state = json.loads(out)
    names = _keys(state) - set(state["players"]) - set(state["properties"]) - set(state["rules"])
    text = (DOCS / "state.md").read_text(encoding="utf-8")
    missing = sorted(name for name in names if f"`{name}`" not in text)
    assert not missing, f"docs/state.md does not describe: {', '.join(missing)}"


def test_a_wrong_example_is_caught() -> None:
    state = {"players": {"Ann": {"cash": 1500, "bankrupt": False}}, "debts": [{"amount": 5}], "auction": None}
    assert mismatches({"players": {"Ann": {"cash": 1500}}}, state) == []
    assert mismatches({"players": {"Ann": {"cash": 1400}}}, state)
    assert mismatches({"players": {"Bob": {}}}, state)
    assert mismatches({"players": {"Ann": {"bankrupt": 0}}}, state)
    assert mismatches({"debts": []}, state)
    assert mismatches({"auction": {}}, state)
    assert mismatches({"debts": [{"amount": 5}, {"amount": 5}]}, state)


def test_blocks_are_paired() -> None:
    text = "```jsonl\n{}\n```\n\n```text\nline 1: x\n```\n"
    with pytest.raises(ValueError, match="must be followed"):
        examples_of("x.md", text)
    with pytest.raises(ValueError, match="unclosed"):
        fenced_blocks("```jsonl\n{}\n")
