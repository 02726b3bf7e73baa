"""Rule options and presets (R8): one frozen :class:`Rules` holds every option of RULES.md.

>>> rules = Rules.preset("schwimmen")
>>> rules.deck, rules.three_of_a_kind, rules.knock_from_round
(32, '30.5', 2)
>>> Rules.preset("scat", three_of_a_kind="30").describe()
'scat, three_of_a_kind=30'
>>> Rules.preset("scat", mode="widow").all_pass
'showdown'
>>> Rules.preset("bridge")
Traceback (most recent call last):
...
thirtyone.errors.RulesError: unknown preset 'bridge': choose one of scat, widow, namu, schwimmen, mini

The preset ``mini`` is a research variant, not a rule of RULES.md: two players, one round (one
life, no grace), at most three turns, dealt from the 8-card mini deck (9, Q, K and A of hearts
and spades, :func:`~thirtyone.cards.full_deck`) — small enough for OpenSpiel's CFR to solve
(``thirtyone.agents.mini``).

>>> Rules.preset("mini").describe(), Rules.preset("mini").check_players(2)
('mini', 2)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from typing import Literal

from thirtyone.cards import DECK_SIZES
from thirtyone.cards import full_deck
from thirtyone.checks import whole_number
from thirtyone.errors import RulesError

__all__ = ["Rules", "PRESETS", "OptionSpec", "OPTIONS", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_PLAYERS"]

MIN_PLAYERS = 2
MAX_PLAYERS = 9
DEFAULT_PLAYERS = 4
"""The players a table seats when none are asked for (fewer when the deck deals fewer:
:meth:`Rules.default_players`)."""

Mode = Literal["draw", "widow"]
ThreeOfAKind = Literal["off", "30", "30.5"]
KnockPenalty = Literal["scat", "namu", "namu_risky", "widow", "plain"]
StockExhausted = Literal["reshuffle", "showdown"]
AllPass = Literal["showdown", "new_widow"]
ExchangeRule = Literal["one_or_all", "any"]


@dataclass(frozen=True)
class OptionSpec:
    """How one option is written and checked: its kind (``bool``, ``int`` or ``choice``),
    the allowed values, the range of an ``int``, the mode it belongs to, and a help line."""

    name: str
    kind: Literal["bool", "int", "choice"]
    help: str
    rule: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    mode: Mode | None = None
    only: tuple[int, ...] = ()

    def describe_values(self) -> str:
        """The values the option takes, in words."""
        if self.kind == "bool":
            return "on or off"
        if self.only:
            return " or ".join(map(str, self.only))
        if self.kind == "int":
            return f"a whole number from {self.low} to {self.high}"
        return "one of " + ", ".join(self.choices)

    def parse(self, text: str) -> Any:
        """Turn the text form of a value (``"30.5"``, ``"on"``, ``"5"``) into the option's value.

        Raises:
            RulesError: naming the option and the values it takes.
        """
        value = text.strip().lower()
        if self.kind == "bool":
            if value in ("on", "true", "yes", "1"):
                return True
            if value in ("off", "false", "no", "0"):
                return False
            raise _not_on_off(self.name, text)
        if self.kind == "int":
            try:
                return int(value)
            except ValueError:
                raise RulesError(f"option {self.name} is {self.describe_values()}, not {text!r}") from None
        if value == "none" and self.mode is not None:
            return None
        if value not in self.choices:
            raise RulesError(f"option {self.name} is {self.describe_values()}, not {text!r}")
        return value

    def format(self, value: Any) -> str:
        """The text form of a value, the inverse of :meth:`parse`."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


