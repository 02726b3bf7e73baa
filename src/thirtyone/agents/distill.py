"""Distilling the expert into the judge: the network learns the expert's value of every legal move.

The self-play trainer (:mod:`thirtyone.agents.selfplay`) learns a move's value from the one round
that followed it: a target whose noise (about a life) is twenty times the review's inaccuracy bar,
so that millions of decisions left the values 0.4–1.4 lives from exact ones (docs/judge.md). The
expert (:mod:`thirtyone.bots.expert`) answers the same question for every legal move at once, as the
mean over ``worlds`` sampled deals of the round played out: its values carry about
``1 / sqrt(worlds)`` of that noise. Learning them is *search distillation* (the expert iteration of
Anthony et al., "Thinking Fast and Slow with Deep Learning and Tree Search", NeurIPS 2017; the
search targets of Silver et al.'s AlphaZero): the network answers in a fraction of a millisecond what
the search answers in tens of milliseconds.

- :func:`expert_targets` plays games with the expert in every seat (a share ``explore`` of its
  moves drawn at random, so that moves it would not play are seen too) and keeps, at each decision
  with a choice, the judge's input, the legal ids, the expert's value of each (lives this round: the
  others' average loss minus the seat's own, R2.3; exact on a last turn after a knock, R6.2) and its
  move. With ``player`` another bot (the judge itself) chooses the moves played while the expert
  still values every decision: the decisions are then the ones the student meets, its own mistakes'
  positions among them, which the expert's own games seldom reach (DAgger: Ross, Gordon and
  Bagnell, "A Reduction of Imitation Learning and Structured Prediction to No-Regret Online
  Learning", AISTATS 2011).
- :func:`write_chunks` writes them as numbered files a run adds to and never rewrites (a killed
  run goes on from the next chunk); :func:`read_chunks` reads a folder of them back. A chunk keeps
  what only the expert could give (each decision's legal ids, values and move, and the move played)
  and how its games were dealt, not the judge's inputs: reading it deals the same games again and
  plays the kept moves, so that a chunk is 16-20 bytes a decision, small enough to keep in the
  repository (``data/``), and is read with the judge's inputs as the code of the day makes them.
- :func:`fit` (PyTorch, the ``train`` extra) fits the judge's value network to the values (squared
  error on the legal ids) and its policy to the expert's moves (cross-entropy), and returns numpy
  weights.

>>> targets = expert_targets("scat", 2, games=1, seed=3, worlds=2)
>>> targets.x.shape[1] == INPUT_SIZE, targets.values.shape[1], len(targets) == targets.best.shape[0]
(True, 79, True)
>>> bool(targets.mask[np.arange(len(targets)), targets.best].all())  # the expert's move is legal
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.action_ids import NUM_ACTIONS
from thirtyone.action_ids import action_id
from thirtyone.actions import Action
from thirtyone.actions import Look
from thirtyone.agents.suits import PERMUTATIONS
from thirtyone.agents.suits import relabel
from thirtyone.bots.expert import ExpertBot
from thirtyone.bots.making import make_bot
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError
from thirtyone.judge.lastturn import NotALastTurnError
from thirtyone.judge.lastturn import is_last_turn
from thirtyone.judge.lastturn import last_turn
from thirtyone.judge.network import INPUT_SIZE
from thirtyone.judge.network import JudgeNet
from thirtyone.judge.network import judge_inputs
from thirtyone.judge.network import with_move_features
from thirtyone.judge.observation import encode
from thirtyone.rules import Rules
from thirtyone.sim.rng import derive
from thirtyone.views import Phase
from thirtyone.views import PlayerView

__all__ = ["Targets", "expert_targets", "write_chunks", "read_chunks", "fit"]

_FIELDS = ("x", "mask", "values", "best", "players")


@dataclass
class Targets:
    """Decisions valued by the expert: judge inputs ``x [n, INPUT_SIZE]`` (float16), legal masks
    ``mask [n, 79]``, the expert's values ``values [n, 79]`` (lives; 0 where illegal), its move
    ``best [n]`` (an action id) and the table's ``players [n]``. Decisions that
    :func:`expert_targets` made also know the move played at each (``played [n]``, an action id)
    and how their games were dealt (``made``: its arguments), so that :meth:`save` can leave their
    inputs out."""

    x: npt.NDArray[np.float16]
    mask: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]
    best: npt.NDArray[np.int64]
    players: npt.NDArray[np.int64]
    played: npt.NDArray[np.int64] | None = None
    made: dict[str, Any] | None = None

    def __len__(self) -> int:
        return int(self.best.shape[0])

    @classmethod
    def join(cls, parts: Sequence[Targets]) -> Targets:
        """The decisions of ``parts`` together, in order (without ``played`` and ``made``)."""
        x, mask, values, best, players = (np.concatenate([getattr(part, name) for part in parts]) for name in _FIELDS)
        return cls(x, mask, values, best, players)

    def save(self, path: Path) -> None:
        """Write the decisions to ``path`` (``.npz``), whole or not at all (a temporary file renamed):
        with ``made``, what only the expert gave and how the games were dealt, without the inputs
        (:meth:`load` plays the games again for them); else every field."""
        partial = path.with_name(path.name + ".partial.npz")
        if self.made is not None and self.played is not None:
            fields: dict[str, Any] = {
                "made": np.array(json.dumps(self.made, sort_keys=True)),
                "legal": np.packbits(self.mask, axis=1),
                "legal_values": self.values[self.mask],
                "best": self.best.astype(np.uint8),
                "played": self.played.astype(np.uint8),
            }
        else:
            fields = {name: getattr(self, name) for name in _FIELDS}
        np.savez_compressed(partial, **fields)
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> Targets:
        """The decisions :meth:`save` wrote to ``path``: a file without inputs has its games dealt
        and played again for them, and inputs written before the judge's move features are
        completed with them (:func:`~thirtyone.judge.network.with_move_features`).

        Raises:
            ArgumentError: for a file that is not such decisions, or whose games no longer play
                as they were kept (named).
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                if "made" not in data:
                    x, *rest = (data[name] for name in _FIELDS)
                    return cls(with_move_features(x), *rest)
                made = json.loads(str(data["made"]))
                mask = np.unpackbits(data["legal"], axis=1, count=NUM_ACTIONS).astype(np.bool_)
                values = np.zeros(mask.shape, dtype=np.float32)
                values[mask] = data["legal_values"]
                best, played = data["best"].astype(np.int64), data["played"].astype(np.int64)
        except (OSError, KeyError, ValueError) as error:
            raise ArgumentError(f"{path}: not a file of the expert's values ({error})") from None
        x = _replayed(path, made, mask, played)
        players = np.full(len(best), made["players"], dtype=np.int64)
        return cls(x, mask, values, best, players, played, made)


