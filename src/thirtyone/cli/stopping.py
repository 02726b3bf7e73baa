"""How a long command stops early, one way for every command: Ctrl-C raises
:class:`KeyboardInterrupt` and, in the block of :func:`stopping`, SIGTERM (``timeout``, ``kill``)
raises :class:`Terminated`, a ``KeyboardInterrupt``, so that either takes the command's path that
reports the work done so far, marked partial; the block's :class:`Stop` says which, in words and
as the exit status (130, 143). :func:`~thirtyone.arena.interrupts.held` (a library module's: the
library counts results too) holds both back while one result is counted, so that the partial
results never count one half.

A module of its own, not :mod:`thirtyone.cli.options` (the arguments the commands share): it
sets the process's signal handlers, which no argument does.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

from thirtyone.arena.interrupts import deliver
from thirtyone.arena.interrupts import handling
from thirtyone.cli.play import signal_status

__all__ = ["Terminated", "Stop", "stopping"]


class Terminated(KeyboardInterrupt):
    """SIGTERM in the block of :func:`stopping`: it stops the work as Ctrl-C does."""


@dataclass
class Stop:
    """What stopped the block of :func:`stopping`, when something did: SIGTERM (``terminated``),
    else Ctrl-C."""

    terminated: bool = False

    @property
    def word(self) -> str:
        """``terminated`` or ``interrupted``, as the partial results are marked."""
        return "terminated" if self.terminated else "interrupted"

    @property
    def status(self) -> int:
        """The exit status: 143 for SIGTERM, 130 for Ctrl-C (:func:`~thirtyone.cli.play.signal_status`)."""
        return signal_status(signal.SIGTERM if self.terminated else signal.SIGINT)


@contextlib.contextmanager
def stopping() -> Iterator[Stop]:
    """In the block, SIGTERM raises :class:`Terminated` in the main thread as Ctrl-C raises
    ``KeyboardInterrupt`` (unless Ctrl-C was ignored before), both held back in :func:`held`; the
    handlers before are restored after the block. The :class:`Stop` yielded says which came. Off
    the main thread, where no handler can be set, nothing changes."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_signal(number: int, _frame: FrameType | None) -> None:
        stop.terminated = stop.terminated or number == signal.SIGTERM
        deliver(Terminated() if number == signal.SIGTERM else KeyboardInterrupt())

    numbers = [signal.SIGTERM] + (
        [signal.SIGINT] if signal.getsignal(signal.SIGINT) is signal.default_int_handler else []
    )
    with handling(numbers, on_signal):
        yield stop
