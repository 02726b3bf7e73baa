"""The five places that drive a table — the runner, the arena, the agents' table, the terminal's
session and the server's table — play the same games through :mod:`thirtyone.table_loop` as they
did through their own loops (issue 42): seeded games played through each one's public API give
the digests recorded before the loop was written once (results, records, events and rewards).
So do the three smaller loops: the record a terminal session saves while a round's end shows,
the expert's first rounds of ``thirtyone analyze`` and the Gymnasium env's bots moving up to the
agent's turn (truncation and the agent put out included).

A digest that changes means a face now plays other games, other events or other records: find
why before recording a new one.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator
from datetime import UTC
from datetime import datetime
from typing import Any

from thirtyone.agents.config import EnvConfig
from thirtyone.agents.gymnasium import ThirtyOneEnv
from thirtyone.agents.table import Table as AgentTable
from thirtyone.arena.odds_play import expert_first_round
from thirtyone.arena.play import Task
from thirtyone.arena.play import play_task
from thirtyone.bots.runner import simulate
from thirtyone.engine import Game
from thirtyone.fairness import SaltChain
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.server.config import ServerSettings
from thirtyone.server.rows import PLAYING
from thirtyone.server.rows import SeatData
from thirtyone.server.rows import TableData
from thirtyone.server.table import Table as ServerTable
from thirtyone.tui.autosave import recorded
from thirtyone.tui.session import PlaySession
from thirtyone.tui.settings import PlaySettings

SCAT = Rules.preset("scat")


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def record_of(game: Game) -> str:
    return GameRecord.from_game(game, event="same games").dumps()


def test_runner_simulate_plays_the_same_games_and_statistics() -> None:
    lines: list[str] = []
    stats = simulate(
        SCAT, ["basic", "heuristic", "random"], games=4, seed=7, on_game=lambda i, game: lines.append(record_of(game))
    )
    lines.append(repr(dataclasses.asdict(stats)))
    assert digest(lines) == "d412edccb38fc99c"


def test_arena_plays_the_same_games_and_results() -> None:
    task = Task(Rules.preset("schwimmen"), ("heuristic", "random", "basic"), seed=11, start=0, stop=6)
    results = play_task(task)
    failed = play_task(Task(SCAT, ("basic", "no such bot"), seed=3, start=0, stop=2))
    lines = [repr(dataclasses.replace(result, seconds=(), decisions=())) for result in results + failed]
    lines += [repr(result.decisions) for result in results]
    assert digest(lines) == "051b96ee9ba141e0"


def test_agents_table_and_gymnasium_pay_the_same_rewards() -> None:
    table = AgentTable(EnvConfig.make("scat", 3), seed=5)
    lines = []
    while not table.done:
        ids = table.legal_ids()
        step = table.step(ids[len(ids) // 2])
        lines.append(repr(step))
    lines.append(record_of(table.game))
    env = ThirtyOneEnv("scat", 3, bots=["basic", "random"])
    _, info = env.reset(seed=9)
    done = False
    while not done:
        mask = info["action_mask"]
        action = next(number for number, allowed in enumerate(mask) if allowed)
        _, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        lines.append(f"{reward} {terminated} {truncated}")
    assert digest(lines) == "8fe2ac6b89c5abd0"


def session_steps(session: PlaySession, pick: int) -> Iterator[None]:
    """Play ``session``'s game through as its public API lets a face do it (the person playing
    legal action number ``pick``), yielding before each step and once at the end."""
    while not session.game.is_over:
        yield
        if session.round_over:
            session.deal_next()
        elif session.human_to_move:
            session.play(session.view().legal_actions[pick])
        else:
            assert session.bot_move() is None
    yield


def test_terminal_session_plays_the_same_game_and_events() -> None:
    session = PlaySession(PlaySettings.create(SCAT, players=3, bots="basic", seed=5, fast=True))
    lines = []
    for _ in session_steps(session, -1):
        lines += [repr(event) for event in session.next_events()]
    lines.append(record_of(session.game))
    assert digest(lines) == "c36d1b3b6026531a"


def test_terminal_records_hold_the_same_deals_while_a_rounds_end_shows() -> None:
    # seed 25: one round's next deal gives a 31 (R5.2), which ends that round at once: two deals are due
    session = PlaySession(PlaySettings.create(SCAT, players=3, bots="basic,heuristic", seed=25, fast=True))
    lines = []
    for _ in session_steps(session, 0):
        if session.round_over:
            lines.append(record_of(recorded(session.game)))
    assert len(lines) > 3
    assert digest(lines) == "c4ed0ffc33af98be"


def test_the_experts_first_rounds_knock_the_same() -> None:
    knocks = [
        expert_first_round(Rules.preset(preset), players, "expert:4", seed)
        for preset, players in (("scat", 3), ("schwimmen", 4), ("widow", 2))
        for seed in range(4)
    ]
    assert any(knock is None for knock in knocks)
    assert digest([repr(knock) for knock in knocks]) == "05fdbbb72305eca4"


def test_gymnasium_bots_move_up_to_the_agents_turn_the_same() -> None:
    lines, ends = [], set()
    tables: list[tuple[str, int, int, dict[str, Any]]] = [
        ("scat", 4, 2, {"max_rounds": 2}),
        ("scat", 4, 1, {"lives": 1}),
        ("schwimmen", 2, 1, {}),
    ]
    for preset, players, seat, options in tables:
        env = ThirtyOneEnv(preset, players, bots=["random", "basic", "heuristic"][: players - 1], seat=seat, **options)
        for seed in range(6):
            observation, info = env.reset(seed=seed)
            lines.append(f"{info['seed']} {digest([observation.tobytes().hex()])}")
            done = False
            while not done:
                mask = info["action_mask"]
                action = [number for number, allowed in enumerate(mask) if allowed][-1]
                observation, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                lines.append(f"{reward} {terminated} {truncated} {digest([observation.tobytes().hex()])}")
            assert env.table is not None
            ends.add("truncated" if truncated else "over" if env.table.game.is_over else "out")
    assert ends == {"truncated", "over", "out"}
    assert digest(lines) == "c53d959ea0dded4d"


def test_server_table_deals_and_records_the_same_game() -> None:
    chain = SaltChain("00" * 31 + "07", 64)
    data = TableData(
        code="ABCDEF",
        status=PLAYING,
        preset="scat",
        options={},
        players=3,
        host_token_hash="",
        seats=[SeatData(0, "human", None, "Ann"), SeatData(1, "bot", "easy", None), SeatData(2, "human", None, "Ben")],
        created_at=datetime(2026, 1, 2, tzinfo=UTC),
        first_dealer=1,
        commitment=chain.commitment,
        chain_key=chain.key,
        chain_length=chain.length,
    )
    table = ServerTable(data, ServerSettings())
    move = table.start(1, ["ab", None, "cd"])
    table.keep(move)
    lines = [f"{[deal.round for deal in move.deals]} {move.ended}"]
    while table.game is not None and not table.game.is_over:
        game = table.game
        seat = game.current_seat
        assert seat is not None
        legal = game.legal_actions()
        move = table.play(seat, legal[game.turn % len(legal)], "player")
        table.keep(move)
        lines.append(f"{move.action} {[deal.deck for deal in move.deals]} {move.ended} {move.finished}")
    assert digest(lines) == "c095e4f1309492c5"
