"""The message catalogs (thirtyone/i18n/locale/*.po): every language has every message and no other,
with the same placeholders and rule ids as English, the language's number of plural forms and
forms that read right for each count; each catalog compiles; every message is used by a face and
every key a face asks for exists; a language chosen from a header, a code or LANG never crashes;
a broken catalog is not used (English, with a notice) rather than mixed into a screen."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from thirtyone import i18n
from thirtyone import narration
from thirtyone.bots.review import MARKS
from thirtyone.i18n import DEFAULT
from thirtyone.i18n import LANGUAGES
from thirtyone.i18n import LOCALE_DIR
from thirtyone.i18n import CatalogError
from thirtyone.i18n import LanguageError
from thirtyone.i18n import catalog_json
from thirtyone.i18n import check_catalog
from thirtyone.i18n import choose
from thirtyone.i18n import messages
from thirtyone.i18n import negotiate
from thirtyone.i18n import placeholders
from thirtyone.i18n import plural_categories
from thirtyone.rules import PRESETS

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "thirtyone"
SOURCES = [
    *PACKAGE.glob("web/js/*.js"),
    *PACKAGE.glob("web/*.html"),
    *PACKAGE.glob("server/*.py"),
    *PACKAGE.glob("tui/*.py"),
]
RULE_ID = re.compile(r"\bR\d+\.\d+\b")


def english() -> dict[str, object]:
    return dict(catalog_json(DEFAULT)["messages"])


def forms(value: object) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [str(value)]


# ---------------------------------------------------------------------------------------------- completeness


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_catalog_is_complete_compiles_and_agrees_with_english(lang: str) -> None:
    assert check_catalog(lang) == []
    assert messages(lang).lang == lang
    assert messages(lang).notice is None


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_keeps_the_rule_ids_of_english(lang: str) -> None:
    own = catalog_json(lang)["messages"]
    for key, value in english().items():
        wanted = {rule for text in forms(value) for rule in RULE_ID.findall(text)}
        for text in forms(own[key]):
            assert set(RULE_ID.findall(text)) == wanted, (lang, key, text)


def test_there_are_as_many_messages_in_every_language() -> None:
    counts = {lang: len(catalog_json(lang)["messages"]) for lang in LANGUAGES}
    assert len(set(counts.values())) == 1, counts
    assert counts[DEFAULT] > 500


# ---------------------------------------------------------------------------------------------- plurals


@pytest.mark.parametrize(
    ("lang", "forms_wanted", "categories"),
    [
        ("en", 2, ("one", "other")),
        ("de", 2, ("one", "other")),
        ("cs", 3, ("one", "few", "other")),
        ("ur", 2, ("one", "other")),
        ("ms", 1, ("other",)),
        ("km", 1, ("other",)),
        ("ko", 1, ("other",)),
    ],
)
def test_each_language_has_its_plural_rule(lang: str, forms_wanted: int, categories: tuple[str, ...]) -> None:
    catalog = read_po((LOCALE_DIR / f"{lang}.po").open("rb"), locale=lang)
    assert catalog.num_plurals == forms_wanted
    assert plural_categories(lang) == categories  # what the page's Intl.PluralRules picks


@pytest.mark.parametrize(
    ("lang", "count", "shown"),
    [
        ("en", 1, "1 life"),
        ("en", 3, "3 lives"),
        ("de", 1, "1 Leben"),
        ("cs", 1, "1 život"),
        ("cs", 3, "3 životy"),
        ("cs", 5, "5 životů"),
        ("cs", 22, "22 životů"),  # CLDR: only 2-4 are "few"
        ("cs", 25, "25 životů"),
        ("ur", 1, "1 جان"),
        ("ur", 2, "2 جانیں"),
        ("ms", 2, "2 nyawa"),
        ("ko", 3, "라이프 3"),
        ("km", 3, "3 ជីវិត"),
    ],
)
def test_a_count_takes_the_right_form(lang: str, count: int, shown: str) -> None:
    assert messages(lang).plural("lives.count", count) == shown


def test_the_page_gets_plurals_by_cldr_category() -> None:
    cs = catalog_json("cs")["messages"]["cards.count"]
    assert set(cs) == {"one", "few", "other"}
    assert catalog_json("ko")["messages"]["cards.count"] == {"other": "{count}장"}
    assert catalog_json("ur")["dir"] == "rtl"
    assert catalog_json("de")["dir"] == "ltr"
    json.dumps(catalog_json("km"))  # plain JSON, nothing for the page to evaluate


def test_numbers_and_lists_are_written_the_languages_way() -> None:
    assert messages("en").list(["Ada", "Bea", "Cy"]) == "Ada, Bea, and Cy"
    assert messages("cs").list(["Ada", "Bea", "Cy"]) == "Ada, Bea a\u00a0Cy"  # CLDR keeps "a" with the next word
    assert messages("de").list(["Ada", "Bea"]) == "Ada und Bea"
    assert messages("de").number(1234) == "1.234"
    assert messages("en").number(1234) == "1,234"
    assert messages("ko").list([]) == ""


# ---------------------------------------------------------------------------------------------- used and existing


def _used_keys() -> tuple[set[str], set[str]]:
    """The keys the faces name in full ("move.knock") and the families they build (`refusal.${…}`)."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    literal = set(re.findall(r"""["'`]([a-z_]+(?:\.[A-Za-z0-9_]+)+)["'`]""", text))
    literal |= set(re.findall(r'data-i18n="([^"]+)"', text))
    literal |= set(re.findall(r"data-title=\"([^\"]+)\"", text))
    for pairs in re.findall(r'data-i18n-attr="([^"]+)"', text):
        literal |= {pair.split(":")[1] for pair in pairs.split(";")}
    families = set(re.findall(r"`([a-z_]+(?:\.[a-z_]+)*)\.\$\{", text))
    return literal, families


def _family_members() -> dict[str, set[str]]:
    """What a built key's last part may be: the lists the faces spell out (the keys of the core's
    data, refusal codes and loss kinds, are the narrator's: narration.KEYS)."""
    return {
        "rank": set("23456789TJQKA"),
        "suit": set("cdhs"),
        "grace": {"dole", "bus", "schwimmt"},
        "grace_mark": {"dole", "bus", "schwimmt"},
        "grace.sentence": {"dole", "bus", "schwimmt"},
        "level": {"easy", "medium", "hard", "random"},
        "preset": set(PRESETS),  # the lobby names each preset the server lists (/api/presets)
        "preset_words": {"scat", "widow", "namu", "schwimmen"},
        "howto.penalty": {"scat", "namu", "namu_risky", "widow", "plain"},
        "reaction": {"good_luck", "nice_hand", "well_played", "good_game", "unlucky", "wow", "laugh", "thinking"},
        "review.mark": set(MARKS),  # a review's marks (the replay page's strip)
        "review.marks": set(MARKS),
    }


def test_every_message_is_used_and_every_key_asked_for_exists() -> None:
    from thirtyone.rules import OPTIONS

    keys = set(english())
    literal, families = _used_keys()
    members = _family_members()
    built = {f"{family}.{member}" for family in families for member in members.get(family, set())}
    built |= {f"option.{name}" for name in OPTIONS} | {f"option.{name}.help" for name in OPTIONS}
    built |= {f"value.{choice}" for spec in OPTIONS.values() for choice in spec.choices} | {"value.on", "value.off"}
    errors = {key for key in keys if key.startswith("error.")}  # the server's codes, by name (ERROR_CODES)
    unused = keys - literal - built - errors - narration.KEYS
    assert not unused, f"messages no face uses: {sorted(unused)}"
    text = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    asked = set(re.findall(r"""\b(?:t|tn|words|plural)\(\s*["']([A-Za-z0-9_.]+)["']""", text))
    asked |= set(re.findall(r'data-i18n="([^"]+)"', text))
    missing = asked - keys
    assert not missing, f"keys asked for that no catalog has: {sorted(missing)}"
    unknown_families = (
        {f for f in families if not f.startswith("thirtyone")} - set(members) - {"option", "value", "error"}
    )
    assert not unknown_families, unknown_families


def test_every_phrase_the_narrator_may_say_is_in_the_catalogs() -> None:
    """The one narrator (thirtyone.narration) chooses the key of every move, loss, round end and
    refusal; the faces only look it up."""
    missing = narration.KEYS - set(english())
    assert not missing, f"phrases no catalog has: {sorted(missing)}"


def test_the_server_error_codes_have_words() -> None:
    from thirtyone.server import errors

    codes = {
        cls.default_code for cls in vars(errors).values() if isinstance(cls, type) and hasattr(cls, "default_code")
    }
    for code in codes - {"stopped"}:
        assert f"error.{code}" in english(), code


# ---------------------------------------------------------------------------------------------- choosing a language


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"),
        ("fr-FR, de;q=0.5, cs;q=0.7", "cs"),
        ("ur-PK", "ur"),
        ("*", "en"),
        ("", "en"),
        ("de;q=0, km", "km"),
        ("de;q=abc, ms", "ms"),
        ("x" * 5000, "en"),
        (";;;,,,q=1", "en"),
        ("de-DE;q=0.3, ko;q=0.3", "de"),
        ("\x00\xff", "en"),
    ],
)
def test_accept_language_is_negotiated_without_crashing(header: str, lang: str) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize(
    ("code", "lang", "noticed"),
    [
        ("ko", "ko", False),
        ("ko_KR.UTF-8", "ko", False),
        ("de_DE@euro", "de", False),
        ("C", "en", True),
        ("POSIX", "en", True),
        ("tlh", "en", True),
        ("../../etc/passwd", "en", True),
        ("", "en", False),
        (None, "en", False),
    ],
)
def test_a_language_code_is_chosen_or_english_is_said(code: str | None, lang: str, noticed: bool) -> None:
    chosen, notice = choose(code)
    assert chosen == lang
    assert (notice is not None) == noticed
    if notice:
        assert "\n" not in notice
        assert "showing English" in notice


