"""Names and deeds in the case a sentence needs: "Боря платит Ане за Житную улицу", "на кафявите улици".

A catalogue text asks for a form after its placeholder's colon: ``{to:dat}`` (Russian dative),
``{property:acc}`` (accusative), ``{source:gen}`` (genitive), ``{group:def}`` (the Bulgarian definite
article) and ``{player:cap}`` (a capital first letter). :func:`banker.messages.render` hands every text
parameter over as a :class:`Word`, whose kind (a person, a deed or another word) comes from the
parameter's name, so every text of the catalogue can ask for a form of any of its parameters; a
language without cases (English, Bulgarian) leaves the word as it is.

Russian words are inflected by pymorphy3 over the OpenCorpora dictionary (deeds, accounts and other
words: a phrase's leading adjectives agree with its first noun, which takes the case; what follows
that noun, a name in apposition or a genitive, stays) and person names by petrovich's rules
(pytrovich), which know given names and their gender (else pymorphy3's dictionary gives it, else the
name's ending). A word written in Latin letters
("Baltic Avenue") is not declined, as Russian leaves foreign names that it cannot decline, and a
player's name in Latin letters takes the case through the word for a player ("игроку Ann"). Both
libraries are loaded at the first Russian word (about 0.5 s on a laptop; ``banker bench --speech``
measures it) and every form is kept once made.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

Kind = Literal["person", "deed", "word", "fixed"]
"""What a parameter holds; ``fixed``: a word that keeps its form (a foreign name written in Cyrillic for
the voice, "Энн" for Ann)."""

CASES = {"nom": "nomn", "gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt", "loc": "loct"}
"""The cases a text may ask for, and pymorphy3's names of them."""
PERSON_KEYS = frozenset({"player", "to", "source", "winner", "owner", "bidder", "holder", "receiver", "proposer",
                         "creditor", "other", "payer", "from", "buyer", "seller", "heir"})
DEED_KEYS = frozenset({"property", "square", "first", "mortgaged", "deed", "street"})
ACCOUNT_WORDS = frozenset({"bank", "pot", "creditors"})


def kind_of(key: str) -> Kind:
    """The kind of word a parameter of this name holds."""
    if key in PERSON_KEYS:
        return "person"
    if key in DEED_KEYS:
        return "deed"
    return "word"


class Word(str):
    """A text parameter that can be formatted in a case (``format(word, "dat")``)."""

    kind: Kind
    language: str

    def __new__(cls, text: str, kind: Kind = "word", language: str = "en") -> Word:
        word = super().__new__(cls, text)
        word.kind = kind
        word.language = language
        return word

    def __format__(self, spec: str) -> str:
        text = str(self)
        if not spec:
            return text
        if spec in CASES:
            return inflected(text, spec, self.kind, self.language)
        if spec == "def":
            return definite(text, self.language)
        if spec == "cap":
            return capital(text)
        return format(text, spec)


def word(value: Any, key: str, language: str) -> Any:
    """``value`` as a :class:`Word` of the kind its parameter ``key`` holds (a text that is one already, or
    that is not a text, as it is). An account's word ("банк") is a common word, not a person."""
    if not isinstance(value, str) or isinstance(value, Word):
        return value
    kind = kind_of(key)
    return Word(value, kind, language)


def capital(text: str) -> str:
    """``text`` with a capital first letter (the rest as it is)."""
    return text[:1].upper() + text[1:]


def _has_latin(text: str) -> bool:
    return any("a" <= c.lower() <= "z" for c in text)


def inflected(text: str, case: str, kind: Kind = "word", language: str = "ru") -> str:
    """``text`` in ``case`` ("dat", "acc"…) where ``language`` has cases (Russian); else as it is."""
    if language != "ru" or case == "nom" or kind == "fixed" or not text or any(c.isdigit() for c in text):
        return text
    if _has_latin(text):
        # A name Russian cannot decline is named with the word for a player, which takes the case:
        # "платит игроку Ann".
        return f"{_phrase('игрок', case)} {text}" if kind == "person" else text
    try:
        if kind == "person":
            return _person(text, case)
        return _phrase(text, case)
    except (ValueError, KeyError, IndexError):  # a word the rules cannot take: said as it is
        return text


# --- Russian -----------------------------------------------------------------------------------------

@cache
def _analyzer() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@cache
def _petrovich() -> tuple[Any, Any]:
    from pytrovich.detector import PetrovichGenderDetector
    from pytrovich.maker import PetrovichDeclinationMaker

    return PetrovichDeclinationMaker(), PetrovichGenderDetector()


def _same_shape(original: str, inflected_word: str) -> str:
    """``inflected_word`` with the capitals ``original`` has (the libraries answer in lower case)."""
    if original.isupper() and len(original) > 1:
        return inflected_word.upper()
    return capital(inflected_word) if original[:1].isupper() else inflected_word


def _nominative(token: str, pos: str) -> Any:
    """pymorphy3's reading of ``token`` as a singular nominative of part of speech ``pos``, or ``None``."""
    for parse in _analyzer().parse(token):
        tag = parse.tag
        if pos == tag.POS and tag.case == "nomn" and tag.number in ("sing", None):
            return parse
    return None


