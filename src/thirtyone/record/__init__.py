"""Game records (R3.5): a documented, versioned, human-readable TOML format that holds everything
needed to replay a game exactly, and to check that the replay says what the record says.

A record holds the format and version (``format = "thirtyone-record"``, ``version = 3``), optional
metadata (``event``, ``date``, ``comment``), the seats' names, the rules (the nearest preset's name
and *every* option, so that a record stays complete if presets change), the outcome of a finished
game, and one ``[[rounds]]`` table per round: its number, dealer, full deck order (top card first),
the order of every reshuffle (R4.3), every action as ``"SEAT: ACTION"`` (``"2: discard Td"``, see
:mod:`thirtyone.actions`) and the round's result. ``docs/record-format.md`` documents every key.

A round dealt with a published commitment (``thirtyone serve``'s provably fair shuffles) also holds
its ``commitment`` (SHA-256 over a canonical text of the salt and the deck order, see
:func:`~thirtyone.fairness.deal_commitment`) and, once revealed, its secret ``salt``;
:meth:`GameRecord.check_commitments` checks them, and that every reshuffle is the one the salt
gives (:func:`~thirtyone.fairness.salted_reshuffle`).

This package is core: standard library only, strings in and strings out (no files). One job a
module: :mod:`~thirtyone.record.shapes` (the rounds, the fairness, the structure and its checks),
:mod:`~thirtyone.record.model` (:class:`GameRecord`), :mod:`~thirtyone.record.writing` (TOML
out), :mod:`~thirtyone.record.reading` (TOML in, every version), :mod:`~thirtyone.record.replay`
(through the engine, checked) and :mod:`~thirtyone.record.verify` (the provably fair shuffles,
whose hashes are :mod:`thirtyone.fairness`'s).

>>> from thirtyone import Game, Rules
>>> game = Game(Rules.preset("scat"), players=3, seed=7)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> record = GameRecord.from_game(game, ["Ann", "Bob", "Cy"], event="doctest")
>>> text = record.dumps()
>>> text.splitlines()[1:3]
['format = "thirtyone-record"', 'version = 3']
>>> again = GameRecord.loads(text)
>>> again == record, again.players, again.winner, again.action_count > 0
(True, 3, 0, True)
>>> replayed = again.replay()
>>> replayed.events == game.events
True
>>> again.replay(upto=2).round_logs[0].actions == game.round_logs[0].actions[:2]
True
>>> GameRecord.loads(text.replace("version = 3", "version = 7"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
thirtyone.errors.RecordError: record version 7 is not supported: this thirtyone reads versions 1, 2, 3; ...
"""

from thirtyone.fairness import DEAL_COMMITMENT_PREFIX
from thirtyone.fairness import RESHUFFLE_PREFIX
from thirtyone.fairness import check_salt
from thirtyone.fairness import deal_commitment
from thirtyone.fairness import salted_reshuffle
from thirtyone.record.model import GameRecord
from thirtyone.record.shapes import FORMAT
from thirtyone.record.shapes import SUPPORTED_VERSIONS
from thirtyone.record.shapes import V1_OPTIONS
from thirtyone.record.shapes import VERSION
from thirtyone.record.shapes import Fairness
from thirtyone.record.shapes import RoundRecord
from thirtyone.record.shapes import format_action
from thirtyone.record.shapes import parse_record_action
from thirtyone.text import describe_end

__all__ = [
    "FORMAT",
    "VERSION",
    "SUPPORTED_VERSIONS",
    "V1_OPTIONS",
    "GameRecord",
    "RoundRecord",
    "Fairness",
    "format_action",
    "parse_record_action",
    "describe_end",
    "deal_commitment",
    "salted_reshuffle",
    "check_salt",
    "DEAL_COMMITMENT_PREFIX",
    "RESHUFFLE_PREFIX",
]
