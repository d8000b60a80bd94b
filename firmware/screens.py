"""What the OLED shows, as data: ``view(grammar_state, context) -> ScreenView``.

Pure: computed from the grammar's step and the game, in the table's language and the edition's
money format. Drawing stays in :mod:`hardware.display`. The screen is 21 characters wide: lines
wrap, titles end in "…" rather than being cut mid-letter, and money is the big bold line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import assert_never

from banker import balances
from banker import choice as bc
from banker import offer as offering
from banker.actions import Bid, Collect, Pay
from banker.board import take_back
from banker.edition import EDITIONS, load_edition
from banker.engine import last_action
from banker.messages import label as word
from banker.messages import render
from banker.rules import TIMED_MINUTES
from banker.scores import final_scores
from banker.state import GameState
from banker.text import describe_action, describe_event
from banker.worth import can_raise
from firmware import grammar as g
from firmware import moves as board
from firmware import texts
from firmware.tags import Meaning
from firmware.tags import label as tag_label
from hardware.controls import STUCK_S
from hardware.display import ScreenView, body_lines, body_rows

WIDTH_CHARS = 21
"""Characters of the 6-pixel font on a 128-pixel line."""


def t(ctx: g.Context, key: str, **values: object) -> str:
    return render(texts.PREFIX + key, values, ctx.language)


def view(gs: g.GrammarState, ctx: g.Context) -> ScreenView:
    current = gs.step
    match current:
        case g.Idle():
            return _idle(current, ctx)
        case g.PlayerStep():
            return _player(current, ctx)
        case g.Menu():
            return _menu(current, ctx)
        case g.Choose():
            return _choose(current, ctx)
        case g.Waiting():
            return _waiting(current, ctx)
        case g.RentFrom():
            return _rent_from(current, ctx)
        case g.Confirm():
            return _confirm(current, ctx)
        case g.Dice():
            return _dice(current, ctx)
        case g.Amount():
            return _amount(current, ctx)
        case g.Notice():
            return _notice(current, ctx)
        case g.UndoAsk():
            return _undo(current, ctx)
        case g.UnknownTag():
            return _unknown(current, ctx)
        case g.BankerAsk():
            return _banker_ask(current, ctx)
        case g.Enrolling():
            return _enrolling(current, ctx)
        case g.NewGameWizard():
            return _wizard(current, ctx)
        case g.ShowJoin():
            return _join(current, ctx)
        case _:
            assert_never(current)


def columns(left: str, right: str, width: int = WIDTH_CHARS) -> str:
    """``left`` and ``right`` on one line of ``width`` characters (the font is monospaced)."""
    room = width - len(right) - 1
    if room < 1:
        return f"{left} {right}"
    if len(left) > room:
        left = left[: max(1, room - 1)] + "…"
    return left + " " * (width - len(left) - len(right)) + right


def short_name(name: str, others: Sequence[str], room: int) -> str:
    """``name`` in ``room`` characters, told apart from the ``others`` cut to the same room: "Алек…" for
    both Александр and Алексей would be no use, so the end of the name is kept as well ("Але…р",
    "Але…й")."""
    if len(name) <= room or room < 3:
        return name if len(name) <= room else name[: max(1, room - 1)] + "…"

    def cut(text: str, tail: int) -> str:
        if len(text) <= room:
            return text
        return text[: room - 1 - tail] + "…" + (text[-tail:] if tail else "")

    rivals = [other for other in others if other != name]
    for tail in range(0, room - 2):
        mine = cut(name, tail)
        if all(cut(other, tail) != mine for other in rivals):
            return mine
    return cut(name, room - 3)


def clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# --- idle ------------------------------------------------------------------------------------------
def _idle(step: g.Idle, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        lines = [t(ctx, "no_game")]
        if ctx.join_code:
            lines.append(t(ctx, "join_code", code=ctx.join_code))
        return ScreenView(title=t(ctx, "title_banker"), lines=tuple(lines), footer=t(ctx, "footer_setup"))
    if game.ended:
        return _scores(game, ctx)
    if game.auction is not None:
        return _auction(game, ctx)
    if game.debts:
        return _debt(game, ctx)
    if game.decisions:
        decision = game.decisions[0]
        name = game.players[decision.player].name
        prop = game.edition.properties[decision.property]
        return ScreenView(title=t(ctx, "title_decision"),
                          lines=(t(ctx, "decision_line", player=name, property=prop.name),),
                          footer=t(ctx, "tap_card_of", player=name))
    return _balances(step, game, ctx)


def _balances(step: g.Idle, game: GameState, ctx: g.Context) -> ScreenView:
    active = [p for p in game.players]
    pages = max(1, -(-len(active) // g.PLAYERS_PER_PAGE))
    page = step.page % pages
    shown = active[page * g.PLAYERS_PER_PAGE:(page + 1) * g.PLAYERS_PER_PAGE]
    lines = []
    names = [p.name for p in game.players]
    # Hidden balances: the table is everybody's screen, so it shows names only, and each player's cash
    # on their own card.
    hidden = not balances.sees_all(game, balances.TABLE)
    for player in shown:
        money = t(ctx, "bankrupt_short") if player.bankrupt else "" if hidden else game.money(player.cash)
        mark = JAIL_MARK if player.in_jail else ""
        name = short_name(player.name, names, WIDTH_CHARS - len(money) - 1 - len(mark))
        lines.append(columns(name + mark, money) if money else name + mark)
    if game.rules.free_parking_pot and len(lines) < g.PLAYERS_PER_PAGE:
        lines.append(columns(t(ctx, "pot"), game.money(game.pot)))
    heading = t(ctx, "balances_hidden") if hidden else t(ctx, "title_balances")
    title = t(ctx, "time_left", time=clock(ctx.time_left)) if ctx.time_left is not None else heading
    if pages > 1:
        title = columns(title, f"{page + 1}/{pages}")
    # The mark after a name is explained at the foot of the screen whenever it is shown.
    footer = t(ctx, "jail_legend", mark=JAIL_MARK) if any(p.in_jail for p in shown) else ""
    if hidden and not footer:
        footer = t(ctx, "own_cash_only")
    return ScreenView(title=title, lines=tuple(lines), footer=footer)


JAIL_MARK = "*"
"""After a player's name on the balances: that player is in jail (the screen's foot says so)."""


def _auction(game: GameState, ctx: g.Context) -> ScreenView:
    auction = game.auction
    assert auction is not None
    if auction.property is not None:
        deed = game.edition.properties[auction.property].id
        title = bc.deed_title(game.edition, deed, lambda name: t(ctx, "title_auction", what=name))
    else:
        title = bc.fit(t(ctx, "title_auction", what=word(auction.building, ctx.language)))
    if auction.high_bidder is not None:
        high = t(ctx, "high_bid", player=game.players[auction.high_bidder].name)
        amount: str | None = game.money(auction.high_bid)
    else:
        high = t(ctx, "no_bids")
        amount = None
    lines = (high,) if amount is not None else (high, t(ctx, "tap_to_bid"))
    return ScreenView(title=title, lines=lines, amount=amount,
                      footer=t(ctx, "footer_auction"))


def _debt(game: GameState, ctx: g.Context) -> ScreenView:
    """Who owes whom: every creditor with their amount, the cash and what the debtor's deeds can raise."""
    seat = game.debts[0].debtor
    player = game.players[seat]
    lines: list[str] = []
    debts = game.debts_of(seat)
    shown = debts if len(debts) <= 2 else debts[:1]
    for debt in shown:
        creditor = game.name_of(debt.creditor) if debt.creditor not in ("bank", "pot") else word(
            debt.creditor, ctx.language)
        lines.append(columns("→ " + creditor, game.money(debt.amount)))
    if len(debts) > len(shown):
        rest = sum(d.amount for d in debts[len(shown):])
        lines.append(columns(t(ctx, "debt_others", count=len(debts) - len(shown)), game.money(rest)))
    value = game.money(can_raise(game, seat))
    if balances.sees_cash_of(game, balances.TABLE, seat):
        lines.append(t(ctx, "debt_cash", cash=game.money(player.cash), value=value))
    else:  # what the deeds and buildings raise is on the board for all to see; the cash is not
        lines.append(t(ctx, "debt_can_raise", value=value))
    said = bc.debt_choice(game, player.name, ctx.language)
    body = paged([*([said.hint] if said.hint else []), *lines], BODY_ROWS, 0.0, ctx.now)
    return ScreenView(title=said.title, lines=body, footer=t(ctx, "tap_card_of", player=player.name))


