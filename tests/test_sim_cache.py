"""The kernels' disk cache between processes: a process that misses it while another one compiles
the kernels into it (``kernels.compiling``, as the suite's controller does) waits for that one and
loads what it compiled, rather than compiling the same kernels at the same time."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from thirtyone.sim import kernels

_HOLDER = """
import sys
from thirtyone.sim import kernels

with kernels.compiling():
    print(kernels.play_rounds_kernel._cache.cache_path, flush=True)
    sys.stdin.readline()
"""
"""A process that holds the cache (as if compiling) until it reads a line; it first prints the folder."""


def test_a_miss_while_another_process_compiles_waits_for_it_and_loads_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missed, released = threading.Event(), threading.Event()
    looks: list[bool] = []  # at each look into the cache: had the other process let go yet?

    def look(self: Any, sig: Any, target_context: Any) -> Any:
        looks.append(released.is_set())
        missed.set()
        return None if len(looks) == 1 else "compiled by the other process"

    monkeypatch.setattr(kernels._FunctionCache, "load_overload", look)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None
    assert holder.stdout is not None
    try:
        cache = kernels.rng_words._cache  # type: ignore[attr-defined]
        monkeypatch.setattr(cache, "_cache_path", holder.stdout.readline().strip())
        found: list[Any] = []
        looking = threading.Thread(target=lambda: found.append(cache.load_overload(None, None)))
        looking.start()
        missed.wait()  # the first look missed while the other process holds the cache
        released.set()
        holder.stdin.write("done\n")
        holder.stdin.flush()
        looking.join()
    finally:
        holder.stdin.close()
        holder.wait()
    assert found == ["compiled by the other process"]
    assert looks == [False, True]
