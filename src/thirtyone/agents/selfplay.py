"""Self-play toward an equilibrium: the trainer of the judge (:mod:`thirtyone.judge.network`), with
PyTorch (the ``train`` extra; the weights it writes play with numpy alone).

**The method: magnetic mirror descent (MMD) with learned action values.** Every seat of every
table is the learning policy ``π``. Each iteration plays ``decisions`` decisions with ``π`` (its
moves sampled), and for each decision keeps the lives its round brought that seat (the round's
reward of :mod:`thirtyone.agents.table`: the others' average loss minus its own). Then:

1. the **value** network learns ``q(s, a)``, the expected reward of the round after action ``a``
   at the decision ``s`` under ``π`` (Monte-Carlo regression on the kept rewards);
2. the **policy** learns MMD's step at every decision played, the closed form of one mirror-descent
   step with a KL penalty towards a *magnet* policy ``ρ`` (Sokota et al., "A Unified Approach to
   Reinforcement Learning, Quantal Response Equilibria, and Two-Player Zero-Sum Games", ICLR
   2023)::

       π'(a | s)  ∝  exp( (log π(a | s) + η α log ρ(a | s) + η q(s, a)) / (1 + η α) )

   (``η`` the step size, ``α`` the magnet's weight), fitted by cross-entropy;
3. every ``magnet_every`` iterations the magnet moves to the current policy (it starts uniform),
   so that the fixed point is an equilibrium rather than the magnet's regularised one.

Why MMD: in two-player zero-sum games its iterates themselves (not their average, as CFR's and
fictitious play's) converge to a regularised equilibrium, with one policy network and the
standard reinforcement-learning loop — sampled self-play, no tree traversal — so the same trainer
runs on the solved mini game (where NashConv measures it exactly) and on the full game at 2–9
seats, where no tree can be walked. CFR needs the tree (or sampled regrets of high variance on
long rounds), NFSP and PSRO keep an average or a population to play, which the judge's one
network would not give; R-NaD rests on the same regularisation idea with a heavier update.
DouZero's deep Monte-Carlo is the value side of this loop.

Tables: the solved ``mini`` game and any rules play on the engine (:class:`~thirtyone.agents.table.Table`,
a game a table, batched); the kernels' presets play on the vector env (:mod:`thirtyone.agents.vector`).
A run writes a checkpoint after every iteration (the networks, the optimisers, the magnet, the
tables in play and the random sources), so a killed run goes on from its last iteration exactly
as it would have (:func:`train`).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import pickle
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.errors import missing_extra

try:
    import torch
    from torch import nn
except ImportError as error:  # the train extra is not installed
    raise missing_extra(error, "train") from None

from thirtyone.agents.config import EnvConfig
from thirtyone.agents.table import Table
from thirtyone.errors import ArgumentError
from thirtyone.judge.network import INPUT_SIZE
from thirtyone.judge.network import JudgeNet
from thirtyone.judge.network import judge_inputs
from thirtyone.rules import Rules
from thirtyone.sim.rng import derive

__all__ = [
    "TrainConfig",
    "Batch",
    "TorchJudge",
    "EngineTables",
    "VectorTables",
    "SIM_TARGETS",
    "Trainer",
    "masked_log_softmax",
    "network_policy",
    "play_tables",
    "target_player",
    "train",
]

NUM_ACTIONS = 79

METHODS = ("mmd", "dmc")
"""The trainer's methods (:class:`TrainConfig`)."""


