"""The players' languages: one gettext catalog (``locale/<lang>.po``) for the terminal game and the page.

The catalogs' message ids are keys (``refusal.second_knock``, ``lives.count``); English is a catalog
like any other (``en.po``), so a key missing or unused in any language is a test failure, never a
silent English fallback inside a translated screen. Placeholders are ``{name}`` only, filled with
values already written for the language (names, cards, numbers by :meth:`Messages.number`, lists by
:meth:`Messages.list`); a message with a count is a gettext plural, its forms chosen by the
language's CLDR plural rule (Babel's). The page gets the same catalog as JSON
(:func:`catalog_json`), plural forms keyed by CLDR category for ``Intl.PluralRules``.

>>> en, cs = messages("en"), messages("cs")
>>> en.plural("lives.count", 2), cs.plural("lives.count", 1), cs.plural("lives.count", 3), cs.plural("lives.count", 5)
('2 lives', '1 život', '3 životy', '5 životů')
>>> negotiate("de-AT,de;q=0.9,en;q=0.5"), negotiate("xx, ur-PK"), negotiate("")
('de', 'ur', 'en')
>>> choose("ko"), choose("tlh")
(('ko', None), ('en', 'Language "tlh" is not available; showing English.'))
"""

from __future__ import annotations

import decimal
import gettext
import io
import re
import string
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from typing import Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.numbers import format_percent
from babel.support import Translations

from thirtyone.errors import ThirtyOneError

__all__ = [
    "LANGUAGES",
    "DEFAULT",
    "RTL",
    "LOCALE_DIR",
    "LanguageError",
    "CatalogError",
    "Messages",
    "messages",
    "load_catalog",
    "check_catalog",
    "choose",
    "negotiate",
    "placeholders",
    "plural_categories",
    "catalog_json",
]

LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "cs": "Čeština",
    "ms": "Bahasa Melayu",
    "km": "ខ្មែរ",
    "ur": "اردو",
    "ko": "한국어",
}
"""The languages with a complete catalog: code → the language's own name (for the switch)."""

DEFAULT = "en"
RTL = frozenset({"ur"})
"""Languages written right to left."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_CODE = re.compile(r"^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$")


class LanguageError(ThirtyOneError):
    """A language code that is malformed or has no catalog."""


class CatalogError(ThirtyOneError):
    """A catalog that does not parse or compile, or whose messages disagree with English's (a key
    missing or extra, other placeholders, the wrong number of plural forms)."""


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a message: ``placeholders("{who} drew")`` → ``{"who"}``."""
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)


def load_catalog(lang: str, directory: Path = LOCALE_DIR) -> Catalog:
    """The parsed catalog of ``lang``; :class:`CatalogError` when the file is missing or broken."""
    path = directory / f"{lang}.po"
    try:
        with path.open("rb") as file:
            return read_po(file, locale=lang, abort_invalid=True)
    except (OSError, ValueError, SyntaxError) as error:  # babel's PoFileError is a ValueError-free Exception
        raise CatalogError(f"the {lang} catalog cannot be read: {error}") from error
    except Exception as error:  # babel.messages.pofile.PoFileError
        raise CatalogError(f"the {lang} catalog cannot be read: {error}") from error


def _forms(message: Any) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (list, tuple)) else (message.string,)


def _entries(catalog: Catalog) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """key → (is a plural, its forms)."""
    found: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for message in catalog:
        if not message.id:
            continue  # the header
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        found[key] = (message.pluralizable, _forms(message))
    return found


