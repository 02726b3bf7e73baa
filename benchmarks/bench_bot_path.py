"""The bots' path against a lean loop, measured side by side in one process (issue "One house",
item 10).

Four ``basic`` bots play whole 4-player ``scat`` games three ways:

- **bots**: :func:`thirtyone.bots.runner.play_game`, the one bot-turn function every face uses
  (a :class:`~thirtyone.views.PlayerView` for the seat to move, the bot's ``choose``, the check);
- **engine loop**: a hand-written greedy loop on the same engine: the same decisions as ``basic``
  (the same helpers), read straight from the :class:`~thirtyone.engine.Game`: no view, no bot;
- **bare loop**: the same game written out by hand with plain lists — scat's deal, draw, discard,
  knock, 31, showdown and lives, and nothing else — and the same decisions: what a hobby
  implementation of one variant costs.

All three deal the same games and make the same moves (checked first: the same rounds, winner and
lives left, and the engine's two ways the same events), so the ratios are the cost of the bots'
path and of the engine's generality. Target: the bots within 3x of the bare loop.

Usage: ``python benchmarks/bench_bot_path.py [--seconds S]``. Figures vary with the machine; the
ratio is measured in one run.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from thirtyone import Card
from thirtyone import Discard
from thirtyone import Draw
from thirtyone import Game
from thirtyone import Knock
from thirtyone import Rules
from thirtyone import full_deck
from thirtyone.bots import make_bot
from thirtyone.bots.hands import best_after_taking
from thirtyone.bots.hands import best_discard
from thirtyone.bots.hands import half_value
from thirtyone.bots.runner import play_game
from thirtyone.strategy import basic_knock_bar
from thirtyone.views import Phase

RULES = Rules.preset("scat")
STOCK, PILE, KNOCK = Draw("stock"), Draw("pile"), Knock()


def lean_game(seed: int) -> Game:
    """One game of four greedy players written out by hand (draw mode only), as ``basic`` plays."""
    game = Game(RULES, 4, seed=seed)
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        hand = game.hand(seat)
        if game.phase is Phase.DISCARD:
            game.apply(Discard(best_discard(hand, RULES, keep=game.taken_from_pile)[1]))
            continue
        value = half_value(hand, RULES)
        # scat's turn, written out: a knock is legal until someone has knocked (R6.1), the pile
        # card whenever there is a pile, the stock while it (or a reshuffle, R4.3) has cards
        if game.knocker is None and value >= basic_knock_bar(game.turn // len(game.active_seats)):
            game.apply(KNOCK)
            continue
        pile = game.discard_pile
        if pile and best_after_taking(hand, pile[-1], RULES) > value:
            game.apply(PILE)
        else:
            game.apply(STOCK if game.stock_size or len(pile) > 1 else PILE)
    return game


def bare_game(seed: int) -> tuple[int, int, list[int]]:
    """One game of scat for four greedy players on plain lists: (rounds, winner, remaining losses).
    The same random source as the engine's (SeededChance), consumed in the same order."""
    rng = random.Random(seed)
    players = 4
    remaining = [RULES.lives + 1] * players  # lives and the grace life (R2.3, R2.4)
    dealer = rng.randrange(players)
    rounds = 0
    deck52 = list(full_deck(52))
    while True:
        rounds += 1
        active = [seat for seat in range(players) if remaining[seat]]
        nxt = {seat: active[(active.index(seat) + 1) % len(active)] for seat in active}
        deck = list(deck52)
        rng.shuffle(deck)
        order = active[active.index(nxt[dealer]) :] + active[: active.index(nxt[dealer])]
        hands: dict[int, list[Card]] = {seat: [] for seat in active}
        at = 0
        for _ in range(3):
            for seat in order:
                hands[seat].append(deck[at])
                at += 1
        pile, stock = [deck[at]], deck[at + 1 :][::-1]
        values = {seat: half_value(hands[seat], RULES) for seat in active}
        losses: dict[int, int] = {}
        blitz = [seat for seat in active if values[seat] >= 62]
        if blitz:  # a 31 on the deal (R5.2)
            losses = {seat: 1 for seat in active if seat not in blitz}
        else:
            seat, knocker, owed, turn = nxt[dealer], None, 0, 0
            while True:
                hand = hands[seat]
                value = half_value(hand, RULES)
                if knocker is None and value >= basic_knock_bar(turn // len(active)):
                    knocker, owed = seat, len(active) - 1
                else:
                    taken = None
                    if best_after_taking(hand, pile[-1], RULES) > value:
                        taken = pile.pop()
                        hand.append(taken)
                    else:
                        if not stock:  # R4.3
                            rest = pile[:-1]
                            rng.shuffle(rest)
                            stock, pile = rest[::-1], pile[-1:]
                        hand.append(stock.pop())
                    card = best_discard(hand, RULES, keep=taken)[1]
                    hand.remove(card)
                    pile.append(card)
                    if half_value(hand, RULES) >= 62:  # R5.1
                        losses = {other: 1 for other in active if other != seat}
                        break
                turn += 1
                if knocker is not None and seat != knocker:
                    owed -= 1
                    if owed == 0:
                        break
                if turn >= RULES.max_turns:
                    knocker = None
                    break
                seat = nxt[seat]
            if not losses:  # the showdown (R6.5, knock_penalty=scat)
                values = {seat: half_value(hands[seat], RULES) for seat in active}
                low = min(values.values())
                lowest = [seat for seat in active if values[seat] == low]
                if knocker is not None and lowest == [knocker]:
                    losses = {knocker: 2}
                else:
                    losses = {seat: 1 for seat in lowest if seat != knocker}
        after = {seat: remaining[seat] - losses.get(seat, 0) for seat in active}
        if all(left <= 0 for left in after.values()):  # R2.6
            after = dict.fromkeys(active, 1)
        for seat, left in after.items():
            remaining[seat] = max(left, 0)
        still = [seat for seat in range(players) if remaining[seat]]
        if len(still) == 1:
            return rounds, still[0], remaining
        dealer = nxt[dealer]
        while not remaining[dealer]:
            dealer = (dealer + 1) % players


def bots_game(seed: int) -> Game:
    return play_game(RULES, [make_bot("basic", seed * 4 + seat) for seat in range(4)], seed=seed)


def games_per_second(plays: dict[str, Callable[[int], object]], seconds: float) -> dict[str, float]:
    """Games/s of each way, measured interleaved (a batch of each in turn, the same seeds) for
    about ``seconds`` in all, so that a change in the machine's load weighs on every way alike."""
    spent = dict.fromkeys(plays, 0.0)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for name, play in plays.items():
            began = time.perf_counter()
            for seed in range(games, games + 5):
                play(seed)
            spent[name] += time.perf_counter() - began
        games += 5
    return {name: games / spent[name] for name in plays}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    seconds = parser.parse_args().seconds
    for seed in range(30):
        game, lean = bots_game(seed), lean_game(seed)
        if lean.events != game.events:
            raise SystemExit(f"game {seed}: the engine loop and the bots played different games")
        remaining = [game.remaining(seat) for seat in range(4)]
        if bare_game(seed) != (game.round, game.winner, remaining):
            raise SystemExit(f"game {seed}: the bare loop played another game than the engine")
    print(f"python {platform.python_version()} on {platform.machine()}, one core, {seconds:g} s per figure")
    rate = games_per_second({"bare": bare_game, "lean": lean_game, "bots": bots_game}, 3 * seconds)
    bare, lean, bots = rate["bare"], rate["lean"], rate["bots"]
    print(f"bare loop (plain lists), scat, 4 players: {bare:8,.0f} games/s")
    print(f"engine loop (Game, no bots):              {lean:8,.0f} games/s   {bare / lean:5.2f}x the bare loop's time")
    print(
        f"basic bots (play_game):                   {bots:8,.0f} games/s   {bare / bots:5.2f}x the bare loop's time"
        "   (target: at most 3x)"
    )
    print(f"the bots' path alone (bots / engine loop):                    {lean / bots:5.2f}x")


if __name__ == "__main__":
    main()
