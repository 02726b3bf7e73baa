"""The terminal game (``thirtyone play``): a Textual app where one person plays against bots.

The package is split so that the command line can check its arguments without importing
Textual: :mod:`~thirtyone.tui.settings` (the game's settings and their checks) and
:mod:`~thirtyone.tui.words` (events and results in words) use the library only (text from
outside, such as a record's names, is shown through :func:`thirtyone.checks.escaped`);
:mod:`~thirtyone.tui.session` runs the game without a screen, and
:mod:`~thirtyone.tui.autosave` saves its records. :mod:`~thirtyone.tui.app` is the Textual app
(``ThirtyOneApp``), which wires one home per job: :mod:`~thirtyone.tui.keys` (what each key
does on each screen), :mod:`~thirtyone.tui.pacing` (the bots' pace and their thread),
:mod:`~thirtyone.tui.hints` (the hints and the expert's readiness, with
:mod:`~thirtyone.tui.prepare`), :mod:`~thirtyone.tui.status` (the title and status lines);
:mod:`~thirtyone.tui.widgets` are the table's panels and :mod:`~thirtyone.tui.screens` the
screens between rounds.
"""

from __future__ import annotations