@cache
def _phrase(text: str, case: str) -> str:
    """A noun phrase in ``case``: its leading adjectives and its first noun change, the rest stays
    ("Житная улица" → "Житную улицу", "Улица Огарёва" → "Улицу Огарёва")."""
    words = text.split(" ")
    head = None
    for index, token in enumerate(words):
        noun = _nominative(token.lower(), "NOUN")
        adjective = _nominative(token.lower(), "ADJF")
        following = words[index + 1].lower() if index + 1 < len(words) else ""
        # A word that reads as both ("набережная") is the noun when no noun follows it.
        if noun is not None and (adjective is None or not following or _nominative(following, "NOUN") is None):
            head = index
            break
        if adjective is None:  # neither a singular adjective nor a noun: a plural adjective, or as it is
            return _plural_adjective(text, case)
    if head is None:
        return _plural_adjective(text, case)
    noun = _nominative(words[head].lower(), "NOUN")
    grammeme = CASES[case]
    form = noun.inflect({grammeme})
    if form is None:
        return text
    out = list(words)
    out[head] = _same_shape(words[head], form.word)
    gender = noun.tag.gender
    animate = noun.tag.animacy == "anim"
    for index in range(head):
        adjective = _nominative(words[index].lower(), "ADJF")
        wanted = {grammeme, "sing"} | ({gender} if gender else set())
        if case == "acc" and gender in ("masc", "neut"):
            wanted.add("anim" if animate else "inan")
        adjective_form = adjective.inflect(wanted) if adjective is not None else None
        if adjective_form is None:
            return text
        out[index] = _same_shape(words[index], adjective_form.word)
    if head == 0 and len(words) > 1 and words[1][:1].isupper() and not {"Name", "Surn", "Geox", "Orgn"} & set(
            str(noun.tag).replace(" ", ",").split(",")):
        # "Улица Арбат" starts with a capital as a name; inside a sentence: "за улицу Арбат".
        out[0] = out[0][:1].lower() + out[0][1:]
    return " ".join(out)


def _plural_adjective(text: str, case: str) -> str:
    """A plural adjective on its own, as a group's colour ("коричневые" → "коричневых")."""
    if " " in text:
        return text
    for parse in _analyzer().parse(text.lower()):
        if parse.tag.POS == "ADJF" and parse.tag.case == "nomn" and parse.tag.number == "plur":
            form = parse.inflect({CASES[case], "plur", "inan"} if case == "acc" else {CASES[case], "plur"})
            return _same_shape(text, form.word) if form is not None else text
    return text


PETROVICH_CASES = {"gen": "GENITIVE", "dat": "DATIVE", "acc": "ACCUSATIVE", "ins": "INSTRUMENTAL",
                   "loc": "PREPOSITIONAL"}


@cache
def _gender(name: str) -> str:
    """How petrovich should decline a given name: by the gender its rules know the name by ("Никита" a man's,
    "Любовь" a woman's), else by pymorphy3's dictionary, else a name in -а/-я as a woman's (Russian declines
    "Саша" alike for both) and one that ends in a consonant as a man's ("Цветан"); "" for a name that
    does not change (one in -о, -и, -е…)."""
    from pytrovich.enums import Gender

    try:
        known = _petrovich()[1].detect(firstname=name)
    except (ValueError, KeyError, AttributeError):
        known = Gender.ANDROGYNOUS
    if known in (Gender.MALE, Gender.FEMALE):
        return "male" if known == Gender.MALE else "female"
    last = name[-1:].lower()
    for parse in _analyzer().parse(name.lower()):
        tag = parse.tag
        if "Name" in tag and tag.case == "nomn" and tag.number == "sing" and tag.gender in ("masc", "femn"):
            return "male" if tag.gender == "masc" else "female"
    if last in "ая":
        return "female"
    if last in "оеиуыэюё" or not last.isalpha():
        return ""
    return "male"


@cache
def _person(name: str, case: str) -> str:
    """A player's name in ``case`` ("Аня" → "Ане"); each part of a name of several words on its own."""
    from pytrovich.enums import Case, Gender, NamePart

    maker = _petrovich()[0]
    parts = []
    for part in name.split(" "):
        if not part or not part[0].isalpha():
            parts.append(part)
            continue
        gender = _gender(part)
        if not gender or gender == "female" and part[-1:].lower() not in "аяь":
            parts.append(part)  # a woman's name ending in a consonant does not change: "Энн", "Рут"
            continue
        form = maker.make(NamePart.FIRSTNAME, Gender.MALE if gender == "male" else Gender.FEMALE,
                          getattr(Case, PETROVICH_CASES[case]), part)
        parts.append(_same_shape(part, form) if isinstance(form, str) and form else part)
    return " ".join(parts)


# --- Bulgarian ---------------------------------------------------------------------------------------

def definite(text: str, language: str) -> str:
    """A Bulgarian noun phrase with the definite article on its first word ("кафяви улици" →
    "кафявите улици", "банка" → "банката"); other languages' words as they are."""
    if language != "bg" or not text or _has_latin(text):
        return text
    first, _, rest = text.partition(" ")
    lower = first.lower()
    if lower.endswith(("ите", "ата", "ята", "ът", "ят", "то", "та")):
        return text
    if lower.endswith(("и", "е")) and not lower.endswith("ие"):
        first += "те"
    elif lower.endswith(("а", "я")):
        first += "та"
    elif lower.endswith(("о", "ие")):
        first += "то"
    elif lower.endswith("й"):
        first = first[:-1] + "ят"
    else:
        first += "ът"
    return first + (" " + rest if rest else "")
