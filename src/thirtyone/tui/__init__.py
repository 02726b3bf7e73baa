"""The terminal game (``thirtyone play``): a Textual app where one person plays against bots.

The package is split so that the command line can check its arguments without importing
Textual: :mod:`~thirtyone.tui.settings` (the game's settings and their checks) and
:mod:`~thirtyone.tui.words` (events and results in words) use the library only, and so does
:mod:`~thirtyone.tui.untrusted` (text from outside, such as a record's names, made safe for a
terminal: every command that prints such text uses it);
:mod:`~thirtyone.tui.session` runs the game without a screen; :mod:`~thirtyone.tui.app` is the
Textual app (``ThirtyOneApp``) and :mod:`~thirtyone.tui.widgets` its panels and screens.
"""

from __future__ import annotations
