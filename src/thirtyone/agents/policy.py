"""A small trained policy as a bot: a numpy multilayer perceptron over the observation (and a few
card sums derived from it), its weights in a small ``.npz`` file, played as the bot ``policy:PATH``
(``thirtyone arena --bots policy:runs/scat.npz,basic``; :func:`make_bot` is the factory the
entry point ``policy`` names). ``examples/train.py`` trains one on the vector env.

The network: ``features(obs)`` (the observation of :mod:`~thirtyone.agents.observation` and
:data:`EXTRA` derived numbers), one hidden layer of ReLUs, a logit per action id; the bot plays
the legal id of the highest logit (deterministic). Plain numpy, so that a trained policy plays
wherever the game does, without a deep-learning framework.

>>> import numpy as np
>>> policy = Policy.initial(players=4, hidden=8, seed=1)
>>> obs = np.zeros((2, policy.obs_size), dtype=np.float32)
>>> mask = np.zeros((2, 79), dtype=np.int8); mask[:, [52, 53]] = 1
>>> policy.act(obs, mask).tolist() in ([52, 52], [52, 53], [53, 52], [53, 53])
True
>>> make_bot(1, "no/such/file.npz")
Traceback (most recent call last):
...
thirtyone.agents.policy.PolicyError: policy 'no/such/file.npz': no such file
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from thirtyone.actions import Action
from thirtyone.agents.action_ids import NUM_ACTIONS
from thirtyone.agents.action_ids import action_from_id
from thirtyone.agents.action_ids import legal_mask
from thirtyone.agents.observation import encode
from thirtyone.agents.observation import layout_for
from thirtyone.bots import UnknownBotError
from thirtyone.judge.network import CARD_SUMS
from thirtyone.judge.network import card_sums
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.views import PlayerView

__all__ = ["FORMAT", "EXTRA", "Policy", "PolicyBot", "PolicyError", "features", "make_bot"]

FORMAT = "thirtyone-policy-1"
"""The ``format`` entry of a policy file (a file of another format is refused)."""

EXTRA = CARD_SUMS
"""Derived features after the observation: per suit the points of the hand, of the hand with the
pile's top card and of the hand with the widow (each / 31), and the best suit of the first two."""

Floats = npt.NDArray[np.float32]

_MAKE_ONE = "make one with python examples/train.py --out FILE.npz (or Policy.save)"
"""How to make a policy file, for the errors of a file that is not one."""


class _OtherShapeError(ValueError):
    """Weights made for another observation than their table size's."""


class PolicyError(UnknownBotError):
    """A policy file that cannot be read or is not a policy (naming the file and what is wrong),
    or a table the policy was not trained for."""


def features(obs: Floats, players: int) -> Floats:
    """The network's input for observations ``obs`` (``[batch, size]`` of a ``players``-seat
    table): the observation and :data:`EXTRA` card sums derived from it (``[batch, size + 14]``,
    :func:`thirtyone.judge.network.card_sums`)."""
    return np.concatenate([obs, card_sums(obs, layout_for(players))], axis=1, dtype=np.float32)