def expert_targets(
    preset: str, players: int, games: int, seed: int, worlds: int, explore: float = 0.05, player: str | None = None
) -> Targets:
    """Play ``games`` games of ``preset`` at ``players`` seats with ``expert:WORLDS`` (no time cap:
    the same values for a seed on any machine) in every seat, a share ``explore`` of its moves drawn
    uniformly instead, and keep every decision with a choice (see the module). With ``player`` (a
    bot's name, as ``thirtyone bots`` lists them) that bot's moves are played instead of the
    expert's, the expert still valuing each decision and naming its move. The same arguments give
    the same decisions; the move played at each is ``played`` and the arguments ``made``, which
    :meth:`Targets.save` keeps in place of the inputs.

    Raises:
        ArgumentError: for fewer than 1 game or world, or ``explore`` outside [0, 1).
        UnknownBotError: for a ``player`` no bot answers to.
        RulesError: for a preset that cannot be dealt to ``players``.
    """
    if games < 1 or worlds < 1:
        raise ArgumentError(f"give at least 1 game and 1 world, not games={games!r}, worlds={worlds!r}")
    if not 0.0 <= explore < 1.0:
        raise ArgumentError(f"explore is a share from 0 to below 1, not {explore!r}")
    rules = Rules.preset(preset)
    expert = ExpertBot(derive(seed, 1), worlds=worlds, seconds=None)
    mover = None if player is None else make_bot(player, derive(seed, 3))
    chooser = random.Random(derive(seed, 2))
    rows: list[tuple[npt.NDArray[np.float32], dict[int, float], int, int]] = []

    def move(view: PlayerView) -> Action:
        legal = view.legal_actions
        valued, chosen = _valued(expert, view)
        played = chosen if mover is None else mover.choose(view, legal)
        played = chooser.choice(legal) if chooser.random() < explore else played
        rows.append((encode(view), valued, action_id(view, chosen), action_id(view, played)))
        return played

    _play(rules, players, games, seed, move)
    count = len(rows)
    mask = np.zeros((count, NUM_ACTIONS), dtype=np.bool_)
    values = np.zeros((count, NUM_ACTIONS), dtype=np.float32)
    for index, (_obs, valued, _best, _played) in enumerate(rows):
        ids = list(valued)
        mask[index, ids] = True
        values[index, ids] = [valued[number] for number in ids]
    best = np.array([row[2] for row in rows], dtype=np.int64)
    made = {"preset": preset, "players": players, "games": games, "seed": seed, "worlds": worlds}
    made |= {"explore": explore, "player": player}
    return Targets(
        _inputs([row[0] for row in rows], players, rules),
        mask,
        values,
        best,
        np.full(count, players, dtype=np.int64),
        np.array([row[3] for row in rows], dtype=np.int64),
        made,
    )


