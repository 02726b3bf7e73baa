"""How well the expert's worlds guess the opponents' hidden cards (issue 15, item 2: belief).

Plays games (``--preset``, 3 and 4 players; seats ``heuristic`` and ``expert-v1:30`` in turn)
and, at the turns of their seats, takes ``--positions`` positions in all. At each, for each
method it samples ``--worlds`` worlds of the seat's view and reads the marginal probability of
each opponent's true hidden cards (the share of worlds where that opponent holds the card, with
one uniform pseudo-world of smoothing so the log never sees 0):

- ``uniform``: the hidden cards dealt at random;
- ``bias``: today's :func:`~thirtyone.bots.expert.sample_position` (an opponent who drew ``k``
  times gets the best of ``k`` extra candidates);
- ``belief``: the worlds of the ``expert`` (:mod:`thirtyone.bots.belief`: pools of completions
  weighted by the likelihood of each opponent's choices this round).

It prints the mean log-likelihood (natural log) per hidden card of each, with a 95% interval
over the positions, the exact uniform figure (the log of the uniform marginal) beside them and
the belief's gain on each baseline (paired: the same positions);
and the share of uniform worlds consistent with everything seen (every exact step of every
opponent the heuristic's move: the hard model), with the same share for the true hands.

``--strength`` instead asks how strong each method's worlds make the opponent, heads-up (games of
``expert-v1:30`` against itself, the turns with a choice before anyone knocks): per method the
mean chance it gives that the opponent's hand beats the seat's, against how often it does, the
Brier score of that chance, and how far the opponent's mean hand value in the worlds lies from
its true value (points); then the same chance and truth by fifths of the chance (reliability).
A belief that overrates the opponent knocks too seldom.

``--fit`` instead fits the belief's softness: on positions of other games (seeds from 10,000),
the mean log-likelihood of the true hidden cards under uniform completions weighted by the
belief, for a grid of ``epsilon`` and ``proxy_weight``.

Usage: ``python benchmarks/bench_belief.py [--positions N] [--worlds M] [--preset P] [--fit | --strength]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Iterator

from thirtyone import Game
from thirtyone import Rules
from thirtyone.bots import make_bot
from thirtyone.bots.belief import EPSILON
from thirtyone.bots.belief import PROXY_WEIGHT
from thirtyone.bots.belief import UNIFORM_SHARE
from thirtyone.bots.belief import Belief
from thirtyone.bots.belief import pool_size
from thirtyone.bots.expert import _passes
from thirtyone.bots.expert import sample_position
from thirtyone.bots.hands import half_value
from thirtyone.bots.knowledge import Knowledge
from thirtyone.cards import Card
from thirtyone.views import Phase
from thirtyone.views import PlayerView

EPSILONS = (0.01, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5)
PROXY_WEIGHTS = (0.0, 0.25, 0.5, 1.0)


def positions(preset: str, count: int, seed: int, *, heads_up: bool = False) -> Iterator[tuple[PlayerView, Game]]:
    """``count`` positions (a seat's view at its turn with a choice, and the game) from games of
    ``preset``: 3 and 4 players with seats ``heuristic`` and ``expert-v1:30`` in turn, or
    (``heads_up``) ``expert-v1:30`` against itself, before anyone knocks."""
    taken = 0
    game_seed = seed
    while True:
        players = 2 if heads_up else 3 + game_seed % 2
        game = Game(Rules.preset(preset), players, seed=game_seed)
        names = ["expert-v1:30" if heads_up or seat % 2 else "heuristic" for seat in range(players)]
        bots = [make_bot(name, game_seed * 10 + seat) for seat, name in enumerate(names)]
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            chosen = view.phase is Phase.TURN and view.hand is not None and len(view.legal_actions) > 1
            if chosen and not (heads_up and view.knocker is not None):
                yield view, game
                taken += 1
                if taken >= count:
                    return
            game.apply(bots[seat].choose(view, view.legal_actions))
        game_seed += 1


def hidden(view: PlayerView, game: Game, seat: int) -> tuple[Card, ...]:
    """``seat``'s cards that ``view`` does not know."""
    known = set(view.seats[seat].known_cards)
    return tuple(card for card in game.hand(seat) if card not in known)


def uniform_complete(
    seat: int, known: tuple[Card, ...], unseen: list[Card], rng: random.Random
) -> tuple[tuple[Card, ...], list[Card]]:
    missing = 3 - len(known)
    return known + tuple(unseen[:missing]), unseen[missing:]


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+.4f} ± {half:.4f}"


