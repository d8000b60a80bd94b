"""What axe cannot check, in a real browser (Debian's Chromium), on every page of the audit
(tests/webui/audit.py) for each of its phones: the text still fits at 200 % zoom (a 360-px phone zoomed to
200 % is 180 CSS px wide) and with large text, the keyboard alone reaches every control in the page's order
with the focus visible and never under the bottom bar, a payment to this phone's player is announced in the
live region, and less motion when the phone asks for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from banker.actions import parse_action
from banker.messages import LANGUAGES
from banker.session import Session
from tests.webui import audit
from tests.webui.browser import browser  # noqa: F401 - the fixture
from webui.join import join_code
from webui.server import RunningServer

ZOOMED = {"width": 180, "height": 400}
"""A 360×800 phone at 200 % zoom, in CSS pixels."""

OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll("main *, nav.bottom *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    // A wide table may scroll inside its own box (.wide); the page itself may not.
    if (el.closest(".wide")) continue;
    // Text that runs out of its box (a long address, a word that cannot break) sticks out as well.
    const spills = el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0
      && getComputedStyle(el).overflowX === "visible";
    if (box.right > width + 1 || box.left < -1 || spills) {
      const name = el.tagName.toLowerCase() + (el.className ? "." + el.className : "");
      wide.push(name + " " + Math.round(box.left) + ".." + Math.round(box.right));
    }
  }
  return {scroll: document.documentElement.scrollWidth, width: width, wide: wide.slice(0, 5)};
}"""
"""How wide the page is against the screen, and the first elements that stick out of it."""


