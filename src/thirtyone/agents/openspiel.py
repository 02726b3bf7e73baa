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

Chance is explicit (``EXPLICIT_STOCHASTIC``), because the game's randomness is simple to state
and worth exposing to algorithms that reason about it: the first dealer (one chance node,
uniform over the seats), each round's deck order (one chance node per card, top card first,
uniform over the cards not yet placed; the last card is placed without a node) and each
reshuffle of the discard pile (R4.3, the same, over the pile's cards but its top). A deck is
drawn when the engine deals, so the chance nodes of round ``r + 1`` follow the move that ended
round ``r``; no player sees the order except through the cards dealt and drawn.

- Actions are the ids of :mod:`thirtyone.agents.action_ids` (79, the legal ones sorted);
  chance outcomes are card indexes (0–51) or, for the dealer, seats. A refused move leaves the
  state as it was: an illegal id raises the engine's ``IllegalActionError`` (``ActionError``
  outside 0–78), a chance outcome ``chance_outcomes()`` does not offer ``ArgumentError``.
- Rewards (``REWARDS``): at each round's end, the others' mean lives lost minus one's own
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
- ``resample_from_infostate(player, sampler)``: a state the player cannot tell from this one,
  its hidden cards dealt at random consistently with what it saw (the expert bot's sampler,
  :func:`thirtyone.bots.expert.sample_position`); its history starts at this moment (it is
  for searches, such as ISMCTS, not for replaying).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
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
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError, ThirtyOneError
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


@dataclass(frozen=True)
class _Need:
    """A chance outcome to draw: the first dealer, round ``round``'s deck order, or reshuffle
    ``number`` of round ``round``, an order of ``cards``."""

    kind: str
    round: int = 0
    number: int = 0
    cards: tuple[Card, ...] = ()


class _NeedChance(Exception):  # noqa: N818 - a signal, not an error
    """The engine asked for an outcome the state has not drawn yet (``need``)."""

    def __init__(self, need: _Need) -> None:
        super().__init__(need.kind)
        self.need = need


class _Script:
    """The chance outcomes a state has drawn: the first dealer, deck orders, reshuffles."""

    def __init__(self, last_round: int) -> None:
        self.dealer: int | None = None
        self.decks: dict[int, list[Card]] = {}
        self.reshuffles: dict[tuple[int, int], list[Card]] = {}
        self.last_round = last_round

    def __deepcopy__(self, memo: dict[int, object]) -> _Script:
        twin = _Script(self.last_round)
        twin.dealer = self.dealer
        twin.decks = dict(self.decks)  # the orders themselves are never changed
        twin.reshuffles = dict(self.reshuffles)
        return twin


class _Box:
    """The engine game and the strings read from it so far, copied cheaply when OpenSpiel clones
    a state (``Game.copy``: events and cards are immutable and shared)."""

    def __init__(self, game: Game | None, players: int) -> None:
        self.game = game
        self.texts: list[list[str]] = [[] for _ in range(players)]
        self.read = 0

    def __deepcopy__(self, memo: dict[int, object]) -> _Box:
        twin = _Box.__new__(_Box)
        twin.game = None if self.game is None else self.game.copy()
        twin.texts = [list(texts) for texts in self.texts]
        twin.read = self.read
        return twin


class _Desk:
    """The :class:`~thirtyone.chance.Chance` every state's engine game holds: it answers from the
    script of the state that is applying a move (``armed``), or raises :class:`_NeedChance`. One
    object for all, so that copying a game (which copies its chance) keeps it."""

    trusted = False  # the engine checks every order against the cards it needs

    def __init__(self) -> None:
        self.script: _Script | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Desk:
        return self

    def _armed(self) -> _Script:
        if self.script is None:  # pragma: no cover - the states always arm it
            raise RuntimeError("no state is applying a move")
        return self.script

    def first_dealer(self, players: int) -> int:
        dealer = self._armed().dealer
        if dealer is None:  # pragma: no cover - drawn before the game is made
            raise _NeedChance(_Need("dealer"))
        return dealer

    def deal_order(self, deck: Sequence[Card], round: int) -> list[Card]:
        script = self._armed()
        order = script.decks.get(round)
        if order is not None:
            return list(order)
        if round > script.last_round:
            return list(deck)  # a round past max_rounds: never played
        raise _NeedChance(_Need("deck", round, 0, tuple(deck)))

    def reshuffle_order(self, cards: Sequence[Card], round: int, number: int) -> list[Card]:
        order = self._armed().reshuffles.get((round, number))
        if order is not None:
            return list(order)
        raise _NeedChance(_Need("reshuffle", round, number, tuple(cards)))


_DESK = _Desk()


