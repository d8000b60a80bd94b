"""The pages for everyone at the table: the simple view (a child's phone), large text, the family's records
and the web app manifest that puts the page on a phone's home screen.

The phone's screen settings (large text, the simple view) are kept in its cookie, like its language.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, current_app, flash, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from banker import balances
from banker import records as family
from banker.actions import Bid
from banker.chronicle import Chronicle
from banker.edition import Edition, load_edition
from banker.errors import CardFull
from banker.journal import GameInfo, Journal
from banker.ledger import Event
from banker.messages import label
from banker.now import what_matters
from banker.session import Session
from banker.state import GameState
from webui import views
from webui.chart import wins_chart
from webui.core import lang, phone, services
from webui.texts import text

family_pages = Blueprint("family", __name__)

SETTINGS = ("large", "simple")
"""The screen settings a phone keeps in its cookie."""


# --- the phone's screen settings --------------------------------------------------------------------------

def screen(name: str) -> bool:
    """Whether this phone has the screen setting ``name`` on (:data:`SETTINGS`)."""
    return session.get(name) is True


@family_pages.post("/screen")
def set_screen() -> BaseResponse:
    """Large text and the simple view, for this phone only (a checkbox each; a missing one is off).
    ``only`` names the one setting a form changes, leaving the other as it is."""
    only = request.form.get("only", "")
    for name in SETTINGS:
        if only in ("", name):
            session[name] = request.form.get(name) in ("1", "on", "yes")
    session.permanent = True
    flash(text("web_screen_saved", lang()), "ok")
    target = request.form.get("next", "")
    return redirect(target if target in ("/", "/more", "/simple") else url_for("pages.more"), code=303)


# --- the last payment and the live announcement -------------------------------------------------------------

@dataclass(frozen=True)
class Payment:
    """The latest money that came to or left a player: the journal row, the player's gain (negative: paid)
    and the log line that says it."""

    seq: int
    amount: int
    line: str


def last_payment(state: GameState | None, game_id: int | None, journal: Journal, player: str | None,
                 language: str, chronicle: Chronicle | None = None) -> Payment | None:
    """The latest payment to or from ``player`` in the game's journal, leaving out what an undo took back:
    the game's kept figures (``chronicle``) know which action it was, and only that row is read."""
    if state is None or game_id is None or not player or player not in state.seats or chronicle is None:
        return None
    seq = chronicle.paid.get(state.seat(player))
    if seq is None:
        return None
    return payment_in(journal.rows_before(game_id, seq + 1, 1), state, player, language)


def payment_in(rows: list[tuple[int, str, str, float]], state: GameState, player: str,
               language: str) -> Payment | None:
    """The latest payment to or from ``player`` in ``rows``."""
    for seq, _action_text, events_text, _at in reversed(rows):
        try:
            events = json.loads(events_text)
        except ValueError:
            continue
        for event in reversed(events if isinstance(events, list) else []):
            gain = gain_of(event, player)
            if gain:
                try:
                    # As the player's own phone may read it (hidden balances: a debt's line names no one's cash).
                    own = balances.Viewer(player, False)
                    lines = balances.log_lines(state, [Event.from_json(event)], language, own)
                except (KeyError, TypeError, ValueError):
                    lines = []
                return Payment(seq, gain, " ".join(lines))
    return None


def gain_of(event: Any, player: str) -> int:
    """What a saved event's transaction moved into ``player``'s cash (negative: out of it)."""
    if not isinstance(event, dict):
        return 0
    txn = event.get("transaction")
    postings = txn.get("postings") if isinstance(txn, dict) else None
    if not isinstance(postings, list):
        return 0
    return sum(p[1] for p in postings
               if isinstance(p, list) and len(p) == 2 and p[0] == player and isinstance(p[1], int))


def my_last_payment() -> Payment | None:
    who = phone()
    svc = services()
    if who is None or who.player is None:
        return None
    found = svc.session.chronicle()
    if found is None:
        return None
    return last_payment(found[0], svc.session.game_id, svc.session.journal, who.player, who.lang, found[1])


# --- the simple view ----------------------------------------------------------------------------------------

def now_buttons(state: GameState, player: str, language: str) -> list[views.Button]:
    """The engine's offers that matter now (:func:`banker.now.what_matters`), as the phone's buttons."""
    buttons = []
    for found in what_matters(state, player):
        button = views.offer_button(state, found, language)
        bid = found.action
        if isinstance(bid, Bid):
            button.label = text("web_simple_bid", language, amount=state.money(bid.amount))
        buttons.append(button)
    return buttons


def simple_page() -> str:
    who = phone()
    svc = services()
    state = svc.session.state
    player = who.player if who is not None and state is not None and who.player in state.seats else None
    buttons = now_buttons(state, player, who.lang) if state is not None and player and who is not None else []
    proposals = [p for p in state.open_proposals() if player and p.receiver == player] if state is not None else []
    return render_template("simple.html", player=player, buttons=buttons, payment=my_last_payment(),
                           proposals=proposals)


@family_pages.get("/simple")
def simple() -> BaseResponse | str:
    if phone() is None:
        return redirect(url_for("pages.join"), code=303)
    return simple_page()


# --- the family's records -----------------------------------------------------------------------------------