@dataclass
class Policy:
    """The network's weights (``w1 [inputs, hidden]``, ``b1``, ``w2 [hidden, 79]``, ``b2``) for
    ``players``-seat tables, trained on ``preset`` (a note: it plays any rules' legal moves)."""

    w1: Floats
    b1: Floats
    w2: Floats
    b2: Floats
    players: int
    preset: str = ""

    @property
    def obs_size(self) -> int:
        """Length of the observation it takes."""
        return layout_for(self.players).size

    @classmethod
    def initial(cls, players: int = 4, hidden: int = 128, seed: int = 0, preset: str = "") -> Policy:
        """Random starting weights (He initialisation, zero biases)."""
        rng = np.random.default_rng(seed)
        inputs = layout_for(players).size + EXTRA
        w1 = rng.normal(0.0, np.sqrt(2.0 / inputs), (inputs, hidden)).astype(np.float32)
        w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), (hidden, NUM_ACTIONS)).astype(np.float32)
        zeros = np.zeros
        return cls(w1, zeros(hidden, np.float32), w2, zeros(NUM_ACTIONS, np.float32), players, preset)

    def forward(self, x: Floats) -> tuple[Floats, Floats]:
        """Hidden activations and logits (``[batch, 79]``) of features ``x``."""
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return hidden, hidden @ self.w2 + self.b2

    def logits(self, obs: Floats) -> Floats:
        """Logits of observations ``obs`` (``[batch, size]``), illegal ids not yet masked."""
        return self.forward(features(obs, self.players))[1]

    def act(self, obs: Floats, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The legal id of the highest logit for each row (``mask[batch, 79]``, 1 legal)."""
        scores = np.where(mask != 0, self.logits(obs), -np.inf)
        chosen: npt.NDArray[np.int64] = scores.argmax(axis=1).astype(np.int64)
        return chosen

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weights to ``path`` (``.npz``, float32: about 0.4 MB for 128 hidden units)."""
        np.savez_compressed(
            path,
            format=np.array(FORMAT),
            players=np.array(self.players),
            preset=np.array(self.preset),
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Policy:
        """The policy saved at ``path``.

        Raises:
            PolicyError: for a missing or unreadable file, one that is not a ``.npz`` of this
                format (a text file, numpy's pickled arrays: one line saying how to make a policy
                file, never numpy's advice), or weights of the wrong shapes (the message names
                the file).
        """
        where = f"policy {str(path)!r}"
        file = Path(path)
        if not file.exists():
            raise PolicyError(f"{where}: no such file")
        if not file.is_file():
            raise PolicyError(f"{where}: not a file")
        not_one = PolicyError(f"{where}: not a policy file saved by thirtyone (a .npz); {_MAKE_ONE}")
        try:
            with np.load(file, allow_pickle=False) as data:  # never unpickle: a file may come from anyone
                entries = {name: data[name] for name in data.files}
        except OSError as error:  # (numpy says "failed to interpret" with an OSError of no errno)
            if error.errno is None:
                raise not_one from None
            raise PolicyError(f"{where}: cannot read it: {error.strerror or error}") from None
        except (ValueError, EOFError, zipfile.BadZipFile):
            raise not_one from None  # numpy's words (allow_pickle, "not a zip file") would only mislead
        if "policy.pth" in entries or ("data" in entries and "format" not in entries):
            raise PolicyError(
                f"{where}: a Stable-Baselines3 model, not a policy's weights; examples/train_ppo.py saves its "
                "policy as a .npz that plays here (--out FILE.npz)"
            )
        if str(entries.get("format", "")) != FORMAT:
            raise PolicyError(f"{where}: not a policy file of format {FORMAT!r} (a .npz of other arrays); {_MAKE_ONE}")
        try:
            return cls._checked(entries)
        except _OtherShapeError as error:
            raise PolicyError(f"{where}: {error}") from None
        except (KeyError, TypeError, ValueError) as error:
            raise PolicyError(f"{where}: broken weights ({error})") from None

    @classmethod
    def _checked(cls, entries: dict[str, Any]) -> Policy:
        players = int(entries["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players {players}")
        w1, b1, w2, b2 = (np.asarray(entries[name], dtype=np.float32) for name in ("w1", "b1", "w2", "b2"))
        hidden = b1.shape[0] if b1.ndim == 1 else -1
        size = layout_for(players).size
        if w1.ndim == 2 and w1.shape[0] != size + EXTRA:
            raise _OtherShapeError(
                f"weights for observations of {w1.shape[0] - EXTRA} entries, not {size} (a {players}-player "
                f"table's; w1 takes the observation and {EXTRA} card sums)"
            )
        shapes = {"w1": (layout_for(players).size + EXTRA, hidden), "b1": (hidden,), "w2": (hidden, NUM_ACTIONS)}
        shapes["b2"] = (NUM_ACTIONS,)
        for name, array in zip(("w1", "b1", "w2", "b2"), (w1, b1, w2, b2), strict=True):
            if hidden < 1 or array.shape != shapes[name]:
                raise ValueError(f"{name} has shape {array.shape}, not {shapes[name]}")
            if not np.isfinite(array).all():
                raise ValueError(f"{name} is not finite")
        return cls(w1, b1, w2, b2, players, str(entries.get("preset", "")))


class PolicyBot:
    """A :class:`Policy` as a bot: it encodes its view, masks the illegal ids and plays the
    highest logit's action (deterministic: the seed is not used)."""

    name = "policy"

    def __init__(self, policy: Policy, path: str = "") -> None:
        self.policy = policy
        self.path = path

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The policy's move.

        Raises:
            PolicyError: at a table of another number of players than the policy's.
        """
        if view.players != self.policy.players:
            raise PolicyError(
                f"policy {self.path!r} plays {self.policy.players}-player tables, not {view.players}-player ones"
            )
        obs = encode(view)[None, :]
        number = int(self.policy.act(obs, legal_mask(view)[None, :])[0])
        return action_from_id(view, number)

    def __repr__(self) -> str:
        return f"<PolicyBot {self.path}>"


def make_bot(seed: int | None = None, path: str | None = None) -> PolicyBot:
    """The factory of ``policy:PATH`` (entry point ``thirtyone.bots``): the policy saved at ``PATH``.

    Raises:
        PolicyError: without a path, or for a file :meth:`Policy.load` refuses.
    """
    del seed  # the policy plays deterministically
    if not path:
        raise PolicyError("bot 'policy' needs the path of its weights: policy:PATH (a .npz of examples/train.py)")
    return PolicyBot(Policy.load(path), path)
