"""What ``benchmarks/bench_server.py`` measures, on made-up messages (no server is started): a bot
move's lag beyond its delay, the tables of a killed server going on, the seats spread over the
servers, and the ``serve`` options that seat the judge (issue 44)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).parent.parent / "benchmarks" / "bench_server.py"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("bench_server", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_server"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules["bench_server"]


def _state(seq: int, phase: str, seat: int | None, mine: bool, status: str = "playing") -> dict[str, Any]:
    view = {"phase": phase, "current_seat": seat, "is_my_turn": mine}
    return {"type": "state", "seq": seq, "view": view, "table": {"status": status}}


def _clients(bench: ModuleType, servers: int = 1, delay: float = 1.0) -> Any:
    plan = bench.Plan(tuple(range(8000, 8000 + servers)), 4, "easy", delay, 0.0, 60.0)
    clients = bench.Clients(plan, seed=1)
    clients.window = (0.0, float("inf"))
    return clients


def test_a_bot_moves_lag_is_its_wait_beyond_the_bot_delay(bench: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    clients = _clients(bench, delay=1.0)
    heard = [
        (10.0, _state(5, "turn", 1, False)),  # the person's discard: bot 1 draws after the delay
        (11.25, _state(6, "discard", 1, False)),  # 1.25 s later: 250 ms beyond the delay
        (11.29, _state(7, "turn", 2, False)),  # its discard shows at once: 40 ms, all of it lag
        (13.0, _state(9, "turn", 3, False)),  # a seq missed (8): no lag read from it
        (14.01, _state(10, "turn", 0, True)),  # bot 3 drew and the person's turn: 10 ms
        (20.0, _state(11, "discard", 0, True)),  # the person's own move: not a bot's
    ]
    turn: list[Any] = [None]
    for at, message in heard:
        monkeypatch.setattr(bench.time, "perf_counter", lambda at=at: at)
        clients.bot_moved(turn, message)
    assert [round(lag) for lag in clients.result.bot_lags] == [250, 40, 10]


def test_a_bot_move_before_the_window_is_not_measured(bench: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    clients = _clients(bench)
    clients.window = (100.0, 160.0)
    turn: list[Any] = [None]
    for at, message in ((99.0, _state(1, "turn", 1, False)), (100.1, _state(2, "discard", 1, False))):
        monkeypatch.setattr(bench.time, "perf_counter", lambda at=at: at)
        clients.bot_moved(turn, message)
    assert clients.result.bot_lags == []


def test_the_players_of_a_table_are_on_different_servers(bench: ModuleType) -> None:
    clients = _clients(bench, servers=2)
    assert [clients.port_of(5, seat) for seat in range(4)] == [1, 0, 1, 0]
    assert {clients.port_of(table, 0) for table in range(4)} == {0, 1}  # and the tables' first seats too
    assert [_clients(bench).port_of(5, seat) for seat in range(4)] == [0, 0, 0, 0]


def test_the_tables_of_the_killed_server_are_told_apart(bench: ModuleType) -> None:
    arrivals = [
        ("AAAAAA", 0, 99.0, 3),  # one person, on server 0 (killed at 100)
        ("AAAAAA", 0, 112.5, 4),  # going on 12.5 s after the kill (the lease, its renewal)
        ("BBBBBB", 1, 99.5, 7),  # on server 1
        ("BBBBBB", 1, 100.25, 8),
        ("CCCCCC", 2, 98.0, 2),  # on server 0, and nothing since
        ("DDDDDD", 3, 101.0, 1),  # opened after the kill: not in play at it
    ]
    result = bench.ClientResult(arrivals=arrivals)
    run = bench.Run([result], 60.0, 1.0, 0.0, (0.0, 0.0, 0.0), (0.0, 0.0), 100.0, None)
    assert bench.went_on(run, servers=2, people=1) == {True: [12.5, None], False: [0.25]}
    assert bench.went_on(run, servers=2, people=4) == {True: [12.5, 0.25, None], False: []}


def test_the_judge_is_seated_as_a_level_serve_accepts(bench: ModuleType) -> None:
    from thirtyone.cli.serve import bot_levels

    args = argparse.Namespace(bots="judge", bot_delay=1.0, bot_workers=3)
    options = bench.server_options(args)
    bots = ["--bot-delay", "1", "--showdown-timeout", "0", "--bot", "learned=judge", "--bot-workers", "3"]
    assert options == ["--friends-turn-timer", "off", *bots]
    assert bot_levels([options[7]]) == {"learned": "judge"}
    people = bench.server_options(argparse.Namespace(bots=None, bot_delay=1.0, bot_workers=None))
    assert people == ["--friends-turn-timer", "off"]  # no timer plays for people who wait for the window
