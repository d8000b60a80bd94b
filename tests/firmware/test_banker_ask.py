"""A phone's banker request at the table: it stays on the screen its 30 s however long the table has been
left alone, then tells the phone that nobody answered; a request that came while the table was busy is
shown when the table falls back to idle."""

from __future__ import annotations

from firmware import grammar as g


def ctx(now: float) -> g.Context:
    return g.Context(game=None, now=now)


def ticks(gs: g.GrammarState, start: float, end: float, every: float = 0.25) -> tuple[g.GrammarState, list[g.Effect]]:
    effects: list[g.Effect] = []
    now = start
    while now <= end:
        gs, more = g.step(gs, g.Tick(), ctx(now))
        effects += more
        now += every
    return gs, effects


def answers(effects: list[g.Effect]) -> list[g.Answer]:
    return [e for e in effects if isinstance(e, g.Answer)]


def test_a_request_on_a_table_nobody_touched_for_a_minute_stays_until_its_time() -> None:
    gs = g.GrammarState(last_input=0.0)
    gs, _ = g.step(gs, g.BankerRequest("Bob", 7), ctx(60.0))
    assert isinstance(gs.step, g.BankerAsk)
    gs, effects = ticks(gs, 60.25, 60.0 + g.BANKER_ASK_S - 0.5)
    assert isinstance(gs.step, g.BankerAsk) and answers(effects) == []
    gs, effects = g.step(gs, g.Press("ok"), ctx(80.0))
    assert answers(effects) == [g.Answer(7, True)]


def test_an_unanswered_request_tells_the_phone_nobody_answered() -> None:
    gs = g.GrammarState(last_input=0.0)
    gs, _ = g.step(gs, g.BankerRequest("Bob", 3), ctx(100.0))
    gs, effects = ticks(gs, 100.25, 100.0 + g.BANKER_ASK_S + 1)
    assert answers(effects) == [g.Answer(3, None)]
    assert isinstance(gs.step, g.Idle)
    gs, _ = g.step(gs, g.BankerRequest("Bob", 4), ctx(200.0))  # asking again is shown again
    assert isinstance(gs.step, g.BankerAsk) and gs.step.token == 4


def test_a_request_that_came_during_a_flow_is_shown_when_the_table_falls_back_to_idle() -> None:
    gs = g.GrammarState(last_input=0.0, step=g.UnknownTag("04:AA"))
    gs, _ = g.step(gs, g.BankerRequest("Bob", 5), ctx(1.0))
    assert isinstance(gs.step, g.UnknownTag)  # never in the middle of a flow
    gs, _ = ticks(gs, 1.0, g.IDLE_TIMEOUT_S + 1)
    assert isinstance(gs.step, g.BankerAsk) and gs.step.token == 5


def test_the_table_holds_three_requests_and_answers_a_fourth_at_once() -> None:
    gs = g.GrammarState(last_input=0.0)
    effects: list[g.Effect] = []
    for token, who in enumerate(("Ann · phone AAAA", "Bob · phone CCCC", "Cy · phone EEEE", "Dee · phone FFFF"), 1):
        gs, more = g.step(gs, g.BankerRequest(who, token), ctx(1.0))
        effects += more
    assert isinstance(gs.step, g.BankerAsk) and gs.step.token == 1
    assert [r.token for r in gs.requests] == [2, 3]
    assert answers(effects) == [g.Answer(4, None)]  # the fourth never waits unseen behind the others


def test_a_request_with_the_words_of_one_held_is_answered_at_once() -> None:
    gs = g.GrammarState(last_input=0.0)
    gs, _ = g.step(gs, g.BankerRequest("Ann · phone AAAA", 1), ctx(1.0))
    gs, effects = g.step(gs, g.BankerRequest("Ann · phone AAAA", 2), ctx(1.5))
    assert answers(effects) == [g.Answer(2, None)] and gs.requests == ()
    gs, effects = g.step(gs, g.Press("ok"), ctx(5.0))
    assert answers(effects) == [g.Answer(1, True)]  # OK answers the question that was shown, only it
