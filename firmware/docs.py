"""The examples of ``docs/table.md``: table scripts, the screens they print, and pictures of them.

A fenced block whose info string starts with ``jsonl table`` is a script for ``banker table``; the
``text`` block right after it is what the script prints (every screen). Options in the info string:
``lang=ru`` runs it in another language, ``png=rent:3,idle:1`` saves the screen after script line 3
as ``docs/table/rent.png`` (drawn by the real renderer, 4× as large).

``python -m firmware.docs`` rewrites the text blocks and the pictures; the tests check that the
document says exactly what the table prints.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from firmware.script import TableScript, screen_text
from hardware.display import render_view

DOCS = Path(__file__).resolve().parent.parent / "docs"
TABLE_DOC = DOCS / "table.md"
PICTURES = DOCS / "table"
SCALE = 4
FENCE = re.compile(r"^```(.*)$")


@dataclass(frozen=True)
class Example:
    start: int
    """Index of the script's opening fence in the document's lines."""
    info: str
    script: list[str]
    output_start: int
    """Index of the output block's opening fence (-1 when there is none yet)."""
    output_end: int
    output: list[str]

    def option(self, name: str) -> str:
        for word in self.info.split():
            if word.startswith(name + "="):
                return word[len(name) + 1:]
        return ""


def examples(lines: list[str]) -> list[Example]:
    found: list[Example] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match and match.group(1).startswith("jsonl table"):
            start, info = i, match.group(1)
            i += 1
            body: list[str] = []
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and lines[j] == "```text":
                end = j + 1
                while not lines[end].startswith("```"):
                    end += 1
                found.append(Example(start, info, body, j, end, lines[j + 1:end]))
                i = end
            else:
                found.append(Example(start, info, body, -1, -1, []))
        i += 1
    return found


def run_example(example: Example) -> tuple[list[str], dict[int, Image.Image]]:
    """The lines ``banker table`` prints for the example, and the pictures of the screens it names."""
    out: list[str] = []
    wanted = {int(spec.split(":")[1]) for spec in example.option("png").split(",") if spec}
    pictures: dict[int, Image.Image] = {}
    with TableScript(language=example.option("lang") or "en") as script:
        frames = script.run(example.script)
        for frame in frames:
            beeps = f"   (beep: {', '.join(frame.beeps)})" if frame.beeps else ""
            out.append(f"> {frame.text}{beeps}")
            out.extend(screen_text(frame.view).splitlines())
            if frame.line in wanted and frame.view is not None:
                image = render_view(frame.view)
                pictures[frame.line] = image.resize((image.width * SCALE, image.height * SCALE),
                                                    Image.Resampling.NEAREST)
    return out, pictures


def regenerate(path: Path = TABLE_DOC) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    PICTURES.mkdir(parents=True, exist_ok=True)
    for example in reversed(examples(lines)):
        out, pictures = run_example(example)
        for spec in filter(None, example.option("png").split(",")):
            name, line = spec.split(":")
            pictures[int(line)].convert("1").save(PICTURES / f"{name}.png", optimize=True)
        block = ["```text", *out, "```"]
        if example.output_start >= 0:
            lines[example.output_start:example.output_end + 1] = block
        else:
            end = example.start + len(example.script) + 1
            lines[end + 1:end + 1] = ["", *block]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(regenerate())
