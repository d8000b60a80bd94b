"""Hidden balances on the phones: Ann's phone never receives Bob's cash, nor a figure that gives it away, on
any page, API answer or stream message; the banker's phone does; the rule survives the journal."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask

from banker.actions import NewGame
from banker.journal import Journal
from banker.replay import replay_lines
from banker.session import Session
from banker.worth import liquidation_value, net_worth
from tests.webui.conftest import Phone, do
from webui.stream import Broker

PAGES = ("/", "/deeds", "/money", "/auction", "/trades", "/debts", "/history", "/more", "/end", "/strategy",
         "/setup", "/banker", "/records", "/simple")
APIS = ("/api/state", "/api/history", "/api/scores", "/api/advice", "/api/trades", "/api/me")


def new_game(session: Session, hidden: str) -> None:
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {"hidden_balances": hidden}))
    do(session, action="buy", player="Bob", property="baltic")
    do(session, action="pay", player="Bob", amount=263, to="bank")  # Bob: 1177
    do(session, action="buy", player="Ann", property="mediterranean")
    do(session, action="pay", player="Ann", amount=11, to="bank")  # Ann: 1429


def secrets_of(session: Session, player: str) -> dict[str, int]:
    """Every figure that tells ``player``'s cash: the cash, the net worth, the liquidation value, what is
    missing for the debts, and the bank's balance."""
    state = session.state
    assert state is not None
    seat = state.seat(player)
    found = {"cash": state.players[seat].cash, "net worth": net_worth(state, seat),
             "liquidation value": liquidation_value(state, seat), "bank balance": state.bank}
    missing = state.debt_total(seat) - state.players[seat].cash
    if missing > 0:
        found["missing"] = missing
    return found


def shows(body: str, amount: int) -> bool:
    """Whether ``body`` has ``amount`` as a number of its own: 1177, 1,177 or 1 177 (not in 11770 or a token)."""
    digits = str(abs(amount))
    forms = {digits, f"{abs(amount):,}", f"{abs(amount):,}".replace(",", "\u202f")}
    # Not part of a longer number ("11,177", "1,1770") nor of a token; a JSON comma may follow.
    return any(re.search(rf"(?<!\w)(?<!\d[,\u202f]){re.escape(form)}(?!\w|[,\u202f]\d{{3}})", body)
               for form in forms)


def bodies(who: Phone) -> dict[str, str]:
    out = {}
    for path in PAGES + APIS:
        response = who.client.get(path)
        assert response.status_code in (200, 409), (path, response.status_code)
        out[path] = response.get_data(as_text=True)
    return out


def stream_text(session: Session, phone_id: str, player: str | None) -> str:
    """The stream's first state message for a phone, and the message after one more action (a debt)."""
    broker = Broker(session, None, max_streams=4, keepalive=5)
    client = broker.open(phone_id, "en", player=player)
    assert client is not None
    chunks = broker.events(client, since="")
    text = next(chunks) + next(chunks)
    do(session, action="pay", player="Bob", amount=1900, to="bank")  # a debt: Bob is missing 1900 - his cash
    text += next(chunks)
    broker.shutdown()
    assert "event: state" in text
    return text


def leaked(text: str, secrets: dict[str, int]) -> list[str]:
    return [name for name, amount in secrets.items() if shows(text, amount)]


@pytest.mark.parametrize("hidden", ["bands", "hidden"])
def test_anns_phone_never_receives_bobs_cash(phone: Any, session: Session, hidden: str) -> None:
    new_game(session, hidden)
    ann = phone("Ann")
    proposal = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["mediterranean"]},
                                        "take": {"cash": 1100}})
    assert proposal.status_code == 200, proposal.get_json()
    do(session, action="pay", player="Bob", amount=100, to="bank")  # Bob: 1077, short of the 1100 asked
    secrets = secrets_of(session, "Bob")
    for path, body in bodies(ann).items():
        assert not leaked(body, secrets), (path, leaked(body, secrets))
    # A trade asking Bob for more than he has is made like any other: whether he can pay is his business,
    # checked when he accepts; Ann's Trades page does not say either.
    made = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["mediterranean"]},
                                    "take": {"cash": 1500}})
    assert made.status_code == 200
    assert not leaked(made.get_data(as_text=True), secrets)
    assert "does not have" not in ann.client.get("/trades").get_data(as_text=True)
    # The stream, then a debt of Bob's: its log line does not say how much more he needs.
    text = stream_text(session, ann.me()["phone"], "Ann")
    secrets = secrets_of(session, "Bob")
    assert "missing" in secrets
    assert not leaked(text, secrets), leaked(text, secrets)
    assert "Bob cannot pay the bank $1,900" in text
    for path, body in bodies(ann).items():
        assert not leaked(body, secrets), (path, leaked(body, secrets))
    # Her own cash she sees exactly.
    assert shows(ann.client.get("/").get_data(as_text=True), 1429)


def test_the_banker_sees_everybodys_cash(phone: Any, session: Session) -> None:
    new_game(session, "hidden")
    banker = phone(None).banker()
    secrets = secrets_of(session, "Bob")
    home = banker.client.get("/").get_data(as_text=True)
    assert shows(home, secrets["cash"]) and shows(home, secrets["net worth"])
    state = banker.client.get("/api/state").get_json()
    assert state["players"]["Bob"]["cash"] == secrets["cash"]
    assert state["bank"]["balance"] == secrets["bank balance"]
    text = stream_text(session, banker.me()["phone"], None)
    assert shows(text, secrets["cash"])
    assert "more cash is needed" in text