@dataclass(frozen=True)
class Rules:
    """Every rule option (RULES.md R1–R8); the defaults are the ``scat`` preset.

    Create one with :meth:`preset` (optionally with overrides) or directly; the options are
    checked on creation. Options that belong to the other mode are ``None`` (e.g. ``all_pass``
    in draw mode); no other option may be ``None``. Created directly, an option takes its own
    type: a whole number (``lives=5``, a numpy integer too, not ``"5"``), a choice as its exact
    text (``three_of_a_kind="30.5"``, not ``30.5``). Text as the command line writes it
    (``lives="5"``, ``mode="Widow"``) is for :meth:`preset`, :meth:`replace` and
    :meth:`with_text_options`. An on/off option takes the same everywhere: ``True``/``False``,
    1/0 and the text on/off, true/false, yes/no, 1/0; anything else (2, 1.0, ``"maybe"``) is
    refused with one message.

    >>> Rules(grace_life=0) == Rules(grace_life=False)
    True

    Raises:
        RulesError: for an unknown option value, a value out of range, or options that
            contradict each other (the message names both).
    """

    mode: Mode = "draw"
    deck: int = 52
    lives: int = 3
    grace_life: bool = True
    three_of_a_kind: ThreeOfAKind = "off"
    three_aces: bool = False
    straight_flush: bool = False
    knock_penalty: KnockPenalty = "scat"
    knock_from_round: int = 1
    min_knock_value: int = 0
    throw_down: bool = False
    max_turns: int = 200
    stock_exhausted: StockExhausted | None = "reshuffle"
    all_pass: AllPass | None = None
    exchange: ExchangeRule | None = None
    dealer_hand: bool = False

    def __post_init__(self) -> None:
        for spec in OPTIONS.values():
            value = getattr(self, spec.name)
            if spec.kind == "int" and type(value) is not int and whole_number(value) is not None:
                object.__setattr__(self, spec.name, whole_number(value))  # numpy integers, as ints
            elif spec.kind == "bool" and isinstance(value, str):
                object.__setattr__(self, spec.name, spec.parse(value))  # "on", "1", ...: as replace takes them
            elif spec.kind == "bool" and not isinstance(value, bool) and whole_number(value) in (0, 1):
                object.__setattr__(self, spec.name, whole_number(value) == 1)  # 1 and 0, as "1" and "0"
            _check_value(spec, getattr(self, spec.name))
        for spec in OPTIONS.values():
            value = getattr(self, spec.name)
            if spec.mode is None:
                continue
            if spec.mode != self.mode and value not in (None, False):
                raise RulesError(
                    f"option {spec.name}={spec.format(value)} needs mode={spec.mode}, but mode={self.mode}: "
                    f"drop {spec.name} or set mode={spec.mode}"
                )
            if spec.mode == self.mode and value is None:
                raise RulesError(f"mode={self.mode} needs option {spec.name} ({', '.join(spec.choices)})")
        if self.throw_down and self.mode != "draw":
            raise RulesError("option throw_down=on needs mode=draw, but mode=widow: drop throw_down or set mode=draw")
        suits = len({card.suit for card in full_deck(self.deck)})
        for name, on in (("three_of_a_kind", self.three_of_a_kind != "off"), ("three_aces", self.three_aces)):
            if on and suits < 3:  # R1.4, R1.5: no hand of three equal ranks in a deck of two suits
                raise RulesError(
                    f"option {name}={OPTIONS[name].format(getattr(self, name))} needs three cards of one rank, "
                    f"but deck={self.deck} has {suits} suits: drop {name} or set deck=32 or deck=52"
                )

    @staticmethod
    def preset(name: str = "scat", **overrides: Any) -> Rules:
        """The rules of a preset (``scat``, ``widow``, ``namu``, ``schwimmen``; R8), with overrides.

        Overriding ``mode`` gives the options of the new mode their defaults unless they are
        overridden too. Overrides are taken as :meth:`replace` takes them: a value of the
        option's type, or its text as the command line writes it (``lives="5"``,
        ``three_of_a_kind="30.5"``, ``throw_down="on"``), or a choice as a number (``30.5``).

        >>> Rules.preset("scat", lives="5") == Rules(lives=5)
        True

        Raises:
            RulesError: for an unknown preset or option, or a bad combination.
        """
        try:
            base = PRESETS[name]
        except (KeyError, TypeError):
            raise RulesError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}") from None
        return base.replace(**overrides)

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some options changed (checked as on creation). Values may also be given
        as text (``"on"``, ``"5"``, ``"30.5"``), ``three_of_a_kind`` as a number (``30.5``), and an
        on/off option as 1 or 0 (as its text ``"1"`` and ``"0"``; see :class:`Rules`).

        >>> Rules.preset("scat", grace_life=0) == Rules.preset("scat", grace_life="off")
        True
        >>> Rules.preset("scat", grace_life=2)
        Traceback (most recent call last):
        ...
        thirtyone.errors.RulesError: option grace_life is on or off: give True or False (or 1 or 0), not 2

        Raises:
            RulesError: for an unknown option or a bad value or combination.
        """
        for key, value in overrides.items():
            spec = OPTIONS.get(key)
            if spec is None:
                raise RulesError(f"unknown option {key!r}: options are {', '.join(OPTIONS)}")
            if isinstance(value, str):
                overrides[key] = spec.parse(value)
            elif spec.kind == "choice" and isinstance(value, int | float) and not isinstance(value, bool):
                overrides[key] = spec.parse(f"{value:g}")
        mode = overrides.get("mode", self.mode)
        if mode != self.mode and mode in _MODE_DEFAULTS:
            for key, value in _MODE_DEFAULTS[mode].items():
                overrides.setdefault(key, value)
        return dataclasses.replace(self, **overrides)

    def with_text_options(self, options: Mapping[str, str]) -> Rules:
        """A copy with options given as text (``{"three_of_a_kind": "30.5", "throw_down": "on"}``).

        Raises:
            RulesError: for an unknown option or a value it cannot take.
        """
        values: dict[str, Any] = {}
        for key, text in options.items():
            spec = OPTIONS.get(key)
            if spec is None:
                raise RulesError(f"unknown option {key!r}: options are {', '.join(OPTIONS)}")
            values[key] = spec.parse(text)
        return self.replace(**values)

    @cached_property
    def scoring_key(self) -> tuple[int, str, bool, bool]:
        """The options hand values depend on: ``(deck, three_of_a_kind, three_aces, straight_flush)``."""
        return (self.deck, self.three_of_a_kind, self.three_aces, self.straight_flush)

    @property
    def grace_word(self) -> str:
        """What a player on the grace life is called (R2.3) under the nearest preset: ``on the bus``
        (widow), ``schwimmt`` (Schwimmen), ``on the dole`` (the others)."""
        return {"widow": "on the bus", "schwimmen": "schwimmt"}.get(self.nearest_preset()[0], "on the dole")

    def options(self) -> dict[str, Any]:
        """Every option with its value, in declaration order."""
        return {name: getattr(self, name) for name in OPTIONS}

    def nearest_preset(self) -> tuple[str, dict[str, Any]]:
        """The preset these rules differ least from, and the options that differ from it."""
        best: tuple[str, dict[str, Any]] | None = None
        for name, preset in PRESETS.items():
            diff = {k: v for k, v in self.options().items() if getattr(preset, k) != v}
            if best is None or len(diff) < len(best[1]):
                best = (name, diff)
        assert best is not None
        return best

    def describe(self) -> str:
        """A short text: the nearest preset and what differs, e.g. ``scat, lives=5``."""
        name, diff = self.nearest_preset()
        return ", ".join([name] + [f"{k}={OPTIONS[k].format(v)}" for k, v in diff.items()])

    def cards_needed(self, players: int) -> int:
        """Cards a deal needs (R2.1 [decision]): three a player and :meth:`cards_spare`."""
        return 3 * players + self.cards_spare()

    def cards_spare(self) -> int:
        """Cards a deal needs besides the players' (R2.1 [decision]): six — three for the widow
        or the discard pile, three for the stock — from a deck of RULES.md (52 or 32 cards); from
        the mini deck (8 cards, a research variant) only the table's cards (the upcard, or the
        three of the widow) and one for the stock."""
        if self.deck >= 32:
            return 6
        return (1 if self.mode == "draw" else 3) + 1

    def default_players(self) -> int:
        """The players a table of these rules seats when none are asked for: :data:`DEFAULT_PLAYERS`,
        or as many as the deck deals when fewer (R2.1; the mini deck: 2).

        >>> Rules().default_players(), Rules.preset("mini").default_players()
        (4, 2)
        """
        return min(DEFAULT_PLAYERS, (self.deck - self.cards_spare()) // 3)

    def check_players(self, players: int) -> int:
        """Check that a game of ``players`` players can be dealt with these rules (R2.1); the
        count as an ``int`` (``numpy.int64`` too).

        Raises:
            RulesError: for fewer than 2 or more than 9 players, or more than the deck can deal.
        """
        count = whole_number(players)
        if count is None:
            raise RulesError(f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        players = count
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(
                f"R2.1: {players} player{'s' if players != 1 else ''} cannot play; "
                f"use {MIN_PLAYERS} to {MAX_PLAYERS} players"
            )
        need = self.cards_needed(players)
        if need > self.deck:
            spare = self.cards_spare()
            most = (self.deck - spare) // 3
            table = 3 if spare == 6 or self.mode == "widow" else 1
            advice = f"use at most {most} players or deck=52" if most >= MIN_PLAYERS else "use deck=32 or deck=52"
            raise RulesError(
                f"R2.1: {players} players need {need} cards (3 each, {table} for the table, {spare - table} for "
                f"the stock) but the deck has {self.deck} (deck={self.deck}); {advice}"
            )
        return players


def _check_value(spec: OptionSpec, value: Any) -> None:
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise _not_on_off(spec.name, value)
    elif spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not spec.low <= value <= spec.high:
            raise RulesError(f"option {spec.name} is {spec.describe_values()}, not {value!r}")
        if spec.only and value not in spec.only:
            raise RulesError(f"option {spec.name} is {spec.describe_values()}, not {value!r}")
    elif value not in spec.choices and (value is not None or spec.mode is None):  # None: the other mode's option
        raise RulesError(f"option {spec.name} is {spec.describe_values()}, not {value!r}")


def _not_on_off(name: str, value: object) -> RulesError:
    """The one refusal of an on/off option, for a value and for text alike (``True``, 1 and
    ``"1"`` are all on)."""
    return RulesError(f"option {name} is on or off: give True or False (or 1 or 0), not {value!r}")


_SPECS = (
    OptionSpec(
        "mode", "choice", "draw and discard (draw) or exchange with a widow (widow)", "R3.3", choices=("draw", "widow")
    ),
    OptionSpec(
        "deck",
        "int",
        "cards in the deck: 52, 32 (7 to ace), or 8 (9, Q, K, A of hearts and spades: the mini research deck)",
        "R1.1",
        low=min(DECK_SIZES),
        high=max(DECK_SIZES),
        only=tuple(sorted(DECK_SIZES)),
    ),
    OptionSpec("lives", "int", "lives each player starts with", "R2.2", low=1, high=20),
    OptionSpec("grace_life", "bool", "one more loss after the last life (on the dole / bus)", "R2.3"),
    OptionSpec(
        "three_of_a_kind", "choice", "three equal ranks score 30 or 30.5", "R1.4", choices=("off", "30", "30.5")
    ),
    OptionSpec("three_aces", "bool", "three aces (Feuer) score 33 and are a blitz", "R1.5"),
    OptionSpec("straight_flush", "bool", "three suited cards in sequence score 30 (A-K-Q 31)", "R1.6"),
    OptionSpec(
        "knock_penalty",
        "choice",
        "who loses at the showdown when the knocker is low",
        "R6.5",
        choices=("scat", "namu", "namu_risky", "widow", "plain"),
    ),
    OptionSpec(
        "knock_from_round", "int", "1: knock on your first turn; 2: after everyone has played", "R6.3", low=1, high=2
    ),
    OptionSpec("min_knock_value", "int", "lowest hand value that may knock (0: any)", "R6.4", low=0, high=30),
    OptionSpec("throw_down", "bool", "blind phase: throw down unseen or look at your cards", "R6.6"),
    OptionSpec("max_turns", "int", "turns after which a round ends in a showdown", "R6.7", low=1, high=10_000),
    OptionSpec(
        "stock_exhausted",
        "choice",
        "empty stock: reshuffle the discard pile, or showdown",
        "R4.3",
        choices=("reshuffle", "showdown"),
        mode="draw",
    ),
    OptionSpec(
        "all_pass",
        "choice",
        "everyone passed: showdown, or a new widow from the stock",
        "R7.3",
        choices=("showdown", "new_widow"),
        mode="widow",
    ),
    OptionSpec(
        "exchange",
        "choice",
        "exchange one card or all three (one_or_all), or any number (any)",
        "R7.5",
        choices=("one_or_all", "any"),
        mode="widow",
    ),
    OptionSpec("dealer_hand", "bool", "the dealer gets a second hand and picks one (Schwimmen)", "R7.6", mode="widow"),
)

OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in _SPECS}
"""Every option's :class:`OptionSpec`, by name, in declaration order."""

_MODE_DEFAULTS: dict[str, dict[str, Any]] = {
    "draw": {"stock_exhausted": "reshuffle", "all_pass": None, "exchange": None, "dealer_hand": False},
    "widow": {"stock_exhausted": None, "all_pass": "showdown", "exchange": "one_or_all", "throw_down": False},
}

PRESETS: dict[str, Rules] = {
    "scat": Rules(),
    "widow": Rules(
        mode="widow", knock_penalty="widow", stock_exhausted=None, all_pass="showdown", exchange="one_or_all"
    ),
    "namu": Rules(knock_penalty="namu", grace_life=False),
    "schwimmen": Rules(
        mode="widow",
        deck=32,
        three_of_a_kind="30.5",
        three_aces=True,
        knock_penalty="plain",
        knock_from_round=2,
        stock_exhausted=None,
        all_pass="new_widow",
        exchange="one_or_all",
        dealer_hand=True,
    ),
    "mini": Rules(deck=8, lives=1, grace_life=False, max_turns=3),  # a research variant (see the module)
}
"""The four presets of R8 and the research variant ``mini``, by name; ``scat`` is the default."""
