"""A part of the table that does not work is said on every phone, in the phone's language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.webui.fake_table import FakeTable
from webui.tableport import TableFault


@pytest.mark.parametrize(
    ("lang", "reader", "display"),
    [
        ("en", "Reader 2 (SPI0 CE1) does not answer", "display does not answer"),
        ("ru", "Считыватель 2 (SPI0 CE1) не отвечает", "Экран стола не отвечает"),
        ("bg", "Четец 2 (SPI0 CE1) не отговаря", "Екранът на масата не отговаря"),
    ],
)
def test_the_phones_say_which_part_of_the_table_does_not_work(
    phone: Any, table: FakeTable, lang: str, reader: str, display: str
) -> None:
    ann = phone("Ann", lang=lang)
    page = ann.client.get("/").get_data(as_text=True)
    assert 'data-testid="table-fault"' not in page
    table.broken[:] = [TableFault("reader", 2, "SPI0 CE1"), TableFault("display")]
    page = ann.client.get("/").get_data(as_text=True)
    assert page.count('data-testid="table-fault"') == 2
    assert reader in page and display in page
    assert ann.me()["table_faults"][0].startswith(reader)
    table.broken.clear()
    assert ann.me()["table_faults"] == []