@dataclass
class TrainConfig:
    """One training run's settings.

    ``tables`` are ``(preset, players)`` pairs played every iteration (``decisions`` decisions in
    all, shared among them); ``games`` games of each table are played side by side; ``hidden``
    the networks' layers; ``eta``, ``alpha`` and ``magnet_every`` MMD's step size, magnet weight
    and magnet period (see the module); ``lr``, ``batch`` and ``epochs`` the optimiser's;
    ``imitation`` iterations first learn the heuristic's moves (the vector env's teacher: every
    seat plays the heuristic, the policy learns its move, the values what follows), a start from
    which self-play goes on, the magnet starting there; ``target`` (not ``""``) makes the run a
    best response to a frozen player in every seat but seat 0 (:func:`target_player`); ``init``
    (not ``""``) the path of a judge's weights to start both networks and the magnet from (a run
    that goes on under other settings, such as a smaller ``alpha``); ``method`` ``"mmd"`` (the
    module's loop) or ``"dmc"`` (deep Monte-Carlo, as DouZero: the values learned as in MMD, every
    move played greedily on them but for a share ``explore`` of moves played uniformly at random,
    and the policy fitted to the values' best move; its imitation iterations let the heuristic play
    with the same exploration, so the values learn what every move is worth when the heuristic
    plays on — the expert's question — before the policy plays itself); ``threads``
    PyTorch's (set for the process: small networks learn fastest on one, and a busy machine's
    spinning threads made them 40 times slower here).
    """

    tables: list[tuple[str, int]] = field(default_factory=lambda: [("mini", 2)])
    iterations: int = 100
    decisions: int = 20_000
    games: int = 256
    hidden: tuple[int, ...] = (256, 256)
    eta: float = 1.0
    alpha: float = 0.05
    magnet_every: int = 10
    lr: float = 1e-3
    batch: int = 1024
    epochs: int = 2
    seed: int = 1
    threads: int = 1
    imitation: int = 0
    target: str = ""
    init: str = ""
    method: str = "mmd"
    explore: float = 0.0

    def check(self) -> None:
        """Raises ArgumentError for a setting out of range (naming it)."""
        if not self.tables:
            raise ArgumentError("give at least one table to train on (preset, players)")
        for name in ("iterations", "decisions", "games", "magnet_every", "batch", "epochs", "threads"):
            if int(getattr(self, name)) < 1:
                raise ArgumentError(f"{name} is 1 or more, not {getattr(self, name)!r}")
        if not 0 <= int(self.imitation) <= int(self.iterations):
            raise ArgumentError(f"imitation is 0 to iterations ({self.iterations}), not {self.imitation!r}")
        for name in ("eta", "alpha", "lr"):
            if not float(getattr(self, name)) > 0:
                raise ArgumentError(f"{name} is above 0, not {getattr(self, name)!r}")
        if self.method not in METHODS:
            raise ArgumentError(f"method is {' or '.join(METHODS)}, not {self.method!r}")
        if not 0 <= float(self.explore) < 1:
            raise ArgumentError(f"explore is a share from 0 to below 1, not {self.explore!r}")
        if self.explore and self.method != "dmc":
            raise ArgumentError("explore is the share of random moves of method dmc (MMD samples its own moves)")


@dataclass
class Batch:
    """Decisions played: judge inputs ``x [n, INPUT_SIZE]`` (float16), legal masks ``mask [n, 79]``,
    the action taken, the policy's log-probabilities when it was taken (``logp [n, 79]``, illegal
    ids -inf), the round's reward that followed for the seat that took it (lives) and that seat."""

    x: npt.NDArray[np.float16]
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    reward: npt.NDArray[np.float32]
    seat: npt.NDArray[np.int64]

    @classmethod
    def join(cls, batches: Sequence[Batch]) -> Batch:
        """The decisions of ``batches`` together."""
        return cls(*(np.concatenate([getattr(b, name) for b in batches]) for name in cls.__dataclass_fields__))

    def __len__(self) -> int:
        return int(self.action.shape[0])


Policy = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.int8]], tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]
]
"""Takes judge inputs ``[n, INPUT_SIZE]`` and masks ``[n, 79]``; returns the actions sampled and
the log-probabilities of every id (``[n, 79]``, illegal -inf)."""


def explored(
    actions: npt.NDArray[np.int64], mask: npt.NDArray[np.int8], explore: float, rng: np.random.Generator | None
) -> npt.NDArray[np.int64]:
    """``actions`` with a share ``explore`` of them replaced by a legal id drawn uniformly (``rng``)."""
    if not explore or rng is None:
        return actions
    n = actions.shape[0]
    keys = np.where(mask != 0, rng.random(mask.shape), -1.0)
    return np.where(rng.random(n) < explore, keys.argmax(axis=1), actions).astype(np.int64)


