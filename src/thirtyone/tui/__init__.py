"""The terminal game (``thirtyone play``): a Textual app where one person plays against bots.

The package is split so that the command line can check its arguments without importing
Textual: :mod:`~thirtyone.tui.settings` (the game's settings and their checks) and
:mod:`~thirtyone.tui.words` (events and results in words) use the library only (text from
outside, such as a record's names, is shown through :func:`thirtyone.checks.escaped`);
:mod:`~thirtyone.tui.session` runs the game without a screen; :mod:`~thirtyone.tui.app` is the
Textual app (``ThirtyOneApp``) and :mod:`~thirtyone.tui.widgets` its panels and screens.
"""

from __future__ import annotations
