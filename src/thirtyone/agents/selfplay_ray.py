"""The judge's self-play on a Ray cluster (the ``distributed`` and ``train`` extras): actors play,
one learner learns.

The run's tables (:attr:`TrainConfig.tables <thirtyone.agents.selfplay.TrainConfig>`) are split
among ``actors`` Ray actors in order, each taking a run of them: actor 0 the first ones. Every
iteration the learner (this process, a :class:`RayTrainer`) sends the current network's weights to
every actor; each plays its tables' share of the decisions with the policy the single-process
trainer would play (:func:`~thirtyone.agents.selfplay.play_tables` with
:func:`~thirtyone.agents.selfplay.network_policy`: sampled for ``mmd``, greedy on the values for
``dmc``, the heuristic while imitating) and its own random source (seeded from the run's seed, the
number of actors, its number and the iteration it starts at); the learner joins their
decisions in actor order and learns (:meth:`Trainer.learn <thirtyone.agents.selfplay.Trainer.learn>`).
A run is therefore the same for the same seed and number of actors, wherever the actors run.

Each iteration's checkpoint holds the actors' tables and random sources, fetched from them, so a
killed run goes on exactly (with the same number of actors; with another, the tables go on as they
were and each actor's source is seeded anew). Every node needs this version of ``thirtyone`` and
the ``train`` extra.
"""

from __future__ import annotations

import itertools
import logging
import os
import pickle
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from thirtyone.agents.selfplay import Batch
from thirtyone.agents.selfplay import EngineTables
from thirtyone.agents.selfplay import TorchJudge
from thirtyone.agents.selfplay import TrainConfig
from thirtyone.agents.selfplay import Trainer
from thirtyone.agents.selfplay import VectorTables
from thirtyone.agents.selfplay import network_policy
from thirtyone.agents.selfplay import play_tables
from thirtyone.agents.selfplay import train
from thirtyone.checks import check_ray_address
from thirtyone.errors import ArgumentError
from thirtyone.errors import ThirtyOneError
from thirtyone.judge.network import JudgeNet
from thirtyone.text import error_line

__all__ = ["RayClusterError", "RayTrainer", "connect", "train_on_ray"]

Tables = EngineTables | VectorTables


class RayClusterError(ThirtyOneError):
    """Ray is missing, its address cannot be reached, or the cluster failed during a run."""


def connect(address: str, actors: int) -> tuple[Any, bool]:
    """Ray, connected to the cluster at ``address`` (``host:port``, ``ray://host:port``, ``auto``:
    the one started on this machine, or ``local``: a Ray started here for the run with a CPU for
    each of ``actors``), and whether it was started here (to be shut down). In a process that has
    already called ``ray.init``, that Ray is used.

    Raises:
        RayClusterError: Ray is not installed, or the address cannot be reached.
    """
    try:
        import ray
    except ImportError:
        raise RayClusterError("training on Ray needs Ray: pip install 'thirtyone[distributed]'") from None
    check_ray_address(address, "--ray-address", RayClusterError)
    if ray.is_initialized():
        return ray, False
    try:
        if address == "local":
            cpus = max(actors, os.cpu_count() or 1)
            ray.init(address="local", num_cpus=cpus, include_dashboard=False, logging_level=logging.ERROR)
        else:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    except Exception as error:
        raise RayClusterError(f"cannot connect to Ray at {address}: {error_line(error)}") from None
    return ray, True


def _writable(value: Any) -> Any:
    """A copy of ``value`` whose arrays can be written: Ray hands numpy arrays over read-only, and
    play writes the tables' (and PyTorch warns of a tensor made from a read-only array)."""
    return pickle.loads(pickle.dumps(value))


class _Actor:
    """Plays a run of the tables (a Ray actor): its tables and random source live here."""

    def __init__(self, config: TrainConfig, tables: list[Tables], rng: Mapping[str, Any]) -> None:
        torch.set_num_threads(config.threads)
        self.config = config
        self.model = TorchJudge(config.hidden)
        self.rng = np.random.default_rng()
        self.take(tables, rng)

    def take(self, tables: list[Tables], rng: Mapping[str, Any]) -> None:
        """Play on from ``tables`` and the random source's state ``rng`` (a resumed run)."""
        self.tables = _writable(tables)
        self.rng.bit_generator.state = rng

    def play(self, net: JudgeNet | None, share: int) -> Batch:
        """``share`` decisions of each table with the policy of ``net``'s weights (``None``: the heuristic)."""
        policy = None
        if net is not None:
            self.model.take(_writable(net))
            policy = network_policy(self.model, self.config.method, self.rng)
        return play_tables(self.tables, policy, share, self.config.explore, self.rng)

    def state(self) -> tuple[list[Tables], Mapping[str, Any]]:
        """The tables in play and the random source's state (for the checkpoint)."""
        return self.tables, self.rng.bit_generator.state