def _play(rules: Rules, players: int, games: int, seed: int, move: Callable[[PlayerView], Action]) -> None:
    """Deal the ``games`` games of :func:`expert_targets`'s ``seed`` and play them to their end, each
    decision with a choice by ``move`` (a look, or a single legal action, as the expert plays them)."""
    for number in range(games):
        game = Game(rules, players, seed=derive(seed, 100 + number))
        while (seat := game.current_seat) is not None:
            view = game.view(seat)
            legal = view.legal_actions
            if view.phase is Phase.LOOK or len(legal) == 1:
                game.apply(Look() if view.phase is Phase.LOOK else legal[0])
                continue
            game.apply(move(view))


def _replayed(
    path: Path, made: dict[str, Any], mask: npt.NDArray[np.bool_], played: npt.NDArray[np.int64]
) -> npt.NDArray[np.float16]:
    """The judge's inputs at the decisions of a chunk kept without them: its games dealt again and
    played by the kept moves, each decision's legal ids checked against the kept ones.

    Raises:
        ArgumentError: where the games no longer play as they were kept (the rules or the engine
            changed since the chunk was written).
    """
    rules = Rules.preset(made["preset"])
    seen: list[npt.NDArray[np.float32]] = []

    def move(view: PlayerView) -> Action:
        index = len(seen)
        legal = {action_id(view, action): action for action in view.legal_actions}
        if index >= len(played) or sorted(legal) != list(np.flatnonzero(mask[index])):
            raise ArgumentError(f"{path}: decision {index} no longer plays as it was kept: write the chunk again")
        seen.append(encode(view))
        return legal[int(played[index])]

    _play(rules, made["players"], made["games"], made["seed"], move)
    if len(seen) != len(played):
        raise ArgumentError(f"{path}: its games end after {len(seen)} of its {len(played)} decisions: write it again")
    return _inputs(seen, made["players"], rules)


def _inputs(observations: list[npt.NDArray[np.float32]], players: int, rules: Rules) -> npt.NDArray[np.float16]:
    """The judge's inputs ``[n, INPUT_SIZE]`` (float16) of ``n`` observations at one table."""
    if not observations:
        return np.zeros((0, INPUT_SIZE), dtype=np.float16)
    return judge_inputs(np.stack(observations), players, rules).astype(np.float16)


def _valued(expert: ExpertBot, view: PlayerView) -> tuple[dict[int, float], Action]:
    """The expert's value of each legal move of ``view`` by action id, and its move: a last turn
    after a knock counted exactly as the expert counts it (without the belief's reads of the
    opponents, which only its explanations show), any other decision by its search."""
    if is_last_turn(view):
        try:
            turn = last_turn(view)
        except NotALastTurnError:
            pass  # a reshuffle (R4.3) or the turn limit (R6.7) could cut it short: the search values it
        else:
            return {action_id(view, move.action): move.value for move in turn.moves}, turn.best.action
    analysis = expert.analyse(view)
    return {action_id(view, estimate.action): estimate.mean for estimate in analysis.estimates}, analysis.best


def write_chunks(
    folder: str | Path,
    tables: Sequence[tuple[str, int]],
    chunks: int,
    games: int,
    worlds: int,
    seed: int = 1,
    explore: float = 0.05,
    player: str | None = None,
) -> list[Path]:
    """Write ``chunks`` chunks of :func:`expert_targets` (``games`` games each, its ``player``
    choosing the moves) for every table ``(preset, players)`` into ``folder``, as
    ``PRESET-PLAYERS-worldsW-NNNN.npz`` (``PRESET-PLAYERS-worldsW-by-PLAYER-NNNN.npz`` with a
    ``player``, its ``:`` written ``_``); a chunk already
    there is kept (a killed run goes on where it stopped; chunk ``n`` of a table always holds the
    same games for a seed). Returns the chunks' paths, written or kept, in order.

    Raises:
        ArgumentError: as :func:`expert_targets`, or for fewer than 1 chunk.
    """
    if chunks < 1:
        raise ArgumentError(f"give at least 1 chunk, not {chunks!r}")
    where = Path(folder)
    where.mkdir(parents=True, exist_ok=True)
    paths = []
    by = "" if player is None else f"-by-{player.replace(':', '_').replace('/', '_')}"
    for number in range(chunks):
        for table, (preset, players) in enumerate(tables):
            path = where / f"{preset}-{players}-worlds{worlds}{by}-{number:04d}.npz"
            if not path.exists():
                chunk_seed = derive(derive(seed, table), number)
                expert_targets(preset, players, games, chunk_seed, worlds, explore, player).save(path)
            paths.append(path)
    return paths


