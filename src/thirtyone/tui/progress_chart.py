"""The chart of your progress (``thirtyone stats --chart FILE.png``): the review's accuracy of
each reviewed game of your history, in the order played, with its running average over the last
:data:`WINDOW` games, and the blunders of each game as bars beneath (PNG, matplotlib's Agg
renderer, no display), every word from the catalog's ``stats.chart.*`` messages.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from thirtyone.i18n import Messages
from thirtyone.tui.progress import KeptGame

__all__ = ["WINDOW", "FALLBACK_FONTS", "running_mean", "write_chart"]

WINDOW: Final = 10
"""The games the running average of the accuracy is taken over."""

_BLUE, _RED, _GREY = "#4c72b0", "#c44e52", "#555555"

FALLBACK_FONTS: Final = (
    "Noto Sans CJK KR",
    "Noto Sans KR",
    "NanumGothic",
    "Malgun Gothic",
    "Apple SD Gothic Neo",
    "Noto Sans Khmer",
    "Khmer OS",
    "Khmer UI",
)
"""Fonts for the Korean and Khmer words, tried after matplotlib's own (DejaVu Sans, which has
neither script) where installed; without any, those letters show as boxes."""


def running_mean(values: Sequence[float], window: int = WINDOW) -> list[float]:
    """The mean of each value with the ``window - 1`` before it (fewer at the start).

    >>> running_mean([1.0, 0.0, 0.5, 1.0], window=2)
    [1.0, 0.5, 0.25, 0.75]
    """
    return [sum(values[max(0, i - window + 1) : i + 1]) / (i + 1 - max(0, i - window + 1)) for i in range(len(values))]


def write_chart(path: Path, t: Messages, games: Sequence[KeptGame]) -> int:
    """Write the chart of the reviewed games among ``games`` (numbered from 1 in the order of
    ``games``) to ``path`` as PNG; returns how many games it shows (a game without decisions
    valued is left out).

    Raises:
        OSError: when the file cannot be written.
    """
    import matplotlib
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    families = ["DejaVu Sans", *(name for name in FALLBACK_FONTS if name in installed)]
    with matplotlib.rc_context({"font.family": families}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)  # boxes, said above
        return _draw(path, t, games)


def _draw(path: Path, t: Messages, games: Sequence[KeptGame]) -> int:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    shown = [
        (number, game.review.accuracy, game.review.blunders)
        for number, game in enumerate(games, start=1)
        if game.review is not None and game.review.accuracy is not None
    ]
    numbers = [number for number, _, _ in shown]
    accuracy = [100 * share for _, share, _ in shown]
    figure = Figure(figsize=(7.2, 4.8), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 1))
    top.plot(numbers, accuracy, "o", color=_BLUE, markersize=4, label=t("stats.chart.accuracy"))
    top.plot(numbers, running_mean(accuracy), "-", color=_GREY, label=t("stats.chart.average", n=t.number(WINDOW)))
    top.set_ylim(0, 105)
    top.set_ylabel(t("stats.chart.accuracy_axis"))
    top.legend(loc="lower right", fontsize=8, frameon=False)
    top.set_title(t.plural("stats.chart.title", len(shown)), fontsize=10)
    bottom.bar(numbers, [blunders for _, _, blunders in shown], color=_RED, width=0.8)
    bottom.set_ylabel(t("stats.chart.blunders_axis"))
    bottom.set_xlabel(t("stats.chart.game_axis"))
    bottom.yaxis.get_major_locator().set_params(integer=True)
    bottom.xaxis.get_major_locator().set_params(integer=True)
    figure.savefig(path, format="png")
    return len(shown)