def test_bands_in_the_edition_money(phone: Any, session: Session) -> None:
    new_game(session, "bands")
    ann = phone("Ann")
    home = ann.client.get("/").get_data(as_text=True)
    cell = re.search(r'data-testid="cash-Bob">([^<]*)<', home)
    assert cell is not None and cell.group(1) == "$1,000–$2,000"
    assert re.search(r'data-testid="cash-Ann">\$1,429<', home)
    state = ann.client.get("/api/state").get_json()
    assert state["players"]["Bob"]["cash"] is None
    assert state["players"]["Bob"]["cash_band"] == {"low": 1000, "high": 2000}
    assert state["players"]["Ann"]["cash"] == 1429 and "cash_band" not in state["players"]["Ann"]
    assert "you see your own cash" in home
    watching = phone(None).client.get("/").get_data(as_text=True)
    assert "cash is shown only as a band" in watching
    assert re.search(r'data-testid="cash-Ann">\$1,000–\$2,000<', watching)
    do(session, action="pay", player="Bob", amount=800, to="bank")  # 377
    ru = phone("Cy", lang="ru")
    cell = re.search(r'data-testid="cash-Bob">([^<]*)<', ru.client.get("/").get_data(as_text=True))
    assert cell is not None and cell.group(1) == "меньше $500"


def test_with_the_rule_off_every_phone_sees_all(phone: Any, session: Session) -> None:
    new_game(session, "off")
    ann = phone("Ann")
    secrets = secrets_of(session, "Bob")
    assert shows(ann.client.get("/").get_data(as_text=True), secrets["cash"])
    assert ann.client.get("/api/state").get_json()["players"]["Bob"]["cash"] == secrets["cash"]


def test_the_end_shows_everything(phone: Any, session: Session) -> None:
    new_game(session, "hidden")
    do(session, action="end_game")
    ann = phone("Ann")
    secrets = secrets_of(session, "Bob")
    assert shows(ann.client.get("/end").get_data(as_text=True), secrets["net worth"])
    assert ann.client.get("/api/state").get_json()["players"]["Bob"]["cash"] == secrets["cash"]


def test_the_rule_is_chosen_at_setup_and_survives_the_journal(phone: Any, session: Session, journal: Journal,
                                                             app: Flask) -> None:
    banker = phone(None).banker()
    form = banker.client.get("/setup").get_data(as_text=True)
    assert 'name="rule_hidden_balances"' in form and 'value="bands"' in form
    token = banker.me()["csrf_token"]
    response = banker.client.post("/setup", data={
        "csrf_token": token, "idem": "setup-hidden-1", "edition": "us", "players": ["Ann", "Bob"],
        "rule_hidden_balances": "bands"})
    assert response.status_code == 303
    assert session.state is not None and session.state.rules.hidden_balances == "bands"
    # A restart reads the game back from the journal: the rule is there again.
    again = Session.resume(journal)
    assert again.state is not None and again.state.rules.hidden_balances == "bands"
    assert json.loads(journal.rows(again.game_id or 0, 0)[0][1])["rules"]["hidden_balances"] == "bands"
    # And a replay of the journaled script (banker replay) has it in its state.
    script = [row[1] for row in journal.rows(again.game_id or 0, 0)]
    assert replay_lines(script).state.rules.hidden_balances == "bands"


def test_a_wrong_value_is_refused(session: Session) -> None:
    from banker.errors import BadInput

    with pytest.raises(BadInput, match="off / bands / hidden"):
        session.submit(NewGame("us", ("Ann", "Bob"), {"hidden_balances": "some"}))



def test_the_game_being_played_counts_in_the_records_once_it_is_over(phone: Any, session: Session) -> None:
    new_game(session, "hidden")
    do(session, action="collect", player="Bob", amount=4321)  # Bob the richest: the records' moment and leader
    worth = secrets_of(session, "Bob")["net worth"]
    ann = phone("Ann").client.get("/records").get_data(as_text=True)
    assert not shows(ann, worth)
    banker = phone(None).banker().client.get("/records").get_data(as_text=True)
    assert shows(banker, worth)
    do(session, action="end_game")
    assert shows(phone("Ann").client.get("/records").get_data(as_text=True), worth)


def test_a_players_records_leave_out_an_unfinished_hidden_game_that_is_not_played_now(
        phone: Any, session: Session) -> None:
    new_game(session, "hidden")
    do(session, action="collect", player="Bob", amount=4321)  # Bob the richest: the records' moment and leader
    worth = secrets_of(session, "Bob")["net worth"]
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))  # another game, open to all: the hidden one waits

    def games_listed(body: str) -> int:
        section = body.split('data-testid="records-games"', 1)[1].split("</section>", 1)[0]
        return section.count("<li>")

    ann = phone("Ann").client.get("/records").get_data(as_text=True)
    assert not shows(ann, worth) and "Bob leads" not in ann
    assert games_listed(ann) == 2  # the first game of the fixture and the one being played, not the hidden one
    banker = phone(None).banker().client.get("/records").get_data(as_text=True)
    assert shows(banker, worth) and games_listed(banker) == 3
