"""Your history: every game you finish in the terminal game, kept as its record in a folder of
your own, so that ``thirtyone stats`` can show whether you improve.

The folder (:func:`history_folder`) is ``$XDG_DATA_HOME/thirtyone/history``, or
``~/.local/share/thirtyone/history`` where ``XDG_DATA_HOME`` is unset or not an absolute path
(the XDG Base Directory rule); ``thirtyone play --no-history`` keeps nothing. Each finished game
is one record (docs/record-format.md), named by when it ended and its seed
(``20261207-004512-seed5.toml``): ``thirtyone replay`` and ``thirtyone review`` read it as any
other record. The review of its first seat (yours), once ``thirtyone stats`` has made it or you
opened it with ``r`` after the game (:func:`keep_review`), lies beside it
(``20261207-004512-seed5.review.json``: :func:`reviewed`), so that a game's review is made once.

>>> import tempfile
>>> from thirtyone.engine import Game
>>> from thirtyone.record import GameRecord
>>> from thirtyone.rules import Rules
>>> str(history_folder({"XDG_DATA_HOME": "/data", "HOME": "/home/ann"}))
'/data/thirtyone/history'
>>> str(history_folder({"XDG_DATA_HOME": "relative", "HOME": "/home/ann"}))
'/home/ann/.local/share/thirtyone/history'
>>> folder = Path(tempfile.mkdtemp()) / "history"
>>> game = Game(Rules.preset("scat", lives=1), players=2, seed=3)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> kept = History(folder).keep(GameRecord.from_game(game, ["you", "Ada (basic)"]), 1, seed=3)
>>> kept.parent == folder, kept.name.endswith("-seed3.toml")
(True, True)
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Final

from thirtyone.bots.expert import Rollouts
from thirtyone.bots.review import FORMAT as REVIEW_FORMAT
from thirtyone.bots.review import MARKS
from thirtyone.bots.review import VERSION as REVIEW_VERSION
from thirtyone.bots.review import Review
from thirtyone.bots.review import ReviewBudget
from thirtyone.bots.review import review_record
from thirtyone.errors import ThirtyOneError
from thirtyone.record import GameRecord
from thirtyone.tui.autosave import write_whole

__all__ = [
    "RECORD_SUFFIX",
    "REVIEW_SUFFIX",
    "YOU",
    "history_folder",
    "History",
    "Reviewed",
    "review_path",
    "reviewed",
    "keep_review",
]

RECORD_SUFFIX: Final = ".toml"
"""The ending of a kept game's record."""
REVIEW_SUFFIX: Final = ".review.json"
"""The ending of a kept game's review, beside its record (``<name>.review.json``)."""
YOU: Final = 0
"""The seat the person plays in the terminal game (:data:`thirtyone.tui.session.HUMAN`)."""
_CACHE_FORMAT: Final = "thirtyone-history-review"


def history_folder(environ: Mapping[str, str]) -> Path:
    """The history's folder for the environment ``environ``: ``$XDG_DATA_HOME/thirtyone/history``,
    else (``XDG_DATA_HOME`` unset, empty or relative: the XDG rule ignores it)
    ``~/.local/share/thirtyone/history``, the home folder from ``HOME`` (or the user's own)."""
    data = environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data):
        home = environ.get("HOME") or str(Path.home())
        data = os.path.join(home, ".local", "share")
    return Path(data) / "thirtyone" / "history"


