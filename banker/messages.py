"""Player-facing texts of errors and events in English, Russian and Bulgarian.

Keys are the error keys of :class:`banker.errors.BankerError` and ``"event_" + kind`` of events.
Labels are the small words that fill them in (accounts, buildings, reasons).
"""

from __future__ import annotations

from typing import Any

from banker.messages_bg import BG, BG_LABELS
from banker.messages_ru import RU, RU_LABELS

LANGUAGES = ("en", "ru", "bg")

EN: dict[str, str] = {
# errors
"already_in_jail": "{player} is already in jail.",
"already_mortgaged": "{property} is already mortgaged.",
"already_owned": "{property} already belongs to {owner}: pay rent instead, or trade with {owner}.",
"amount_not_positive": "The {field} must be more than zero (got {amount}).",
"auction_open": "The auction of {what} is still open: bid, or close it with auction_close first.",
"bad_building": "A building auction is for a \"house\" or a \"hotel\", not {building!r}.",
"bad_card_choice": "Choose \"pay\" or \"draw\" for this card, not {choice!r}.",
"bad_dice": "A dice total is between 2 and 12, not {dice}.",
"bad_field": "In {action}, {field} = {value} is not valid: expected {expected}.",
"bad_json": "This line is not valid JSON ({problem} at column {column}).",
"bad_rent_card": "Unknown rent card {card!r}; use one of: {known}.",
"bad_rule_value": "House rule {rule} = {value} is not valid: expected {expected}.",
"bankrupt_can_pay": "{player} cannot go bankrupt: selling and mortgaging would raise {value}, enough for the debt of {amount}. Raise the money and pay the debt.",
"bankrupt_no_debt": "{player} owes nothing, so there is no bankruptcy to declare.",
"bid_below_price": "A building bid starts at the printed price {price}; {amount} is too low.",
"bid_needs_property": "A bid for a {building} must say on which street it will stand (property).",
"bid_other_property": "This auction is not for {property}.",
"bid_too_low": "The bid must be more than {high} (the highest bid, by {bidder}); {amount} is not.",
"bid_wrong_building": "The next building on {property} is not a {building}.",
"build_evenly": "Build evenly: {first} must get its next building before {property}.",
"build_group_mortgaged": "{player} cannot build on {property}: {mortgaged} is mortgaged. Lift the mortgage first.",
"build_has_hotel": "{property} already has a hotel; nothing more can be built.",
"build_needs_group": "{player} cannot build on {property}: the whole group is needed and {missing} belongs to {owner}.",
"card_in_jail": "{player} is in jail and cannot move on a card; leave jail first.",
"card_needs_square": "Say where the card was drawn (square) or whether GO was passed (passed_go): {card}",
"card_no_choice": "This card offers no choice: leave out choice. ({card})",
"card_wrong_square": "{square} is not a Chance or Community Chest square: give the square where the card was drawn.",
"deal_count": "{player} must be dealt exactly {count} deeds.",
"deal_duplicate": "{property} is dealt twice.",
"deal_players": "The deal must list every player: {players}.",
"deal_unaffordable": "{player} cannot pay {amount} for the dealt deeds with {cash}: raise the starting cash or deal cheaper deeds.",
"deal_without_rule": "Deeds are dealt only in the short or timed game (rules short_game, timed_game or deal_deeds).",
"debt_short": "{player} owes {amount} but has {cash}: {missing} more is needed. Sell buildings, mortgage or trade, then pay.",
"debt_short_bankrupt": "{player} owes {amount} but has {cash}, and even selling everything would not cover it: declare bankruptcy.",
"decision_pending": "{player} must first decide about the mortgaged {property}: lift the mortgage (unmortgage) or keep it and pay the interest (keep_mortgaged).",
"decliner_may_not_bid": "{player} declined to buy, and the house rules do not let the decliner bid.",
"dice_needed": "The rent of {property} depends on the dice: give the total thrown (dice).",
"edition_file": "{file}: {field}: {problem}",
"game_in_progress": "A game is already running; new_game starts a separate game.",
"game_over": "The game is over ({winner} won). Undo to continue, or start a new game.",
"in_debt": "{player} has a debt to pay first: raise money (sell buildings, mortgage, trade) and pay it, or declare bankruptcy.",
"jail_card_held": "The Get Out of Jail Free card of {deck} is held by {holder}; it cannot be drawn again until it is used.",
"missing_action_name": "Each line needs an \"action\": one of {known}.",
"missing_field": "{action} needs the field {field}.",
"mortgage_buildings": "{property} cannot be mortgaged while its group has buildings ({built}): sell them first.",
"no_auction": "No auction is open.",
"no_buildings": "{property} has no buildings to sell.",
"no_buildings_in_group": "The group of {property} has no buildings to sell.",
"no_debt": "{player} has no debt to pay.",
"no_decision": "{player} has no decision to make about {property}.",
"no_game": "No game is running: start one with new_game.",
"no_hotels_left": "The bank has no hotels left: wait until one is sold back.",
"no_houses_left": "The bank has no houses left: wait until one is sold back, or auction the last ones if several players want them.",
"no_jail_card": "{player} has no Get Out of Jail Free card.",
"no_pot_rule": "Free Parking pays nothing under these rules (the house rule free_parking_pot is off).",
"not_a_street": "{property} is not a street: only streets take houses and hotels.",
"not_a_tax_square": "{square} is not a tax square.",
"not_enough_cash": "{player} has {cash} and needs {amount} for {what}: {missing} short. Sell buildings or mortgage first.",
"not_in_jail": "{player} is not in jail.",
"not_mortgaged": "{property} is not mortgaged.",
"not_owner": "{property} belongs to {owner}, not {player}.",
"nothing_to_undo": "There is nothing to undo.",
"pay_self": "{player} cannot pay themself.",
"player_bankrupt": "{player} is bankrupt and takes no further part.",
"player_count": "A game has {low} to {high} players, not {count}.",
"rent_card_mismatch": "The card {card} does not apply to {property}.",
"rent_own": "{player} owns {property}: no rent is due.",
"rent_unowned": "Nobody owns {property}: buy it or auction it instead.",
"reserved_player_name": "{player!r} is the name of an account (bank, pot): choose another name.",
"salary_in_jail": "{player} is in jail: going to jail never pays the salary.",
"script_needs_new_game": "A script starts with a new_game line.",
"sell_evenly": "Sell evenly: sell from {first} before {property}.",
"tax_choice_needed": "{square}: choose \"flat\" ({flat}) or \"percent\" ({percent} % of total worth) before counting.",
"tax_no_choice": "{square} has no choice: pay the printed amount.",
"trade_buildings": "{property} cannot be traded while its group has buildings ({built}): sell them first.",
"trade_duplicate": "A deed is listed twice in the trade.",
"trade_empty": "The trade moves nothing.",
"trade_negative": "Cash and jail cards in a trade cannot be negative.",
"trade_no_debt_to_settle": "{player} owes nothing to {creditor}, so the trade cannot settle a debt.",
"trade_no_jail_card": "{player} does not have {count} Get Out of Jail Free card(s) to trade.",
"trade_self": "{player} cannot trade with themself.",
"unknown_account": "There is no account {account!r}.",
"unknown_action": "Unknown action {action!r}; known actions: {known}.",
"unknown_card": "There is no card {card!r} in the {deck} deck of the {edition} edition.",
"unknown_deck": "There is no deck {deck!r}: use chance or community_chest.",
"unknown_edition": "There is no edition {edition!r}; choose one of: {known}.",
"unknown_field": "{action} has no field {field!r}; its fields: {known}.",
"unknown_game": "There is no saved game {game}.",
"unknown_player": "There is no player {player!r}; the players are: {players}.",
"unknown_property": "There is no property {property!r} in the {edition} edition.",
"unknown_rule": "There is no house rule {rule!r}; the rules are: {known}.",
"unknown_square": "There is no square {square!r} in the {edition} edition.",
# events
"event_new_game": "New game: {players}, {amount} each.",
"event_dealt": "{player} is dealt {property} and pays {amount}.",
"event_salary": "{player} collects the salary: {amount}.",
"event_collected": "{player} collects {amount} from the bank.",
"event_paid": "{player} pays {to} {amount} ({reason}).",
"event_debt": "{player} cannot pay {to} {amount} ({reason}): a debt; {missing} more cash is needed.",
"event_debt_paid": "{player} pays the debt of {amount} to {to}.",
"event_bought": "{player} buys {property} for {amount}.",
"event_auction_opened": "Auction opened: {property}{building}.",
"event_bid": "{player} bids {amount}.",
"event_auction_won": "{player} wins the auction: {property}{building} for {amount}.",
"event_auction_no_bids": "No bids: {property}{building} stays with the bank.",
"event_no_rent": "{player} pays no rent for {property} ({basis}).",
"event_built": "{player} builds a {building} on {property} for {amount}.",
"event_sold_building": "{player} sells a {building} on {property} for {amount}.",
"event_sold_all_buildings": "{player} sells every building of the {group} group for {amount}.",
"event_mortgaged": "{player} mortgages {property} and gets {amount}.",
"event_unmortgaged": "{player} lifts the mortgage on {property} for {amount}.",
"event_kept_mortgaged": "{player} keeps {property} mortgaged and pays the interest {amount}.",
"event_decision_needed": "{player} received the mortgaged {property}: lift it for {unmortgage_cost}, or keep it for {keep_fee} now.",
"event_card": "{player} draws: {text}",
"event_draw_instead": "{player} takes a card from the other deck instead of paying.",
"event_no_repairs": "{player} has no buildings: the repairs cost nothing.",
"event_jailed": "{player} goes to jail.",
"event_released": "{player} leaves jail ({how}).",
"event_jail_card_kept": "{player} keeps the Get Out of Jail Free card.",
"event_moved": "{player} moves to {square}.",
"event_pot_collected": "{player} takes the Free Parking pot: {amount}.",
"event_pot_empty": "The Free Parking pot is empty.",
"event_traded": "{player} and {to} trade.",
"event_debt_settled_by_trade": "{to} accepts the trade in payment of {player}'s debt of {amount}.",
"event_bankrupt": "{player} is bankrupt, owing {amount}.",
"event_buildings_sold": "{player}'s buildings go back to the bank for {amount}.",
"event_inherited_cash": "{player} receives {source}'s cash: {amount}.",
"event_inherited_deed": "{player} receives {property} from {source}.",
"event_deeds_returned": "{player}'s deeds return to the bank.",
"event_game_over": "The game is over: {winner} wins.",
"event_turn": "It is {player}'s turn.",
"event_undone": "Undone: {action}.",
"advisor_bad_option": "The advisor cannot use {option}: {problem}.",
"advisor_bad_chain": "The board's movement cannot be solved: {problem}.",
"advisor_unknown_player": "There is no player {player!r}; the players are: {players}.",
"summary_player": "{player}: {cash}, net worth {worth}",
"summary_in_jail": " [in jail]",
"summary_bankrupt": "{player}: bankrupt",
"summary_bank": "bank: {houses} houses, {hotels} hotels; pot {pot}",
"summary_debt": "debt: {player} owes {to} {amount}",
"summary_auction": "auction: {property}, high bid {amount}",
"auction_bid_stands": "{player}'s bid of {amount} for a {building} on {property} stands until the auction closes: this would make it impossible to build there. Close the auction first.",
"levels_empty": "Name the level each street comes down to, e.g. \"levels\": {{\"mediterranean\": 3, \"baltic\": 3}}.",
"levels_one_group": "{property} is in another group: name the streets of one group only.",
"levels_not_lower": "{property} has {current} levels of buildings (5 is a hotel): it can come down to 0 to {current}, not {level}.",
"levels_nothing_sold": "These levels are the buildings standing now: nothing would be sold.",
"levels_uneven": "Sell evenly: the group would be left with {levels}; the levels may differ by one at most.",
"levels_short": "These levels need {needed} houses from the bank, which can give {houses}: sell further.",
"event_sold_buildings": "{player} sells buildings of the {group} group for {amount}.",
"hotel_breakdown_short": "The bank has only {houses} houses, not the {needed} to break down the hotel on {property} evenly: sell further in one go with sell_buildings (name the level each street comes down to), or sell every building of the group (sell_all_buildings).",
"duplicate_key": "The field {field!r} is given twice: give each field once.",
"too_deep": "This line nests lists or objects more than {limit} deep: no action needs that.",
"number_too_long": "This line has a number with too many digits: amounts are at most 1,000,000,000.",
"bad_text": "This line has a text that is not valid Unicode (character {position} of the text).",
"amount_too_large": "{field} is at most {limit} (and at least -{limit}).",
"unknown_field_none": "{action} takes no fields besides \"action\": remove {field!r}.",
"player_name_empty": "A player needs a name: an empty name cannot be used.",
"player_name_control": "The player name {player} has a line break or a control character: use letters, digits and spaces.",
"player_name_invisible": "The player name {player} shows nothing: use letters or digits.",
"player_name_too_long": "A player name has at most {limit} characters; this one has {length}.",
"bad_player_name": "The player name {player!r} has spaces at its ends: remove them.",
"not_an_object": "Each line must be a JSON object, not {got}.",
"end_game_auction": "The auction of {what} is still open: close it (auction_close) before ending the game.",
"duplicate_player": "Every player needs a different name: {player} and {other} are the same (capitals do not count).",
"script_line": "line {line}: {message}",
"file_unreadable": "cannot read {file}: {problem}",
"file_not_utf8": "cannot read {file}: line {line} is not UTF-8 text",
"demo_resumed": "Journal {path}: the game resumes at action {seq}.",
"demo_deleted": "That journal was temporary and is now deleted: banker demo --db FILE keeps one for banker games --db FILE.",
"unknown_property_suggest": "There is no property {property!r} in the {edition} edition: did you mean {suggestion!r}? (ids are written in lower case)",
"unknown_square_suggest": "There is no square {square!r} in the {edition} edition: did you mean {suggestion!r}?",
"unknown_player_suggest": "There is no player {player!r}: did you mean {suggestion!r}? The players are: {players}.",
"unknown_payee": "There is no player {to!r}: pay a player ({players}), \"bank\" (the bank) or \"pot\" (the Free Parking pot), in lower case.",
"mortgage_own_buildings": "{property} has buildings: sell every building of its group first, then mortgage it.",
"trade_own_buildings": "{property} has buildings: sell every building of its group first, then trade it.",
"event_bankruptcy_cash": "{player}'s cash of {amount} goes to {to}.",
"end_game_debts": "{player} still owes money: pay the debt (pay_debt) or declare bankruptcy before the game ends.",
}

