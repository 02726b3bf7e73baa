"""What a hint's or a review's value is, said the same way everywhere (issue 43, item 3): the lives
the others lose this round *on their average* minus the lives you lose. A 31 at three players
shows +1.00, not +2.00: a legend that says only "the lives the others lose" reads as their sum."""

from __future__ import annotations

import pytest

from thirtyone.i18n import messages

AVERAGE = {
    "en": "the others' average",
    "de": "Durchschnitt",
    "cs": "jejich průměr",
    "ms": "purata mereka",
    "km": "មធ្យមរបស់ពួកគេ",
    "ur": "ان کا اوسط",
    "ko": "평균",
}
"""How each catalog's hint legends say "their average" (as its ``review.legend`` does, but English,
whose review legend says "(their average)")."""

LEGENDS = ("tui.hint.legend", "hint.legend")
"""The terminal hint's legend and the page hint's."""


@pytest.mark.parametrize("lang", sorted(AVERAGE))
def test_every_value_legend_says_the_value_is_the_others_average_loss(lang: str) -> None:
    t = messages(lang)
    for key in LEGENDS:
        assert AVERAGE[lang] in t(key, moves="…"), (lang, key)


def test_the_terminal_hint_legend_in_english() -> None:
    """Before: "value = lives the others lose − yours this round, on average" (averaged over what?)."""
    legend = messages("en")("tui.hint.legend")
    assert legend == "value = the others' average lives lost − yours this round; out costs 2 more"
    assert len(legend) <= 78  # one line at 80 columns, inside the panel's border
