"""Words for the ear: numbers, amounts and names as a voice should say them, in each language.

Speech engines read digits, but not with the agreement a listener expects: espeak-ng says "один
тысяча" for "1 тысяча" and "едно долар" for "1 долар". So the Russian and Bulgarian sentences spell
their numbers out, in the gender of the word they count (like the plural rules in
:mod:`banker.messages`, this is grammar, kept as code). English keeps its digits, which every voice
reads right. A name written in another alphabet than the sentence's is transliterated, so a Russian
voice never has to read Latin letters (and an English one Cyrillic).
"""

from __future__ import annotations

import re
import unicodedata

# --- numbers in words ---------------------------------------------------------------------------------

_RU_UNITS = ("", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять")
_RU_UNITS_F = ("", "одна", "две", *_RU_UNITS[3:])
_RU_UNITS_F_ACC = ("", "одну", "две", *_RU_UNITS[3:])
_RU_TEENS = ("десять", "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать", "шестнадцать",
             "семнадцать", "восемнадцать", "девятнадцать")
_RU_TENS = ("", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят",
            "девяносто")
_RU_HUNDREDS = ("", "сто", "двести", "триста", "четыреста", "пятьсот", "шестьсот", "семьсот", "восемьсот",
                "девятьсот")
_RU_SCALES = ((10**9, ("миллиард", "миллиарда", "миллиардов"), "m"), (10**6, ("миллион", "миллиона", "миллионов"), "m"),
              (10**3, ("тысяча", "тысячи", "тысяч"), "f"))

_BG_UNITS = ("", "един", "два", "три", "четири", "пет", "шест", "седем", "осем", "девет")
_BG_UNITS_F = ("", "една", "две", *_BG_UNITS[3:])
_BG_UNITS_N = ("", "едно", "две", *_BG_UNITS[3:])
_BG_TEENS = ("десет", "единадесет", "дванадесет", "тринадесет", "четиринадесет", "петнадесет", "шестнадесет",
             "седемнадесет", "осемнадесет", "деветнадесет")
_BG_TENS = ("", "", "двадесет", "тридесет", "четиридесет", "петдесет", "шестдесет", "седемдесет", "осемдесет",
            "деветдесет")
_BG_HUNDREDS = ("", "сто", "двеста", "триста", "четиристотин", "петстотин", "шестстотин", "седемстотин",
                "осемстотин", "деветстотин")


def _ru_form(n: int, forms: tuple[str, str, str]) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


def _ru_triad(n: int, gender: str, accusative: bool) -> list[str]:
    words = [_RU_HUNDREDS[n // 100]]
    rest = n % 100
    if 10 <= rest < 20:
        words.append(_RU_TEENS[rest - 10])
    else:
        words.append(_RU_TENS[rest // 10])
        feminine = _RU_UNITS_F_ACC if accusative else _RU_UNITS_F
        words.append((feminine if gender == "f" else _RU_UNITS)[rest % 10])
    return [w for w in words if w]


def _ru_words(n: int, gender: str, accusative: bool) -> str:
    if n == 0:
        return "ноль"
    words: list[str] = []
    for scale, forms, scale_gender in _RU_SCALES:
        part, n = divmod(n, scale)
        if part:
            if not (part == 1 and scale == 1000 and not words):  # "тысяча пятьсот", not "одна тысяча пятьсот"
                words += (_ru_triad(part, scale_gender, accusative) if part < 1000
                          else [_ru_words(part, scale_gender, accusative)])
            form = _ru_form(part, forms)
            words.append("тысячу" if accusative and form == "тысяча" else form)
    words += _ru_triad(n, gender, accusative)
    return " ".join(words)


def _bg_triad(n: int, gender: str) -> list[str]:
    """A number below 1000 as Bulgarian words: "и" joins its last word to the one before."""
    units = _BG_UNITS_F if gender == "f" else _BG_UNITS_N if gender == "n" else _BG_UNITS
    words = [_BG_HUNDREDS[n // 100]] if n >= 100 else []
    rest = n % 100
    if 10 <= rest < 20:
        words.append(_BG_TEENS[rest - 10])
    elif rest:
        if rest >= 20:
            words.append(_BG_TENS[rest // 10])
        if rest % 10:
            words.append(units[rest % 10])
    if len(words) > 1:
        words.insert(len(words) - 1, "и")
    return words


def _bg_words(n: int, gender: str) -> str:
    if n == 0:
        return "нула"
    words: list[str] = []
    higher = False
    for scale, one, many, scale_gender in ((10**9, "милиард", "милиарда", "m"), (10**6, "милион", "милиона", "m"),
                                           (10**3, "хиляда", "хиляди", "f")):
        part, n = divmod(n, scale)
        if not part:
            continue
        higher = True
        if part == 1:
            words.append(one if scale == 1000 else "един " + one)
        else:
            words += (_bg_triad(part, scale_gender) if part < 1000 else [_bg_words(part, scale_gender)])
            words.append(many)
    if n:
        low = _bg_triad(n, gender)
        # "хиляда и петстотин", but "хиляда петстотин и петдесет": "и" only before a last single word.
        if higher and "и" not in low:
            words.append("и")
        words += low
    return " ".join(words)


def number_words(n: int, language: str, gender: str = "m", *, accusative: bool = False) -> str:
    """``n`` as a voice should say it: words in Russian and Bulgarian (in ``gender``: "m", "f", "n"),
    digits in English. ``accusative``: the Russian case of an amount paid or received ("тысячу")."""
    if n < 0:
        minus = {"ru": "минус", "bg": "минус"}.get(language, "minus")
        return f"{minus} {number_words(-n, language, gender, accusative=accusative)}"
    if language == "ru":
        return _ru_words(n, gender, accusative)
    if language == "bg":
        return _bg_words(n, gender)
    return str(n)


# --- names in the sentence's alphabet ---------------------------------------------------------------

_LATIN_TO_CYRILLIC = [
    ("shch", "щ"), ("sch", "ш"), ("tch", "ч"), ("sh", "ш"), ("ch", "ч"), ("zh", "ж"), ("kh", "х"), ("ph", "ф"),
    ("th", "т"), ("ck", "к"), ("qu", "кв"), ("ts", "ц"), ("ya", "я"), ("yu", "ю"), ("yo", "йо"), ("ee", "и"),
    ("oo", "у"), ("ou", "у"), ("ai", "ай"), ("ei", "ей"), ("j", "дж"), ("x", "кс"), ("w", "у"), ("q", "к"),
    ("a", "а"), ("b", "б"), ("c", "к"), ("d", "д"), ("e", "е"), ("f", "ф"), ("g", "г"), ("h", "х"), ("i", "и"),
    ("k", "к"), ("l", "л"), ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"), ("r", "р"), ("s", "с"), ("t", "т"),
    ("u", "у"), ("v", "в"), ("y", "и"), ("z", "з"),
]
_CYRILLIC_TO_LATIN = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "yo", "ж": "zh", "з": "z", "и": "i",
    "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "",
    "э": "e", "ю": "yu", "я": "ya", "і": "i", "ї": "yi", "є": "ye", "ґ": "g",
}
_BG_CYRILLIC_TO_LATIN = {**_CYRILLIC_TO_LATIN, "ъ": "a", "щ": "sht", "х": "h", "ь": "y"}
_CYRILLIC_LANGUAGES = frozenset({"ru", "bg"})


def _script(c: str) -> str:
    if not c.isalpha():
        return ""
    name = unicodedata.name(c, "")
    return "latin" if name.startswith("LATIN") else "cyrillic" if name.startswith("CYRILLIC") else "other"


ENGLISH_NAMES: dict[str, tuple[str, str]] = {
    "ann": ("Энн", "Ан"), "anne": ("Энн", "Ан"), "bob": ("Боб", "Боб"), "cy": ("Сай", "Сай"), "eve": ("Ив", "Ив"),
    "dan": ("Дэн", "Дан"), "sam": ("Сэм", "Сам"), "kate": ("Кейт", "Кейт"), "mike": ("Майк", "Майк"),
    "joe": ("Джо", "Джо"), "jane": ("Джейн", "Джейн"), "sue": ("Сью", "Сю"), "amy": ("Эйми", "Ейми"),
    "tom": ("Том", "Том"), "tim": ("Тим", "Тим"), "jack": ("Джек", "Джак"), "james": ("Джеймс", "Джеймс"),
    "john": ("Джон", "Джон"), "mary": ("Мэри", "Мери"), "lucy": ("Люси", "Луси"), "alice": ("Элис", "Алис"),
    "max": ("Макс", "Макс"), "ben": ("Бен", "Бен"), "emma": ("Эмма", "Ема"), "harry": ("Гарри", "Хари"),
    "george": ("Джордж", "Джордж"), "charlie": ("Чарли", "Чарли"), "sophie": ("Софи", "Софи"),
    "grace": ("Грейс", "Грейс"), "chloe": ("Хлоя", "Клои"), "lily": ("Лили", "Лили"), "zoe": ("Зои", "Зоуи"),
    "dee": ("Ди", "Ди"), "shirley": ("Ширли", "Шърли"), "steve": ("Стив", "Стив"), "pete": ("Пит", "Пийт"),
    "dave": ("Дейв", "Дейв"), "kim": ("Ким", "Ким"), "jill": ("Джилл", "Джил"), "bill": ("Билл", "Бил"),
    "amelia": ("Амелия", "Амелия"), "oliver": ("Оливер", "Оливър"), "jacob": ("Джейкоб", "Джейкъб"),
    "william": ("Уильям", "Уилям"), "emily": ("Эмили", "Емили"), "sarah": ("Сара", "Сара"),
    "david": ("Дэвид", "Дейвид"), "michael": ("Майкл", "Майкъл"), "paul": ("Пол", "Пол"), "anna": ("Анна", "Ана"),
}
"""Common English given names as a Russian and a Bulgarian voice should say them (the spelling rules below
read the others: "Cy" is "Сай", not the "Ки" of letter-by-letter transliteration)."""

_VOWELS = "aeiouy"


def _english_rules(word: str) -> str:
    """An English name's spelling made closer to its sound before the letters are mapped: a silent final
    "e" lengthens the vowel before it ("Mike" → "Maik"), "c" before e/i/y is "s", a final "y" is "i" (or
    "ai" in a word with no other vowel: "Cy", "Ty")."""
    out = "".join("s" if c == "c" and i + 1 < len(word) and word[i + 1].lower() in "eiy" else c
                  for i, c in enumerate(word.lower()))
    if len(out) >= 3 and out.endswith("e") and out[-2] not in _VOWELS and out[-3] in "aeiou":
        long_vowel = {"a": "ei", "i": "ai", "o": "o", "u": "yu", "e": "ee"}[out[-3]]
        out = out[:-3] + long_vowel + out[-2]
    if out.endswith("y") and len(out) > 1 and out[-2] not in _VOWELS:
        out = out[:-1] + ("i" if any(c in "aeiou" for c in out[:-1]) else "ai")
    return out.replace("ee", "i").replace("ea", "i").replace("ay", "ei").replace("ey", "ei")


def _to_cyrillic(word: str, language: str) -> str:
    known = ENGLISH_NAMES.get(word.lower())
    if known is not None:
        return known[1] if language == "bg" else known[0]
    out: list[str] = []
    text = unicodedata.normalize("NFKD", word)
    text = "".join(c for c in text if not unicodedata.combining(c))
    if text.isascii() and text.isalpha():
        spelled = _english_rules(text)
        text = spelled[:1].upper() + spelled[1:] if text[:1].isupper() else spelled
    i = 0
    while i < len(text):
        for latin, cyrillic in _LATIN_TO_CYRILLIC:
            chunk = text[i:i + len(latin)]
            if chunk.lower() == latin:
                if language == "bg" and cyrillic == "щ":
                    cyrillic = "шт"
                if language == "ru" and latin == "e" and (i == 0 or not text[i - 1].isalpha()):
                    cyrillic = "э"  # a word-initial e is "э" to a Russian reader: Eve -> Эве
                out.append(cyrillic.capitalize() if chunk[0].isupper() else cyrillic)
                i += len(latin)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _to_latin(word: str, language: str) -> str:
    table = _BG_CYRILLIC_TO_LATIN if language == "bg" else _CYRILLIC_TO_LATIN
    out: list[str] = []
    for c in word:
        latin = table.get(c.lower())
        if latin is None:
            out.append(c)
        else:
            out.append(latin.capitalize() if c.isupper() else latin)
    return "".join(out)


def spoken_name(name: str, language: str, source: str = "") -> str:
    """``name`` in the alphabet of ``language``: "Bob" is "Боб" to a Russian voice, "Иван" is "Ivan" to
    an English one. ``source`` is the language the name is written in, when known (an edition's)."""
    scripts = {_script(c) for c in name} - {""}
    if language in _CYRILLIC_LANGUAGES and "latin" in scripts:
        return re.sub(r"[^\W\d_]+", lambda word: _to_cyrillic(word.group(0), language), name)
    if language not in _CYRILLIC_LANGUAGES and "cyrillic" in scripts:
        return _to_latin(name, source or "ru")
    return name


def has_latin(text: str) -> bool:
    """Whether ``text`` has a Latin letter (a Russian or Bulgarian sentence should not)."""
    return any(_script(c) == "latin" for c in text)
