"""The tap grammar: what a tap, a button press or the clock means at the table.

A pure state machine in the Elm style: ``step(state, input, context) -> (state, effects)``. It reads the
game (never changes it) and walks the engine's choices (:mod:`banker.choice`): which choice a tap opens,
which step asks what an offer still needs, which confirmation waits for OK. It answers with effects that
are plain data: submit this action, beep, enroll this tag. The loop (:mod:`firmware.loop`) is the only
place that performs them, and it feeds the engine's answer back as an :class:`Applied` or
:class:`Refused` input. What the OLED shows is computed from the same two states by
:func:`firmware.screens.view`.

The flows (see docs/table.md):

- rent: the payer's bank card, the deed, OK (a utility asks for the dice first);
- buy: the buyer's card, an unowned deed, OK; Cancel at the price offers the auction;
- the owner's card and the owner's deed: the owner's menu (build, sell, mortgage, lift, show the card);
- a deed first shows its card and waits a few seconds for a bank card (either order works);
- a card and GO, a tax, Chance / Community Chest, Jail or Free Parking: that square's choice;
- a card and another player's card: a transfer, the amount set with Up/Down;
- while an auction is open, a bank card bids; a debtor's card offers paying or bankruptcy;
- Cancel backs out one step, a long Cancel offers to undo the last action, a long OK opens setup;
- nothing that moves money happens without OK, and a tap during a confirmation never confirms;
- a step made from the engine's choice is shown afresh, or withdrawn, when a phone changes the game.

The modules: :mod:`.inputs` (inputs and effects), :mod:`.steps` (the steps and the context),
:mod:`.machine` (the step function, the clock, the engine's answers), :mod:`.choices` (walking the
engine's choices), :mod:`.taps`, :mod:`.presses`, :mod:`.setup` (setup and the new-game wizard),
:mod:`.enrollment` (enrollment and re-teaching) and :mod:`.requests` (the banker's questions).
"""

from __future__ import annotations

from firmware.grammar.choices import refresh
from firmware.grammar.enrollment import enroll_pick, enrollment, retag_menu
from firmware.grammar.inputs import (
    Answer,
    Applied,
    BankerRequest,
    Beep,
    ButtonStuck,
    CardIsFull,
    Effect,
    Enroll,
    Input,
    PinMade,
    Press,
    ReaderFault,
    Refused,
    Reset,
    Resumed,
    Retag,
    SetLanguage,
    SetSpeech,
    StartEnrollment,
    StartTimer,
    Submit,
    SwitchGame,
    SwitchOff,
    TapIn,
    Tick,
)
from firmware.grammar.machine import step
from firmware.grammar.presses import amount_step, idle_pages
from firmware.grammar.setup import (
    WIZARD_QUESTIONS,
    mode_of,
    names_of,
    preset_of,
    setup_menu,
    speech_menu,
    wizard_action,
    wizard_question,
)
from firmware.grammar.steps import (
    AMOUNT_RUN_S,
    BANKER_ASK_S,
    CONFIRM_GUARD_S,
    DEDUPE_S,
    ERROR_S,
    FAULT_S,
    IDLE_TIMEOUT_S,
    MAX_REQUESTS,
    NOTICE_S,
    PAGE_S,
    PIN_SHOWN_S,
    PLAYERS_PER_PAGE,
    SCROLL_S,
    WAIT_FOR_CARD_S,
    WARN_LEFT_S,
    Amount,
    BankerAsk,
    BidOf,
    CardOf,
    Choose,
    Confirm,
    Context,
    DeckOf,
    DeedOf,
    Dice,
    DrawnOf,
    Enrolling,
    GrammarState,
    Idle,
    Item,
    Menu,
    NewGameWizard,
    Notice,
    Out,
    Param,
    Params,
    PlayerStep,
    RentFrom,
    ShortOf,
    ShowJoin,
    Source,
    SquareOf,
    Step,
    Target,
    UndoAsk,
    UnknownTag,
    Waiting,
    params,
)

__all__ = [
    "AMOUNT_RUN_S", "BANKER_ASK_S", "CONFIRM_GUARD_S", "DEDUPE_S", "ERROR_S", "FAULT_S", "IDLE_TIMEOUT_S",
    "MAX_REQUESTS", "NOTICE_S", "PAGE_S", "PIN_SHOWN_S", "PLAYERS_PER_PAGE", "SCROLL_S", "WAIT_FOR_CARD_S",
    "WARN_LEFT_S", "WIZARD_QUESTIONS", "Amount", "Answer", "Applied", "BankerAsk", "BankerRequest", "Beep",
    "BidOf", "ButtonStuck", "CardIsFull", "CardOf", "Choose", "Confirm", "Context", "DeckOf", "DeedOf", "Dice",
    "DrawnOf", "Effect", "Enroll", "Enrolling", "GrammarState", "Idle", "Input", "Item", "Menu", "NewGameWizard",
    "Notice", "Out", "Param", "Params", "PinMade", "PlayerStep", "Press", "ReaderFault", "Refused", "RentFrom",
    "Reset", "Resumed",
    "Retag", "SetLanguage", "SetSpeech", "ShortOf", "ShowJoin", "Source", "SquareOf", "StartEnrollment",
    "StartTimer", "Step", "Submit", "SwitchGame", "SwitchOff", "TapIn", "Target", "Tick", "UndoAsk", "UnknownTag",
    "Waiting", "amount_step", "enroll_pick", "enrollment", "idle_pages", "mode_of", "names_of", "params",
    "preset_of", "refresh", "retag_menu", "setup_menu", "speech_menu", "step", "wizard_action", "wizard_question",
]