EN_LABELS: dict[str, str] = {
    "bank": "the bank",
    "pot": "the Free Parking pot",
    "house": "house",
    "hotel": "hotel",
    "bid": "the bid",
    "trade": "the trade",
    "rent": "rent",
    "tax": "tax",
    "card": "card",
    "repairs": "repairs",
    "jail_fine": "jail fine",
    "mortgage_interest": "mortgage interest",
    "pay": "payment",
    "fine": "paid the fine",
    "double": "rolled a double",
    "mortgaged": "it is mortgaged",
    "unowned": "nobody owns it",
    "chance": "Chance",
    "community_chest": "Community Chest",
    "brown": "brown",
    "light_blue": "light blue",
    "pink": "pink",
    "orange": "orange",
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "dark_blue": "dark blue",
    "creditors": "the creditors",
    "json_list": "a list",
    "json_text": "a text",
    "json_number": "a number",
    "json_boolean": "true or false",
    "json_null": "null",
    "a list of names": "a list of names",
    "a list of property ids": "a list of property ids",
    "a non-empty text": "a non-empty text",
    "a whole number": "a whole number",
    "an object of lists of property ids": "an object of lists of property ids",
    "an object of whole numbers": "an object of whole numbers",
    "an object": "an object",
    "only cash, properties and jail_cards": "only cash, properties and jail_cards",
    "true or false": "true or false",
    "whole numbers for cash and jail_cards": "whole numbers for cash and jail_cards",
    "a positive amount": "a positive amount",
    "not negative": "not negative",
    "an object with cash, properties and jail_cards": "an object like {\"cash\": 100, \"properties\": [], \"jail_cards\": 0}",
    "Expecting value": "a value is expected",
    "Expecting property name enclosed in double quotes": "a field name in double quotes is expected",
    "Expecting ',' delimiter": "a comma is expected",
    "Expecting ':' delimiter": "a colon is expected",
    "Extra data": "something follows the object",
    "Unterminated string starting at": "a text is not closed",
    "Invalid control character at": "a control character inside a text",
    "Invalid \\escape": "an invalid \\ escape",
    "Invalid \\uXXXX escape": "an invalid \\uXXXX escape",
    "standard input": "standard input",
}