def bench(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    methods = ("uniform", "bias", "belief")
    scores: dict[str, list[float]] = {name: [] for name in (*methods, "exact uniform")}
    consistent: list[float] = []
    true_consistent: list[float] = []
    for view, game in positions(args.preset, args.positions, args.seed):
        knowledge = Knowledge.from_view(view)
        passes = _passes(view)
        opponents = [seat for seat in view.active_seats if seat != view.seat]
        targets = {seat: hidden(view, game, seat) for seat in opponents}
        cards = sum(len(found) for found in targets.values())
        if not cards:
            continue
        unseen = len(knowledge.unseen)
        belief = Belief(view, knowledge, epsilon=args.epsilon, proxy_weight=args.proxy_weight)
        samplers = {"uniform": uniform_complete, "bias": None, "belief": belief.pools(rng, args.pool).complete}
        for name in methods:
            counts = {seat: dict.fromkeys(targets[seat], 0) for seat in opponents}
            for _ in range(args.worlds):
                world = sample_position(view, knowledge, passes, rng, samplers[name])
                for seat in opponents:
                    for card in world.hands[seat]:
                        if card in counts[seat]:
                            counts[seat][card] += 1
            total = 0.0
            for seat in opponents:
                prior = len(targets[seat]) / unseen
                total += sum(math.log((n + prior) / (args.worlds + 1)) for n in counts[seat].values())
            scores[name].append(total / cards)
        scores["exact uniform"].append(
            sum(len(found) * math.log(len(found) / unseen) for found in targets.values() if found) / cards
        )
        read = [seat for seat in opponents if belief.steps(seat)]
        if read:
            agree = 0
            for _ in range(args.worlds):
                world = sample_position(view, knowledge, passes, rng, uniform_complete)
                agree += all(_hard(belief, seat, world.hands[seat]) for seat in read)
            consistent.append(agree / args.worlds)
            true_consistent.append(float(all(_hard(belief, seat, game.hand(seat)) for seat in read)))
    print(
        f"{len(scores['uniform'])} positions of {args.preset}, {args.worlds} worlds each;",
        "log-likelihood per hidden card:",
    )
    for name, values in scores.items():
        print(f"  {name:14} {interval(values)}")
    for base in ("uniform", "bias"):  # paired over the positions: the same positions for every method
        gains = [a - b for a, b in zip(scores["belief"], scores[base], strict=True)]
        print(f"  belief - {base:7} {interval(gains)}")
    print(
        f"  consistent with everything seen (hard model, {len(consistent)} positions with evidence): "
        f"uniform worlds {interval(consistent)}, true hands {interval(true_consistent)}"
    )


def _hard(belief: Belief, seat: int, hand: tuple[Card, ...]) -> bool:
    """Whether every exact step of ``seat`` is the heuristic's move with ``hand`` (epsilon → 0)."""
    return all(matched for matched, _, exact in belief.outcomes(seat, hand) if exact)


def strength(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    rules = Rules.preset(args.preset)
    methods = ("uniform", "bias", "belief")
    chances: dict[str, list[float]] = {name: [] for name in methods}
    value_errors: dict[str, list[float]] = {name: [] for name in methods}
    beats: list[float] = []
    for view, game in positions(args.preset, args.positions, 20_000 + args.seed, heads_up=True):
        assert view.hand is not None
        opponent = 1 - view.seat
        mine = half_value(view.hand, rules)
        true_value = half_value(game.hand(opponent), rules)
        beats.append(float(true_value > mine))
        knowledge = Knowledge.from_view(view)
        passes = _passes(view)
        samplers = {
            "uniform": uniform_complete,
            "bias": None,
            "belief": Belief(view, knowledge).pools(rng, args.pool).complete,
        }
        for name in methods:
            values = [
                half_value(sample_position(view, knowledge, passes, rng, samplers[name]).hands[opponent], rules)
                for _ in range(args.worlds)
            ]
            chances[name].append(sum(value > mine for value in values) / args.worlds)
            value_errors[name].append((statistics.fmean(values) - true_value) / 2)
    print(
        f"{len(beats)} heads-up positions of {args.preset}, {args.worlds} worlds each; "
        f"the opponent's hand beats the seat's {statistics.fmean(beats):.3f} of the time"
    )
    for name in methods:
        briers = [(chance - beat) ** 2 for chance, beat in zip(chances[name], beats, strict=True)]
        fifths: dict[int, list[tuple[float, float]]] = {}
        for chance, beat in zip(chances[name], beats, strict=True):
            fifths.setdefault(min(int(chance * 5), 4), []).append((chance, beat))
        print(
            f"  {name:8} chance it beats {statistics.fmean(chances[name]):.3f}  Brier {interval(briers)}  "
            f"its hand's value less the true one {interval(value_errors[name])} points"
        )
        print(
            "           by fifths (chance / true, positions): "
            + "  ".join(
                f"{statistics.fmean(c for c, _ in rows):.2f} / {statistics.fmean(b for _, b in rows):.2f} ({len(rows)})"
                for _, rows in sorted(fifths.items())
            )
        )


def fit(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    # per position: the unseen count and, per opponent read, its true hidden cards and each pool
    # completion's outcomes (computed once; every grid point reweighs them)
    rows: list[tuple[int, list[tuple[tuple[Card, ...], list[tuple[tuple[Card, ...], Outcomes]]]]]] = []
    for view, game in positions(args.preset, args.positions, 10_000 + args.seed):
        knowledge = Knowledge.from_view(view)
        belief = Belief(view, knowledge)
        entry = []
        for seat, (completions, _weights) in belief.pools(rng, args.pool).pools.items():
            known = view.seats[seat].known_cards
            target = hidden(view, game, seat)
            if target:
                entry.append((target, [(cards, belief.outcomes(seat, known + cards)) for cards in completions]))
        if entry:
            rows.append((len(knowledge.unseen), entry))
    print(f"fit on {len(rows)} positions of {args.preset} with evidence, {args.pool} completions an opponent:")
    best = None
    for proxy in PROXY_WEIGHTS:
        line = []
        for epsilon in EPSILONS:
            score = statistics.fmean(_fit_score(rows, epsilon, proxy, args.worlds))
            line.append(f"eps {epsilon}: {score:+.4f}")
            if best is None or score > best[0]:
                best = (score, epsilon, proxy)
        print(f"  proxy_weight {proxy:<5}: " + " ".join(line))
    assert best is not None
    print(f"best: epsilon {best[1]}, proxy_weight {best[2]} (mean log-likelihood {best[0]:+.4f} per hidden card)")


Outcomes = list[tuple[float, int, bool]]


def _fit_score(
    rows: list[tuple[int, list[tuple[tuple[Card, ...], list[tuple[tuple[Card, ...], Outcomes]]]]]],
    epsilon: float,
    proxy: float,
    worlds: int,
) -> list[float]:
    """Each position's mean log-likelihood per hidden card under the belief's marginals: the
    pool's weighted share mixed with the uniform share (``UNIFORM_SHARE``), smoothed as the bench
    smooths ``worlds`` worlds."""
    values = []
    for unseen, entry in rows:
        total = 0.0
        cards = 0
        for target, completions in entry:
            logs = [
                sum(
                    math.log((1 - epsilon) * matched + epsilon / legal) * (1.0 if exact else proxy)
                    for matched, legal, exact in outcomes
                )
                for _, outcomes in completions
            ]
            top = max(logs)
            weights = [math.exp(value - top) for value in logs]
            mass = sum(weights)
            prior = len(target) / unseen
            for card in target:
                share = sum(w for (held, _), w in zip(completions, weights, strict=True) if card in held) / mass
                marginal = (1 - UNIFORM_SHARE) * share + UNIFORM_SHARE * prior
                total += math.log((marginal * worlds + prior) / (worlds + 1))
            cards += len(target)
        values.append(total / cards)
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--preset", default="scat")
    parser.add_argument("--seed", type=int, default=1)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--fit", action="store_true")
    mode.add_argument("--strength", action="store_true", help="how strong the worlds make the opponent, heads-up")
    parser.add_argument("--epsilon", type=float, default=EPSILON)
    parser.add_argument("--proxy-weight", type=float, default=PROXY_WEIGHT)
    parser.add_argument("--pool", type=int, help="completions an opponent (default: the expert's for --worlds)")
    args = parser.parse_args()
    if args.pool is None:
        args.pool = pool_size(args.worlds)
    (fit if args.fit else strength if args.strength else bench)(args)


if __name__ == "__main__":
    main()