class History:
    """Keeps each finished game of a terminal session in ``folder`` (``None``: keeps nothing,
    ``--no-history``); the folder is made when the first game is kept. ``failure`` says why the
    latest game could not be kept (``None`` when it was)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.failure: str | None = None
        self._paths: dict[int, Path] = {}  # game number -> its file (kept again: the same file)

    def keep(self, record: GameRecord, game_number: int, *, seed: int) -> Path | None:
        """Keep the record of the session's ``game_number``-th game, finished, dealt by ``seed``;
        returns its file (``None`` when nothing is kept: no folder, or it could not be written,
        the reason in :attr:`failure`). Keeping the same game again rewrites its file."""
        if self.folder is None:
            return None
        path = self._paths.get(game_number)
        try:
            if path is None:
                self.folder.mkdir(parents=True, exist_ok=True)
                path = self._free_name(seed)
            write_whole(path, record.dumps())
        except (OSError, ThirtyOneError) as error:
            filename = getattr(error, "filename", None)
            strerror = getattr(error, "strerror", None)
            self.failure = f"{strerror}: {filename}" if strerror else str(error)
            return None
        self.failure = None
        self._paths[game_number] = path
        return path

    def _free_name(self, seed: int) -> Path:
        assert self.folder is not None
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"{stamp}-seed{seed}{RECORD_SUFFIX}"
        number = 2
        while path.exists():  # two games of the same seed in the same second
            path = self.folder / f"{stamp}-seed{seed}-{number}{RECORD_SUFFIX}"
            number += 1
        return path


@dataclass(frozen=True, slots=True)
class Reviewed:
    """The review of your seat in one kept game, as :class:`~thirtyone.bots.review.SeatSummary`
    counts it: ``decisions`` valued, ``accurate`` of them (at the best move within the noise),
    ``marks`` by name (:data:`~thirtyone.bots.review.MARKS`) and ``given``, the lives given away."""

    decisions: int
    accurate: int
    marks: Mapping[str, int]
    given: float

    @property
    def accuracy(self) -> float | None:
        """The share of decisions at the best move (0 to 1; ``None`` without decisions)."""
        return self.accurate / self.decisions if self.decisions else None

    @property
    def blunders(self) -> int:
        """The decisions marked blunders."""
        return self.marks["blunder"]


def review_path(record_path: Path) -> Path:
    """Where the review of the kept game in ``record_path`` lies: beside it, ``<name>.review.json``."""
    return record_path.with_name(record_path.name.removesuffix(RECORD_SUFFIX) + REVIEW_SUFFIX)


def reviewed(
    record_path: Path, record: GameRecord, *, worlds: int, seconds: float | None, seed: int, rollouts: Rollouts
) -> Reviewed:
    """The review of your seat in the kept game ``record`` (read from ``record_path``): the one
    beside it when it was made by this review (the same format, version and budget), else made now
    (:func:`~thirtyone.bots.review.review_record` with this budget: ``worlds`` a decision, at most
    ``seconds`` each, the ``seed`` and the ``rollouts``) and saved beside it for next time. A
    review file that is damaged or another's is made again; one that cannot be saved, next time.

    Raises:
        ArgumentError: for a budget out of range (as :class:`~thirtyone.bots.review.Reviewer`).
    """
    path = review_path(record_path)
    budget = ReviewBudget(worlds=worlds, seconds=seconds, seed=seed, rollouts=rollouts)
    made_by = {"format": REVIEW_FORMAT, "version": REVIEW_VERSION, **budget}
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["format"] == _CACHE_FORMAT and data["review"] == made_by:
            return _from_json(data["summary"])
    return _kept(path, made_by, review_record(record, [YOU], **budget))


def keep_review(
    record_path: Path, review: Review, *, worlds: int, seconds: float | None, seed: int, rollouts: Rollouts
) -> Reviewed:
    """Keep ``review`` (made with that budget, of a record that includes your seat) beside the kept
    game in ``record_path``, as :func:`reviewed` would have made it, so that ``thirtyone stats``
    with that budget does not make it again: the review opened with ``r`` after the game.
    A folder that cannot be written keeps nothing (:func:`reviewed` makes it then)."""
    budget = ReviewBudget(worlds=worlds, seconds=seconds, seed=seed, rollouts=rollouts)
    return _kept(review_path(record_path), {"format": REVIEW_FORMAT, "version": REVIEW_VERSION, **budget}, review)


def _kept(path: Path, made_by: Mapping[str, Any], review: Review) -> Reviewed:
    """Your seat's summary of ``review``, written to ``path`` with what made it."""
    summary = next(summary for summary in review.summaries if summary.seat == YOU)
    found = Reviewed(summary.decisions, summary.accurate, dict(zip(MARKS, summary.marks, strict=True)), summary.given)
    data = {"format": _CACHE_FORMAT, "review": dict(made_by), "summary": _to_json(found)}
    with contextlib.suppress(OSError):  # a folder that cannot be written: reviewed again next time
        write_whole(path, json.dumps(data, indent=1) + "\n")
    return found


def _to_json(found: Reviewed) -> dict[str, Any]:
    return {"decisions": found.decisions, "accurate": found.accurate, "marks": dict(found.marks), "given": found.given}


def _from_json(data: Mapping[str, Any]) -> Reviewed:
    decisions, accurate, given = data["decisions"], data["accurate"], data["given"]
    marks = {mark: data["marks"][mark] for mark in MARKS}
    numbers = [decisions, accurate, *marks.values()]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers) or accurate > decisions:
        raise ValueError("a damaged review")
    if not isinstance(given, int | float) or given < 0:
        raise ValueError("a damaged review")
    return Reviewed(decisions, accurate, marks, float(given))