TABLES: dict[str, dict[str, str]] = {"en": EN, "ru": RU, "bg": BG}
LABELS: dict[str, dict[str, str]] = {"en": EN_LABELS, "ru": RU_LABELS, "bg": BG_LABELS}


def register(texts: dict[str, dict[str, str]]) -> None:
    """Add the texts of another part of the program (the table's screens, the phone page) to the tables.

    ``texts`` maps each language of :data:`LANGUAGES` to its keys; every language must have the same
    keys, and a key may not be registered twice with another text.

    Raises:
        ValueError: a language is missing or has other keys, or a key clashes with an existing text.
    """
    if set(texts) != set(LANGUAGES):
        raise ValueError(f"texts must be given in {LANGUAGES}, not {sorted(texts)}")
    keys = set(texts["en"])
    for language, table in texts.items():
        if set(table) != keys:
            raise ValueError(f"{language} texts differ from en: {sorted(keys ^ set(table))}")
        for key, text in table.items():
            if TABLES[language].get(key, text) != text:
                raise ValueError(f"text {key!r} is already registered with another {language} text")
    for language, table in texts.items():
        TABLES[language].update(table)


def label(word: str, language: str) -> str:
    """A small word (an account, a building, a reason) in ``language``; the word itself if unknown."""
    return LABELS.get(language, EN_LABELS).get(word) or EN_LABELS.get(word, word)


def render(key: str, params: dict[str, Any], language: str) -> str:
    """The text of ``key`` in ``language`` (falling back to English) with ``params`` filled in."""
    params = {k: _localize(k, v, language) for k, v in params.items()}
    template = TABLES.get(language, EN).get(key) or EN.get(key)
    if template is None:
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        return f"{key} ({detail})" if detail else key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template.format_map(_Lenient(params))


ACCOUNT_KEYS = frozenset({"owner", "creditor", "to"})
WORD_KEYS = frozenset({"building", "what", "got", "expected", "problem", "file"})


def _localize(key: str, value: Any, language: str) -> Any:
    """Accounts ("bank", "pot") and small words ("house", "bid") inside a message, in its language."""
    if not isinstance(value, str):
        return value
    if key in ACCOUNT_KEYS and value in ("bank", "pot", "creditors"):
        return label(value, language)
    if key in WORD_KEYS and value in EN_LABELS:
        return label(value, language)
    return value


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
