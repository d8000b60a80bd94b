"""The strategy advisor on the phone: GET /api/advice, the Strategy page, My deeds and the auction."""

from __future__ import annotations

import csv
import io
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker import cli
from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.conftest import Phone, do, snapshot
from webui import advice as advice_module
from webui import create_app
from webui.openapi import document

ORANGE = ("st_james", "tennessee", "new_york")


def advise_csv(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, str]]:
    assert cli.main(["advise", "--table", "payback", "--csv", *args]) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def buy_orange(ann: Phone) -> None:
    for deed in ORANGE:
        response = ann.act({"action": "buy", "player": "Ann", "property": deed})
        assert response.status_code == 200, response.get_json()


def advice(who: Phone, query: str = "") -> dict[str, Any]:
    response = who.client.get("/api/advice" + query)
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def group(body: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(g for g in body["player"]["groups"] if g["group"] == name)
    return found


def test_the_orange_third_houses_pay_back_as_banker_advise_says(
        phone: Any, capsys: pytest.CaptureFixture[str]) -> None:
    ann = phone("Ann")
    buy_orange(ann)
    body = advice(ann)
    orange = group(body, "orange")
    assert orange["status"] == "complete" and orange["owned"] == 3
    third = next(s for s in orange["steps"] if s["step"] == "house" and s["level"] == 3)
    row = next(r for r in advise_csv(capsys) if r["group"] == "orange" and r["level"] == "3")
    assert third["payback_throws"] == pytest.approx(float(row["payback_throws"]), abs=0.005)
    assert abs(third["payback_throws"] - 9.44) < 0.1
    # Two opponents throw 1.187 times a turn each: a round is 2.374 of their throws.
    assert third["payback_rounds"] == pytest.approx(third["payback_throws"] / (2 * body["throws_per_turn"]))
    # The group's deeds and every other square share all the throws.
    squares = {deed["square"] for deed in orange["deeds"]}
    others = sum(r["share"] for r in body["landing"] if r["square"] not in squares)
    assert sum(d["share"] for d in orange["deeds"]) + others == pytest.approx(1.0, abs=1e-9)
    assert sum(d["percent"] for d in orange["deeds"]) == pytest.approx(orange["percent"])
    assert {r["id"] for r in body["landing"]} >= {"go", "jail", "in_jail", *ORANGE}


def test_the_tables_are_banker_advises(phone: Any, capsys: pytest.CaptureFixture[str]) -> None:
    body = advice(phone("Ann"))
    rows = advise_csv(capsys)
    assert len(body["payback"]) == len(rows)
    for mine, theirs in zip(body["payback"], rows, strict=True):
        assert (mine["group"], mine["step"], str(mine["level"]), str(mine["cost"])) == (
            theirs["group"], theirs["step"], theirs["level"], theirs["cost"])
        if theirs["payback_throws"]:
            assert mine["payback_throws"] == pytest.approx(float(theirs["payback_throws"]), abs=0.005)
    long_stay = advice(phone("Ann"), "?jail=long")
    rows = advise_csv(capsys, "--jail", "long")
    assert long_stay["assumptions"]["jail"] == "long"
    assert [r["payback_throws"] for r in long_stay["payback"]] == pytest.approx(
        [float(r["payback_throws"]) for r in rows], abs=0.005)


def test_the_short_game_tables_stop_at_three_houses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Journal(tmp_path / "short.sqlite3") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {"short_game": True},
                               deal={"Ann": ("st_james", "tennessee"), "Bob": ("park_place", "boardwalk")}))
        app = create_app(session, None, {"TESTING": True})
        body = advice(Phone(app.test_client(), app).join("Ann"))
        assert body["assumptions"] == {"jail": "short", "fine_or_chance": "pay", "short_game": True, "max_houses": 3}
        rows = advise_csv(capsys, "--short-game")
        assert [(r["step"], r["level"]) for r in rows if r["group"] == "orange"][-1] == ("hotel", "4")
        orange = group(body, "orange")
        assert orange["status"] == "open" and orange["next"]["property"] == "new_york"
        assert [s["payback_throws"] for s in orange["steps"]] == pytest.approx(
            [float(r["payback_throws"]) for r in rows if r["group"] == "orange"], abs=0.005)


