"""Thirty-One as an OpenSpiel game, ``python_thirtyone`` (``pip install 'thirtyone[openspiel]'``).

>>> import pyspiel
>>> import thirtyone.agents.openspiel  # registers the game
>>> game = pyspiel.load_game("python_thirtyone", {"players": 3, "preset": "widow"})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
(79, 52, 3)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # the first dealer
(True, 3)

Parameters: ``players`` (2–9, default 4), ``preset`` (``scat``), ``lives`` (0: the preset's),
``options`` (more rule options as text, ``"three_of_a_kind:30.5+throw_down:on"``: OpenSpiel's
game strings keep ``=`` and ``,`` for themselves), ``win_reward``
(``False``) and ``max_rounds`` (0: :func:`~thirtyone.agents.config.default_max_rounds`).

Chance is explicit (``EXPLICIT_STOCHASTIC``), as the engine's own chance steps are
(``Game(..., explicit_chance=True)``): the first dealer (one chance node, uniform over the seats),
each round's deck order (one chance node per card, top card first, uniform over the cards not yet
placed; the last card is placed without a node) and each reshuffle of the discard pile (R4.3, the
same, over the pile's cards but its top). The move that ends a round ends it — its rewards are
paid at that move — and the chance nodes of the next deal follow it; no player sees an order
except through the cards dealt and drawn.

- Actions are the ids of :mod:`thirtyone.agents.action_ids` (79, the legal ones sorted);
  chance outcomes are card indexes (0–51) or, for the dealer, seats. A refused move leaves the
  state as it was: an illegal id raises the engine's ``IllegalActionError`` (``ActionError``
  outside 0–78), a chance outcome ``chance_outcomes()`` does not offer ``ArgumentError``.
- Rewards (``REWARDS``): paid by the move that ends a round (or by the deal's last chance node
  when a 31 on the deal ends it, R5.2), and ``rewards()`` keeps them through the chance nodes
  that follow until the next move, as OpenSpiel reads them: the others' mean lives lost minus one's own
  (:mod:`thirtyone.agents.table`); the game is ``ZERO_SUM``, and ``GENERAL_SUM`` with
  ``win_reward`` (-1 when put out, +1 for the winner). ``returns()`` add them up.
- Length: at most ``max_rounds`` rounds of at most ``max_turns`` turns (R6.7) each, so
  ``max_game_length = max_rounds * (2 * max_turns + players + 1)`` decisions; a game not over
  after ``max_rounds`` rounds ends there (truncated).
- Strings and tensors for each player: the observation tensor of :mod:`thirtyone.agents.observation`
  (the information-state tensor is the same tensor: it summarises the round's history — the pile,
  each seat's discards and known cards — but does not recall earlier rounds); the observation
  string is that view in words; the information-state string adds every event of the game as
  that player saw it (perfect recall).
- ``resample_from_infostate(player, sampler)``: a state ``player`` (any player, to move or not)
  cannot tell from this one — the same information-state string and tensor for that player —,
  the cards it has not seen dealt at random consistently with what it saw (the expert bot's
  sampler, :func:`thirtyone.bots.expert.sample_position`); its history starts at this moment (it
  is for searches, such as ISMCTS, not for replaying).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as error:  # the openspiel extra is not installed: say how to install it
    kind = ModuleNotFoundError if isinstance(error, ModuleNotFoundError) else ImportError
    raise kind(f"{error} (pip install 'thirtyone[openspiel]')", name=error.name) from None

from thirtyone.agents.action_ids import NUM_ACTIONS, action_from_id, describe_id, legal_ids
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import encode, layout_for
from thirtyone.agents.table import Ledger
from thirtyone.cards import Card
from thirtyone.chance import ChanceStep, ScriptedChance
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError
from thirtyone.position import Position
from thirtyone.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS
from thirtyone.views import PlayerView

__all__ = ["SHORT_NAME", "ThirtyOneGame", "ThirtyOneState", "config_from_params", "state_from_position"]

SHORT_NAME = "python_thirtyone"

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "preset": "scat",
    "lives": 0,
    "options": "",
    "win_reward": False,
    "max_rounds": 0,
}


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Thirty-One (Scat, Blitz, Schwimmen)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def config_from_params(params: dict[str, Any]) -> EnvConfig:
    """The :class:`~thirtyone.agents.config.EnvConfig` of the game's parameters (see the module).

    Raises:
        ArgumentError: for an unknown parameter or option, or a bad value.
        RulesError: for a bad preset or rule option.
    """
    for name in params:
        if name not in _DEFAULTS:
            raise ArgumentError(f"unknown parameter {name!r} of {SHORT_NAME}: give {', '.join(_DEFAULTS)}")
    values = {**_DEFAULTS, **params}
    options: dict[str, Any] = {}
    text = str(values["options"]).strip()
    for part in text.replace("+", " ").split():
        name, colon, value = part.partition(":")
        if not colon or name not in OPTIONS:
            raise ArgumentError(
                f"options are rule options as name:value separated by spaces or '+' "
                f"(three_of_a_kind:30.5+throw_down:on), not {part!r}"
            )
        options[name] = value
    if values["lives"]:
        options["lives"] = int(values["lives"])
    return EnvConfig.make(
        str(values["preset"]),
        int(values["players"]),
        win_reward=bool(values["win_reward"]),
        max_rounds=int(values["max_rounds"]) or None,
        **options,
    )


class ThirtyOneGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_thirtyone`` for one set of parameters (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config = config = config_from_params(dict(params or {}))
        players = config.players
        full = config.full
        win = 1.0 if config.win_reward else 0.0
        utility = pyspiel.GameType.Utility.GENERAL_SUM if config.win_reward else pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=-(full + win),
            max_utility=(players - 1) * full + win,
            utility_sum=None if config.win_reward else 0.0,
            max_game_length=config.max_rounds * (2 * config.rules.max_turns + players + 1),
        )
        super().__init__(_game_type(utility), info, {**_DEFAULTS, **(params or {})})

    def new_initial_state(self) -> ThirtyOneState:
        """The start of a game: the chance node of the first dealer."""
        return ThirtyOneState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of strings and tensors (perfect recall: the information state)."""
        if params:
            raise ArgumentError(f"observation parameters are not supported, not {params}")
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.config.players, perfect)


