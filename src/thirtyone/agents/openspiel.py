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
game strings keep ``=`` and ``,`` for themselves), ``win_reward`` (``False``), ``max_rounds``
(0: :func:`~thirtyone.agents.config.default_max_rounds`), ``terminal_rewards`` (``False``: see
Rewards) and ``first_dealer`` (-1: a chance node; a seat: that seat deals first, so the game
has no dealer node — as the solved mini game, ``thirtyone.agents.mini``, is played).

Chance is explicit (``EXPLICIT_STOCHASTIC``), as the engine's own chance steps are
(``Game(..., explicit_chance=True)``), and a card is decided only when someone sees it, as
OpenSpiel's ``gin_rummy`` deals its stock: the first dealer (one chance node, uniform over the
seats); each round's deal, one chance node per card of the hands and the table — each seat's three
cards as a set, in increasing card index, from the dealer's left (R3.2), each set of three equally
likely, then the table's cards (the upcard, or the widow as a set) —, but none for the stock; a
draw from the stock (R4.1), a move followed by one chance node, uniform over the cards in the
stock; a reshuffle of the discard pile (R4.3), one node for the new stock's top card, which the
draw that asked for it takes; and a new widow when all pass (R7.3), a set of three from the
stock, after the pass that brings it. A node with one outcome is not made: a card that can only
be the one left is placed at once. The order within a hand or a widow, and the order of the stock
below the cards drawn, decide nothing, so the tree does not branch on them: a round's tree grows
with the cards seen, not with the size of the stock, so exact methods reach variants bigger than
the mini game. The move that ends a round ends it — its rewards are paid at that move — and the
chance nodes of the next deal follow it; no player sees an order except through the cards dealt
and drawn.

- Actions are the ids of :mod:`thirtyone.agents.action_ids` (79, the legal ones sorted);
  chance outcomes are card indexes (0–51) or, for the dealer, seats. A refused move leaves the
  state as it was: an illegal id raises the engine's ``IllegalActionError`` (``ActionError``
  outside 0–78), a chance outcome ``chance_outcomes()`` does not offer ``ArgumentError``.