def read_chunks(folder: str | Path) -> Targets:
    """Every chunk :func:`write_chunks` wrote into ``folder``, joined in the order of their names.

    Raises:
        ArgumentError: for a folder without chunks, or a file that is not one.
    """
    paths = sorted(path for path in Path(folder).glob("*.npz") if not path.name.endswith(".partial.npz"))
    if not paths:
        raise ArgumentError(f"{folder}: no chunks of the expert's values (write_chunks writes them)")
    return Targets.join([Targets.load(path) for path in paths])


def fit(
    targets: Targets,
    *,
    init: JudgeNet | None = None,
    presets: Sequence[str] = ("scat", "widow", "schwimmen"),
    hidden: Sequence[int] = (256, 256),
    epochs: int = 10,
    lr: float = 1e-3,
    batch: int = 512,
    held_out: float = 0.1,
    seed: int = 1,
    suits: bool = False,
    repeat: npt.NDArray[np.int64] | None = None,
    regret: float = 0.0,
) -> tuple[JudgeNet, list[dict[str, float]]]:
    """Fit the judge's networks (from ``init``'s weights, or new ones of ``hidden`` layers, made for
    ``presets`` and the table sizes of ``targets``) to
    ``targets``: the values by squared error on the legal ids, the policy by cross-entropy on the
    expert's move. A share ``held_out`` of the decisions (drawn with ``seed``) is kept out and
    measured after each epoch: the curve's entries give ``value_rmse`` (lives, every legal move),
    ``value_agrees`` and ``policy_agrees`` (the share of held-out decisions where the values' best
    move, and the policy's, is the expert's move) and the training losses. With ``suits`` each
    training batch is shown with its suits relabelled by one of the 24 relabellings, drawn with
    ``seed`` (:mod:`thirtyone.agents.suits`: the same decisions of other deals, with the same
    values); the held-out decisions are measured as they were played. ``repeat`` (one count a
    decision, default 1) shows each training decision that many times an epoch: a few decisions
    valued with more worlds weigh more than many noisier ones; the held-out decisions shown more
    than once are then also measured apart (the same figures, prefixed ``repeated_``). ``regret``
    adds to the policy's loss that many times its expected regret by the expert's values, the
    lives its moves give away against the expert's move (``sum(p(a) * (v(best) - v(a)))``): the
    cross-entropy counts every other move as wrong alike, this counts what each one costs, so that
    a costly knock weighs more than a choice between two equal discards. The held-out figures then
    include ``policy_regret``, the lives the policy's most probable move gives away a decision by
    the expert's values.

    Raises:
        ArgumentError: for fewer than 10 decisions, settings out of range, ``repeat`` not one count
            of at least 1 a decision, or ``suits`` for the mini game (its deck is not the same
            under every relabelling).
        ImportError: without PyTorch (the ``train`` extra).
    """
    import torch

    from thirtyone.agents.selfplay import TorchJudge
    from thirtyone.agents.selfplay import masked_log_softmax

    if len(targets) < 10:
        raise ArgumentError(f"give at least 10 decisions to fit, not {len(targets)}")
    if epochs < 1 or batch < 1 or not 0.0 <= held_out < 1.0 or not lr > 0 or not regret >= 0:
        raise ArgumentError(
            f"bad settings: epochs={epochs}, batch={batch}, held_out={held_out}, lr={lr}, regret={regret}"
        )
    if suits and "mini" in presets:
        raise ArgumentError("the mini game's eight cards are of two suits only: fit it without suits")
    times = np.ones(len(targets), dtype=np.int64) if repeat is None else np.asarray(repeat, dtype=np.int64)
    if times.shape != (len(targets),) or (times < 1).any():
        raise ArgumentError(f"give one repeat count of at least 1 for each of the {len(targets)} decisions")
    torch.manual_seed(seed)
    order = np.random.default_rng(seed).permutation(len(targets))
    cut = round(held_out * len(targets))
    test, train = order[:cut], np.repeat(order[cut:], times[order[cut:]])
    repeated = test[times[test] > 1]
    model = TorchJudge(hidden if init is None else [weights.shape[1] for weights, _ in init.value[:-1]])
    if init is not None:
        model.take(init)
    value_opt = torch.optim.Adam(model.value.parameters(), lr=lr)
    policy_opt = torch.optim.Adam(model.policy.parameters(), lr=lr)
    curve: list[dict[str, float]] = []
    relabelling = np.random.default_rng([seed, 24]) if suits else None
    held = _tensors(targets, test, None)
    held_repeated = _tensors(targets, repeated, None) if len(repeated) else None
    for epoch in range(1, epochs + 1):
        value_loss = policy_loss = 0.0
        shuffled = train[np.random.default_rng(seed + epoch).permutation(len(train))]
        for start in range(0, len(shuffled), batch):
            rows = shuffled[start : start + batch]
            inputs, legal, wanted, move = _tensors(targets, rows, relabelling)
            error = (model.value(inputs) - wanted).masked_fill(~legal, 0.0)
            loss = (error**2).sum() / legal.sum()
            value_opt.zero_grad()
            torch.autograd.backward(loss)
            value_opt.step()
            value_loss += loss.item() * len(rows)
            logp = masked_log_softmax(model.policy(inputs), legal)
            loss = -logp.gather(1, move[:, None]).mean()
            if regret:
                given_away = (wanted.gather(1, move[:, None]) - wanted).masked_fill(~legal, 0.0)
                loss = loss + regret * (logp.exp().masked_fill(~legal, 0.0) * given_away).sum(dim=1).mean()
            policy_opt.zero_grad()
            torch.autograd.backward(loss)
            policy_opt.step()
            policy_loss += loss.item() * len(rows)
        figures = {"epoch": float(epoch), "value_loss": value_loss / len(train)}
        figures["policy_loss"] = policy_loss / len(train)
        if cut:
            figures.update(_measure(model, *held))
        if held_repeated is not None:
            figures.update({f"repeated_{name}": value for name, value in _measure(model, *held_repeated).items()})
        curve.append(figures)
    distilled: dict[str, Any] = {"decisions": len(targets), "epochs": epochs, "lr": lr, "batch": batch, "suits": suits}
    if regret:
        distilled["regret"] = regret
    if repeat is not None:
        distilled["repeated"] = {"decisions": int((times > 1).sum()), "times": int(times.max())}
    meta: dict[str, Any] = {
        "presets": sorted(presets),
        "players": sorted({int(n) for n in targets.players}),
        "distilled": distilled,
    }
    if init is not None:
        earlier = init.meta.get("distilled")  # a fit of distilled weights keeps the fits before it
        meta = {**init.meta, "distilled": {**meta["distilled"], **({"after": earlier} if earlier else {})}}
        meta.pop("path", None)
        meta.pop("value_check", None)  # the values changed: check them again
    return model.export(meta), curve


