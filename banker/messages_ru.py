"""Russian texts of :mod:`banker.messages`."""

RU: dict[str, str] = {
    # errors
    "already_in_jail": "{player} уже в тюрьме.",
    "already_mortgaged": "{property} уже в залоге.",
    "already_owned": (
        "{property}: владелец — {owner}. Заплатите аренду или договоритесь с владельцем об обмене."
    ),
    "amount_not_positive": "Поле {field} должно быть больше нуля (сейчас {amount}).",
    "auction_open": (
        "Аукцион ({what}) ещё идёт: сделайте ставку или сначала закройте его командой auction_close."
    ),
    "bad_building": 'На аукцион выставляют "house" (дом) или "hotel" (отель), а не {building!r}.',
    "bad_card_choice": (
        'Для этой карточки выберите "pay" (заплатить) или "draw" (взять карточку), а не {choice!r}.'
    ),
    "bad_dice": "Сумма на кубиках — от 2 до 12, а не {dice}.",
    "bad_field": "{action}: значение {field} = {value} не подходит, нужно {expected}.",
    "bad_json": "Строка не читается как JSON ({problem}, столбец {column}).",
    "bad_rent_card": "Неизвестная карточка аренды {card!r}; можно: {known}.",
    "bad_rule_value": "Домашнее правило {rule} = {value} не подходит: нужно {expected}.",
    "bankrupt_can_pay": (
        "{player} не может объявить банкротство: продажа и залог принесут {value}, а этого хватит на долг "
        "{amount}. Соберите деньги и заплатите долг."
    ),
    "bankrupt_no_debt": "{player}: долгов нет, объявлять банкротство незачем.",
    "bid_below_price": "Ставка за здание начинается с цены на карточке — {price}; {amount} — слишком мало.",
    "bid_needs_property": "Ставка ({building}): укажите улицу, на которой будет стоять здание (property).",
    "bid_other_property": "Сейчас на аукционе не {property}.",
    "bid_too_low": "Ставка должна быть больше {high} (лидирует {bidder}); {amount} — мало.",
    "bid_wrong_building": "{property}: следующее здание здесь — не {building}.",
    "build_evenly": "Стройте равномерно: сначала следующее здание получает {first}, потом {property}.",
    "build_group_mortgaged": (
        "{player} не может строить ({property}): {mortgaged} в залоге. Сначала выкупите залог."
    ),
    "build_has_hotel": "{property}: здесь уже отель, больше строить нечего.",
    "build_needs_group": (
        "{player} не может строить ({property}): нужна вся группа, а {missing} у другого владельца — {owner}."
    ),
    "card_no_choice": "У этой карточки нет выбора: уберите choice. ({card})",
    "card_in_jail": "{player} в тюрьме и не может ходить по карточке; сначала выйдите из тюрьмы.",
    "card_needs_square": (
        "Укажите, где взята карточка (square), или пройдено ли поле «Вперёд» (passed_go): {card}"
    ),
    "card_wrong_square": "{square} — не поле «Шанс» или «Общественная казна»: укажите поле, где взята карточка.",
    "deal_count": "{player}: при раздаче карточек собственности должно быть ровно {count}.",
    "deal_duplicate": "{property} встречается в раздаче дважды.",
    "deal_players": "В раздаче должны быть все игроки: {players}.",
    "deal_unaffordable": "{player}: не хватает денег на розданные карточки ({amount}, есть {cash}). Увеличьте стартовую сумму или раздайте карточки дешевле.",
    "deal_without_rule": (
        "Карточки собственности раздают только в короткой игре или игре на время (правила short_game, "
        "timed_game или deal_deeds)."
    ),
    "debt_short": (
        "{player}: долг {amount}, а денег {cash} — не хватает {missing}. Продайте здания, заложите "
        "что-нибудь или обменяйтесь, потом платите."
    ),
    "debt_short_bankrupt": (
        "{player}: долг {amount}, а денег {cash}, и даже продажа всего не покроет долг — объявите "
        "банкротство."
    ),
    "decision_pending": (
        "{player}, сначала решите: {property} в залоге — выкупить сейчас (unmortgage) или оставить в залоге "
        "и заплатить проценты (keep_mortgaged)?"
    ),
    "decliner_may_not_bid": (
        "{player}: по домашним правилам тот, кто отказался от покупки, не участвует в аукционе."
    ),
    "dice_needed": "{property}: аренда зависит от кубиков — укажите сумму выпавших очков (dice).",
    "edition_file": "{file}: {field}: {problem}",
    "game_in_progress": "Игра уже идёт; new_game начинает отдельную игру.",
    "game_over": (
        "Игра окончена (победитель — {winner}). Отмените ход, чтобы продолжить, или начните новую игру."
    ),
    "in_debt": (
        "{player}: сначала нужно заплатить долг. Соберите деньги (продайте здания, заложите, обменяйтесь) и "
        "заплатите или объявите банкротство."
    ),
    "jail_card_held": (
        "Карточку освобождения из тюрьмы ({deck}) держит {holder}; её нельзя вытянуть снова, пока её не "
        "используют."
    ),
    "missing_action_name": 'В каждой строке нужно "action": одно из {known}.',
    "missing_field": "{action}: нужно поле {field}.",
    "mortgage_buildings": (
        "{property} нельзя заложить, пока в группе есть здания ({built}): сначала продайте их."
    ),
    "no_auction": "Аукциона сейчас нет.",
    "no_buildings": "{property}: здесь нет зданий для продажи.",
    "no_buildings_in_group": "{property}: в этой группе нет зданий для продажи.",
    "no_debt": "{player}: долга нет — платить нечего.",
    "no_decision": "{player}: решать ничего не нужно ({property}).",
    "no_game": "Игра не начата: начните её командой new_game.",
    "no_hotels_left": "В банке закончились отели: подождите, пока кто-нибудь продаст отель обратно.",
    "no_houses_left": (
        "В банке закончились дома: подождите, пока кто-нибудь продаст дом обратно, или проведите аукцион, "
        "если последние дома нужны нескольким игрокам."
    ),
    "no_jail_card": "{player}: нет карточки освобождения из тюрьмы.",
    "no_pot_rule": (
        "По этим правилам Бесплатная стоянка ничего не платит (домашнее правило free_parking_pot выключено)."
    ),
    "not_a_street": "{property} — не улица: дома и отели строят только на улицах.",
    "not_a_tax_square": "{square} — не поле налога.",
    "not_enough_cash": (
        "{player}: нужно {amount} ({what}), а есть {cash} — не хватает {missing}. Сначала продайте здания "
        "или заложите что-нибудь."
    ),
    "not_in_jail": "{player} не в тюрьме.",
    "not_mortgaged": "{property} не в залоге.",
    "not_owner": "{property}: владелец — {owner}, а не {player}.",
    "nothing_to_undo": "Отменять нечего.",
    "pay_self": "{player}: платить самому себе нельзя.",
    "player_bankrupt": "{player} — банкрот и больше не участвует в игре.",
    "player_count": "В игре от {low} до {high} игроков, а не {count}.",
    "rent_card_mismatch": "Карточка {card} здесь не подходит ({property}).",
    "rent_own": "{property}: владелец — {player}, аренду платить не нужно.",
    "rent_unowned": "{property}: владельца нет — купите или выставьте на аукцион.",
    "reserved_player_name": "{player!r} — это имя счёта (bank, pot): выберите другое имя.",
    "salary_in_jail": "{player} в тюрьме: при отправке в тюрьму зарплата не выплачивается.",
    "script_needs_new_game": "Сценарий начинается со строки new_game.",
    "sell_evenly": "Продавайте равномерно: сначала {first}, потом {property}.",
    "tax_choice_needed": (
        '{square}: до подсчёта выберите "flat" ({flat}) или "percent" ({percent} % от всего состояния).'
    ),
    "tax_no_choice": "{square}: выбора нет — заплатите сумму, указанную на поле.",
    "trade_buildings": (
        "{property} нельзя обменять, пока в группе есть здания ({built}): сначала продайте их."
    ),
    "trade_duplicate": "Одна карточка собственности указана в обмене дважды.",
    "trade_empty": "В обмене ничего не передаётся.",
    "trade_negative": "Деньги и карточки освобождения из тюрьмы в обмене не могут быть отрицательными.",
    "trade_no_debt_to_settle": (
        "{player}: долгов перед игроком {creditor} нет, так что обмен не может погасить долг."
    ),
    "trade_no_jail_card": "{player}: для обмена не хватает карточек освобождения из тюрьмы (нужно {count}).",
    "trade_self": "{player}: меняться с самим собой нельзя.",
    "unknown_account": "Счёта {account!r} нет.",
    "unknown_action": "Неизвестное действие {action!r}; есть такие: {known}.",
    "unknown_card": "В колоде {deck} (издание {edition}) нет карточки {card!r}.",
    "unknown_deck": "Колоды {deck!r} нет: используйте chance или community_chest.",
    "unknown_edition": "Издания {edition!r} нет; выберите одно из: {known}.",
    "unknown_field": "{action}: нет поля {field!r}; есть поля: {known}.",
    "unknown_game": "Сохранённой игры {game} нет.",
    "unknown_player": "Игрока {player!r} нет; играют: {players}.",
    "unknown_property": "В издании {edition} нет собственности {property!r}.",
    "unknown_rule": "Домашнего правила {rule!r} нет; есть такие: {known}.",
    "unknown_square": "В издании {edition} нет поля {square!r}.",
    # events
    "event_new_game": "Новая игра: {players}, у каждого по {amount}.",
    "event_dealt": "{player}: по раздаче достаётся {property}, оплата — {amount}.",
    "event_salary": "{player} получает зарплату: {amount}.",
    "event_collected": "{player} получает {amount} от банка.",
    "event_paid": "{player} платит {amount} ({reason}) — получает {to}.",
    "event_debt": (
        "{player} не может заплатить {amount} ({reason}, получатель — {to}): это долг, нужно ещё {missing}."
    ),
    "event_debt_paid": "{player} платит долг {amount} — получает {to}.",
    "event_bought": "{player} покупает: {property} за {amount}.",
    "event_auction_opened": "Открыт аукцион: {property}{building}.",
    "event_bid": "{player} делает ставку: {amount}.",
    "event_auction_won": "{player} выигрывает аукцион: {property}{building} за {amount}.",
    "event_auction_no_bids": "Ставок нет: {property}{building} остаётся у банка.",
    "event_no_rent": "{property}: {player} не платит аренду ({basis}).",
    "event_built": "{player} строит {building} ({property}) за {amount}.",
    "event_sold_building": "{player} продаёт {building} ({property}) за {amount}.",
    "event_sold_all_buildings": "{player} продаёт все здания группы «{group}» за {amount}.",
    "event_mortgaged": "{property} уходит в залог: {player} получает {amount}.",
    "event_unmortgaged": "{property} больше не в залоге: {player} платит {amount}.",
    "event_kept_mortgaged": "{property} остаётся в залоге: {player} платит проценты {amount}.",
    "event_decision_needed": (
        "{player}: к вам переходит {property} (в залоге). Выкупить за {unmortgage_cost} или оставить, "
        "заплатив сейчас {keep_fee}?"
    ),
    "event_card": "{player} берёт карточку: {text}",
    "event_draw_instead": "{player} вместо оплаты берёт карточку из другой колоды.",
    "event_no_repairs": "{player}: зданий нет — ремонт ничего не стоит.",
    "event_jailed": "{player} отправляется в тюрьму.",
    "event_released": "{player} выходит из тюрьмы ({how}).",
    "event_jail_card_kept": "{player} оставляет себе карточку освобождения из тюрьмы.",
    "event_moved": "{player} переходит на поле «{square}».",
    "event_pot_collected": "{player} забирает копилку Бесплатной стоянки: {amount}.",
    "event_pot_empty": "Копилка Бесплатной стоянки пуста.",
    "event_traded": "{player} и {to} совершают обмен.",
    "event_debt_settled_by_trade": "{to} принимает обмен в счёт долга {amount} (должник — {player}).",
    "event_bankrupt": "{player} — банкрот, долг {amount}.",
    "event_buildings_sold": "{player}: здания возвращаются в банк за {amount}.",
    "event_inherited_cash": "{player} получает деньги игрока {source}: {amount}.",
    "event_inherited_deed": "{player} получает от игрока {source}: {property}.",
    "event_deeds_returned": "Карточки собственности игрока {player} возвращаются в банк.",
    "event_game_over": "Игра окончена: побеждает {winner}.",
    "event_turn": "Ходит {player}.",
    "event_undone": "Отменено: {action}.",
    "advisor_bad_option": "Советник не может использовать {option}: {problem}.",
    "advisor_bad_chain": "Движение по полю не удаётся рассчитать: {problem}.",
    "advisor_unknown_player": "Нет игрока {player!r}; игроки: {players}.",
    "summary_player": "{player}: {cash}, капитал {worth}",
    "summary_in_jail": " [в тюрьме]",
    "summary_bankrupt": "{player}: банкрот",
    "summary_bank": "банк: домов {houses}, отелей {hotels}; копилка {pot}",
    "summary_debt": "долг: {player} должен {amount} — получатель: {to}",
    "summary_auction": "аукцион: {property}, высшая ставка {amount}",
    "auction_bid_stands": (
        "Ставка игрока {player} ({amount}) на {building} на участке {property} действует до закрытия аукциона, а после этого строить там будет нельзя. Сначала закройте аукцион."
    ),
    "levels_empty": (
        "Укажите, до какого уровня снести здания на каждом участке, например \"levels\": {{\"mediterranean\": 3, \"baltic\": 3}}."
    ),
    "levels_one_group": "{property} из другой группы: укажите участки только одной группы.",
    "levels_not_lower": (
        "На участке {property} уровень застройки {current} (5 — отель): его можно снизить до значения от 0 до {current}, но не до {level}."
    ),
    "levels_nothing_sold": "Эти уровни совпадают с нынешней застройкой: продавать нечего.",
    "levels_uneven": (
        "Продавайте равномерно: в группе осталось бы {levels}, а уровни могут отличаться не больше чем на один."
    ),
    "levels_short": (
        "Для такой застройки банку нужно выдать домов: {needed}, а он может выдать {houses}. Продайте больше."
    ),
    "event_sold_buildings": "{player} продаёт здания группы «{group}» за {amount}.",
    "hotel_breakdown_short": (
        "В банке осталось домов: {houses}, а чтобы равномерно заменить отель ({property}) домами, нужно {needed}. Продайте больше за один раз (sell_buildings, с уровнем для каждого участка) или все здания группы (sell_all_buildings)."
    ),
    "duplicate_key": "Поле {field!r} указано дважды: укажите каждое поле один раз.",
    "too_deep": "В строке списки или объекты вложены глубже {limit} уровней: ни одному действию это не нужно.",
    "number_too_long": "В строке слишком длинное число: суммы не больше 1 000 000 000.",
    "bad_text": "В строке есть текст, который не является корректным Юникодом (символ {position}).",
    "amount_too_large": "{field}: не больше {limit} (и не меньше -{limit}).",
    "unknown_field_none": "У действия {action} нет полей, кроме \"action\": уберите {field!r}.",
    "player_name_empty": "У игрока должно быть имя: пустое имя не подходит.",
    "player_name_control": (
        "В имени игрока {player} есть перевод строки или управляющий символ: используйте буквы, цифры и пробелы."
    ),
    "player_name_invisible": "Имя игрока {player} ничего не показывает: используйте буквы или цифры.",
    "player_name_too_long": "В имени игрока не больше {limit} символов, а здесь {length}.",
    "bad_player_name": "Имя игрока {player!r} начинается или заканчивается пробелом: уберите его.",
    "not_an_object": "Каждая строка должна быть JSON-объектом, а не {got}.",
    "end_game_auction": "Аукцион ({what}) ещё идёт: закройте его (auction_close), прежде чем заканчивать игру.",
    "duplicate_player": (
        "У каждого игрока должно быть своё имя: {player} и {other} — одно и то же (заглавные буквы не в счёт)."
    ),
    "script_line": "строка {line}: {message}",
    "file_unreadable": "не удаётся прочитать {file}: {problem}",
    "file_not_utf8": "не удаётся прочитать {file}: строка {line} — не текст в UTF-8",
    "demo_resumed": "Журнал {path}: игра продолжается с действия {seq}.",
    "demo_deleted": (
        "Этот журнал был временным и уже удалён: banker demo --db ФАЙЛ сохранит журнал для banker games --db ФАЙЛ."
    ),
    "unknown_property_suggest": (
        "В издании {edition} нет собственности {property!r}: может быть, {suggestion!r}? (идентификаторы пишутся строчными буквами)"
    ),
    "unknown_square_suggest": "В издании {edition} нет поля {square!r}: может быть, {suggestion!r}?",
    "unknown_player_suggest": "Игрока {player!r} нет: может быть, {suggestion!r}? Играют: {players}.",
    "unknown_payee": (
        "Игрока {to!r} нет: платить можно игроку ({players}), \"bank\" (банку) или \"pot\" (в копилку Бесплатной стоянки), строчными буквами."
    ),
    "mortgage_own_buildings": (
        "На участке {property} есть здания: сначала продайте все здания его группы, потом закладывайте."
    ),
    "trade_own_buildings": (
        "На участке {property} есть здания: сначала продайте все здания его группы, потом меняйте."
    ),
    "event_bankruptcy_cash": "Деньги игрока {player} ({amount}) достаются: {to}.",
    "end_game_debts": (
        "{player} ещё должен: заплатите долг (pay_debt) или объявите банкротство, прежде чем заканчивать игру."
    ),
}