- Rewards: with ``REWARDS`` (the default) they are paid by the move that ends a round (or by the
  deal's last chance node when a 31 on the deal ends it, R5.2), and ``rewards()`` keeps them
  through the chance nodes that follow until the next move, as OpenSpiel reads them: the others'
  mean lives lost minus one's own (:mod:`thirtyone.agents.table`). With ``terminal_rewards``
  the game is ``TERMINAL``: ``rewards()`` and ``returns()`` are 0 until the game ends, and then
  both are the game's returns, as OpenSpiel's ``MCTSBot`` asks (and ``random_sim_test`` checks:
  the rewards summed so far are the returns so far). The game is ``ZERO_SUM``, and
  ``GENERAL_SUM`` with ``win_reward`` (-1 when put out, +1 for the winner). ``returns()`` add
  them up.
- Length: at most ``max_rounds`` rounds of at most ``max_turns`` turns (R6.7) each, so
  ``max_game_length = max_rounds * (2 * max_turns + players + 1)`` decisions (chance nodes not
  counted, as OpenSpiel counts); a game not over after ``max_rounds`` rounds ends there (truncated).
- Strings and tensors for each player. The observation tensor is
  :func:`~thirtyone.agents.observation.encode` of the player's view (the round so far: the pile,
  each seat's discards and known cards, lives), the observation string that view in words. The
  information state has perfect recall: its string
  (:func:`~thirtyone.agents.observation.information_text`) is every event of the game as the
  player saw it and its hand now; its tensor
  (:class:`~thirtyone.agents.observation.InfoStateLayout`) is the observation tensor and, for
  the player's seat and, for each of ``max_rounds`` rounds, the cards dealt to it, the upcard,
  every decision (who, which id, the cards it showed) and the round's result: ``obs + players +
  max_rounds * (104 + 53 * players + (131 + players) * slots)`` floats, ``slots = 2 * max_turns +
  players + 1`` — 1,901 for the mini game, but hundreds of thousands for a whole game of a preset
  (there the observation tensor is the one to learn from). These are the default observation
  type's (``private_info=SINGLE_PLAYER``, public information); the observer of any
  ``pyspiel.IIGObservationType`` honours its ``private_info`` (``NONE``: no hand;
  ``ALL_PLAYERS``: every hand) and ``public_info``, as ``kuhn_poker``'s does
  (:meth:`ThirtyOneGame.make_py_observer`).
- ``resample_from_infostate(player, sampler)``: a state ``player`` (any player, to move or not)
  cannot tell from this one — the same information-state string and tensors for that player —,
  the cards it has not seen dealt at random consistently with what it saw (the expert bot's
  sampler, :func:`thirtyone.bots.expert.sample_position`); its history starts at this moment (it
  is for searches, such as ISMCTS, not for replaying).
- shimmy's ``OpenSpielCompatibilityV0`` makes a PettingZoo env of any OpenSpiel game, but not
  rightly of this one: :func:`shimmy_env` mends it (see there), and
  :mod:`thirtyone.agents.pettingzoo` is this game's own PettingZoo env.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np

from thirtyone.errors import missing_extra

try:
    import pyspiel
except ImportError as error:  # the openspiel extra is not installed
    raise missing_extra(error, "openspiel") from None

from thirtyone.actions import STOCK
from thirtyone.actions import Action
from thirtyone.actions import Draw
from thirtyone.actions import Pass
from thirtyone.agents.action_ids import NUM_ACTIONS
from thirtyone.agents.action_ids import action_from_id
from thirtyone.agents.action_ids import describe_id
from thirtyone.agents.action_ids import legal_ids
from thirtyone.agents.config import EnvConfig
from thirtyone.agents.observation import InfoStateLayout
from thirtyone.agents.observation import ObservationLayout
from thirtyone.agents.observation import encode
from thirtyone.agents.observation import encode_information
from thirtyone.agents.observation import event_text
from thirtyone.agents.observation import history_slots
from thirtyone.agents.observation import join_information
from thirtyone.agents.observation import layout_for
from thirtyone.agents.table import Ledger
from thirtyone.cards import Card
from thirtyone.chance import ScriptedChance
from thirtyone.checks import whole_number
from thirtyone.engine import Game
from thirtyone.errors import ArgumentError
from thirtyone.events import Event
from thirtyone.position import Position
from thirtyone.rules import MAX_PLAYERS
from thirtyone.rules import MIN_PLAYERS
from thirtyone.rules import OPTIONS
from thirtyone.views import PlayerView

__all__ = [
    "SHORT_NAME",
    "ThirtyOneGame",
    "ThirtyOneState",
    "config_from_params",
    "state_from_position",
    "shimmy_env",
]

SHORT_NAME = "python_thirtyone"

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "preset": "scat",
    "lives": 0,
    "options": "",
    "win_reward": False,
    "max_rounds": 0,
    "terminal_rewards": False,
    "first_dealer": -1,
}


def _game_type(utility: Any, terminal: bool = False) -> Any:
    model = pyspiel.GameType.RewardModel
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Thirty-One (Scat, Blitz, Schwimmen)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=model.TERMINAL if terminal else model.REWARDS,
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


def _flag(params: dict[str, Any], name: str) -> bool:
    """A game parameter that is on or off.

    Raises:
        ArgumentError: for anything but ``True`` or ``False``.
    """
    value = params.get(name, _DEFAULTS[name])
    if not isinstance(value, bool):
        raise ArgumentError(f"parameter {name} of {SHORT_NAME} is true or false, not {value!r}")
    return value


class ThirtyOneGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_thirtyone`` for one set of parameters (see the module).

    Raises:
        ArgumentError: for an unknown parameter or a bad value (``first_dealer`` not -1 or a seat).
        RulesError: for a bad preset or rule option.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.config = config = config_from_params(given)
        self.terminal_rewards = _flag(given, "terminal_rewards")
        dealer = whole_number(given.get("first_dealer", -1))
        if dealer is None or not -1 <= dealer < config.players:
            raise ArgumentError(
                f"first_dealer is -1 (a chance node) or a seat, 0 to {config.players - 1}, "
                f"not {given.get('first_dealer')!r}"
            )
        self.first_dealer = dealer
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
            max_game_length=config.max_rounds * history_slots(config.rules, players),
        )
        self.info_layout = InfoStateLayout(players, history_slots(config.rules, players), config.max_rounds)
        """The layout of the information-state tensor (see the module)."""
        super().__init__(_game_type(utility, self.terminal_rewards), info, {**_DEFAULTS, **given})

    def new_initial_state(self) -> ThirtyOneState:
        """The start of a game: the chance node of the first dealer (or, with ``first_dealer``,
        of the first deal)."""
        return ThirtyOneState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of strings and tensors of ``iig_obs_type`` (a ``pyspiel.IIGObservationType``;
        ``None``: the default observation): with ``perfect_recall``, the information state's; its
        ``private_info`` and ``public_info`` choose the parts (see :class:`_Observer`)."""
        if params:
            raise ArgumentError(f"observation parameters are not supported, not {params}")
        return _Observer(self, iig_obs_type)


class _Box:
    """The engine game and each player's texts of its events so far (the information-state
    strings), copied cheaply when OpenSpiel clones a state (``Game.copy``: events and cards are
    immutable and shared)."""

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


@cache
def _set_weights(left: int, need: int) -> tuple[Fraction, ...]:
    """Drawing ``need`` more cards of a set, in increasing order, from ``left`` candidates (the
    cards above the set's last one): the chance of each candidate, lowest first — the sets with it
    as the next card among all sets, ``comb(above, need - 1) / comb(left, need)``."""
    total = comb(left, need)
    return tuple(Fraction(comb(left - 1 - k, need - 1), total) for k in range(left))


class ThirtyOneState(pyspiel.State):  # type: ignore[misc]
    """A moment of a game of ``python_thirtyone`` (see the module)."""

    def __init__(self, game: ThirtyOneGame, engine: Game | None = None) -> None:
        super().__init__(game)
        self.config = config = game.config
        self._terminal_rewards = game.terminal_rewards
        self._layout = game.info_layout
        if engine is None:
            engine = Game(config.rules, config.players, chance=_no_source(), explicit_chance=True)
            if game.first_dealer >= 0:
                engine.deal(game.first_dealer)
        self._box = _Box(engine, config.players)
        self._ledger = Ledger(config)
        self._drawn: list[Card] = []
        """The cards drawn so far by the chance nodes under way: a deal's sets in the order they
        are drawn (see the module), a new widow's set (R7.3)."""
        self._pending: Action | None = None
        """A move waiting for the stock cards it takes (a draw from the stock, a pass that brings a
        new widow), which the chance nodes that follow it draw."""
        self._returns = [0.0] * config.players
        self._rewards = [0.0] * config.players
        self._past: list[tuple[Event, ...]] = [()] * config.players
        """Each player's events before this state's engine game began (a resampled state's past)."""
        self._past_texts: list[list[str]] = [[] for _ in range(config.players)]
        self._round_prefix: tuple[int, tuple[Any, ...]] | None = None  # a resampled state's round so far

    @property
    def _game(self) -> Game:
        return self._box.game

    # -------------------------------------------------------------- OpenSpiel's API

    def current_player(self) -> int:
        game = self._game
        if self._ledger.done or game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._pending is not None or game.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        seat = game.current_seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal_ids(self._game))

    def _stock(self) -> list[Card]:
        """The engine's stock, top card last (its order is no outcome: see :meth:`_place`)."""
        return self._game._r.stock

    def _draw(self) -> tuple[Sequence[Card], list[int]]:
        """What this chance node draws from and the sizes of the sets it draws, in order: for a
        deal, a set of three for each seat dealt in and the table's cards (one upcard, or the
        widow's set of three); for a reshuffle, the new stock's top card; for a move waiting for
        stock cards, the card it draws (or the new widow's set of three, R7.3) from the stock."""
        if self._pending is not None:
            return self._stock(), [1 if isinstance(self._pending, Draw) else 3]
        step = self._game.chance_step
        assert step is not None
        if step.kind == "reshuffle":
            return step.cards, [1]
        table = 1 if self.config.rules.mode == "draw" else 3
        return step.cards, [3] * len(self._game.active_seats) + [table]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self._game.chance_step
        if self._pending is None and step is not None and step.kind == "dealer":
            return [(seat, 1.0 / len(step.seats)) for seat in step.seats]
        cards, sizes = self._draw()
        placed = len(self._drawn)
        start = 0
        for size in sizes:
            if placed < start + size:
                break
            start += size
        taken = placed - start  # cards of this set already drawn, in increasing order
        drawn = set(self._drawn)
        left = sorted(card for card in cards if card not in drawn)
        if taken:
            left = [card for card in left if card > self._drawn[-1]]
        weights = _set_weights(len(left), size - taken)
        return [(int(card), float(weight)) for card, weight in zip(left, weights, strict=True) if weight]

    def _apply_action(self, action: int) -> None:
        players = self.config.players
        if self.current_player() == pyspiel.PlayerId.CHANCE:
            self._check_outcome(int(action))
            self._place(int(action))
        else:
            move = action_from_id(self._game, int(action))
            if self._brings_stock_cards(move):
                self._pending = move  # its cards are drawn by the chance nodes that follow
            else:
                self._game.apply(move)  # an illegal id is refused, changing nothing
            self._rewards = [0.0] * players
        while True:
            # A round's rewards are paid by the move that ends it (or by the deal of a 31, R5.2)
            # and stay in rewards() through the chance nodes that follow, until the next move.
            paid = self._ledger.collect(self._game, [0.0] * players)
            self._rewards = [have + new for have, new in zip(self._rewards, paid, strict=True)]
            self._returns = [total + new for total, new in zip(self._returns, paid, strict=True)]
            if self.current_player() != pyspiel.PlayerId.CHANCE:
                return
            offered = self.chance_outcomes()
            if len(offered) > 1:
                return
            self._place(offered[0][0])  # a card that can only be the one left is placed without a node

    def _brings_stock_cards(self, move: Action) -> bool:
        """Whether ``move`` (a legal move: an illegal one is refused by the engine) takes cards
        from the stock: a draw from it while it holds cards, or a pass that makes all pass and
        brings a new widow (R7.3; asked of a copy of the game, which knows its rules)."""
        game = self._game
        if move not in game.legal_actions() or not game.stock_size:
            return False
        if isinstance(move, Draw):
            return move.source == STOCK
        if isinstance(move, Pass) and self.config.rules.all_pass == "new_widow":
            twin = game.copy()
            twin.apply(move)
            return twin.stock_size < game.stock_size
        return False

    def _place(self, outcome: int) -> None:
        """Take the chance outcome ``outcome`` (offered by :meth:`chance_outcomes`): a seat for
        the first dealer, else the next card of what this node draws; once the last is drawn,
        the engine is given them. The stock's cards are no outcome of a deal or a reshuffle:
        the engine keeps them in order of index until a move takes some (then those are put on
        top, the first drawn topmost), so no card of it is decided before it is seen."""
        game = self._game
        step = game.chance_step
        if self._pending is None and step is not None and step.kind == "dealer":
            game.deal(outcome)
            return
        self._drawn.append(Card(outcome))
        cards, sizes = self._draw()
        if len(self._drawn) < sum(sizes):
            return
        placed, self._drawn = self._drawn, []
        rest = sorted(card for card in cards if card not in placed)
        if self._pending is not None:
            move, self._pending = self._pending, None
            self._stock()[:] = rest[::-1] + placed[::-1]
            game.apply(move)
        elif step is not None and step.kind == "reshuffle":
            game.deal(placed + rest)
        elif step is not None:
            game.deal(self._order(placed) + rest)

    def _order(self, placed: list[Card]) -> list[Card]:
        """The engine's order (top card first) of a deal's cards ``placed`` in the order drawn:
        the seats' sets one card a turn round the table (R3.2), then the table's cards."""
        seats = len(self._game.active_seats)
        hands = [placed[3 * k : 3 * k + 3] for k in range(seats)]
        return [hand[i] for i in range(3) for hand in hands] + placed[3 * seats :]

    def _check_outcome(self, outcome: int) -> None:
        """Refuse a chance outcome this node does not offer (its state unchanged).

        Raises:
            ArgumentError: for a dealer that is not a seat, or a card that is not among those
                being drawn, was drawn already, or is below the set's last card.
        """
        offered = self.chance_outcomes()
        if any(card == outcome for card, _ in offered):
            return
        step = self._game.chance_step
        if self._pending is None and step is not None and step.kind == "dealer":
            raise ArgumentError(
                f"chance outcome {outcome} is not offered: the first dealer is a seat, 0 to {self.config.players - 1}"
            )
        cards, _ = self._draw()
        if 0 <= outcome < 52 and Card(outcome) in self._drawn:
            why = f"card {Card(outcome)} was placed already"
        elif 0 <= outcome < 52 and Card(outcome) in cards:
            why = f"card {Card(outcome)} is below the card drawn before it for this set (sets are drawn lowest first)"
        elif 0 <= outcome < 52:
            why = f"card {Card(outcome)} is not among the cards being drawn"
        else:
            why = "a card is an index from 0 to 51"
        raise ArgumentError(
            f"chance outcome {outcome} is not offered: {why}; give one of chance_outcomes() ({len(offered)} outcomes)"
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
        if self._terminal_rewards and not self.is_terminal():
            return [0.0] * self.config.players  # paid at the end only, as rewards()
        return list(self._returns)

    def rewards(self) -> list[float]:
        if self._terminal_rewards:
            return list(self._returns) if self.is_terminal() else [0.0] * self.config.players
        return list(self._rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ThirtyOneState:
        """A state ``player_id`` cannot tell from this one (see the module).

        Raises:
            ArgumentError: at a chance node or a terminal state, or for a player not in the game.
        """
        if self.current_player() < 0:
            raise ArgumentError("resample_from_infostate needs a decision node")
        if not isinstance(player_id, int) or not 0 <= player_id < self.config.players:
            raise ArgumentError(f"player_id is a player, 0 to {self.config.players - 1}, not {player_id!r}")
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        return self.resampled(self._game.view(player_id), rng)

    def resampled(self, view: PlayerView, rng: random.Random) -> ThirtyOneState:
        """A state from a world sampled consistently with ``view`` (its seat's knowledge), with this
        state's past: its returns, and as history the seat's own (the others get the public one,
        which is all the seat knows of theirs)."""
        from thirtyone.bots.expert import _passes
        from thirtyone.bots.expert import sample_position
        from thirtyone.bots.knowledge import Knowledge

        position = sample_position(view, Knowledge.from_view(view), _passes(view), rng)
        twin = state_from_position(self.get_game(), position, stop_after_round=False)
        public = tuple(event.for_seat(-1) for event in self._game.events)
        for seat in range(self.config.players):
            if seat == view.seat:
                twin._past[seat] = self._events_of(seat)
                twin._past_texts[seat] = self._past_texts[seat] + self._texts(seat)
            else:
                twin._past[seat] = self._past[seat] + public
                twin._past_texts[seat] = self._past_texts[seat] + [event_text(event) for event in public]
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

    # -------------------------------------------------------------- strings and tensors

    def _texts(self, player: int) -> list[str]:
        """The texts of this state's engine events as ``player`` saw them (read once, shared)."""
        events = self._game.events
        box = self._box
        for event in events[box.read :]:
            for seat in range(self.config.players):
                box.texts[seat].append(event_text(event.for_seat(seat)))
        box.read = len(events)
        return box.texts[player]

    def _events_of(self, player: int) -> tuple[Event, ...]:
        """Every event of the game as ``player`` saw it, its past included."""
        return self._past[player] + tuple(event.for_seat(player) for event in self._game.events)

    def _hand_seen(self, player: int) -> tuple[Card, ...] | None:
        """``player``'s hand as it sees it now (``None`` before it looked or once out)."""
        if self._game.round == 0:
            return None
        return self._game.view(player).hand

    def view_text(self, player: int, private: Any = None, public: bool = True) -> str:
        """What ``player`` sees now, in words (the observation string); with ``private`` (a
        ``pyspiel.PrivateInfoType``, default ``SINGLE_PLAYER``) ``NONE`` without its hand,
        ``ALL_PLAYERS`` with every seat's hand instead; with ``public`` false, that part only."""
        hands = self._hands_text(player, private)
        if self._game.round == 0:
            return " ".join([f"p{player}", *hands, *(["dealing"] if public else [])])
        if not public:
            return ", ".join([f"p{player}", *hands])
        view = self._game.view(player)
        parts = [
            f"p{player}",
            f"round {view.round}",
            f"dealer {view.dealer}",
            f"phase {view.phase.value}",
            f"to move {view.current_seat}",
            *hands,
            f"taken {view.taken_from_pile if view.taken_from_pile is not None else '-'}",  # 2c is card 0
            f"pile {view.discard_top if view.discard_top is not None else '-'} ({view.discard_size})",
            f"widow {_cards(view.widow)}",
            f"stock {view.stock_size}",
            f"knocker {view.knocker if view.knocker is not None else '-'}",
            f"turn {view.turn}",
            "seats " + " ".join(f"{s.seat}:{s.remaining}:{' '.join(map(str, s.known_cards))}" for s in view.seats),
        ]
        return ", ".join(parts)

    def _hands_text(self, player: int, private: Any) -> list[str]:
        """The private part of ``player``'s strings: ``hand …`` (its hand as it sees it, ``-``
        before it looked or once out), ``hands 0:… 1:…`` (every seat's, ``ALL_PLAYERS``), or
        nothing (``NONE``); nothing before the first deal."""
        if private == _NO_HANDS or self._game.round == 0:
            return []
        if private == _ALL_HANDS:
            return [
                "hands " + " ".join(f"{seat}:{_cards(self._game.hand(seat))}" for seat in range(self.config.players))
            ]
        hand = self._hand_seen(player)
        return ["hand -" if hand is None else f"hand {_cards(hand)}"]

    def information_text(self, player: int) -> str:
        """The information-state string of ``player`` (perfect recall): every event of the game
        as it saw it and its hand now (:func:`~thirtyone.agents.observation.information_text`)."""
        return join_information(player, self._past_texts[player] + self._texts(player), self._hand_seen(player))

    def observation_array(self, player: int) -> np.ndarray[Any, Any]:
        """``player``'s observation tensor (zeros while the first deal is drawn)."""
        if self._game.round == 0:
            return np.zeros(layout_for(self.config.players).size, dtype=np.float32)
        return encode(self._view(player))

    def _view(self, player: int) -> PlayerView:
        view = self._game.view(player)
        if self._round_prefix is not None and self._round_prefix[0] == view.round:
            view = dataclasses.replace(view, history=self._round_prefix[1] + view.history)  # the pile, the discards
        return view

    def information_array(
        self, player: int, out: np.ndarray[Any, Any] | None = None, private: Any = None
    ) -> np.ndarray[Any, Any]:
        """``player``'s perfect-recall information-state tensor (see the module), from the events
        in the form ``private`` names (see :meth:`events_as`)."""
        view = None if self._game.round == 0 else self._view(player)
        events = self.events_as(player, private)
        return encode_information(self._layout, player, events, view, self.config.full, out)

    def events_as(self, player: int, private: Any = None) -> tuple[Event, ...]:
        """Every event of the game (a resampled state's past included) as ``player`` saw it
        (``private`` ``SINGLE_PLAYER``, the default), as anyone at the table saw it (``NONE``:
        no card drawn from the stock, no hand hidden after a blitz, R5.7), or as they were
        (``ALL_PLAYERS``: every card)."""
        if private == _NO_HANDS:
            return tuple(event.for_seat(-1) for event in self._past[player] + tuple(self._game.events))
        if private == _ALL_HANDS:
            return self._past[player] + tuple(self._game.events)
        return self._events_of(player)

    def information_string(self, player: int, private: Any, public: bool) -> str:
        """``player``'s information-state string for an observation type (see :class:`_Observer`):
        ``p{player}``, the events in the form ``private`` names (with ``public``), and the private
        part now (:meth:`_hands_text`), joined by ``;``."""
        if private == _SINGLE and public:
            return self.information_text(player)
        texts = [event_text(event) for event in self.events_as(player, private)] if public else []
        return ";".join([f"p{player}", *texts, *self._hands_text(player, private)])


def _cards(cards: Sequence[Card] | None) -> str:
    """Cards of a set (a hand, the widow) sorted by index, or ``-``."""
    return " ".join(map(str, sorted(cards))) if cards else "-"


_SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
_NO_HANDS = pyspiel.PrivateInfoType.NONE
_ALL_HANDS = pyspiel.PrivateInfoType.ALL_PLAYERS


class _Observer:
    """OpenSpiel's py-observer of an ``IIGObservationType`` (``None``: the default observation):
    ``tensor`` (with ``dict``, its named parts) and ``string_from``; with ``perfect_recall``, the
    information state's. The default type (``SINGLE_PLAYER`` private information, public
    information) gives the layouts of the module. The others, as OpenSpiel's own games
    (``kuhn_poker``), change the private part — the hand: ``private_info=NONE`` has no hand
    (the tensor has no ``hand`` part, and no ``dealt``; the events are the public ones: no card
    drawn from the stock, R5.7's hidden hands hidden), ``ALL_PLAYERS`` has every seat's hand
    (``hands``, ``[players, 52]``, seats counted from the observer; the events as they were,
    every card) — and ``public_info=False`` keeps the private part only (``hand`` and, with
    perfect recall, ``dealt``; or ``hands``)."""

    def __init__(self, game: ThirtyOneGame, kind: Any = None) -> None:
        self.perfect_recall = perfect = kind is not None and bool(kind.perfect_recall)
        self.private = _SINGLE if kind is None else kind.private_info
        self.public = kind is None or bool(kind.public_info)
        players = game.config.players
        base: InfoStateLayout | ObservationLayout = game.info_layout if perfect else layout_for(players)
        self._base = base
        self._hand = layout_for(players).slices["hand"]
        if self.private == _SINGLE and self.public:  # the module's layouts
            self.tensor = np.zeros(base.size, dtype=np.float32)
            self.dict = base.unpack(self.tensor)
            return
        shapes: dict[str, tuple[int, ...]] = {}
        if self.private == _SINGLE:
            shapes["hand"] = (52,)
            if perfect:
                shapes["dealt"] = base.shapes["dealt"]
        elif self.private == _ALL_HANDS:
            shapes["hands"] = (players, 52)
        if self.public:
            for name, shape in base.shapes.items():
                if name == "obs":
                    shapes[name] = (shape[0] - (self._hand.stop - self._hand.start),)
                elif name not in ("hand", "dealt"):
                    shapes[name] = shape
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in shapes.values()), dtype=np.float32)
        self.dict = {}
        at = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: ThirtyOneState, player: int) -> None:
        if self.private == _SINGLE and self.public:
            if self.perfect_recall:
                state.information_array(player, self.tensor)
            else:
                self.tensor[:] = state.observation_array(player)
            return
        self.tensor.fill(0.0)
        parts = self.dict
        if self.public or "dealt" in parts:
            if self.perfect_recall:
                whole = self._base.unpack(state.information_array(player, private=self.private))
                observation = whole["obs"]
            else:
                observation = state.observation_array(player)
                whole = self._base.unpack(observation)
            for name, values in whole.items():
                if name == "obs" and name in parts:  # the observation without the hand
                    parts[name][:] = np.concatenate([observation[: self._hand.start], observation[self._hand.stop :]])
                elif name in parts:
                    parts[name][:] = values
        if state._game.round == 0:
            return
        if "hand" in parts:
            hand = state._hand_seen(player)
            parts["hand"][[int(card) for card in hand or ()]] = 1.0
        if "hands" in parts:
            players = state.config.players
            for seat in range(players):
                parts["hands"][(seat - player) % players, [int(card) for card in state._game.hand(seat)]] = 1.0

    def string_from(self, state: ThirtyOneState, player: int) -> str:
        if self.perfect_recall:
            return state.information_string(player, self.private, self.public)
        return state.view_text(player, self.private, self.public)


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