class ThirtyOneState(pyspiel.State):  # type: ignore[misc]
    """A moment of a game of ``python_thirtyone`` (see the module)."""

    def __init__(self, game: ThirtyOneGame) -> None:
        super().__init__(game)
        self.config = config = game.config
        self._script = _Script(config.max_rounds)
        self._box = _Box(None, config.players)
        self._ledger = Ledger(config)
        self._need: _Need | None = _Need("dealer")
        self._drawn: list[Card] = []
        self._pending: int | None = None
        self._returns = [0.0] * config.players
        self._rewards = [0.0] * config.players
        self._prefix = [""] * config.players
        self._round_prefix: tuple[int, tuple[Any, ...]] | None = None  # a resampled state's round so far

    @property
    def _game(self) -> Game | None:
        return self._box.game

    @_game.setter
    def _game(self, game: Game) -> None:
        self._box.game = game

    # -------------------------------------------------------------- OpenSpiel's API

    def current_player(self) -> int:
        if self._ledger.done or (self._game is not None and self._game.is_over and self._need is None):
            return int(pyspiel.PlayerId.TERMINAL)
        if self._need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self._game is not None
        seat = self._game.current_seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return sorted(legal_ids(self._game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self._need
        assert need is not None
        if need.kind == "dealer":
            return [(seat, 1.0 / self.config.players) for seat in range(self.config.players)]
        left = sorted(set(need.cards) - set(self._drawn))
        return [(int(card), 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        need = self._need
        if need is not None:
            self._check_outcome(need, int(action))
        rewards, self._rewards = self._rewards, [0.0] * self.config.players
        if need is None:
            self._pending = int(action)
            try:
                self._advance()
            except ThirtyOneError:  # an illegal id: the engine refused it, so undo the two fields set here
                self._pending, self._rewards = None, rewards
                raise
            return
        if need.kind == "dealer":
            self._script.dealer = int(action)
            self._need = None
        else:
            self._drawn.append(Card(int(action)))
            left = [card for card in need.cards if card not in self._drawn]
            if len(left) > 1:
                return
            order = self._drawn + left
            if need.kind == "deck":
                self._script.decks[need.round] = order
            else:
                self._script.reshuffles[(need.round, need.number)] = order
            self._need = None
            self._drawn = []
        self._advance()

    def _check_outcome(self, need: _Need, outcome: int) -> None:
        """Refuse a chance outcome this node does not offer (its state unchanged).

        Raises:
            ArgumentError: for a dealer that is not a seat, or a card that is not in the order
                being drawn or was placed in it already.
        """
        if any(offered == outcome for offered, _ in self.chance_outcomes()):
            return
        if need.kind == "dealer":
            raise ArgumentError(
                f"chance outcome {outcome} is not offered: the first dealer is a seat, 0 to {self.config.players - 1}"
            )
        if outcome in self._drawn:
            why = f"card {Card(outcome)} was placed already"
        elif 0 <= outcome < 52:
            why = f"card {Card(outcome)} is not among the cards being shuffled"
        else:
            why = "a card is an index from 0 to 51"
        raise ArgumentError(
            f"chance outcome {outcome} is not offered: {why}; give one of chance_outcomes() "
            f"({len(need.cards) - len(self._drawn)} cards left)"
        )

    def _advance(self) -> None:
        """Play on until a decision or a chance outcome not yet drawn is needed."""
        _DESK.script = self._script
        try:
            if self._game is None:
                self._game = Game(self.config.rules, self.config.players, chance=_DESK)
            elif self._pending is not None:
                trial = self._game.copy()  # a deal may stop the move half done: try it on a copy
                trial.apply(action_from_id(trial, self._pending))
                self._game = trial
                self._pending = None
        except _NeedChance as asked:
            self._need = asked.need
            self._drawn = []
            return
        finally:
            _DESK.script = None
        assert self._game is not None
        rewards = list(self._ledger.collect(self._game, [0.0] * self.config.players))
        self._rewards = rewards
        self._returns = [total + reward for total, reward in zip(self._returns, rewards, strict=True)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            need = self._need
            return f"dealer {action}" if need is not None and need.kind == "dealer" else f"card {Card(action)}"
        if self._game is not None and self._game.current_seat == player:
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
            ArgumentError: at a chance node or a terminal state.
        """
        if self._game is None or self._need is not None or self.is_terminal():
            raise ArgumentError("resample_from_infostate needs a decision node")
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
        assert self._game is not None
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
        if self._game is None:
            return "dealing"
        game = self._game
        hands = " | ".join(" ".join(map(str, game.hand(seat))) for seat in range(game.players))
        return f"round {game.round}, {game.phase.value}, seat {game.current_seat}: {hands}"

    # -------------------------------------------------------------- strings

    def _infostate_history(self, player: int) -> str:
        """Every event of the game as ``player`` saw it (with this state's prefix)."""
        game = self._game
        if game is not None:
            events = game.events
            box = self._box
            for event in events[box.read :]:
                for seat in range(self.config.players):
                    box.texts[seat].append(repr(event.for_seat(seat)))
            box.read = len(events)
        return self._prefix[player] + ";".join(self._box.texts[player])

    def view_text(self, player: int) -> str:
        """What ``player`` sees now, in words (the observation string)."""
        if self._game is None:
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
        if self._game is None:
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
    state = ThirtyOneState(game)
    state._script.dealer = position.dealer
    if stop_after_round:
        state._script.last_round = position.round
    state._need = None
    _DESK.script = state._script
    try:
        state._game = Game.from_position(position, chance=_DESK, rounds=1 if stop_after_round else None)
    finally:
        _DESK.script = None
    state._ledger.remaining = list(position.remaining_losses())
    if stop_after_round:
        state._ledger.rounds = max(state.config.max_rounds - 1, 0)
    return state


pyspiel.register_game(_GAME_TYPE, ThirtyOneGame)