class RecordsCache:
    """The records of the saved games but the one being played, worked out once while those games stay the same
    (:meth:`Journal.revision`), for a phone that may see every game and for one that may not; the game being
    played is put with them from its chronicle (:meth:`Session.record`) at each read. Each saved game's record is
    its kept summary (:meth:`Journal.summaries`); a game without one is replayed once and its summary kept."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: dict[int, tuple[int, family.GameRecord | None]] = {}
        self._tallies: dict[bool, tuple[tuple[int, int, int | None], family.Tally]] = {}

    def records(self, session: Session, leave_out: Callable[[family.GameRecord], bool],
                variant: bool = False) -> family.Records:
        """The records of every saved game but those ``leave_out`` names (whose figures this phone may not see);
        ``variant`` names the ``leave_out`` (the same one for the same ``variant``)."""
        journal = session.journal
        current = session.record()
        playing = current.id if current is not None else None
        mark = journal.revision(playing)
        with self._lock:
            kept = self._tallies.get(variant)
        if kept is None or kept[0] != mark:
            kept = (mark, family.Tally.of(record for record in self._saved(journal, playing)
                                          if not leave_out(record)))
            with self._lock:
                self._tallies[variant] = kept
        return kept[1].with_game(current if current is not None and not leave_out(current) else None)

    def _saved(self, journal: Journal, playing: int | None) -> list[family.GameRecord]:
        """The record of every saved game but ``playing``."""
        summaries: dict[int, tuple[int, str]] | None = None
        found = []
        for info in journal.games():
            if info.id == playing:
                continue
            with self._lock:
                cached = self._records.get(info.id)
            if cached is not None and cached[0] == info.actions:
                record = cached[1]
            else:
                if summaries is None:
                    summaries = journal.summaries()
                record = self._summary(journal, info, summaries.get(info.id))
                with self._lock:
                    self._records[info.id] = (info.actions, record)
            if record is not None:
                found.append(record)
        return found

    @staticmethod
    def _summary(journal: Journal, info: GameInfo, kept: tuple[int, str] | None) -> family.GameRecord | None:
        if kept is not None and kept[0] == info.actions:
            try:
                return family.GameRecord.from_json(kept[1])
            except ValueError:
                pass  # made again below
        record = family.game_record(family.saved_game(journal, info))
        if record is not None:
            with contextlib.suppress(CardFull):  # else made again the next time
                journal.keep_summary(info.id, info.actions, record.to_json())
        return record


def family_records() -> family.Records:
    """The records as this phone may read them: under hidden balances a game that goes on counts once it is over
    (its richest moment and its leader would tell the others' net worth), except for the banker."""
    cache: RecordsCache = current_app.extensions["banker_records"]
    session = services().session
    banker = views.viewer_of(phone()).banker
    return cache.records(session, lambda record: record.hidden and not record.ended and not banker, banker)


def when(at: float, language: str = "en") -> str:
    """A date as the records show it, in the reader's language ("Dec 3, 2026", "3 дек. 2026 г.",
    "3.12.2026 г."; the table's own clock and time zone), kept on one line (non-breaking spaces and
    hyphens)."""
    from datetime import date

    from babel.dates import format_date

    day = date(*time.localtime(at)[:3])
    return format_date(day, format="medium", locale=language).replace(" ", "\u00a0").replace("-", "\u2011")


def duration(seconds: float, language: str) -> str:
    minutes = int(seconds // 60)
    return text("web_records_duration", language, hours=minutes // 60, minutes=minutes % 60)


def deck_name(edition: Edition, deck: str, language: str) -> str:
    """A deck's name as printed, or in the phone's language when the phone reads another ("Шанс" for the
    US edition's Chance)."""
    return edition.deck_names[deck] if language == edition.language else label(deck, language)


def money_of(edition: str, amount: int) -> str:
    return load_edition(edition).format_money(amount)


def deed_name(edition: str, deed: str) -> str:
    found = load_edition(edition).by_id.get(deed)
    return found.name if found is not None else deed


def records_chart(found: family.Records, language: str) -> str:
    return wins_chart(list(found.wins), text("web_records_wins_chart", language))


GAMES_SHOWN = 50
"""Saved games the Records page lists at a time, the newest first (``?skip=N`` leaves out the N newest)."""


@family_pages.get("/records")
def records_page() -> BaseResponse | str:
    who = phone()
    if who is None:
        return redirect(url_for("pages.join"), code=303)
    found = family_records()
    raw = request.args.get("skip", "")
    skip = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else 0
    skip = min(skip, max(0, len(found.games) - 1))
    shown = found.games[skip:skip + GAMES_SHOWN]
    older = skip + GAMES_SHOWN if skip + GAMES_SHOWN < len(found.games) else None
    return render_template("records.html", records=found, chart=records_chart(found, who.lang), shown=shown,
                           older=older, paged=skip > 0)


# --- the home screen ----------------------------------------------------------------------------------------

@family_pages.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: "Add to Home screen" opens the table's page full-screen, with its icon."""
    language = lang()
    body = {
        "name": text("web_title", language),
        "short_name": text("web_app_short_name", language),
        "lang": language,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f1ea",
        "theme_color": "#1b5e20",
        "icons": [{"src": url_for("static", filename=f"icon-{size}.png"), "sizes": f"{size}x{size}",
                   "type": "image/png", "purpose": "any"} for size in (192, 512)],
    }
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


def setup_family(app: Flask) -> None:
    app.extensions["banker_records"] = RecordsCache()
    app.register_blueprint(family_pages)

    @app.context_processor
    def context() -> dict[str, Any]:
        return {"screen": screen, "last_payment": my_last_payment, "family_records": family_records,
                "when": lambda at: when(at, lang()), "duration": lambda seconds: duration(seconds, lang()),
                "money_of": money_of,
                "deed_name": deed_name, "records_chart": lambda found: records_chart(found, lang()),
                "card_text": lambda edition, card: edition.card_text(card, lang()),
                "deck_name": lambda edition, deck: deck_name(edition, deck, lang())}
