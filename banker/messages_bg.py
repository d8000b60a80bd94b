"""Bulgarian texts of :mod:`banker.messages`."""

BG: dict[str, str] = {
    # errors
    "already_in_jail": "{player} вече е в затвора.",
    "already_mortgaged": "{property} вече е под ипотека.",
    "already_owned": "{property} вече е на {owner}: платете наем или предложете сделка на {owner}.",
    "amount_not_positive": "Полето {field} трябва да е по-голямо от нула (а е {amount}).",
    "auction_open": "Търгът за {what} още е отворен: наддайте или първо го затворете с auction_close.",
    "bad_building": 'Търг за сграда е за "house" (къща) или "hotel" (хотел), а не за {building!r}.',
    "bad_card_choice": (
        'За тази карта изберете "pay" (плащане) или "draw" (теглене на карта), а не {choice!r}.'
    ),
    "bad_dice": "Сборът на заровете е между 2 и 12, а не {dice}.",
    "bad_field": "{action}: {field} = {value} не е валидно, очаква се {expected}.",
    "bad_json": "Този ред не е валиден JSON ({problem}, колона {column}).",
    "bad_rent_card": "Непозната карта за наем {card!r}; използвайте една от: {known}.",
    "bad_rule_value": "Домашното правило {rule} = {value} не е валидно: очаква се {expected}.",
    "bankrupt_can_pay": (
        "{player} не може да фалира: с продажби и ипотеки ще събере {value} — достатъчно за дълга от "
        "{amount}. Съберете парите и платете дълга."
    ),
    "bankrupt_no_debt": "{player} не дължи нищо — няма нужда от фалит.",
    "bid_below_price": "Наддаването за сграда започва от отпечатаната цена {price}; {amount} е твърде малко.",
    "bid_needs_property": "Офертата ({building}) трябва да казва на коя улица ще стои сградата (property).",
    "bid_other_property": "Този търг не е за {property}.",
    "bid_too_low": "Офертата трябва да е над {high} (най-високата досега, на {bidder}); {amount} е малко.",
    "bid_wrong_building": "Следващата сграда на {property} не е {building}.",
    "build_evenly": "Строете равномерно: {first} трябва да получи следващата си сграда преди {property}.",
    "build_group_mortgaged": (
        "{player} не може да строи на {property}: {mortgaged} е под ипотека. Първо вдигнете ипотеката."
    ),
    "build_has_hotel": "На {property} вече има хотел; повече не може да се строи.",
    "build_needs_group": (
        "{player} не може да строи на {property}: нужна е цялата група, а {missing} е на {owner}."
    ),
    "card_no_choice": "Тази карта не предлага избор: махнете choice. ({card})",
    "card_in_jail": "{player} е в затвора и не може да се движи по карта; първо излезте от затвора.",
    "card_needs_square": (
        "Посочете къде е изтеглена картата (square) или дали е преминато полето GO (passed_go): {card}"
    ),
    "card_wrong_square": "{square} не е поле „Шанс“ или „Обществен сандък“: посочете полето, където е изтеглена картата.",
    "deal_count": "{player} трябва да получи точно {count} имота при раздаването.",
    "deal_duplicate": "{property} се среща два пъти в раздаването.",
    "deal_players": "В раздаването трябва да са всички играчи: {players}.",
    "deal_unaffordable": "{player}: няма достатъчно пари за раздадените имоти ({amount}, има {cash}). Увеличете началната сума или раздайте по-евтини имоти.",
    "deal_without_rule": (
        "Имотите се раздават само в кратката игра или в играта с време (правила short_game, timed_game или "
        "deal_deeds)."
    ),
    "debt_short": (
        "{player} дължи {amount}, а има {cash}: трябват още {missing}. Продайте сгради, ипотекирайте или "
        "направете сделка, после платете."
    ),
    "debt_short_bankrupt": (
        "{player} дължи {amount}, а има {cash}, и дори да продаде всичко, няма да стигне: обявете фалит."
    ),
    "decision_pending": (
        "{player} първо трябва да реши за {property} (под ипотека): да вдигне ипотеката (unmortgage) или да "
        "я запази и да плати лихвата (keep_mortgaged)."
    ),
    "decliner_may_not_bid": (
        "{player} отказа да купи, а домашните правила не позволяват на отказалия да наддава."
    ),
    "dice_needed": "Наемът на {property} зависи от заровете: въведете хвърления сбор (dice).",
    "edition_file": "{file}: {field}: {problem}",
    "game_in_progress": "Вече тече игра; new_game започва отделна игра.",
    "game_over": (
        "Играта свърши (спечели {winner}). Отменете хода, за да продължите, или започнете нова игра."
    ),
    "in_debt": (
        "{player} първо трябва да плати дълг: съберете пари (продайте сгради, ипотекирайте, направете "
        "сделка) и го платете или обявете фалит."
    ),
    "jail_card_held": (
        "Картата „Излез от затвора безплатно“ от {deck} е у {holder}; не може да се изтегли отново, докато "
        "не бъде използвана."
    ),
    "missing_action_name": 'Всеки ред трябва да има "action": едно от {known}.',
    "missing_field": "{action} изисква полето {field}.",
    "mortgage_buildings": (
        "{property} не може да се ипотекира, докато в групата има сгради ({built}): първо ги продайте."
    ),
    "no_auction": "Няма отворен търг.",
    "no_buildings": "На {property} няма сгради за продажба.",
    "no_buildings_in_group": "В групата на {property} няма сгради за продажба.",
    "no_debt": "{player} няма дълг за плащане.",
    "no_decision": "{player} няма какво да решава за {property}.",
    "no_game": "Няма започната игра: започнете с new_game.",
    "no_hotels_left": "В банката няма останали хотели: изчакайте някой да бъде върнат.",
    "no_houses_left": (
        "В банката няма останали къщи: изчакайте някоя да бъде върната или, ако няколко играчи ги искат, "
        "пуснете последните на търг."
    ),
    "no_jail_card": "{player} няма карта „Излез от затвора безплатно“.",
    "no_pot_rule": (
        "По тези правила Безплатният паркинг не плаща нищо (домашното правило free_parking_pot е изключено)."
    ),
    "not_a_street": "{property} не е улица: къщи и хотели се строят само на улици.",
    "not_a_tax_square": "{square} не е поле за данък.",
    "not_enough_cash": (
        "{player} има {cash}, а за {what} трябват {amount}: не стигат {missing}. Първо продайте сгради или "
        "ипотекирайте."
    ),
    "not_in_jail": "{player} не е в затвора.",
    "not_mortgaged": "{property} не е под ипотека.",
    "not_owner": "{property} е на {owner}, а не на {player}.",
    "nothing_to_undo": "Няма какво да се отмени.",
    "pay_self": "{player} не може да плаща на себе си.",
    "player_bankrupt": "{player} е във фалит и вече не участва.",
    "player_count": "Играта е за {low} до {high} играчи, а не за {count}.",
    "rent_card_mismatch": "Картата {card} не се отнася за {property}.",
    "rent_own": "{player} притежава {property}: не се дължи наем.",
    "rent_unowned": "{property} няма собственик: купете имота или го пуснете на търг.",
    "reserved_player_name": "{player!r} е име на сметка (bank, pot): изберете друго име.",
    "salary_in_jail": "{player} е в затвора: при отиване в затвора заплата не се получава.",
    "script_needs_new_game": "Скриптът започва с ред new_game.",
    "sell_evenly": "Продавайте равномерно: първо от {first}, после от {property}.",
    "tax_choice_needed": (
        '{square}: преди да смятате, изберете "flat" ({flat}) или "percent" ({percent} % от общата стойност).'
    ),
    "tax_no_choice": "{square} няма избор: платете отпечатаната сума.",
    "trade_buildings": (
        "{property} не може да влезе в сделка, докато в групата има сгради ({built}): първо ги продайте."
    ),
    "trade_duplicate": "Един имот е посочен два пъти в сделката.",
    "trade_empty": "Сделката не прехвърля нищо.",
    "trade_negative": "Парите и картите „Излез от затвора безплатно“ в сделка не могат да са отрицателни.",
    "trade_no_debt_to_settle": (
        "{player} не дължи нищо на {creditor}, така че сделката не може да покрие дълг."
    ),
    "trade_no_jail_card": (
        "{player} няма достатъчно карти „Излез от затвора безплатно“ за сделката (нужни: {count})."
    ),
    "trade_self": "{player} не може да прави сделка със себе си.",
    "unknown_account": "Няма сметка {account!r}.",
    "unknown_action": "Непознато действие {action!r}; познати действия: {known}.",
    "unknown_card": "В тестето {deck} на изданието {edition} няма карта {card!r}.",
    "unknown_deck": "Няма тесте {deck!r}: използвайте chance или community_chest.",
    "unknown_edition": "Няма издание {edition!r}; изберете едно от: {known}.",
    "unknown_field": "{action} няма поле {field!r}; полетата му са: {known}.",
    "unknown_game": "Няма запазена игра {game}.",
    "unknown_player": "Няма играч {player!r}; играчите са: {players}.",
    "unknown_property": "В изданието {edition} няма имот {property!r}.",
    "unknown_rule": "Няма домашно правило {rule!r}; правилата са: {known}.",
    "unknown_square": "В изданието {edition} няма поле {square!r}.",
    # events
    "event_new_game": "Нова игра: {players}, по {amount} за всеки.",
    "event_dealt": "{player} получава {property} и плаща {amount}.",
    "event_salary": "{player} получава заплата: {amount}.",
    "event_collected": "{player} получава {amount} от банката.",
    "event_paid": "{player} плаща на {to} {amount} ({reason}).",
    "event_debt": (
        "{player} не може да плати на {to} {amount} ({reason}): това е дълг; трябват още {missing}."
    ),
    "event_debt_paid": "{player} изплаща дълга от {amount} на {to}.",
    "event_bought": "{player} купува {property} за {amount}.",
    "event_auction_opened": "Започва търг: {property}{building}.",
    "event_bid": "{player} наддава {amount}.",
    "event_auction_won": "{player} печели търга: {property}{building} за {amount}.",
    "event_auction_no_bids": "Няма оферти: {property}{building} остава в банката.",
    "event_no_rent": "{player} не плаща наем за {property} ({basis}).",
    "event_built": "{player} строи {building} на {property} за {amount}.",
    "event_sold_building": "{player} продава {building} на {property} за {amount}.",
    "event_sold_all_buildings": "{player} продава всички сгради от групата „{group}“ за {amount}.",
    "event_mortgaged": "{player} ипотекира {property} и получава {amount}.",
    "event_unmortgaged": "{player} вдига ипотеката на {property} за {amount}.",
    "event_kept_mortgaged": "{player} запазва ипотеката на {property} и плаща лихва {amount}.",
    "event_decision_needed": (
        "{player} получи {property} под ипотека: вдигнете я за {unmortgage_cost} или я запазете, като "
        "платите сега {keep_fee}."
    ),
    "event_card": "{player} тегли: {text}",
    "event_draw_instead": "{player} тегли карта от другото тесте, вместо да плаща.",
    "event_no_repairs": "{player} няма сгради: ремонтът не струва нищо.",
    "event_jailed": "{player} отива в затвора.",
    "event_released": "{player} излиза от затвора ({how}).",
    "event_jail_card_kept": "{player} запазва картата „Излез от затвора безплатно“.",
    "event_moved": "{player} отива на {square}.",
    "event_pot_collected": "{player} взима касата на Безплатния паркинг: {amount}.",
    "event_pot_empty": "Касата на Безплатния паркинг е празна.",
    "event_traded": "{player} и {to} правят сделка.",
    "event_debt_settled_by_trade": "{to} приема сделката като плащане на дълга на {player} от {amount}.",
    "event_bankrupt": "{player} фалира с дълг от {amount}.",
    "event_buildings_sold": "Сградите на {player} се връщат в банката за {amount}.",
    "event_inherited_cash": "{player} получава парите на {source}: {amount}.",
    "event_inherited_deed": "{player} получава {property} от {source}.",
    "event_deeds_returned": "Имотите на {player} се връщат в банката.",
    "event_game_over": "Играта свърши: печели {winner}.",
    "event_turn": "На ход е {player}.",
    "event_undone": "Отменено: {action}.",
    "advisor_bad_option": "Съветникът не може да използва {option}: {problem}.",
    "advisor_bad_chain": "Движението по дъската не може да се изчисли: {problem}.",
    "advisor_unknown_player": "Няма играч {player!r}; играчите са: {players}.",
    "summary_player": "{player}: {cash}, състояние {worth}",
    "summary_in_jail": " [в затвора]",
    "summary_bankrupt": "{player}: фалирал",
    "summary_bank": "банка: къщи {houses}, хотели {hotels}; каса {pot}",
    "summary_debt": "дълг: {player} дължи {amount} — на: {to}",
    "summary_auction": "търг: {property}, най-висока оферта {amount}",
    "auction_bid_stands": (
        "Наддаването на {player} ({amount}) за {building} върху {property} важи до закриването на търга, а след това там няма да може да се строи. Първо закрийте търга."
    ),
    "levels_empty": (
        "Посочете до какво ниво слизат сградите на всяка улица, например \"levels\": {{\"mediterranean\": 3, \"baltic\": 3}}."
    ),
    "levels_one_group": "{property} е от друга група: посочете улици само от една група.",
    "levels_not_lower": (
        "На {property} нивото на сградите е {current} (5 е хотел): може да слезе до 0–{current}, но не до {level}."
    ),
    "levels_nothing_sold": "Тези нива са сегашните сгради: нищо няма да се продаде.",
    "levels_uneven": (
        "Продавайте равномерно: в групата би останало {levels}, а нивата могат да се различават най-много с едно."
    ),
    "levels_short": "За тези нива банката трябва да даде {needed} къщи, а може да даде {houses}: продайте още.",
    "event_sold_buildings": "{player} продава сгради от групата „{group}“ за {amount}.",
    "hotel_breakdown_short": (
        "Банката има само {houses} къщи, а за да се замени хотелът на {property} равномерно, трябват {needed}. Продайте повече наведнъж (sell_buildings, с нивото на всяка улица) или всички сгради на групата (sell_all_buildings)."
    ),
    "duplicate_key": "Полето {field!r} е дадено два пъти: дайте всяко поле веднъж.",
    "too_deep": (
        "В реда списъците или обектите са вложени на повече от {limit} нива: никое действие не се нуждае от това."
    ),
    "number_too_long": "В реда има твърде дълго число: сумите са най-много 1 000 000 000.",
    "bad_text": "В реда има текст, който не е валиден Уникод (знак {position}).",
    "amount_too_large": "{field}: най-много {limit} (и най-малко -{limit}).",
    "unknown_field_none": "{action} няма полета освен \"action\": махнете {field!r}.",
    "player_name_empty": "Играчът трябва да има име: празно име не става.",
    "player_name_control": (
        "Името на играча {player} съдържа нов ред или управляващ знак: използвайте букви, цифри и интервали."
    ),
    "player_name_invisible": "Името на играча {player} не показва нищо: използвайте букви или цифри.",
    "player_name_too_long": "Името на играча е най-много {limit} знака, а това има {length}.",
    "bad_player_name": "Името на играча {player!r} има интервали в началото или в края: махнете ги.",
    "not_an_object": "Всеки ред трябва да е JSON обект, а не {got}.",
    "end_game_auction": "Търгът ({what}) още е открит: закрийте го (auction_close), преди да приключите играта.",
    "duplicate_player": (
        "Всеки играч трябва да има различно име: {player} и {other} са едно и също (главните букви не се броят)."
    ),
    "script_line": "ред {line}: {message}",
    "file_unreadable": "не може да се прочете {file}: {problem}",
    "file_not_utf8": "не може да се прочете {file}: ред {line} не е текст в UTF-8",
    "demo_resumed": "Дневник {path}: играта продължава от действие {seq}.",
    "demo_deleted": (
        "Този дневник беше временен и вече е изтрит: banker demo --db ФАЙЛ пази дневник за banker games --db ФАЙЛ."
    ),
    "unknown_property_suggest": (
        "В изданието {edition} няма имот {property!r}: може би {suggestion!r}? (идентификаторите се пишат с малки букви)"
    ),
    "unknown_square_suggest": "В изданието {edition} няма поле {square!r}: може би {suggestion!r}?",
    "unknown_player_suggest": "Няма играч {player!r}: може би {suggestion!r}? Играчите са: {players}.",
    "unknown_payee": (
        "Няма играч {to!r}: плаща се на играч ({players}), на \"bank\" (банката) или на \"pot\" (касата на Безплатния паркинг), с малки букви."
    ),
    "mortgage_own_buildings": (
        "На {property} има сгради: първо продайте всички сгради от групата му, после го ипотекирайте."
    ),
    "trade_own_buildings": (
        "На {property} има сгради: първо продайте всички сгради от групата му, после го разменяйте."
    ),
    "event_bankruptcy_cash": "Парите на {player} ({amount}) отиват при {to}.",
    "end_game_debts": "{player} още дължи: платете дълга (pay_debt) или обявете фалит, преди играта да приключи.",
}

