"""The phone pages as a family met them on a three-phone evening in English, Russian and Bulgarian, in
Chromium at 360×800: what a refused trade proposal leaves on the page, joining without a camera, the
strategy tables in Cyrillic, the repeat guard's question, the table's voice settings, the text of the trades
and of the table's pad, and a game that ends with mortgaged deeds in a bankruptcy."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from banker.actions import NewGame
from tests.webui.browser import PHONE, browser  # noqa: F401 - the fixture
from tests.webui.conftest import PIN, do
from tests.webui.test_browser import LIVE_MS, Table, join, served  # noqa: F401 - the fixture
from webui.join import join_code

FAMILY = ("Ann", "Борис", "Цветан")
"""The family's names: the English, the Russian and the Bulgarian phone."""
SHOTS = os.environ.get("BANKER_SHOTS", "")
"""A folder to keep the tests' screenshots in (to look at them); by default they go to the test's tmp_path."""


def shot(page: Any, tmp_path: Path, name: str, part: str = "") -> Path:
    """A screenshot of the whole page, or of the ``part`` a selector names."""
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.png"
    if part:
        page.locator(part).first.screenshot(path=str(target))
    else:
        page.screenshot(path=str(target), full_page=True)
    return target


def new_game(table: Table) -> None:
    """The family's game, started at the table (a new game makes a new join code)."""
    table.session.submit(NewGame("us", FAMILY, {}))
    table.code = join_code(table.session.journal)


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_refused_trade_proposal_keeps_the_form_and_shows_the_engines_reason_in_russian(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    session = served.session
    new_game(served)
    do(session, action="buy", player="Ann", property="baltic")
    do(session, action="pay", player="Борис", amount=840, to="bank")  # Борис has $660
    ann = join(browser, served, "Ann", lang="ru")
    ann.goto(served.server.url + "/trades?with=" + quote("Борис"))
    ann.check("input[name=give_properties][value=baltic]")
    ann.fill("input[name=take_cash]", "1000")
    ann.click("[data-testid=propose-form] button")
    ann.wait_for_selector(".flash.error", timeout=LIVE_MS)
    shot(ann, tmp_path, "trades-refused-ru")
    reason = ann.inner_text(".flash.error")
    assert "Борис" in reason and "$660" in reason, reason
    assert in_view(ann, ".flash.error"), "the reason is off the screen"
    form = "[data-testid=propose-form]"
    assert ann.is_checked(f"{form} input[name=give_properties][value=baltic]")
    assert ann.input_value(f"{form} input[name=take_cash]") == "1000"
    state = session.state
    assert state is not None and not state.open_proposals()

    ann.fill("input[name=take_cash]", "600")
    ann.click("[data-testid=propose-form] button")
    ann.wait_for_selector("[data-testid=proposal]", timeout=LIVE_MS)
    ann.wait_for_selector(".flash.ok", timeout=LIVE_MS)
    shot(ann, tmp_path, "trades-sent-ru")
    word = ann.inner_text(".flash.ok")
    assert "Ann" in word and "Борис" in word and "$600" in word, word
    assert in_view(ann, ".flash.ok"), "the word that it was sent is off the screen"
    assert ann.input_value(f"{form} input[name=take_cash]") == "0"  # a new proposal starts afresh
    assert not ann.is_checked(f"{form} input[name=give_properties][value=baltic]")


def test_a_phone_without_a_camera_types_the_code_and_picks_its_player_in_bulgarian(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    new_game(served)
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="bg")
    phone = context.new_page()
    phone.goto(served.server.url + "/join")  # typed in: no QR code, no link; the page is in the table's language
    hint = phone.inner_text(".hint >> nth=0")
    assert "hold OK on the table, then “Phones: QR code”" in hint and "under More" in hint, hint
    main = phone.inner_text("main")
    assert "No game yet" not in main, "a game runs, and the page says there is none"
    assert "Цветан" not in main  # the names only for a phone that came with the code
    phone.select_option("select[name=lang]", "bg")
    shot(phone, tmp_path, "join-code")
    phone.fill("input[name=code]", served.code.lower())
    phone.press("input[name=code]", "Enter")  # the keyboard's Go: the first button, Next
    phone.wait_for_selector("button[name=player][value='Цветан']")
    shot(phone, tmp_path, "join-pick-bg")
    assert "Кой сте вие?" in phone.inner_text("main")
    phone.click("button[name=player][value='Цветан']")
    phone.wait_for_url(f"{served.server.url}/")
    assert phone.inner_text(".mebar .who") == "Цветан"
    assert phone.evaluate("document.documentElement.lang") == "bg"
    context.close()


def test_a_watching_phone_is_told_how_to_play(browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    new_game(served)
    watcher = join(browser, served, None, lang="bg")
    note = watcher.locator("[data-testid=watching]")
    assert "Този телефон само гледа" in note.inner_text()
    shot(watcher, tmp_path, "home-watching-bg")
    note.locator("a").click()
    watcher.wait_for_selector("button[name=player][value='Цветан']")


GROUP_CARDS = """() => Array.from(document.querySelectorAll("section.group")).map(card => {
  const table = card.querySelector("table").getBoundingClientRect();
  return {group: card.dataset.group, inside: table.right <= card.getBoundingClientRect().right + 0.5
          && card.scrollWidth <= card.clientWidth + 1};
})"""
"""Whether each of the Strategy page's group cards holds its table (the card hides what sticks out)."""


@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_the_strategy_group_cards_keep_their_rents_on_the_card(
        browser: Any, served: Table, tmp_path: Path, lang: str) -> None:  # noqa: F811
    new_game(served)
    for deed in ("st_charles", "states", "virginia", "reading_railroad", "pennsylvania_railroad",
                 "electric_company", "boardwalk"):
        do(served.session, action="buy", player="Борис", property=deed)
    do(served.session, action="build", player="Борис", property="st_charles")
    do(served.session, action="mortgage", player="Борис", property="boardwalk")
    boris = join(browser, served, "Борис", lang=lang)
    boris.goto(served.server.url + "/strategy")
    cards = boris.evaluate(GROUP_CARDS)
    shot(boris, tmp_path, f"strategy-railroads-{lang}", "section.group[data-group=railroad]")
    shot(boris, tmp_path, f"strategy-utilities-{lang}", "section.group[data-group=utility]")
    assert {c["group"] for c in cards} == {"pink", "railroad", "utility", "dark_blue"}
    assert all(c["inside"] for c in cards), cards
    rent = {"ru": "Рента сейчас", "bg": "Наем сега"}[lang]
    utility = boris.locator("section.group[data-group=utility] table")
    assert rent in utility.inner_text()
    assert utility.locator("td.num").last.is_visible()


def test_the_repeat_question_names_the_deed_and_the_earlier_rent_and_the_form_keeps_the_deed(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    session = served.session
    for deed in ("mediterranean", "baltic", "oriental"):
        do(session, action="buy", player="Ann", property=deed)
    bob = join(browser, served, "Bob")
    bob.click("nav.bottom a[href='/money']")
    deeds = "[data-testid=landed-form] select[name=property]"
    bob.select_option(deeds, "baltic")
    bob.click("[data-testid=landed-form] button[value=rent]")
    bob.wait_for_selector(".flash.ok:has-text('Bob pays Ann $8 rent for Baltic Avenue.')", timeout=LIVE_MS)
    assert bob.input_value(deeds) == "baltic", "the deed list jumped to another deed after the answer"
    do(session, action="build", player="Ann", property="baltic")  # at the table: the rent is $20 now
    built = session.state
    assert built is not None
    bob.wait_for_function(f"document.getElementById('main').dataset.state === '{session.game_id}-{built.seq}'",
                          timeout=LIVE_MS)  # the news is on Bob's page
    bob.wait_for_timeout(2600)  # the buttons of the form just answered are back
    assert bob.input_value(deeds) == "baltic", "the deed list jumped to another deed with the news"
    bob.click("[data-testid=landed-form] button[value=rent]")  # a new landing on Baltic Avenue
    question = bob.wait_for_selector("[data-testid=again]", timeout=LIVE_MS)
    shot(bob, tmp_path, "again-rent", "[data-testid=again]")
    text = question.inner_text()
    assert "Bob already paid $8 rent for Baltic Avenue" in text, text
    assert bob.input_value(deeds) == "baltic"
    bob.click("[data-testid=again-yes]")
    bob.wait_for_selector(".flash.ok:has-text('Bob pays Ann $20 rent for Baltic Avenue.')", timeout=LIVE_MS)
    state = session.state
    assert state is not None and state.players[state.seat("Bob")].cash == 1500 - 8 - 20


RECORD_SPEECH = """
window.__said = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = function (u) { window.__said.push([u.text, u.volume, u.pitch]); };
  window.speechSynthesis.cancel = function () {};
}
"""
"""The browser's speechSynthesis recorded, not played."""


def test_a_change_of_the_tables_voice_on_a_phone_reaches_the_table_page_at_once_in_russian(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    new_game(served)
    table = join(browser, served, None, lang="ru")
    table.add_init_script(RECORD_SPEECH)
    table.goto(served.server.url + "/table")
    table.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    boris = join(browser, served, "Борис", lang="ru")
    boris.goto(served.server.url + "/banker")
    boris.fill("input[name=pin]", PIN)
    boris.click("[data-testid=pin-form] button")
    boris.wait_for_selector("[data-testid=speech]")
    speech = "[data-testid=speech] form"

    def first_sentence() -> list[Any]:
        do(served.session, action="salary", player="Ann")
        table.wait_for_function("window.__said.length === 1", timeout=LIVE_MS * 5)
        [sentence] = table.evaluate("window.__said")
        table.evaluate("window.__said = []")
        return list(sentence)

    boris.fill(f"{speech} input[name=volume]", "30")
    boris.select_option(f"{speech} select[name=voice]", "woman")
    boris.click(f"{speech} button")
    boris.wait_for_selector(".flash.ok", timeout=LIVE_MS)
    table.wait_for_timeout(300)  # the stream's news; nothing else happened at the table
    _, volume, pitch = first_sentence()
    assert (round(volume, 2), round(pitch, 2)) == (0.3, 1.4), "the table's page spoke with the old voice"

    boris.uncheck(f"{speech} input[name=on]")
    boris.click(f"{speech} button")
    boris.wait_for_selector(".flash.ok", timeout=LIVE_MS)
    table.wait_for_timeout(300)
    do(served.session, action="salary", player="Борис")
    table.wait_for_timeout(1000)
    assert table.evaluate("window.__said") == [], "the table's page spoke after its voice was switched off"
    shot(boris, tmp_path, "banker-speech-ru", "[data-testid=speech]")


def test_a_trade_proposal_reads_as_one_line_of_text_in_russian(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    new_game(served)
    do(served.session, action="buy", player="Ann", property="reading_railroad")
    do(served.session, action="propose_trade", **{"from": "Ann"}, to="Борис",
       give={"cash": 100, "properties": ["reading_railroad"]}, take={"cash": 300})
    boris = join(browser, served, "Борис", lang="ru")
    boris.goto(served.server.url + "/trades")
    card = boris.locator("[data-testid=proposal]")
    shot(boris, tmp_path, "trades-proposal-ru", "[data-testid=proposal]")
    gives = card.locator("p").first.inner_text()
    assert gives == "Ann отдаёт: $100, ЖД Reading Railroad", repr(gives)


def test_the_answer_to_a_bid_button_takes_the_cards_width_in_bulgarian(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    new_game(served)
    do(served.session, action="auction", property="boardwalk")
    tsvetan = join(browser, served, "Цветан", lang="bg")
    tsvetan.route("**/api/stream*", lambda route: route.abort())  # no news: the page still shows $0
    tsvetan.goto(served.server.url + "/auction")
    do(served.session, action="bid", player="Борис", amount=50)  # meanwhile, at the table
    tsvetan.click("button.bid >> nth=0")  # +10 → $10: outbid
    answer = tsvetan.wait_for_selector(".flash.error", timeout=LIVE_MS)
    shot(tsvetan, tmp_path, "auction-outbid-bg", "[data-testid=auction]")
    grid = tsvetan.locator(".grid3").bounding_box()
    box = answer.bounding_box()
    assert grid is not None and box is not None
    assert box["width"] >= grid["width"] - 1, f"the answer is {box['width']} px wide in a {grid['width']} px grid"
    assert box["y"] >= grid["y"] + grid["height"], "the answer is inside the grid of bids"
    assert "$50" in answer.inner_text()


SPLIT_WORDS = """() => {
  const split = [];
  for (const button of document.querySelectorAll(".btn.tap")) {
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
        if (lines.size > 1) split.push(word[0]);
      }
    }
  }
  return split;
}"""
"""The words of the tap pad's buttons that are broken over two lines."""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_table_pads_deed_names_break_between_words(browser: Any, served: Table, tmp_path: Path,  # noqa: F811
                                                       width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1, locale="en")
    table = context.new_page()
    table.goto(served.server.url + "/table")
    shot(table, tmp_path, f"table-pad-{width}", ".tap-pad >> nth=1")
    assert table.evaluate(SPLIT_WORDS) == []
    gap = table.evaluate("""() => {
      const button = document.querySelector("button[data-meaning='deed:3']");
      const text = Array.from(button.querySelector(".tap-label").childNodes)
        .find(n => n.nodeType === 3 && n.data.trim());
      const range = document.createRange();
      range.setStart(text, text.data.indexOf("Baltic"));
      range.setEnd(text, text.data.indexOf("Baltic") + 6);
      return range.getBoundingClientRect().left - button.querySelector(".mark").getBoundingClientRect().right;
    }""")
    assert gap >= 2, f"the group's letters touch the name ({gap:.1f} px)"
    context.close()


def test_every_disclosure_shows_its_marker(browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    boris = join(browser, served, "Bob", lang="ru")
    boris.goto(served.server.url + "/money")
    summary = boris.locator("details summary").first
    marker = "(el) => getComputedStyle(el, '::before').content"
    assert summary.evaluate(marker) == '"▸"'
    summary.click()
    assert summary.evaluate(marker) == '"▾"'
    shot(boris, tmp_path, "details-open-ru", "details >> nth=0")


def test_the_undo_question_ends_as_a_question_in_russian(browser: Any, served: Table) -> None:  # noqa: F811
    new_game(served)
    do(served.session, action="tax", player="Ann", square="income_tax")
    boris = join(browser, served, "Борис", lang="ru")
    boris.goto(served.server.url + "/banker")
    boris.fill("input[name=pin]", PIN)
    boris.click("[data-testid=pin-form] button")
    boris.wait_for_selector("[data-testid=speech]")
    boris.goto(served.server.url + "/history")
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    boris.once("dialog", answer)
    boris.click("button[data-action=undo]")
    boris.wait_for_timeout(200)
    assert asked == ["Отменить последнее действие? Ann платит банку $200: Income Tax."], asked


def test_a_bankruptcy_that_ends_the_game_asks_nothing_more_on_the_phones_and_the_table(
        browser: Any, served: Table, tmp_path: Path) -> None:  # noqa: F811
    session = served.session
    session.submit(NewGame("us", ("Борис", "Цветан"), {}))
    served.code = join_code(session.journal)
    do(session, action="buy", player="Борис", property="boardwalk")
    for deed in ("oriental", "reading_railroad"):
        do(session, action="buy", player="Цветан", property=deed)
        do(session, action="mortgage", player="Цветан", property=deed)
    do(session, action="pay", player="Цветан", amount=session.state.players[1].cash, to="bank")  # type: ignore[union-attr]
    do(session, action="rent", player="Цветан", property="boardwalk")  # a $50 debt to Борис
    table = join(browser, served, None, lang="ru")
    table.add_init_script(RECORD_SPEECH)
    table.goto(served.server.url + "/table")
    table.wait_for_function("document.documentElement.dataset.connected === 'yes'")
    boris = join(browser, served, "Борис", lang="ru")
    tsvetan = join(browser, served, "Цветан", lang="bg")
    tsvetan.goto(served.server.url + "/debts")
    tsvetan.once("dialog", lambda dialog: dialog.accept())
    tsvetan.click("button[data-action=bankrupt]")
    answer = tsvetan.wait_for_selector(".flash.ok", timeout=LIVE_MS)
    shot(tsvetan, tmp_path, "bankrupt-game-over-bg", ".flash.ok")
    assert "Играта свърши: печели Борис." in answer.inner_text()
    assert "ипотека" not in answer.inner_text(), answer.inner_text()
    boris.wait_for_selector("[data-testid=log] >> text=Игра окончена: побеждает Борис.", timeout=LIVE_MS)
    shot(boris, tmp_path, "game-over-log-ru", "[data-testid=log]")
    assert "Выкупить" not in boris.inner_text("[data-testid=log]")
    table.wait_for_function("window.__said.length === 1", timeout=LIVE_MS * 5)
    [[sentence, _, _]] = table.evaluate("window.__said")
    assert "Побеждает Борис" in sentence and "залог" not in sentence, sentence
    state = session.state
    assert state is not None and state.ended and state.decisions == ()
