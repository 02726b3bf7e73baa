"""Solving a small game of ``python_thirtyone`` — the mini variant — with OpenSpiel's CFR, and
measuring any policy's distance from the solution (``pip install 'thirtyone[openspiel]'``).

The game tree is walked once, through the OpenSpiel game itself (its chance nodes, legal ids,
perfect-recall information-state strings and returns), and written as an extensive-form game
(Gambit's EFG, which OpenSpiel loads as a game of its own, ``pyspiel.load_efg_game``): the same
tree, with one information set for each information-state string of the Python game. OpenSpiel's
C++ CFR+ (``pyspiel.CFRPlusSolver``), NashConv (``pyspiel.nash_conv``) and best responses
(``pyspiel.TabularBestResponse``) then run on it at C++ speed. A policy is a mapping from the
Python game's information-state strings to probabilities over the legal ids (sorted, as
``legal_actions()`` gives them), so it can be played on the Python game and measured here.

>>> import pyspiel
>>> from thirtyone.agents.openspiel import ThirtyOneGame
>>> tree = build_tree(ThirtyOneGame(mini_params(max_turns=1)))
>>> tree.infosets, len(tree.keys[0]), len(tree.keys[1])   # one turn: only the first player moves
(1584, 1584, 0)
>>> result = solve(tree, target=0.001, check_every=10)
>>> result.nash_conv <= 0.001, round(nash_conv(tree, result.policy), 6) == round(result.nash_conv, 6)
(True, True)
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction
from pathlib import Path
from typing import Any

from thirtyone.errors import missing_extra

try:
    import pyspiel
except ImportError as error:  # the openspiel extra is not installed
    raise missing_extra(error, "openspiel") from None

from thirtyone.agents.action_ids import action_id
from thirtyone.agents.mini import EquilibriumTable
from thirtyone.agents.openspiel import ThirtyOneGame
from thirtyone.agents.openspiel import ThirtyOneState
from thirtyone.bots.base import Bot
from thirtyone.bots.runner import BotError
from thirtyone.bots.turn import BotFailure
from thirtyone.bots.turn import choose
from thirtyone.errors import ArgumentError

__all__ = [
    "Tree",
    "Policy",
    "SolveResult",
    "mini_params",
    "build_tree",
    "save_tree",
    "load_tree",
    "kept_tree",
    "solve",
    "nash_conv",
    "best_response_values",
    "expected_values",
    "reachable",
    "deviation_costs",
    "tabulate",
    "bot_policy",
    "table_policy",
    "complete_policy",
]

Policy = Mapping[str, Sequence[float]]
"""A policy: for each information-state string of the Python game, the probabilities of its
legal ids in increasing order (they sum to 1)."""


def mini_params(**options: Any) -> dict[str, Any]:
    """The parameters of the solved mini game: preset ``mini``, two players, one round, seat 1
    deals first (so player 0 plays first and player 1 is the dealer), with rule ``options`` on top
    (``max_turns=2``, as text or values)."""
    text = "+".join(f"{name}:{value}" for name, value in options.items())
    return {"players": 2, "preset": "mini", "max_rounds": 1, "first_dealer": 1, "options": text}


@dataclass
class Tree:
    """A game tree as OpenSpiel's EFG game: ``efg`` (the text), ``game`` (loaded), and for each
    player the information-state strings of the Python game (``keys[player]``, in the order of
    the EFG's information sets) with their legal ids (``legal[player]``). ``nodes`` counts the
    tree's nodes by kind (``decision``, ``chance``, ``terminal``)."""

    source: ThirtyOneGame
    efg: str
    game: Any
    keys: list[list[str]]
    legal: list[list[tuple[int, ...]]]
    nodes: dict[str, int]
    seconds: float
    efg_actions: list[list[tuple[int, ...]]]
    """For each information set (as ``legal``), the EFG game's ids of its legal ids, in the same
    order: the EFG game numbers actions its own way, so they are read from it (its
    ``action_to_string`` is the label the tree wrote, the Python game's id)."""
    _index: list[dict[str, int]] = field(default_factory=list, repr=False)

    @property
    def infosets(self) -> int:
        """Information sets of both players."""
        return sum(len(keys) for keys in self.keys)

    def efg_key(self, player: int, key: str) -> str:
        """The EFG game's information-state string of the Python game's ``key`` (OpenSpiel
        writes ``player-player-number-name``; the names are the numbers)."""
        number = self._index[player][key] + 1
        return f"{player}-{player}-{number}-{number}"

    def efg_policy(self, policy: Policy, player: int | None = None) -> dict[str, list[tuple[int, float]]]:
        """``policy`` as the EFG game's policy table (of ``player``, or both: its keys and action
        ids, :attr:`efg_actions`), uniform where it says nothing.

        Raises:
            ArgumentError: where ``policy`` gives probabilities that do not fit the legal ids.
        """
        table: dict[str, list[tuple[int, float]]] = {}
        for seat in range(2) if player is None else (player,):
            for key, legal, efg in zip(self.keys[seat], self.legal[seat], self.efg_actions[seat], strict=True):
                probs = policy.get(key)
                if probs is None:
                    probs = [1.0 / len(legal)] * len(legal)
                elif len(probs) != len(legal) or abs(sum(probs) - 1.0) > 1e-6:
                    raise ArgumentError(
                        f"the policy at {key!r} gives {list(probs)} for {len(legal)} legal ids {list(legal)}: "
                        "give probabilities of the legal ids, summing to 1"
                    )
                table[self.efg_key(seat, key)] = [(number, float(p)) for number, p in zip(efg, probs, strict=True)]
        return table

    def key_of(self, state: Any) -> tuple[int, str]:
        """The player to move at a decision node of the EFG game and its Python game's string."""
        player = int(state.current_player())
        number = int(state.information_state_string().split("-")[2])
        return player, self.keys[player][number - 1]


def _fraction(probability: float, outcomes: int) -> str:
    """A chance probability as EFG writes it: an exact fraction (the game's are 1/n or a ratio
    of binomials, which ``limit_denominator`` recovers from the float)."""
    value = Fraction(probability).limit_denominator(10**9)
    return f"{value.numerator}/{value.denominator}"


def build_tree(source: ThirtyOneGame, *, max_nodes: int = 20_000_000) -> Tree:
    """Walk the whole tree of ``source`` (a two-player, zero-sum ``python_thirtyone`` game such
    as :func:`mini_params`'s) and load it as an EFG game.

    Raises:
        ArgumentError: for a game of other than two players, or a tree of more than
            ``max_nodes`` nodes (the full presets' trees are astronomically large).
    """
    if source.num_players() != 2:
        raise ArgumentError(f"build_tree solves two-player games, not {source.num_players()} players")
    started = time.perf_counter()
    index: list[dict[str, int]] = [{}, {}]
    legal: list[list[tuple[int, ...]]] = [[], []]
    outcomes: dict[tuple[float, float], int] = {}
    nodes = {"decision": 0, "chance": 0, "terminal": 0}
    lines = ['EFG 2 R "python_thirtyone" { "p0" "p1" } ""']
    chance_sets = 0

    def walk(state: ThirtyOneState) -> Iterator[tuple[str, ThirtyOneState | None]]:
        nonlocal chance_sets
        if sum(nodes.values()) >= max_nodes:
            raise ArgumentError(f"the tree has more than {max_nodes:,} nodes: too large to solve this way")
        if state.is_terminal():
            nodes["terminal"] += 1
            returns = state.returns()
            pair = (float(returns[0]), float(returns[1]))
            number = outcomes.setdefault(pair, len(outcomes) + 1)
            yield f't "" {number} "" {{ {pair[0]!r} {pair[1]!r} }}', None
            return
        if state.is_chance_node():
            nodes["chance"] += 1
            chance_sets += 1
            offered = state.chance_outcomes()
            branches = " ".join(f'"{action}" {_fraction(p, len(offered))}' for action, p in offered)
            yield f'c "" {chance_sets} "" {{ {branches} }} 0', None
            for action, _ in offered:
                yield from walk(state.child(action))
            return
        nodes["decision"] += 1
        player = state.current_player()
        key = state.information_state_string(player)
        ids = tuple(state.legal_actions())
        known = index[player].get(key)
        if known is None:
            known = index[player][key] = len(legal[player])
            legal[player].append(ids)
        names = " ".join(f'"{action}"' for action in ids)
        yield f'p "" {player + 1} {known + 1} "{known + 1}" {{ {names} }} 0', None
        for action in ids:
            yield from walk(state.child(action))

    for line, _ in walk(source.new_initial_state()):
        lines.append(line)
    efg = "\n".join(lines) + "\n"
    game = pyspiel.load_efg_game(efg)
    keys = [list(index[0]), list(index[1])]
    efg_actions = _efg_actions(game, index, legal)
    return Tree(source, efg, game, keys, legal, nodes, time.perf_counter() - started, efg_actions, index)


def _efg_actions(
    game: Any, index: list[dict[str, int]], legal: list[list[tuple[int, ...]]]
) -> list[list[tuple[int, ...]]]:
    """The EFG game's action ids of each information set's legal ids (see :attr:`Tree.efg_actions`),
    read by walking the EFG game to a node of every information set."""
    found: list[list[tuple[int, ...] | None]] = [[None] * len(ids) for ids in legal]
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        children = state.chance_outcomes() if state.is_chance_node() else None
        if children is not None:
            stack.extend(state.child(action) for action, _ in children)
            continue
        player = int(state.current_player())
        number = int(state.information_state_string().split("-")[2]) - 1
        if found[player][number] is None:
            by_label = {int(state.action_to_string(action)): action for action in state.legal_actions()}
            found[player][number] = tuple(by_label[action] for action in legal[player][number])
        stack.extend(state.child(action) for action in state.legal_actions())
    if any(ids is None for player in found for ids in player):
        raise ArgumentError("the EFG game lacks an information set of the tree")
    return [[ids for ids in player if ids is not None] for player in found]


def save_tree(tree: Tree, path: str | Path) -> None:
    """Keep a tree in a gzipped JSON file (its game's parameters, the EFG text and the strings),
    so that it is walked once: :func:`load_tree` reads it back."""
    data = {
        "params": tree.source.get_parameters(),
        "efg": tree.efg,
        "keys": tree.keys,
        "legal": tree.legal,
        "nodes": tree.nodes,
        "seconds": tree.seconds,
        "efg_actions": tree.efg_actions,
    }
    with gzip.open(path, "wt", encoding="utf-8") as file:
        json.dump(data, file)


def load_tree(path: str | Path, params: Mapping[str, Any]) -> Tree:
    """A tree :func:`save_tree` kept, for the game of ``params``.

    Raises:
        ArgumentError: when the file is not such a tree, or one of another game.
    """
    try:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            data = json.load(file)
        source = ThirtyOneGame(dict(data["params"]))
        if source.get_parameters() != ThirtyOneGame(dict(params)).get_parameters():
            raise ArgumentError(f"the tree in {str(path)!r} is of another game: {data['params']}")
        keys = [list(k) for k in data["keys"]]
        legal = [[tuple(ids) for ids in player] for player in data["legal"]]
        index = [{key: n for n, key in enumerate(player)} for player in keys]
        efg_actions = [[tuple(ids) for ids in player] for player in data["efg_actions"]]
        game = pyspiel.load_efg_game(data["efg"])
        return Tree(source, data["efg"], game, keys, legal, dict(data["nodes"]), data["seconds"], efg_actions, index)
    except (OSError, ValueError, KeyError, TypeError) as error:
        if isinstance(error, ArgumentError):
            raise
        raise ArgumentError(f"{str(path)!r} is not a tree of save_tree ({error})") from None


@dataclass
class SolveResult:
    """What :func:`solve` found: the average policy (:data:`Policy`), its NashConv (lives), the
    iterations and seconds it took, and NashConv after each check as ``(iterations, seconds,
    nash_conv)``."""

    policy: dict[str, list[float]]
    nash_conv: float
    iterations: int
    seconds: float
    curve: list[tuple[int, float, float]]


def kept_tree(params: Mapping[str, Any], path: str | Path | None = None) -> Tree:
    """The tree of the game of ``params``: read from ``path`` when a run kept it there
    (:func:`load_tree`), else walked (:func:`build_tree`) and, with a ``path``, kept there.

    Raises:
        ArgumentError: as :func:`load_tree` and :func:`build_tree` do.
    """
    if path is not None and Path(path).exists():
        return load_tree(path, params)
    tree = build_tree(ThirtyOneGame(dict(params)))
    if path is not None:
        save_tree(tree, path)
    return tree


def _policy_of(tree: Tree, table: Mapping[str, Sequence[tuple[int, float]]]) -> dict[str, list[float]]:
    policy: dict[str, list[float]] = {}
    for player in range(2):
        for key, ids, efg in zip(tree.keys[player], tree.legal[player], tree.efg_actions[player], strict=True):
            probs = dict(table.get(tree.efg_key(player, key), ()))
            row = [max(float(probs.get(number, 0.0)), 0.0) for number in efg]
            total = sum(row)
            # CFR+ never reached a set only its own zero moves lead to: any play there will do
            policy[key] = [p / total for p in row] if total > 0 else [1.0 / len(ids)] * len(ids)
    return policy


def solve(
    tree: Tree,
    *,
    target: float = 0.005,
    iterations: int = 100_000,
    seconds: float = 1800.0,
    check_every: int = 25,
    report: Callable[[int, float, float], None] | None = None,
) -> SolveResult:
    """Run OpenSpiel's CFR+ on ``tree`` until the average policy's NashConv is at most
    ``target`` (lives), or ``iterations`` or ``seconds`` are spent; NashConv is measured every
    ``check_every`` iterations (and passed to ``report``).

    Raises:
        ArgumentError: for a negative target or a check interval below 1.
    """
    if target < 0 or check_every < 1:
        raise ArgumentError(f"target is 0 or more and check_every 1 or more, not {target!r} and {check_every!r}")
    solver = pyspiel.CFRPlusSolver(tree.game)
    started = time.perf_counter()
    curve: list[tuple[int, float, float]] = []
    done = 0
    gap = float("inf")
    while done < iterations:
        solver.evaluate_and_update_policy()
        done += 1
        if done % check_every == 0 or done == iterations:
            gap = float(pyspiel.nash_conv(tree.game, solver.average_policy()))
            elapsed = time.perf_counter() - started
            curve.append((done, elapsed, gap))
            if report is not None:
                report(done, elapsed, gap)
            if gap <= target or elapsed >= seconds:
                break
    table = solver.tabular_average_policy().policy_table()
    return SolveResult(_policy_of(tree, table), gap, done, time.perf_counter() - started, curve)


def nash_conv(tree: Tree, policy: Policy) -> float:
    """NashConv of ``policy`` playing both seats (lives): what a best response to it gains over
    it, summed over the two seats. 0 at an equilibrium."""
    return float(pyspiel.nash_conv(tree.game, tree.efg_policy(policy)))


def best_response_values(tree: Tree, policy: Policy) -> tuple[float, float]:
    """What a best response in each seat wins against ``policy`` in the other (lives a game,
    seat 0 and seat 1)."""
    table = tree.efg_policy(policy)
    root = tree.game.new_initial_state()
    return (
        float(pyspiel.TabularBestResponse(tree.game, 0, table).value_from_state(root)),
        float(pyspiel.TabularBestResponse(tree.game, 1, table).value_from_state(root)),
    )


def expected_values(tree: Tree, first: Policy, second: Policy) -> tuple[float, float]:
    """The expected returns of seat 0 playing ``first`` against seat 1 playing ``second``."""
    table = {**tree.efg_policy(first, 0), **tree.efg_policy(second, 1)}
    values = pyspiel.expected_returns(tree.game.new_initial_state(), pyspiel.TabularPolicy(table), -1, True)
    return float(values[0]), float(values[1])


def reachable(tree: Tree, policy: Policy) -> set[str]:
    """The information sets (Python game's strings) each player reaches by its own play under
    ``policy``: over every chance outcome and every move of the other, its own moves of
    probability above 0 only. A policy needs no more: elsewhere it changes no value."""
    table = tree.efg_policy(policy)
    found: set[str] = set()
    for player in range(2):
        stack = [tree.game.new_initial_state()]
        while stack:
            state = stack.pop()
            if state.is_terminal():
                continue
            if state.is_chance_node():
                stack.extend(state.child(action) for action, _ in state.chance_outcomes())
                continue
            if state.current_player() != player:
                stack.extend(state.child(action) for action in state.legal_actions())
                continue
            found.add(tree.key_of(state)[1])
            stack.extend(state.child(action) for action, p in table[state.information_state_string()] if p > 0)
    return found


def deviation_costs(
    tree: Tree, policy: Policy, equilibrium: Policy
) -> list[tuple[float, str, list[float], list[float]]]:
    """Where ``policy`` loses most against ``equilibrium``: for each information set it reaches by
    its own play, the equilibrium's value of its own move there minus the value of the policy's
    move — each followed by the equilibrium's play, against the equilibrium in the other seat —
    weighted by how often it meets that set (chance, the equilibrium's moves and its own before):
    ``(cost in lives a game, information-state string, its probabilities, the equilibrium's)``,
    the costliest first."""
    eq_table = tree.efg_policy(equilibrium)
    own = tree.efg_policy(policy)
    values: dict[str, dict[int, float]] = {}  # the equilibrium's counterfactual action values

    def value(state: Any, reach: tuple[float, float]) -> float:
        """Seat 0's expected return under the equilibrium; ``reach[p]``: chance and p's opponent."""
        if state.is_terminal():
            return float(state.returns()[0])
        if state.is_chance_node():
            return float(
                sum(p * value(state.child(a), (reach[0] * p, reach[1] * p)) for a, p in state.chance_outcomes())
            )
        player = int(state.current_player())
        key = state.information_state_string()
        total = 0.0
        sign = 1.0 if player == 0 else -1.0
        at = values.setdefault(key, {})
        for action, p in eq_table[key]:
            other = (reach[0], reach[1] * p) if player == 0 else (reach[0] * p, reach[1])
            q = value(state.child(action), other)
            at[action] = at.get(action, 0.0) + sign * reach[player] * q
            total += p * q
        return total

    value(tree.game.new_initial_state(), (1.0, 1.0))
    met: dict[str, float] = {}  # the policy's own reach of each set it meets
    stack: list[tuple[Any, tuple[float, float]]] = [(tree.game.new_initial_state(), (1.0, 1.0))]
    while stack:
        state, reach = stack.pop()  # reach[p]: p's own moves' probability so far
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend((state.child(action), reach) for action, _ in state.chance_outcomes())
            continue
        player = int(state.current_player())
        key = state.information_state_string()
        met.setdefault(key, reach[player])
        for action, p in own[key]:
            if p > 0:
                after = (reach[0] * p, reach[1]) if player == 0 else (reach[0], reach[1] * p)
                stack.append((state.child(action), after))
    costs: list[tuple[float, str, list[float], list[float]]] = []
    for key, own_reach in met.items():
        q = values[key]
        mine = own[key]
        theirs = eq_table[key]
        cost = own_reach * (sum(p * q[a] for a, p in theirs) - sum(p * q[a] for a, p in mine))
        player, number = int(key.split("-")[0]), int(key.split("-")[2])
        costs.append((cost, tree.keys[player][number - 1], [p for _, p in mine], [p for _, p in theirs]))
    return sorted(costs, key=lambda item: -item[0])


def tabulate(
    source: ThirtyOneGame,
    choose: Callable[[ThirtyOneState, int], Sequence[float]],
    seats: Sequence[int] = (0, 1),
) -> dict[str, list[float]]:
    """A policy (:data:`Policy`) of a player given as ``choose(state, player)`` (probabilities of
    the legal ids), asked once at each information set of ``seats`` it can reach: the walk follows
    every chance outcome and every move of the other seat, but only the moves ``choose`` plays
    (with probability above 0), so a bot is asked only where its own play can lead. Information
    sets it cannot reach are left out (:meth:`Tree.efg_policy` makes them uniform: they change no
    value)."""
    policy: dict[str, list[float]] = {}

    def walk(state: ThirtyOneState) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                walk(state.child(action))
            return
        player = state.current_player()
        ids = state.legal_actions()
        if player not in seats:
            for action in ids:
                walk(state.child(action))
            return
        key = state.information_state_string(player)
        probs = policy.get(key)
        if probs is None:
            probs = policy[key] = [float(p) for p in choose(state, player)]
        for action, p in zip(ids, probs, strict=True):
            if p > 0:
                walk(state.child(action))

    walk(source.new_initial_state())
    return policy


def bot_policy(tree: Tree, bot: Bot) -> dict[str, list[float]]:
    """``bot``'s strategy in the game of ``tree`` (walked by :func:`build_tree`) as a :data:`Policy`,
    probability 1 on its move: :func:`tabulate` on ``tree.source`` for each seat that has a
    decision in the tree, in turn, so that the bot is asked, from its seat's view only, at every
    information set its own play reaches against any play of the other seat. A bot that samples
    or searches is measured as the one pure strategy it played here: its answers follow from its
    seed and the order it is asked in (the walk's).

    Raises:
        BotError: when the bot raises or plays no legal move (the failure's words, as a table says them).
    """

    def move(state: ThirtyOneState, player: int) -> list[float]:
        game = state._game
        chosen = choose(bot, game.view(player))
        if isinstance(chosen, BotFailure):
            raise BotError(str(chosen)) from chosen.error
        number = action_id(game, chosen)
        return [1.0 if legal == number else 0.0 for legal in state.legal_actions()]

    policy: dict[str, list[float]] = {}
    for seat in range(2):
        if tree.keys[seat]:  # a seat with no decision (one turn: the dealer) needs no walk
            policy.update(tabulate(tree.source, move, seats=(seat,)))
    return policy


def table_policy(tree: Tree, table: EquilibriumTable) -> dict[str, list[float]]:
    """An equilibrium table (:class:`~thirtyone.agents.mini.EquilibriumTable`, the bot
    ``mini-eq``'s) as a :data:`Policy` on ``tree``: its probabilities at each of the tree's
    information sets it holds (those its own play reaches); the others are left out."""
    policy: dict[str, list[float]] = {}
    for player in range(2):
        for key, legal in zip(tree.keys[player], tree.legal[player], strict=True):
            probs = table.policy(key, len(legal))
            if probs is not None:
                policy[key] = probs
    return policy


def complete_policy(tree: Tree, policy: Policy) -> dict[str, list[float]]:
    """``policy`` at every information set of ``tree``: its own probabilities where its own play
    reaches (:func:`reachable`; uniform where it gives none), and at each other set of a seat that
    seat's best response to ``policy`` in the other seat (OpenSpiel's ``TabularBestResponse``, one
    move, probability 1). Its values do not change — a set its own play never reaches changes
    none, so an equilibrium stays one with the same NashConv — but a move that leaves its path
    is then judged against the best play after it: give :func:`deviation_costs` a complete
    equilibrium (a table such as ``mini-eq``'s holds only the sets its own play reaches, and the
    uniform play :meth:`Tree.efg_policy` puts elsewhere would make moves that leave its path look
    worse, and the later moves better, than they are).
    """
    table = tree.efg_policy(policy)
    own = reachable(tree, policy)
    complete: dict[str, list[float]] = {}
    for player in range(2):
        best = pyspiel.TabularBestResponse(tree.game, player, table).get_best_response_actions()
        for key, ids, efg in zip(tree.keys[player], tree.legal[player], tree.efg_actions[player], strict=True):
            if key in own:
                complete[key] = [float(p) for p in policy.get(key, [1.0 / len(ids)] * len(ids))]
            else:
                chosen = best[tree.efg_key(player, key)]
                complete[key] = [1.0 if number == chosen else 0.0 for number in efg]
    return complete
