"""The game records of a terminal session (``--record``), saved as the games go.

:class:`Autosave` saves the current game's record after every action, at the game's end and on
every way out, each time whole: written to a temporary file in the same folder and renamed over
the old one, so that the file is always a record that replays, whenever the program is stopped.
It keeps one line a game saying where the record went or why it could not be saved.

>>> import tempfile
>>> from pathlib import Path
>>> from thirtyone.rules import Rules
>>> from thirtyone.tui.session import PlaySession
>>> from thirtyone.tui.settings import PlaySettings
>>> folder = Path(tempfile.mkdtemp())
>>> session = PlaySession(PlaySettings.create(Rules.preset("scat"), players=2, seed=5, record=folder / "g.toml"))
>>> records = Autosave(session)
>>> records.save(), records.notes      # nothing has happened yet: nothing to replay
('', [])
>>> session.play(session.view().legal_actions[0])
>>> records.save() == f"Game record saved to {folder / 'g.toml'}"
True
>>> records.notes == [f"Game record saved to {folder / 'g.toml'}"], records.error
(True, None)
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
from pathlib import Path

from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.i18n import Messages
from thirtyone.i18n import messages
from thirtyone.record import GameRecord
from thirtyone.table_loop import next_seat
from thirtyone.tui.session import PlaySession
from thirtyone.tui.settings import PlayError

__all__ = ["Autosave", "recorded", "dealt_again", "write_whole"]

_COMMENT = "seed {seed} (thirtyone play {options} deals this game again)"
"""The comment of a record of ``thirtyone play``: the game's seed and the options that deal it
again (:meth:`~thirtyone.tui.settings.PlaySettings.deal_again`), read back by :func:`dealt_again`."""

_READ_COMMENT = re.compile(r"seed ([0-9]+) \(thirtyone play (--[^()]*) deals this game again\)")


def dealt_again(record: GameRecord) -> list[str]:
    """The options of ``thirtyone play`` that deal the game of ``record`` again, as its comment
    says them (``["--players=3", "--bots=hard,easy", "--seed=11"]``): what ``--resume`` goes on
    from.

    Raises:
        PlayError: for a record that ``thirtyone play`` did not write (no such comment).
    """
    found = _READ_COMMENT.fullmatch(record.comment or "")
    if record.event != "thirtyone play" or found is None:
        raise PlayError("it is not a record of thirtyone play: its comment does not say how the game was dealt")
    return found.group(2).split()


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: to a temporary file in the same folder, renamed
    over ``path``, so that the file is the old text or the new, whenever the program is stopped.

    Raises:
        OSError: when the file cannot be written (its ``filename`` is ``path``).
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        if isinstance(error, OSError):  # say the file's path: the temporary file is ours, not the person's
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise


def recorded(game: Game) -> Game:
    """``game`` as its record is to hold it: while the next deal waits (a round's end shows),
    a copy with that deal taken as the game will take it (the copy's chance source is the
    game's own, copied), since a record holds every round that has begun and replays only so;
    else ``game`` itself."""
    if not game.is_chance():
        return game
    ahead = game.copy()
    next_seat(ahead)  # every step due, with the game's own outcomes: a 31 on that deal (R5.2) makes the next due
    return ahead


class Autosave:
    """Saves the records of ``session``'s games where its settings say (``--record``: the first
    game there, the next ones beside it with ``-2``, ``-3``, …), in the words of ``t``.

    ``notes`` holds one line a game: where its record was saved, or why it could not be;
    ``error`` that line for the first game whose latest save failed and ``failure`` its reason
    (``None`` when every game's latest save worked).
    """

    def __init__(self, session: PlaySession, t: Messages | None = None) -> None:
        self.session = session
        self.t = t if t is not None else messages(session.settings.lang)
        self._notes: dict[int, str] = {}
        self._failures: dict[int, str] = {}  # why a game's latest save failed, as the library says it
        self._written: set[Path] = set()  # record files this session wrote (its own to overwrite)

    def save(self) -> str:
        """Save the current game's record if ``--record`` was given and anything has happened (a
        game quit before anyone moved leaves nothing to replay); returns the line that says
        where, or why it failed (``""`` when nothing was saved)."""
        session = self.session
        if session.settings.record is None or not session.has_played:
            return ""
        number = session.game_number
        try:
            path = self.write()
        except (OSError, ThirtyOneError) as error:
            reason = (
                f"{error.strerror}: {error.filename}" if isinstance(error, OSError) and error.strerror else str(error)
            )
            note = self.t("tui.record.failed", reason=reason)
            self._failures[number] = reason
        else:
            note = self.t("tui.record.saved", path=path)
            self._failures.pop(number, None)
        self._notes[number] = note
        return note

    def write(self) -> Path | None:
        """Write the current game's record where the settings say; returns the path, or ``None``
        without ``--record``. Writing again overwrites the same file.

        Raises:
            OSError: when the file cannot be written (its ``filename`` the record's path).
            ThirtyOneError: when the record cannot be made, or the file exists, was not written
                by this session and the settings do not allow overwriting it.
        """
        session = self.session
        settings = session.settings
        path = settings.record_path(session.game_number)
        if path is None:
            return None
        if path not in self._written and path.exists() and not settings.overwrite:
            raise ThirtyOneError(f"{path} already exists: not overwritten (start with --overwrite to replace it)")
        write_whole(path, self.record().dumps())
        self._written.add(path)
        return path

    def record(self) -> GameRecord:
        """The current game's record as it stands now, as :meth:`write` saves it (the game's seed
        and the options that deal it again in its ``comment``), with or without ``--record``.

        Raises:
            ThirtyOneError: when the record cannot be made.
        """
        session = self.session
        seed = session.game_seed
        return GameRecord.from_game(
            recorded(session.game),
            list(session.settings.record_names()),  # the kinds in English: each screen says them in its language
            event="thirtyone play",
            date=datetime.date.today().isoformat(),
            comment=_COMMENT.format(seed=seed, options=session.settings.deal_again(seed)),
        )

    @property
    def notes(self) -> list[str]:
        """Where each game's record was saved, or why it could not be (one line a game)."""
        return list(self._notes.values())

    @property
    def saved(self) -> list[str]:
        """Where each game's record was saved, one line a game whose latest save worked."""
        return [note for number, note in self._notes.items() if number not in self._failures]

    @property
    def error(self) -> str | None:
        """The line that says why the record of a game could not be saved (the first game whose
        latest save failed), else ``None``."""
        return next((self._notes[number] for number in self._failures), None)

    @property
    def failure(self) -> str | None:
        """Why that record could not be saved, in the library's words (for the command line's
        error line: ``No such file or directory: g1.toml``), else ``None``."""
        return next(iter(self._failures.values()), None)

    def problem(self) -> str | None:
        """Why the current game's record could not be saved, said short (the file's name, not
        its whole path: the screen is narrow); ``None`` when its latest save worked."""
        number = self.session.game_number
        reason = self._failures.get(number)
        path = self.session.settings.record_path(number)
        if reason is None or path is None:
            return None
        return self.t("tui.record.failed", reason=reason.replace(str(path), path.name))