RU_LABELS: dict[str, str] = {
    "bid": "ставка",
    "trade": "обмен",
    "bank": "банк",
    "pot": "копилка Бесплатной стоянки",
    "house": "дом",
    "hotel": "отель",
    "rent": "аренда",
    "tax": "налог",
    "card": "карточка",
    "repairs": "ремонт",
    "jail_fine": "штраф за выход из тюрьмы",
    "mortgage_interest": "проценты по залогу",
    "pay": "платёж",
    "fine": "уплачен штраф",
    "double": "выпал дубль",
    "mortgaged": "в залоге",
    "unowned": "нет владельца",
    "chance": "Шанс",
    "community_chest": "Общественная казна",
    "brown": "коричневые",
    "light_blue": "голубые",
    "pink": "розовые",
    "orange": "оранжевые",
    "red": "красные",
    "yellow": "жёлтые",
    "green": "зелёные",
    "dark_blue": "синие",
    "creditors": "кредиторы",
    "json_list": "список",
    "json_text": "текст",
    "json_number": "число",
    "json_boolean": "true или false",
    "json_null": "null",
    "a list of names": "список имён",
    "a list of property ids": "список идентификаторов собственности",
    "a non-empty text": "непустой текст",
    "a whole number": "целое число",
    "an object of lists of property ids": "объект со списками идентификаторов собственности",
    "an object of whole numbers": "объект с целыми числами",
    "an object": "объект",
    "only cash, properties and jail_cards": "только cash, properties и jail_cards",
    "true or false": "true или false",
    "whole numbers for cash and jail_cards": "целые числа в cash и jail_cards",
    "a positive amount": "положительная сумма",
    "not negative": "не меньше нуля",
    "an object with cash, properties and jail_cards": "объект вида {\"cash\": 100, \"properties\": [], \"jail_cards\": 0}",
    "Expecting value": "ожидается значение",
    "Expecting property name enclosed in double quotes": "ожидается имя поля в двойных кавычках",
    "Expecting ',' delimiter": "ожидается запятая",
    "Expecting ':' delimiter": "ожидается двоеточие",
    "Extra data": "после объекта есть лишнее",
    "Unterminated string starting at": "текст не закрыт кавычкой",
    "Invalid control character at": "управляющий символ внутри текста",
    "Invalid \\escape": "неверная последовательность с \\",
    "Invalid \\uXXXX escape": "неверная последовательность \\uXXXX",
    "standard input": "стандартный ввод",
}