def test_an_unknown_language_is_a_typed_error() -> None:
    with pytest.raises(LanguageError, match="unknown language 'xx'"):
        messages("xx")
    assert isinstance(LanguageError("x"), ValueError)


# ---------------------------------------------------------------------------------------------- broken catalogs


def _broken(tmp_path: Path, lang: str, old: str, new: str) -> Path:
    folder = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, folder)
    path = folder / f"{lang}.po"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('msgstr "{who}: legt {card} ab"', 'msgstr "{wer}: legt {card} ab"', "placeholders"),
        ('msgstr "{who}: legt {card} ab"', 'msgstr ""', "is empty"),
        ('msgid "acted.discard"\nmsgstr "{who}: legt {card} ab"\n', "", "acted.discard is missing"),
        ('msgstr "{who}: legt {card} ab"', 'msgstr "{who: legt ab"', "broken placeholder"),
        ('msgid "acted.discard"', 'msgid "acted.discarded"', "not an English message"),
        ('msgstr "{who}: legt {card} ab"', 'msgxx "{who}: legt {card} ab"', "cannot be read"),
    ],
)
def test_a_broken_catalog_is_found(tmp_path: Path, old: str, new: str, problem: str) -> None:
    folder = _broken(tmp_path, "de", old, new)
    problems = check_catalog("de", folder)
    assert any(problem in line for line in problems), problems