def check_catalog(lang: str, directory: Path = LOCALE_DIR) -> list[str]:
    """Everything wrong with ``lang``'s catalog measured against English's, one line each (empty:
    it is complete): keys missing or extra, empty or fuzzy translations, placeholders that differ,
    plural forms not the language's number, a catalog that does not compile."""
    problems: list[str] = []
    try:
        catalog = load_catalog(lang, directory)
        english = _entries(load_catalog(DEFAULT, directory))
    except CatalogError as error:
        return [str(error)]
    entries = _entries(catalog)
    for key in sorted(english.keys() - entries.keys()):
        problems.append(f"{lang}: {key} is missing")
    for key in sorted(entries.keys() - english.keys()):
        problems.append(f"{lang}: {key} is not an English message")
    wanted = catalog.num_plurals
    for message in catalog:
        if message.id and message.fuzzy:
            problems.append(f"{lang}: {message.id!r} is marked fuzzy")
    for key in sorted(entries.keys() & english.keys()):
        plural, forms = entries[key]
        en_plural, en_forms = english[key]
        if plural != en_plural:
            problems.append(f"{lang}: {key} is {'a plural' if plural else 'not a plural'} unlike English")
            continue
        if plural and len(forms) != wanted:
            problems.append(f"{lang}: {key} has {len(forms)} plural forms, the language has {wanted}")
        expected = frozenset().union(*map(placeholders, en_forms))
        for form in forms:
            if not form.strip():
                problems.append(f"{lang}: {key} is empty")
                continue
            try:
                found = placeholders(form)
            except ValueError as error:
                problems.append(f"{lang}: {key} has a broken placeholder ({error})")
                continue
            # a plural form may leave out {count} (Czech "jeden život"); nothing else may differ
            if found - expected or (expected - found) - {"count"}:
                problems.append(f"{lang}: {key} has placeholders {sorted(found)}, English {sorted(expected)}")
    try:
        write_mo(io.BytesIO(), catalog)
    except Exception as error:  # what the compiler raises is not documented: any failure is a broken catalog
        problems.append(f"{lang}: the catalog does not compile: {error}")
    return problems


@dataclass(frozen=True)
class Messages:
    """One language's messages. ``messages("cs")("log.knocked", who="Ada")`` → the Czech line;
    :meth:`plural` picks the form for a count; :meth:`number` and :meth:`list` write numbers and
    lists the language's way. ``notice`` says why another language was asked for and this one
    given (``None`` when none was)."""

    lang: str
    translations: Translations
    notice: str | None = None

    @property
    def rtl(self) -> bool:
        """True for a language written right to left (Urdu)."""
        return self.lang in RTL

    def __call__(self, key: str, **values: object) -> str:
        """The message ``key`` with its placeholders filled."""
        return self._fill(self.translations.gettext(key), values)

    def plural(self, key: str, count: int, **values: object) -> str:
        """The form of ``key`` for ``count`` (written as ``{count}``), its placeholders filled."""
        return self._fill(self.translations.ngettext(key, key, count), {"count": self.number(count), **values})

    def template(self, key: str, count: int | None = None) -> str:
        """The message ``key`` with its placeholders unfilled (the form for ``count`` of a plural),
        for a face that fills them with styled text of its own (the terminal's coloured cards)."""
        return self.translations.gettext(key) if count is None else self.translations.ngettext(key, key, count)

    def number(self, value: float) -> str:
        """A number as the language writes it (digits, grouping, decimal sign), however many digits
        it has (a seed may have 30: decimal's default precision of 28 digits would refuse it)."""
        with decimal.localcontext() as context:
            context.prec = max(context.prec, len(f"{value:.0f}") + 8)
            return str(format_decimal(value, locale=self.lang))

    def percent(self, share: float) -> str:
        """A share (0 to 1) as the language writes a whole percentage: ``72%``, ``72 %``."""
        return str(format_percent(share, locale=self.lang))

    def list(self, items: Sequence[str], *, style: Literal["standard", "or"] = "standard") -> str:
        """Items joined as the language joins them: ``Ada, Bea and Cy``, ``Ada, Bea a Cy``;
        ``style="or"`` for a choice (``pass or knock``)."""
        return format_list(list(items), style=style, locale=self.lang) if items else ""

    @staticmethod
    def _fill(text: str, values: Mapping[str, object]) -> str:
        return text.format_map({key: str(value) for key, value in values.items()})


def _compile(catalog: Catalog) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(fp=buffer)


