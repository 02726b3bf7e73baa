"""The language of ``thirtyone play``, from ``--lang`` or the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, as gettext reads them).

The terminal game speaks every language of :data:`thirtyone.i18n.LANGUAGES` but Urdu: a
terminal neither shapes Arabic script nor reorders right-to-left text, so Urdu would show as
disjoint letters in reverse order there, whatever the catalog says; ``--lang ur`` says so in
one line and the game plays in English (the browser game speaks Urdu). A language that has no
catalog is said the same way, and a broken catalog gives English with its notice: never a mix
of two languages on one screen.

>>> terminal_language("ko", {}), terminal_language(None, {"LANG": "cs_CZ.UTF-8"})
(('ko', None), ('cs', None))
>>> lang, notice = terminal_language("ur", {})
>>> lang, notice.split(":")[0]
('en', 'Urdu needs right-to-left shaping that terminals do not do')
>>> terminal_language(None, {"LANG": "C.UTF-8"}), terminal_language("en-GB", {})
(('en', None), ('en', None))
>>> terminal_language("tlh", {})[1], terminal_language("tlh", {}, "reviewing")[1]
('Language "tlh" is not available; playing in English.', 'Language "tlh" is not available; reviewing in English.')
>>> terminal_language("ko;rm -rf", {})
Traceback (most recent call last):
...
thirtyone.tui.settings.PlayError: --lang 'ko;rm -rf': give a language code such as ko or de-AT (...)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from thirtyone.i18n import LANGUAGES
from thirtyone.i18n import choose
from thirtyone.i18n import messages
from thirtyone.tui.settings import TERMINAL_LANGUAGES
from thirtyone.tui.settings import PlayError

__all__ = ["TERMINAL_LANGUAGES", "ENVIRONMENT", "terminal_language"]

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language is looked for without ``--lang``, first found first (gettext's order)."""

_CODE = re.compile(r"^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*(?:\.[A-Za-z0-9-]{1,20})?(?:@[A-Za-z0-9]{1,20})?$")


def terminal_language(asked: str | None, environ: Mapping[str, str], doing: str = "playing") -> tuple[str, str | None]:
    """The language the game plays in and a one-line notice when it is not the one asked for
    (``doing``: what goes on in English, as the notice says it: ``playing``, ``reviewing``).
    ``asked`` is ``--lang`` (``None`` when not given: the environment decides, and a C/POSIX or
    unknown locale there is quietly English). Raises :class:`PlayError` for a malformed ``--lang``."""
    if asked is not None and (not isinstance(asked, str) or not _CODE.match(asked.strip())):
        asked = str(asked)  # argparse hands "--lang=--" over as a list
        raise PlayError(
            f"--lang {asked[:40]!r}: give a language code such as ko or de-AT (the languages: {', '.join(LANGUAGES)})"
        )
    code = asked
    if code is None:
        # LANGUAGE is a colon list of preferences; the others are one locale each
        found = (environ.get(name, "").split(":")[0] for name in ENVIRONMENT)
        code = next((value for value in found if value.strip()), None)
    lang, notice = choose(code)
    if notice is not None:
        return "en", notice.replace("showing English", f"{doing} in English") if asked is not None else None
    if lang == "ur":
        return "en", (
            f"Urdu needs right-to-left shaping that terminals do not do: {doing} in English "
            "(the browser game, thirtyone serve, speaks Urdu)."
        )
    if lang not in TERMINAL_LANGUAGES:  # pragma: no cover - every catalog but Urdu's is spoken
        return "en", f"The terminal game does not speak {LANGUAGES[lang]}: {doing} in English."
    broken = messages(lang).notice
    if broken is not None:
        return "en", broken.replace("showing English", f"{doing} in English")
    return lang, None