def play_tables(
    tables: Sequence[EngineTables | VectorTables],
    policy: Policy | None,
    share: int,
    explore: float,
    rng: np.random.Generator,
) -> Batch:
    """``share`` decisions of each of ``tables`` played with ``policy`` (``None``: the heuristic, the
    vector env's teacher, on the :class:`VectorTables` — imitation makes no others), a share
    ``explore`` of the moves drawn uniformly with ``rng`` (:func:`explored`); joined in table order."""
    if policy is None:
        teachers = [each for each in tables if isinstance(each, VectorTables)]  # all: see _tables
        return Batch.join([each.play(None, share, explore, rng) for each in teachers])
    return Batch.join([each.play(policy, share, explore, rng) for each in tables])


class _Buffer:
    """Decisions being played: each waits for its round's reward (``pending[game]``)."""

    def __init__(self, games: int) -> None:
        self.rows: list[tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], int, npt.NDArray[np.float32]]] = []
        self.reward: list[float] = []
        self.seat: list[int] = []
        self.done: list[bool] = []
        self.pending: list[list[tuple[int, int]]] = [[] for _ in range(games)]
        self._settled = 0

    @property
    def settled(self) -> int:
        """Decisions whose rounds have ended."""
        return self._settled

    def add(self, game: int, seat: int, row: Any) -> None:
        self.pending[game].append((len(self.rows), seat))
        self.rows.append(row)
        self.seat.append(seat)
        self.reward.append(0.0)
        self.done.append(False)

    def settle(self, game: int, rewards: Sequence[float]) -> None:
        """The round of ``game``'s pending decisions ended, paying ``rewards`` by seat."""
        for row, seat in self.pending[game]:
            self.reward[row] = float(rewards[seat])
            self.done[row] = True
        self._settled += len(self.pending[game])
        self.pending[game] = []

    def batch(self) -> Batch:
        """The decisions whose rounds ended (the others are dropped)."""
        keep = [i for i, done in enumerate(self.done) if done]
        return Batch(
            np.stack([self.rows[i][0] for i in keep]),
            np.stack([self.rows[i][1] for i in keep]),
            np.array([self.rows[i][2] for i in keep], dtype=np.int64),
            np.stack([self.rows[i][3] for i in keep]),
            np.array([self.reward[i] for i in keep], dtype=np.float32),
            np.array([self.seat[i] for i in keep], dtype=np.int64),
        )


class EngineTables:
    """``games`` games of a ``players``-seat table of ``preset`` on the engine, every seat played by
    the policy; a game that ends is replaced by the next one of the run's seed."""

    def __init__(self, preset: str, players: int, games: int, seed: int) -> None:
        self.config = EnvConfig.make(preset, players)
        self.rules: Rules = self.config.rules
        self.players = players
        self.seed = seed
        self.dealt = 0
        self.tables = [self._next() for _ in range(games)]

    def _next(self) -> Table:
        self.dealt += 1
        return Table(self.config, derive(self.seed, self.dealt))

    def play(
        self, policy: Policy, decisions: int, explore: float = 0.0, rng: np.random.Generator | None = None
    ) -> Batch:
        """Play with ``policy`` until ``decisions`` decisions have their rounds ended (whole steps of every
        game); the decisions of rounds still going are left out; a share ``explore`` of the moves
        drawn uniformly instead (:func:`explored`)."""
        buffer = _Buffer(len(self.tables))
        while buffer.settled < decisions:
            seats = [_to_move(table) for table in self.tables]
            obs = np.stack([table.observation(seat) for table, seat in zip(self.tables, seats, strict=True)])
            mask = np.stack([table.mask() for table in self.tables])
            x = judge_inputs(obs, self.players, self.rules)
            actions, logp = policy(x, mask)
            actions = explored(actions, mask, explore, rng)
            for game, table in enumerate(self.tables):
                seat = seats[game]
                buffer.add(game, seat, (x[game].astype(np.float16), mask[game] != 0, int(actions[game]), logp[game]))
                step = table.step(int(actions[game]))
                if step.rounds:
                    buffer.settle(game, step.rewards)
                if table.done:
                    buffer.pending[game] = []
                    self.tables[game] = self._next()
        return buffer.batch()