def shimmy_env(game: Any, render_mode: str | None = None) -> Any:
    """shimmy's ``OpenSpielCompatibilityV0`` (a PettingZoo AEC env of an OpenSpiel game) for
    ``game`` (a loaded game, such as ``pyspiel.load_game("python_thirtyone", params)``), with the
    three faults it has with this game mended (shimmy 2.0):

    - ``reset`` loads the game again by name, with the parameters only when they were given as
      ``config``, so a game passed as ``env=`` comes back with the default parameters (four
      players: ``KeyError: 3`` for three). Here it is made from the game's name and parameters.
    - It pays the last move's rewards again each time a finished agent is removed, so the
      summed rewards differ from ``returns()``; here an agent removed is paid nothing more.
    - It counts chance nodes against ``max_game_length`` (which counts decisions, as OpenSpiel
      says), truncating games with many chance nodes — every game of the mini variant; and a
      31 on the deal, which ends the game before anyone moves, makes its reset fail. Here only
      decisions count, and such a game starts over on a new deal.

    Needs ``shimmy`` (the ``openspiel`` extra). Its observations are the observation tensor (as
    float64) and ``infos[agent]["action_mask"]`` the legal ids; :mod:`thirtyone.agents.pettingzoo`
    is this game's own PettingZoo env, with the same ids, observations and rewards.
    """
    return _shimmy_class()(game, render_mode)