BG_LABELS: dict[str, str] = {
    "bid": "наддаването",
    "trade": "размяната",
    "bank": "банката",
    "pot": "касата на Безплатния паркинг",
    "house": "къща",
    "hotel": "хотел",
    "rent": "наем",
    "tax": "данък",
    "card": "карта",
    "repairs": "ремонти",
    "jail_fine": "глоба за затвора",
    "mortgage_interest": "лихва по ипотека",
    "pay": "плащане",
    "fine": "плати глобата",
    "double": "хвърли двойно",
    "mortgaged": "под ипотека",
    "unowned": "няма собственик",
    "chance": "Шанс",
    "community_chest": "Обществен сандък",
    "brown": "кафяви",
    "light_blue": "светлосини",
    "pink": "розови",
    "orange": "оранжеви",
    "red": "червени",
    "yellow": "жълти",
    "green": "зелени",
    "dark_blue": "тъмносини",
    "creditors": "кредиторите",
    "json_list": "списък",
    "json_text": "текст",
    "json_number": "число",
    "json_boolean": "true или false",
    "json_null": "null",
    "a list of names": "списък с имена",
    "a list of property ids": "списък с идентификатори на имоти",
    "a non-empty text": "непразен текст",
    "a whole number": "цяло число",
    "an object of lists of property ids": "обект със списъци от идентификатори на имоти",
    "an object of whole numbers": "обект с цели числа",
    "an object": "обект",
    "only cash, properties and jail_cards": "само cash, properties и jail_cards",
    "true or false": "true или false",
    "whole numbers for cash and jail_cards": "цели числа в cash и jail_cards",
    "a positive amount": "положителна сума",
    "not negative": "не по-малко от нула",
    "an object with cash, properties and jail_cards": "обект като {\"cash\": 100, \"properties\": [], \"jail_cards\": 0}",
    "Expecting value": "очаква се стойност",
    "Expecting property name enclosed in double quotes": "очаква се име на поле в двойни кавички",
    "Expecting ',' delimiter": "очаква се запетая",
    "Expecting ':' delimiter": "очаква се двоеточие",
    "Extra data": "след обекта има още нещо",
    "Unterminated string starting at": "текстът не е затворен",
    "Invalid control character at": "управляващ знак в текст",
    "Invalid \\escape": "невалидна последователност с \\",
    "Invalid \\uXXXX escape": "невалидна последователност \\uXXXX",
    "standard input": "стандартния вход",
}
