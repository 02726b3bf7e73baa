"""The exact last turn's time per decision (issue 41, item 5): every last turn after a knock in
``--games`` games of four ``heuristic`` bots, for each preset and table size, valued by
:func:`thirtyone.judge.last_turn` (the second call of each view, the first warming its tables).

Prints, for each preset and table size, the last turns met, the share counted exactly (the rest
sampled with the fixed seed), the mean, median, p99 and maximum milliseconds a decision, and
the mean standard error of the sampled values (lives).

Usage: ``python benchmarks/bench_lastturn.py [--games G] [--seed S] [--players 2,3,4]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.judge import NotALastTurnError
from thirtyone.judge import is_last_turn
from thirtyone.judge import last_turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4")
    args = parser.parse_args()
    for preset in ("scat", "widow", "schwimmen"):
        for players in (int(text) for text in args.players.split(",")):
            times: list[float] = []
            exact = 0
            errors: list[float] = []
            for number in range(args.games):
                game = Game(Rules.preset(preset), players, seed=args.seed + number)
                bots = [make_bot("heuristic", number * 10 + seat) for seat in range(players)]
                while not game.is_over:
                    seat = game.current_seat
                    assert seat is not None
                    view = game.view(seat)
                    if is_last_turn(view) and len(view.legal_actions) > 1:
                        try:
                            last_turn(view)
                            start = time.perf_counter()
                            turn = last_turn(view)
                            times.append(time.perf_counter() - start)
                        except NotALastTurnError:
                            pass
                        else:
                            exact += turn.exact
                            errors += [move.stderr for move in turn.moves if not turn.exact]
                    game.apply(bots[seat].choose(view, view.legal_actions))
            if not times:
                continue
            times.sort()
            p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
            noise = f", sampled stderr {statistics.fmean(errors):.3f} lives" if errors else ""
            print(
                f"{preset} {players} players: {len(times)} last turns, {exact / len(times):.0%} exact, "
                f"mean {1000 * statistics.fmean(times):.1f} ms, median {1000 * statistics.median(times):.1f} ms, "
                f"p99 {1000 * p99:.1f} ms, max {1000 * times[-1]:.1f} ms{noise}"
            )


if __name__ == "__main__":
    main()
