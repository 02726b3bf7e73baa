"""thirtyone: the card game Thirty-One (Scat, Blitz, Schwimmen) — exact rules for every common
variant, game records, bots and a terminal game.

>>> from thirtyone import Game, Rules, parse_cards, hand_value
>>> hand_value(parse_cards("Ad Kd Td"))
31
>>> game = Game(Rules.preset("scat"), players=4, seed=1)
>>> game.legal_actions()
(Draw(source='stock'), Draw(source='pile'), Knock())
"""

from thirtyone.actions import Action
from thirtyone.actions import Discard
from thirtyone.actions import Draw
from thirtyone.actions import Exchange
from thirtyone.actions import ExchangeAll
from thirtyone.actions import Keep
from thirtyone.actions import Knock
from thirtyone.actions import Look
from thirtyone.actions import Pass
from thirtyone.actions import TakeWidow
from thirtyone.actions import ThrowDown
from thirtyone.actions import parse_action
from thirtyone.cards import Card
from thirtyone.cards import format_cards
from thirtyone.cards import full_deck
from thirtyone.cards import parse_cards
from thirtyone.chance import Chance
from thirtyone.chance import ChanceKind
from thirtyone.chance import ChanceStep
from thirtyone.chance import DuplicateChance
from thirtyone.chance import ScriptedChance
from thirtyone.chance import SeededChance
from thirtyone.engine import Game
from thirtyone.engine import RoundLog
from thirtyone.errors import ActionError
from thirtyone.errors import ArgumentError
from thirtyone.errors import CardError
from thirtyone.errors import PositionError
from thirtyone.errors import RecordError
from thirtyone.errors import RulesError
from thirtyone.errors import SeatError
from thirtyone.errors import ThirtyOneError
from thirtyone.events import Acted
from thirtyone.events import Event
from thirtyone.events import GameOver
from thirtyone.events import Loss
from thirtyone.events import NewWidow
from thirtyone.events import Reshuffled
from thirtyone.events import RoundEnded
from thirtyone.events import RoundResult
from thirtyone.events import RoundStarted
from thirtyone.position import Position
from thirtyone.refusals import IllegalActionError
from thirtyone.rules import PRESETS
from thirtyone.rules import Rules
from thirtyone.scoring import hand_value
from thirtyone.scoring import is_blitz
from thirtyone.settlement import LOSS_KINDS
from thirtyone.settlement import LossKind
from thirtyone.views import Phase
from thirtyone.views import PlayerView
from thirtyone.views import PublicView
from thirtyone.views import SeatStatus
from thirtyone.views import Standing

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
