"""R6.5, R5, R2.4–R2.6 as the pure functions of thirtyone.settlement: every knock penalty in every
situation of the knocker, for two to four players, against a table written from RULES.md."""

from __future__ import annotations

import pytest

from thirtyone import Game
from thirtyone import Rules
from thirtyone.errors import ArgumentError
from thirtyone.errors import RulesError
from thirtyone.errors import ThirtyOneError
from thirtyone.rules import OPTIONS
from thirtyone.settlement import KNOCK_PENALTIES
from thirtyone.settlement import LOSS_KINDS
from thirtyone.settlement import LOSS_RULES
from thirtyone.settlement import Loss
from thirtyone.settlement import blitz_losses
from thirtyone.settlement import dealt_blitz
from thirtyone.settlement import loss_label
from thirtyone.settlement import settle
from thirtyone.settlement import showdown_losses
from thirtyone.strategy import knock_penalty_lives

KNOCKER = 0


def situation(name: str, players: int) -> dict[int, int]:
    """Hands in half points by seat, the knocker in seat 0: alone lowest, tied for lowest with seat
    1, in the middle (seat 1 lowest, others higher), or highest (seat 1 lowest)."""
    others = {seat: 40 + 2 * seat for seat in range(1, players)}
    if name == "alone_lowest":
        return {KNOCKER: 20, **others}
    if name == "tied_lowest":
        return {KNOCKER: 20, **others, 1: 20}
    if name == "middle":
        return {KNOCKER: 30, **others, 1: 10}
    return {KNOCKER: 60, **others, 1: 10}  # highest


# What RULES.md R6.5 says, as {seat: (lives, kind)}; "tied_2" is the tie of two players, where the
# knocker also shares the highest hand (which matters for namu_risky).
EXPECTED: dict[str, dict[str, dict[int, tuple[int, str]]]] = {
    "scat": {
        "alone_lowest": {0: (2, "knocker_alone_lowest")},
        "tied_lowest": {1: (1, "lowest_knocker_saved")},
        "middle": {1: (1, "lowest")},
        "highest": {1: (1, "lowest")},
    },
    "namu": {
        "alone_lowest": {0: (1, "lowest")},
        "tied_lowest": {1: (1, "lowest_knocker_saved")},
        "middle": {1: (1, "lowest")},
        "highest": {1: (1, "lowest")},
    },
    "namu_risky": {
        "alone_lowest": {0: (2, "knocker_not_highest")},
        "tied_lowest": {0: (2, "knocker_not_highest"), 1: (1, "lowest_knocker_saved")},
        "tied_2": {1: (1, "lowest_knocker_saved")},
        "middle": {0: (2, "knocker_not_highest"), 1: (1, "lowest")},
        "highest": {1: (1, "lowest")},
    },
    "widow": {
        "alone_lowest": {0: (2, "knocker_among_lowest")},
        "tied_lowest": {0: (2, "knocker_among_lowest"), 1: (1, "lowest")},
        "middle": {1: (1, "lowest")},
        "highest": {1: (1, "lowest")},
    },
    "plain": {
        "alone_lowest": {0: (1, "lowest")},
        "tied_lowest": {0: (1, "lowest"), 1: (1, "lowest")},
        "middle": {1: (1, "lowest")},
        "highest": {1: (1, "lowest")},
    },
}

CASES = [
    (penalty, name, players)
    for penalty in EXPECTED
    for name in ("alone_lowest", "tied_lowest", "middle", "highest")
    for players in (2, 3, 4)
    if not (name == "middle" and players == 2)  # two players: a knocker not lowest is highest
]


@pytest.mark.parametrize(("penalty", "name", "players"), CASES)
def test_r6_5_knock_penalty_table(penalty: str, name: str, players: int) -> None:
    expected = EXPECTED[penalty]
    wanted = expected["tied_2"] if name == "tied_lowest" and players == 2 and "tied_2" in expected else expected[name]
    losses = showdown_losses(situation(name, players), KNOCKER, penalty, "knock")
    assert {loss.seat: (loss.lives, loss.kind) for loss in losses} == wanted
    assert all(loss.rule == "R6.5" for loss in losses)
    assert all(loss.seats == ((KNOCKER,) if loss.kind == "lowest_knocker_saved" else ()) for loss in losses)


@pytest.mark.parametrize("penalty", list(KNOCK_PENALTIES))
def test_r6_5_a_throw_down_is_scored_as_a_knock(penalty: str) -> None:
    for name in ("alone_lowest", "tied_lowest", "highest"):
        hands = situation(name, 3)
        assert showdown_losses(hands, KNOCKER, penalty, "throw_down") == showdown_losses(
            hands, KNOCKER, penalty, "knock"
        )


@pytest.mark.parametrize(
    ("end", "kind"),
    [("all_pass", "lowest_all_passed"), ("max_turns", "lowest_turn_limit"), ("stock_exhausted", "lowest_stock_out")],
)
def test_r6_5_a_showdown_nobody_knocked_for_names_its_cause(end: str, kind: str) -> None:
    for penalty in KNOCK_PENALTIES:
        losses = showdown_losses({0: 20, 1: 20, 2: 30}, None, penalty, end)
        assert [(loss.seat, loss.lives, loss.kind) for loss in losses] == [(0, 1, kind), (1, 1, kind)]


