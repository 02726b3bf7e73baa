"""The first ``hard`` moves of a fresh server, cold and warm: does a person wait for the compiler?

The ``hard`` bot (the expert) plays its rollouts on numba kernels that compile on their first use
after installing and are then loaded from numba's disk cache. This bench points
``NUMBA_CACHE_DIR`` at an empty folder (a fresh install), starts ``thirtyone serve`` (bots at
once: ``--bot-delay 0``), makes a table of one scripted person and a ``hard`` bot through the
HTTP API at once, plays the person's turns (and closes each showdown) at once, and times each of
the bot's first ``--moves`` moves: from the state that gives the bot its turn to the state its
move makes (what a browser waits).
Then it does the same again on a new server with the same cache folder, now filled (warm).

The terminal game the same way, cold and warm: ``thirtyone play`` against one ``hard`` bot
(``--fast``: no pacing) in a process of its own, driven by Textual's pilot, on a deal where the
bot moves first: from the app's start until the bot has played its turn.

    python benchmarks/bench_first_move.py                 # cold, then warm
    python benchmarks/bench_first_move.py --moves 10

Prints, for each run, the first move's time, the slowest of the first moves and their mean (s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from bench_server import free_port
from bench_server import start_server


async def bot_moves(port: int, moves: int, seed: int) -> list[float]:
    """The seconds each of a new table's first ``moves`` hard-bot moves took (see the module)."""
    rng = random.Random(seed)
    body = {"preset": "scat", "seats": [{"type": "human"}, {"type": "bot", "level": "hard"}], "name": "P0"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        created = (await http.post("/api/tables", json=body)).raise_for_status().json()
    times: list[float] = []
    asked: tuple[int, float] | None = None  # the seq that gave the bot its turn, and when it came
    closed = 0  # the last round whose showdown the person closed
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{created['code']}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        async for raw in ws:
            now = time.perf_counter()
            message = json.loads(raw)
            if message["type"] != "state" or message["view"] is None:
                continue
            seq, view = message["seq"], message["view"]
            if asked is not None and seq > asked[0]:
                times.append(now - asked[1])
                asked = None
            if len(times) >= moves or view["phase"] == "over" or message["table"]["status"] != "playing":
                break
            showdown = message["table"].get("showdown")
            if showdown is not None and showdown["round"] > closed:  # read at once: the bot need not wait
                closed = showdown["round"]
                await ws.send(json.dumps({"type": "showdown_closed", "round": closed}))
            if view["is_my_turn"]:
                legal = [action for action in view["legal_actions"] if action != "knock"] or view["legal_actions"]
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal), "seq": seq}))
            elif view["current_seat"] is not None:
                asked = (seq, now)
    return times


def serve_run(cache: Path, moves: int, seed: int) -> list[float]:
    """A fresh server with numba's cache in ``cache``: its table's first hard-bot moves (s)."""
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(f"sqlite:///{folder}/bench.db", port, limits=False)
        try:
            return asyncio.run(bot_moves(port, moves, seed))
        finally:
            server.terminate()
            server.wait(30)


async def terminal_move() -> float:
    """In this process: the seconds from the terminal game's start until its hard bot, first to
    move, has played its turn (see the module); a deal where the person moves first is left at once
    for the next seed's."""
    from thirtyone import Rules
    from thirtyone.events import Acted
    from thirtyone.tui.app import ThirtyOneApp
    from thirtyone.tui.settings import PlaySettings

    for seed in range(100):
        app = ThirtyOneApp(PlaySettings.create(Rules(), 2, "hard", seed=seed, fast=True, delay=0.0))
        started = time.perf_counter()
        async with app.run_test(size=(80, 24)) as pilot:
            while app.game.current_seat is None:
                await pilot.pause(0.01)
            bot_first = app.game.current_seat != 0
            while bot_first and not app.session.human_to_move:
                await pilot.pause(0.01)
            waited = time.perf_counter() - started
            app.preparation.stop()
        if bot_first and any(isinstance(event, Acted) and event.seat != 0 for event in app.game.events):
            return waited
    raise SystemExit("bench_first_move: no deal of seeds 0-99 lets the bot move first")


def terminal_run(cache: Path) -> list[float]:
    """A fresh terminal game with numba's cache in ``cache``: its hard bot's first turn (s)."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    command = [sys.executable, __file__, "--terminal-child"]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True, timeout=300)
    return [float(done.stdout)]


def line(name: str, times: list[float]) -> str:
    slowest, mean = max(times), statistics.fmean(times)
    return f"{name:<28} first {times[0]:5.2f} s   slowest {slowest:5.2f} s   mean {mean:5.2f} s   ({len(times)} moves)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=6, help="the bot's first moves timed (default 6)")
    parser.add_argument("--seed", type=int, default=0, help="the scripted person's choices")
    parser.add_argument("--terminal-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.terminal_child:
        print(asyncio.run(terminal_move()))
        return
    with tempfile.TemporaryDirectory() as cache:
        print(line("terminal, cold numba cache", terminal_run(Path(cache))))
        print(line("terminal, warm numba cache", terminal_run(Path(cache))))
    with tempfile.TemporaryDirectory() as cache:
        print(line("serve, cold numba cache", serve_run(Path(cache), args.moves, args.seed)))
        print(line("serve, warm numba cache", serve_run(Path(cache), args.moves, args.seed)))


if __name__ == "__main__":
    main()
