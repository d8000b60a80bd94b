"""A tag that reads as the wrong deed or card is re-taught from the screen its tap opened (hold OK),
the next tap uses it, the journal keeps it, and the banker's phone sees it in the log."""

from __future__ import annotations

from collections.abc import Callable

from firmware import grammar as g
from firmware.tags import simulated_uid
from tests.firmware.conftest import Play


def _to(game: Play, text: str) -> None:
    """Move the cursor to the line with ``text`` (the menu scrolls) without pressing OK."""
    for _ in range(60):
        view = game.script.loop.view
        assert view is not None and view.highlight is not None
        if text in view.lines[view.highlight]:
            return
        game.do("down")
    raise AssertionError(f"{text!r} is not in the menu:\n{game.screen()}")


BALTIC, ORIENTAL = simulated_uid("deed:3"), simulated_uid("deed:6")


def test_holding_ok_on_a_deed_re_teaches_it_and_the_next_tap_uses_it(make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    game.do(f"tap:uid:{BALTIC}")
    assert game.screen().startswith("Baltic Avenue")
    game.do("hold:ok")
    assert game.screen().startswith("Not Baltic Avenue?"), game.screen()
    view = game.script.loop.view
    assert view is not None and view.highlight is not None
    assert view.lines[view.highlight] == "Reading Railroad"  # the cursor starts next to what it read as
    _to(game, "Oriental Avenue")
    game.do("ok")
    flat = game.flat()
    assert "This tag is now Oriental Avenue" in flat and "is now Baltic Avenue" in flat, flat
    assert game.beeps[-1] == "confirm"
    game.do("wait:6")
    # The next tap of the same sticker is Oriental; Oriental's old sticker is Baltic now (swapped).
    game.do("tap:Bob", f"tap:uid:{BALTIC}")
    assert game.screen().startswith("Oriental Avenue") and "Bob buys it" in game.screen(), game.screen()
    game.do("cancel", "cancel", "wait:6", "tap:Bob", f"tap:uid:{ORIENTAL}")
    assert game.screen().startswith("Baltic Avenue"), game.screen()
    journal = game.script.journal
    assert journal.tags()[BALTIC] == "deed:6" and journal.tags()[ORIENTAL] == "deed:3"
    game_id = game.script.session.game_id
    assert game_id is not None
    [entry] = journal.table_log(game_id)
    assert entry.key == "retaught" and entry.params["meaning"] == "deed:6" and entry.seq == game.state.seq
    [(seq, line)] = game.script.loop.table_log("en")
    assert seq == game.state.seq
    assert line == f"Tags swapped at the table: {BALTIC} is Oriental Avenue, {ORIENTAL} is Baltic Avenue."
    assert game.actions() == []  # no money moved, nothing journaled as an action


def test_a_tag_whose_meaning_no_other_tag_has_is_simply_re_taught(make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    loop = game.script.loop
    loop.tags.remove(ORIENTAL)  # Oriental's own sticker was never enrolled
    game.do("tap:Ann", f"tap:uid:{BALTIC}")
    assert "Ann buys it" in game.screen()
    game.do("hold:ok")
    _to(game, "Oriental Avenue")
    game.do("ok")
    assert "This tag is now Oriental Avenue. Tap it again." in game.flat()
    assert loop.tags.meaning_of(BALTIC) == "deed:6" and loop.tags.uid_of("deed:3") is None
    assert loop.table_log("ru")[0][1].startswith(f"Метка {BALTIC} переучена за столом: это ")


def test_a_tag_can_be_re_taught_as_another_kind(make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    game.do(f"tap:uid:{BALTIC}", "hold:ok")
    _to(game, "Another kind")
    game.do("ok")
    game.choose("A Chance card")
    game.choose("Advance to Boardwalk")
    assert "This tag is now Advance to Boardwalk" in game.flat()
    assert game.script.loop.tags.meaning_of(BALTIC) == "card:chance:advance_boardwalk"
    game.do("wait:6", "tap:Ann", f"tap:uid:{BALTIC}")
    assert "Boardwalk" in game.flat(), game.flat()


def test_cancel_leaves_the_tag_as_it_was_and_hold_ok_elsewhere_keeps_its_meaning(
        make_play: Callable[..., Play]) -> None:
    game = make_play("Ann", "Bob")
    game.do(f"tap:uid:{BALTIC}", "hold:ok", "down", "cancel")
    assert game.screen().startswith("Baltic Avenue")
    assert game.script.loop.tags.meaning_of(BALTIC) == "deed:3"
    # Once a button was pressed the screen is no longer the tap's: hold OK there is what it was.
    game.do("wait:7", "hold:ok")
    assert isinstance(game.script.loop.grammar.step, g.Menu)
    assert game.script.loop.grammar.step.title_key == "setup"
    # A transfer's amount keeps its long OK (the step size).
    game.do("cancel", "tap:Ann", "tap:Bob")
    amount = game.script.loop.grammar.step
    assert isinstance(amount, g.Amount)
    game.do("hold:ok")
    step = game.script.loop.grammar.step
    assert isinstance(step, g.Amount) and step.step_index == 1
    assert game.script.journal.table_log(game.script.session.game_id or 0) == []


def test_the_banker_phone_sees_a_re_taught_tag_in_the_history(make_play: Callable[..., Play]) -> None:
    from webui import create_app

    game = make_play("Ann", "Bob")
    game.do("tap:Ann", "tap:go", "ok")
    seen: list[int] = []
    game.script.loop.add_log_listener(lambda: seen.append(1))
    game.do(f"tap:uid:{BALTIC}", "hold:ok")
    _to(game, "Oriental Avenue")
    game.do("ok")
    assert seen == [1]
    app = create_app(game.script.session, table=game.script.loop, config={"TESTING": True, "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie["code_ok"] = True
    client.post("/join", data={"as": ""})
    html = client.get("/history").get_data(as_text=True)
    assert f"Tags swapped at the table: {BALTIC} is Oriental Avenue" in html, html[-2000:]