class _Box:
    """The engine game and the strings read from it so far, copied cheaply when OpenSpiel clones
    a state (``Game.copy``: events and cards are immutable and shared)."""

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.texts: list[list[str]] = [[] for _ in range(players)]
        self.read = 0

    def __deepcopy__(self, memo: dict[int, object]) -> _Box:
        twin = _Box.__new__(_Box)
        twin.game = self.game.copy()
        twin.texts = [list(texts) for texts in self.texts]
        twin.read = self.read
        return twin


def _no_source() -> ScriptedChance:
    """The chance source of the states' games: every outcome comes from a chance node, so a game
    that asked its source (it never does) would be refused at once."""
    return ScriptedChance(0, [])


class ThirtyOneState(pyspiel.State):  # type: ignore[misc]
    """A moment of a game of ``python_thirtyone`` (see the module)."""

    def __init__(self, game: ThirtyOneGame, engine: Game | None = None) -> None:
        super().__init__(game)
        self.config = config = game.config
        if engine is None:
            engine = Game(config.rules, config.players, chance=_no_source(), explicit_chance=True)
        self._box = _Box(engine, config.players)
        self._ledger = Ledger(config)
        self._drawn: list[Card] = []
        """The cards of the order being drawn at a deal or reshuffle node, top first."""
        self._returns = [0.0] * config.players
        self._rewards = [0.0] * config.players
        self._prefix = [""] * config.players
        self._round_prefix: tuple[int, tuple[Any, ...]] | None = None  # a resampled state's round so far

    @property
    def _game(self) -> Game:
        return self._box.game

    # -------------------------------------------------------------- OpenSpiel's API

    def current_player(self) -> int:
        game = self._game
        if self._ledger.done or game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if game.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        seat = game.current_seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal_ids(self._game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self._game.chance_step
        assert step is not None
        if step.kind == "dealer":
            return [(seat, 1.0 / len(step.seats)) for seat in step.seats]
        drawn = set(self._drawn)
        left = sorted(card for card in step.cards if card not in drawn)
        return [(int(card), 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        game = self._game
        step = game.chance_step
        if step is None:
            game.apply(action_from_id(game, int(action)))  # an illegal id is refused, changing nothing
            self._rewards = [0.0] * self.config.players
        else:
            self._check_outcome(step, int(action))
            if step.kind == "dealer":
                game.deal(int(action))
            else:
                self._drawn.append(Card(int(action)))
                drawn = set(self._drawn)
                left = [card for card in step.cards if card not in drawn]
                if len(left) > 1:
                    return
                order, self._drawn = self._drawn + left, []
                game.deal(order)
        # A round's rewards are paid by the move that ends it (or by the deal of a 31, R5.2) and
        # stay in rewards() through the chance nodes that follow, until the next move.
        paid = self._ledger.collect(game, [0.0] * self.config.players)
        self._rewards = [have + new for have, new in zip(self._rewards, paid, strict=True)]
        self._returns = [total + new for total, new in zip(self._returns, paid, strict=True)]

    def _check_outcome(self, step: ChanceStep, outcome: int) -> None:
        """Refuse a chance outcome this node does not offer (its state unchanged).

        Raises:
            ArgumentError: for a dealer that is not a seat, or a card that is not in the order
                being drawn or was placed in it already.
        """
        if any(offered == outcome for offered, _ in self.chance_outcomes()):
            return
        if step.kind == "dealer":
            raise ArgumentError(
                f"chance outcome {outcome} is not offered: the first dealer is a seat, 0 to {self.config.players - 1}"
            )
        if 0 <= outcome < 52 and Card(outcome) in self._drawn:
            why = f"card {Card(outcome)} was placed already"
        elif 0 <= outcome < 52:
            why = f"card {Card(outcome)} is not among the cards being shuffled"
        else:
            why = "a card is an index from 0 to 51"
        raise ArgumentError(
            f"chance outcome {outcome} is not offered: {why}; give one of chance_outcomes() "
            f"({len(step.cards) - len(self._drawn)} cards left)"
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            step = self._game.chance_step
            return f"dealer {action}" if step is not None and step.kind == "dealer" else f"card {Card(action)}"
        if self._game.current_seat == player:
            try:
                return str(action_from_id(self._game, action))
            except ValueError:
                pass
        return describe_id(action)

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        return list(self._returns)

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ThirtyOneState:
        """A state ``player_id`` cannot tell from this one (see the module).

        Raises:
            ArgumentError: at a chance node or a terminal state, or for a player not in the game.
        """
        if self._game.is_chance() or self.is_terminal():
            raise ArgumentError("resample_from_infostate needs a decision node")
        if not isinstance(player_id, int) or not 0 <= player_id < self.config.players:
            raise ArgumentError(f"player_id is a player, 0 to {self.config.players - 1}, not {player_id!r}")
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        return self.resampled(self._game.view(player_id), rng)

    def resampled(self, view: PlayerView, rng: random.Random) -> ThirtyOneState:
        """A state from a world sampled consistently with ``view`` (its seat's knowledge), with this
        state's past: its returns, and as history the seat's own (the others get the public one,
        which is all the seat knows of theirs)."""
        from thirtyone.bots.expert import _passes, sample_position
        from thirtyone.bots.knowledge import Knowledge

        position = sample_position(view, Knowledge.from_view(view), _passes(view), rng)
        twin = state_from_position(self.get_game(), position, stop_after_round=False)
        public = ";".join(repr(event.for_seat(-1)) for event in self._game.events)
        twin._prefix = [
            self._infostate_history(seat) if seat == view.seat else self._prefix[seat] + public
            for seat in range(self.config.players)
        ]
        twin._returns = list(self._returns)
        twin._ledger.rounds = self._ledger.rounds
        twin._round_prefix = (self._game.round, tuple(event.for_seat(-1) for event in self._game.round_events()))
        return twin

    def __str__(self) -> str:
        game = self._game
        if game.round == 0:
            return "dealing"
        hands = " | ".join(" ".join(map(str, game.hand(seat))) for seat in range(game.players))
        return f"round {game.round}, {game.phase.value}, seat {game.current_seat}: {hands}"

    # -------------------------------------------------------------- strings

    def _infostate_history(self, player: int) -> str:
        """Every event of the game as ``player`` saw it (with this state's prefix)."""
        events = self._game.events
        box = self._box
        for event in events[box.read :]:
            for seat in range(self.config.players):
                box.texts[seat].append(repr(event.for_seat(seat)))
        box.read = len(events)
        return self._prefix[player] + ";".join(self._box.texts[player])

    def view_text(self, player: int) -> str:
        """What ``player`` sees now, in words (the observation string)."""
        if self._game.round == 0:
            return f"p{player} dealing"
        view = self._game.view(player)
        parts = [
            f"p{player}",
            f"round {view.round}",
            f"dealer {view.dealer}",
            f"phase {view.phase.value}",
            f"to move {view.current_seat}",
            f"hand {' '.join(map(str, view.hand)) if view.hand is not None else '-'}",
            f"taken {view.taken_from_pile or '-'}",
            f"pile {view.discard_top or '-'} ({view.discard_size})",
            f"widow {' '.join(map(str, view.widow)) if view.widow else '-'}",
            f"stock {view.stock_size}",
            f"knocker {view.knocker if view.knocker is not None else '-'}",
            f"turn {view.turn}",
            "seats " + " ".join(f"{s.seat}:{s.remaining}:{' '.join(map(str, s.known_cards))}" for s in view.seats),
        ]
        return ", ".join(parts)

    def information_text(self, player: int) -> str:
        """The information-state string of ``player``: its history and its view now."""
        return self._infostate_history(player) + " || " + self.view_text(player)

    def observation_array(self, player: int) -> np.ndarray[Any, Any]:
        """``player``'s observation tensor (zeros while the first deal is drawn)."""
        if self._game.round == 0:
            return np.zeros(layout_for(self.config.players).size, dtype=np.float32)
        view = self._game.view(player)
        if self._round_prefix is not None and self._round_prefix[0] == view.round:
            view = dataclasses.replace(view, history=self._round_prefix[1] + view.history)  # the pile, the discards
        return encode(view)


class _Observer:
    """OpenSpiel's py-observer: ``tensor`` (with ``dict`` of named slices) and ``string_from``."""

    def __init__(self, players: int, perfect_recall: bool) -> None:
        layout = layout_for(players)
        self.tensor = np.zeros(layout.size, dtype=np.float32)
        self.dict = layout.unpack(self.tensor)
        self.perfect_recall = perfect_recall

    def set_from(self, state: ThirtyOneState, player: int) -> None:
        self.tensor[:] = state.observation_array(player)

    def string_from(self, state: ThirtyOneState, player: int) -> str:
        return state.information_text(player) if self.perfect_recall else state.view_text(player)


def state_from_position(game: Any, position: Position, *, stop_after_round: bool = True) -> ThirtyOneState:
    """A state of ``game`` (a :class:`ThirtyOneGame`) at ``position``; with ``stop_after_round``
    the state is terminal when the position's round ends (for searches that look one round ahead)."""
    engine = Game.from_position(
        position, chance=_no_source(), rounds=1 if stop_after_round else None, explicit_chance=True
    )
    state = ThirtyOneState(game, engine)
    state._ledger.remaining = list(position.remaining_losses())
    if stop_after_round:
        state._ledger.rounds = max(state.config.max_rounds - 1, 0)
    return state


pyspiel.register_game(_GAME_TYPE, ThirtyOneGame)
