"""Setup at the table (hold OK): a new game, saved games, enrollment, the language, the phones, the speaker,
switching off; and the new-game wizard, one question at a time. The editions, the presets, the ways a game
ends, the names and the limits are the engine's (:mod:`banker.edition`, :mod:`banker.rules`,
:mod:`banker.names`, :mod:`banker.limits`)."""

from __future__ import annotations

from dataclasses import replace

from banker.actions import NewGame
from banker.edition import EDITIONS, edition_for_language
from banker.limits import MAX_PLAYERS, MIN_PLAYERS
from banker.messages import LANGUAGES
from banker.names import offered_names
from banker.rules import MODES, PRESETS, TIMED_MINUTES, preset_rules
from firmware.grammar.enrollment import enrollment
from firmware.grammar.inputs import (
    Effect,
    Press,
    Reset,
    SetLanguage,
    SetSpeech,
    StartTimer,
    Submit,
    SwitchGame,
    SwitchOff,
)
from firmware.grammar.steps import (
    Context,
    GrammarState,
    Idle,
    Item,
    Menu,
    NewGameWizard,
    Out,
    ShowJoin,
    Step,
    go,
    params,
)
from firmware.voice import SpeechSettings

WIZARD_QUESTIONS = ("edition", "count", "names", "preset", "mode", "minutes", "start")


def setup_menu(ctx: Context, back: Step) -> Menu:
    items: list[Item] = [Item("setup_new_game", (), NewGameWizard(edition=default_edition(ctx), back=back))]
    if len(ctx.games) > 1 or (ctx.games and ctx.game_id is None):
        saved = tuple(Item("setup_game", params(label=label, id=game_id), SwitchGame(game_id))
                      for game_id, label in reversed(ctx.games) if game_id != ctx.game_id)
        items.append(Item("setup_switch", (), Menu("setup_switch", (), saved, back)))
    items.append(Item("setup_enroll", (), enrollment(back)))
    languages = tuple(Item("language_" + lang, (), SetLanguage(lang)) for lang in LANGUAGES)
    items.append(Item("setup_language", (), Menu("setup_language", (), languages, back)))
    if ctx.join_url:
        items.append(Item("setup_phones", (), ShowJoin(back, page=0 if ctx.wifi_join else 1)))
        items.append(Item("setup_new_code", (), Reset("code")))
        items.append(Item("setup_new_pin", (), Reset("pin")))
    if ctx.speech is not None:
        items.append(Item("setup_speech", (), speech_menu(ctx.speech, back)))
    if ctx.can_switch_off:
        sure = Menu("switch_off", (), (Item("switch_off_now", (), SwitchOff()),), back)
        items.append(Item("setup_switch_off", (), sure))
    return Menu("setup", (), tuple(items), back)


def default_edition(ctx: Context) -> int:
    """The wizard's first edition: the board on the table when it is in the table's language, else the
    edition of the language."""
    current = ctx.game.edition.id if ctx.game is not None else None
    return EDITIONS.index(edition_for_language(ctx.language, current))


def speech_menu(settings: SpeechSettings, back: Step) -> Menu:
    """The speaker's settings at the table: on or off, louder, quieter, the voice."""
    voice = "woman" if settings.voice == "man" else "man"
    items = (Item("speech_on" if settings.on else "speech_off", (), SetSpeech(settings.changed(on=not settings.on))),
             Item("speech_louder", params(volume=settings.volume), SetSpeech(settings.louder())),
             Item("speech_quieter", params(volume=settings.volume), SetSpeech(settings.louder(-1))),
             Item("speech_voice_" + settings.voice, (), SetSpeech(settings.changed(voice=voice))))
    return Menu("speech", (), items, back)


# --- the new-game wizard -------------------------------------------------------------------------------
def mode_of(w: NewGameWizard) -> str:
    return list(MODES)[w.mode]


def preset_of(w: NewGameWizard) -> str:
    return list(PRESETS)[w.preset]


def names_of(ctx: Context) -> tuple[str, ...]:
    return offered_names(ctx.language if ctx.language in LANGUAGES else LANGUAGES[0])


def wizard_question(w: NewGameWizard) -> tuple[str, int]:
    """The question the wizard asks now, and for names which player (0-based)."""
    if w.question < 2:
        return WIZARD_QUESTIONS[w.question], 0
    if w.question < 2 + w.count:
        return "names", w.question - 2
    rest = w.question - 2 - w.count
    order = ("preset", "mode", "minutes", "start")
    name = order[min(rest, 3)]
    if name == "minutes" and mode_of(w) != "timed":
        name = "start"
    return name, 0


def wizard_action(w: NewGameWizard, ctx: Context) -> NewGame:
    offered = names_of(ctx)
    names = tuple(offered[w.names[i]] for i in range(w.count))
    return NewGame(EDITIONS[w.edition], names, preset_rules(preset_of(w), mode_of(w)))


def wizard_press(gs: GrammarState, w: NewGameWizard, press: Press, ctx: Context) -> Out:
    question, index = wizard_question(w)
    button = press.button
    timed = mode_of(w) == "timed"
    if button == "cancel":
        if w.question == 0:
            return go(gs, w.back or Idle(page_at=ctx.now))
        back_one = w.question - 1
        if question == "start" and not timed:
            back_one = 2 + w.count + 1
        return go(gs, replace(w, question=back_one))
    if button in ("up", "down"):
        return go(gs, _changed(w, question, index, 1 if button == "up" else -1, ctx))
    if button != "ok" or press.long:
        return gs, []
    if question == "start":
        effects: list[Effect] = [Submit(wizard_action(w, ctx))]
        if timed:
            effects.append(StartTimer(TIMED_MINUTES[w.minutes]))
        return replace(gs, step=w), effects
    nxt = w.question + 1
    if question == "mode" and not timed:
        nxt += 1
    return go(gs, replace(w, question=nxt))


def _changed(w: NewGameWizard, question: str, index: int, delta: int, ctx: Context) -> NewGameWizard:
    """The wizard's answer to ``question`` one up (``delta`` 1) or down."""
    if question == "edition":
        return replace(w, edition=(w.edition + delta) % len(EDITIONS))
    if question == "count":
        return replace(w, count=min(MAX_PLAYERS, max(MIN_PLAYERS, w.count + delta)))
    if question == "names":
        names = list(w.names)
        pool = len(names_of(ctx))
        taken = {names[i] for i in range(w.count) if i != index}
        choice = names[index]
        for _ in range(pool):
            choice = (choice + delta) % pool
            if choice not in taken:
                break
        names[index] = choice
        return replace(w, names=tuple(names))
    if question == "preset":
        return replace(w, preset=(w.preset + delta) % len(PRESETS))
    if question == "mode":
        return replace(w, mode=(w.mode + delta) % len(MODES))
    if question == "minutes":
        return replace(w, minutes=min(len(TIMED_MINUTES) - 1, max(0, w.minutes + delta)))
    return w


def join_press(gs: GrammarState, current: ShowJoin, press: Press, ctx: Context) -> Out:
    if press.button == "ok" and ctx.wifi_join and current.page == 0:
        return go(gs, replace(current, page=1))
    if press.button in ("ok", "cancel"):
        return go(gs, current.back)
    return gs, []
