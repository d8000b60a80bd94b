"""The table's voice from the banker's phone (on or off, volume, voice), the simulated table page's and
any phone's reading aloud, and a tag re-taught at the table in the phones' history."""

from __future__ import annotations

from typing import Any

from tests.webui.fake_table import FakeTable
from tests.webui.test_pages import form_fields


def page(phone: Any, path: str) -> str:
    response = phone.client.get(path)
    assert response.status_code == 200
    return str(response.get_data(as_text=True))


def test_the_banker_sets_the_tables_voice(phone: Any, table: FakeTable) -> None:
    banker = phone("Ann").banker()
    html = page(banker, "/banker")
    assert "The table&#39;s voice" in html and 'name="volume"' in html and 'value="80"' in html
    fields = {k: v for k, v in form_fields(html).items() if k != "on"}
    response = banker.client.post("/banker", data={**fields, "do": "speech", "volume": "40", "voice": "woman"})
    assert response.status_code == 303
    assert table.voice == {"on": False, "volume": 40, "voice": "woman", "short": False}  # the boxes left unticked
    assert "The table&#39;s voice is set." in page(banker, "/banker")
    html = page(banker, "/banker")
    banker.client.post("/banker", data={**form_fields(html), "do": "speech", "on": "1", "volume": "140",
                                        "voice": "man"})
    assert table.voice == {"on": False, "volume": 40, "voice": "woman", "short": False}  # refused, nothing changed
    assert "The volume is a number from 0 to 100" in page(banker, "/banker")


def test_the_banker_chooses_the_short_voice(phone: Any, table: FakeTable) -> None:
    banker = phone("Ann").banker()
    html = page(banker, "/banker")
    assert 'name="short"' in html and "only the names and the amount" in html
    banker.client.post("/banker", data={**form_fields(html), "do": "speech", "on": "1", "short": "1", "volume": "80",
                                        "voice": "man"})
    assert table.voice == {"on": True, "volume": 80, "voice": "man", "short": True}
    assert 'name="short" value="1" checked' in page(banker, "/banker")


def test_only_the_banker_sets_it_and_only_a_table_with_a_speaker_shows_it(phone: Any, table: FakeTable) -> None:
    bob = phone("Bob")
    html = page(bob, "/banker")
    assert 'name="volume"' not in html
    bob.client.post("/banker", data={**form_fields(html), "do": "speech", "on": "1", "volume": "10", "voice": "man"})
    assert table.voice == {"on": True, "volume": 80, "voice": "man"}
    table.voice = None
    banker = phone("Ann").banker()
    assert 'name="volume"' not in page(banker, "/banker")


def test_the_simulated_table_page_carries_the_voice_and_the_more_page_the_phones_switch(
        phone: Any, table: FakeTable) -> None:
    ann = phone("Ann")
    html = page(ann, "/table")
    assert 'id="table-voice"' in html and 'data-volume="80"' in html
    table.voice = {"on": False, "volume": 80, "voice": "man"}
    assert 'id="table-voice" hidden data-on="0"' in page(ann, "/table")  # a switch on arrives by the stream
    assert "Read aloud on this phone" in page(ann, "/more") and "data-read-aloud" in page(ann, "/more")
    assert "Читать вслух на этом телефоне" in page(phone("Bob", lang="ru"), "/more")


def test_the_tables_own_lines_are_in_the_history(phone: Any, table: FakeTable) -> None:
    table.log_lines = [(0, "Tag D0:00:00:03 re-taught at the table: it is Oriental Avenue, not Baltic Avenue.")]
    html = page(phone("Ann"), "/history")
    assert 'data-testid="table-log">Tag D0:00:00:03 re-taught at the table' in html
    home = page(phone("Cy"), "/")
    latest = home[home.index('data-testid="log"'):]
    assert latest.index("Tag D0:00:00:03 re-taught") < latest.index("New game: Ann")  # newest first
    rows = phone("Bob").client.get("/api/history").get_json()["rows"]
    assert rows[0]["table"] == [table.log_lines[0][1]]