def _scores(game: GameState, ctx: g.Context) -> ScreenView:
    lines = []
    names = [p.name for p in game.players]
    for score in final_scores(game):
        worth = t(ctx, "bankrupt_short") if score.bankrupt else game.money(score.net_worth)
        place = f"{score.place}. "
        name = short_name(score.player, names, WIDTH_CHARS - len(worth) - 1 - len(place))
        lines.append(columns(place + name, worth))
    return ScreenView(title=t(ctx, "title_game_over", winner=game.winner or "-"), lines=tuple(lines))


# --- a player's card and the engine's choices --------------------------------------------------------
def _player(step: g.PlayerStep, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    player = game.players[step.seat]
    lines = tuple(item.menu for item in step.choice.items)
    index = min(step.index, len(lines) - 1)
    money = game.money(player.cash)
    title = columns(short_name(player.name, [p.name for p in game.players], WIDTH_CHARS - len(money) - 1), money)
    return ScreenView(title=title, lines=(t(ctx, "tap_next"), *lines), highlight=index + 1 if lines else None,
                      footer=step.choice.footer)


def choice_lines(step: g.Choose, ctx: g.Context) -> tuple[str, ...]:
    """The lines of a menu of the engine's choice: its items' menu lines (and "Show the card" on the owner's
    menu of a deed), or for a deck its printed cards."""
    if isinstance(step.source, g.DeckOf):
        return tuple(option.menu for option in step.choice.items[0].asks[0].options)
    shown = tuple(item.menu for item in step.choice.items)
    return (*shown, t(ctx, "item_show_card")) if step.show_card else shown


def _choose(step: g.Choose, ctx: g.Context) -> ScreenView:
    choice = step.choice
    lines = choice_lines(step, ctx)
    if not lines:
        return ScreenView(title=choice.title, lines=(choice.hint or t(ctx, "menu_empty"),),
                          footer=t(ctx, "footer_back"))
    above = (choice.hint,) if choice.hint else ()
    return ScreenView(title=choice.title, lines=(*above, *lines),
                      highlight=len(above) + min(step.index, len(lines) - 1), footer=choice.footer)


def _item_text(item: g.Item, ctx: g.Context) -> str:
    values = dict(item.params)
    if item.key == "enroll_as":
        return tag_label(str(values["meaning"]), ctx.edition, ctx.players(), ctx.language)
    return t(ctx, "item_" + item.key, **values)


def _menu(step: g.Menu, ctx: g.Context) -> ScreenView:
    title = t(ctx, "menu_" + step.title_key, **dict(step.title_params))
    lines = tuple(_item_text(item, ctx) for item in step.items)
    if not lines:
        return ScreenView(title=title, lines=(t(ctx, "menu_empty"),), footer=t(ctx, "footer_back"))
    return ScreenView(title=title, lines=lines, highlight=min(step.index, len(lines) - 1),
                      footer=t(ctx, "footer_menu_ok"))


# --- a tag tapped first ----------------------------------------------------------------------------
def _waiting(step: g.Waiting, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    meaning = step.meaning
    if meaning.kind == "deed":
        return deed_card(game, game.edition.by_square[meaning.square].id, ctx)
    what = tag_label(meaning, game.edition, ctx.players(), ctx.language)
    return ScreenView(title=what, lines=(t(ctx, "tap_player_card"),), footer=t(ctx, "footer_back"))


def _rent_from(step: g.RentFrom, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    prop = game.edition.property(step.property)
    owner = game.players[step.seat].name
    return ScreenView(title=bc.deed_title(game.edition, prop.id), lines=(t(ctx, "collects_from", player=owner),),
                      footer=t(ctx, "tap_payer_card"))


def deed_card(game: GameState, prop_id: str, ctx: g.Context) -> ScreenView:
    """A title deed as it stands now: owner, rent now, buildings, mortgage."""
    prop = game.edition.property(prop_id)
    ps = game.props[prop.number]
    money = game.money
    lines: list[str] = []
    if ps.owner is None:
        lines.append(t(ctx, "for_sale", price=money(prop.price)))
    else:
        lines.append(t(ctx, "owner", player=game.players[ps.owner].name))
        if ps.mortgaged:
            lines.append(t(ctx, "mortgaged_no_rent", amount=money(offering.deed_facts(game, prop.id).lift_cost)))
        else:
            facts = offering.deed_facts(game, prop.id)
            if facts.rent is None:
                lines.append(t(ctx, "rent_dice", times=facts.times))
            else:
                lines.append(columns(t(ctx, "rent_now"), money(facts.rent)))
                lines.append(bc.basis_words(facts.basis, ctx.language))
    return ScreenView(title=bc.deed_title(game.edition, prop.id), lines=tuple(lines), footer=t(ctx, "tap_player_card"))


# --- confirmations ---------------------------------------------------------------------------------
BODY_ROWS = 3
"""Body rows of a screen with a footer (one fewer under the big amount)."""


def paged(lines: Sequence[str], rows: int, since: float, now: float) -> tuple[str, ...]:
    """``lines`` wrapped to the screen's width; when they take more than ``rows`` rows, the window moves down
    one row every :data:`firmware.grammar.SCROLL_S` seconds from ``since``, then starts again: every line
    that matters is read whole, never cut."""
    wrapped = [row for line in lines for row in body_lines(line)]
    if len(wrapped) <= rows:
        return tuple(lines)
    positions = len(wrapped) - rows + 2  # rest a little at the end before starting again
    offset = min(int(max(0.0, now - since) / g.SCROLL_S) % positions, len(wrapped) - rows)
    return tuple(wrapped[offset:offset + rows])


def _confirm(step: g.Confirm, ctx: g.Context) -> ScreenView:
    """The engine's confirmation of the step's own preview: title, what happens, the money, the buttons."""
    said = bc.confirmation(ctx.game, step.offer, ctx.language, declines_to_auction=step.decline is not None)
    view = ScreenView(title=said.title, lines=said.lines, amount=said.amount, footer=said.footer)
    return replace(view, lines=paged(said.lines, body_rows(view), step.since, ctx.now))


def _dice(step: g.Dice, ctx: g.Context) -> ScreenView:
    assert step.offer.action is not None
    title = bc.fit(bc.action_title(ctx.game, step.offer.action, ctx.language))
    return ScreenView(title=title, lines=(t(ctx, "dice_question"),), amount=str(step.value),
                      footer=t(ctx, "footer_set"))


def _amount(step: g.Amount, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    name = game.players[step.seat].name
    action = step.offer.action
    lines: tuple[str, ...] = (t(ctx, "has_cash", amount=game.money(game.players[step.seat].cash)),)
    match action:
        case Bid():
            title = t(ctx, "title_bid", player=name)
            if game.auction is not None and game.auction.high_bidder is not None:
                lines = (t(ctx, "bid_above", amount=game.money(game.auction.high_bid)),)
        case Pay(to="bank"):
            title = t(ctx, "title_pay_bank", player=name)
        case Pay(to="pot"):
            title = t(ctx, "title_pay_pot", player=name)
        case Collect():
            title, lines = t(ctx, "title_collect_bank", player=name), ()
        case _:
            title = t(ctx, "title_transfer", player=name, to=step.to)
    # The step the next quick press makes (a run of quick presses grows it), not only the base step.
    running = step.last > 0 and ctx.now - step.last <= g.AMOUNT_RUN_S
    step_size = g.amount_step(step.steps, step.step_index, step.run + 1 if running else 1)
    view = ScreenView(title=title, lines=lines, amount=game.money(step.value),
                      footer=t(ctx, "footer_amount", step=step_size))
    return replace(view, lines=paged(lines, body_rows(view), step.last, ctx.now))


def scrolled(text: str, rows: int, since: float, now: float) -> tuple[str, ...]:
    """``text`` wrapped to the screen's width, moving down a row at a time when it is longer (:func:`paged`)."""
    return paged((text,), rows, since, now)


def _notice(step: g.Notice, ctx: g.Context) -> ScreenView:
    if step.key == "reader_fault":
        return _reader_fault(dict(step.params), step, ctx)
    if step.key == "button_stuck":
        button = t(ctx, "button_" + str(dict(step.params)["button"]))
        text = t(ctx, "button_stuck", seconds=round(STUCK_S))
        return ScreenView(title=t(ctx, "title_button_stuck", button=button),
                          lines=scrolled(text, 4, step.since, ctx.now), inverted=True)
    if step.key == "button_free":
        button = t(ctx, "button_" + str(dict(step.params)["button"]))
        return ScreenView(title=t(ctx, "title_banker"), lines=(t(ctx, "notice_button_free", button=button),))
    if step.key == "card_full":
        return ScreenView(title=t(ctx, "title_card_full"), lines=scrolled(t(ctx, "card_full"), 4, step.since, ctx.now),
                          inverted=True)
    if step.error:
        text = step.text or t(ctx, "notice_" + step.key, **dict(step.params))
        return ScreenView(title=t(ctx, "title_refused"), lines=scrolled(text, 4, step.since, ctx.now),
                          inverted=True)
    if step.key == "done":
        game = ctx.game
        if game is None:
            return ScreenView(title=t(ctx, "title_done"))
        # The money first, then what to do with the cardboard, a page at a time.
        book = board.done_pages(game, step.events, ctx.language)
        return board.book_view(book, t(ctx, "title_done"), step.since, ctx.now)
    if step.text:
        return ScreenView(title=t(ctx, "title_banker"), lines=(step.text,))
    return ScreenView(title=t(ctx, "title_banker"), lines=(t(ctx, "notice_" + step.key, **dict(step.params)),))


def _reader_fault(values: dict[str, g.Param], step: g.Notice, ctx: g.Context) -> ScreenView:
    """One notice for every reader that stopped at once, each named with its bus."""
    others = values.get("more", ())
    more = others if isinstance(others, tuple) else ()
    if not more and values.get("working", True):
        return ScreenView(title=t(ctx, "title_reader_fault", number=values["number"]),
                          lines=(t(ctx, "reader_fault", bus=values["bus"]),), inverted=True)
    numbers = ", ".join(str(number) for number in (values["number"], *(n for n, _ in more)))
    buses = ", ".join((str(values["bus"]), *(str(bus) for _, bus in more)))
    key = "readers_fault" if values.get("working", True) else "readers_fault_none"
    title = t(ctx, "title_readers_fault" if more else "title_reader_fault", numbers=numbers, number=numbers)
    return ScreenView(title=title, lines=scrolled(t(ctx, key, buses=buses), 4, step.since, ctx.now), inverted=True)


def _undo(step: g.UndoAsk, ctx: g.Context) -> ScreenView:
    game = ctx.game
    last = last_action(game) if game is not None else None
    lines: tuple[str, ...] = ()
    if game is not None and last is not None:
        action, events = last
        described = [describe_event(game.edition, balances.visible_event(game, e, balances.TABLE), ctx.language)
                     for e in events if e.kind not in ("card", "board")]
        lines = tuple(described[:3]) or (describe_action(game.edition, action, ctx.language,
                                                         game.rules.hotel_level),)
        back = take_back(game)
        if back:  # and what will have to be taken back on the board
            first = board.pages(game.edition, back, ctx.language, rows=2)
            lines = (*lines[:1], *first[0], *(("…",) if len(first) > 1 else ()))
    return ScreenView(title=t(ctx, "title_undo"), lines=lines, footer=t(ctx, "footer_undo"))


def _unknown(step: g.UnknownTag, ctx: g.Context) -> ScreenView:
    return ScreenView(title=t(ctx, "title_unknown_tag"), lines=(step.uid, t(ctx, "unknown_tag_hint")),
                      footer=t(ctx, "footer_enroll"))


def _banker_ask(step: g.BankerAsk, ctx: g.Context) -> ScreenView:
    return ScreenView(title=t(ctx, "title_banker_ask"), lines=(t(ctx, "banker_ask", who=step.who),),
                      footer=t(ctx, "footer_allow"))


def _enrolling(step: g.Enrolling, ctx: g.Context) -> ScreenView:
    total = len(step.meanings)
    if step.position >= total:
        return ScreenView(title=t(ctx, "title_enroll", number=total, total=total))
    meaning = step.meanings[step.position]
    what = tag_label(meaning, ctx.edition, ctx.players(), ctx.language)
    uid = ctx.tags.uid_of(meaning)
    lines = [t(ctx, "enroll_tap"), what]
    if uid is not None:
        lines.append(t(ctx, "enroll_has", uid=uid))
    return ScreenView(title=t(ctx, "title_enroll", number=step.position + 1, total=total), lines=tuple(lines),
                      footer=t(ctx, "footer_enrolling"))


def _wizard(step: g.NewGameWizard, ctx: g.Context) -> ScreenView:
    question, index = g.wizard_question(step)
    if question == "edition":
        value = load_edition(EDITIONS[step.edition]).name
    elif question == "count":
        value = str(step.count)
    elif question == "names":
        value = g.names_of(ctx)[step.names[index]]
    elif question == "preset":
        value = t(ctx, "preset_" + g.preset_of(step))
    elif question == "mode":
        value = t(ctx, "mode_" + g.mode_of(step))
    elif question == "minutes":
        value = t(ctx, "minutes", minutes=TIMED_MINUTES[step.minutes])
    else:
        action = g.wizard_action(step, ctx)
        return ScreenView(title=t(ctx, "title_new_game"), lines=(", ".join(action.players),
                                                                 t(ctx, "mode_" + g.mode_of(step))),
                          footer=t(ctx, "footer_start"))
    prompt = t(ctx, "ask_name", number=index + 1) if question == "names" else t(ctx, "ask_" + question)
    return ScreenView(title=t(ctx, "title_new_game"), lines=(prompt, "▲▼ " + value), footer=t(ctx, "footer_next"))


def _join(step: g.ShowJoin, ctx: g.Context) -> ScreenView:
    if ctx.wifi_join and step.page == 0:
        name = ctx.wifi_join.split("S:", 1)[-1].split(";", 1)[0].replace("\\", "")
        return ScreenView(title=t(ctx, "title_wifi"), lines=(name, t(ctx, "then_ok")), qr=ctx.wifi_join)
    return ScreenView(title=t(ctx, "title_phones"), lines=(t(ctx, "scan_qr"), ctx.join_code), qr=ctx.join_url)


__all__ = ["Meaning", "columns", "deed_card", "view"]