def test_the_figures_are_computed_once_per_edition_and_rules(phone: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[object] = []
    real = advice_module.build_report

    def counting(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(advice_module, "build_report", counting)
    phones = [phone(name) for name in ("Ann", "Bob", "Cy")]
    answers: list[int] = []

    def ask(who: Phone) -> None:
        for _ in range(5):
            answers.append(who.client.get("/api/advice").status_code)

    threads = [threading.Thread(target=ask, args=(p,)) for p in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for path in ("/strategy", "/deeds", "/strategy/board.svg", "/strategy/board.svg"):
        assert phones[0].client.get(path).status_code == 200
    assert answers == [200] * 15
    assert len(built) == 1
    advice(phones[0], "?jail=long")
    advice(phones[1], "?jail=long")
    assert len(built) == 2


def test_a_player_sees_only_their_own_advice_the_banker_anyones(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Bob", property="boardwalk")
    ann = phone("Ann")
    assert advice(ann)["player"]["name"] == "Ann"
    response = ann.client.get("/api/advice?player=Bob")
    assert response.status_code == 403 and response.get_json()["error"] == "web_advice_not_yours"
    assert advice(ann, "?player=Ann")["player"]["name"] == "Ann"
    watcher = phone(None)
    assert advice(watcher)["player"] is None
    assert watcher.client.get("/api/advice?player=Bob").status_code == 403
    banker = phone(None).banker()
    bob = advice(banker, "?player=Bob")["player"]
    assert bob["name"] == "Bob" and [g["group"] for g in bob["groups"]] == ["dark_blue"]
    unknown = banker.client.get("/api/advice?player=Zed")
    assert unknown.status_code == 422 and "Zed" in unknown.get_json()["message"]
    bad = banker.client.get("/api/advice?jail=forever")
    assert bad.status_code == 422 and bad.get_json()["error"] == "advisor_bad_option"
    assert phone(None).client.get("/api/advice").status_code == 200
    assert Phone(banker.client.application.test_client(), banker.app).client.get("/api/advice").status_code == 401


def test_what_the_player_can_afford_is_the_engines_answer(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    buy_orange(ann)
    body = advice(ann)
    orange = group(body, "orange")
    best = body["player"]["best"]
    assert best["kind"] == "build" and best["possible"] is True and best["cost"] == 100
    assert best["action"] == {"action": "build", "player": "Ann", "property": best["property"]}
    # New York lands most: its first house pays back fastest of the three.
    assert best["property"] == "new_york" == orange["next"]["property"]
    assert orange["next_step"]["level"] == 1 and orange["next_step"]["cost"] == 300
    assert ann.act(best["action"]).status_code == 200
    after = group(advice(ann), "orange")
    new_york = next(d for d in after["deeds"] if d["property"] == "new_york")
    assert new_york["next"]["possible"] is False
    assert new_york["next"]["refused"]["error"] == "build_evenly"
    assert after["next"]["possible"] is True and after["next"]["property"] != "new_york"
    # With too little cash nothing is affordable, and the engine says why.
    do(session, action="pay", player="Ann", amount=session_cash(session, "Ann") - 50, to="bank")
    before = snapshot(session)
    poor = advice(ann)
    assert poor["player"]["best"] is None
    assert group(poor, "orange")["next"]["refused"]["error"] == "not_enough_cash"
    assert snapshot(session) == before


def session_cash(session: Session, name: str) -> int:
    assert session.state is not None
    return session.state.players[session.state.seat(name)].cash


def test_a_deed_for_sale_that_completes_a_group_is_worth_more(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    do(session, action="buy", player="Ann", property="st_james")
    do(session, action="buy", player="Ann", property="tennessee")
    body = advice(ann)
    for_sale = {v["property"]: v for v in body["player"]["for_sale"]}
    assert set(for_sale) == {p for p, o in session_owners(session).items() if o is None}
    # New York completes the group: it doubles the rent of the other two as well as earning its own.
    new_york, kentucky = for_sale["new_york"], for_sale["kentucky"]
    assert new_york["payback_throws"] < kentucky["payback_throws"]
    orange = group(body, "orange")
    assert orange["status"] == "open" and orange["next"] == new_york
    landing = {r["id"]: r["share"] for r in body["landing"]}
    doubled = 2 * (14 * landing["st_james"] + 14 * landing["tennessee"] + 16 * landing["new_york"])
    single = 14 * landing["st_james"] + 14 * landing["tennessee"]
    assert new_york["gain_per_throw"] == pytest.approx(doubled - single)
    assert new_york["payback_throws"] == pytest.approx(200 / (doubled - single))


def session_owners(session: Session) -> dict[str, str | None]:
    assert session.state is not None
    state = session.state
    return {p.id: (state.players[ps.owner].name if ps.owner is not None else None)
            for p, ps in zip(state.edition.properties, state.props, strict=True)}


def test_a_deed_at_auction_shows_what_it_is_worth(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="park_place")
    do(session, action="auction", property="boardwalk", declined_by="Bob")
    do(session, action="bid", player="Cy", amount=300)
    ann = phone("Ann")
    worth = advice(ann)["player"]["auction"]
    assert worth["property"] == "boardwalk" and worth["high_bid"] == 300
    assert worth["at_price"]["payback_throws"] == pytest.approx(400 / worth["gain_per_throw"])
    assert worth["at_next_bid"]["cost"] == 301
    html = ann.client.get("/auction").get_data(as_text=True)
    assert 'data-testid="auction-worth"' in html and "At the next bid, $301" in html
    assert "At the printed price $400" in ann.client.get("/strategy").get_data(as_text=True)


def test_a_game_without_advice_says_so_everywhere_and_keeps_it_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "quiet.sqlite3"
    with Journal(path) as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {"advice": False}))
    with Journal(path) as journal:
        session = Session.resume(journal)
        assert session.state is not None and session.state.rules.advice is False
        app = create_app(session, None, {"TESTING": True})
        ann = Phone(app.test_client(), app).join("Ann")
        response = ann.client.get("/api/advice")
        assert response.status_code == 409 and response.get_json()["error"] == "advisor_off"
        assert "switched off" in response.get_json()["message"]
        strategy = ann.client.get("/strategy").get_data(as_text=True)
        assert 'data-testid="advice-off"' in strategy and "payback-table" not in strategy
        assert ann.client.get("/strategy/board.svg").status_code == 409
        assert 'data-testid="best"' not in ann.client.get("/deeds").get_data(as_text=True)
        assert "/strategy" not in ann.client.get("/money").get_data(as_text=True)


def test_setup_switches_the_advice_off(phone: Any, session: Session) -> None:
    from tests.webui.test_pages import form_fields, page

    banker = phone(None).banker()
    html = page(banker, "/setup")
    assert 'name="rule_advice"' in html and "Strategy advice" in html
    fields = form_fields(html)
    response = banker.client.post("/setup", data={**fields, "edition": "us", "players": ["Ann", "Bob"],
                                                 "rule_advice": "no"})
    assert response.status_code == 303
    assert session.state is not None and session.state.rules.advice is False
    assert banker.client.get("/api/advice").status_code == 409


@pytest.mark.parametrize("lang", ["en", "ru", "bg"])
def test_the_strategy_page_in_each_language(phone: Any, session: Session, lang: str) -> None:
    ann = phone("Ann", lang)
    buy_orange(ann)
    do(session, action="buy", player="Ann", property="reading_railroad")
    html = ann.client.get("/strategy").get_data(as_text=True)
    for testid in ("assumptions", "best", "for-sale", "payback-table", "cost-table", "heat-map"):
        assert f'data-testid="{testid}"' in html
    assert 'data-group="orange"' in html and 'data-group="railroad"' in html
    text = re.sub(r"<[^>]+>", " ", html)
    assert not re.search(r"\b(web|advisor)_[a-z_]+", text), "a text key is shown"
    assert "(s)" not in text
    if lang == "ru":
        assert "Стратегия" in text and "бросков соперника" in text and "Оранжевые" in text
        assert "9,4" in text  # the third houses of the orange group, with a decimal comma
    elif lang == "en":
        assert "9.4" in text and "Orange" in text
    svg = ann.client.get("/strategy/board.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.get_data(as_text=True).startswith("<svg")
    long_page = ann.client.get("/strategy?jail=long").get_data(as_text=True)
    assert "strategy/board.svg?jail=long" in long_page


def test_my_deeds_show_the_landing_share_and_the_next_building(phone: Any) -> None:
    ann = phone("Ann")
    buy_orange(ann)
    html = ann.client.get("/deeds").get_data(as_text=True)
    assert html.count('data-testid="deed-advice"') == 3
    assert "Lands: 3.09% of throws" in html  # New York Avenue
    assert "Next house: pays back in" in html and 'data-testid="best"' in html


def test_the_answer_has_the_documented_fields(phone: Any) -> None:
    ann = phone("Ann")
    buy_orange(ann)
    body = advice(ann)
    schemas = document()["components"]["schemas"]
    assert set(schemas["Advice"]["required"]) == set(body)
    step = schemas["AdviceStep"]
    for row in body["payback"]:
        assert set(step["required"]) <= set(row) <= set(step["properties"]) | {"group"}
    purchase = schemas["Purchase"]
    for found in [body["player"]["best"], *body["player"]["for_sale"]]:
        assert set(purchase["required"]) <= set(found) <= set(purchase["properties"])
    assert "/api/advice" in document()["paths"]
    text = (Path(__file__).parents[2] / "docs" / "phone.md").read_text(encoding="utf-8")
    assert "GET /api/advice" in text
    for key in body["player"]["groups"][0]:
        assert f"`{key}`" in text or f'"{key}"' in text, key


def test_the_api_answer_does_not_change_the_game(phone: Any, session: Session, app: Flask) -> None:
    ann = phone("Ann")
    buy_orange(ann)
    before = snapshot(session)
    for query in ("", "?jail=long", "?jail=short"):
        advice(ann, query)
    assert snapshot(session) == before


def test_every_cell_of_the_payback_tables_reads_at_the_contrast_small_text_needs() -> None:
    from banker.advisor.heatmap import heat_colour
    from webui.advice import AdviceText, contrast

    text = AdviceText("en", None)  # type: ignore[arg-type]
    for i in range(1001):
        throws = 10 ** (1 + 2 * i / 1000)  # from 10 to 1000 throws
        background, ink = text.cell_colour(throws, 10, 1000)
        assert contrast(background, ink) >= 4.5, (throws, background, ink)
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert heat_colour(2.0, 1.0, 2.0) == text.cell_colour(10, 10, 1000)[0]
