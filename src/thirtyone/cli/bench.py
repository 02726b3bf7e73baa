"""``thirtyone bench``: the reference engine and the compiled simulator side by side, in one run.

Prints, for one policy and one ruleset:

- whole games played through the engine (:class:`~thirtyone.engine.Game` with the policy's bot)
  and through :func:`thirtyone.sim.play_games`: rounds/s, actions/s and their ratio;
- single rounds through :func:`thirtyone.sim.iter_rounds` (every seat in, streamed in chunks):
  rounds/s and actions/s;
- memory: the traced peak (``tracemalloc``) while streaming 100,000 and then 1,000,000 rounds, which
  stays flat, and the process's peak resident size (``resource.getrusage``).

Without numba (or for rules the simulator does not cover) it says so in one line and measures
the engine alone.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from thirtyone.actions import Action
from thirtyone.bots.basic import BasicBot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.turn import play_turn
from thirtyone.cli.options import add_players_argument
from thirtyone.cli.options import add_rules_arguments
from thirtyone.cli.options import rules_from_args
from thirtyone.cli.options import whole_number
from thirtyone.engine import Game
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import Rules

__all__ = ["configure", "run"]

POLICIES = ("random", "basic", "heuristic")
MAX_ROUNDS = 10**9


class BenchError(ThirtyOneError):
    """Bad arguments to ``bench``."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``bench``."""
    add_players_argument(parser, "players")
    parser.add_argument(
        "--policy", default="basic", metavar="NAME", help=f"policy of every seat: {', '.join(POLICIES)} (default basic)"
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, metavar="S", help="seconds for each timed measurement (default 3)"
    )
    parser.add_argument(
        "--rounds",
        type=whole_number,
        default=1_000_000,
        metavar="N",
        help="single rounds streamed through the simulator (default 1,000,000)",
    )
    parser.add_argument(
        "--no-memory",
        action="store_true",
        help="skip the traced memory of streaming rounds (the process's peak resident size is said anyway)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Measure and print; returns 0."""
    rules = rules_from_args(args)
    rules.check_players(args.players)
    policy = str(args.policy).strip().lower()
    if policy not in POLICIES:
        raise BenchError(f"--policy {args.policy}: choose one of {', '.join(POLICIES)}")
    if not 0.1 <= args.seconds <= 3600:
        raise BenchError(f"--seconds {args.seconds}: give 0.1 to 3600 seconds")
    if not 1 <= args.rounds <= MAX_ROUNDS:
        raise BenchError(f"--rounds {args.rounds}: stream 1 to {MAX_ROUNDS:,} rounds")
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rules": rules.describe(),
        "players": args.players,
        "policy": policy,
    }
    say = _printer(args.json)
    say(
        f"thirtyone bench: {policy} in every seat, {rules.describe()}, {args.players} players, "
        f"python {platform.python_version()} on {platform.machine()}, one core"
    )
    notice = _sim_notice(rules, args.players)
    engine = _engine_games(rules, args.players, policy, args.seconds)
    report["engine"] = engine
    say(_line("engine, whole games", engine))
    if notice:
        report["notice"] = notice
        say(f"notice: {notice}")
    else:
        report.update(_sim(rules, args.players, policy, args, engine, say))
    report["peak_rss_mb"] = _peak_rss_mb()
    if report["peak_rss_mb"] is not None:
        say(f"peak resident memory of this process: {report['peak_rss_mb']:.0f} MB")
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def _printer(quiet: bool) -> Callable[[str], None]:
    def say(text: str) -> None:
        if not quiet:
            print(text, flush=True)

    return say


def _line(label: str, figures: dict[str, float]) -> str:
    return (
        f"{label + ':':<34}{figures['rounds_per_s']:>14,.0f} rounds/s {figures['actions_per_s']:>14,.0f} actions/s"
        f"   ({figures['rounds']:,} rounds in {figures['seconds']:.2f} s)"
    )


def _sim_notice(rules: Rules, players: int) -> str:
    """Why the simulator cannot run here ('' when it can)."""
    from thirtyone import sim

    if not sim.available():
        return sim.unavailable_reason()
    reason = sim.cannot_play(rules)
    return f"{reason}: measuring the engine only" if reason else ""