@pytest.fixture(scope="module")
def tables() -> Iterator[list[tuple[audit.Scenario, Session, RunningServer]]]:
    """Each of the audit's tables, served for the module's tests."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        yield [(scenario, *stack.enter_context(audit.served_table(scenario))) for scenario in audit.SCENARIOS]


def phones(tables: list[tuple[audit.Scenario, Session, RunningServer]]
           ) -> Iterator[tuple[audit.Scenario, Session, RunningServer, str, str | None]]:
    for scenario, session, server in tables:
        for role, player in scenario.phones.items():
            yield scenario, session, server, role, player


def too_wide(page: Any, base: str) -> list[str]:
    found = []
    for path in audit.PAGES:
        page.goto(base + path)
        measured = page.evaluate(OVERFLOW)
        if measured["scroll"] > measured["width"] or measured["wide"]:
            found.append(f"{path}: {measured['scroll']} px wide on {measured['width']} px: {measured['wide']}")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_scrolls_sideways_on_a_360_pixel_phone(browser: Any, tables: Any, lang: str) -> None:  # noqa: F811
    """At the phone's own size too: the narrow screen's rules (below 300 px) do not help there, and a card
    that hides what sticks out of it (a deed's colour strip) would cut a wide table."""
    problems = []
    for scenario, session, server, role, player in phones(tables):
        page = audit.join(browser, server, join_code(session.journal), role, player, lang)
        problems += [f"{scenario.name}, {role}: {p}" for p in too_wide(page, server.url)]
        page.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_scrolls_sideways_at_200_percent_zoom(browser: Any, tables: Any, lang: str) -> None:  # noqa: F811
    problems = []
    for scenario, session, server, role, player in phones(tables):
        page = audit.join(browser, server, join_code(session.journal), role, player, lang, viewport=ZOOMED)
        problems += [f"{scenario.name}, {role}: {p}" for p in too_wide(page, server.url)]
        page.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_scrolls_sideways_with_large_text(browser: Any, tables: Any, lang: str) -> None:  # noqa: F811
    problems = []
    for scenario, session, server, role, player in phones(tables):
        page = audit.join(browser, server, join_code(session.journal), role, player, lang)
        page.goto(server.url + "/more")
        page.check("[data-testid=large-text]")
        page.click("[data-testid=screen-settings] button")
        page.wait_for_selector("html.large")
        problems += [f"{scenario.name}, {role}: {p}" for p in too_wide(page, server.url)]
        page.context.close()
    assert not problems, "\n".join(problems)


KEYBOARD = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(box.top + Math.min(box.height / 2, 20), 0), innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  const focusable = Array.from(document.querySelectorAll(
    "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), "
    + "textarea, summary, [tabindex]"))
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden" && e.tabIndex >= 0)
    // What a closed <details> holds waits for it to open; a group of radio buttons is one stop (its checked one).
    .filter(e => { const closed = e.closest("details:not([open])");
                   return !closed || (e.tagName === "SUMMARY" && e.parentElement === closed); })
    .filter(e => { if (e.type !== "radio") return true;
                   const group = Array.from(document.getElementsByName(e.name)).filter(r => r.form === e.form);
                   const checked = group.find(r => r.checked);
                   return e === (checked || group[0]); });
  return {
    index: focusable.indexOf(el),
    name: el.tagName.toLowerCase() + " "
      + (el.textContent || el.getAttribute("aria-label") || el.name || "").trim().slice(0, 30),
    outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
    covered: !(hit && (hit === el || el.contains(hit) || hit.contains(el)
                       || (el.labels && Array.from(el.labels).some(l => l.contains(hit))))),
    positive: el.tabIndex > 0,
  };
}"""
"""Where the keyboard's focus is: its place among the page's focusable elements in document order, whether
its outline shows, whether something else (the fixed bottom bar) lies over it."""


def walk(page: Any, limit: int = 80) -> list[str]:
    """Tab through the page: every stop must be the next focusable element, outlined, and uncovered."""
    problems = []
    last = -1
    for _ in range(limit):
        page.keyboard.press("Tab")
        found = page.evaluate(KEYBOARD)
        if found is None:
            break
        if found["index"] <= last:
            break  # round to the start again (or into the browser's own controls)
        if found["index"] != last + 1 or found["positive"]:
            problems.append(f"{found['name']}: stop {found['index']} after {last} (the order skips or jumps)")
        if not found["outline"]:
            problems.append(f"{found['name']}: no visible focus")
        if found["covered"]:
            problems.append(f"{found['name']}: hidden under another element")
        last = found["index"]
    return problems


def test_every_page_works_with_the_keyboard_alone(browser: Any, tables: Any) -> None:  # noqa: F811
    problems = []
    for scenario, session, server, role, player in phones(tables):
        page = audit.join(browser, server, join_code(session.journal), role, player, "en")
        for path in audit.PAGES:
            page.goto(server.url + path)
            problems += [f"{scenario.name}, {role}, {path}: {p}" for p in walk(page)]
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_payment_to_this_phones_player_is_announced(browser: Any, tables: Any) -> None:  # noqa: F811
    _, session, server = tables[0]
    page = audit.join(browser, server, join_code(session.journal), "player", "Ann", "en")
    page.goto(server.url + "/deeds")
    page.wait_for_function("document.documentElement.dataset.stream === 'on'")
    page.wait_for_timeout(300)
    assert page.inner_text("#announce") == ""  # nothing new yet

    def shown(seq: int) -> None:
        page.wait_for_function(f"document.getElementById('main').dataset.state.endsWith('-{seq}')", timeout=5000)

    # At the table: Bob's money only (he buys Boardwalk at the auction), then Ann keeps the mortgaged Park Place
    # she received and pays its interest.
    state, _ = session.submit(parse_action({"action": "auction_close"}))
    shown(state.seq)
    assert page.inner_text("#announce") == ""
    session.submit(parse_action({"action": "keep_mortgaged", "player": "Ann", "property": "park_place"}))
    page.wait_for_function("document.getElementById('announce').textContent.length > 0", timeout=5000)
    said = page.inner_text("#announce")
    assert said == "Ann pays the bank $18 (mortgage interest)."
    assert page.get_attribute("#announce", "aria-live") == "polite"
    state, _ = session.submit(parse_action({"action": "salary", "player": "Bob"}))
    shown(state.seq)
    assert page.inner_text("#announce") == said
    page.context.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_less_motion_when_the_phone_asks(browser: Any, tables: Any, motion: str) -> None:  # noqa: F811
    _, session, server = tables[0]
    page = audit.join(browser, server, join_code(session.journal), "player", "Ann", "en", reduced_motion=motion)
    page.goto(server.url + "/money")
    page.wait_for_function("document.documentElement.dataset.stream === 'on'")
    page.click("form.act button[data-action=salary]")
    answer = page.wait_for_selector(".flash[data-after]")
    assert answer is not None
    name = answer.evaluate("e => getComputedStyle(e).animationName")
    assert name == ("none" if motion == "reduce" else "answer-in")
    page.context.close()