def test_a_plural_with_too_few_forms_is_found(tmp_path: Path) -> None:
    folder = _broken(tmp_path, "cs", 'msgstr[2] "{count} životů"\n', "")
    assert "cs: lives.count is empty" in check_catalog("cs", folder)  # the reader pads the missing form


def test_a_broken_catalog_gives_english_with_a_notice_never_a_mix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _broken(tmp_path, "de", 'msgstr "{who}: legt {card} ab"', 'msgstr "{wer}: legt {card} ab"')
    monkeypatch.setattr(i18n, "LOCALE_DIR", folder)
    monkeypatch.setattr(i18n, "check_catalog", lambda lang, directory=folder: check_catalog(lang, directory))
    i18n._messages.cache_clear()
    try:
        words = i18n.messages("de")
        assert words.lang == "en"
        assert words.notice == "The de messages are broken; showing English."
        assert words("move.knock") == "Knock"
    finally:
        i18n._messages.cache_clear()


def test_a_missing_catalog_file_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="the de catalog cannot be read"):
        i18n.load_catalog("de", tmp_path)


def test_placeholders_are_read_from_a_message() -> None:
    assert placeholders("{who} drew {card}") == {"who", "card"}
    assert placeholders("no placeholder") == frozenset()


def test_the_english_scores_count_lives_left_as_the_other_languages_do() -> None:
    """The scores panel and the standings count the lives left, as every other catalog does (not "losses")."""
    en = messages("en")
    assert en.plural("scores.note", 3) == "Lives left after each round (3 lives)."
    assert en.plural("scores.note_grace", 3, grace="on the dole") == (
        "Lives left after each round (3 lives and one on the dole)."
    )
    assert en("over.caption") == "Final standings, with the lives each player had left after each round"
