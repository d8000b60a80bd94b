"""The banker's phone starts enrolling cards at the table and forgets a lost tag; a player's phone cannot."""

from __future__ import annotations

from typing import Any

from tests.webui.fake_table import FakeTable
from tests.webui.test_pages import form_fields


def page(phone: Any, path: str) -> str:
    response = phone.client.get(path)
    assert response.status_code == 200
    return str(response.get_data(as_text=True))


def test_the_banker_starts_enrollment_at_the_table(phone: Any, table: FakeTable) -> None:
    banker = phone("Ann").banker()
    html = page(banker, "/banker")
    assert "Enroll cards at the table" in html and "04:00:00:01" in html
    response = banker.client.post("/banker", data={**form_fields(html), "do": "enroll"})
    assert response.status_code == 303
    assert table.enrolling
    assert "tap them there" in page(banker, "/banker")


def test_the_banker_forgets_a_lost_tag(phone: Any, table: FakeTable) -> None:
    banker = phone("Ann").banker()
    html = page(banker, "/banker")
    banker.client.post("/banker", data={**form_fields(html), "do": "forget", "uid": "04:00:00:01"})
    assert table.forgotten == ["04:00:00:01"]
    banker.client.post("/banker", data={**form_fields(page(banker, "/banker")), "do": "forget", "uid": "FF:FF"})
    assert "There is no enrolled tag FF:FF." in page(banker, "/banker")
    assert table.forgotten == ["04:00:00:01"]


def test_a_players_phone_cannot_touch_the_tags(phone: Any, table: FakeTable) -> None:
    bob = phone("Bob")
    html = page(bob, "/banker")
    assert "Enroll cards at the table" not in html
    bob.client.post("/banker", data={**form_fields(html), "do": "enroll"})
    bob.client.post("/banker", data={**form_fields(html), "do": "forget", "uid": "04:00:00:01"})
    assert not table.enrolling and table.forgotten == []
    assert "Only the banker can do this" in page(bob, "/banker")
