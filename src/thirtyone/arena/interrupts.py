"""Ctrl-C and SIGTERM held back while one result is counted (:func:`held`), so that partial
results never count one half of it; signal handlers set for a block and restored after it
(:func:`handling`, which the command line's handlers use too).

In the arena, below :mod:`thirtyone.cli`, standard library only: the arena counts results
(:func:`thirtyone.arena.run.run_arena`) and may not import from the command line, whose
:func:`thirtyone.cli.stopping.stopping` hands its signals' stops to :func:`deliver`; not in the
core, which sets no signal handlers.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from types import FrameType

__all__ = ["held", "deliver", "handling"]

Handler = Callable[[int, FrameType | None], None]
"""A signal handler: the signal's number and the frame it interrupted."""

_held: list[KeyboardInterrupt] | None = None
"""The stops that came in the block of :func:`held` (``None`` outside one)."""


def deliver(stop: KeyboardInterrupt) -> None:
    """Raise ``stop``, a signal handler's, now, or in the block of :func:`held` when the block ends."""
    if _held is None:
        raise stop
    _held.append(stop)


def _hold_ctrl_c(_number: int, _frame: FrameType | None) -> None:
    """Ctrl-C's handler in the block of :func:`held` where Python's own was set."""
    deliver(KeyboardInterrupt())


@contextlib.contextmanager
def handling(numbers: Sequence[int], handler: Handler) -> Iterator[None]:
    """Set ``handler`` for the signals ``numbers`` in the block and restore the handlers before
    it when it ends, however it ends. Only the main thread can set one: call it there."""
    before = {number: signal.signal(number, handler) for number in numbers}
    try:
        yield
    finally:
        for number, handler_before in before.items():
            signal.signal(number, handler_before)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold back Ctrl-C (unless a handler of its own is set or it is ignored) and the stops given
    to :func:`deliver` (SIGTERM in the block of :func:`~thirtyone.cli.stopping.stopping`) until the
    block ends, and then stop: what the block counts is counted whole, never in part. Off the main
    thread, where no signal comes, and in a block of its own, nothing changes."""
    global _held
    if _held is not None or threading.current_thread() is not threading.main_thread():
        yield
        return
    own = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    came: list[KeyboardInterrupt] = []
    _held = came
    try:
        with handling([signal.SIGINT] if own else [], _hold_ctrl_c):
            yield
    finally:
        _held = None
    if came:
        raise came[0]