def _check_actors(config: TrainConfig, actors: int) -> None:
    if isinstance(actors, bool) or not isinstance(actors, int) or not 1 <= actors <= len(config.tables):
        raise ArgumentError(f"actors is 1 to the number of tables ({len(config.tables)}), not {actors!r}")


def _runs(tables: Sequence[Tables], actors: int) -> list[list[Tables]]:
    """``tables`` split into ``actors`` runs in order, the first ones a table longer where they do not share evenly."""
    bounds = np.linspace(0, len(tables), actors + 1).round().astype(int)
    return [list(tables[a:b]) for a, b in itertools.pairwise(bounds)]


def _source(seed: int, actors: int, actor: int, iteration: int) -> Mapping[str, Any]:
    """The state of actor ``actor``'s random source when it starts playing at ``iteration``."""
    state: Mapping[str, Any] = np.random.default_rng([seed, actors, actor, iteration]).bit_generator.state
    return state


class RayTrainer(Trainer):
    """A :class:`~thirtyone.agents.selfplay.Trainer` whose tables are played by ``actors`` Ray
    actors (see the module); ``ray`` is the connected module (:func:`connect`).

    Raises:
        ArgumentError: for bad settings, or ``actors`` outside 1 to the number of tables.
    """

    def __init__(self, config: TrainConfig, ray: Any, actors: int) -> None:
        _check_actors(config, actors)
        super().__init__(config)
        self.ray = ray
        remote = ray.remote(num_cpus=1)(_Actor)
        self.actors = [
            remote.remote(config, run, _source(config.seed, actors, number, 0))
            for number, run in enumerate(_runs(self.tables, actors))
        ]

    def play(self) -> Batch:
        """One iteration's decisions: every actor's, joined in actor order."""
        net = None if self.imitating else self.model.export({})
        weights = self.ray.put(net)
        return Batch.join(self.ray.get([actor.play.remote(weights, self.share) for actor in self.actors]))

    def state(self) -> dict[str, Any]:
        """:meth:`Trainer.state`, with the actors' tables and their random sources (``"actors"``)."""
        held = self.ray.get([actor.state.remote() for actor in self.actors])
        self.tables = [tables for run, _ in held for tables in run]
        return {**super().state(), "actors": [rng for _, rng in held]}

    def restore(self, state: dict[str, Any]) -> None:
        """Take a :meth:`state` back (or a single process's: each actor's source then seeded anew)."""
        super().restore(state)
        count = len(self.actors)
        sources = state.get("actors") or []
        if len(sources) != count:
            sources = [_source(self.config.seed, count, number, self.iteration) for number in range(count)]
        runs = _runs(self.tables, count)
        self.ray.get([actor.take.remote(run, rng) for actor, run, rng in zip(self.actors, runs, sources, strict=True)])

    def close(self) -> None:
        """Stop the actors."""
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []


def train_on_ray(
    config: TrainConfig, out: str | os.PathLike[str], address: str, actors: int, **options: Any
) -> JudgeNet:
    """:func:`~thirtyone.agents.selfplay.train` (same folder, checkpoints and ``options``) with the
    self-play spread over ``actors`` actors on the Ray cluster at ``address`` (:func:`connect`);
    a Ray started here is shut down at the end.

    Raises:
        ArgumentError: for bad settings, a checkpoint of another config, or too many actors.
        RayClusterError: Ray missing, an address that cannot be reached, too few CPUs on the
            cluster for the actors, or the cluster failing mid-run (the last checkpoint is kept).
    """
    config.check()
    _check_actors(config, actors)
    ray, started = connect(address, actors)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < actors:
            raise RayClusterError(f"the Ray cluster at {address} has {cpus} CPUs for {actors} actors: give fewer")
        trainer = RayTrainer(config, ray, actors)
        try:
            return train(config, out, trainer=trainer, **options)
        except ray.exceptions.RayError as error:
            raise RayClusterError(f"the Ray cluster failed: {error_line(error)}") from None
        finally:
            trainer.close()
    finally:
        if started:
            ray.shutdown()