def _tensors(targets: Targets, rows: npt.NDArray[np.int64], rng: np.random.Generator | None) -> tuple[Any, ...]:
    """Decisions ``rows`` of ``targets`` as the tensors :func:`fit` learns from (inputs as float32,
    made a batch at a time: the whole set's float32 copy would double the fit's memory), with their
    suits relabelled by a relabelling ``rng`` draws when one is given."""
    import torch

    x, mask, values, best = targets.x[rows], targets.mask[rows], targets.values[rows], targets.best[rows]
    if rng is not None:
        x, mask, values, best = relabel(x, mask, values, best, PERMUTATIONS[int(rng.integers(len(PERMUTATIONS)))])
    return (
        torch.from_numpy(x.astype(np.float32)),
        torch.from_numpy(mask),
        torch.from_numpy(values),
        torch.from_numpy(best),
    )


def _measure(model: Any, x: Any, mask: Any, values: Any, best: Any) -> dict[str, float]:
    import torch

    with torch.no_grad():
        q = model.value(x)
        error = (q - values).masked_fill(~mask, 0.0)
        rmse = float(torch.sqrt((error**2).sum() / mask.sum()))
        value_best = q.masked_fill(~mask, -torch.inf).argmax(dim=1)
        policy_best = model.policy(x).masked_fill(~mask, -torch.inf).argmax(dim=1)
        given_away = values.gather(1, best[:, None]) - values.gather(1, policy_best[:, None])
    return {
        "value_rmse": rmse,
        "value_agrees": float((value_best == best).float().mean()),
        "policy_agrees": float((policy_best == best).float().mean()),
        "policy_regret": float(given_away.mean()),
    }
