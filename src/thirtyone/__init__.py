"""thirtyone: the card game Thirty-One (Scat, Blitz, Schwimmen) — exact rules for every common
variant, game records, bots and a terminal game.

>>> from thirtyone import Game, Rules, parse_cards, hand_value
>>> hand_value(parse_cards("Ad Kd Td"))
31
>>> game = Game(Rules.preset("scat"), players=4, seed=1)
>>> game.legal_actions()
(Draw(source='stock'), Draw(source='pile'), Knock())
"""

from thirtyone.actions import (
    Action,
    Discard,
    Draw,
    Exchange,
    ExchangeAll,
    Keep,
    Knock,
    Look,
    Pass,
    TakeWidow,
    ThrowDown,
    parse_action,
)
from thirtyone.cards import Card, format_cards, full_deck, parse_cards
from thirtyone.chance import Chance, ChanceKind, ChanceStep, DuplicateChance, ScriptedChance, SeededChance
from thirtyone.engine import Game, RoundLog
from thirtyone.errors import (
    ActionError,
    ArgumentError,
    CardError,
    PositionError,
    RecordError,
    RulesError,
    SeatError,
    ThirtyOneError,
)
from thirtyone.events import (
    Acted,
    Event,
    GameOver,
    Loss,
    NewWidow,
    Reshuffled,
    RoundEnded,
    RoundResult,
    RoundStarted,
)
from thirtyone.position import Position
from thirtyone.refusals import IllegalActionError
from thirtyone.rules import PRESETS, Rules
from thirtyone.scoring import hand_value, is_blitz
from thirtyone.settlement import LOSS_KINDS, LossKind
from thirtyone.views import Phase, PlayerView, PublicView, SeatStatus, Standing

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Discard",
    "Draw",
    "Exchange",
    "ExchangeAll",
    "Keep",
    "Knock",
    "Look",
    "Pass",
    "TakeWidow",
    "ThrowDown",
    "parse_action",
    "Card",
    "format_cards",
    "full_deck",
    "parse_cards",
    "Chance",
    "ChanceKind",
    "ChanceStep",
    "DuplicateChance",
    "ScriptedChance",
    "SeededChance",
    "Game",
    "RoundLog",
    "Position",
    "ActionError",
    "ArgumentError",
    "CardError",
    "IllegalActionError",
    "PositionError",
    "RecordError",
    "SeatError",
    "RulesError",
    "ThirtyOneError",
    "Acted",
    "Event",
    "GameOver",
    "Loss",
    "NewWidow",
    "Reshuffled",
    "RoundEnded",
    "RoundResult",
    "RoundStarted",
    "PRESETS",
    "Rules",
    "hand_value",
    "is_blitz",
    "Phase",
    "PlayerView",
    "PublicView",
    "LossKind",
    "LOSS_KINDS",
    "SeatStatus",
    "Standing",
    "__version__",
]