def _to_move(table: Table) -> int:
    seat = table.seat
    if seat is None:  # a game that ended is replaced at once
        raise RuntimeError("a finished game was left among the tables in play")
    return seat


Opponent = Callable[[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int8]], npt.NDArray[np.int64]]
"""A frozen target's moves: from the observations ``[n, size]``, the judge inputs and the masks."""

SIM_TARGETS = ("random", "basic", "heuristic")
"""Targets the vector env plays itself (the simulator's policies)."""


class VectorTables:
    """``games`` games of a ``players``-seat table of ``preset`` on the compiled vector env, every
    seat played by the policy — or, against a frozen ``target`` (a best response), seat 0 by the
    policy and the others by the target: one of :data:`SIM_TARGETS` (the env plays them) or an
    :data:`Opponent`. A round's end is seen in the step that pays it, the game's end, or the deal
    passing to another dealer (a round in which every seat lost alike pays 0)."""

    def __init__(
        self,
        preset: str,
        players: int,
        games: int,
        seed: int,
        teacher: bool = False,
        target: str | Opponent | None = None,
    ) -> None:
        from thirtyone.agents.vector import VectorEnv

        seats = ["agent"] + [target] * (players - 1) if isinstance(target, str) else None
        self.env = VectorEnv(games, preset, players, teacher=teacher, seats=seats)
        self.opponent = None if isinstance(target, str) else target
        self.rules = self.env.config.rules
        self.players = players
        self.out = self.env.reset(seed=seed)
        self._dealer_slots = self.env.layout.slices["dealer"]
        self.dealer = self._dealers(self.out.obs, self.out.agent)

    def _dealers(self, obs: npt.NDArray[np.float32], agent: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        slot = obs[:, self._dealer_slots].argmax(axis=1)
        return np.asarray((agent + slot) % self.players, dtype=np.int64)

    def play(
        self, policy: Policy | None, decisions: int, explore: float = 0.0, rng: np.random.Generator | None = None
    ) -> Batch:
        """Play with ``policy`` until ``decisions`` decisions have their rounds ended (whole steps of every
        game); the decisions of rounds still going are left out. ``None``: every seat plays the
        heuristic (the env's teacher, made with ``teacher=True``), its move kept as certain. A share
        ``explore`` of the learners' moves is drawn uniformly instead (:func:`explored`)."""
        games = self.out.obs.shape[0]
        buffer = _Buffer(games)
        while buffer.settled < decisions:
            out = self.out
            x = judge_inputs(np.asarray(out.obs), self.players, self.rules)
            mask = np.array(out.mask)
            if policy is None:
                actions = np.array(out.teacher)
                logp = np.full(mask.shape, -np.inf, dtype=np.float32)
                logp[np.arange(games), actions] = 0.0
            else:
                actions, logp = policy(x, mask)
            actions = explored(actions, mask, explore, rng)
            agents = out.agent.copy()
            learner = np.ones(games, dtype=bool)
            if self.opponent is not None:
                learner = agents == 0
                if not learner.all():
                    theirs = self.opponent(np.asarray(out.obs), x, mask)
                    actions = np.where(learner, actions, theirs)
            x16 = x.astype(np.float16)
            for game in np.flatnonzero(learner).tolist():
                buffer.add(game, int(agents[game]), (x16[game], mask[game] != 0, int(actions[game]), logp[game]))
            self.out = out = self.env.step(actions)
            dealer = self._dealers(np.asarray(out.obs), out.agent)
            ended = (out.ended != 0) | (dealer != self.dealer) | (out.rewards != 0).any(axis=1)
            for index in np.flatnonzero(ended):
                buffer.settle(int(index), out.rewards[index].tolist())
            self.dealer = dealer
        return buffer.batch()


def _mlp(sizes: Sequence[int], zero_last: bool) -> nn.Sequential:
    layers: list[nn.Module] = []
    for number, (a, b) in enumerate(itertools.pairwise(sizes)):
        linear = nn.Linear(a, b)
        if number == len(sizes) - 2 and zero_last:
            nn.init.zeros_(linear.weight)
        nn.init.zeros_(linear.bias)
        layers.append(linear)
        if number < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class TorchJudge(nn.Module):
    """The judge's two networks in PyTorch (the same shapes as :class:`~thirtyone.judge.network.JudgeNet`):
    the policy starts uniform (its last layer 0)."""

    def __init__(self, hidden: Sequence[int]) -> None:
        super().__init__()
        sizes = [INPUT_SIZE, *hidden, NUM_ACTIONS]
        self.policy = _mlp(sizes, zero_last=True)
        self.value = _mlp(sizes, zero_last=False)

    def take(self, net: JudgeNet) -> None:
        """Take the weights of ``net``.

        Raises:
            ArgumentError: for weights of other layers than these networks'.
        """
        for torch_net, layers in ((self.policy, net.policy), (self.value, net.value)):
            linear = [m for m in torch_net if isinstance(m, nn.Linear)]
            shapes = [tuple(m.weight.shape[::-1]) for m in linear]
            theirs = [weights.shape for weights, _ in layers]
            if shapes != theirs:
                raise ArgumentError(f"weights of layers {theirs}, not {shapes}: give the hidden sizes they have")
            with torch.no_grad():
                for module, (weights, bias) in zip(linear, layers, strict=True):
                    module.weight.copy_(torch.from_numpy(weights.T.copy()))
                    module.bias.copy_(torch.from_numpy(bias))

    def export(self, meta: dict[str, Any]) -> JudgeNet:
        """The numpy weights, with ``meta``."""

        def layers(net: nn.Sequential) -> list[tuple[Any, Any]]:
            return [
                (
                    m.weight.detach().numpy().T.astype(np.float32).copy(),
                    m.bias.detach().numpy().astype(np.float32).copy(),
                )
                for m in net
                if isinstance(m, nn.Linear)
            ]

        return JudgeNet(layers(self.policy), layers(self.value), dict(meta))


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of ``logits [n, 79]`` over the legal ids of ``mask`` (``-inf`` elsewhere)."""
    return torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=-1).masked_fill(~mask, -math.inf)


def network_policy(model: TorchJudge, method: str, rng: np.random.Generator) -> Policy:
    """The :data:`Policy` that ``model`` plays by ``method``: ``"mmd"`` its policy's moves sampled
    with ``rng``; ``"dmc"`` its values' best legal move, its log-probability 0 (the others -inf)."""

    def act(x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> tuple[Any, Any]:
        rows = np.arange(x.shape[0])
        if method == "dmc":
            with torch.no_grad():
                q = model.value(torch.from_numpy(x)).numpy()
            actions = np.where(mask != 0, q, -np.inf).argmax(axis=1).astype(np.int64)
            certain = np.full(mask.shape, -np.inf, dtype=np.float32)
            certain[rows, actions] = 0.0
            return actions, certain
        with torch.no_grad():
            logits = model.policy(torch.from_numpy(x))
            logp = masked_log_softmax(logits, torch.from_numpy(mask != 0)).numpy()
        probs = np.exp(logp.astype(np.float64))
        probs /= probs.sum(axis=1, keepdims=True)
        cumulative = probs.cumsum(axis=1)
        draws = rng.random((x.shape[0], 1))
        actions = np.minimum((cumulative < draws).sum(axis=1), NUM_ACTIONS - 1)
        legal = mask[rows, actions] != 0
        fallback = np.where(mask != 0, probs, -1.0).argmax(axis=1)  # rounding at the top of the sum
        return np.where(legal, actions, fallback).astype(np.int64), logp.astype(np.float32)

    return act


class Trainer:
    """The MMD loop of the module for ``config``; :meth:`iterate` plays and learns one iteration.
    :meth:`state` and :meth:`restore` give and take everything a resumed run needs."""

    def __init__(self, config: TrainConfig) -> None:
        config.check()
        self.config = config
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.model = TorchJudge(config.hidden)
        if config.init:
            self.model.take(JudgeNet.load(config.init))
        self.magnet = TorchJudge(config.hidden)
        self.magnet.load_state_dict(self.model.state_dict())
        self.policy_opt = torch.optim.Adam(self.model.policy.parameters(), lr=config.lr)
        self.value_opt = torch.optim.Adam(self.model.value.parameters(), lr=config.lr)
        self.rng = np.random.default_rng(config.seed)
        self.iteration = 0
        self.decisions = 0
        self.curve: list[dict[str, float]] = []
        self.tables: list[EngineTables | VectorTables] = [
            _tables(preset, players, config.games, derive(config.seed, number), config.imitation > 0, config.target)
            for number, (preset, players) in enumerate(config.tables)
        ]

    def act(self, x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> tuple[Any, Any]:
        """The :data:`Policy` of the current network: actions sampled, and log-probabilities."""
        return network_policy(self.model, "mmd", self.rng)(x, mask)

    def act_greedy(self, x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> tuple[Any, Any]:
        """The :data:`Policy` of method ``dmc``: the legal id of the highest value (its log-probability 0)."""
        return network_policy(self.model, "dmc", self.rng)(x, mask)

    @property
    def imitating(self) -> bool:
        """Whether the next iteration learns the heuristic's moves (the first ``imitation``)."""
        return self.iteration < self.config.imitation

    @property
    def share(self) -> int:
        """The decisions each table plays in an iteration (``decisions`` shared among the tables)."""
        return max(1, self.config.decisions // len(self.config.tables))

    def play(self) -> Batch:
        """One iteration's decisions, shared among the tables (the heuristic's while imitating)."""
        policy = None if self.imitating else network_policy(self.model, self.config.method, self.rng)
        return play_tables(self.tables, policy, self.share, self.config.explore, self.rng)

    def learn(self, batch: Batch) -> dict[str, float]:
        """Fit the values, then the policy's MMD step (while imitating: the move played; method
        ``dmc``: the values' best move), on ``batch``; the losses."""
        config = self.config
        x = torch.from_numpy(batch.x.astype(np.float32))
        mask = torch.from_numpy(batch.mask)
        action = torch.from_numpy(batch.action)
        reward = torch.from_numpy(batch.reward)
        n = len(batch)
        value_loss = 0.0
        for _ in range(config.epochs):
            for rows in torch.split(torch.randperm(n), config.batch):
                q = self.model.value(x[rows]).gather(1, action[rows, None]).squeeze(1)
                loss = ((q - reward[rows]) ** 2).mean()
                self.value_opt.zero_grad()
                torch.autograd.backward(loss)
                self.value_opt.step()
                value_loss += loss.item() * len(rows)
        with torch.no_grad():
            q = self.model.value(x)
            magnet = masked_log_softmax(self.magnet.policy(x), mask)
            old = torch.from_numpy(batch.logp)
            scale = config.eta * config.alpha
            z = (old.masked_fill(~mask, 0.0) + scale * magnet.masked_fill(~mask, 0.0) + config.eta * q) / (1.0 + scale)
            target = torch.softmax(z.masked_fill(~mask, -1e9), dim=-1)
            if config.method == "dmc":
                best = q.masked_fill(~mask, -math.inf).argmax(dim=1)
                target = torch.nn.functional.one_hot(best, NUM_ACTIONS).to(target.dtype)
            elif self.imitating:
                target = torch.nn.functional.one_hot(action, NUM_ACTIONS).to(target.dtype)
        policy_loss = 0.0
        for _ in range(config.epochs):
            for rows in torch.split(torch.randperm(n), config.batch):
                logp = masked_log_softmax(self.model.policy(x[rows]), mask[rows]).masked_fill(~mask[rows], 0.0)
                loss = -(target[rows] * logp).sum(dim=1).mean()
                self.policy_opt.zero_grad()
                torch.autograd.backward(loss)
                self.policy_opt.step()
                policy_loss += loss.item() * len(rows)
        with torch.no_grad():
            probs = torch.exp(old)  # 0 where illegal (or never played: an imitated move's others)
            entropy = float(-torch.where(probs > 0, probs * old, 0.0).sum(dim=1).mean())
        return {
            "value_loss": value_loss / (n * config.epochs),
            "policy_loss": policy_loss / (n * config.epochs),
            "entropy": entropy,
            "reward_mean": float(reward.mean()),
        }

    def iterate(self) -> dict[str, float]:
        """Play and learn one iteration; moves the magnet every ``magnet_every``; its figures."""
        started = time.perf_counter()
        batch = self.play()
        played = time.perf_counter() - started
        figures = self.learn(batch)
        self.iteration += 1
        self.decisions += len(batch)
        after = self.iteration - self.config.imitation  # self-play iterations done
        if after == 0 or (after > 0 and after % self.config.magnet_every == 0):
            self.magnet.load_state_dict(self.model.state_dict())
        figures.update(
            iteration=self.iteration,
            decisions=self.decisions,
            play_seconds=played,
            learn_seconds=time.perf_counter() - started - played,
        )
        self.curve.append(figures)
        return figures

    def export(self, **meta: Any) -> JudgeNet:
        """The current policy and values as numpy weights, described."""
        presets = sorted({preset for preset, _ in self.config.tables})
        players = sorted({players for _, players in self.config.tables})
        described = {
            "presets": presets,
            "players": players,
            "hidden": list(self.config.hidden),
            "iterations": self.iteration,
            "decisions": self.decisions,
            "config": _config_json(self.config),
            **meta,
        }
        return self.model.export(described)

    def state(self) -> dict[str, Any]:
        """Everything a resumed run needs (picklable)."""
        return {
            "config": self.config,
            "model": self.model.state_dict(),
            "magnet": self.magnet.state_dict(),
            "policy_opt": self.policy_opt.state_dict(),
            "value_opt": self.value_opt.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "iteration": self.iteration,
            "decisions": self.decisions,
            "curve": self.curve,
            "tables": self.tables,
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Take a :meth:`state` back."""
        self.model.load_state_dict(state["model"])
        self.magnet.load_state_dict(state["magnet"])
        self.policy_opt.load_state_dict(state["policy_opt"])
        self.value_opt.load_state_dict(state["value_opt"])
        self.rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])
        self.iteration = state["iteration"]
        self.decisions = state["decisions"]
        self.curve = state["curve"]
        self.tables = state["tables"]


def _config_json(config: TrainConfig) -> dict[str, Any]:
    values = asdict(config)
    values["tables"] = [list(table) for table in config.tables]
    values["hidden"] = list(config.hidden)
    return values


class _FrozenPolicy:
    """The shipped ``ppo`` policy for ``players`` seats as an :data:`Opponent` (its greedy move);
    pickled by its size alone (a checkpoint keeps no copy of its weights)."""

    def __init__(self, players: int) -> None:
        self.players = players

    def __call__(self, obs: npt.NDArray[np.float32], x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        from thirtyone.agents.shipped import load

        return load(self.players).act(obs, mask)


class _FrozenJudge:
    """A judge's network as an :data:`Opponent`, playing as the bot ``judge`` does: its moves
    sampled from its policy with its own seeded source, or its most probable move for weights
    distilled from the expert (``meta["distilled"]``); pickled by its path and the source's state."""

    def __init__(self, path: str, seed: int) -> None:
        self.path = path
        self.rng = np.random.default_rng(seed)
        self._net: JudgeNet | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "rng": self.rng, "_net": None}

    @property
    def net(self) -> JudgeNet:
        if self._net is None:
            from thirtyone.bots.judge import shipped_judge

            self._net = JudgeNet.load(self.path) if self.path else shipped_judge()
        return self._net

    def __call__(self, obs: npt.NDArray[np.float32], x: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
        logits = np.where(mask != 0, self.net.forward(x)[0].astype(np.float64), -np.inf)
        if self.net.greedy:
            return logits.argmax(axis=1)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        cumulative = (probs / probs.sum(axis=1, keepdims=True)).cumsum(axis=1)
        picks = np.minimum((cumulative < self.rng.random((x.shape[0], 1))).sum(axis=1), NUM_ACTIONS - 1)
        return np.where(mask[np.arange(x.shape[0]), picks] != 0, picks, mask.argmax(axis=1))


def target_player(name: str, players: int, seed: int) -> str | Opponent:
    """The frozen player a best response is trained against: ``random``, ``basic``, ``heuristic``
    (the simulator's, played by the vector env), ``ppo`` (the shipped policy for ``players``
    seats, its greedy move), ``judge`` or ``judge:PATH`` (the judge's network, its moves sampled
    with a source seeded from ``seed``, or its most probable move where the weights are distilled,
    as the bot plays them; its exact last turn is not played: the vector env gives observations,
    not views).

    Raises:
        ArgumentError: for another name.
        PolicyError, JudgeWeightsError: for weights that cannot be read or do not fit.
    """
    if name in SIM_TARGETS:
        return name
    if name == "ppo":
        opponent: Opponent = _FrozenPolicy(players)
    elif name.partition(":")[0] == "judge":
        opponent = _FrozenJudge(name.partition(":")[2], seed)
    else:
        raise ArgumentError(f"unknown target {name!r}: give {', '.join(SIM_TARGETS)}, ppo, judge or judge:PATH")
    opponent(*_probe(players))  # read the weights now: a bad file is refused before any training
    return opponent


def _probe(players: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int8]]:
    """One empty decision (draw mode's first moves legal) to try an opponent on."""
    from thirtyone.judge.observation import layout_for

    mask = np.zeros((1, NUM_ACTIONS), dtype=np.int8)
    mask[0, 52:54] = 1
    return np.zeros((1, layout_for(players).size), np.float32), np.zeros((1, INPUT_SIZE), np.float32), mask


def _tables(
    preset: str, players: int, games: int, seed: int, teacher: bool, target: str
) -> EngineTables | VectorTables:
    from thirtyone.sim import cannot_play

    if not cannot_play(Rules.preset(preset)):
        opponent = target_player(target, players, seed) if target else None
        return VectorTables(preset, players, games, seed, teacher, opponent)
    if teacher or target:
        raise ArgumentError(f"imitation and best responses play on the compiled simulator, which cannot play {preset}")
    return EngineTables(preset, players, games, seed)


def _write_atomically(path: Path, write: Callable[[Any], None], mode: str = "wb") -> None:
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, mode) as file:
        write(file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def train(
    config: TrainConfig,
    out: str | os.PathLike[str],
    *,
    evaluate: Callable[[JudgeNet], dict[str, float]] | None = None,
    evaluate_every: int = 10,
    report: Callable[[dict[str, float]], None] | None = None,
    trainer: Trainer | None = None,
) -> JudgeNet:
    """Train for ``config.iterations`` iterations in folder ``out``: after each one the checkpoint
    (``checkpoint.pkl``), the weights (``judge.npz``) and the curve (``curve.json``) are written
    there (each replaced whole); a folder that holds a checkpoint of the same config goes on from
    it. ``evaluate`` (the current weights -> figures, such as the mini game's NashConv) runs every
    ``evaluate_every`` iterations and at the end; its figures join the curve. ``trainer`` (a
    :class:`Trainer` of ``config``, such as :mod:`thirtyone.agents.selfplay_ray`'s) plays and learns
    in place of a new one.

    Raises:
        ArgumentError: for bad settings, or a checkpoint of another config in ``out``.
    """
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(config) if trainer is None else trainer
    checkpoint = folder / "checkpoint.pkl"
    if checkpoint.exists():
        with open(checkpoint, "rb") as file:
            state = pickle.load(file)  # our own checkpoint, written by this function
        if _config_json(state["config"]) != _config_json(config):
            raise ArgumentError(f"{checkpoint} is a run of other settings: give another folder, or the same settings")
        trainer.restore(state)
    while trainer.iteration < config.iterations:
        figures = trainer.iterate()
        last = trainer.iteration == config.iterations
        if evaluate is not None and (trainer.iteration % evaluate_every == 0 or last):
            figures.update(evaluate(trainer.export()))
        if report is not None:
            report(figures)
        net = trainer.export()
        _write_atomically(folder / "checkpoint.pkl", lambda file: pickle.dump(trainer.state(), file))
        _write_atomically(folder / "judge.npz", net.save)
        _write_atomically(folder / "curve.json", lambda file: json.dump(trainer.curve, file, indent=1), "w")
    return trainer.export()
