"""Enrollment (tap each card in turn), an unknown tag taught, and re-teaching a tag (hold OK on the screen
its tap opened)."""

from __future__ import annotations

from dataclasses import replace

from banker.edition import deed_squares
from banker.limits import BANK_CARDS
from firmware.grammar.inputs import Beep, Enroll, Press, Retag
from firmware.grammar.steps import (
    ERROR_S,
    NOTICE_S,
    Context,
    Enrolling,
    GrammarState,
    Idle,
    Item,
    Menu,
    Notice,
    Out,
    Step,
    UnknownTag,
    go,
    params,
)
from firmware.tags import SPECIAL_SQUARES, Meaning, all_meanings, label, parse_meaning


def enrollment(back: Step | None = None) -> Enrolling:
    return Enrolling(0, tuple(all_meanings()), back=back)


def enroll_tap(gs: GrammarState, current: Enrolling, meaning: Meaning, ctx: Context) -> Out:
    wanted = current.meanings[current.position]
    uid = meaning.uid
    owner = ctx.tags.meaning_of(uid)
    if owner is not None and owner != wanted:
        return go(gs, Notice("tag_in_use", params(what=owner), until=ctx.now + ERROR_S, then=current, error=True),
                  Beep("error"))
    nxt = replace(current, position=current.position + 1, done=current.done + 1)
    if nxt.position >= len(current.meanings):
        return go(gs, Notice("enroll_done", params(count=nxt.done), until=ctx.now + NOTICE_S,
                             then=current.back or Idle()), Enroll(uid, wanted), Beep("confirm"))
    return go(gs, nxt, Enroll(uid, wanted), Beep("confirm"))


def enrolling_press(gs: GrammarState, current: Enrolling, press: Press, ctx: Context) -> Out:
    done = Notice("enroll_done", params(count=current.done), until=ctx.now + NOTICE_S, then=current.back or Idle())
    if press.button == "cancel":
        return go(gs, done)
    if press.button in ("ok", "down"):
        position = current.position + 1
        return go(gs, done if position >= len(current.meanings) else replace(current, position=position))
    if press.button == "up":
        return go(gs, replace(current, position=max(0, current.position - 1)))
    return gs, []


def kinds() -> dict[str, list[str]]:
    """Every meaning of a bank card, a deed and a square's tag, in the order enrollment asks for them."""
    return {"player": [f"player:{n}" for n in range(1, BANK_CARDS + 1)],
            "deed": [f"deed:{square}" for square in deed_squares()],
            "square": [f"square:{name}" for name in SPECIAL_SQUARES]}


def printed(ctx: Context) -> dict[str, list[str]]:
    edition = ctx.edition
    return {deck: [f"card:{deck}:{c.id}" for c in edition.decks[deck]] for deck in ("chance", "community_chest")}


def enroll_pick(uid: str, ctx: Context, back: Step) -> Menu:
    """What an unknown tag is: a bank card, a deed, a special tag or a printed card."""
    def teach(title: str, meanings: list[str]) -> Menu:
        return Menu(title, (), tuple(Item("enroll_as", params(meaning=m), (Enroll(uid, m), Beep("confirm")))
                                     for m in meanings), back)

    every = kinds()
    items = [Item("enroll_bank_card", (), teach("enroll_pick_card", every["player"])),
             Item("enroll_deed", (), teach("enroll_pick_deed", every["deed"])),
             Item("enroll_special", (), teach("enroll_pick_special", every["square"]))]
    for deck, cards in printed(ctx).items():
        items.append(Item("enroll_printed", params(deck=ctx.edition.deck_names[deck]),
                          teach("enroll_pick_card", cards)))
    return Menu("enroll_what", params(uid=uid), tuple(items), back)


def unknown_press(gs: GrammarState, current: UnknownTag, press: Press, ctx: Context) -> Out:
    if press.button == "ok":
        return go(gs, enroll_pick(current.uid, ctx, Idle(page_at=ctx.now)))
    if press.button == "cancel":
        return go(gs, Idle(page_at=ctx.now))
    return gs, []


# --- re-teaching ---------------------------------------------------------------------------------------
def _retag_items(uid: str, previous: str, meanings: list[str], ctx: Context) -> tuple[Item, ...]:
    return tuple(Item("enroll_as", params(meaning=m), Retag(uid, m, previous, ctx.tags.uid_of(m)))
                 for m in meanings if m != previous)


def retag_menu(uid: str, meaning: str, ctx: Context, back: Step) -> Menu:
    """What the tag ``uid`` (read as ``meaning``) really is: the others of its kind, the cursor near
    it, then every other kind."""
    parsed = parse_meaning(meaning)
    every, decks = kinds(), printed(ctx)
    same = decks[parsed.deck] if parsed.kind == "card" else every[parsed.kind]
    items = list(_retag_items(uid, meaning, same, ctx))
    index = min(same.index(meaning), max(0, len(items) - 1)) if meaning in same else 0
    others = [Item(key, (), Menu("retag_pick", (), _retag_items(uid, meaning, every[kind], ctx), back))
              for key, kind in (("enroll_bank_card", "player"), ("enroll_deed", "deed"), ("enroll_special", "square"))]
    for deck, cards in decks.items():
        others.append(Item("enroll_printed", params(deck=ctx.edition.deck_names[deck]),
                           Menu("retag_pick", (), _retag_items(uid, meaning, cards, ctx), back)))
    items.append(Item("retag_other", (), Menu("retag_kind", (), tuple(others), back)))
    what = label(meaning, ctx.edition, ctx.players(), ctx.language)
    return Menu("retag_what", params(what=what), tuple(items), back, index=index)


def is_retag_menu(step: Step) -> bool:
    return isinstance(step, Menu) and step.title_key.startswith("retag")


def retaught(gs: GrammarState, target: Retag, ctx: Context) -> Out:
    what = label(target.meaning, ctx.edition, ctx.players(), ctx.language)
    if target.other is not None:
        was = label(target.previous, ctx.edition, ctx.players(), ctx.language)
        notice = Notice("retaught_swap", params(what=what, other=was), until=ctx.now + NOTICE_S + 2, then=Idle())
    else:
        notice = Notice("retaught", params(what=what), until=ctx.now + NOTICE_S, then=Idle())
    return go(gs, notice, target, Beep("confirm"))
