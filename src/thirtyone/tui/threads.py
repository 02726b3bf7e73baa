"""Work off the screen's thread: a bot's search and a hint's run on a daemon thread of their own,
and the screen waits for the answer without blocking its event loop."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["off_thread"]

_T = TypeVar("_T")


async def off_thread(work: Callable[[], _T]) -> _T:
    """Run ``work`` on a daemon thread of its own and wait for its result (or what it raised)
    without blocking the event loop; quitting never waits for it: a daemon thread ends with the
    program, and an answer that comes after the loop has closed is dropped.

    >>> asyncio.run(off_thread(lambda: 6 * 7))
    42
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T | None, error: BaseException | None) -> None:
        if future.done():  # the waiter was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(), None
        except BaseException as caught:  # handed to the waiter
            result, error = None, caught
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="thirtyone-search", daemon=True).start()
    return await future
