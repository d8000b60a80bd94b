"""Speech in a real browser: the simulated table's page says each action with the browser's voice, and
a phone says it only once "read aloud on this phone" is ticked (the browser's speechSynthesis is
recorded, not played)."""

from __future__ import annotations

from typing import Any

from tests.webui.browser import browser  # noqa: F401 - the fixture
from tests.webui.conftest import do
from tests.webui.test_browser import Table, join, served  # noqa: F401 - the fixture

RECORD = """
window.__said = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = function (u) { window.__said.push([u.text, u.lang, u.volume, u.pitch]); };
  window.speechSynthesis.cancel = function () {};
}
"""


def said(page: Any) -> list[list[Any]]:
    return list(page.evaluate("window.__said"))


def test_the_simulated_table_page_says_each_action(browser: Any, served: Table) -> None:  # noqa: F811
    served.fake.voice = {"on": True, "volume": 60, "voice": "woman"}
    page = join(browser, served, None)
    page.add_init_script(RECORD)
    page.goto(served.server.url + "/table")
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    do(served.session, action="salary", player="Ann")
    page.wait_for_function("window.__said.length === 1", timeout=5000)
    [[text, language, volume, pitch]] = said(page)
    assert (text, language, round(volume, 2), round(pitch, 2)) == ("Ann collects 200 dollars salary.", "en", 0.6, 1.4)


def test_the_simulated_table_page_says_the_short_voices_sentences(browser: Any, served: Table) -> None:  # noqa: F811
    served.fake.voice = {"on": True, "volume": 60, "voice": "man", "short": True}
    page = join(browser, served, None)
    page.add_init_script(RECORD)
    page.goto(served.server.url + "/table")
    page.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    do(served.session, action="salary", player="Ann")
    page.wait_for_function("window.__said.length === 1", timeout=5000)
    assert said(page)[0][0] == "Ann, plus 200."


def test_a_phone_reads_aloud_only_when_asked(browser: Any, served: Table) -> None:  # noqa: F811
    bob = join(browser, served, "Bob", lang="ru")
    bob.add_init_script(RECORD)
    bob.goto(served.server.url + "/more")
    box = bob.locator("[data-testid=read-aloud]")
    assert box.is_visible() and not box.is_checked()
    ann = join(browser, served, "Ann")
    ann.add_init_script(RECORD)
    ann.goto(served.server.url + "/")
    ann.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    box.check()
    bob.goto(served.server.url + "/")
    bob.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    do(served.session, action="salary", player="Ann")
    bob.wait_for_function("window.__said.length === 1", timeout=5000)
    [[text, language, _, _]] = said(bob)
    assert language == "ru" and "Ann" not in text and "зарплат" in text, text
    ann.wait_for_timeout(500)
    assert said(ann) == []  # Ann's phone was not asked to read aloud
    bob.goto(served.server.url + "/more")
    assert bob.locator("[data-testid=read-aloud]").is_checked()  # kept in this browser