@cache
def _shimmy_class() -> type:
    from shimmy import OpenSpielCompatibilityV0

    class MendedOpenSpielEnv(OpenSpielCompatibilityV0):  # type: ignore[misc]
        """OpenSpielCompatibilityV0 with the faults :func:`shimmy_env` names mended."""

        game_state: Any
        game_length: int

        def __init__(self, game: Any, render_mode: str | None = None) -> None:
            name = game.get_type().short_name
            super().__init__(game_name=name, config=dict(game.get_parameters()), render_mode=render_mode)

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            super().reset(seed, options)
            while self.game_state.is_terminal():  # a 31 on the deal ended it: deal again, as a table would
                self.game_state = self._env.new_initial_state()
                self._execute_chance_node()
                self._update_action_masks()
                self._update_observations()
                self._choose_next_agent()

        def _choose_next_agent(self) -> None:
            if self.game_state.is_terminal() and not any(self.terminations.values()):
                return  # reset deals again (the base would look up the terminal state's player)
            super()._choose_next_agent()

        def _execute_chance_node(self) -> None:
            length = self.game_length
            super()._execute_chance_node()
            self.game_length = length  # max_game_length counts decisions only

        def _end_routine(self) -> bool:
            ended = bool(super()._end_routine())
            if ended:
                self.rewards = dict.fromkeys(self.agents, 0.0)  # the game's rewards were paid already
            return ended

    return MendedOpenSpielEnv


pyspiel.register_game(_GAME_TYPE, ThirtyOneGame)
