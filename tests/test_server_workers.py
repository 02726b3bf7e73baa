"""The server's worker processes end with it, however it ends: a ``thirtyone serve`` killed with
SIGKILL leaves none of its workers behind (they were left running, adopted by init)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli_helpers import cli_error_line
from support.processes import free_port
from support.processes import start_server
from support.server import serve
from support.server import uvicorn_stand_in  # noqa: F401 - the fixture started

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")

WAIT = 30.0
"""Seconds a test waits for processes to start or to be gone: an upper bound for a loaded machine."""


def _parent(pid: int) -> int | None:
    """The parent of process ``pid``, or ``None`` once it has ended (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, parent = stat.rsplit(")", 1)[1].split()[:2]
    return None if state in ("Z", "X") else int(parent)


def _children(pid: int) -> set[int]:
    return {int(entry) for entry in os.listdir("/proc") if entry.isdigit() and _parent(int(entry)) == pid}


def _wait_for(check: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} within {WAIT:g} s")


def test_a_killed_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    server = start_server(tmp_path / "workers.db", free_port())
    workers: set[int] = set()
    try:
        seats = [{"type": "human"}, {"type": "bot", "level": "hard"}]  # a hard bot starts the bots' workers
        assert httpx.post(f"{server.url}/api/tables", json={"seats": seats}).status_code == 201
        _wait_for(lambda: _children(server.process.pid), "the bots' worker process did not start")
        workers = _children(server.process.pid)
        server.kill()  # SIGKILL: no shutdown, nothing of the server runs any more
        _wait_for(
            lambda: all(_parent(pid) is None for pid in workers), f"workers {sorted(workers)} outlived the server"
        )
    finally:
        if server.process.poll() is None:
            server.kill()
        for pid in workers:  # never leave one running, whatever failed
            if _parent(pid) is not None:
                os.kill(pid, signal.SIGKILL)
        if server.process.stderr is not None:
            server.process.stderr.close()


@pytest.mark.parametrize(("parent", "alive"), [("os.getppid()", True), ("os.getppid() + 10_000_000", False)])
def test_a_worker_ends_at_once_when_its_server_is_already_gone(parent: str, alive: bool) -> None:
    # the server may die between starting a worker and the worker's first instruction
    code = f"import os; from thirtyone.server.workers import end_with; end_with({parent}); print('alive')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=WAIT)
    assert (done.stdout.strip() == "alive") is alive, done.stderr
    assert (done.returncode == 0) is alive


async def test_a_worker_pool_still_runs_its_jobs() -> None:
    from thirtyone.bots.work import ready
    from thirtyone.server.workers import WorkerPool

    pool = WorkerPool("test", 1)
    try:
        assert await pool.run(ready) is True
        assert await pool.run(os.getppid) == os.getpid()  # the worker is this process's child
    finally:
        pool.close()


def test_a_bots_worker_says_its_move_as_an_id() -> None:
    """What a bot worker process sends back is the move's id, not its notation to read again."""
    from thirtyone import Game
    from thirtyone.action_ids import action_from_id
    from thirtyone.action_ids import legal_ids
    from thirtyone.bots.work import bot_move

    game = Game("scat", players=3, seed=11)
    for _ in range(12):
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        move = bot_move("heuristic", 5, view)
        assert isinstance(move, int)
        assert move in legal_ids(view)
        game.apply(action_from_id(view, move))


RAISING_BOT = """
class Raising:
    name = "raising"

    def choose(self, view, legal):
        raise RuntimeError("no idea")


def make(seed):
    return Raising()
"""


def test_a_bots_worker_gives_a_failure_as_plain_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that raises in a worker process is the one bot turn's BotFailure, sent back without
    its exception (plain data crosses processes); the server then plays a default for it."""
    import pickle

    from thirtyone import Game
    from thirtyone.bots.turn import BotFailure
    from thirtyone.bots.work import bot_move

    game = Game("scat", players=3, seed=11)
    view = game.view(game.current_seat or 0)
    (tmp_path / "raising_bot.py").write_text(RAISING_BOT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    failure = bot_move("raising_bot:make", 1, view)
    assert isinstance(failure, BotFailure)
    assert failure.error is None
    assert failure.reason == "raised RuntimeError: no idea"
    assert pickle.loads(pickle.dumps(failure)) == failure


def test_a_hard_bots_first_move_waits_on_no_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a worker warms its kernels up (a fresh install compiles them for half a minute), the
    hard bot plays its first move with the engine's rollouts: the simulator is not even asked."""
    import threading

    from thirtyone import sim
    from thirtyone.bots import prepare
    from thirtyone.bots.levels import LEVEL_SPECS
    from thirtyone.bots.work import bot_move
    from thirtyone.engine import Game
    from thirtyone.rules import Rules

    compiling = threading.Event()
    asked: list[str] = []

    def compile_for_ever(rules: Rules | None = None) -> str:
        compiling.set()
        threading.Event().wait(5)  # the compiler, still at it while the move is asked for
        return "loaded"

    def asked_for(*args: object) -> bool:
        asked.append("sim")
        raise AssertionError("the move waited for the simulator")

    monkeypatch.setattr(prepare, "_warmed", False)
    monkeypatch.setattr(prepare, "_loaded", False)
    monkeypatch.setattr(prepare, "load_simulator", compile_for_ever)
    monkeypatch.setattr(sim, "cannot_play", asked_for)
    monkeypatch.setattr(sim, "check_playable", asked_for)
    prepare.warm_up_simulator()
    assert compiling.wait(10)
    game = Game(Rules(), 2, seed=7)
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    move = bot_move(LEVEL_SPECS["hard"], 3, view)
    assert isinstance(move, int)
    assert asked == []
    assert prepare.warming()


# ---------------------------------------------------------------------------------------------- how many


def test_the_bot_workers_are_one_a_core_unless_told(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from thirtyone.cli import main
    from thirtyone.server.config import machine_cores

    calls = request.getfixturevalue("started")  # uvicorn.run stood in for (test_cli_serve)
    assert main(serve(tmp_path)) == 0
    assert calls[-1]["settings"].bot_workers == machine_cores() == min(len(os.sched_getaffinity(0)), 64)
    assert main(serve(tmp_path, "--bot-workers", "3")) == 0
    assert calls[-1]["settings"].bot_workers == 3


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("0", "--bot-workers must be from 1 to 64 workers, not 0"),
        ("65", "--bot-workers must be from 1 to 64 workers, not 65"),
        ("two", "--bot-workers 'two': give a whole number"),
    ],
)
def test_a_bad_number_of_bot_workers_is_one_line(
    tmp_path: Path, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str], given: str, words: str
) -> None:
    calls = request.getfixturevalue("started")
    assert words in cli_error_line(capsys, serve(tmp_path, "--bot-workers", given))
    assert calls == []


def _meet(barrier: Any) -> int:
    """A bot worker's job that ends only once every other job of the barrier runs at the same time."""
    barrier.wait()
    return os.getpid()


async def test_the_servers_bot_workers_play_that_many_moves_at_once(tmp_path: Path) -> None:
    """The table service's bot pool has ``bot_workers`` processes, and each takes a move at once:
    two jobs that each wait for the other both end (on one worker the first would wait for ever)."""
    import asyncio
    import multiprocessing

    from thirtyone.server import ServerSettings
    from thirtyone.server import create_app

    settings = ServerSettings(database_url=f"sqlite:///{tmp_path}/t.db", bot_workers=2, freeze_gc=False)
    pool = create_app(settings=settings).state.service.bots
    with multiprocessing.get_context("spawn").Manager() as manager:
        barrier = manager.Barrier(2, timeout=WAIT)
        try:
            pids = await asyncio.gather(pool.run(_meet, barrier), pool.run(_meet, barrier))
        finally:
            pool.close()
    assert pool.workers == 2
    assert len(set(pids)) == 2
