"""docs/table.md says exactly what the table shows: every example script is replayed through the real
grammar and loop, and its printed screens must match the text under it; the pictures exist."""

from __future__ import annotations

import pytest

from firmware.docs import PICTURES, TABLE_DOC, Example, examples, run_example

EXAMPLES = examples(TABLE_DOC.read_text(encoding="utf-8").splitlines())


def test_the_page_has_examples_with_pictures() -> None:
    assert len(EXAMPLES) >= 8
    names = [spec.split(":")[0] for ex in EXAMPLES for spec in ex.option("png").split(",") if spec]
    for name in ("idle", "rent", "buy", "build_menu", "debt", "bankruptcy", "russian"):
        assert name in names
        assert (PICTURES / f"{name}.png").is_file()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda ex: f"line{ex.start + 1}")
def test_example_prints_what_the_page_says(example: Example) -> None:
    assert example.output_start >= 0, "run python -m firmware.docs to write the screens"
    out, _ = run_example(example)
    assert out == example.output, "the table now shows something else: python -m firmware.docs rewrites the page"