def test_the_penalty_table_is_what_the_bots_read() -> None:
    assert {name: KNOCK_PENALTIES[name].most for name in KNOCK_PENALTIES} == {
        "scat": 2, "namu": 1, "namu_risky": 2, "widow": 2, "plain": 1,
    }  # fmt: skip
    for name in KNOCK_PENALTIES:
        rules = Rules.preset("scat", knock_penalty=name)
        assert knock_penalty_lives(rules) == KNOCK_PENALTIES[name].most
    assert [name for name, penalty in KNOCK_PENALTIES.items() if penalty.tie_saves] == ["scat", "namu", "namu_risky"]
    assert tuple(KNOCK_PENALTIES) == OPTIONS["knock_penalty"].choices


def test_r5_1_r5_3_a_blitz_costs_every_other_seat_one_life() -> None:
    assert blitz_losses((0, 2, 3), 2, knocked=False) == (Loss(0, 1, "blitz", (2,)), Loss(3, 1, "blitz", (2,)))
    assert [loss.kind for loss in blitz_losses((0, 1), 0, knocked=True)] == ["blitz_after_knock"]
    assert [loss.rule for loss in blitz_losses((0, 1), 0, knocked=True)] == ["R5.3"]


def test_r5_2_r5_5_blitzes_on_the_deal() -> None:
    assert dealt_blitz({0: 40, 1: 61, 2: 30}) is None  # 30½ is no blitz
    assert dealt_blitz({0: 62, 1: 40, 2: 62}) == ((0, 2), (Loss(1, 1, "dealt_blitz", (0, 2)),))
    aces = dealt_blitz({0: 62, 1: 66, 2: 40})
    assert aces == ((1,), (Loss(0, 1, "dealt_blitz_beaten", (1,)), Loss(2, 1, "dealt_blitz", (1,))))
    assert [loss.rule for loss in aces[1]] == ["R5.5", "R5.2"]


def test_r2_4_a_loss_of_two_with_one_left_puts_out() -> None:
    assert settle((1, 4, 4), (0, 1, 2), (Loss(0, 2, "knocker_alone_lowest"),)) == ((0, 4, 4), (0,), False)


def test_r2_6_a_result_that_would_put_everyone_out_leaves_each_one_loss() -> None:
    losses = (Loss(0, 1, "lowest"), Loss(1, 2, "knocker_among_lowest"))
    assert settle((1, 2, 0), (0, 1), losses) == ((1, 1, 0), (), True)
    assert settle((1, 2, 3), (0, 1, 2), losses) == ((0, 0, 3), (0, 1), False)  # one is left: no R2.6


def test_every_loss_kind_has_a_rule_and_a_label() -> None:
    assert set(LOSS_RULES) == set(LOSS_KINDS)
    assert loss_label("lowest") == "R6.5 lowest"
    assert loss_label("blitz") == "R5.1 blitz"
    with pytest.raises(ValueError, match="unknown loss kind 'bad_luck'"):
        Loss(0, 1, "bad_luck")  # type: ignore[arg-type]


def test_the_engine_charges_what_the_settlement_says() -> None:
    """Over whole games of every penalty, each showdown's losses are showdown_losses of its hands."""
    checked = 0
    for penalty in KNOCK_PENALTIES:
        game = Game(Rules.preset("scat", knock_penalty=penalty, lives=6), 4, seed=3)
        while not game.is_over:
            game.apply(game.legal_actions()[-1] if game.turn > 6 else game.legal_actions()[0])
        for log in game.round_logs:
            result = log.result
            if result is None or result.end not in ("knock", "max_turns", "all_pass", "stock_exhausted"):
                continue
            halves = {seat: int(2 * value) for seat, value in enumerate(result.values) if value is not None}
            assert result.losses == showdown_losses(halves, result.knocker, penalty, result.end)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(
    ("call", "error", "wanted"),
    [
        (lambda: showdown_losses({0: 30, 1: 40}, None, "bogus", "knock"), RulesError, "unknown knock_penalty 'bogus'"),
        (lambda: showdown_losses({}, None, "scat", "knock"), ArgumentError, "a showdown needs the hands"),
        (lambda: showdown_losses({0: 30, 1: 40}, 5, "scat", "knock"), ArgumentError, "knocker 5 has no hand"),
        (lambda: showdown_losses({0: 30, 1: 40}, None, "scat", "blitz"), ArgumentError, "a showdown ends a round by"),
        (lambda: settle([1], [0, 1], ()), ArgumentError, "the seats in the round (0, 1) need a count above 0"),
        (lambda: settle([-1, 4], [1], ()), ArgumentError, "remaining losses are counts of 0 or more"),
        (lambda: settle([2, 2], [0, 1], (Loss(2, 1, "lowest"),)), ArgumentError, "a loss of a seat not in the round"),
        (lambda: blitz_losses([0, 1, 2], 7, False), ArgumentError, "seat 7 showed a blitz but is not among"),
        (lambda: dealt_blitz({}), ArgumentError, "a deal needs the hands"),
        (lambda: loss_label("bogus"), ArgumentError, "unknown loss kind 'bogus'"),  # type: ignore[arg-type]
        (lambda: Loss(0, 3, "lowest"), ArgumentError, "a loss is 1 or 2 lives"),
    ],
)
def test_the_settlement_refuses_what_no_round_has(call, error, wanted) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as refused:
        call()
    assert str(refused.value).startswith(wanted)
    assert isinstance(refused.value, ThirtyOneError)
