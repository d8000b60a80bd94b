"""Each printed card of the US and UK editions in the reader's language: the phones' Pay page, the log, the
table's card menu; the deed names stay as printed, and so does every amount."""

from __future__ import annotations

import re
from typing import Any

import pytest

from banker.edition import load_edition
from banker.ledger import Event
from banker.spoken import has_latin
from banker.text import describe_event
from tests.webui.conftest import Phone
from tests.webui.test_pages import page

AMOUNT = re.compile(r"[$£]\d+")


@pytest.mark.parametrize("edition_id", ["us", "uk"])
@pytest.mark.parametrize("language", ["ru", "bg"])
def test_every_card_has_a_text_in_the_language_with_the_printed_deeds_and_amounts(edition_id: str,
                                                                                  language: str) -> None:
    edition = load_edition(edition_id)
    deeds = [p.name for p in edition.properties]
    for deck, cards in edition.decks.items():
        for card in cards:
            text = edition.card_text(card, language)
            assert text != card.text, (deck, card.id)
            assert AMOUNT.findall(text) == AMOUNT.findall(card.text), (deck, card.id, text)
            named = [d for d in deeds if d in card.text]
            assert all(d in text for d in named), (deck, card.id, text)
            rest = text
            for name in [*named, "GO", "St. Charles Place"]:
                rest = rest.replace(name, "")
            assert not has_latin(rest), (deck, card.id, text)
    assert edition.card_text(edition.decks["chance"][0], "en") == edition.decks["chance"][0].text


def test_the_log_says_the_card_in_the_readers_language() -> None:
    edition = load_edition("us")
    event = Event("card", {"player": "Ann", "text": "Bank pays you a dividend of $50.", "deck": "chance",
                           "card": "dividend"})
    assert describe_event(edition, event, "ru") == "Ann берёт карточку: Банк платит вам дивиденды: $50."
    assert describe_event(edition, event, "en") == "Ann draws: Bank pays you a dividend of $50."


def test_the_pay_page_lists_the_cards_in_the_phones_language(phone: Any) -> None:
    bob: Phone = phone("Bob", lang="ru")
    html = page(bob, "/money")
    assert "Отправляйтесь на Illinois Avenue. Если проходите GO, получите $200." in html
    assert "Advance to Illinois Avenue" not in html and "<h2>Шанс</h2>" in html
    english = page(phone("Ann"), "/money")
    assert "Advance to Illinois Avenue. If you pass GO, collect $200." in english