@cache
def _messages(lang: str) -> Messages:
    problems = check_catalog(lang) if lang != DEFAULT else []
    if problems:  # never a mix of languages on one screen: a broken catalog is not used at all
        english = _messages(DEFAULT)
        return Messages(DEFAULT, english.translations, f"The {lang} messages are broken; showing English.")
    return Messages(lang, _compile(load_catalog(lang)))


def messages(lang: str = DEFAULT) -> Messages:
    """The messages of ``lang`` (a code of :data:`LANGUAGES`); :class:`LanguageError` for any other.
    A catalog that fails :func:`check_catalog` gives English with a ``notice``."""
    if lang not in LANGUAGES:
        raise LanguageError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return _messages(lang)


def _base(code: str) -> str | None:
    """``de-AT`` → ``de``; ``C``/``POSIX`` and malformed codes → ``None``."""
    code = code.strip().split(".", 1)[0].split("@", 1)[0]  # LANG=ko_KR.UTF-8, de_DE@euro
    if not _CODE.match(code) or code.upper() in ("C", "POSIX"):
        return None
    return code.replace("_", "-").split("-", 1)[0].lower()


def choose(code: str | None) -> tuple[str, str | None]:
    """The language to use for ``code`` (``ko``, ``de-AT``, ``ko_KR.UTF-8``) and a one-line notice
    when it is not available (then English)."""
    if code is None or not code.strip():
        return DEFAULT, None
    base = _base(code)
    if base is not None and base in LANGUAGES:
        return base, None
    shown = code.strip()[:20]
    return DEFAULT, f'Language "{shown}" is not available; showing English.'


def negotiate(accept: str | Iterable[str]) -> str:
    """The best language for an ``Accept-Language`` header (or a list of codes, best first):
    the first available one by quality, else English. Malformed parts are skipped."""
    ranked: list[tuple[float, int, str]] = []
    parts = accept.split(",") if isinstance(accept, str) else list(accept)
    for index, part in enumerate(parts[:32]):  # a header is bounded: no one needs more than 32
        code, _, params = part.strip().partition(";")
        quality = 1.0
        match = re.match(r"\s*q\s*=\s*([0-9.]{1,5})\s*$", params) if params else None
        if params and match is None:
            continue
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                continue
        base = _base(code)
        if base is not None and base in LANGUAGES and quality > 0:
            ranked.append((-quality, index, base))
    return min(ranked)[2] if ranked else DEFAULT


def _plural_function(catalog: Catalog) -> Any:
    return gettext.c2py(catalog.plural_expr)


@cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR category (``one``, ``few``, ``other`` …) of each of ``lang``'s gettext plural forms,
    found by counting 0–1000 with both rules; :class:`CatalogError` if they disagree (then the page,
    which picks forms with ``Intl.PluralRules``, would pick others than Python)."""
    catalog = load_catalog(lang)
    index_of = _plural_function(catalog)
    locale = Locale.parse(lang)
    categories: dict[int, str] = {}
    for n in range(1001):
        index, category = index_of(n), locale.plural_form(n)
        if categories.setdefault(index, category) != category:
            raise CatalogError(f"{lang}: gettext form {index} is both {categories[index]} and {category} in CLDR")
    return tuple(categories[index] for index in range(catalog.num_plurals))


@cache
def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` for the page: ``{"lang", "dir", "name", "messages"}``, each message
    a string or, for a plural, ``{cldr category: form}``. A broken catalog gives English's."""
    chosen = messages(lang)
    catalog = load_catalog(chosen.lang)
    categories = plural_categories(chosen.lang)
    table: dict[str, Any] = {}
    for key, (plural, forms) in _entries(catalog).items():
        table[key] = dict(zip(categories, forms, strict=True)) if plural else forms[0]
    return {
        "lang": chosen.lang,
        "dir": "rtl" if chosen.rtl else "ltr",
        "name": LANGUAGES[chosen.lang],
        "notice": chosen.notice,
        "languages": dict(LANGUAGES),
        "messages": table,
    }