def _engine_mover(policy: str, rng: random.Random) -> Callable[[Game], None]:
    """One move of ``policy`` on the engine: the basic bot's turn as every face plays a bot's
    (:func:`thirtyone.bots.turn.play_turn`), the heuristic's and random's as the rollouts do."""
    if policy == "basic":
        bot = BasicBot(0)

        def basic(game: Game) -> None:
            failure = play_turn(game, bot)
            if failure is not None:  # pragma: no cover - the basic bot does not fail
                raise BenchError(str(failure))

        return basic
    if policy == "heuristic":
        return lambda game: game.apply(rollout_action(game, game.current_seat or 0, game.legal_actions()))
    return lambda game: game.apply(_pick(game.legal_actions(), rng))


def _pick(legal: tuple[Action, ...], rng: random.Random) -> Action:
    return legal[rng.randrange(len(legal))]


def _engine_games(rules: Rules, players: int, policy: str, seconds: float) -> dict[str, float]:
    """Whole games through the engine for about ``seconds``: rounds/s and actions/s."""
    rng = random.Random(1)
    move = _engine_mover(policy, rng)
    rounds = actions = games = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        game = Game(rules, players, seed=rng.getrandbits(32))
        while not game.is_over:
            move(game)
            actions += 1
        rounds += game.round
        games += 1
    return _figures(rounds, actions, time.perf_counter() - start, games=games)


def _figures(rounds: int, actions: int, elapsed: float, **extra: float) -> dict[str, float]:
    return {
        "rounds": rounds,
        "actions": actions,
        "seconds": elapsed,
        "rounds_per_s": rounds / elapsed,
        "actions_per_s": actions / elapsed,
        **extra,
    }


def _sim(
    rules: Rules,
    players: int,
    policy: str,
    args: argparse.Namespace,
    engine: dict[str, float],
    say: Callable[[str], None],
) -> dict[str, Any]:
    from thirtyone import sim
    from thirtyone.sim.api import warm_up

    start = time.perf_counter()
    warm_up()
    loaded = time.perf_counter() - start
    say(f"simulator kernels loaded (compiled the first time on a machine) in {loaded:.2f} s")
    games = rounds = actions = 0
    seed = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < args.seconds:
        batch = sim.play_games(rules, players, policy, range(seed, seed + 4096))
        seed += 4096
        games += len(batch)
        rounds += int(batch.rounds.sum())
        actions += int(batch.actions.sum())
    whole = _figures(rounds, actions, time.perf_counter() - start, games=games)
    ratio = whole["rounds_per_s"] / engine["rounds_per_s"]
    say(_line("sim, whole games", whole))
    say(f"{'sim / engine:':<34}{ratio:>14,.0f}x rounds/s {whole['actions_per_s'] / engine['actions_per_s']:>14,.0f}x")
    totals = sim.RoundTotals(players)
    start = time.perf_counter()
    for chunk in sim.iter_rounds(rules, players, args.rounds, policy, seed=1):
        totals.add(chunk)
    single = _figures(totals.rounds, totals.actions, time.perf_counter() - start)
    say(_line("sim, single rounds (all seats in)", single))
    out: dict[str, Any] = {"sim_load_seconds": loaded, "sim_games": whole, "ratio": ratio, "sim_rounds": single}
    if not args.no_memory:
        memory = {f"{count:,}": _traced_peak_mb(rules, players, policy, count) for count in (100_000, 1_000_000)}
        say("memory while streaming rounds (traced peak): " + ", ".join(f"{k}: {v:.1f} MB" for k, v in memory.items()))
        out["traced_peak_mb"] = memory
    return out


def _traced_peak_mb(rules: Rules, players: int, policy: str, count: int) -> float:
    """Peak of the memory Python and numpy allocate while ``count`` rounds stream through totals."""
    from thirtyone import sim

    tracemalloc.start()
    try:
        totals = sim.RoundTotals(players)
        for chunk in sim.iter_rounds(rules, players, count, policy, seed=2):
            totals.add(chunk)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10
